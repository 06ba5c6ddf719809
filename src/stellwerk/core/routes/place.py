"""A stop a player adds to a train's route goes where the route stays legal (common rules §6.1).

A player editing routes on the map clicks the stops of a route in any order; each stop not yet
on the picked train's route is placed by :func:`place_stop` at one of the route's places -- its
end, its start, or between two consecutive stops -- where the run stays legal by the title's
route rules (:func:`stellwerk.core.routes.stops.routes_through`: the track between the stops,
tokens, distance, reuse of track, the title's hooks).  Of the legal places the one whose run
pays most in all is taken; of equal ones the end, then the earliest place.  When no place is
legal the refusal is the rule the end breaks (what appending the stop would be refused with),
and the route stays as it was.  A route of no stops takes the stop as its only one (one place;
a route of one stop cannot be priced yet), and routes of other trains with fewer than two stops
are being named: they do not run while the places are tried.  Nothing of the game changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.graph import NodeKey
from stellwerk.core.routes.model import RouteData, RouteSearch, fail
from stellwerk.core.routes.stops import MAX_STOPS, MAX_TRAINS, ProposedRoute, routes_through


def places(length: int) -> list[int]:
    """The places a stop may take in a route of ``length`` stops, in the order ties are broken:
    the end first, then from the start on (``0`` before the first stop)."""
    return [length, *range(length)]


def place_stop(
    search: RouteSearch, proposed: Sequence[ProposedRoute], train: str, stop: NodeKey
) -> tuple[ProposedRoute, ...]:
    """The ``proposed`` routes of the corporation of ``search`` with ``stop`` placed in the
    route of ``train`` (a train not among them gets a route of its own, after theirs): at the
    legal place paying most (the module's rule).  Refused (``IllegalAction``) when the train
    is not the corporation's, the stop is not on the map or already on the route, the route
    has :data:`~stellwerk.core.routes.stops.MAX_STOPS` stops, or no place is legal."""
    if len(proposed) > MAX_TRAINS:
        raise fail(f"at most {MAX_TRAINS} routes in one run", "common rules §6.1")
    if train not in search.trains:
        raise fail(f"{search.ctx.corp} does not own train {train}", "common rules §6.1")
    hex_id, node = stop
    state = search.ctx.board.hexes.get(hex_id)
    if state is None or not 0 <= node < len(state.tile.nodes):
        raise fail(f"{hex_id} has no stop {node}", "common rules §2.3")
    routes = list(proposed)
    at = next((i for i, route in enumerate(routes) if route.train == train), None)
    if at is None:
        routes.append(ProposedRoute(train, ()))
        at = len(routes) - 1
    current = routes[at].stops
    if stop in current:
        raise fail(f"Cannot use {hex_id} twice", "common rules §6.1.3")
    if len(current) >= MAX_STOPS:
        raise fail(f"at most {MAX_STOPS} stops in one route", "common rules §6.1")
    if not current:
        routes[at] = ProposedRoute(train, (stop,))
        return tuple(routes)
    # the other trains' routes still being named (one stop) do not run while places are tried
    tried = [
        r if r.train == train or len(r.stops) > 1 else ProposedRoute(r.train, ()) for r in routes
    ]
    best: tuple[int, tuple[NodeKey, ...]] | None = None
    first_error: IllegalAction | None = None
    for place in places(len(current)):
        stops = (*current[:place], stop, *current[place:])
        tried[at] = ProposedRoute(train, stops)
        try:
            run = routes_through(search, tried)
        except IllegalAction as error:
            first_error = first_error or error
            continue
        total = sum(route_pay(route) for route in run)
        if best is None or total > best[0]:
            best = (total, stops)
    if best is None:
        assert first_error is not None  # every place was tried and refused
        raise first_error
    routes[at] = ProposedRoute(train, best[1])
    return tuple(routes)


def route_pay(route: RouteData) -> int:
    """A run_routes route's revenue (``0`` when it carries none)."""
    revenue = route.get("revenue")
    return revenue if isinstance(revenue, int) else 0
