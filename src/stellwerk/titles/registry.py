"""Titles by name: their game classes, player counts and declared options.

What a front end lists (``stellwerk titles``, ``stellwerk options TITLE``) and checks before it
builds a game comes from here; the facts themselves stay where they are declared once: player
counts in each title's ``data/game.toml`` (``[players]``), options in its ``options.py``.
Title code and data are imported on first use, so listing titles stays cheap.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from stellwerk.core.errors import IllegalAction
from stellwerk.core.game import Game

TITLES = ("1849", "1835")

_DESCRIPTIONS = {
    "1849": "1849 - The Game of Sicilian Railways (18xx.games rules, seed 001 variants)",
    "1835": "1835 - Germany before the Prussian formation (Rails rules and start variants)",
}
_PACKAGES = {"1849": "stellwerk.titles.g1849", "1835": "stellwerk.titles.g1835"}


@dataclass(frozen=True)
class OptionInfo:
    """One declared option as front ends show it."""

    id: str
    label: str
    source: str
    players: tuple[int, ...]
    requires: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "source": self.source,
            "players": list(self.players),
            "requires": list(self.requires),
            "conflicts": list(self.conflicts),
            "note": self.note,
        }


@dataclass(frozen=True)
class TitleInfo:
    """A title: id, one-line description, allowed player counts and its options."""

    id: str
    description: str
    players: tuple[int, ...]
    options: tuple[OptionInfo, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "description": self.description,
            "players": list(self.players),
            "options": [option.to_dict() for option in self.options],
        }


def known_titles() -> str:
    """``1849, 1835`` for messages."""
    return ", ".join(TITLES)


def check_title(title: str) -> None:
    """Refuse a title we do not have, naming the ones we have."""
    if title not in _PACKAGES:
        raise IllegalAction(f"unknown title {title!r}; known titles: {known_titles()}", "titles")


def title_class(title: str) -> type[Game]:
    """The game class of a title (imported on first use)."""
    check_title(title)
    if title == "1849":
        from stellwerk.titles.g1849.game import Game1849

        return Game1849
    from stellwerk.titles.g1835.game import Game1835

    return Game1835


def _options_module(title: str) -> Any:
    check_title(title)
    return importlib.import_module(f"{_PACKAGES[title]}.options")


def player_counts(title: str) -> tuple[int, ...]:
    """The player counts a title allows, from its ``data/game.toml`` (``[players]``)."""
    counts: tuple[int, ...] = _options_module(title).player_counts()
    return counts


def _option_info(option: Any) -> OptionInfo:
    return OptionInfo(
        id=option.id,
        label=option.label,
        source=option.source,
        players=tuple(option.players),
        requires=tuple(getattr(option, "requires", ())),
        conflicts=tuple(getattr(option, "conflicts", ())),
        note=str(getattr(option, "note", "")),
    )


def title_info(title: str) -> TitleInfo:
    """Everything ``stellwerk titles`` and ``stellwerk options`` show about a title."""
    module = _options_module(title)
    return TitleInfo(
        id=title,
        description=_DESCRIPTIONS[title],
        players=player_counts(title),
        options=tuple(_option_info(option) for option in module.OPTIONS.values()),
    )


def describe_counts(counts: Iterable[int]) -> str:
    """``3 to 5`` for a run of counts, else ``3, 5``."""
    values = sorted(counts)
    if values and values == list(range(values[0], values[-1] + 1)) and len(values) > 2:
        return f"{values[0]} to {values[-1]}"
    return ", ".join(str(value) for value in values)


def check_setup(title: str, count: int, options: Iterable[str]) -> None:
    """Refuse an unknown title, a wrong player count, and unknown, conflicting or incomplete
    options (each title's ``options.check_options``), before any game is built."""
    _options_module(title).check_options(list(options), count)


def prepare(title: str) -> None:
    """Load a title's code and data files once (program start-up, not game time)."""
    cls = title_class(title)
    warm = getattr(cls, "warm", None)
    if callable(warm):
        warm()
