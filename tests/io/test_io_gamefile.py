"""Loading, validating and writing 18xx.games game files (common rules §3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stellwerk.core.errors import GameFileError
from stellwerk.io.gamefile import (
    build_game_file,
    load_game_file,
    number_actions,
    read_game_file,
    write_json_atomic,
)


def small_file(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": 4711,
        "title": "1849",
        "players": [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}, {"id": 3, "name": "C"}],
        "settings": {"seed": 99, "optional_rules": ["delay_ift"], "is_async": True},
        "actions": [
            {"id": 1, "type": "bid", "entity": 1, "company": "SIGI", "price": 20},
            {"id": 3, "type": "pass", "entity": 2, "auto_actions": [{"type": "pass", "entity": 3}]},
            {"id": 4, "type": "undo", "entity": 2},
            {"id": 5, "type": "pass", "entity": 2},
        ],
    }
    data.update(changes)
    return data


def test_load_reads_title_players_seed_and_options() -> None:
    game = load_game_file(small_file())
    assert game.title == "1849"
    assert game.players == [(1, "A"), (2, "B"), (3, "C")]
    assert game.seed == 99
    assert game.optional_rules == ["delay_ift"]
    assert [action["id"] for action in game.live] == [1, 5]
    assert not game.finished


def test_seed_falls_back_to_the_game_id() -> None:
    assert load_game_file(small_file(settings={})).seed == 4711


def test_result_keys_become_strings() -> None:
    game = load_game_file(small_file(result={"1": 10, 2: 5}, game_end_reason="bank"))
    assert game.result == {"1": 10, "2": 5}
    assert game.game_end_reason == "bank"
    assert game.finished


@pytest.mark.parametrize(
    ("changes", "action_id"),
    [
        ({"title": ""}, None),
        ({"players": []}, None),
        ({"players": [{"id": 1, "name": "A"}, {"id": 1, "name": "B"}]}, None),
        ({"settings": {"optional_rules": "delay_ift"}}, None),
        ({"actions": [{"id": 1, "type": "pass"}, {"id": 1, "type": "pass"}]}, 1),
        ({"actions": [{"id": 1, "type": "pass"}, {"id": 2}]}, 2),
        ({"actions": [{"id": 1, "type": "pass"}, {"type": "pass"}]}, 1),
        ({"actions": [{"id": 7, "type": "pass", "auto_actions": [{"entity": 1}]}]}, 7),
        ({"actions": [{"id": 7, "type": "undo", "action_id": 3}]}, 7),
        ({"actions": [{"id": 8, "type": "redo"}]}, 8),
        ({"result": {"1": "lots"}}, None),
    ],
)
def test_corrupt_files_name_the_reason_and_action(
    changes: dict[str, Any], action_id: int | None
) -> None:
    with pytest.raises(GameFileError) as error:
        load_game_file(small_file(**changes))
    assert error.value.reason
    assert error.value.action_id == action_id


def test_not_an_object_is_corrupt() -> None:
    with pytest.raises(GameFileError):
        load_game_file([1, 2, 3])


def test_number_actions_fills_missing_and_keeps_ascending_ids() -> None:
    numbered = number_actions([{"type": "pass"}, {"id": 5, "type": "pass"}, {"type": "pass"}])
    assert [action["id"] for action in numbered] == [1, 5, 6]


def test_build_game_file_round_trips_through_load() -> None:
    actions = [{"type": "pass", "entity": 1}, {"type": "pass", "entity": 2}]
    data = build_game_file("1849", [(1, "A"), (2, "B")], 5, ["delay_ift"], actions)
    assert "result" not in data
    game = load_game_file(data)
    assert [action["id"] for action in game.live] == [1, 2]
    assert game.seed == 5 and game.optional_rules == ["delay_ift"]


def test_build_game_file_writes_result_when_finished() -> None:
    data = build_game_file(
        "1849", [(1, "A")], 5, [], [], finished=True, result={"1": 9}, game_end_reason="bank"
    )
    assert data["result"] == {"1": 9}
    assert data["game_end_reason"] == "bank"


def test_write_json_atomic_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    write_json_atomic(path, small_file())
    assert read_game_file(path) == small_file()
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_read_game_file_reports_bad_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{nope", encoding="utf-8")
    with pytest.raises(GameFileError):
        read_game_file(path)


def test_real_1849_fixture_loads_with_396_live_actions(fixtures_18xx: Path) -> None:
    data = json.loads((fixtures_18xx / "1849" / "1849_game_end_bank.json").read_text("utf-8"))
    game = load_game_file(data)
    assert len(game.live) == 396
    assert game.seed == 814263386
    assert game.optional_rules == ["delay_ift"]
    assert game.result == {"8308": 8786, "4473": 8564, "18845": -750}
    assert game.game_end_reason == "bank"
    autos = sum(len(action.get("auto_actions", [])) for action in game.live)
    assert autos > 0


def test_all_fixtures_load(fixtures_18xx: Path) -> None:
    for path in sorted(fixtures_18xx.glob("*/*.json")):
        game = load_game_file(read_game_file(path))
        assert game.live and game.result, path.name
