"""Board positions rebuilt from an 1841 game file and its trace (tools/positions1841.py)
equal the trace at every action: the tiles (where the trace lists them, at each new round),
every corporation's token hexes and the phase.  Reads ../shared/fixtures; skips without it."""

from __future__ import annotations

from pathlib import Path

import pytest
from positions1841 import owner_of, positions, read_trace, trace_path

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "18xx.games" / "1841"
GAMES = sorted(FIXTURES.glob("*.json")) if FIXTURES.is_dir() else []


@pytest.mark.skipif(not GAMES, reason=f"no 1841 fixtures in {FIXTURES}")
@pytest.mark.parametrize("game_path", GAMES, ids=[p.stem for p in GAMES])
def test_rebuilt_board_equals_the_trace(game_path: Path) -> None:
    states = read_trace(trace_path(game_path))[1:]
    tile_checks = 0
    for index, (action, position) in enumerate(positions(game_path)):
        state = states[index]
        board = position.port.board
        where = f"before action {action['id']}"
        assert position.port.phase == state["phase"], where
        if "tiles" in state:
            assert board.trace_tiles() == state["tiles"], where
            tile_checks += 1
        for corp in state["corporations"]:
            assert board.token_hexes(corp["id"]) == sorted(corp["tokens"]), (where, corp["id"])
    assert tile_checks > 5


def test_owner_of_numbers_trains_per_name() -> None:
    assert [t.id for t in owner_of(["2", "3", "2"]).trains] == ["2-0", "3-0", "2-1"]
