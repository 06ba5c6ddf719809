"""The course of a game round by round, for the plots (part of the public API, beside
``stellwerk.api``; front ends read it, never the engine).

:func:`history` replays the game's live actions once in a fresh engine and notes, at the end of
every round (right after the action that ended it) and for the round under way:

* each player's worth as the title counts it at the game's end (``player_value``: cash,
  certificates at their price, and what else the title counts, such as 1835's private
  companies);
* each started corporation's share price;
* in an operating round, each corporation's revenue of the round (the sum of its routes'
  revenues as run, before any split into dividend and treasury).

The answer is kept on the game while its record has the same length (``Game.kept``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from stellwerk.api import Game
from stellwerk.core.entities import PlayerId
from stellwerk.core.jsondata import JSONObject, is_int
from stellwerk.core.policy import RECORDED


@dataclass(frozen=True)
class RoundPoint:
    """The game at the end of one round (or now, for the round under way)."""

    seq: int
    """The round's place in the game's sequence of rounds (``api.RoundView.seq``)."""
    kind: str
    """``auction``, ``stock``, ``operating`` or a title's own kind."""
    turn: int
    number: int
    """The operating round's number within its set (1 in other rounds)."""
    worth: Mapping[PlayerId, int]
    prices: Mapping[str, int]
    revenues: Mapping[str, int] = field(default_factory=dict)
    """Operating rounds: each corporation's revenue in it (only those that ran)."""
    current: bool = False
    """The round under way (not ended yet)."""


@dataclass(frozen=True)
class History:
    """The rounds of a game in order, with the players (id, name) and the corporations in the
    order they were first started."""

    players: tuple[tuple[PlayerId, str], ...]
    corporations: tuple[str, ...]
    rounds: tuple[RoundPoint, ...]


def history(game: Game) -> History:
    """The course of ``game`` round by round (module docstring)."""
    return game.kept("history", lambda: _build(game))


def _revenue(action: JSONObject) -> int:
    routes = action.get("routes")
    total = 0
    if isinstance(routes, list):
        for route in routes:
            value = route.get("revenue") if isinstance(route, dict) else None
            if is_int(value):
                total += value
    return total


def _build(game: Game) -> History:
    fresh = Game(game.title, game.players, game.options, game.seed, game.game_id)
    engine = fresh.engine
    engine.policy = RECORDED
    corporations: list[str] = []
    points: list[RoundPoint] = []
    revenues: dict[str, int] = {}

    def point(seq: int, kind: str, turn: int, number: int, current: bool) -> RoundPoint:
        prices: dict[str, int] = {}
        for corp in engine.corporations:
            cell = corp.share_price
            if cell is not None and corp.ipoed:
                prices[corp.sym] = cell.price
                if corp.sym not in corporations:
                    corporations.append(corp.sym)
        worth = {p.id: engine.player_value(p) for p in engine.players}
        return RoundPoint(seq, kind, turn, number, worth, prices, dict(revenues), current)

    rnd = engine.round
    shape = (rnd.seq, rnd.kind, engine.turn, rnd.round_num)
    for action in game.actions:
        engine.resume()
        engine.process_action(action)
        if action.get("type") == "run_routes" and isinstance(action.get("entity"), str):
            entity = str(action["entity"])
            revenues[entity] = revenues.get(entity, 0) + _revenue(action)
        rnd = engine.round
        if rnd.seq != shape[0]:
            points.append(point(*shape, current=False))
            revenues = {}
            shape = (rnd.seq, rnd.kind, engine.turn, rnd.round_num)
    points.append(point(*shape, current=not engine.finished))
    return History(tuple(game.players), tuple(corporations), tuple(points))
