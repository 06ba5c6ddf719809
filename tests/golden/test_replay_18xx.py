"""Golden replays: every real 18xx.games 1849 game file, compared with its trace after every
action, must reach the recorded result and game-end reason (style guide §10).  The 1841 game
files replay as far as 1841's game flow goes (through the operating rounds and corporate share
trading up to the first emergency sale, whose procedure is not on this branch): every action up
to there matches its trace line, no engine error, and the number of matching actions never
falls below the floor reached so far.

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

REACHED_1841 = {
    "1841_game_end_bank": 194,
    "1841_game_end_bankrupt": 188,
    "1841_game_end_offboards": 216,
}
"""Live actions of each 1841 file that match their trace lines (raise as the flow grows)."""


def _trace_for(game: Path) -> Path | None:
    trace = game.with_name(f"{game.stem}.trace.jsonl")
    return trace if trace.exists() else None


@pytest.mark.skipif(not GAME_FILES, reason=f"no 1849 fixtures in {FIXTURES_1849}")
@pytest.mark.parametrize("game_path", GAME_FILES, ids=[path.stem for path in GAME_FILES])
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


@pytest.mark.skipif(not GAME_FILES_1841, reason=f"no 1841 fixtures in {FIXTURES_1841}")
@pytest.mark.parametrize("game_path", GAME_FILES_1841, ids=[path.stem for path in GAME_FILES_1841])
def test_1841_replay_matches_trace_as_far_as_written(game_path: Path) -> None:
    api = pytest.importorskip("stellwerk.api", reason="the engine API is not written yet")
    game_file = load_game_file(read_game_file(game_path))
    trace_path = _trace_for(game_path)
    assert trace_path is not None
    trace = read_trace(trace_path)
    report = replay(game_file, api.Game.create, trace=trace, source=game_path.name)
    divergence = report.first_divergence
    if divergence is None:
        assert report.result == game_file.result
        return
    where = (
        f"{game_path.name}: first divergence at action {divergence.action_id}, "
        f"{divergence.field}: ours {divergence.ours!r}, expected {divergence.expected!r}"
        + (f"\n{report.error_traceback}" if report.error_traceback else "")
    )
    processed = divergence.field not in ("action", "engine_error")
    matched = report.actions - 1 if processed else report.actions
    assert divergence.field != "engine_error", where
    assert matched >= REACHED_1841[game_path.stem], where


def test_fixture_folder_is_found_when_shared_exists() -> None:
    """Guards the relative path: with ../shared present the 1849 fixtures must be collected."""
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is absent")
    assert GAME_FILES, f"expected 1849 game files in {FIXTURES_1849}"
