"""1849 best routes (1849 rules §4.3, §7.5; common rules §6.1): on the route benchmark
positions we match the 18xx.games auto-router (exact there) and beat or match the players; on
the real positions of the 1849 fixture with random what-if trains (hypothesis) we equal a plain
exhaustive search; every route we return passes our own route check with the same revenue.

Reads ../shared (fixtures and reference/route-benchmarks.yaml); skips when it is absent.
"""

from __future__ import annotations

import copy as copy_module
import dataclasses
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stellwerk.api import Game, what_if_trains
from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.board import Board
from stellwerk.core.map.graph import NodeKey
from stellwerk.core.map.state import CityState, HexState
from stellwerk.core.policy import RECORDED
from stellwerk.core.routes.legs import Leg, enumerate_legs
from stellwerk.core.routes.model import RouteRules, RouteWalk, RunContext, TrainSpec
from stellwerk.core.routes.optimize import best_routes
from stellwerk.core.routes.validate import route_revenue, run_routes
from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.titles.g1849.routefind import best_run

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "18xx.games" / "1849"
BENCH = SHARED / "reference" / "route-benchmarks.yaml"
ENTRIES = (
    [e for e in yaml.safe_load(BENCH.read_text(encoding="utf-8")) if e["title"] == "1849"]
    if BENCH.is_file()
    else []
)
needs_shared = pytest.mark.skipif(not FIXTURES.is_dir(), reason=f"{FIXTURES} is absent")


def engine_before(fixture: str, action_id: int) -> Any:
    data = read_game_file(FIXTURES / fixture)
    live = [a for a in load_game_file(data).live if int(a["id"]) < action_id]
    return Game.from_file({**data, "actions": live}).engine


def check_routes(
    ctx: RunContext, specs: dict[str, TrainSpec], rules: RouteRules, result: Any
) -> None:
    """Our routes pass our own route check (validate.run_routes) with the same revenues."""
    assert run_routes(ctx, result.routes, specs, rules) == list(result.revenues)
    assert [r["revenue"] for r in result.routes] == list(result.revenues)
    assert sum(result.revenues) == result.revenue


@pytest.mark.skipif(not ENTRIES, reason=f"no 1849 entries in {BENCH}")
@needs_shared
@pytest.mark.parametrize(
    "entry",
    ENTRIES,
    ids=[f"{e['before_action_id']}-{e['corporation']}-{'+'.join(e['trains'])}" for e in ENTRIES],
)
def test_benchmark_position(entry: dict[str, Any]) -> None:
    """At least the players' and the auto-router's revenue (the latter is exact here, so we
    equal it), with routes our check accepts."""
    engine = engine_before(entry["fixture"], entry["before_action_id"])
    corp = engine.corporation(entry["corporation"])
    specs = engine.map.train_specs(
        dataclasses.make_dataclass("Owner", [("trains", list)])(
            what_if_trains(engine, entry["trains"])
        )
    )
    ctx = engine.map.run_context(corp)
    result = best_run(ctx, specs, engine.route_rules)
    assert result.optimal
    assert result.revenue >= (entry["claimed_revenue"] or 0)
    assert result.revenue == entry["autorouter_revenue"]
    check_routes(ctx, specs, engine.route_rules, result)


# -- real positions with what-if trains against a plain exhaustive search ---------------------


def snapshot(board: Board) -> Board:
    """A copy of the board that later tile lays and tokens do not change."""
    copy = copy_module.copy(board)
    copy.hexes = {
        hid: HexState(
            s.spec,
            s.tile_id,
            s.placed,
            [CityState(list(c.tokens), list(c.reservations)) for c in s.cities],
        )
        for hid, s in board.hexes.items()
    }
    return copy


@cache
def positions() -> tuple[tuple[RunContext, RouteRules, dict[str, int | None]], ...]:
    """(context, rules, train distances) before every run_routes of the fixtures."""
    out = []
    for path in sorted(FIXTURES.glob("*.json")):
        data = read_game_file(path)
        game = Game.from_file({**data, "actions": []})
        game.engine.policy = RECORDED
        dist: dict[str, int | None] = {"E": None}
        dist.update({t.name: t.distance for t in game.engine.depot.trains if t.name != "E"})
        for action in load_game_file(data).live:
            if action.get("type") == "run_routes":
                engine = game.engine
                ctx = engine.map.run_context(engine.corporation(str(action["entity"])))
                out.append(
                    (dataclasses.replace(ctx, board=snapshot(ctx.board)), engine.route_rules, dist)
                )
            game.process(action, replay=True)
    return tuple(out)


_PLAIN: dict[tuple[int, str], list[tuple[int, int]]] = {}


def plain_routes(pos: int, train: TrainSpec) -> list[tuple[int, int]]:
    """(revenue, track bitmask) of every legal route: every simple walk from every stop,
    checked by route_revenue; no pruning."""
    key = (pos, train.name)
    if key in _PLAIN:
        return _PLAIN[key]
    ctx, rules, _ = positions()[pos]
    legs = enumerate_legs(ctx.board)
    bits: dict[Any, int] = {}
    found: dict[tuple[int, frozenset[NodeKey]], int] = {}

    def walk(stops: list[NodeKey], path: list[Leg], mask: int) -> None:
        if path:
            try:
                revenue = route_revenue(
                    ctx, RouteWalk(train.id, tuple(stops), tuple(path)), train, rules
                )
                found[(mask, frozenset(stops))] = revenue
            except IllegalAction:
                pass
        for leg in legs.get(stops[-1], ()):
            m = 0
            for piece in leg.track:
                m |= 1 << bits.setdefault(piece, len(bits))
            if leg.end in stops or m & mask:
                continue
            walk([*stops, leg.end], [*path, leg], mask | m)

    for start in legs:
        walk([start], [], 0)
    _PLAIN[key] = [(r, m) for (m, _), r in found.items()]
    return _PLAIN[key]


def plain_best(pos: int, trains: list[TrainSpec]) -> int:
    options = [sorted(plain_routes(pos, t), reverse=True) for t in trains]
    best = 0

    def assign(i: int, used: int, total: int) -> None:
        nonlocal best
        if i == len(options):
            best = max(best, total)
            return
        assign(i + 1, used, total)
        for revenue, mask in options[i]:
            if not mask & used:
                assign(i + 1, used | mask, total + revenue)

    assign(0, 0, 0)
    return best


NAMES = ["4H", "6H", "8H", "10H", "12H", "16H", "R6H", "E"]


@needs_shared
@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_what_if_trains_equal_exhaustive_search(data: st.DataObject) -> None:
    """Real positions, random trains (two at most, or three short ones): optimum proven by
    the optimiser == plain exhaustive search; routes pass the route check."""
    pos = data.draw(st.integers(0, len(positions()) - 1), label="position")
    ctx, rules, dist = positions()[pos]
    short = data.draw(st.booleans(), label="short")
    pool = ["4H", "6H", "R6H"] if short else NAMES
    names = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3 if short else 2))
    trains = [TrainSpec(f"{n}-{i}", n, dist[n]) for i, n in enumerate(names)]
    specs = {t.id: t for t in trains}
    result = best_run(ctx, specs, rules)
    assert result.optimal
    assert result.revenue == plain_best(pos, trains)
    assert best_routes(ctx, specs, rules).revenue == result.revenue
    check_routes(ctx, specs, rules, result)
