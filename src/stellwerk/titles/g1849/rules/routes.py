"""1849 route rules as hooks for core/routes (1849 rules §2.1, §4.3, §7.5).

:func:`route_rules` binds the defaults; the game's settings choose the ``check`` hook:
:func:`check_route` or, with gauge changes only in cities (seed 001 item 41),
:func:`check_route_cities_only` (the options module declares which).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise

from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.graph import NodeKey
from stellwerk.core.map.tiles import Gauge, NodeKind
from stellwerk.core.routes.legs import Leg
from stellwerk.core.routes.model import (
    RouteRules,
    RouteWalk,
    RunContext,
    TrainSpec,
    marker_bonus,
    printed_value,
)
from stellwerk.titles.g1849.rules.track import map_data

E_TRAIN = "E"
"""Name of the electric train (1849 rules §7.5)."""
REVERSE_GAUGE_TRAINS = frozenset({"R6H"})
"""Trains for which broad track counts double instead of narrow (1849 rules §4.3)."""


def leg_gauge(leg: Leg) -> Gauge:
    """The gauge a stretch between two stops runs on; broad and narrow may not mix between
    stops, gauge changes only at stations (1849 rules §4.3, 18xx.games ``track_type``)."""
    if Gauge.NARROW in leg.gauges:
        if Gauge.BROAD in leg.gauges:
            raise IllegalAction("Can only change track type at station", "1849 rules §4.3")
        return Gauge.NARROW
    return Gauge.BROAD if Gauge.BROAD in leg.gauges else Gauge.DUAL


def edge_cost(gauge: Gauge, train: TrainSpec) -> int:
    """Hex edges count 1 on broad or dual track and 2 on narrow track; for the R6H broad counts
    2 and narrow or dual 1 (1849 rules §4.3, seed 001 items 39-40)."""
    if train.name in REVERSE_GAUGE_TRAINS:
        return 2 if gauge is Gauge.BROAD else 1
    return 2 if gauge is Gauge.NARROW else 1


def hex_distance(ctx: RunContext, route: RouteWalk, train: TrainSpec) -> int:
    """H-train distance: for each stop-to-stop stretch, hex edges crossed times the gauge
    factor (1849 rules §4.3, 18xx.games ``route_distance``)."""
    return sum(leg.crossings * edge_cost(leg_gauge(leg), train) for leg in route.legs)


def check_route(ctx: RunContext, route: RouteWalk, train: TrainSpec) -> None:
    """1849 route restrictions: one gauge per stretch (§4.3); a route stopping at a port needs
    at least three stops (§4.3, seed 001 item 42); E-trains may not use narrow track (§7.5)."""
    for leg in route.legs:
        leg_gauge(leg)
    board = ctx.board
    if any(board.hexes[h].spec.port for h, _ in route.stops) and len(set(route.stops)) < 3:
        raise IllegalAction("Route must include two non-port stops", "1849 rules §4.3")
    if train.name == E_TRAIN and any(Gauge.NARROW in leg.gauges for leg in route.legs):
        raise IllegalAction("E-Trains cannot use narrow gauge", "1849 rules §7.5")


def check_route_cities_only(ctx: RunContext, route: RouteWalk, train: TrainSpec) -> None:
    """Gauge changes only in cities (seed 001 item 41, "gauge change in big cities"):
    as :func:`check_route`, and the gauge may change only at a city, not at a town."""
    check_route(ctx, route, train)
    for before, after in pairwise(route.legs):
        if ctx.node(before.end).kind is NodeKind.CITY:
            continue
        if {leg_gauge(before), leg_gauge(after)} == {Gauge.BROAD, Gauge.NARROW}:
            raise IllegalAction(
                f"Gauge may change only at a city, not at {before.end[0]}",
                "seed 001 item 41",
            )


@dataclass(frozen=True, slots=True)
class StopValues:
    """Stop values: gray revenue centres by phase name (1849 rules §2.1), others as printed;
    an E-train doubles the listed stops (1849 rules §7.5)."""

    by_phase: Mapping[str, Mapping[str, int]]
    e_double: frozenset[str]

    def __call__(self, ctx: RunContext, stop: NodeKey, train: TrainSpec) -> int:
        hex_id = stop[0]
        table = self.by_phase.get(hex_id)
        value = table[ctx.phase] if table is not None else printed_value(ctx, stop, train)
        if train.name == E_TRAIN and hex_id in self.e_double:
            value *= 2
        return value


def stop_values() -> StopValues:
    """The 1849 stop-value hook built from ``data/map.toml``."""
    data = map_data()
    by_phase = {h: {str(k): int(v) for k, v in t.items()} for h, t in data["phase_revenue"].items()}
    return StopValues(by_phase, frozenset(data.get("e_train_double", ())))


def route_rules() -> RouteRules:
    """1849's route hooks.  The CNM +20 port bonus is the core marker bonus: the flow passes
    ``bonus_hexes={port: 20}`` in the RunContext of the CNM corporation (1849 rules §1.4)."""
    return RouteRules(
        distance=hex_distance, stop_value=stop_values(), bonus=marker_bonus, check=check_route
    )


def train_spec(train_id: str, distances: Mapping[str, int | None]) -> TrainSpec:
    """A TrainSpec from a train id (``"8H-1"``) and the distance per train name."""
    name = train_id.rpartition("-")[0] or train_id
    return TrainSpec(train_id, name, distances.get(name))
