"""The title contract: what a title gives the rest of the engine, as one object.

Each title package has a ``title.py`` exporting ``TITLE``, a :class:`Title`; the registry
(``stellwerk.titles.registry.TITLES``) maps each title's id to it, and every front end (the
CLI's ``titles``, ``options``, ``new``, the web pages, the game master, the words and pictures)
reads a title only through it.  A ``title.py`` imports nothing of its title's rules: the game
class, the option declarations and the data files are reached through loaders called on first
use, so listing titles stays cheap.

The facts stay where they are declared once: player counts in the title's ``data/game.toml``
(``[players]``, read by its option declarations), options in its ``options.py``
(``DECLARED``), the rules in its game class.  A :class:`Title` only points at them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from stellwerk.core.game import Game
from stellwerk.core.options import Option


class Declarations(Protocol):
    """What is read of a title's option declarations (a core
    :class:`~stellwerk.core.options.Declared`, whatever the type of its settings): the options
    by id, the title's player counts, the counts an option is for, and the check of a set-up,
    which returns the chosen options with the ones they imply."""

    @property
    def options(self) -> Mapping[str, Option]: ...

    @property
    def counts(self) -> Callable[[], tuple[int, ...]]: ...

    def players_of(self, option: Option) -> tuple[int, ...]: ...

    def check(self, chosen: Iterable[str], players: int) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class Presentation:
    """How front ends show a title's game.  ``currency``: an amount's text with ``{}`` for
    its digits (``L.{}`` gives ``L.1,000``; ``{} M`` gives ``1.000 M`` in German), as the
    title's rulebook writes money."""

    currency: str


@dataclass(frozen=True)
class Title:
    """One title: ``id`` (its name in game files, ``1849``), a one-line ``description``, the
    Python ``package`` of its code and data, and loaders called on first use:
    ``load_game`` gives its game class, ``load_declared`` its option declarations (with its
    player counts), ``load_data`` reads its data files and builds its printed map once per
    process (program start-up, outside any timed replay).  ``presentation``: how front ends
    show it."""

    id: str
    description: str
    package: str
    load_game: Callable[[], type[Game]]
    load_declared: Callable[[], Declarations]
    load_data: Callable[[], None]
    presentation: Presentation

    def game_class(self) -> type[Game]:
        """The title's game class (its rules, imported on first use)."""
        return self.load_game()

    def declared(self) -> Declarations:
        """The title's option declarations (its ``options.DECLARED``)."""
        return self.load_declared()

    def player_counts(self) -> tuple[int, ...]:
        """The player counts the title allows (its ``data/game.toml``, ``[players]``)."""
        return self.load_declared().counts()

    def min_players(self) -> int:
        """The fewest players the title allows."""
        return min(self.player_counts())
