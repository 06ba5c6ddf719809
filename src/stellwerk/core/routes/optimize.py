"""The best routes of a corporation, proven optimal (common rules §6.1).

:func:`best_routes` is the one entry point.  It knows no title: the title's :class:`RouteRules`
hooks decide what a train may run and what a route earns; an optional :class:`LegCosts` states
the same distance additively for speed.

Method:

1. the board's legs are walked once per board version, only from stops the search reaches
   (:func:`board_legs`);
2. per train type, every route within reach is listed once with the revenue it earns if legal
   and a bitmask of its track (:mod:`stellwerk.core.routes.candidates`);
3. a depth-first branch and bound assigns routes to trains, best trains first, candidates best
   first; a train may also stay idle.  A candidate is checked by ``validate.route_revenue`` the
   first time the search would use it, so every returned route passes the route check.  The
   bound for the trains still to choose is the smaller of (a) the sum of each one's best
   candidate track-disjoint from the routes already chosen and (b) the proven optimum of those
   trains alone on the whole board (a "Russian doll" search solves the shorter train suffixes
   first).  Both never underestimate, so a pruned branch cannot hold a better run and the
   completed search proves the result optimal.  Trains of the same type take candidates in
   increasing list order (their routes are interchangeable).  The candidates of a train type
   are the bits of a number, and per piece of track the candidates using it a mask, so "the
   best candidate still possible" is a few operations on numbers instead of a scan of
   thousands of routes; the last two trains are solved without a search level for the last
   (for each route of the next-to-last, the last train's best free route).

A ``node_limit`` may cut the search short; the result then says ``optimal=False``.

What titles plug in (without changing the search):

* ``RouteRules.distance`` - the train's reach; it must be monotone (extending a route never
  lowers it, and an illegal distance stays illegal): stop counts, hex distance by gauge,
  towns that do not count (a town costs 0), n+n trains (the larger of the city count and the
  town count, against n);
* ``RouteRules.stop_value`` and ``bonus`` - what a route earns (phase values, doubled stops
  for some trains, a +20 port marker, a ferry deduction as a negative bonus, a region worth
  nothing in early phases as an offboard value); a route's value must be its stop values
  plus its bonus, as ``route_revenue`` counts it;
* ``RouteRules.check`` - any other restriction (gauges, ports need three stops);
* ``RouteRules.exclusive`` - stops that one route of a run may visit at most (a pseudo piece of
  track in every candidate's mask, so the search needs no other change);
* hooks may look at the train's name and distance, not its id (trains of one type share their
  candidate list).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from stellwerk.core.kept import ByVersion
from stellwerk.core.map.board import Board
from stellwerk.core.routes.candidates import (
    Candidate,
    EstimateMismatch,
    LegCosts,
    LegMap,
    TrackIndex,
    confirm,
    train_candidates,
)
from stellwerk.core.routes.model import RouteData, RouteRules, RouteWalk, RunContext, TrainSpec

__all__ = [
    "BestRun",
    "LegCosts",
    "action_route",
    "best_routes",
    "board_legs",
    "clear_leg_cache",
]


def board_legs(board: Board) -> LegMap:
    """The board's legs by start node, each node walked once per board version (on first
    request); kept on the board (``Board.legs_kept``), never in a table of the process."""
    legs = board.legs_kept.get(board.version)
    if legs is None:
        legs = board.legs_kept.keep(board.version, LegMap(board))
    return legs


def clear_leg_cache(board: Board) -> None:
    """Forget ``board``'s kept legs (for cold-start measurements)."""
    board.legs_kept = ByVersion()


def action_route(board: Board, walk: RouteWalk, revenue: int) -> RouteData:
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
    routes: list[RouteData]
    walks: tuple[RouteWalk, ...]
    revenues: tuple[int, ...]
    optimal: bool
    candidates: Mapping[str, int]
    nodes: int


