"""Best routes at every ``run_routes`` of the real 1849 game files (common rules §6.1,
1849 rules §4.3): our proven optimum is never below what the players claimed, every route we
return passes our own route check with the same revenue, and the additive-distance search and
the generic one agree.  Positions where we beat the players are listed in the test output
(``pytest -rP``).

The files live in ../shared/fixtures; the tests skip when that folder is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stellwerk.api import Game
from stellwerk.core.routes.optimize import best_routes
from stellwerk.core.routes.validate import run_routes
from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.titles.g1849.routefind import best_run

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
FIXTURES_1849 = SHARED / "fixtures" / "18xx.games" / "1849"
GAME_FILES = sorted(FIXTURES_1849.glob("*.json")) if FIXTURES_1849.is_dir() else []


def claimed(action: dict[str, Any]) -> int:
    return sum(int(r.get("revenue", 0)) for r in action.get("routes") or [])


@pytest.mark.skipif(not GAME_FILES, reason=f"no 1849 fixtures in {FIXTURES_1849}")
@pytest.mark.parametrize("game_path", GAME_FILES, ids=[path.stem for path in GAME_FILES])
def test_best_routes_at_every_run(game_path: Path) -> None:
    data = read_game_file(game_path)
    game = Game.from_file({**data, "actions": []})
    game.engine.loading = True
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
