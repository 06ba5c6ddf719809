"""1841 best routes against a plain exhaustive search (common rules §6.1, 1841 rules §2.3.5):
on the real positions of the fixtures up to phase 4 (yellow Milano, passes, ports, towns) with
random short trains (hypothesis), the optimiser's proven optimum equals the best assignment of
every legal route found by walking every track from every stop, and its routes pass the route
check.  Reads ../shared/fixtures; skips when it is absent."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from positions1841 import positions

from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.graph import NodeKey
from stellwerk.core.routes.legs import Leg, enumerate_legs
from stellwerk.core.routes.model import RouteWalk, TrainSpec
from stellwerk.core.routes.validate import route_revenue, run_routes
from stellwerk.titles.g1841.mapport import MapPort

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "18xx.games" / "1841"


@cache
def early() -> tuple[tuple[str, MapPort], ...]:
    """(corporation, board) before every run of phases 2-4 of the fixtures."""
    out = []
    for path in sorted(FIXTURES.glob("*.json")):
        for action, position in positions(path):
            if action["type"] == "run_routes" and int(position.port.phase) <= 4:
                out.append((str(action["entity"]), copy.deepcopy(position.port)))
    return tuple(out)


_PLAIN: dict[tuple[int, str], list[tuple[int, frozenset[Any]]]] = {}


def plain_routes(pos: int, train: TrainSpec) -> list[tuple[int, frozenset[Any]]]:
    """(revenue, track and exclusive stops used) of every legal route: every simple walk from
    every stop while the distance allows, each checked by route_revenue."""
    key = (pos, train.name)
    if key in _PLAIN:
        return _PLAIN[key]
    corp, port = early()[pos]
    ctx = port.run_context(corp)
    rules = port.route_rules
    legs = enumerate_legs(port.board)
    found: dict[tuple[frozenset[Any], frozenset[NodeKey]], int] = {}

    def walk(stops: list[NodeKey], path: list[Leg], track: frozenset[Any]) -> None:
        route = RouteWalk(train.id, tuple(stops), tuple(path))
        if path:
            assert train.distance is not None
            if rules.distance(ctx, route, train) > train.distance:
                return
            try:
                revenue = route_revenue(ctx, route, train, rules)
            except IllegalAction:
                revenue = None
            if revenue is not None:
                only = frozenset(("stop", s) for s in stops if rules.exclusive(ctx, s))
                found[(track | only, frozenset(stops))] = revenue
        for leg in legs.get(stops[-1], ()):
            if leg.end in stops or leg.track & track:
                continue
            if path and port.board.hexes[stops[-1][0]].node_blocks(stops[-1][1], corp):
                continue
            walk([*stops, leg.end], [*path, leg], track | leg.track)

    for start in legs:
        walk([start], [], frozenset())
    _PLAIN[key] = [(r, m) for (m, _), r in found.items()]
    return _PLAIN[key]


def plain_best(pos: int, trains: list[TrainSpec]) -> int:
    options = [sorted(plain_routes(pos, t), key=lambda o: -o[0]) for t in trains]
    best = 0

    def assign(i: int, used: frozenset[Any], total: int) -> None:
        nonlocal best
        if i == len(options):
            best = max(best, total)
            return
        assign(i + 1, used, total)
        for revenue, mask in options[i]:
            if not mask & used:
                assign(i + 1, used | mask, total + revenue)

    assign(0, frozenset(), 0)
    return best


@pytest.mark.skipif(not FIXTURES.is_dir(), reason=f"{FIXTURES} is absent")
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_what_if_trains_equal_exhaustive_search(data: st.DataObject) -> None:
    pos = data.draw(st.integers(0, len(early()) - 1), label="position")
    corp, port = early()[pos]
    names = data.draw(st.lists(st.sampled_from(["2", "3", "4"]), min_size=1, max_size=3))
    trains = [TrainSpec(f"{n}-{i}", n, int(n)) for i, n in enumerate(names)]
    specs = {t.id: t for t in trains}
    result = port.best_run_of(corp, specs)
    assert result.optimal
    assert result.revenue == plain_best(pos, trains)
    ctx = port.run_context(corp)
    assert run_routes(ctx, result.routes, specs, port.route_rules) == list(result.revenues)
