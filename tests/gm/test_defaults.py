"""Default orders (issue 10 item 3): a deadline passed with missing orders is settled by the
default orders, each marked; seed 003's house rule (H15, rules/1841.md 6.7) for choices."""

from __future__ import annotations

import pytest

from stellwerk.api import Game
from stellwerk.gm.defaults import default_action
from stellwerk.gm.session import Session


@pytest.mark.long_run  # eight deadlines of whole rounds: one pass of CI runs it
@pytest.mark.parametrize(("title", "players"), [("1849", 3), ("1835", 4)])
def test_issue10_item3_deadlines_without_any_orders_are_settled_by_defaults(
    title: str, players: int
) -> None:
    """Nobody ever sends an order: each deadline settles the round it falls in by marked
    defaults (everybody drops out and passes), and the game moves on, round by round."""
    game = Game.create(title, [(i, f"P{i}") for i in range(1, players + 1)], [], 5)
    session = Session(game)
    rounds = set()
    for _ in range(8):
        rounds.add(game.round.seq)
        answers = session.advance(defaults=True)
        if game.finished:
            break
        assert answers, "a deadline with decisions due must settle them"
        assert all(a.default and a.refused is None for a in answers)
        assert all(a.text.startswith("(default") for a in answers)
    assert len(rounds) >= 2 or any("repeat" in e.text for e in session.events)


def test_issue10_item3_the_auction_default_is_to_drop_out() -> None:
    game = Game.create("1849", [(1, "A"), (2, "B"), (3, "C")], [], 5)
    found = default_action(game, game.active_entities()[0])
    assert found is not None and found.action["type"] == "pass"


def test_issue10_item3_sealed_bids_default_to_no_bids() -> None:
    game = Game.create("1841", [(1, "A"), (2, "B"), (3, "C")], ["version_1"], 5)
    found = default_action(game, 1)
    assert found is not None and found.action["type"] == "blind_bid"
    assert set(found.action["bids"]) == {0}


def test_seed003_h15_the_house_rule_takes_cash_and_buys_no_tokens() -> None:
    """rules/1841.md 6.7: in mergers and transformations take the cash, not the share; buy no
    tokens.  The choices as the 1841 steps list them (share offer yes/no, tokens 0..n)."""
    from stellwerk.gm.defaults import _choose

    game = Game.create("1849", [(1, "A"), (2, "B"), (3, "C")], [], 5)
    offer = [{"type": "choose", "entity": 1, "choice": c} for c in ("yes", "no")]
    assert _choose(game, offer).action["choice"] == "no"
    tokens = [{"type": "choose", "entity": "SFTG", "choice": n} for n in (0, 1, 2)]
    assert _choose(game, tokens).action["choice"] == 0
    equal = [{"type": "choose", "entity": 1, "choice": c} for c in ("a", "b")]
    first = _choose(game, equal)
    assert first.note.startswith("drawn") and first == _choose(game, equal)  # seeded
