"""1841 route rules as hooks for core/routes (rules/1841.md 2.3.5; 1.2 trains).

* A train counts the cities, off-boards and passes it visits against its number; towns, ports
  included, are free for every train, and passes are free for the 8-train (``free`` stop kinds
  per train type in game.toml; 18xx.games distance ``pay``/``visit`` tables).
* Off-boards pay the value of the phase's column: white in phases 2-3, gray in 4-5, black in
  6-8 (18xx.games REAL_PHASE_TO_REV_PHASE); everything else pays its printed value.
* A route needs two stops that are neither a pass nor a port (FAQ 1.11, common mistake 5.2).
* While Milano is yellow, one route of a corporation at most may stop there (18xx.games
  ``check_overlap``): an exclusive stop for the core search.
* Political borders do not restrict routes in any phase (rules/1841.md 2.3.5, reviewed); only
  impassable borders do, and those are not track links on the board at all.
* A pass is a city of the core board (token slots, blocking like a full city, a token there
  counts for "route must contain a token"), worth 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from stellwerk.core.map.graph import NodeKey
from stellwerk.core.map.tiles import NodeKind
from stellwerk.core.routes.candidates import LegCosts
from stellwerk.core.routes.legs import Leg
from stellwerk.core.routes.model import RouteRules, RouteWalk, RunContext, TrainSpec, fail
from stellwerk.titles.g1841.data_load import Variant, pass_tiles, title_data

RULE = "1841 rules §2.3.5"

CITY = "city"
TOWN = "town"
OFFBOARD = "offboard"
PASS = "pass"
"""Stop kinds as 18xx.games names them in train distances (ports are towns)."""


@dataclass(frozen=True, slots=True)
class Stops:
    """What a stop is: its 18xx.games kind (a city on a pass tile is a ``pass``) and whether it
    is a port (a town on a sea hex)."""

    passes: frozenset[str]

    def kind(self, ctx: RunContext, stop: NodeKey) -> str:
        """``city``, ``town``, ``offboard`` or ``pass``."""
        node = ctx.node(stop)
        if node.kind is NodeKind.CITY:
            return PASS if ctx.board.hexes[stop[0]].tile.name in self.passes else CITY
        return TOWN if node.kind is NodeKind.TOWN else OFFBOARD

    def is_port(self, ctx: RunContext, stop: NodeKey) -> bool:
        """A port: a town on a sea hex (rules/1841.md reference ports)."""
        return ctx.board.hexes[stop[0]].spec.port

    def required(self, ctx: RunContext, stop: NodeKey) -> bool:
        """Does the stop count towards the two a route needs (not a pass, not a port)?"""
        return self.kind(ctx, stop) != PASS and not self.is_port(ctx, stop)


@dataclass(frozen=True, slots=True)
class Distance:
    """Train reach (rules/1841.md 1.2): each stop whose kind is not free for the train costs
    one; ``free`` by train name.  Additive, so it also serves the search as :class:`LegCosts`."""

    stops: Stops
    free: Mapping[str, frozenset[str]]

    def stop_cost(self, ctx: RunContext, stop: NodeKey, train: TrainSpec) -> int:
        """0 for a stop kind the train visits free, else 1."""
        return 0 if self.stops.kind(ctx, stop) in self.free.get(train.name, ()) else 1

    def leg_cost(self, ctx: RunContext, leg: Leg, train: TrainSpec) -> int:
        """Track between stops costs nothing."""
        return 0

    def __call__(self, ctx: RunContext, route: RouteWalk, train: TrainSpec) -> int:
        return sum(self.stop_cost(ctx, s, train) for s in set(route.stops))

    def leg_costs(self) -> LegCosts:
        """The same distance in additive form for the optimiser."""
        return LegCosts(self.leg_cost, self.stop_cost)


@dataclass(frozen=True, slots=True)
class StopValues:
    """Stop values (rules/1841.md 2.3.5): an off-board pays its value in the phase's column
    (``columns`` by phase name), every other stop its printed value."""

    columns: Mapping[str, str]

    def __call__(self, ctx: RunContext, stop: NodeKey, train: TrainSpec) -> int:
        node = ctx.node(stop)
        if not node.phase_revenue:
            return node.revenue
        return dict(node.phase_revenue)[self.columns[ctx.phase]]


@dataclass(frozen=True, slots=True)
class RouteCheck:
    """Two stops that are neither a pass nor a port (FAQ 1.11, common mistake 5.2;
    18xx.games ``check_other``)."""

    stops: Stops
    required: int

    def __call__(self, ctx: RunContext, route: RouteWalk, train: TrainSpec) -> None:
        count = sum(1 for s in set(route.stops) if self.stops.required(ctx, s))
        if count < self.required:
            raise fail(
                f"Route must have at least {self.required} cities, non-port towns or offboards",
                RULE,
            )


@dataclass(frozen=True, slots=True)
class YellowOnce:
    """While one of ``hexes`` (Milano) is yellow, one route of a run at most may stop there
    (rules/1841.md 2.3.5; 18xx.games ``check_overlap``)."""

    hexes: frozenset[str]

    def __call__(self, ctx: RunContext, stop: NodeKey) -> bool:
        return stop[0] in self.hexes and ctx.board.hexes[stop[0]].tile.color == "yellow"


def stops(variant: Variant = ()) -> Stops:
    """The stop classifier of a variant."""
    return Stops(pass_tiles(variant))


def distance(variant: Variant = ()) -> Distance:
    """The distance hook of a variant: free stop kinds per train type from game.toml."""
    data = title_data(variant)
    return Distance(stops(variant), {t.name: t.free for t in data.trains})


def route_rules(variant: Variant = ()) -> RouteRules:
    """1841's route hooks for a variant."""
    data = title_data(variant)
    return RouteRules(
        distance=distance(variant),
        stop_value=StopValues({p.name: p.offboard_revenue for p in data.phases}),
        check=RouteCheck(stops(variant), data.routes.required_stops),
        exclusive=YellowOnce(data.routes.one_route_while_yellow),
    )
