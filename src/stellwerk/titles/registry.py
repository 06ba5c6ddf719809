"""Titles by id: the one mapping of the titles the engine has (:data:`TITLES`).

Each entry is a title's :class:`~stellwerk.titles.contract.Title`, exported as ``TITLE`` by its
``title.py``; adding a title is writing that object and one line here (:data:`BUILT_IN`), or,
for a title outside this package (a test's made-up title), calling :func:`register` with it
and :func:`unregister` when done.  :data:`TITLES` is a live read-only view of the registered
titles, so whoever reads it when called sees what is registered then; front ends never keep a
copy of it.  What a front end lists
(``stellwerk titles``, ``stellwerk options TITLE``, the web's new-game page) and checks before
it builds a game comes from here; the facts themselves stay where they are declared once:
player counts in each title's ``data/game.toml`` (``[players]``), options in its ``options.py``
(``DECLARED``, a core :class:`~stellwerk.core.options.Declared`).  Title code and data are
imported on first use, so listing titles stays cheap.  The functions below are the lookups
front ends call by title id; each refuses an unknown id naming the known ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from stellwerk.core.errors import IllegalAction
from stellwerk.core.game import Game
from stellwerk.core.jsondata import JSONObject
from stellwerk.core.options import Option
from stellwerk.titles.contract import Declarations, Title
from stellwerk.titles.g1835.title import TITLE as TITLE_1835
from stellwerk.titles.g1841.title import TITLE as TITLE_1841
from stellwerk.titles.g1849.title import TITLE as TITLE_1849

BUILT_IN: tuple[Title, ...] = (TITLE_1849, TITLE_1835, TITLE_1841)
"""The titles of this package, in the order front ends list them."""

_REGISTERED: dict[str, Title] = {title.id: title for title in BUILT_IN}

TITLES: Mapping[str, Title] = MappingProxyType(_REGISTERED)
"""Every registered title by id, in the order front ends list them (the built-in ones, then
the ones :func:`register` added, in the order they were added): a live view, never a copy."""


def register(title: Title) -> None:
    """Add ``title`` to the registry, listed after the titles there; an id that is already
    registered is refused (a title replaces no other)."""
    if title.id in _REGISTERED:
        raise ValueError(f"title {title.id!r} is registered already")
    _REGISTERED[title.id] = title


def unregister(title_id: str) -> None:
    """Take the title ``title_id`` out of the registry; a built-in title stays (it is refused),
    an id that is not registered is ignored."""
    if any(title.id == title_id for title in BUILT_IN):
        raise ValueError(f"title {title_id!r} is built in")
    _REGISTERED.pop(title_id, None)


def registered() -> tuple[Title, ...]:
    """The registered titles, in the order front ends list them."""
    return tuple(_REGISTERED.values())


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

    def to_dict(self) -> JSONObject:
        return {
            "id": self.id,
            "description": self.description,
            "players": list(self.players),
            "options": [option.to_dict() for option in self.options],
        }


def known_titles() -> str:
    """``1849, 1835, 1841`` for messages."""
    return ", ".join(TITLES)


def get_title(title_id: str) -> Title:
    """The registered title ``title_id``; an unknown id is refused, naming the known ones."""
    found = TITLES.get(title_id)
    if found is None:
        raise IllegalAction(f"unknown title {title_id!r}; known titles: {known_titles()}", "titles")
    return found


def check_title(title_id: str) -> None:
    """Refuse a title we do not have, naming the ones we have."""
    get_title(title_id)


def title_class(title_id: str) -> type[Game]:
    """The game class of a title (imported on first use)."""
    return get_title(title_id).game_class()


def package(title_id: str) -> str:
    """The Python package of a title's code and data."""
    return get_title(title_id).package


def declared(title_id: str) -> Declarations:
    """A title's option declarations (its ``options.DECLARED``, imported on first use)."""
    return get_title(title_id).declared()


def player_counts(title_id: str) -> tuple[int, ...]:
    """The player counts a title allows, from its ``data/game.toml`` (``[players]``)."""
    return get_title(title_id).player_counts()


def _option_info(decl: Declarations, option: Option) -> OptionInfo:
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


def title_info(title_id: str) -> TitleInfo:
    """Everything ``stellwerk titles`` and ``stellwerk options`` show about a title."""
    entry = get_title(title_id)
    decl = entry.declared()
    return TitleInfo(
        id=entry.id,
        description=entry.description,
        players=decl.counts(),
        options=tuple(_option_info(decl, option) for option in decl.options.values()),
    )


def describe_counts(counts: Iterable[int]) -> str:
    """``3 to 5`` for a run of counts, else ``3, 5``."""
    values = sorted(counts)
    if values and values == list(range(values[0], values[-1] + 1)) and len(values) > 2:
        return f"{values[0]} to {values[-1]}"
    return ", ".join(str(value) for value in values)


def check_setup(title_id: str, count: int, options: Iterable[str]) -> None:
    """Refuse an unknown title, a wrong player count, and unknown, conflicting or incomplete
    options (core ``check_setup`` on the title's declarations), before any game is built."""
    declared(title_id).check(options, count)


def prepare(title_id: str) -> None:
    """Load a title's code and data files once (program start-up, not game time)."""
    entry = get_title(title_id)
    entry.game_class()
    entry.load_data()
