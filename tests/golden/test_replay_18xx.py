"""Golden replays: every real 18xx.games 1849 and 1841 game file, compared with its trace after
every action, must reach the recorded result and game-end reason (style guide §10).

The files live in ../shared/fixtures (never copied into this repository); the tests skip when
that folder or the engine API is missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.io.replay import replay
from stellwerk.io.trace import read_trace

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
FIXTURES_1849 = SHARED / "fixtures" / "18xx.games" / "1849"
GAME_FILES = sorted(FIXTURES_1849.glob("*.json")) if FIXTURES_1849.is_dir() else []
FIXTURES_1841 = SHARED / "fixtures" / "18xx.games" / "1841"
GAME_FILES_1841 = sorted(FIXTURES_1841.glob("*.json")) if FIXTURES_1841.is_dir() else []


def _trace_for(game: Path) -> Path | None:
    trace = game.with_name(f"{game.stem}.trace.jsonl")
    return trace if trace.exists() else None


ALL_FILES = GAME_FILES + GAME_FILES_1841


@pytest.mark.skipif(not ALL_FILES, reason=f"no fixtures in {FIXTURES_1849} or {FIXTURES_1841}")
@pytest.mark.parametrize("game_path", ALL_FILES, ids=[path.stem for path in ALL_FILES])
def test_replay_matches_trace_and_result(game_path: Path) -> None:
    api = pytest.importorskip("stellwerk.api", reason="the engine API is not written yet")
    game_file = load_game_file(read_game_file(game_path))
    trace_path = _trace_for(game_path)
    trace = read_trace(trace_path) if trace_path else None
    report = replay(game_file, api.Game.create, trace=trace, source=game_path.name)
    divergence = report.first_divergence
    assert divergence is None, (
        f"{game_path.name}: first divergence at action {divergence.action_id}, "
        f"{divergence.field}: ours {divergence.ours!r}, expected {divergence.expected!r}"
        + (f"\n{report.error_traceback}" if report.error_traceback else "")
    )
    assert report.actions == len(game_file.live)
    assert report.finished
    assert report.result == game_file.result
    assert report.game_end_reason == game_file.game_end_reason


def test_fixture_folder_is_found_when_shared_exists() -> None:
    """Guards the relative path: with ../shared present the 1849 and 1841 fixtures must be
    collected."""
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is absent")
    assert GAME_FILES, f"expected 1849 game files in {FIXTURES_1849}"
    assert GAME_FILES_1841, f"expected 1841 game files in {FIXTURES_1841}"
