"""Routes a player names by their stops (``run H12-J10-L12 with 4H``) as ``run_routes`` routes.

A player names the stops, not the track between them.  The route of each named train is looked
up among *every legal route of that train* as the engine's own route enumerator lists them
(``stellwerk.core.routes.candidates.train_candidates``, the search the optimiser uses, so the
title's route rules apply): the route whose stop hexes are the named ones, in this order or
reversed (hexes without regard to case: 1849's port ``a12``, 1841's ``a4``).  Where the
named stops allow several legal routes (two ways between two cities, or which city of a
two-city hex), the GM takes them together: of the ways the named routes can run at once --
no piece of track used twice (common rules §6.1.7), the enumerator's track masks -- the one
paying most in all, what the player would ask for; of equal ones the first in the
enumerator's order, route by route (so the same order always means the same run).  The
reply names the routes taken.  When the named routes cannot run together, each takes its
own best way and the engine refuses the run naming the rule it breaks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from stellwerk.api import Game
from stellwerk.core.jsondata import JSONObject
from stellwerk.core.routes.candidates import Candidate, TrackIndex, train_candidates
from stellwerk.core.routes.optimize import action_route, board_legs
from stellwerk.gm.orders import RunRoute
from stellwerk.gm.understand import Refused, tile_name

MAX_TRIED = 20000
"""At most this many ways are looked at for one run; beyond, the best combination found so
far is taken (or, without one, each route's own best way)."""


def named_routes(game: Game, corp_sym: str, routes: tuple[RunRoute, ...]) -> list[JSONObject]:
    """The run_routes ``routes`` of ``corp_sym`` for routes named by stop hexes and train."""
    search = game.route_search(corp_sym)
    ctx, specs, rules = search.ctx, search.trains, search.rules
    legs = board_legs(ctx.board)
    index = TrackIndex()
    used: set[str] = set()
    ways: list[list[Candidate]] = []
    trains: list[str] = []
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
            raise Refused(f"{'-'.join(wanted)} is not a legal route for {corp_sym}'s {route.train}")
        ways.append(sorted(found, key=lambda c: -c.revenue))  # best first; sorted is stable
        trains.append(spec.id)
    chosen = together(ways)
    out: list[JSONObject] = []
    for cand, train in zip(chosen, trains, strict=True):
        walk = dataclasses.replace(cand.walk, train=train)
        out.append(action_route(ctx.board, walk, cand.revenue))
    return out


def together(ways: Sequence[Sequence[Candidate]]) -> list[Candidate]:
    """One way per route (each list best first) such that no two share a piece of track,
    paying most in all; of equal ones the first in the lists' order.  When there is none,
    the first -- the best -- way of each route."""
    best: list[Candidate] | None = None
    best_total = -1
    tops = [max((c.revenue for c in w), default=0) for w in ways]
    rest = [sum(tops[i:]) for i in range(len(ways) + 1)]  # the most the later routes can add
    tried = 0
    picked: list[Candidate] = []

    def visit(i: int, mask: int, total: int) -> None:
        nonlocal best, best_total, tried
        if i == len(ways):
            if total > best_total:
                best, best_total = list(picked), total
            return
        for cand in ways[i]:
            tried += 1
            if tried > MAX_TRIED or total + cand.revenue + rest[i + 1] <= best_total:
                return  # the list is best first: no later way of this route does better
            if cand.mask & mask:
                continue
            picked.append(cand)
            visit(i + 1, mask | cand.mask, total + cand.revenue)
            picked.pop()

    visit(0, 0, 0)
    return best if best is not None else [w[0] for w in ways]
