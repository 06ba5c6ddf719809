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
from stellwerk.core.flow.operating import IssueShares
from stellwerk.selfplay import play
from stellwerk.titles.g1849.steps import Issue1849

SEED, PLAYERS, ACTIONS = 55, 4, 487
"""A selfplay game with bonds that reaches such an issue step (found by search; if the driver
changes, search again: a position where ``IssueShares.choices`` lists more than
``Issue1849.choices``)."""


@pytest.fixture(scope="module")
def before_issue() -> Game:
    """The corporation to act (bond out, no cash, one row above the 0 cell) is in its issue
    step."""
    game = Game.create("1849", [(n, f"P{n}") for n in range(1, PLAYERS + 1)], ["bonds"], SEED)
    play(game, SEED, max_actions=ACTIONS)
    step = game.engine.round.active_step()
    corp = step.current_entity()
    assert isinstance(step, Issue1849), "the driver no longer reaches the position: search again"
    assert corp.cash == 0 and corp.bond
    return game


def stranding_issue(game: Game) -> dict[str, object]:
    """The one-share issue the generic step lists and 1849 leaves out."""
    step = game.engine.round.active_step()
    corp = step.current_entity()
    generic = [a for a in IssueShares.choices(step, corp) if a["type"] == "sell_shares"]
    return min(generic, key=lambda a: int(a["percent"]))


def test_issue_that_strands_the_bond_debt_is_not_offered(before_issue: Game) -> None:
    """§§5, 7.4: one share closes the corporation with L.50 interest unpaid: not offered and
    refused live, nothing changed; in a replayed file it is refused too (as by 18xx.games)."""
    game = copy.deepcopy(before_issue)
    one = stranding_issue(game)
    listed = [a for a in game.legal_actions() if a["type"] == "sell_shares"]
    assert listed and all(int(a["percent"]) > int(one["percent"]) for a in listed)
    state = json.dumps(game.snapshot(), sort_keys=True)
    with pytest.raises(IllegalAction):
        game.process(dict(one))
    assert json.dumps(game.snapshot(), sort_keys=True) == state
    with pytest.raises(IllegalAction, match="without a debtor"):
        game.process(dict(one), replay=True)


def test_every_offered_action_is_accepted(before_issue: Game) -> None:
    """The live gate: what is listed is accepted; the larger issues close the corporation (§5)
    with the interest paid from the proceeds (§7.4)."""
    sym = before_issue.engine.round.active_step().current_entity().sym
    for action in before_issue.legal_actions():
        game = copy.deepcopy(before_issue)
        game.process(action)
        if action["type"] == "sell_shares":
            assert all(c.sym != sym or not c.ipoed for c in game.engine.corporations)
