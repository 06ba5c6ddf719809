"""1849 as the engine knows it (:class:`~stellwerk.titles.contract.Title`): its id, its game
class, its option declarations and its data, loaded on first use; money in lire (``L.100``)."""

from __future__ import annotations

from collections.abc import Mapping

from stellwerk.core.game import Game
from stellwerk.titles.contract import Declarations, Presentation, Title


def _game() -> type[Game]:
    from stellwerk.titles.g1849.game import Game1849

    return Game1849


def _declared() -> Declarations:
    from stellwerk.titles.g1849.options import DECLARED

    return DECLARED


def _data() -> None:
    """Read and check the data files and build the map tables once per process."""
    from stellwerk.titles.g1849.data_load import title_data
    from stellwerk.titles.g1849.rules.track import new_board

    title_data()
    new_board()


def _sentences() -> Mapping[str, Mapping[str, str]]:
    """The sentences of the title's questions and answers (its ``wording``)."""
    from stellwerk.titles.g1849.wording import SENTENCES

    return SENTENCES


TITLE = Title(
    id="1849",
    description="1849 - The Game of Sicilian Railways (18xx.games rules, seed 001 variants)",
    package="stellwerk.titles.g1849",
    load_game=_game,
    load_declared=_declared,
    load_data=_data,
    presentation=Presentation(
        currency="L.{}",
        load_sentences=_sentences,
        colors={
            "AFG": ("#d0262d", "#fff"),
            "ATA": ("#1f8a3b", "#fff"),
            "CTL": ("#f5c400", "#000"),
            "IFT": ("#1c5fb4", "#fff"),
            "RCS": ("#f07f14", "#000"),
            "SFA": ("#e56aa6", "#000"),
        },
    ),
)
"""1849, as the registry (``stellwerk.titles.registry.TITLES``) lists it."""
