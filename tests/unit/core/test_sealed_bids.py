"""Sealed bids with tie auctions (core.flow.sealed_bids; 18xx.games' blind auction)."""

from __future__ import annotations

from typing import Any

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.sealed_bids import SealedBids
from stellwerk.core.live import check_live

ITEMS = [("A", 50), ("B", 50), ("C", 50), ("D", 50)]
OPTS = {"opening_bid": 20, "increment": 5}


def new(auction_game: Any, cash: list[int], items: Any = ITEMS, **opts: Any) -> Any:
    return auction_game(cash, items, SealedBids, **{**OPTS, **opts})


def seal(g: Any, *lists: list[int]) -> None:
    for pid, bids in enumerate(lists, start=1):
        g.do(pid, "blind_bid", bids=bids)


def test_each_player_once_in_seat_order(auction_game: Any) -> None:
    g = new(auction_game, [200, 200, 200])
    assert g.active() == [1]
    assert g.step.actions(g.p(1)) == ["blind_bid"]
    with pytest.raises(IllegalAction):
        g.do(2, "blind_bid", bids=[0, 0, 0, 0])
    g.do(1, "blind_bid", bids=[0, 0, 0, 0])
    assert g.active() == [2]
    with pytest.raises(IllegalAction):
        g.do(2, "pass")


@pytest.mark.parametrize(
    ("bids", "why"),
    [
        ([20, 20, 20], "one bid for each"),
        ([20, 20, 20, 20, 0], "one bid for each"),
        ([19, 0, 0, 0], "at least 20"),
        ([-20, 40, 0, 0], "0 or more"),
        ([100, 60, 40, 0], "more than"),
    ],
)
def test_sealed_list_validation(auction_game: Any, bids: list[int], why: str) -> None:
    g = new(auction_game, [190, 200, 200], rule="title §2")
    with pytest.raises(IllegalAction) as refused:
        g.do(1, "blind_bid", bids=bids)
    assert why in refused.value.reason
    assert refused.value.rule == "title §2"
    with pytest.raises(IllegalAction):
        check_live(g, {"type": "blind_bid", "entity": 1, "entity_type": "player", "bids": bids})
    assert g.active() == [1] and g.step.sealed == {}


def test_shape_check_refuses_non_numbers(auction_game: Any) -> None:
    g = new(auction_game, [200, 200, 200])
    with pytest.raises(IllegalAction):
        g.do(1, "blind_bid", bids=[20, "x", 0, 0])
    with pytest.raises(IllegalAction):
        g.do(1, "blind_bid", bids=[20, True, 0, 0])


def test_live_gate_accepts_any_legal_list(auction_game: Any) -> None:
    g = new(auction_game, [200, 200, 200])
    action = {"type": "blind_bid", "entity": 1, "entity_type": "player", "bids": [20, 0, 75, 105]}
    check_live(g, action)
    listed = g.step.choices(g.p(1))
    assert [a["bids"] for a in listed] == [
        [0, 0, 0, 0], [20, 0, 0, 0], [0, 20, 0, 0], [0, 0, 20, 0], [0, 0, 0, 20]
    ]  # fmt: skip


def test_resolution_ties_and_tie_auctions(auction_game: Any) -> None:
    """A: P1 and P2 tie at 50 (P3's 40 dropped); B: P2 alone; C: P1 and P3 tie at 30;
    D: no bid.  New order P1 (80), P2 (70, [50, 20, ...]), P3 (70, [40, 0, ...]), P4."""
    g = new(auction_game, [200, 200, 200, 200])
    money = g.money()
    seal(g, [50, 0, 30, 0], [50, 20, 0, 0], [40, 0, 30, 0], [0, 0, 0, 0])
    assert g.owners() == {"A": None, "B": 2, "C": None, "D": None}
    assert g.p(2).cash == 180
    assert g.order() == [1, 2, 3, 4]
    assert g.step.auctioning.sym == "A"
    assert g.active() == [1]  # equal standing bids: earlier in the new order
    a = g.company("A")
    assert g.step.max_bid(g.p(1), a) == 200 - 80 + 50
    listed = g.step.choices(g.p(1))
    assert [(x["type"], x.get("price")) for x in listed] == [("pass", None), ("bid", 55)]
    assert g.step.price_space(g.p(1), listed[1]) == (55, 170)
    with pytest.raises(IllegalAction):
        g.do(1, "bid", company="A", price=175)
    with pytest.raises(IllegalAction):
        g.do(1, "bid", company="C", price=35)  # A is up
    g.do(1, "bid", company="A", price=55)
    assert g.active() == [2]
    assert g.step.max_bid(g.p(2), a) == 180
    g.do(2, "pass")
    assert g.owners()["A"] == 1
    assert g.step.auctioning.sym == "C"
    assert g.active() == [1]
    assert g.step.max_bid(g.p(1), g.company("C")) == 145
    g.do(1, "pass")
    assert g.owners() == {"A": 1, "B": 2, "C": 3, "D": None}
    assert g.cash() == {1: 145, 2: 180, 3: 170, 4: 200}
    assert g.money() == money
    assert not g.in_auction()
    assert g.active() == [1]