class _Search:
    """Branch and bound over trains (see the module docstring).  Candidates listed lazily are
    checked by the route check the first time the search would use them.

    The candidates of a train type are the bits of a number (bit k: the k-th best).  For each
    piece of track the candidates using it form a mask (``conflict``), so the candidates that
    a chosen route leaves possible are a few operations on numbers, not a scan of the list:
    ``blocked`` is, per list, the candidates sharing track with the routes chosen so far, and
    the best possible candidate from index ``start`` is the lowest bit of the list's ``valid``
    candidates (not known to be illegal) outside ``blocked``, shifted by ``start``."""

    def __init__(
        self,
        ctx: RunContext,
        rules: RouteRules,
        lists: list[list[Candidate]],
        trains: list[TrainSpec],
        same: list[bool],
        node_limit: int | None,
    ) -> None:
        self.ctx = ctx
        self.rules = rules
        self.lists = lists
        self.trains = trains
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
        self.suffix: list[int] = [_UNBOUNDED] * self.n + [0]
        distinct: list[list[Candidate]] = []
        self.lid: list[int] = []
        """Per train, the index of its candidate list among the distinct lists."""
        for cands in lists:
            found = next((d for d, other in enumerate(distinct) if other is cands), None)
            if found is None:
                found = len(distinct)
                distinct.append(cands)
            self.lid.append(found)
        self.valid = [
            sum(1 << k for k, c in enumerate(cands) if c.legal is not False) for cands in distinct
        ]
        self.conflict = [_conflicts(cands) for cands in distinct]
        self.cache: list[dict[int, int]] = [{} for _ in distinct]
        self.later: list[tuple[int, ...]] = [
            tuple(sorted({self.lid[j] for j in range(i + 1, self.n)})) for i in range(self.n)
        ]
        """Per train, the lists of the trains after it (whose blocked masks a pick extends)."""

    def legal(self, i: int, k: int) -> bool:
        cand = self.lists[i][k]
        legal = cand.legal
        if legal is None:
            legal = confirm(self.ctx, cand, self.trains[i], self.rules)
            if not legal:
                self.valid[self.lid[i]] &= ~(1 << k)
        return legal

    def blocked_by(self, d: int, mask: int) -> int:
        """The candidates of list ``d`` sharing a piece of track with ``mask``."""
        cache = self.cache[d]
        out = cache.get(mask)
        if out is None:
            out = 0
            conflict = self.conflict[d]
            rest = mask
            while rest:
                low = rest & -rest
                out |= conflict.get(low.bit_length() - 1, 0)
                rest ^= low
            cache[mask] = out
        return out

    def first_fit(self, i: int, blocked: list[int], start: int = 0) -> int:
        """Index (from ``start``) of train i's best legal candidate outside ``blocked`` (len
        if none); each candidate tried is checked by the route check."""
        d = self.lid[i]
        while True:
            free = (self.valid[d] & ~blocked[d]) >> start
            if not free:
                return len(self.revs[i])
            k = start + (free & -free).bit_length() - 1
            if self.legal(i, k):
                return k
            start = k + 1

    def greedy(self, i0: int) -> None:
        """A first incumbent for trains i0..: each in turn takes its best compatible route."""
        blocked = [0] * len(self.valid)
        total = 0
        pick = list(self.pick)
        for i in range(i0, self.n):
            k = self.first_fit(i, blocked)
            if k < len(self.masks[i]):
                blocked = self.extend(blocked, i, k)
                total += self.revs[i][k]
            pick[i] = k
        self.best, self.best_pick = total, pick

    def extend(self, blocked: list[int], i: int, k: int) -> list[int]:
        """``blocked`` after train i takes candidate k (for the lists of the later trains)."""
        mask = self.masks[i][k]
        out = list(blocked)
        for d in self.later[i]:
            out[d] |= self.blocked_by(d, mask)
        return out

    def bound(self, i: int, blocked: list[int], start: int) -> int:
        """Upper bound for trains i.. given the candidates ``blocked`` by the routes chosen
        and train i's first allowed candidate: the smaller of (a) the sum of each train's best
        candidate not blocked and not known to be illegal (trains of one type take distinct
        candidates in list order, as in the search) and (b) the proven optimum of trains i..
        on the whole board."""
        total = 0
        prev = start - 1
        for j in range(i, self.n):
            d = self.lid[j]
            first = prev + 1 if j == i or self.same[j] else 0
            free = (self.valid[d] & ~blocked[d]) >> first
            if free:
                prev = first + (free & -free).bit_length() - 1
                total += self.revs[j][prev]
            else:
                prev = len(self.revs[j])
        return min(total, self.suffix[i])

    def solve(self) -> None:
        """Russian-doll search: prove the optimum of trains n-1.., then n-2.., ..., then all,
        each run bounded by the optima of the shorter suffixes."""
        for i0 in range(self.n - 1, -1, -1):
            self.greedy(i0)
            self.visit(i0, [0] * len(self.valid), 0, 0)
            if not self.complete:
                if i0 > 0:
                    self.greedy(0)
                return
            self.suffix[i0] = self.best

    def visit(self, i: int, blocked: list[int], acc: int, start: int) -> None:
        if self.node_limit is not None and self.nodes >= self.node_limit:
            self.complete = False
            return
        self.nodes += 1
        if i == self.n:
            if acc > self.best:
                self.best, self.best_pick = acc, list(self.pick)
            return
        if acc + self.bound(i, blocked, start) <= self.best:
            return
        if i == self.n - 2:
            self.last_two(blocked, acc, start)
            return
        nxt_same = i + 1 < self.n and self.same[i + 1]
        rest = self.bound(i + 1, blocked, start + 1 if nxt_same else 0) if i + 1 < self.n else 0
        revs = self.revs[i]
        d = self.lid[i]
        free = ((self.valid[d] & ~blocked[d]) >> start) << start
        while free:
            low = free & -free
            free ^= low
            k = low.bit_length() - 1
            r = revs[k]
            if acc + r + rest <= self.best:
                break
            if not self.legal(i, k):
                continue
            self.pick[i] = k
            self.visit(i + 1, self.extend(blocked, i, k), acc + r, k + 1 if nxt_same else 0)
        if acc + rest > self.best:
            self.pick[i] = len(revs)
            self.visit(i + 1, blocked, acc, len(revs) + 1 if nxt_same else 0)

    def last_two(self, blocked: list[int], acc: int, start: int) -> None:
        """The last two trains exactly, without a level of search for the last one: for each
        candidate of the next-to-last train (best first, while it and the last train's best
        free candidate could still beat the incumbent), the last train's best free legal
        candidate once it is chosen; then the next-to-last train idle."""
        i, j = self.n - 2, self.n - 1
        same = self.same[j]
        revs, masks, cands = self.revs[i], self.masks[i], self.lists[i]
        revs_j, cands_j = self.revs[j], self.lists[j]
        d, dj = self.lid[i], self.lid[j]
        rest = self.bound(j, blocked, start + 1 if same else 0)
        valid = self.valid
        blocked_j = blocked[dj]
        cache = self.cache[dj]
        free = ((valid[d] & ~blocked[d]) >> start) << start
        while free:
            low = free & -free
            free ^= low
            k = low.bit_length() - 1
            r = revs[k]
            if acc + r + rest <= self.best:
                break
            if cands[k].legal is not True and not self.legal(i, k):
                continue
            self.nodes += 1
            mask = masks[k]
            by = cache.get(mask)
            if by is None:
                by = self.blocked_by(dj, mask)
            after = blocked_j | by
            kk = k + 1 if same else 0
            while True:  # the last train's best free legal candidate
                fit = (valid[dj] & ~after) >> kk
                if not fit:
                    kk = len(revs_j)
                    break
                kk += (fit & -fit).bit_length() - 1
                if cands_j[kk].legal is True or self.legal(j, kk):
                    break
                kk += 1
            total = acc + r + (revs_j[kk] if kk < len(revs_j) else 0)
            if total > self.best:
                self.pick[i], self.pick[j] = k, kk
                self.best, self.best_pick = total, list(self.pick)
        if acc + rest > self.best:  # the next-to-last train idle
            self.nodes += 1
            kk = len(revs_j) if same else self.first_fit(j, blocked, 0)
            total = acc + (revs_j[kk] if kk < len(revs_j) else 0)
            if total > self.best:
                self.pick[i], self.pick[j] = len(revs), kk
                self.best, self.best_pick = total, list(self.pick)


