"""The stellwerk CLI with click's CliRunner, driven by the toy engine (tests/io/fakegame.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from stellwerk.cli.main import main
from stellwerk.io.undo import live_actions

COMMANDS = [
    "titles",
    "options",
    "replay",
    "new",
    "show",
    "act",
    "undo",
    "redo",
    "selfplay",
    "routes",
    "import",
    "export",
]


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def test_main_help_lists_every_command() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for command in COMMANDS:
        assert command in result.output


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(command: str) -> None:
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "Usage:" in result.output and "--help" in result.output


def test_routes_reports_a_corrupt_file(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    game.write_text("{}", encoding="utf-8")
    result = run("routes", str(game), "--corporation", "SFA")
    assert result.exit_code == 2
    assert "'title' must be a non-empty string" in result.output


def test_rails_report_format_refuses_an_empty_report(tmp_path: Path) -> None:
    report = tmp_path / "x.report"
    report.write_text("", encoding="utf-8")
    result = run("replay", str(report), "--format", "rails-report")
    assert result.exit_code == 2
    assert "line 1" in result.output or "not a Rails 1835 report" in result.output


def test_replay_reports_a_corrupt_file(tmp_path: Path, fake_api: type) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"title": "toy", "players": []}), encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 2 and "players" in result.output


def new_game(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    result = run("new", "toy", "--players", "Ann,Bob", "--seed", "7", "-o", str(path))
    assert result.exit_code == 0, result.output
    return path


def test_new_writes_a_game_file(tmp_path: Path, fake_api: type) -> None:
    data = json.loads(new_game(tmp_path).read_text(encoding="utf-8"))
    assert data["title"] == "toy"
    assert data["players"] == [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]
    assert data["settings"]["seed"] == 7 and data["actions"] == []


def test_show_prints_state_actors_and_choices(tmp_path: Path, fake_api: type) -> None:
    result = run("show", str(new_game(tmp_path)))
    assert result.exit_code == 0, result.output
    assert "Ann" in result.output and "To act: 1" in result.output
    assert '"type": "take"' in result.output


def test_act_applies_a_legal_action(tmp_path: Path, fake_api: type) -> None:
    path = new_game(tmp_path)
    result = run("act", str(path), '{"type": "take", "entity": 1, "amount": 20}')
    assert result.exit_code == 0, result.output
    actions = json.loads(path.read_text(encoding="utf-8"))["actions"]
    assert actions == [{"type": "take", "entity": 1, "amount": 20, "id": 1}]


def test_act_refused_leaves_the_file_byte_identical(tmp_path: Path, fake_api: type) -> None:
    path = new_game(tmp_path)
    assert run("act", str(path), '{"type": "pass", "entity": 1}').exit_code == 0
    before = path.read_bytes()
    result = run("act", str(path), '{"type": "take", "entity": 1, "amount": 20}')
    assert result.exit_code != 0
    assert "may not act now" in result.output and "toy rules §1" in result.output
    assert path.read_bytes() == before
    # no temporary file is left behind (the writers' lock file stays, see store/jsonfile.py)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".game.json.lock", "game.json"]


@pytest.mark.parametrize("action", ["not json", "[1]", '{"entity": 1}'])
def test_act_rejects_malformed_actions(tmp_path: Path, fake_api: type, action: str) -> None:
    path = new_game(tmp_path)
    before = path.read_bytes()
    assert run("act", str(path), action).exit_code == 2
    assert path.read_bytes() == before


def test_undo_takes_back_the_last_action_as_an_appended_undo(
    tmp_path: Path, fake_api: type
) -> None:
    """Undo is recorded as 18xx.games records it, an appended undo action (common rules §3.4)."""
    path = new_game(tmp_path)
    run("act", str(path), '{"type": "pass", "entity": 1}')
    run("act", str(path), '{"type": "pass", "entity": 2}')
    result = run("undo", str(path))
    assert result.exit_code == 0, result.output
    actions = json.loads(path.read_text(encoding="utf-8"))["actions"]
    assert [a["type"] for a in actions] == ["pass", "pass", "undo"]
    assert [a["id"] for a in live_actions(actions)] == [1]


def test_undo_with_nothing_to_undo_fails(tmp_path: Path, fake_api: type) -> None:
    path = new_game(tmp_path)
    before = path.read_bytes()
    result = run("undo", str(path))
    assert result.exit_code != 0 and "nothing to undo" in result.output
    assert path.read_bytes() == before


def selfplay_file(tmp_path: Path, *extra: str) -> Path:
    path = tmp_path / "self.json"
    result = run("selfplay", "toy", "--players", "3", "--seed", "5", *extra, "-o", str(path))
    assert result.exit_code == 0, result.output
    return path


def test_selfplay_finishes_and_is_deterministic(tmp_path: Path, fake_api: type) -> None:
    first = selfplay_file(tmp_path).read_bytes()
    second = selfplay_file(tmp_path).read_bytes()
    assert first == second
    data = json.loads(first)
    assert data["status"] == "finished" and sum(data["result"].values()) == 200


def test_selfplay_cap_stops_early(tmp_path: Path, fake_api: type) -> None:
    data = json.loads(selfplay_file(tmp_path, "--max-actions", "3").read_text("utf-8"))
    assert len(data["actions"]) == 3 and "result" not in data


def test_replay_json_of_a_selfplay_game_matches(tmp_path: Path, fake_api: type) -> None:
    path = selfplay_file(tmp_path)
    result = run("replay", str(path), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output.strip().splitlines()[-1])
    assert report["matches_result"] is True and report["first_divergence"] is None
    assert report["title"] == "toy" and report["finished"] is True
    assert report["result"] == report["expected_result"]


def test_replay_mismatch_exits_non_zero(tmp_path: Path, fake_api: type) -> None:
    path = selfplay_file(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["result"]["1"] += 10
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 1 and "NO MATCH" in result.output


def test_replay_with_trace_reports_the_first_divergence(tmp_path: Path, fake_api: Any) -> None:
    path = selfplay_file(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    game = fake_api.create("toy", [(p["id"], p["name"]) for p in data["players"]], [], 5)
    lines: list[dict[str, Any]] = [{"title": "toy"}, {"action_id": None, **game.snapshot()}]
    for action in data["actions"]:
        game.process(action)
        lines.append({"action_id": action["id"], **game.snapshot()})
    lines[4]["bank"] += 1
    trace = tmp_path / "t.trace.jsonl"
    trace.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    result = run("replay", str(path), "--trace", str(trace), "--json")
    assert result.exit_code == 1
    report = json.loads(result.output.strip().splitlines()[-1])
    assert report["first_divergence"]["field"] == "bank"
    assert report["first_divergence"]["action_id"] == data["actions"][2]["id"]
    assert report["first_divergence"]["expected"] == report["first_divergence"]["ours"] + 1
    assert report["actions"] == 3 and report["matches_result"] is False


def test_replay_of_an_unfinished_file_with_values_says_so(tmp_path: Path, fake_api: Any) -> None:
    """18xx.games saves a game in progress (a random game stopped at its time limit) with
    ``status: active``, ``finished: false`` and the players' current values as ``result``: those
    are no final result; a trace matched to the file's end is a match, and the replay says the
    game is unfinished."""
    path = tmp_path / "self.json"
    result = run("selfplay", "toy", "--players", "3", "--seed", "5", "--max-actions", "3",
                 "-o", str(path))  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(path.read_text(encoding="utf-8"))
    data.update(status="active", finished=False, result={"1": 70, "2": 60, "3": 70})
    path.write_text(json.dumps(data), encoding="utf-8")
    game = fake_api.create("toy", [(p["id"], p["name"]) for p in data["players"]], [], 5)
    lines: list[dict[str, Any]] = [{"title": "toy"}, {"action_id": None, **game.snapshot()}]
    for action in data["actions"]:
        game.process(action)
        lines.append({"action_id": action["id"], **game.snapshot()})
    trace = tmp_path / "t.trace.jsonl"
    trace.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    result = run("replay", str(path), "--trace", str(trace))
    assert result.exit_code == 0, result.output
    assert "trace matched; the file's game is unfinished" in result.output
    assert result.output.strip().endswith("MATCH") and "NO MATCH" not in result.output
    lines[2]["bank"] += 1
    trace.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    result = run("replay", str(path), "--trace", str(trace))
    assert result.exit_code == 1 and "trace matched" not in result.output
