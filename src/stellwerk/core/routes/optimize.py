"""The best routes of a corporation, proven optimal (common rules §6.1).

:func:`best_routes` is the one entry point.  It knows no title: the title's :class:`RouteRules`
hooks decide what a train may run and what a route earns; an optional :class:`LegCosts` states
the same distance additively for speed.

Method:

1. the board's legs are enumerated once per board version (:func:`board_legs`);
2. per train type, every legal route is listed once with its revenue and a bitmask of its track
   (:mod:`stellwerk.core.routes.candidates`; each route is checked by ``validate``);
3. a depth-first branch and bound assigns routes to trains, best trains first, candidates best
   first, each train may also stay idle.  The bound of a partial assignment is its revenue plus,
   for every train still to choose, its best candidate that is track-disjoint from the routes
   already chosen; this never underestimates, so a pruned branch cannot hold a better run and
   the search, when it completes, proves the result optimal.  Trains of the same type take
   candidates in increasing list order (their routes are interchangeable).

A ``node_limit`` may cut the search short; the result then says ``optimal=False``.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from stellwerk.core.map.board import Board
from stellwerk.core.map.graph import NodeKey
from stellwerk.core.routes.candidates import Candidate, LegCosts, TrackIndex, train_candidates
from stellwerk.core.routes.legs import Leg, enumerate_legs
from stellwerk.core.routes.model import RouteRules, RouteWalk, RunContext, TrainSpec

__all__ = ["BestRun", "LegCosts", "action_route", "best_routes", "board_legs"]

_LEGS: weakref.WeakKeyDictionary[Board, tuple[int, dict[NodeKey, list[Leg]]]] = (
    weakref.WeakKeyDictionary()
)


def board_legs(board: Board) -> dict[NodeKey, list[Leg]]:
    """Every leg of the board by start node, computed once per board version."""
    cached = _LEGS.get(board)
    if cached is not None and cached[0] == board.version:
        return cached[1]
    legs = enumerate_legs(board)
    _LEGS[board] = (board.version, legs)
    return legs


def action_route(board: Board, walk: RouteWalk, revenue: int) -> dict[str, Any]:
    """A route in the run_routes format (common rules §2.3): train, connections (one hex chain
    per leg), stop hexes, node signatures, revenue and revenue string."""
    return {
        "train": walk.train,
        "connections": [list(leg.hexes) for leg in walk.legs],
        "hexes": [h for h, _ in walk.stops],
        "nodes": [board.node_signature(h, n) for h, n in walk.stops],
        "revenue": revenue,
        "revenue_str": "-".join(h for h, _ in walk.stops),
    }


@dataclass(frozen=True, slots=True)
class BestRun:
    """The result: total revenue, one route per running train (run_routes format, in the order
    the trains were given), the walks and revenues behind them, whether the search completed
    (then the revenue is the proven optimum), and search statistics."""

    revenue: int
    routes: list[dict[str, Any]]
    walks: tuple[RouteWalk, ...]
    revenues: tuple[int, ...]
    optimal: bool
    candidates: Mapping[str, int]
    nodes: int


class _Search:
    """Branch and bound over trains (see the module docstring)."""

    def __init__(self, lists: list[list[Candidate]], same: list[bool], node_limit: int | None):
        self.revs = [[c.revenue for c in cands] for cands in lists]
        self.masks = [[c.mask for c in cands] for cands in lists]
        self.same = same
        self.n = len(lists)
        self.node_limit = node_limit
        self.nodes = 0
        self.best = -1
        self.best_pick: list[int] = []
        self.pick: list[int] = [0] * self.n
        self.complete = True

    def greedy(self) -> None:
        """A first incumbent: every train in turn takes its best compatible candidate."""
        used = 0
        total = 0
        pick = []
        for revs, masks in zip(self.revs, self.masks, strict=True):
            k = next((k for k, m in enumerate(masks) if not m & used), len(masks))
            if k < len(masks):
                used |= masks[k]
                total += revs[k]
            pick.append(k)
        self.best, self.best_pick = total, pick

    def bound(self, i: int, used: int) -> int:
        """Sum over trains i.. of their best candidate disjoint from ``used``."""
        total = 0
        for j in range(i, self.n):
            for r, m in zip(self.revs[j], self.masks[j], strict=True):
                if not m & used:
                    total += r
                    break
        return total

    def visit(self, i: int, used: int, acc: int, start: int) -> None:
        if self.node_limit is not None and self.nodes >= self.node_limit:
            self.complete = False
            return
        self.nodes += 1
        if i == self.n:
            if acc > self.best:
                self.best, self.best_pick = acc, list(self.pick)
            return
        rest = self.bound(i + 1, used)
        revs, masks = self.revs[i], self.masks[i]
        nxt_same = i + 1 < self.n and self.same[i + 1]
        for k in range(start, len(revs)):
            r = revs[k]
            if acc + r + rest <= self.best:
                break
            m = masks[k]
            if m & used:
                continue
            self.pick[i] = k
            self.visit(i + 1, used | m, acc + r, k + 1 if nxt_same else 0)
        if acc + rest > self.best:
            self.pick[i] = len(revs)
            self.visit(i + 1, used, acc, len(revs) + 1 if nxt_same else 0)


def best_routes(
    ctx: RunContext,
    trains: Sequence[TrainSpec] | Mapping[str, TrainSpec],
    rules: RouteRules,
    *,
    costs: LegCosts | None = None,
    node_limit: int | None = None,
) -> BestRun:
    """The best run of ``ctx.corp``'s ``trains`` on the board: one route per train at most,
    no track used twice, each route legal by ``rules`` (common rules §6.1).  The result is
    proven optimal unless ``node_limit`` stopped the search (``optimal=False``)."""
    specs = list(trains.values()) if isinstance(trains, Mapping) else list(trains)
    legs = board_legs(ctx.board)
    index = TrackIndex()
    by_type: dict[tuple[str, int | None], list[Candidate]] = {}
    for spec in specs:
        key = (spec.name, spec.distance)
        if key not in by_type:
            by_type[key] = train_candidates(ctx, legs, spec, rules, index, costs)
    order = sorted(
        range(len(specs)),
        key=lambda t: (
            -(by_type[(specs[t].name, specs[t].distance)][:1] or [_NONE])[0].revenue,
            specs[t].name,
            t,
        ),
    )
    lists = [by_type[(specs[t].name, specs[t].distance)] for t in order]
    same = [p > 0 and lists[p] is lists[p - 1] for p in range(len(order))]
    search = _Search(lists, same, node_limit)
    search.greedy()
    search.visit(0, 0, 0, 0)
    chosen: dict[int, Candidate] = {}
    for p, k in enumerate(search.best_pick):
        if k < len(lists[p]):
            chosen[order[p]] = lists[p][k]
    walks = []
    revenues = []
    for t, spec in enumerate(specs):
        cand = chosen.get(t)
        if cand is not None:
            walks.append(dataclasses.replace(cand.walk, train=spec.id))
            revenues.append(cand.revenue)
    routes = [action_route(ctx.board, w, r) for w, r in zip(walks, revenues, strict=True)]
    return BestRun(
        revenue=sum(revenues),
        routes=routes,
        walks=tuple(walks),
        revenues=tuple(revenues),
        optimal=search.complete,
        candidates={name: len(c) for (name, _), c in by_type.items()},
        nodes=search.nodes,
    )


_NONE = Candidate(0, 0, RouteWalk("", (), ()))
