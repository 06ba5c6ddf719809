"""Routes a player names by their stops (``run H12-J10-L12 with 4H``) as ``run_routes`` routes.

A player names the stops, not the track between them.  The route of each named train is looked
up among *every legal route of that train* as the engine's own route enumerator lists them
(``stellwerk.core.routes.candidates.train_candidates``, the search the optimiser uses, so the
title's route rules apply): the route whose stop hexes are the named ones, in this order or
reversed (hexes without regard to case: 1849's port ``a12``, 1841's ``a4``).  Where the
named stops allow several legal routes (two ways between two cities, or which city of a
two-city hex), the GM takes the one paying most -- what the player would ask for -- and of
equal ones the first the enumerator lists (so the same order always means the same route);
the reply names the route taken.  Several routes of one run must not share track,
which the engine checks when the run is processed (common rules §6.1).
"""

from __future__ import annotations

import dataclasses

from stellwerk.api import Game
from stellwerk.core.jsondata import JSONObject
from stellwerk.core.routes.candidates import TrackIndex, train_candidates
from stellwerk.core.routes.optimize import action_route, board_legs
from stellwerk.gm.orders import RunRoute
from stellwerk.gm.understand import Refused, tile_name


def named_routes(game: Game, corp_sym: str, routes: tuple[RunRoute, ...]) -> list[JSONObject]:
    """The run_routes ``routes`` of ``corp_sym`` for routes named by stop hexes and train."""
    search = game.route_search(corp_sym)
    ctx, specs, rules = search.ctx, search.trains, search.rules
    legs = board_legs(ctx.board)
    index = TrackIndex()
    used: set[str] = set()
    out: list[JSONObject] = []
    for route in routes:
        spec = next(
            (s for tid, s in specs.items()
             if tile_name(tid).upper() == route.train and tid not in used),
            None,
        )  # fmt: skip
        if spec is None:
            owned = ", ".join(sorted(tile_name(t) for t in specs)) or "none"
            raise Refused(f"{corp_sym} has no (further) {route.train} train (trains: {owned})")
        used.add(spec.id)
        wanted = list(route.hexes)
        found = []
        for cand in train_candidates(ctx, legs, spec, rules, index):
            stops = [h.upper() for h, _ in cand.walk.stops]  # orders spell 1849's a12 A12
            if stops in (wanted, wanted[::-1]) and cand.legal is not False:
                found.append(cand)
        if not found:
            raise Refused(
                f"{'-'.join(wanted)} is not a legal route for {corp_sym}'s {route.train}"
            )
        best = max(found, key=lambda c: c.revenue)  # the first of the best (max is stable)
        walk = dataclasses.replace(best.walk, train=spec.id)
        out.append(action_route(ctx.board, walk, best.revenue))
    return out
