"""1835 as the engine knows it (:class:`~stellwerk.titles.contract.Title`): its id, its game
class, its option declarations and its data, loaded on first use; money in marks
(``1,000 M``)."""

from __future__ import annotations

from collections.abc import Mapping

from stellwerk.core.game import Game
from stellwerk.titles.contract import Declarations, Presentation, Title


def _game() -> type[Game]:
    from stellwerk.titles.g1835.game import Game1835

    return Game1835


def _declared() -> Declarations:
    from stellwerk.titles.g1835.options import DECLARED

    return DECLARED


def _data() -> None:
    """Read and check the data files once per process."""
    from stellwerk.titles.g1835.data_load import title_data

    title_data()


def _sentences() -> Mapping[str, Mapping[str, str]]:
    """The sentences of the title's questions and answers (its ``wording``)."""
    from stellwerk.titles.g1835.wording import SENTENCES

    return SENTENCES


TITLE = Title(
    id="1835",
    description="1835 - Germany before the Prussian formation (Rails rules and start variants)",
    package="stellwerk.titles.g1835",
    load_game=_game,
    load_declared=_declared,
    load_data=_data,
    presentation=Presentation(
        currency="{} M",
        load_sentences=_sentences,
        colors={
            "BY": ("#1e4fa8", "#fff"),
            "SX": ("#d02b2b", "#fff"),
            "BA": ("#8b5a2b", "#fff"),
            "WT": ("#f2c500", "#000"),
            "HE": ("#2f8f3a", "#fff"),
            "MS": ("#7a3fa0", "#fff"),
            "OL": ("#8e8e8e", "#000"),
            "PR": ("#111111", "#fff"),
            **{f"M{n}": ("#3b3b3b", "#fff") for n in range(1, 7)},
        },
    ),
)
"""1835, as the registry (``stellwerk.titles.registry.TITLES``) lists it."""
