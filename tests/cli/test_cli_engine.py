"""CLI tests with the real 1849 engine; they skip while ``stellwerk.api`` does not exist."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from stellwerk.cli.main import main
from stellwerk.io.undo import live_actions

pytest.importorskip("stellwerk.api", reason="the engine API is not written yet")


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def game_1849(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    result = run("new", "1849", "--players", "A,B,C", "--seed", "814263386", "-o", str(path))
    assert result.exit_code == 0, result.output
    return path


def test_new_1849_game_file(game_1849: Path) -> None:
    data = json.loads(game_1849.read_text(encoding="utf-8"))
    assert data["title"] == "1849"
    assert [p["name"] for p in data["players"]] == ["A", "B", "C"]
    assert data["settings"]["seed"] == 814263386


def test_show_names_who_acts(game_1849: Path) -> None:
    result = run("show", str(game_1849))
    assert result.exit_code == 0, result.output
    assert "To act:" in result.output and "Legal actions" in result.output


def test_act_out_of_turn_leaves_the_file_byte_identical(game_1849: Path) -> None:
    before = game_1849.read_bytes()
    action = {"type": "pass", "entity": 3, "entity_type": "player"}
    result = run("act", str(game_1849), json.dumps(action))
    assert result.exit_code != 0
    assert "illegal action" in result.output
    assert game_1849.read_bytes() == before
    assert sorted(p.name for p in game_1849.parent.iterdir()) == [".game.json.lock", "game.json"]


def test_act_then_undo_restores_the_actions(game_1849: Path) -> None:
    before = json.loads(game_1849.read_text(encoding="utf-8"))["actions"]
    shown = run("show", str(game_1849)).output
    legal = [json.loads(line.strip()) for line in shown.splitlines() if line.startswith("  {")]
    assert legal, shown
    assert run("act", str(game_1849), json.dumps(legal[0])).exit_code == 0
    assert len(json.loads(game_1849.read_text(encoding="utf-8"))["actions"]) == len(before) + 1
    assert run("undo", str(game_1849)).exit_code == 0
    after = json.loads(game_1849.read_text(encoding="utf-8"))["actions"]
    # the undo is kept in the record as 18xx.games keeps it (common rules §3.4)
    assert len(after) == len(before) + 2 and after[-1]["type"] == "undo"
    assert live_actions(after) == live_actions(before)


def test_short_selfplay_replays_without_divergence(tmp_path: Path) -> None:
    path = tmp_path / "self.json"
    result = run("selfplay", "1849", "--players", "3", "--seed", "2", "--max-actions", "60",
                 "-o", str(path))  # fmt: skip
    assert result.exit_code == 0, result.output
    replayed = run("replay", str(path), "--json")
    report = json.loads(replayed.output.strip().splitlines()[-1])
    assert report["first_divergence"] is None
    assert report["actions"] == len(json.loads(path.read_text(encoding="utf-8"))["actions"])


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 6))
def test_whole_selfplay_game_finishes_and_replays_to_its_result(tmp_path: Path, seed: int) -> None:
    path = tmp_path / "self.json"
    result = run("selfplay", "1849", "--players", "3", "--seed", str(seed), "-o", str(path))
    assert result.exit_code == 0, result.output
    replayed = run("replay", str(path), "--json")
    assert replayed.exit_code == 0, replayed.output
    report = json.loads(replayed.output.strip().splitlines()[-1])
    assert report["finished"] is True and report["matches_result"] is True
