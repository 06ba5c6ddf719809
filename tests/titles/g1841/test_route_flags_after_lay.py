"""18xx.games checks a tile lay against the laying corporation's network on the selected
graph of the new board (its track-restriction check, asked in play), and that walk records
the corporation's route flags; the flag that a train must be bought outlives the graphs'
later clears (a corporation that loses its route afterwards still has a route step: our
selfplay game with the SFLi variant, 7 players, seed 76103, SFTG at actions 365, 451 and 491).
Checked on the recorded game 1841_game_end_bank: SFTG's lay at action 70 joins its home to a
second city."""

from __future__ import annotations

from typing import Any

from tests.conftest import cut_fixture

from stellwerk.api import Game

NAME = "1841/1841_game_end_bank.json"


def before_action(action_id: int) -> tuple[Game, dict[str, Any]]:
    data = cut_fixture(NAME, 10_000)
    actions = data["actions"]
    at = next(i for i, a in enumerate(actions) if a["id"] == action_id)
    data["actions"] = actions[:at]
    return Game.from_file(data), actions[at]


def test_a_lay_records_the_route_flags_of_the_new_board_common_rules_6_1() -> None:
    game, lay = before_action(70)
    assert lay["type"] == "lay_tile" and lay["entity"] == "SFTG"
    graph = game.engine.map.selected  # type: ignore[attr-defined]
    assert graph._routes.get("SFTG") is None
    game.process(lay, replay=True)
    graph = game.engine.map.selected  # type: ignore[attr-defined]
    assert graph._routes.get("SFTG") == (True, True)
    graph.clear()  # the next clear keeps the flag that a train must be bought
    assert graph.has_route("SFTG") and graph.must_buy_train("SFTG")
