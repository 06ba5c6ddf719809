"""``api.Game.route_search`` (common rules §6.1): what a search of one corporation's routes
needs -- the run context, its trains and the title's route rules -- is what the engine's own
best run uses, so a front end that searches with it (the GM's named routes) finds the same
best revenue.  Checked at the first runs of the real 1849 and 1841 game files, and on a new
game of every title (no trains yet).  The files live in ../shared; those tests skip when the
folder is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from stellwerk.api import Game
from stellwerk.core.errors import IllegalAction
from stellwerk.core.routes.optimize import best_routes
from stellwerk.io.gamefile import load_game_file, read_game_file

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "18xx.games"
GAME_FILES = (
    sorted(path for title in ("1849", "1841") for path in (FIXTURES / title).glob("*.json"))
    if FIXTURES.is_dir()
    else []
)
RUNS_CHECKED = 3
"""Runs checked per file (the first ones: a replay to every run would be slow)."""


@pytest.mark.skipif(not GAME_FILES, reason=f"no game files in {FIXTURES}")
@pytest.mark.parametrize("game_path", GAME_FILES, ids=[path.stem for path in GAME_FILES])
def test_route_search_finds_the_engines_best_run(game_path: Path) -> None:
    data = read_game_file(game_path)
    game = Game.from_file({**data, "actions": []})
    checked = 0
    for action in load_game_file(data).live:
        if action.get("type") == "run_routes" and checked < RUNS_CHECKED:
            sym = str(action["entity"])
            search = game.route_search(sym)
            own = {t.id for t in game.engine.corporation(sym).trains}
            assert search.ctx.corp == sym
            assert set(search.trains) == own
            found = best_routes(search.ctx, search.trains, search.rules)
            assert found.revenue == game.best_routes(sym).revenue, (game_path.stem, action["id"])
            checked += 1
        game.process(action, replay=True)
    assert checked > 0


@pytest.mark.parametrize("title", ["1849", "1835", "1841"])
def test_route_search_of_a_new_corporation_has_no_trains(title: str) -> None:
    players: list[tuple[int | str, str]] = [(1, "A"), (2, "B"), (3, "C")]
    game = Game.create(title, players, [], 1)
    corp = game.engine.corporations[0]
    search = game.route_search(corp.sym)
    assert search.ctx.corp == corp.sym
    assert dict(search.trains) == {}
    assert search.ctx.board is game.board


def test_route_search_refuses_an_unknown_corporation() -> None:
    game = Game.create("1849", [(1, "A"), (2, "B"), (3, "C")], [], 1)
    with pytest.raises(IllegalAction):
        game.route_search("NOPE")
