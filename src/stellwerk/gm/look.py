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
    """What a title's procedure under way asks now (1841's mergers, transformations,
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
    """The question of the first procedure under way that asks one, or None (a title without
    such procedures, or none under way).  Read through the engine's ``procedures`` queue
    and each procedure's ``question``, the documented shape of 1841's decisions
    (``titles/g1841/decisions.py``); the GM uses it only to word and read answers."""
    value: Asked | None = _remembered(game, "asked", lambda: _asked(game))
    return value


def _asked(game: Game) -> Asked | None:
    engine = game.engine
    for procedure in list(getattr(engine, "procedures", None) or []):
        question = procedure.question(engine)
        if question is not None:
            names = {k: str(getattr(procedure, k)) for k in ("a", "b") if hasattr(procedure, k)}
            return Asked(str(question.topic), names)
    return None
