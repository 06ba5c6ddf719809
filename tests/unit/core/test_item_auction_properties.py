"""Property: random legal play of either item auction, each action first passed by the live
gate, conserves money (bank + players), never drives a player below zero, gives every item
at most one owner (who lists it exactly once), always has someone to act while the auction
runs, and ends."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from stellwerk.core.flow.nominated_auction import NominatedAuction
from stellwerk.core.flow.sealed_bids import SealedBids
from stellwerk.core.live import check_live

MAX_ACTIONS = 2_000


def check_invariants(g: Any, money: int) -> None:
    assert g.money() == money
    assert all(p.cash >= 0 for p in g.all_players)
    for item in g.companies:
        holders = [p for p in g.all_players if item in p.companies]
        if item.owner is None:
            assert holders == []
        else:
            assert holders == [item.owner]
            assert item.owner.companies.count(item) == 1


def sealed_list(data: st.DataObject, g: Any, player: Any, flat: bool) -> list[int]:
    """A random legal sealed list: each bid 0 or from the opening bid up to the cash left,
    mostly one of a few round amounts so that ties are common (``flat``: only the opening
    bid, so that nearly every bid item is tied)."""
    left = player.cash
    out = []
    for item in g.step.all_items:
        low = g.step.opening_bid(item)
        bid = 0
        if left >= low and data.draw(st.integers(0, 2)):
            common = [b for b in (low, low + 5, low + 10) if b <= left and not (flat and b > low)]
            if flat or data.draw(st.integers(0, 4)):
                bid = data.draw(st.sampled_from(common))
            else:
                bid = data.draw(st.integers(low, left))
        left -= bid
        out.append(bid)
    return out


def play(data: st.DataObject, g: Any, flat: bool = False) -> None:
    money = g.money()
    for _ in range(MAX_ACTIONS):
        if not g.in_auction():
            return
        active = g.round.active_entities()
        assert len(active) == 1
        player = active[0]
        listed = g.step.choices(player)
        assert listed, "the acting player has nothing to do"
        action = dict(data.draw(st.sampled_from(listed)))
        if action["type"] == "bid":
            low, high = g.step.price_space(player, action)
            assert low <= high
            # mostly small raises, sometimes anything up to the maximum
            top = high if data.draw(st.integers(0, 9)) == 0 else min(high, low + 15)
            action["price"] = data.draw(st.integers(low, top))
        elif action["type"] == "blind_bid":
            action["bids"] = sealed_list(data, g, player, flat)
        check_live(g, action)
        event(f"{type(g.step).__name__}: {action['type']}")
        g.process_action(action)
        check_invariants(g, money)
    raise AssertionError("the auction did not end")


CASH = st.lists(
    st.sampled_from([0, 20, 24, 25, 100, 300]) | st.integers(0, 300), min_size=3, max_size=4
)
ITEMS = st.integers(1, 5)


SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@SETTINGS
@given(cash=CASH, n_items=ITEMS, alone_buys=st.booleans(), data=st.data())
def test_nominated_auction_random_play(
    auction_game: Any, cash: list[int], n_items: int, alone_buys: bool, data: st.DataObject
) -> None:
    items = [(f"I{i}", 50) for i in range(n_items)]
    g = auction_game(
        cash, items, NominatedAuction, opening_bid=20, increment=5, alone_buys=alone_buys
    )
    play(data, g)
    sold = sum(1 for c in g.companies if c.owner is not None)
    assert g.bank.cash - 10_000 >= 20 * sold
    cash_in_order = [g.p(pid).cash for pid in g.order()]
    assert cash_in_order == sorted(cash_in_order)  # least cash first


@SETTINGS
@given(cash=CASH, n_items=ITEMS, flat=st.booleans(), data=st.data())
def test_sealed_bids_random_play(
    auction_game: Any, cash: list[int], n_items: int, flat: bool, data: st.DataObject
) -> None:
    items = [(f"I{i}", 50) for i in range(n_items)]
    g = auction_game(cash, items, SealedBids, opening_bid=20, increment=5)
    play(data, g, flat)
    assert sorted(g.order()) == sorted(p.id for p in g.all_players)