def test_order_tie_breaks_and_tie_auction_order(auction_game: Any) -> None:
    """Equal totals: the bid lists compared item by item; equal lists: the later seat first.
    The tie auction starts with the earlier player in that new order."""
    g = new(auction_game, [200, 200, 200, 200])
    seal(g, [20, 0, 0, 0], [20, 0, 0, 0], [0, 20, 0, 0], [0, 0, 0, 0])
    assert g.order() == [2, 1, 3, 4]
    assert g.owners()["B"] == 3
    assert g.active() == [2]
    g.do(2, "bid", company="A", price=25)
    assert g.active() == [1]
    g.do(1, "bid", company="A", price=40)
    assert g.active() == [2]
    g.do(2, "pass")
    assert g.owners()["A"] == 1
    assert g.cash() == {1: 160, 2: 200, 3: 180, 4: 200}
    assert not g.in_auction()
    assert g.order() == [2, 1, 3, 4]
    assert g.active() == [2]


def test_no_bids_at_all(auction_game: Any) -> None:
    g = new(auction_game, [200, 200, 200])
    seal(g, [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0])
    assert not g.in_auction()
    assert g.owners() == {"A": None, "B": None, "C": None, "D": None}
    assert g.order() == [3, 2, 1]  # all equal: the later seat first


@pytest.mark.parametrize("advance", [False, True])
def test_advance_raise_on_a_later_tied_item(auction_game: Any, advance: bool) -> None:
    """Option ``advance_raises`` (18xx.games' blind auction, 1841 rules 2.1.2): while A is
    up, P1 (to act, tied on C too) may raise his C bid; the A auction and its turn stay; off,
    the raise is refused and nothing changes.  Never on an item he does not stand on (B),
    nor by a bidder not to act (P3), nor below the minimum."""
    g = new(auction_game, [200, 200, 200, 200], advance_raises=advance)
    seal(g, [50, 0, 30, 0], [50, 20, 0, 0], [40, 0, 30, 0], [0, 0, 0, 0])
    c = g.company("C")
    with pytest.raises(IllegalAction):
        g.do(3, "bid", company="C", price=40)  # P3 is not to act
    with pytest.raises(IllegalAction):
        g.do(1, "bid", company="B", price=25)  # sold, no standing bid
    with pytest.raises(IllegalAction):
        g.do(1, "bid", company="C", price=30)  # below 30 + 5
    if not advance:
        with pytest.raises(IllegalAction):
            g.do(1, "bid", company="C", price=40)
        assert g.step.bids[c] == {g.p(1): 30, g.p(3): 30}
        return
    g.do(1, "bid", company="C", price=40)
    assert g.step.auctioning.sym == "A" and g.active() == [1]
    assert g.step.bids[c][g.p(1)] == 40
    assert g.step.max_bid(g.p(1), g.company("A")) == 200 - 90 + 50
    g.do(1, "pass")  # out of A: P2 buys A at 50
    assert g.owners()["A"] == 2
    assert g.step.auctioning.sym == "C" and g.active() == [3]  # P3's 30 is the lower bid
    g.do(3, "pass")
    assert g.owners()["C"] == 1 and g.p(1).cash == 160
