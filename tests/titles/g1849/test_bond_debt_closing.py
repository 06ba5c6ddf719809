"""1849 bonds: an issue that closes the corporation and leaves its bond interest unpaid.

Rules §5: a corporation in the 0 cell closes and the bank takes its cash (a debt is written
off).  Rules §7.4: the bond interest falls due right after the issue step; a corporation that
cannot pay it goes below zero and its president must raise the money at once.  18xx.games fails
on such an issue (its emergency money step is left without a debtor), so it is not offered;
issues that close the corporation with the interest covered are offered and accepted.
"""

from __future__ import annotations

import copy
import json

import pytest

from stellwerk.api import Game
from stellwerk.core.errors import IllegalAction
from stellwerk.selfplay import play
from stellwerk.titles.g1849.steps import Issue1849

ISSUE_ONE = {"type": "sell_shares", "entity": "SFA", "entity_type": "corporation",
             "shares": ["SFA_4"], "percent": 10}  # fmt: skip


@pytest.fixture(scope="module")
def before_issue() -> Game:
    """Seed 485 with bonds, 300 random legal actions: SFA (bond out, no cash, price 27 one
    row above the 0 cell) is in its issue step."""
    game = Game.create("1849", [(1, "A"), (2, "B"), (3, "C")], ["bonds"], 485)
    play(game, 485, max_actions=300)
    eng = game.engine
    sfa = eng.round.current_entity()
    assert isinstance(eng.round.active_step(), Issue1849) and sfa.sym == "SFA"
    assert sfa.cash == 0 and sfa.bond and sfa.share_price.price == 27
    return game


def test_issue_that_strands_the_bond_debt_is_not_offered(before_issue: Game) -> None:
    """§§5, 7.4: one share for L.27 closes SFA with L.50 interest unpaid: not offered and
    refused live, nothing changed; in a replayed file it is refused too (as by 18xx.games)."""
    game = copy.deepcopy(before_issue)
    listed = [a for a in game.legal_actions() if a["type"] == "sell_shares"]
    assert [a["percent"] for a in listed] == [20, 30]
    state = json.dumps(game.snapshot(), sort_keys=True)
    with pytest.raises(IllegalAction):
        game.process(dict(ISSUE_ONE))
    assert json.dumps(game.snapshot(), sort_keys=True) == state
    with pytest.raises(IllegalAction, match="without a debtor"):
        game.process(dict(ISSUE_ONE), replay=True)


def test_every_offered_action_is_accepted(before_issue: Game) -> None:
    """The live gate: what is listed is accepted; the 20 % and 30 % issues close SFA (§5) with
    the interest paid from the proceeds (§7.4)."""
    for action in before_issue.legal_actions():
        game = copy.deepcopy(before_issue)
        game.process(action)
        if action["type"] == "sell_shares":
            assert all(c.sym != "SFA" or not c.ipoed for c in game.engine.corporations)
