"""Reading traces and finding the first difference from our snapshot."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from stellwerk.core.errors import GameFileError
from stellwerk.io.trace import first_difference, parse_trace, read_trace

LINE: dict[str, Any] = {
    "action_id": 7,
    "action_type": "pass",
    "round": "Round::Operating",
    "turn": 2,
    "active": ["SFA"],
    "bank": 5000,
    "players": [
        {"id": 8308, "cash": 100, "shares": {"SFA": 20}, "companies": []},
        {"id": 4473, "cash": 50, "shares": {}, "companies": ["SIGI"]},
    ],
    "corporations": [
        {"id": "SFA", "cash": 10, "floated": True, "trains": ["4H", "6H"], "tokens": ["B1", "A2"]},
    ],
    "depot": {"4H": 2, "6H": 3},
}


def changed(path: list[Any], value: Any) -> dict[str, Any]:
    line = copy.deepcopy(LINE)
    target: Any = line
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return line


def test_identical_lines_have_no_difference() -> None:
    assert first_difference(copy.deepcopy(LINE), LINE, 7) is None


def test_player_cash_difference_names_the_player() -> None:
    diff = first_difference(changed(["players", 0, "cash"], 90), LINE, 7)
    assert diff is not None
    assert diff.to_dict() == {
        "action_id": 7,
        "field": "players[8308].cash",
        "ours": 90,
        "expected": 100,
    }


def test_corporation_trains_difference() -> None:
    diff = first_difference(changed(["corporations", 0, "trains"], ["6H", "4H"]), LINE)
    assert diff is not None and diff.field == "corporations[SFA].trains"


def test_tokens_are_compared_sorted() -> None:
    assert first_difference(changed(["corporations", 0, "tokens"], ["A2", "B1"]), LINE) is None


def test_player_order_does_not_matter() -> None:
    ours = copy.deepcopy(LINE)
    ours["players"].reverse()
    assert first_difference(ours, LINE) is None


def test_missing_and_extra_entities_are_differences() -> None:
    ours = copy.deepcopy(LINE)
    ours["corporations"].append({"id": "AFG", "cash": 0})
    diff = first_difference(ours, LINE)
    assert diff is not None and diff.field == "corporations[AFG]" and diff.expected is None
    ours = copy.deepcopy(LINE)
    del ours["players"][1]
    diff = first_difference(ours, LINE)
    assert diff is not None and diff.field == "players[4473]" and diff.ours is None


def test_nested_dict_differences_name_the_key() -> None:
    diff = first_difference(changed(["players", 0, "shares"], {"SFA": 20, "AFG": 10}), LINE)
    assert diff is not None and diff.field == "players[8308].shares.AFG"
    diff = first_difference(changed(["depot", "6H"], 2), LINE)
    assert diff is not None and diff.field == "depot.6H"


def test_only_fields_of_the_expected_line_are_compared() -> None:
    ours = copy.deepcopy(LINE)
    ours["tiles"] = {"C1": "C1@0"}
    ours["players"][0]["debt"] = 5
    assert first_difference(ours, LINE) is None


def test_tiles_are_compared_when_the_trace_has_them() -> None:
    expected = changed(["tiles"], {"C1": "C1@0"})
    diff = first_difference(changed(["tiles"], {"C1": "C1@1"}), expected)
    assert diff is not None and diff.field == "tiles.C1"
    diff = first_difference(copy.deepcopy(LINE), expected)
    assert diff is not None and diff.field == "tiles"


def test_no_tolerance_and_bool_is_not_int() -> None:
    assert first_difference(changed(["bank"], 5001), LINE) is not None
    diff = first_difference(changed(["corporations", 0, "floated"], 1), LINE)
    assert diff is not None and diff.field == "corporations[SFA].floated"


def test_first_difference_follows_the_expected_field_order() -> None:
    ours = changed(["bank"], 1)
    ours["round"] = "Round::Stock"
    diff = first_difference(ours, LINE)
    assert diff is not None and diff.field == "round"


def test_parse_trace_splits_header_initial_steps_and_final() -> None:
    lines = [
        json.dumps({"title": "1849", "active_actions": 1}),
        json.dumps({"action_id": None, "bank": 1}),
        json.dumps({"action_id": 3, "bank": 2}),
        json.dumps({"finished": True, "result": {"1": 3}}),
    ]
    trace = parse_trace(lines)
    assert trace.header["title"] == "1849"
    assert trace.initial == {"action_id": None, "bank": 1}
    assert [step["action_id"] for step in trace.steps] == [3]
    assert trace.final == {"finished": True, "result": {"1": 3}}


@pytest.mark.parametrize("lines", [[], ["not json"], ["[1]"], ['{"action_id": 1}']])
def test_malformed_traces_are_rejected(lines: list[str]) -> None:
    with pytest.raises(GameFileError):
        parse_trace(lines)


def test_real_trace_reads(fixtures_18xx: Path) -> None:
    trace = read_trace(fixtures_18xx / "1849" / "1849_game_end_bank.trace.jsonl")
    assert trace.header["active_actions"] == len(trace.steps) == 396
    assert trace.initial is not None and trace.initial["bank"] == 6260
    assert trace.final is not None and trace.final["game_end_reason"] == "bank"
    for step in trace.steps:
        assert first_difference(step, step, step["action_id"]) is None
