"""``stellwerk routes`` and ``api.Game.best_routes`` on 1841 games (issue 8 item 6; common rules
§6.1, rules/1841.md 2.3.5): the command replays the game through 1841's own flow and searches
with the variant's map, passes and ports.  On the route benchmark positions of the fixtures it
reaches the auto-router's revenue (exact there); on a 1841lite game of our selfplay driver it
finds at least every run the driver made, with routes the engine's route check accepts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from stellwerk.api import Game, IllegalAction
from stellwerk.cli.main import main
from stellwerk.selfplay import play

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "18xx.games" / "1841"
BENCH = SHARED / "reference" / "route-benchmarks.yaml"


def bench_entries() -> list[dict[str, Any]]:
    if not BENCH.is_file():
        return []
    entries = yaml.safe_load(BENCH.read_text(encoding="utf-8"))
    real = [e for e in entries if e["title"] == "1841" and not e.get("synthetic")]
    return real[::6]  # every sixth real position: all three fixtures, a few seconds


@pytest.mark.skipif(not FIXTURES.is_dir(), reason=f"{FIXTURES} is absent")
@pytest.mark.parametrize(
    "entry", bench_entries(), ids=lambda e: f"{e['fixture'][:-5]}-{e['before_action_id']}"
)
def test_routes_command_reaches_the_auto_router_on_1841_positions(entry: dict[str, Any]) -> None:
    path = FIXTURES / entry["fixture"]
    args = ["routes", str(path), "--corporation", entry["corporation"], "--json"]
    args += ["--before-action", str(entry["before_action_id"])]
    args += ["--trains", ",".join(entry["trains"])]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["optimal"] is True
    assert out["revenue"] == max(entry["autorouter_revenue"], entry["claimed_revenue"] or 0)
    assert sum(r["revenue"] for r in out["routes"]) == out["revenue"]


def test_best_routes_on_a_lite_game_cover_every_run_of_the_driver() -> None:
    """1841lite (its own map): before each run of our driver's game the proven best routes
    earn at least what the run earned, and the engine's own route check of the found routes
    gives the same revenue."""
    game = Game.create("1841", [(1, "A"), (2, "B"), (3, "C")], seed=7, options=["lite"])
    play(game, seed=7, max_actions=450)
    runs = [a for a in game.actions if a["type"] == "run_routes" and a["routes"]]
    assert runs, "the driver's game reached no run; play longer"
    data = game.to_file()
    for run in runs[:4]:
        earlier = [a for a in game.actions if int(a["id"]) < int(run["id"])]
        position = Game.from_file({**data, "actions": earlier})
        best = position.best_routes(str(run["entity"]))
        assert best.optimal
        recorded = sum(int(r.get("revenue", 0)) for r in run["routes"])
        assert best.revenue >= recorded
        corp = position.engine.corporation(str(run["entity"]))
        assert position.engine.route_revenue(corp, list(best.routes)) == best.revenue


def test_unknown_train_type_is_refused_with_the_rule() -> None:
    game = Game.create("1841", [(1, "A"), (2, "B"), (3, "C")], seed=1)
    with pytest.raises(IllegalAction, match="no train type '9'"):
        game.best_routes(game.engine.corporations[0].sym, ["9"])
