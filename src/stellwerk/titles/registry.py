"""Titles by name: their game classes, player counts and declared options.

What a front end lists (``stellwerk titles``, ``stellwerk options TITLE``) and checks before it
builds a game comes from here; the facts themselves stay where they are declared once: player
counts in each title's ``data/game.toml`` (``[players]``), options in its ``options.py``
(``DECLARED``, a core :class:`~stellwerk.core.options.Declared`).  Title code and data are
imported on first use, so listing titles stays cheap.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from stellwerk.core.errors import IllegalAction
from stellwerk.core.game import Game
from stellwerk.core.jsondata import JSONObject
from stellwerk.core.options import Declared, Option

if TYPE_CHECKING:
    from stellwerk.titles.g1835.settings import Settings1835
    from stellwerk.titles.g1841.settings import Settings1841
    from stellwerk.titles.g1849.settings import Settings1849

TitleDeclared: TypeAlias = (
    "Declared[Settings1849] | Declared[Settings1835] | Declared[Settings1841]"
)
"""The option declarations of one of our titles."""

TITLES = ("1849", "1835", "1841")

_DESCRIPTIONS = {
    "1849": "1849 - The Game of Sicilian Railways (18xx.games rules, seed 001 variants)",
    "1835": "1835 - Germany before the Prussian formation (Rails rules and start variants)",
    "1841": "1841 - Northern Italy (18xx.games rules, first and second edition, 1841lite)",
}
IN_PROGRESS: dict[str, str] = {}
"""Titles still being built: listed and loadable, but refused for new games (``check_playable``)
so that nobody starts a game the engine cannot finish."""

_PACKAGES = {
    "1849": "stellwerk.titles.g1849",
    "1835": "stellwerk.titles.g1835",
    "1841": "stellwerk.titles.g1841",
}


@dataclass(frozen=True)
class OptionInfo:
    """One declared option as front ends show it (``implies``: the options it chooses too, a
    preset)."""

    id: str
    label: str
    source: str
    players: tuple[int, ...]
    requires: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()
    note: str = ""
    implies: tuple[str, ...] = ()

    def to_dict(self) -> JSONObject:
        return {
            "id": self.id,
            "label": self.label,
            "source": self.source,
            "players": list(self.players),
            "requires": list(self.requires),
            "conflicts": list(self.conflicts),
            "implies": list(self.implies),
            "note": self.note,
        }


@dataclass(frozen=True)
class TitleInfo:
    """A title: id, one-line description, allowed player counts and its options."""

    id: str
    description: str
    players: tuple[int, ...]
    options: tuple[OptionInfo, ...]
    in_progress: str = ""

    def to_dict(self) -> JSONObject:
        return {
            "id": self.id,
            "description": self.description,
            "players": list(self.players),
            "options": [option.to_dict() for option in self.options],
            "in_progress": self.in_progress,
        }


def known_titles() -> str:
    """``1849, 1835, 1841`` for messages."""
    return ", ".join(TITLES)


def check_title(title: str) -> None:
    """Refuse a title we do not have, naming the ones we have."""
    if title not in _PACKAGES:
        raise IllegalAction(f"unknown title {title!r}; known titles: {known_titles()}", "titles")


def check_playable(title: str) -> None:
    """Refuse a new game of a title still being built (``IN_PROGRESS``), saying what is
    missing (an unknown title is the engine's to refuse)."""
    if title in IN_PROGRESS:
        raise IllegalAction(f"{title} cannot be played yet: {IN_PROGRESS[title]}", "titles")


def title_class(title: str) -> type[Game]:
    """The game class of a title (imported on first use)."""
    check_title(title)
    if title == "1849":
        from stellwerk.titles.g1849.game import Game1849

        return Game1849
    if title == "1841":
        from stellwerk.titles.g1841.game import Game1841

        return Game1841
    from stellwerk.titles.g1835.game import Game1835

    return Game1835


def package(title: str) -> str:
    """The Python package of a title's code and data."""
    check_title(title)
    return _PACKAGES[title]


def declared(title: str) -> TitleDeclared:
    """A title's option declarations (its ``options.DECLARED``, imported on first use)."""
    check_title(title)
    if title == "1849":
        from stellwerk.titles.g1849.options import DECLARED as DECLARED_1849

        return DECLARED_1849
    if title == "1841":
        from stellwerk.titles.g1841.options import DECLARED as DECLARED_1841

        return DECLARED_1841
    from stellwerk.titles.g1835.options import DECLARED as DECLARED_1835

    return DECLARED_1835


def player_counts(title: str) -> tuple[int, ...]:
    """The player counts a title allows, from its ``data/game.toml`` (``[players]``)."""
    return declared(title).counts()


def _option_info(decl: TitleDeclared, option: Option) -> OptionInfo:
    return OptionInfo(
        id=option.id,
        label=option.label,
        source=option.source,
        players=decl.players_of(option),
        requires=option.requires,
        conflicts=option.conflicts,
        note=option.note,
        implies=option.implies,
    )


def title_info(title: str) -> TitleInfo:
    """Everything ``stellwerk titles`` and ``stellwerk options`` show about a title."""
    decl = declared(title)
    return TitleInfo(
        id=title,
        description=_DESCRIPTIONS[title],
        players=decl.counts(),
        options=tuple(_option_info(decl, option) for option in decl.options.values()),
        in_progress=IN_PROGRESS.get(title, ""),
    )


def describe_counts(counts: Iterable[int]) -> str:
    """``3 to 5`` for a run of counts, else ``3, 5``."""
    values = sorted(counts)
    if values and values == list(range(values[0], values[-1] + 1)) and len(values) > 2:
        return f"{values[0]} to {values[-1]}"
    return ", ".join(str(value) for value in values)


def check_setup(title: str, count: int, options: Iterable[str]) -> None:
    """Refuse an unknown title, a wrong player count, and unknown, conflicting or incomplete
    options (core ``check_setup`` on the title's declarations), before any game is built."""
    declared(title).check(options, count)


def prepare(title: str) -> None:
    """Load a title's code and data files once (program start-up, not game time)."""
    cls = title_class(title)
    warm = getattr(cls, "warm", None)
    if callable(warm):
        warm()
