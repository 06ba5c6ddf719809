"""1841's best routes: the core optimiser with 1841's route hooks (rules/1841.md 2.3.5).

:func:`best_run` returns the proven-optimal run of a corporation's trains; :func:`leg_costs`
states 1841's distance (one per counted stop, track free) additively for the search.
"""

from __future__ import annotations

from collections.abc import Mapping

from stellwerk.core.routes.model import RouteRules, RunContext, TrainSpec
from stellwerk.core.routes.optimize import BestRun, LegCosts, best_routes
from stellwerk.titles.g1841.data_load import Variant
from stellwerk.titles.g1841.rules.routes import distance


def leg_costs(variant: Variant = ()) -> LegCosts:
    """1841's distance in additive form, for the optimiser."""
    return distance(variant).leg_costs()


def best_run(
    ctx: RunContext,
    trains: Mapping[str, TrainSpec],
    rules: RouteRules,
    variant: Variant = (),
    node_limit: int | None = None,
) -> BestRun:
    """The best run of the corporation in ``ctx`` with ``trains`` (proven optimal unless the
    node limit was hit)."""
    return best_routes(ctx, trains, rules, costs=leg_costs(variant), node_limit=node_limit)
