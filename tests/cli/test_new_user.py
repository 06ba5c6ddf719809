"""Issue 9 item 4: a new user lays a tile using only ``stellwerk new``, ``show`` and ``act``.

The user starts a game, reads ``show --json`` and sends one of the legal actions it lists,
exactly as printed, until ``show`` offers tile lays (``legal.lays``, grouped by hex); then
sends the first lay.  Nothing but the command line is used: no engine object is touched.
The user's habits: par or buy shares when offered, open the bidding on a private nobody has
bid on yet, run and pay out, and otherwise pass (common rules §4-§6: auction, stock round,
operating round).  Also the text view: a lay line printed by ``show`` is a ready ``act``
argument, and 1835's minors list their home tokens (issue 9, "Why").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from stellwerk.cli.main import main

HABITS = ("par", "buy_shares", "place_token", "run_routes", "dividend", "buy_train")


def _cli(*args: str) -> Any:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, (args, result.output)
    return result


def _pick(view: dict[str, Any]) -> dict[str, Any]:
    actions = view["legal"]["actions"]
    assert actions, view
    for kind in HABITS:
        for action in actions:
            if action["type"] == kind:
                return dict(action)
    if not view.get("bids"):
        for action in actions:
            if action["type"] == "bid":
                return dict(action)
    return dict(next((a for a in actions if a["type"] == "pass"), actions[0]))


@pytest.mark.parametrize(("title", "players"), [("1849", "Alice,Bob,Clara"), ("1835", "A,B,C,D")])
def test_a_new_user_lays_a_tile_with_new_show_and_act(
    title: str, players: str, tmp_path: Path
) -> None:
    path = str(tmp_path / "game.json")
    _cli("new", title, "--players", players, "--seed", "5", "-o", path)
    for _ in range(200):
        view = json.loads(_cli("show", path, "--json", "--log", "0").output)
        lays = view["legal"]["lays"]
        if lays:
            break
        _cli("act", path, json.dumps(_pick(view)))
    else:
        pytest.fail("show never offered a tile lay")
    hex_id, choices = next(iter(lays.items()))
    acting = view["acting"]
    assert all(c["hex"] == hex_id and c["type"] == "lay_tile" for c in choices)
    _cli("act", path, json.dumps(choices[0]))
    saved = json.loads(Path(path).read_text(encoding="utf-8"))
    assert saved["actions"][-1]["type"] == "lay_tile"
    assert saved["actions"][-1]["hex"] == hex_id
    log = _cli("log", path).output
    tile = str(choices[0]["tile"]).rpartition("-")[0]
    assert f"lays tile #{tile} on {hex_id}" in log
    assert acting and all(str(a) in log for a in acting if isinstance(a, str))


def test_a_lay_line_of_the_text_view_is_a_ready_act_argument(tmp_path: Path) -> None:
    """``show`` (text) prints each lay as JSON on its own line under ``tile lays on HEX:``;
    that line, pasted, is accepted by ``act``."""
    path = str(tmp_path / "game.json")
    _cli("new", "1849", "--players", "Alice,Bob,Clara", "--seed", "5", "-o", path)
    for _ in range(200):
        text = _cli("show", path, "--log", "0").output
        lines = text.splitlines()
        heads = [i for i, line in enumerate(lines) if line.strip().startswith("tile lays on ")]
        if heads:
            break
        view = json.loads(_cli("show", path, "--json", "--log", "0").output)
        _cli("act", path, json.dumps(_pick(view)))
    else:
        pytest.fail("show never offered a tile lay")
    pasted = lines[heads[0] + 1].strip()
    assert json.loads(pasted)["type"] == "lay_tile"
    _cli("act", path, pasted)


def test_1835_show_lists_the_minors_home_tokens(tmp_path: Path) -> None:
    """rules/1835.md: the minors' home stations are on the board from their start, and
    ``show`` lists them with each minor (it used to list no tokens at all)."""
    path = str(tmp_path / "game.json")
    _cli("new", "1835", "--players", "A,B,C", "--seed", "5", "-o", path)
    for _ in range(200):
        view = json.loads(_cli("show", path, "--json", "--log", "0").output)
        if view["round"].endswith("Operating"):
            break
        _cli("act", path, json.dumps(_pick(view)))
    else:
        pytest.fail("no operating round reached")
    minors = [c for c in view["corporations"] if c["sym"].startswith("M") and c["president"]]
    assert minors and all(c["tokens"] for c in minors), minors