def _conflicts(cands: list[Candidate]) -> dict[int, int]:
    """Per piece of track (its bit in the candidates' masks), the candidates using it as a
    mask of candidate indices."""
    users: dict[int, list[int]] = {}
    for k, cand in enumerate(cands):
        rest = cand.mask
        while rest:
            low = rest & -rest
            users.setdefault(low.bit_length() - 1, []).append(k)
            rest ^= low
    out: dict[int, int] = {}
    for piece, ks in users.items():
        bits = bytearray((len(cands) + 8) // 8)
        for k in ks:
            bits[k >> 3] |= 1 << (k & 7)
        out[piece] = int.from_bytes(bits, "little")
    return out


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
    try:
        return _best(ctx, specs, rules, costs, node_limit, lazy=True)
    except EstimateMismatch:
        # the title values a route beyond stop values + bonus: check every candidate first
        return _best(ctx, specs, rules, costs, node_limit, lazy=False)


def _best(
    ctx: RunContext,
    specs: list[TrainSpec],
    rules: RouteRules,
    costs: LegCosts | None,
    node_limit: int | None,
    lazy: bool,
) -> BestRun:
    legs = board_legs(ctx.board)
    index = TrackIndex()
    by_type: dict[tuple[str, int | None], list[Candidate]] = {}
    for spec in specs:
        key = (spec.name, spec.distance)
        if key not in by_type:
            by_type[key] = train_candidates(ctx, legs, spec, rules, index, costs, lazy)
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
    search = _Search(ctx, rules, lists, [specs[t] for t in order], same, node_limit)
    search.solve()
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


_UNBOUNDED = 1 << 62
_NONE = Candidate(0, 0, RouteWalk("", (), ()))
