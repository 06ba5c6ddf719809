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

import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
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


THOUSANDS = {"en": ",", "de": "."}
"""The thousands separator of each language."""

LANGUAGES = ("en", "de")
"""The languages every sentence is written in."""

COMMON_SENTENCES: Mapping[str, Mapping[str, str]] = {
    "en": {
        "choice.choose": "Choose {choice}",
        "choice.pass": "Pass",
        "choice.decline": "Decline",
    },
    "de": {
        "choice.choose": "{choice} wählen",
        "choice.pass": "Passen",
        "choice.decline": "Ablehnen",
    },
}
"""Sentences every title shares: an answer nobody has described (its bare value), a pass."""


class Wording(string.Formatter):
    """Fills a sentence with facts: ``{total:money}`` is an amount in the title's currency,
    ``{share:percent}`` a percentage in the language's way; other fields as given."""

    def __init__(self, presentation: Presentation, lang: str) -> None:
        super().__init__()
        self.presentation = presentation
        self.lang = lang

    def format_field(self, value: object, format_spec: str) -> str:
        if format_spec == "money" and isinstance(value, int):
            return self.presentation.money(value, self.lang)
        if format_spec == "percent" and isinstance(value, int):
            return f"{value} %" if self.lang == "de" else f"{value}%"
        if format_spec in ("money", "percent"):
            return str(value)
        return str(super().format_field(value, format_spec))


@dataclass(frozen=True)
class Presentation:
    """How front ends show a title's game.  ``currency``: an amount's text with ``{}`` for
    its digits (``L.{}`` gives ``L.1,000``; ``{} M`` gives ``1.000 M`` in German), as the
    title's rulebook writes money.  ``sentences``: by language, the sentence of each
    question topic (key ``topic.<topic>``) and answer kind (``choice.<kind>``) the title's
    rules ask (``stellwerk.core.asking``), with facts in braces (``{total:money}``);
    the title's own ones beside :data:`COMMON_SENTENCES`, read by a loader on first use
    (its ``wording`` module) so that listing titles stays cheap.  ``colors``: a fill and a
    text colour per corporation symbol, for pictures of a title whose data names none
    (symbols in neither get the pictures' cycle of colours).  ``market_labels``: what a
    market type letter means in this title (``p``: ``start price``), for the market's legend;
    letters not listed keep the pictures' generic text."""

    currency: str
    load_sentences: Callable[[], Mapping[str, Mapping[str, str]]] = lambda: {}
    colors: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    market_labels: Mapping[str, str] = field(default_factory=dict)

    @property
    def sentences(self) -> Mapping[str, Mapping[str, str]]:
        """The title's own sentences by language and key."""
        return self.load_sentences()

    def money(self, amount: int, lang: str = "en") -> str:
        """``amount`` in the title's currency, digits grouped as ``lang`` groups them."""
        digits = f"{abs(amount):,}".replace(",", THOUSANDS.get(lang, ","))
        text = self.currency.format(digits)
        return f"-{text}" if amount < 0 else text

    def sentence(self, key: str, facts: Mapping[str, object], lang: str = "en") -> str | None:
        """The sentence ``key`` in ``lang`` (English where ``lang`` is not written) filled
        with ``facts``; None when neither the title nor the common sentences have it, or a
        fact it names is not given."""
        found = None
        for language in (lang, "en"):
            for table in (self.load_sentences(), COMMON_SENTENCES):
                found = table.get(language, {}).get(key)
                if found is not None:
                    break
            if found is not None:
                break
        if found is None:
            return None
        try:
            return Wording(self, lang).vformat(found, (), dict(facts))
        except (KeyError, IndexError):
            return None


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
