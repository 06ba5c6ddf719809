"""A quick route finder for the random driver: depth-first search over legs from the
corporation's tokens.  Not guaranteed optimal; the route optimiser supersedes it."""

from __future__ import annotations

from typing import Any

from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.board import Board
from stellwerk.core.map.graph import NodeKey, token_nodes
from stellwerk.core.routes.legs import Leg, TrackKey, enumerate_legs
from stellwerk.core.routes.model import RouteRules, RouteWalk, RunContext, TrainSpec
from stellwerk.core.routes.validate import route_revenue

MAX_ROUTES = 4000


def _routes(
    board: Board,
    ctx: RunContext,
    legs: dict[NodeKey, list[Leg]],
    train: TrainSpec,
    rules: RouteRules,
    used: frozenset[TrackKey],
) -> tuple[int, RouteWalk | None]:
    best: tuple[int, RouteWalk | None] = (0, None)
    count = 0

    def extend(stops: list[NodeKey], walk: list[Leg], track: frozenset[TrackKey]) -> None:
        nonlocal best, count
        if count > MAX_ROUTES:
            return
        if len(stops) >= 2:
            count += 1
            route = RouteWalk(train.id, tuple(stops), tuple(walk))
            try:
                revenue = route_revenue(ctx, route, train, rules)
            except IllegalAction:
                revenue = -1
                if train.distance is not None and len(stops) > train.distance * 2:
                    return
            if revenue > best[0]:
                best = (revenue, route)
        end = stops[-1]
        if len(stops) >= 2:
            h, n = end
            state = board.hexes[h]
            if state.node_blocks(n, ctx.corp) or state.tile.nodes[n].kind.value == "offboard":
                return
        for leg in legs.get(end, []):
            if leg.end in stops or leg.track & track:
                continue
            if (
                train.distance is not None
                and sum(x.crossings for x in walk) + leg.crossings > train.distance
            ):
                continue
            extend([*stops, leg.end], [*walk, leg], track | leg.track)

    for start in token_nodes(board, ctx.corp):
        extend([start], [], used)
    return best


def to_action_route(board: Board, route: RouteWalk, revenue: int) -> dict[str, Any]:
    """A route in the run_routes format (common rules §2.3)."""
    return {
        "train": route.train,
        "connections": [list(leg.hexes) for leg in route.legs],
        "hexes": [h for h, _ in route.stops],
        "nodes": [board.node_signature(h, n) for h, n in route.stops],
        "revenue": revenue,
        "revenue_str": "-".join(h for h, _ in route.stops),
    }


def greedy_routes(
    board: Board, ctx: RunContext, trains: dict[str, TrainSpec], rules: RouteRules
) -> list[dict[str, Any]]:
    legs = enumerate_legs(board)
    used: frozenset[TrackKey] = frozenset()
    out = []
    order = sorted(trains.values(), key=lambda t: -(t.distance or 99))
    for train in order:
        revenue, route = _routes(board, ctx, legs, train, rules, used)
        if route is None:
            continue
        used = used | frozenset(k for leg in route.legs for k in leg.track)
        out.append(to_action_route(board, route, revenue))
    return out
