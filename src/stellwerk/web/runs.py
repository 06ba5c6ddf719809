"""Routes a player edits on the map (the route step of an operating turn).

The page offers the optimiser's run; with the script the player picks a train and clicks
stops on the map (``data-node="H12.2"``: hex and tile node index; an off-board hex's
``data-stops``).  Each change is sent to ``POST /play|table/{game}/{token}/routes`` as
``{"base": N, "corporation": SYM, "routes": [{"train": "4H-0", "stops": ["H12.2", ...]}]}``;
:func:`price_run` answers on the store's thread through the API only
(``api.Game.routes_through``: the track between the stops and each route's revenue by the
title's rules; ``api.Game.verify``: the run_routes action as live play would check it), with
the routes drawn as the map draws them (``pictures.mapview.render_routes``) and the action to
send with the ordinary move form.  A run that breaks a rule is the rule's refusal (422);
nothing changes either way.

A stop clicked that is not on the picked train's route is sent as ``"add": {"train": "4H-0",
"stop": "H12.2"}`` with the routes as they are: the server places it where the run stays legal
and pays most (``api.Game.place_stop``: either end or between two consecutive stops; ties the
end, then the earliest place) and answers with the new stops per train (``"stops"``) beside the
priced run.  No legal place: the rule's refusal (422) without ``"stops"`` -- the route stays as
it was.  Placed in a run that cannot be priced yet (a route of one stop): the refusal carries
the new ``"stops"`` (:class:`Unpriced`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stellwerk.api import Game
from stellwerk.core.errors import IllegalAction
from stellwerk.core.jsondata import JSONObject, JSONValue
from stellwerk.store import GameMovedOn, StoredGame
from stellwerk.web.errors import BadRequest, Forbidden
from stellwerk.web.seats import Access

MAX_ROUTES = 20
MAX_STOPS = 40
MAX_NAME = 24


@dataclass(frozen=True)
class Proposal:
    """A proposed run as the page sends it, its shape checked (:func:`read_proposal`)."""

    base: int
    corporation: str
    routes: tuple[tuple[str, tuple[str, ...]], ...]
    add: tuple[str, str] | None = None
    """The train and the stop to place in its route, if a stop is to be added."""


class Unpriced(Exception):
    """A stop was placed, but the run as it now stands is refused (a route of one stop, or
    another train's route breaking a rule): the rule's refusal and the stops per train the
    page keeps."""

    def __init__(self, refused: IllegalAction, stops: JSONObject) -> None:
        super().__init__(refused.reason)
        self.refused = refused
        self.stops = stops


def _text(value: JSONValue, what: str) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_NAME:
        raise BadRequest(f"{what} must be a short text")
    return value


def read_proposal(body: JSONValue) -> Proposal:
    """The proposal in a request's JSON body; ``BadRequest`` (400) for any other shape: not
    an object, a base that is not a whole number, more than :data:`MAX_ROUTES` routes or
    :data:`MAX_STOPS` stops, a train or stop that is not a short text, an ``add`` that is not
    an object of a train and a stop."""
    if not isinstance(body, dict):
        raise BadRequest("the routes must be a JSON object")
    base = body.get("base")
    if not isinstance(base, int) or isinstance(base, bool) or base < 0:
        raise BadRequest("'base' must be the action count the page showed")
    corporation = _text(body.get("corporation"), "'corporation'")
    routes = body.get("routes")
    if not isinstance(routes, list) or len(routes) > MAX_ROUTES:
        raise BadRequest(f"'routes' must be a list of at most {MAX_ROUTES} routes")
    out = []
    for route in routes:
        if not isinstance(route, dict):
            raise BadRequest("each route must be an object with 'train' and 'stops'")
        train = _text(route.get("train"), "a route's 'train'")
        stops = route.get("stops")
        if not isinstance(stops, list) or len(stops) > MAX_STOPS:
            raise BadRequest(f"a route's 'stops' must be a list of at most {MAX_STOPS} stops")
        out.append((train, tuple(_text(stop, "a stop") for stop in stops)))
    add = body.get("add")
    if add is None:
        return Proposal(base, corporation, tuple(out))
    if not isinstance(add, dict):
        raise BadRequest("'add' must be an object with 'train' and 'stop'")
    placed = (
        _text(add.get("train"), "the added 'train'"),
        _text(add.get("stop"), "the added 'stop'"),
    )
    return Proposal(base, corporation, tuple(out), placed)


def price_run(stored: StoredGame, access: Access, key: str, proposal: Proposal) -> JSONObject:
    """The proposed run's routes with their revenues, the total, the action to send and the
    routes drawn (store's thread); with a stop to add, first placed (the module's rule) and
    the new stops per train given too.  ``Forbidden`` unless the seat decides for the running
    corporation and its run is listed now; ``IllegalAction`` for a run the rules refuse or a
    stop with no legal place; :class:`Unpriced` for a stop placed in a run refused as it
    stands."""
    from stellwerk.web.service import decider

    game = stored.game
    if not isinstance(game, Game) or not access.may_act:
        raise Forbidden("this link cannot run routes")
    if stored.count != proposal.base:
        raise GameMovedOn(key, proposal.base, stored.count)
    listed = next(
        (
            action
            for action in game.legal_actions()
            if action.get("type") == "run_routes"
            and action.get("entity") == proposal.corporation
            and access.acts_for(decider(game, proposal.corporation))
        ),
        None,
    )
    if listed is None:
        raise Forbidden(f"{proposal.corporation} has no run of yours now")
    if proposal.add is None:
        return _priced(game, proposal.corporation, listed, proposal.routes)
    train, stop = proposal.add
    placed = game.place_stop(proposal.corporation, list(proposal.routes), train, stop)
    stops: JSONObject = {name: [*names] for name, names in placed}
    try:
        priced = _priced(game, proposal.corporation, listed, placed)
    except IllegalAction as refused:
        raise Unpriced(refused, stops) from refused
    return {**priced, "stops": stops}


def _priced(
    game: Game,
    corporation: str,
    listed: JSONObject,
    proposed: Sequence[tuple[str, Sequence[str]]],
) -> JSONObject:
    """The run of the ``proposed`` routes priced, as :func:`price_run` answers."""
    from stellwerk.pictures.mapview import RouteLine, render_routes
    from stellwerk.pictures.scene import map_scene, route_lines

    routes = game.routes_through(corporation, proposed)
    action: JSONObject = {**listed, "routes": list(routes)}
    game.verify(action)
    scene = map_scene(game.view)
    drawn = {line.label: line for line in route_lines(scene.board, corporation, routes)}
    # a line per proposed train, an idle one empty: each train keeps its colour on the map
    lines = [drawn.get(train, RouteLine(train, (), ())) for train, _ in proposed]
    scene = map_scene(game.view, lines, corporation)
    revenues = [_revenue(route) for route in routes]
    return {
        "revenue": sum(revenues),
        "routes": list(routes),
        "action": action,
        "svg": render_routes(scene),
    }


def _revenue(route: JSONObject) -> int:
    value = route.get("revenue")
    return value if isinstance(value, int) else 0


def best_stops(game: Game, corporation: str, routes: list[JSONObject]) -> dict[str, list[str]]:
    """The stops of the offered run per train (``"H12.2"``), for the page's editor."""
    from stellwerk.pictures.scene import route_lines

    try:
        lines = route_lines(game.board, corporation, routes)
    except IllegalAction:  # pragma: no cover - the engine's own run always parses
        return {}
    return {line.label: [f"{h}.{n}" for h, n in line.stops] for line in lines}


def trains_of(game: Game, corporation: str) -> list[tuple[str, str]]:
    """The corporation's trains that may run: (id, name), in the search's order."""
    return [(tid, spec.name) for tid, spec in game.route_search(corporation).trains.items()]
