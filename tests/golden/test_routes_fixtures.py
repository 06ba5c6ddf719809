"""Best routes at every ``run_routes`` of the real 1849 and 1841 game files (common rules
§6.1, 1849 rules §4.3, 1841 rules §2.3.5): our proven optimum is never below what the players
claimed, every route we return passes our own route check with the same revenue, and the
additive-distance search and the generic one agree.  Positions where we beat the players are
listed in the test output (``pytest -rP``).  For 1841 the players' own routes also pass our
route check with the revenues they recorded, and every 1841 position of
reference/route-benchmarks.yaml gives its recorded best revenue.

1841 has no game flow yet: its positions are rebuilt from the game file's tile lays and its
state trace (:mod:`positions1841` (tools/)).

The files live in ../shared; the tests skip when that folder is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from positions1841 import owner_of, position_before, positions

from stellwerk.api import Game
from stellwerk.core.policy import RECORDED
from stellwerk.core.routes.model import TrainSpec
from stellwerk.core.routes.optimize import best_routes
from stellwerk.core.routes.validate import run_routes
from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.titles.g1849.routefind import best_run

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
FIXTURES_1849 = SHARED / "fixtures" / "18xx.games" / "1849"
GAME_FILES = sorted(FIXTURES_1849.glob("*.json")) if FIXTURES_1849.is_dir() else []
FIXTURES_1841 = SHARED / "fixtures" / "18xx.games" / "1841"
GAME_FILES_1841 = sorted(FIXTURES_1841.glob("*.json")) if FIXTURES_1841.is_dir() else []
BENCH = SHARED / "reference" / "route-benchmarks.yaml"
BENCH_1841 = (
    [e for e in yaml.safe_load(BENCH.read_text(encoding="utf-8")) if e["title"] == "1841"]
    if BENCH.is_file() and FIXTURES_1841.is_dir()
    else []
)


def claimed(action: dict[str, Any]) -> int:
    return sum(int(r.get("revenue", 0)) for r in action.get("routes") or [])


@pytest.mark.skipif(not GAME_FILES, reason=f"no 1849 fixtures in {FIXTURES_1849}")
@pytest.mark.parametrize("game_path", GAME_FILES, ids=[path.stem for path in GAME_FILES])
def test_best_routes_at_every_run(game_path: Path) -> None:
    data = read_game_file(game_path)
    game = Game.from_file({**data, "actions": []})
    game.engine.policy = RECORDED
    above: list[str] = []
    runs = 0
    for action in load_game_file(data).live:
        if action.get("type") == "run_routes":
            runs += 1
            engine = game.engine
            corp = engine.corporation(str(action["entity"]))
            ctx = engine.map.run_context(corp)
            specs = engine.map.train_specs(corp)
            result = best_run(ctx, specs, engine.route_rules)
            where = f"{game_path.stem} #{action['id']} {corp.sym}"
            assert result.optimal, where
            assert result.revenue >= claimed(action), (where, result.routes, action["routes"])
            revenues = run_routes(ctx, result.routes, specs, engine.route_rules)
            assert revenues == list(result.revenues), where
            assert sum(revenues) == result.revenue, where
            generic = best_routes(ctx, specs, engine.route_rules)
            assert generic.revenue == result.revenue, where
            if result.revenue > claimed(action):
                stops = "; ".join(r["revenue_str"] for r in result.routes)
                above.append(
                    f"{where}: ours {result.revenue} > claimed {claimed(action)} ({stops})"
                )
        game.process(action, replay=True)
    assert runs > 0
    print(f"{game_path.stem}: {runs} runs, ours above the players' claim at {len(above)}:")
    for line in above:
        print("  " + line)


@pytest.mark.skipif(not GAME_FILES_1841, reason=f"no 1841 fixtures in {FIXTURES_1841}")
@pytest.mark.parametrize("game_path", GAME_FILES_1841, ids=[p.stem for p in GAME_FILES_1841])
def test_1841_best_routes_at_every_run(game_path: Path) -> None:
    """Every run of the game: the players' routes pass our check with their revenues; our
    proven optimum is at least theirs and passes the check; with and without LegCosts."""
    above: list[str] = []
    runs = 0
    for action, position in positions(game_path):
        if action.get("type") != "run_routes":
            continue
        runs += 1
        port = position.port
        corp = str(action["entity"])
        where = f"{game_path.stem} #{action['id']} {corp}"
        specs = {
            r["train"]: TrainSpec(r["train"], name, port.data.train(name).distance)
            for r in action["routes"]
            for name in [r["train"].rpartition("-")[0]]
        }
        ctx = port.run_context(corp)
        recorded = [int(r["revenue"]) for r in action["routes"]]
        assert run_routes(ctx, action["routes"], specs, port.route_rules) == recorded, where
        result = port.best_run_of(corp, specs)
        assert result.optimal, where
        assert result.revenue >= claimed(action), (where, result.routes, action["routes"])
        assert run_routes(ctx, result.routes, specs, port.route_rules) == list(result.revenues)
        assert best_routes(ctx, specs, port.route_rules).revenue == result.revenue, where
        if result.revenue > claimed(action):
            stops = "; ".join(r["revenue_str"] for r in result.routes)
            above.append(f"{where}: ours {result.revenue} > claimed {claimed(action)} ({stops})")
    assert runs > 0
    print(f"{game_path.stem}: {runs} runs, ours above the players' claim at {len(above)}:")
    for line in above:
        print("  " + line)


def bench_id(entry: dict[str, Any]) -> str:
    kind = "-synthetic" if entry.get("synthetic") else ""
    return f"{entry['fixture'][:-5]}-{entry['before_action_id']}-{entry['corporation']}-" + (
        "+".join(entry["trains"]) + kind
    )


@pytest.mark.skipif(not BENCH_1841, reason=f"no 1841 positions in {BENCH} or no fixtures")
@pytest.mark.parametrize(
    "entry",
    [
        pytest.param(e, marks=pytest.mark.slow) if e.get("autorouter_timed_out") else e
        for e in BENCH_1841
    ],
    ids=[bench_id(e) for e in BENCH_1841],
)
def test_1841_benchmark_position(entry: dict[str, Any]) -> None:
    """The recorded best revenue: the auto-router's (exact where it finished) and at least the
    players'; proven optimal; routes that pass our check.  The stress position whose
    auto-router search timed out (its figure is only a lower bound) runs with --slow."""
    action, position = position_before(FIXTURES_1841 / entry["fixture"], entry["before_action_id"])
    if not entry.get("synthetic"):
        assert action["type"] == "run_routes" and action["entity"] == entry["corporation"]
        assert position.port.phase == str(entry["phase"])
        assert sorted(position.trains[entry["corporation"]]) == sorted(entry["trains"])
    port = position.port
    specs = port.train_specs(owner_of(entry["trains"]))
    result = port.best_run_of(entry["corporation"], specs)
    assert result.optimal
    best = max(int(entry["autorouter_revenue"]), int(entry.get("claimed_revenue") or 0))
    if entry.get("autorouter_timed_out"):
        assert result.revenue >= best
    else:
        assert result.revenue == best
    ctx = port.run_context(entry["corporation"])
    assert run_routes(ctx, result.routes, specs, port.route_rules) == list(result.revenues)
