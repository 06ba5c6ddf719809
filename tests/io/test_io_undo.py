"""Undo/redo resolution (common rules §3.4) on small hand-made logs and the real fixtures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stellwerk.core.errors import GameFileError
from stellwerk.io.undo import live_actions


def act(number: int, kind: str = "pass", **fields: Any) -> dict[str, Any]:
    return {"id": number, "type": kind, "entity": 1, **fields}


def ids(actions: list[dict[str, Any]]) -> list[int]:
    return [action["id"] for action in live_actions(actions)]


def test_plain_actions_are_all_live() -> None:
    assert ids([act(1), act(2), act(3)]) == [1, 2, 3]


def test_undo_without_action_id_undoes_the_last_live_action() -> None:
    assert ids([act(1), act(2), act(3, "undo")]) == [1]


def test_two_undos_undo_two_actions() -> None:
    assert ids([act(1), act(2), act(3, "undo"), act(4, "undo")]) == []


def test_undo_skips_messages_and_never_undoes_them() -> None:
    log = [act(1), act(2, "message", message="hi"), act(3, "undo")]
    assert ids(log) == [2]


def test_undo_with_action_id_keeps_that_action() -> None:
    log = [act(1), act(2), act(3), act(4), act(5, "undo", action_id=2)]
    assert ids(log) == [1, 2]


def test_undo_with_action_id_zero_undoes_everything() -> None:
    log = [act(1), act(2, "message", message="x"), act(3), act(4, "undo", action_id=0)]
    assert ids(log) == [2]


def test_redo_restores_the_last_undo_group() -> None:
    log = [act(1), act(2), act(3), act(4, "undo", action_id=1), act(5, "redo")]
    assert ids(log) == [1, 2, 3]


def test_redo_pops_groups_in_reverse_order() -> None:
    log = [act(1), act(2), act(3, "undo"), act(4, "undo"), act(5, "redo")]
    assert ids(log) == [1]
    assert ids([*log, act(6, "redo")]) == [1, 2]


def test_new_action_clears_the_redo_stack() -> None:
    log = [act(1), act(2), act(3, "undo"), act(4), act(5, "redo")]
    with pytest.raises(GameFileError) as error:
        live_actions(log)
    assert error.value.action_id == 5


def test_message_does_not_clear_the_redo_stack() -> None:
    log = [act(1), act(2, "undo"), act(3, "message", message="oops"), act(4, "redo")]
    assert ids(log) == [1, 3]


def test_undo_then_redo_then_undo_again() -> None:
    log = [act(1), act(2), act(3, "undo"), act(4, "redo"), act(5, "undo")]
    assert ids(log) == [1]


def test_undo_of_undone_range_only_clears_live_actions() -> None:
    log = [act(1), act(2), act(3, "undo"), act(4), act(5, "undo", action_id=1), act(6, "redo")]
    assert ids(log) == [1, 4]


def test_undo_with_missing_action_id_is_a_corrupt_file() -> None:
    with pytest.raises(GameFileError) as error:
        live_actions([act(1), act(2, "undo", action_id=99)])
    assert error.value.action_id == 2


def test_undo_with_nothing_live_is_harmless() -> None:
    assert ids([act(1, "undo"), act(2)]) == [2]


def test_auto_actions_stay_attached() -> None:
    auto = [{"type": "pass", "entity": 2}]
    live = live_actions([act(1, auto_actions=auto)])
    assert live[0]["auto_actions"] == auto


def _trace_header(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as lines:
        header: dict[str, Any] = json.loads(next(lines))
    return header


@pytest.mark.parametrize(
    ("name", "count"),
    [
        ("1849/1849_game_end_bank", 396),
        ("1841/1841_game_end_bank", None),
        ("1841/1841_game_end_bankrupt", None),
        ("1841/1841_game_end_offboards", None),
    ],
)
def test_fixture_live_counts_match_trace_headers(
    fixtures_18xx: Path, name: str, count: int | None
) -> None:
    game = fixtures_18xx / f"{name}.json"
    trace = fixtures_18xx / f"{name}.trace.jsonl"
    if not game.exists():
        pytest.skip(f"{game} not present")
    actions = json.loads(game.read_text(encoding="utf-8"))["actions"]
    header = _trace_header(trace)
    live = live_actions(actions)
    assert len(actions) == header["source_actions"]
    assert len(live) == header["active_actions"]
    if count is not None:
        assert len(live) == count


def test_fixture_live_ids_match_trace_lines(fixtures_18xx: Path) -> None:
    for trace in sorted(fixtures_18xx.glob("*/*.trace.jsonl")):
        game = trace.with_name(trace.name.replace(".trace.jsonl", ".json"))
        actions = json.loads(game.read_text(encoding="utf-8"))["actions"]
        lines = [json.loads(text) for text in trace.read_text(encoding="utf-8").splitlines()]
        traced = [line["action_id"] for line in lines[2:-1]]
        assert [action["id"] for action in live_actions(actions)] == traced, trace.name


def test_controlled_mask_is_the_one_check_of_a_live_undo() -> None:
    """Common rules §3.4: an undo/redo a player sends is refused when it changes nothing or
    names no earlier action; the engine and the store refuse the same ones (both call
    ``controlled_mask``), and ids come from the one ``next_id``."""
    from stellwerk.api import Game
    from stellwerk.core.errors import IllegalAction
    from stellwerk.io.undo import controlled_mask, next_id
    from stellwerk.store import log

    assert log.next_id is next_id
    log_ = [{"type": "pass", "entity": 1, "id": 4}, {"type": "message", "id": 7}]
    assert next_id(log_) == 8 and next_id([]) == 1 and next_id([{"id": True}]) == 1
    assert controlled_mask(log_, {"type": "undo", "id": 8}) == [False, True, False]
    for control, reason in (
        ({"type": "redo", "id": 8}, "nothing to redo"),
        ({"type": "undo", "action_id": 99, "id": 8}, "not earlier"),
        ({"type": "undo", "action_id": 7, "id": 8}, "nothing to undo"),
    ):
        with pytest.raises(IllegalAction, match=reason):
            controlled_mask(log_, control)
    game = Game.create("1849", [(n, f"P{n}") for n in range(1, 5)], [], 1)
    undo = {"type": "undo", "entity": 1, "entity_type": "player"}
    with pytest.raises(IllegalAction, match="nothing to undo"):
        game.process(undo)
    assert game.raw_actions == []
    game.process(undo, replay=True)  # a recorded one is taken as 18xx.games took it
    assert len(game.raw_actions) == 1
