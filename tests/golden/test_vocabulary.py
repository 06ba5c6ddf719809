"""The whole recorded vocabulary (issue 12, item 2): ``message``, ``log``, every ``program_*``
type, ``undo``/``redo``, the ``user`` field and ``end_game`` load, are kept, and are written
back in order with their ids (common rules §3.3-3.5).

The game file is built in the test from the real 1849 fixture (not copied): ids spread out,
then chat and log lines inserted between actions, plus standing orders of every type the site
knows.  None of them may change the game: the final state is the fixture's.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from stellwerk.api import Game
from stellwerk.core.actions import PROGRAM_TYPES

FIXTURE = "1849/1849_game_end_bank.json"


def spread_ids(data: dict[str, Any], factor: int = 10) -> dict[str, Any]:
    """The same game with every id (and every undo's ``action_id``) times ``factor``, so that
    new actions fit between the recorded ones."""
    out = copy.deepcopy(data)
    for action in out["actions"]:
        action["id"] *= factor
        if action.get("action_id"):
            action["action_id"] *= factor
    return out


def with_site_actions(data: dict[str, Any]) -> tuple[dict[str, Any], list[int]]:
    """Insert a ``message`` and a ``log`` line after every 20th action and one standing order
    of each type after every 50th (never in front of an undo or redo: a ``log`` line is an
    ordinary action there, which an undo would take back and which ends a redo chain)."""
    out = spread_ids(data)
    player = out["players"][0]["id"]
    raw: list[dict[str, Any]] = []
    inserted: list[int] = []
    programs = sorted(PROGRAM_TYPES)
    actions = out["actions"]
    for index, action in enumerate(actions):
        raw.append(action)
        following = actions[index + 1]["type"] if index + 1 < len(actions) else None
        if following in ("undo", "redo") or following is None:
            continue
        base = action["id"]
        if index % 20 == 0:
            raw.append({"type": "message", "entity": player, "entity_type": "player",
                        "id": base + 1, "message": f"after {base}", "created_at": 1})  # fmt: skip
            raw.append({"type": "log", "entity": player, "entity_type": "player",
                        "id": base + 2, "message": "a log line", "user": 1})  # fmt: skip
            inserted += [base + 1, base + 2]
        if index % 50 == 0:
            kind = programs[(index // 50) % len(programs)]
            raw.append({"type": kind, "entity": player, "entity_type": "player",
                        "id": base + 3, "user": 4473})  # fmt: skip
            inserted.append(base + 3)
    out["actions"] = raw
    return out, inserted


@pytest.fixture
def fixture_file(fixtures_18xx: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((fixtures_18xx / FIXTURE).read_text(encoding="utf-8"))
    return data


def test_site_actions_load_and_change_nothing(fixture_file: dict[str, Any]) -> None:
    """Chat, log lines and standing orders of every type load and leave the game as the
    fixture's: same final state, result and end reason (common rules §3.3, §3.5)."""
    plain = Game.from_file(spread_ids(fixture_file))
    mixed, inserted = with_site_actions(fixture_file)
    game = Game.from_file(mixed)
    assert len(inserted) > 40
    assert game.snapshot() == plain.snapshot()
    assert game.finished and game.result == {str(k): v for k, v in fixture_file["result"].items()}
    assert game.game_end_reason == fixture_file["game_end_reason"]


def test_every_recorded_action_is_written_back_in_order(fixture_file: dict[str, Any]) -> None:
    """``to_file`` writes the whole record: undone actions, undo/redo, messages, logs,
    programs, with their ids, ``user`` fields and ``auto_actions``, and the file's other keys."""
    mixed, _ = with_site_actions(fixture_file)
    written = Game.from_file(mixed).to_file()
    assert written["actions"] == mixed["actions"]
    for key in ("description", "user", "created_at", "finished_at"):
        assert written[key] == mixed[key]
    again = Game.from_file(written)
    assert again.to_file()["actions"] == mixed["actions"]


def test_the_fixture_keeps_its_undo_history(fixture_file: dict[str, Any]) -> None:
    """The 475 recorded actions (31 undo, 2 redo) are all written back, not only the 395
    live ones (common rules §3.4)."""
    game = Game.from_file(fixture_file)
    written = game.to_file()["actions"]
    assert written == fixture_file["actions"]
    assert len(game.actions) < len(written)
