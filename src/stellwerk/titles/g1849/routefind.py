"""1849's best routes: the core optimiser with 1849's route hooks (1849 rules §4.3, §7.5).

:func:`best_run` returns the proven-optimal run of a corporation's trains; :func:`leg_costs`
states 1849's hex distance additively so the search can prune by it without rebuilding partial
routes (it gives exactly the distances of ``rules.routes.hex_distance``).
"""

from __future__ import annotations

from collections.abc import Mapping

from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.graph import NodeKey
from stellwerk.core.map.tiles import Gauge
from stellwerk.core.routes.legs import Leg
from stellwerk.core.routes.model import RouteRules, RunContext, TrainSpec
from stellwerk.core.routes.optimize import BestRun, LegCosts, best_routes
from stellwerk.titles.g1849.rules.routes import E_TRAIN, edge_cost, leg_gauge


def leg_distance(ctx: RunContext, leg: Leg, train: TrainSpec) -> int | None:
    """Distance of one stop-to-stop stretch: hex edges times the gauge factor; None where the
    train may not run it (broad and narrow mixed between stops, or narrow for an E-train)
    (1849 rules §4.3, §7.5)."""
    try:
        gauge = leg_gauge(leg)
    except IllegalAction:
        return None
    if train.name == E_TRAIN and Gauge.NARROW in leg.gauges:
        return None
    return leg.crossings * edge_cost(gauge, train)


def stop_distance(ctx: RunContext, stop: NodeKey, train: TrainSpec) -> int:
    """Stops cost no distance for hex trains (1849 rules §4.3)."""
    return 0


def leg_costs() -> LegCosts:
    """1849's distance in additive form, for the optimiser."""
    return LegCosts(leg_distance, stop_distance)


def best_run(
    ctx: RunContext,
    trains: Mapping[str, TrainSpec],
    rules: RouteRules,
    node_limit: int | None = None,
) -> BestRun:
    """The best run of the corporation in ``ctx`` with ``trains`` (proven optimal unless the
    node limit was hit)."""
    return best_routes(ctx, trains, rules, costs=leg_costs(), node_limit=node_limit)
