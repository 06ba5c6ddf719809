"""Games played entirely through order texts reach the same state as the same games played
by engine actions (issue 10, "How it will be checked"): 1849 and 1835, several operating
rounds deep, with one order per mail and with many orders ahead per mail."""

from __future__ import annotations

import pytest
from gm_scripted import by_orders, script

CASES = [("1849", 3, 3, 400), ("1835", 3, 2, 400), ("1835", 4, 6, 300)]

BONDS = ("1849", 3, 3, 260, ["bonds"])
"""1849 with its bonds variant (1849 rules §7.4): by 260 actions this game has had CNM
assigned, a train discarded over the limit, bonds issued and repaid and a debt paid by the
president (issue 28 item 6: every action has an order form)."""


@pytest.mark.long_run  # one pass of CI runs them (a few minutes of games in all)
@pytest.mark.parametrize(("title", "players", "seed", "actions", "options"),
                         [(*case, None) for case in CASES] + [BONDS])  # fmt: skip
@pytest.mark.parametrize("batch", [1, 25])
def test_issue10_a_game_by_orders_equals_the_game_by_actions(
    title: str, players: int, seed: int, actions: int, options: list[str] | None, batch: int
) -> None:
    reference, lines = script(title, players, seed, actions, options)
    assert len(lines) == len(reference.actions) > 250
    session, answers = by_orders(title, players, seed, lines, options, batch=batch)
    refused = [a for a in answers if a.refused is not None]
    assert refused == []
    assert session.pending == []
    assert [a.understood is not None for a in answers] == [True] * len(lines)
    assert session.game.snapshot() == reference.snapshot()
    played = [{k: v for k, v in a.items() if k != "auto_actions"} for a in session.game.actions]
    wanted = [{k: v for k, v in a.items() if k != "auto_actions"} for a in reference.actions]
    assert played == wanted


def test_issue28_the_bonds_game_uses_every_new_order_form() -> None:
    """The scripted bonds game (:data:`BONDS`) holds each action that had no order form
    before issue 28, so the game-by-orders test above plays each through its order."""
    reference, _ = script(*BONDS)
    kinds = {a["type"] for a in reference.actions}
    assert {"assign", "discard_train", "take_loan", "payoff_loan", "payoff_debt"} <= kinds


def test_the_scripts_reach_several_operating_rounds() -> None:
    """The scripted games are deep enough to count: at least three operating rounds."""
    from stellwerk.api import Game
    from stellwerk.gm.look import snap

    for title, players, seed, actions in CASES:
        reference, _ = script(title, players, seed, actions)
        game = Game.create(title, [(i, f"P{i}") for i in range(1, players + 1)], [], seed)
        seen = set()
        for action in reference.actions:
            now = snap(game)
            if "Operating" in str(now["round"]):
                seen.add((now["turn"], now["round_num"]))
            game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
        assert len(seen) >= 3, (title, seen)
