"""What the GM looks at, asked of the engine once per position.

A processing asks the same position many times (does this order fit? that standing order?
the default?); ``legal``, ``hexes`` and ``snap`` remember the answer of
``Game.legal_actions()``, ``Game.lay_hexes()`` and ``Game.snapshot()`` for the game's current
record length (every processed, refused-free action, undo or site action lengthens
``raw_actions``; a refused action changes nothing, so the answer stays true).  Callers must
not change what they get.
"""

from __future__ import annotations

from typing import Any

from stellwerk.api import Game

_CACHE: dict[tuple[int, str], tuple[Game, int, Any]] = {}
"""(game id, question) -> (the game, its record length, the answer); the game is held so
that its id is not reused by another game while the entry lives."""


def _remembered(game: Game, what: str, ask: Any) -> Any:
    key = (id(game), what)
    length = len(game.raw_actions)
    found = _CACHE.get(key)
    if found is not None and found[0] is game and found[1] == length:
        return found[2]
    if len(_CACHE) > 64:
        _CACHE.clear()
    value = ask()
    _CACHE[key] = (game, length, value)
    return value


def legal(game: Game) -> list[dict[str, Any]]:
    """``game.legal_actions()`` (without tile lays)."""
    value: list[dict[str, Any]] = _remembered(game, "legal", game.legal_actions)
    return value


def hexes(game: Game) -> list[str]:
    """``game.lay_hexes()``."""
    value: list[str] = _remembered(game, "hexes", game.lay_hexes)
    return value


def snap(game: Game) -> dict[str, Any]:
    """``game.snapshot()``."""
    value: dict[str, Any] = _remembered(game, "snap", game.snapshot)
    return value
