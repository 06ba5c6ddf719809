"""Routes a player names by their stops, as a run_routes action's ``routes`` (common rules §6.1).

A player editing routes on the map picks stops, not track.  :func:`routes_through` finds the
track between each two consecutive stops of a train among the board's legs (the optimiser's
own, :func:`stellwerk.core.routes.optimize.board_legs`) and checks the whole run by the title's
route rules (``validate.check_run``: tokens, stops, reuse of track, distance, the title's
hooks).  Where two stops are joined by several pieces of track, the combination that is legal
and pays most is taken (of equal ones the one of fewest paths, the first found), and no route
takes track an earlier train of the run took; a run that breaks a rule is refused with
``IllegalAction`` naming it.  Nothing of the game changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.board import Board
from stellwerk.core.map.graph import NodeKey
from stellwerk.core.routes.legs import Leg, TrackKey
from stellwerk.core.routes.model import RouteData, RouteSearch, RouteWalk, fail
from stellwerk.core.routes.optimize import action_route, board_legs
from stellwerk.core.routes.validate import check_run, route_revenue

MAX_TRAINS = 20
"""At most this many routes in one proposed run."""
MAX_STOPS = 40
"""At most this many stops in one proposed route (no train of the titles reaches as many)."""
MAX_WALKS = 2000
"""At most this many combinations of track tried for one route."""


@dataclass(frozen=True, slots=True)
class ProposedRoute:
    """One train's route as a player names it: the train id (``"4H-0"``) and its stops."""

    train: str
    stops: tuple[NodeKey, ...]


def stop_of(board: Board, text: str) -> NodeKey:
    """The stop a front end names: ``"H12.2"`` (hex and tile node index, the map's
    ``data-node``) or ``"H12"`` (the hex's only stop: a city, town or off-board area)."""
    hex_id, dot, number = text.partition(".")
    state = board.hexes.get(hex_id)
    if state is None:
        raise fail(f"no hex {hex_id!r} on the map", "common rules §2.3")
    nodes = state.tile.nodes
    if dot:
        if not number.isdigit() or int(number) >= len(nodes):
            raise fail(f"{hex_id} has no stop {number!r}", "common rules §2.3")
        return (hex_id, int(number))
    if len(nodes) != 1:
        what = "no stop" if not nodes else f"{len(nodes)} stops (name one: {hex_id}.0)"
        raise fail(f"{hex_id} has {what}", "common rules §2.3")
    return (hex_id, 0)


def routes_through(search: RouteSearch, proposed: Sequence[ProposedRoute]) -> list[RouteData]:
    """The run_routes ``routes`` (each with its revenue) of the ``proposed`` routes of the
    corporation of ``search``; a route without stops is a train that does not run.  Refused
    (``IllegalAction``) when a train is not the corporation's, a stop is not on the map,
    two consecutive stops are not joined by track, or the run breaks a route rule."""
    ctx = search.ctx
    board = ctx.board
    if len(proposed) > MAX_TRAINS:
        raise fail(f"at most {MAX_TRAINS} routes in one run", "common rules §6.1")
    legs = board_legs(board)
    walks: list[RouteWalk] = []
    used: set[TrackKey] = set()
    for route in proposed:
        if not route.stops:
            continue
        train = search.trains.get(route.train)
        if train is None:
            raise fail(f"{ctx.corp} does not own train {route.train}", "common rules §6.1")
        if len(route.stops) > MAX_STOPS:
            raise fail(f"at most {MAX_STOPS} stops in one route", "common rules §6.1")
        for hex_id, node in route.stops:
            state = board.hexes.get(hex_id)
            if state is None or not 0 <= node < len(state.tile.nodes):
                raise fail(f"{hex_id} has no stop {node}", "common rules §2.3")
        if len(route.stops) < 2:
            raise fail("Route must have at least 2 stops", "common rules §6.1.1")
        options: list[list[Leg]] = []
        for a, b in zip(route.stops, route.stops[1:], strict=False):
            if a == b:
                raise fail(f"Cannot use {a[0]} twice", "common rules §6.1.3")
            found = sorted((leg for leg in legs[a] if leg.end == b), key=lambda g: len(g.paths))
            if not found:
                raise fail(f"no track joins {a[0]} and {b[0]}", "common rules §6.1")
            options.append(found)
        walk = _best_walk(search, route.train, route.stops, options, used)
        for leg in walk.legs:
            used |= leg.track
        walks.append(walk)
    revenues = check_run(ctx, walks, search.trains, search.rules)
    return [action_route(board, w, r) for w, r in zip(walks, revenues, strict=True)]


def _best_walk(
    search: RouteSearch,
    train_id: str,
    stops: tuple[NodeKey, ...],
    options: list[list[Leg]],
    taken: set[TrackKey],
) -> RouteWalk:
    """The legal walk through ``stops`` paying most, on track not in ``taken`` nor used twice;
    refused with the rule the first walk tried breaks when none is legal."""
    train = search.trains[train_id]
    best: tuple[int, RouteWalk] | None = None
    first_error: IllegalAction | None = None
    tried = 0
    chosen: list[Leg] = []

    def visit(i: int, track: frozenset[TrackKey]) -> None:
        nonlocal best, first_error, tried
        if tried >= MAX_WALKS:
            return
        if i == len(options):
            tried += 1
            walk = RouteWalk(train_id, stops, tuple(chosen))
            try:
                revenue = route_revenue(search.ctx, walk, train, search.rules)
            except IllegalAction as error:
                first_error = first_error or error
                return
            if best is None or revenue > best[0]:
                best = (revenue, walk)
            return
        for leg in options[i]:
            if leg.track & track:
                continue
            chosen.append(leg)
            visit(i + 1, track | leg.track)
            chosen.pop()

    visit(0, frozenset(taken))
    if best is not None:
        return best[1]
    if first_error is not None:
        raise first_error
    # every way between the stops uses track twice (this route's or an earlier train's)
    walk = RouteWalk(train_id, stops, tuple(found[0] for found in options))
    seen: set[TrackKey] = set(taken)
    for leg in walk.legs:
        clash = seen & leg.track
        if clash:
            raise fail(f"Route cannot reuse track on {min(clash)[0]}", "common rules §6.1.7")
        seen |= leg.track
    raise fail(f"no track for the route of {train_id}", "common rules §6.1")  # pragma: no cover
