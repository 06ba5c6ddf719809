"""Route values and the title hooks of route checking (common rules §6.1).

``RouteRules`` bundles the hooks; the defaults implement the generic rules: a train of distance
n visits at most n stops, a stop earns its printed value (for phase-dependent values the latest
tile colour of the phase that has one), no bonus, no extra check.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from stellwerk.core.errors import IllegalAction
from stellwerk.core.jsondata import JSONObject, JSONValue
from stellwerk.core.map.board import Board
from stellwerk.core.map.graph import NodeKey
from stellwerk.core.map.tiles import NodeDef
from stellwerk.core.routes.legs import Leg

RouteData = JSONObject
"""One route of a run_routes action as JSON (common rules §2.3): ``train``, ``connections``
(hex chains), ``hexes``, ``nodes``, ``revenue`` and ``revenue_str``; the readers of
``core.routes.parse`` narrow the fields they use."""
RouteView = Mapping[str, JSONValue]
"""A route read, not changed: what route checkers and pictures take."""


@dataclass(frozen=True, slots=True)
class TrainSpec:
    """A train as routes see it: id (``"4H-0"``), name (``"4H"``), distance (None = unlimited)."""

    id: str
    name: str
    distance: int | None


@dataclass(frozen=True, slots=True)
class RouteWalk:
    """One train's route: stops in walking order and the legs between them."""

    train: str
    stops: tuple[NodeKey, ...]
    legs: tuple[Leg, ...]


@dataclass(frozen=True, slots=True)
class RunContext:
    """What route rules may look at: board, running corporation, phase name and its tile
    colours, and route bonuses of this corporation by stop hex (e.g. a +20 port marker)."""

    board: Board
    corp: str
    phase: str
    phase_colors: tuple[str, ...]
    bonus_hexes: Mapping[str, int] = field(default_factory=dict)

    def node(self, key: NodeKey) -> NodeDef:
        """Definition of a stop."""
        hid, n = key
        return self.board.hexes[hid].tile.nodes[n]


def count_stops(ctx: RunContext, route: RouteWalk, train: TrainSpec) -> int:
    """Generic distance: every visited stop costs 1 (common rules §6.1.8)."""
    return len(route.stops)


def printed_value(ctx: RunContext, stop: NodeKey, train: TrainSpec) -> int:
    """Generic stop value: the printed revenue; for phase-dependent values the latest colour of
    the phase's tile colours that has a value (common rules §6.1, Revenue)."""
    node = ctx.node(stop)
    if not node.phase_revenue:
        return node.revenue
    table = dict(node.phase_revenue)
    for color in reversed(ctx.phase_colors):
        if color in table:
            return table[color]
    return 0


def marker_bonus(ctx: RunContext, route: RouteWalk, train: TrainSpec) -> int:
    """Bonus for stopping at a hex carrying a marker of this corporation, once per marker."""
    if not ctx.bonus_hexes:
        return 0
    hexes = {h for h, _ in route.stops}
    return sum(v for h, v in ctx.bonus_hexes.items() if h in hexes)


def no_check(ctx: RunContext, route: RouteWalk, train: TrainSpec) -> None:
    """Generic: no title-specific route restriction."""


def not_exclusive(ctx: RunContext, stop: NodeKey) -> bool:
    """Generic: any number of a corporation's routes may visit a stop."""
    return False


@dataclass(frozen=True, slots=True)
class RouteRules:
    """Title hooks for routes.

    ``distance``: the length of a route as the train counts it; ``stop_value``: revenue of one
    stop for this train; ``bonus``: extra revenue of a route; ``check``: raises IllegalAction
    for title restrictions (e.g. gauges, ports); ``exclusive``: whether at most one route of a
    run may visit a stop (now, on this board).
    """

    distance: Callable[[RunContext, RouteWalk, TrainSpec], int] = count_stops
    stop_value: Callable[[RunContext, NodeKey, TrainSpec], int] = printed_value
    bonus: Callable[[RunContext, RouteWalk, TrainSpec], int] = marker_bonus
    check: Callable[[RunContext, RouteWalk, TrainSpec], None] = no_check
    exclusive: Callable[[RunContext, NodeKey], bool] = not_exclusive


def fail(reason: str, rule: str = "common rules §6.1") -> IllegalAction:
    """An IllegalAction for a route."""
    return IllegalAction(reason, rule)


@dataclass(frozen=True, slots=True)
class RouteSearch:
    """What a search of one corporation's routes needs now (common rules §6.1): its run
    context, its trains as routes see them (by train id) and the title's route rules;
    ``Game.route_search`` gives it, so a front end asks no title's map port."""

    ctx: RunContext
    trains: Mapping[str, TrainSpec]
    rules: RouteRules
