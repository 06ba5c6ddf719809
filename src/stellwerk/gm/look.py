"""What the GM looks at, asked of the engine once per position.

A processing asks the same position many times (does this order fit? that standing order?
the default?); ``legal``, ``hexes`` and ``snap`` remember the answer of
``Game.legal_actions()``, ``Game.lay_hexes()`` and ``Game.snapshot()`` for the game's current
record length (every processed, refused-free action, undo or site action lengthens
``raw_actions``; a refused action changes nothing, so the answer stays true).  Callers must
not change what they get.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from stellwerk.api import Game, Question
from stellwerk.core.jsondata import JSONObject

if TYPE_CHECKING:
    from stellwerk.io.snapshot import Snapshot

T = TypeVar("T")


def _remembered(game: Game, what: str, ask: Callable[[], T]) -> T:
    """``ask()``, kept on the game while its record has the same length (``Game.kept``)."""
    return game.kept(what, ask)


def legal(game: Game) -> list[JSONObject]:
    """``game.legal_actions()`` (without tile lays)."""
    return _remembered(game, "legal", game.legal_actions)


def hexes(game: Game) -> list[str]:
    """``game.lay_hexes()``."""
    return _remembered(game, "hexes", game.lay_hexes)


def snap(game: Game) -> Snapshot:
    """``game.snapshot()``."""
    return _remembered(game, "snap", game.snapshot)


@dataclass(frozen=True)
class Asked:
    """What the rules ask now (``Game.question``; 1841's mergers, transformations,
    secession: ``rules/1841.md`` 5.4): its ``topic`` (18xx.games' choice names such as
    ``upgrade``, ``share_offer``, ``buy_tokens``, ``pick_exchange_corp``, ``price``) and the
    corporations its ``a``/``b`` answers stand for (the secession's two new corporations, a
    merger's two old ones)."""

    topic: str
    names: dict[str, str]


def question(game: Game) -> Question | None:
    """``game.question()``: the decision asked now with the meaning of its answers."""
    return _remembered(game, "question", game.question)


def asked(game: Game) -> Asked | None:
    """What the rules ask now (``Game.question``), as the GM reads answers: its topic and
    the corporations the ``a``/``b`` answers stand for (facts ``first``/``second``: the
    secession's two new corporations, a merger's two old ones); None when nothing is
    asked."""
    value: Asked | None = _remembered(game, "asked", lambda: _asked(game))
    return value


def _asked(game: Game) -> Asked | None:
    found = question(game)
    if found is None:
        return None
    names = {
        key: str(value)
        for key, fact in (("a", "first"), ("b", "second"))
        if (value := found.fact(fact)) is not None
    }
    return Asked(found.topic, names)
