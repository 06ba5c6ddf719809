"""The replay driver (stellwerk.io.replay) against the toy engine."""

from __future__ import annotations

import copy
from typing import Any

from fakegame import FakeGame

from stellwerk.io.gamefile import load_game_file
from stellwerk.io.replay import replay
from stellwerk.io.trace import Trace
from stellwerk.selfplay import play


def finished_file(seed: int = 3) -> dict[str, Any]:
    game = FakeGame.create("toy", [(1, "A"), (2, "B")], [], seed)
    play(game, seed)
    return game.to_file()


def trace_of(data: dict[str, Any]) -> Trace:
    """The trace the toy engine itself produces for a game file."""
    gf = load_game_file(data)
    game = FakeGame.create(gf.title, gf.players, gf.optional_rules, gf.seed)
    initial = {"action_id": None, **game.snapshot()}
    steps = []
    for action in gf.live:
        game.process(action)
        steps.append({"action_id": action["id"], "action_type": action["type"], **game.snapshot()})
    final = {
        "finished": game.finished,
        "result": game.result,
        "game_end_reason": game.game_end_reason,
    }
    return Trace({"title": "toy"}, initial, steps, final)


def test_finished_file_replays_to_its_result() -> None:
    data = finished_file()
    report = replay(load_game_file(data), FakeGame.create, source="x.json")
    assert report.ok and report.matches_result and report.finished
    assert report.actions == len(data["actions"])
    assert report.result == data["result"]
    out = report.to_dict()
    assert set(out) == {
        "file", "title", "options", "actions", "finished", "result",
        "expected_result", "matches_result", "first_divergence", "seconds",
    }  # fmt: skip
    assert out["first_divergence"] is None and out["seconds"] >= 0


def test_wrong_result_does_not_match() -> None:
    data = finished_file()
    data["result"]["1"] += 1
    report = replay(load_game_file(data), FakeGame.create)
    assert not report.matches_result and not report.ok


def test_refused_action_is_a_divergence_with_reason() -> None:
    data = finished_file()
    data["actions"][2]["entity"] = data["actions"][1]["entity"]
    report = replay(load_game_file(data), FakeGame.create)
    divergence = report.first_divergence
    assert divergence is not None
    assert divergence.action_id == data["actions"][2]["id"]
    assert divergence.field == "action" and "may not act now" in divergence.ours
    assert report.actions == 2


def test_trace_matches_to_the_end() -> None:
    data = finished_file()
    report = replay(load_game_file(data), FakeGame.create, trace=trace_of(data))
    assert report.first_divergence is None and report.trace_complete and report.ok


def test_trace_difference_stops_the_replay() -> None:
    data = finished_file()
    trace = trace_of(data)
    steps = copy.deepcopy(trace.steps)
    steps[4]["players"][0]["cash"] += 5
    report = replay(load_game_file(data), FakeGame.create, trace=Trace(
        trace.header, trace.initial, steps, trace.final
    ))  # fmt: skip
    divergence = report.first_divergence
    assert divergence is not None
    assert divergence.action_id == steps[4]["action_id"]
    assert divergence.field == "players[1].cash"
    assert divergence.expected == divergence.ours + 5
    assert report.actions == 5


def test_unfinished_file_matches_only_through_a_complete_trace() -> None:
    game = FakeGame.create("toy", [(1, "A"), (2, "B")], [], 1)
    play(game, 1, max_actions=4)
    data = game.to_file()
    assert "result" not in data
    assert not replay(load_game_file(data), FakeGame.create).matches_result
    trace = trace_of(data)
    report = replay(load_game_file(data), FakeGame.create, trace=trace)
    assert report.matches_result and report.ok
    short = Trace(trace.header, trace.initial, trace.steps[:-1], trace.final)
    report = replay(load_game_file(data), FakeGame.create, trace=short)
    assert report.first_divergence is not None and report.first_divergence.field == "trace"


def test_engine_crash_becomes_a_report() -> None:
    def broken(title: str, players: Any, options: Any, seed: int) -> FakeGame:
        raise KeyError("boom")

    report = replay(load_game_file(finished_file()), broken)
    assert report.first_divergence is not None
    assert report.first_divergence.field == "engine_error"
    assert report.error_traceback and "KeyError" in report.error_traceback
