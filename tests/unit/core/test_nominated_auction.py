"""The nominated open English auction (core.flow.nominated_auction; 18xx.games' concession
auction, as described for its concession auction in a title's rulebook)."""

from __future__ import annotations

from typing import Any

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.nominated_auction import NominatedAuction

ITEMS = [("A", 50), ("B", 50), ("C", 50)]
OPTS = {"opening_bid": 20, "increment": 5}


def new(auction_game: Any, cash: list[int], items: Any = ITEMS, **opts: Any) -> Any:
    return auction_game(cash, items, NominatedAuction, **{**OPTS, **opts})


def test_who_joins_lowest_bidder_acts_winner_pays_bank(auction_game: Any) -> None:
    """Only players with more cash than the opening bid join; those who have not bid act
    first, left of the nominator; then the lowest standing bid; the last bidder pays the bank
    and the next nomination is the nominator's left neighbour."""
    g = new(auction_game, [100, 100, 100, 30])
    money = g.money()
    assert g.active() == [1]
    g.do(1, "bid", company="A", price=30)
    assert g.step.auctioning.sym == "A"
    assert set(g.step.bids[g.company("A")]) == {g.p(1), g.p(2), g.p(3)}  # P4: 30, not more
    assert g.active() == [2]
    g.do(2, "bid", company="A", price=35)
    assert g.active() == [3]
    g.do(3, "pass")
    assert g.active() == [1]  # 30 is the lowest standing bid
    g.do(1, "bid", company="A", price=40)
    assert g.active() == [2]
    g.do(2, "pass")
    assert g.owners()["A"] == 1
    assert g.cash() == {1: 60, 2: 100, 3: 100, 4: 30}
    assert g.bank.cash == 10_040
    assert g.money() == money
    assert g.bought == [(1, "A", 40)]
    assert g.active() == [2]


def test_next_nomination_follows_the_nominator_not_the_winner(auction_game: Any) -> None:
    g = new(auction_game, [100, 100, 100, 100])
    g.do(1, "pass")
    g.do(2, "bid", company="B", price=20)
    assert g.active() == [3]
    g.do(3, "bid", company="B", price=25)
    assert g.active() == [4]
    g.do(4, "bid", company="B", price=30)
    assert g.active() == [1]  # passed on his nomination turn, still joins
    g.do(1, "pass")
    assert g.active() == [2]  # 20
    g.do(2, "pass")
    assert g.active() == [3]  # 25
    g.do(3, "pass")
    assert g.owners()["B"] == 4
    assert g.p(4).cash == 70
    assert g.active() == [3]  # after the nominator (P2), not after the winner (P4)


def test_a_bid_takes_the_pass_mark_off_and_all_passed_ends(auction_game: Any) -> None:
    g = new(auction_game, [100, 100, 100, 100])
    g.do(1, "pass")
    g.do(2, "pass")
    assert g.p(1).passed and g.p(2).passed
    g.do(3, "bid", company="C", price=20)
    g.do(4, "pass")
    g.do(1, "bid", company="C", price=25)  # a raise un-passes
    assert not g.p(1).passed
    g.do(2, "pass")
    g.do(3, "pass")
    assert g.owners()["C"] == 1
    assert g.active() == [4]
    for pid in (4, 1, 2):
        g.do(pid, "pass")
        assert g.in_auction()
    g.do(3, "pass")
    assert not g.in_auction()
    assert g.owners() == {"A": None, "B": None, "C": 1}  # unsold: the bank's


def test_round_ends_when_all_items_are_sold(auction_game: Any) -> None:
    g = new(auction_game, [100, 100, 100], items=[("A", 50)])
    g.do(1, "bid", company="A", price=20)
    g.do(2, "pass")
    assert g.in_auction()
    g.do(3, "pass")
    assert not g.in_auction()
    assert g.owners() == {"A": 1}


def test_new_player_order_least_cash_then_lowest_item_then_seat(auction_game: Any) -> None:
    """Equal cash: a player without items first, then the lowest-numbered item owned, then
    the old seat; the first player has priority (the round after starts with him)."""
    g = new(auction_game, [100, 100, 100, 100])
    # P1 buys C for 30, P3 buys A for 30, P4 nobody; P2 spends 30 on B
    g.do(1, "bid", company="C", price=30)
    for pid in (2, 3, 4):
        g.do(pid, "pass")
    g.do(2, "bid", company="B", price=30)
    for pid in (3, 4, 1):
        g.do(pid, "pass")
    g.do(3, "bid", company="A", price=30)
    for pid in (4, 1, 2):
        g.do(pid, "pass")
    assert g.cash() == {1: 70, 2: 70, 3: 70, 4: 100}
    assert not g.in_auction()  # all sold
    assert g.order() == [3, 2, 1, 4]  # A (0) before B (1) before C (2); most cash last
    assert g.active() == [3]


