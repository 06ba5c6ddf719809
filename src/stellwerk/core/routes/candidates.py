"""Every legal route of one train, each once, with its revenue (common rules §6.1).

Routes are grown from the corporation's token cities (§6.1.2) over the board's legs: first one
side ("forward"), then, for every forward walk, the other side ("backward") from the same token.
Each route is produced once: a route containing several tokens only from the first of them (the
others are excluded while walking), and of its two orientations only the one whose forward
first leg comes first in the token's leg list.

Pruning while walking (sound: it never drops a prefix of a legal route):

* stops are distinct and track is never used twice in a route (§6.1.3, §6.1.7);
* a stop becomes a pass-through only if it does not block the corporation (§6.1.6);
* the title's ``distance`` hook is evaluated on every partial route and the walk stops when it
  exceeds the train's reach or raises IllegalAction.  This relies on the documented contract of
  that hook: **extending a route never lowers its distance, and a route whose distance is
  illegal cannot be extended into a legal one** (true for stop counts, hex distances, n+n
  limits).  A title may pass an additive :class:`LegCosts` instead, which is faster and must
  agree with its ``distance`` hook.

A route's track mask also holds one pseudo piece per stop the title makes exclusive
(``RouteRules.exclusive``), so the search never gives such a stop to two routes of a run.

Every complete walk is checked and valued by :func:`validate.route_revenue`, the same check
live play uses, so the title's ``check``, ``stop_value`` and ``bonus`` hooks apply to
candidates exactly as to routes a player submits.  In lazy mode a walk is first valued by the
same stop values and bonus, and checked only when the search needs it (:func:`confirm`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.board import Board
from stellwerk.core.map.graph import NodeKey, token_nodes
from stellwerk.core.routes.legs import Leg, TrackKey, walk_legs
from stellwerk.core.routes.model import RouteRules, RouteWalk, RunContext, TrainSpec
from stellwerk.core.routes.validate import route_revenue

LegCost = Callable[[RunContext, Leg, TrainSpec], int | None]
"""Additive distance of one leg for a train; None when the train may not use the leg at all."""
StopCost = Callable[[RunContext, NodeKey, TrainSpec], int]
"""Additive distance of one stop for a train (1 for stop-counting trains, 0 for hex trains)."""


@dataclass(frozen=True, slots=True)
class LegCosts:
    """Optional additive form of a title's ``distance`` hook: a route's distance is the sum of
    its legs' and its stops' costs.  Titles whose distance is additive pass this to the search
    for speed; it must give the same distances as the ``distance`` hook."""

    leg: LegCost
    stop: StopCost


class LegMap(dict[NodeKey, list[Leg]]):
    """Legs by start node, walked from a node when first asked for (a search only touches
    the corporation's part of the board)."""

    def __init__(self, board: Board, known: Mapping[NodeKey, list[Leg]] | None = None) -> None:
        super().__init__(known or {})
        self.board = board

    def __missing__(self, key: NodeKey) -> list[Leg]:
        legs = list(walk_legs(self.board, key))
        self[key] = legs
        return legs


@dataclass(slots=True)
class Candidate:
    """A route of one train: revenue, track bitmask (bits of :class:`TrackIndex`), walk, and
    whether the route check passed (None = not checked yet; the revenue is then what the
    route earns if it is legal: its stop values plus bonus, as ``route_revenue`` counts)."""

    revenue: int
    mask: int
    walk: RouteWalk
    legal: bool | None = True


class EstimateMismatch(Exception):
    """``route_revenue`` valued a lazily listed candidate differently from its estimate."""


def confirm(ctx: RunContext, cand: Candidate, train: TrainSpec, rules: RouteRules) -> bool:
    """Check a candidate by ``route_revenue`` once; is it legal?"""
    if cand.legal is None:
        try:
            revenue = route_revenue(ctx, cand.walk, train, rules)
        except IllegalAction:
            cand.legal = False
            return False
        if revenue != cand.revenue:
            raise EstimateMismatch(f"{cand.walk.stops}: {revenue} != {cand.revenue}")
        cand.legal = True
    return cand.legal


EXCLUSIVE = 1000
"""Track-key offset of an exclusive stop: (hex, EXCLUSIVE + node) is a pseudo piece of track
that every route visiting the stop uses, so two such routes never go together (RouteRules
``exclusive``)."""


class TrackIndex:
    """Bit numbers of track pieces, shared by every train of one search."""

    def __init__(self) -> None:
        self.bits: dict[TrackKey, int] = {}
        self._leg_masks: dict[int, int] = {}

    def leg_mask(self, leg: Leg) -> int:
        """Bitmask of a leg's track (cached per track set)."""
        key = id(leg.track)
        mask = self._leg_masks.get(key)
        if mask is None:
            mask = 0
            for piece in leg.track:
                bit = self.bits.get(piece)
                if bit is None:
                    bit = self.bits[piece] = len(self.bits)
                mask |= 1 << bit
            self._leg_masks[key] = mask
        return mask

    def piece_mask(self, piece: TrackKey) -> int:
        """Bitmask of one piece of track."""
        bit = self.bits.get(piece)
        if bit is None:
            bit = self.bits[piece] = len(self.bits)
        return 1 << bit


@dataclass(slots=True)
class _Side:
    """One side of a route being grown from a token: stops and legs walking away from it."""

    stops: list[NodeKey]
    legs: list[Leg]


class _Walker:
    """The walk for one train (see the module docstring)."""

    def __init__(
        self,
        ctx: RunContext,
        legs: LegMap,
        train: TrainSpec,
        rules: RouteRules,
        index: TrackIndex,
        costs: LegCosts | None,
        lazy: bool,
    ) -> None:
        self.ctx = ctx
        self.lazy = lazy
        self._value: dict[NodeKey, int] = {}
        self.legs = legs
        self.train = train
        self.rules = rules
        self.index = index
        self.costs = costs
        self.limit = train.distance
        self.out: list[Candidate] = []
        self._pos: dict[int, int] = {}
        self._passable: dict[NodeKey, bool] = {}
        self._leg_cost: dict[int, int | None] = {}
        self._stop_cost: dict[NodeKey, int] = {}
        self._exclusive: dict[NodeKey, int] = {}
        self._reversed: dict[int, Leg] = {}

    def passable(self, node: NodeKey) -> bool:
        """May a route pass through this stop (§6.1.6)?"""
        ok = self._passable.get(node)
        if ok is None:
            hid, n = node
            ok = self._passable[node] = not self.ctx.board.hexes[hid].node_blocks(n, self.ctx.corp)
        return ok

    # -- distance ---------------------------------------------------------------------------
    def leg_cost(self, leg: Leg) -> int | None:
        assert self.costs is not None
        key = id(leg)
        if key not in self._leg_cost:
            self._leg_cost[key] = self.costs.leg(self.ctx, leg, self.train)
        return self._leg_cost[key]

    def stop_cost(self, stop: NodeKey) -> int:
        assert self.costs is not None
        cost = self._stop_cost.get(stop)
        if cost is None:
            cost = self._stop_cost[stop] = self.costs.stop(self.ctx, stop, self.train)
        return cost

    def fits(self, walk: RouteWalk) -> bool:
        """Partial-route pruning by the ``distance`` hook (monotone by contract)."""
        if self.limit is None:
            return True
        try:
            return self.rules.distance(self.ctx, walk, self.train) <= self.limit
        except IllegalAction:
            return False

    # -- walking ----------------------------------------------------------------------------
    def run(self, tokens: list[NodeKey]) -> list[Candidate]:
        for i, token in enumerate(tokens):
            if not self.legs[token]:
                continue
            self._pos = {id(leg): k for k, leg in enumerate(self.legs[token])}
            banned = frozenset(tokens[:i])
            spent = 0 if self.costs is None else self.stop_cost(token)
            if self.limit is not None and spent > self.limit:
                continue
            used = self.stop_bit(token)
            self._forward(token, banned, _Side([token], []), used, {token}, spent)
        return self.out

    def _steps(
        self, end: NodeKey, banned: frozenset[NodeKey], visited: set[NodeKey], used: int, spent: int
    ) -> list[tuple[Leg, int, int]]:
        """Legs leaving ``end`` to a new stop on unused track within reach:
        (leg, its track mask, distance spent after it)."""
        out = []
        for leg in self.legs[end]:
            nxt = leg.end
            if nxt in visited or nxt in banned:
                continue
            mask = self.index.leg_mask(leg) | self.stop_bit(nxt)
            if mask & used:
                continue
            total = spent
            if self.costs is not None:
                cost = self.leg_cost(leg)
                if cost is None:
                    continue
                total += cost + self.stop_cost(nxt)
                if self.limit is not None and total > self.limit:
                    continue
            out.append((leg, mask, total))
        return out

    def _forward(
        self,
        token: NodeKey,
        banned: frozenset[NodeKey],
        fwd: _Side,
        used: int,
        visited: set[NodeKey],
        spent: int,
    ) -> None:
        if fwd.legs:
            self._emit(fwd, _Side([token], []), used)
            if self.passable(token):
                first = self._pos[id(fwd.legs[0])]
                self._backward(token, banned, fwd, _Side([token], []), used, visited, spent, first)
            end = fwd.stops[-1]
            if not self.passable(end):
                return
        for leg, mask, total in self._steps(fwd.stops[-1], banned, visited, used, spent):
            fwd.stops.append(leg.end)
            fwd.legs.append(leg)
            if self.costs is not None or self.fits(self._walk(fwd, None)):
                visited.add(leg.end)
                self._forward(token, banned, fwd, used | mask, visited, total)
                visited.discard(leg.end)
            fwd.stops.pop()
            fwd.legs.pop()

    def _backward(
        self,
        token: NodeKey,
        banned: frozenset[NodeKey],
        fwd: _Side,
        back: _Side,
        used: int,
        visited: set[NodeKey],
        spent: int,
        first: int,
    ) -> None:
        if back.legs:
            self._emit(fwd, back, used)
            if not self.passable(back.stops[-1]):
                return
        steps = self._steps(back.stops[-1], banned, visited, used, spent)
        for leg, mask, total in steps:
            if not back.legs and self._pos[id(leg)] <= first:
                continue
            back.stops.append(leg.end)
            back.legs.append(leg)
            if self.costs is not None or self.fits(self._walk(fwd, back)):
                visited.add(leg.end)
                self._backward(token, banned, fwd, back, used | mask, visited, total, first)
                visited.discard(leg.end)
            back.stops.pop()
            back.legs.pop()

    def _walk(self, fwd: _Side, back: _Side | None) -> RouteWalk:
        if back is None or not back.legs:
            return RouteWalk(self.train.id, tuple(fwd.stops), tuple(fwd.legs))
        stops = (*reversed(back.stops), *fwd.stops[1:])
        legs = (*(self.back_leg(leg) for leg in reversed(back.legs)), *fwd.legs)
        return RouteWalk(self.train.id, stops, legs)

    def back_leg(self, leg: Leg) -> Leg:
        """``leg.reversed()``, made once per leg."""
        back = self._reversed.get(id(leg))
        if back is None:
            back = self._reversed[id(leg)] = leg.reversed()
        return back

    def stop_bit(self, stop: NodeKey) -> int:
        """The pseudo track of ``stop`` if the title makes it exclusive, else 0 (see
        :data:`EXCLUSIVE`); routes carry it in their track mask from the moment they reach
        the stop."""
        bit = self._exclusive.get(stop)
        if bit is None:
            bit = 0
            if self.rules.exclusive(self.ctx, stop):
                bit = self.index.piece_mask((stop[0], EXCLUSIVE + stop[1]))
            self._exclusive[stop] = bit
        return bit

    def _emit(self, fwd: _Side, back: _Side, used: int) -> None:
        walk = self._walk(fwd, back)
        if self.lazy:
            value = self._value
            total = 0
            for stop in walk.stops:
                v = value.get(stop)
                if v is None:
                    v = value[stop] = self.rules.stop_value(self.ctx, stop, self.train)
                total += v
            total += self.rules.bonus(self.ctx, walk, self.train)
            self.out.append(Candidate(total, used, walk, None))
            return
        try:
            revenue = route_revenue(self.ctx, walk, self.train, self.rules)
        except IllegalAction:
            return
        self.out.append(Candidate(revenue, used, walk))


def train_candidates(
    ctx: RunContext,
    legs: Mapping[NodeKey, list[Leg]],
    train: TrainSpec,
    rules: RouteRules,
    index: TrackIndex,
    costs: LegCosts | None = None,
    lazy: bool = False,
) -> list[Candidate]:
    """Every legal route of ``train`` (once each), best revenue first.  With ``lazy`` the
    list also holds routes that may fail the route check, unchecked (``legal`` None), valued
    as they would earn if legal; :func:`confirm` checks one when it is needed."""
    tokens = token_nodes(ctx.board, ctx.corp)
    leg_map = legs if isinstance(legs, LegMap) else LegMap(ctx.board, legs)
    out = _Walker(ctx, leg_map, train, rules, index, costs, lazy).run(tokens)
    out.sort(key=lambda c: -c.revenue)
    return out
