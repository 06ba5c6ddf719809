"""1841 as the engine knows it (:class:`~stellwerk.titles.contract.Title`): its id, its game
class, its option declarations and its data, loaded on first use; money in lire (``L.100``)."""

from __future__ import annotations

from collections.abc import Mapping

from stellwerk.core.game import Game
from stellwerk.titles.contract import Declarations, Presentation, Title


def _game() -> type[Game]:
    from stellwerk.titles.g1841.game import Game1841

    return Game1841


def _declared() -> Declarations:
    from stellwerk.titles.g1841.options import DECLARED

    return DECLARED


def _data() -> None:
    """Read the data files and build the printed map once per process."""
    from stellwerk.titles.g1841.mapport import MapPort

    MapPort()


def _sentences() -> Mapping[str, Mapping[str, str]]:
    """The sentences of the title's questions and answers (its ``wording``)."""
    from stellwerk.titles.g1841.wording import SENTENCES

    return SENTENCES


TITLE = Title(
    id="1841",
    description="1841 - Northern Italy (18xx.games rules, first and second edition, 1841lite)",
    package="stellwerk.titles.g1841",
    load_game=_game,
    load_declared=_declared,
    load_data=_data,
    presentation=Presentation(
        currency="L.{}",
        load_sentences=_sentences,
    ),
)
"""1841, as the registry (``stellwerk.titles.registry.TITLES``) lists it."""