def test_order_player_without_item_first_then_old_seat(auction_game: Any) -> None:
    g = new(auction_game, [80, 50, 50, 50])
    g.do(1, "bid", company="A", price=30)
    for pid in (2, 3, 4):
        g.do(pid, "pass")
    for pid in (2, 3, 4, 1):
        g.do(pid, "pass")
    assert g.cash() == {1: 50, 2: 50, 3: 50, 4: 50}
    assert g.order() == [2, 3, 4, 1]


def test_illegal_bids_name_the_rule(auction_game: Any) -> None:
    g = new(auction_game, [100, 100, 100], rule="the title's rules §2")
    with pytest.raises(IllegalAction) as low:
        g.do(1, "bid", company="A", price=15)
    assert low.value.rule == "the title's rules §2"
    with pytest.raises(IllegalAction):
        g.do(1, "bid", company="A", price=101)
    with pytest.raises(IllegalAction):
        g.do(2, "bid", company="A", price=20)  # not his turn
    with pytest.raises(IllegalAction):
        g.do(1, "bid", company="X", price=20)
    g.do(1, "bid", company="A", price=20)
    with pytest.raises(IllegalAction):
        g.do(2, "bid", company="A", price=24)  # below 20 + 5
    with pytest.raises(IllegalAction):
        g.do(2, "bid", company="B", price=30)  # A is up
    with pytest.raises(IllegalAction):
        g.do(1, "pass")  # P2 acts
    g.do(2, "pass")
    g.do(3, "pass")
    with pytest.raises(IllegalAction):
        g.do(2, "bid", company="A", price=40)  # sold
    assert g.cash() == {1: 80, 2: 100, 3: 100}


def test_choices_and_price_space(auction_game: Any) -> None:
    g = new(auction_game, [100, 15, 100])
    step = g.step
    listed = step.choices(g.p(1))
    assert [a["type"] for a in listed] == ["pass", "bid", "bid", "bid"]
    assert {(a["company"], a["price"]) for a in listed if a["type"] == "bid"} == {
        ("A", 20), ("B", 20), ("C", 20)
    }  # fmt: skip
    assert step.price_space(g.p(1), listed[1]) == (20, 100)
    assert step.choices(g.p(2)) == []
    g.do(1, "bid", company="A", price=20)
    assert g.active() == [3]  # P2 (15) cannot join
    listed = step.choices(g.p(3))
    assert listed[1]["price"] == 25
    assert step.price_space(g.p(3), listed[1]) == (25, 100)
    # a poor player only gets pass
    g2 = new(auction_game, [100, 22, 100])
    g2.do(1, "bid", company="A", price=20)
    assert g2.active() == [2]
    assert [a["type"] for a in g2.step.choices(g2.p(2))] == ["pass"]


def test_live_gate_uses_the_price_space(auction_game: Any) -> None:
    from stellwerk.core.live import check_live

    g = new(auction_game, [100, 100, 100])
    bid = {"type": "bid", "entity": 1, "entity_type": "player", "company": "B", "price": 73}
    check_live(g, bid)
    with pytest.raises(IllegalAction):
        check_live(g, {**bid, "price": 19})
    with pytest.raises(IllegalAction):
        check_live(g, {**bid, "price": 101})


def test_alone_buys_at_once_or_as_the_reference_engine(auction_game: Any) -> None:
    g = new(auction_game, [100, 20, 20])
    g.do(1, "bid", company="A", price=20)
    assert g.owners()["A"] == 1
    assert g.active() == [2]
    ref = new(auction_game, [100, 20, 20], alone_buys=False)
    ref.do(1, "bid", company="A", price=20)
    assert ref.active() == [1]  # still in the auction, alone
    ref.do(1, "bid", company="A", price=25)  # may only raise himself...
    assert ref.owners()["A"] is None
    ref.do(1, "pass")  # ...or withdraw
    assert ref.owners()["A"] is None and ref.step.auctioning is None
    assert ref.active() == [1]  # his nomination turn again
    assert not ref.p(1).passed
