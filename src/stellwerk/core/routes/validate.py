"""Is this set of routes legal, and what does each earn? (common rules §6.1)

``check_run`` checks every route and the set as a whole and returns each route's revenue;
``run_routes`` parses a run_routes action's ``routes`` first.  Both raise
``IllegalAction(reason, rule)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from stellwerk.core.jsondata import JSONValue
from stellwerk.core.map.graph import NodeKey
from stellwerk.core.map.tiles import NodeKind
from stellwerk.core.routes.legs import TrackKey
from stellwerk.core.routes.model import (
    RouteRules,
    RouteView,
    RouteWalk,
    RunContext,
    TrainSpec,
    fail,
)
from stellwerk.core.routes.parse import parse_routes

RULE = "common rules §6.1"


def route_revenue(ctx: RunContext, route: RouteWalk, train: TrainSpec, rules: RouteRules) -> int:
    """Check one route (§6.1.1-6, 8) and return its revenue: stop values plus bonus."""
    board = ctx.board
    stops = route.stops
    unique = set(stops)
    if len(unique) < 2:
        raise fail("Route must have at least 2 stops", "common rules §6.1.1")
    if not any(
        (city := board.hexes[h].city_of_node(n)) is not None and city.tokened_by(ctx.corp)
        for h, n in unique
    ):
        raise fail("Route must contain token", "common rules §6.1.2")
    groups = [g for key in unique for g in ctx.node(key).groups]
    if len(groups) != len(set(groups)):
        raise fail("Cannot use a group more than once", "common rules §6.1.4")
    paths = [p for leg in route.legs for p in leg.paths]
    for h, p in paths[1:-1]:
        if board.hexes[h].placed.paths[p].terminal:
            raise fail("Route cannot pass through terminal", "common rules §6.1.5")
    rules.check(ctx, route, train)
    if len(unique) != len(stops):
        twice = next(h for h, _ in stops if sum(1 for s in stops if s[0] == h) > 1)
        raise fail(f"Cannot use {twice} twice", "common rules §6.1.3")
    if train.distance is not None:
        length = rules.distance(ctx, route, train)
        if length > train.distance:
            raise fail(f"{length} is too long for a {train.name} train", "common rules §6.1.8")
    for h, n in stops[1:-1]:
        if board.hexes[h].node_blocks(n, ctx.corp):
            kind = ctx.node((h, n)).kind
            what = "an offboard" if kind is NodeKind.OFFBOARD else "a blocked city"
            raise fail(f"Route cannot pass through {what} ({h})", "common rules §6.1.6")
    return sum(rules.stop_value(ctx, s, train) for s in stops) + rules.bonus(ctx, route, train)


def check_overlap(routes: Sequence[RouteWalk]) -> None:
    """No piece of track is used twice by the corporation's routes (common rules §6.1.7)."""
    seen: set[TrackKey] = set()
    for route in routes:
        for leg in route.legs:
            clash = seen & leg.track
            if clash:
                hex_id = min(clash)[0]
                raise fail(f"Route cannot reuse track on {hex_id}", "common rules §6.1.7")
            seen |= leg.track


def check_exclusive(ctx: RunContext, routes: Sequence[RouteWalk], rules: RouteRules) -> None:
    """A stop the title makes exclusive is visited by one route of the run at most."""
    seen: set[NodeKey] = set()
    for route in routes:
        for stop in set(route.stops):
            if rules.exclusive(ctx, stop):
                if stop in seen:
                    raise fail(f"Only one route may visit {stop[0]}", RULE)
                seen.add(stop)


def check_run(
    ctx: RunContext,
    routes: Sequence[RouteWalk],
    trains: Mapping[str, TrainSpec],
    rules: RouteRules,
) -> list[int]:
    """Check a corporation's run (one route per own train, §6.1) and return the revenues."""
    used: set[str] = set()
    revenues = []
    for route in routes:
        train = trains.get(route.train)
        if train is None:
            raise fail(f"{ctx.corp} does not own train {route.train}", RULE)
        if route.train in used:
            raise fail(f"Train {route.train} may run only once", RULE)
        used.add(route.train)
        revenues.append(route_revenue(ctx, route, train, rules))
    check_overlap(routes)
    check_exclusive(ctx, routes, rules)
    return revenues


def run_routes(
    ctx: RunContext,
    routes: Sequence[RouteView],
    trains: Mapping[str, TrainSpec],
    rules: RouteRules,
) -> list[int]:
    """Parse and check the ``routes`` of a run_routes action; returns recomputed revenues."""
    walks = parse_routes(ctx.board, ctx.corp, routes)
    return check_run(ctx, walks, trains, rules)


def run_revenue(
    ctx: RunContext,
    routes: Sequence[RouteView],
    trains: Mapping[str, TrainSpec],
    rules: RouteRules,
    *,
    recorded: bool,
) -> int:
    """The revenue of a run_routes action.  A replay (``recorded``) takes the revenues the
    file records (common rules §2.3); live play checks every route by the rules, recomputes its
    revenue and refuses a route that claims another one (common rules §6.1)."""
    if recorded:
        return sum(_amount(route.get("revenue", 0)) for route in routes)
    revenues = run_routes(ctx, routes, trains, rules)
    for route, revenue in zip(routes, revenues, strict=True):
        claimed = route.get("revenue")
        if claimed is not None and _amount(claimed) != revenue:
            raise fail(f"route of {route.get('train')} earns {revenue}, not {claimed}")
    return sum(revenues)


def _amount(value: JSONValue) -> int:
    """A route's recorded ``revenue`` as an integer (a number or its digits); another value is
    refused (common rules §2.3)."""
    if isinstance(value, bool | int | float | str):
        try:
            return int(value)
        except ValueError:
            pass
    raise fail(f"a route's revenue must be a number, not {value!r}", "common rules §2.3")
