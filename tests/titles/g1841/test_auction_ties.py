"""Ties in the concession auction (rules/1841.md 2.1; seed 000 item 1.1, seed 003 H1): the
options ``v1_tie_farthest_from_priority`` and ``priority_tie_by_lot`` each change who takes
a tied concession or who gets priority deal, shown against the 18xx.games default."""

from __future__ import annotations

from typing import Any

import pytest

from stellwerk.core.entities import Player
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import act
from stellwerk.titles.g1841.game import Game1841

from .setup_helpers import new_game

# Concession order: Bayard, SFLP, SFTC, SFMA, SFTN, SSFL, SFTG, IRSFF.
TIED_SFTC = {
    "p1": [0, 0, 50, 0, 0, 0, 0, 0],  # total 50
    "p2": [100, 0, 0, 0, 0, 0, 0, 0],  # total 100: first in the new order
    "p3": [0, 20, 50, 0, 0, 0, 0, 0],  # total 70
}
"""p1 (priority card, first seat) and p3 (farthest from it) tie for SFTC at L.50; by the
bid totals the new order is p2, p3, p1, so p1 sits last in it."""


def sealed(options: list[str]) -> tuple[Game1841, Any]:
    game = new_game(3, ["version_1", *options])
    for player in list(game.players):
        game.process_action(act(player, "blind_bid", bids=TIED_SFTC[player.name]))
    step = game.round.steps[0]
    assert step.auctioning is not None and step.auctioning.sym == "SFTC"
    assert [p.name for p in game.players] == ["p2", "p3", "p1"]
    return game, step


def by_name(game: Game1841, name: str) -> Player:
    return next(p for p in game.players if p.name == name)


def owner_of(game: Game1841, sym: str) -> str | None:
    company = next(c for c in game.companies if c.sym == sym)
    return company.owner.name if isinstance(company.owner, Player) else None


def test_seed_000_item_1_1_default_18xx_games_ties_act_in_the_new_order() -> None:
    """rules/1841.md 2.1.2 (18xx.games): the tie auction starts with the tied bidder first
    in the new order (p3); if he passes, p1 takes SFTC at L.50."""
    game, step = sealed([])
    assert step.next_bidder().name == "p3"
    game.process_action(act(by_name(game, "p3"), "pass"))
    assert owner_of(game, "SFTC") == "p1" and by_name(game, "p1").cash == 1120 - 50


def test_seed_000_item_1_1_farthest_from_priority_must_take_the_tie() -> None:
    """seed 000 item 1.1 (``v1_tie_farthest_from_priority``): the tied player seated
    farthest from the priority card (p3) must take SFTC at his bid unless a tied player
    before him bids: p1 is asked first; when he passes, p3 pays L.50."""
    game, step = sealed(["v1_tie_farthest_from_priority"])
    assert step.next_bidder().name == "p1"
    standing = dict(step.bids[step.auctioning])
    with pytest.raises(IllegalAction, match="not allowed now"):
        game.process_action(act(by_name(game, "p3"), "pass"))
    assert step.auctioning.sym == "SFTC" and step.bids[step.auctioning] == standing
    game.process_action(act(by_name(game, "p1"), "pass"))
    assert owner_of(game, "SFTC") == "p3" and by_name(game, "p3").cash == 1120 - 50 - 20


def test_seed_000_item_1_1_a_player_before_him_bids_at_least_5_more() -> None:
    """seed 000 item 1.1: p1, before p3, bids -- at least L.5 more (L.54 is refused, nothing
    changes) -- and then p3 may pass: p1 takes SFTC at L.55."""
    game, step = sealed(["v1_tie_farthest_from_priority"])
    p1 = by_name(game, "p1")
    with pytest.raises(IllegalAction):
        game.process_action(act(p1, "bid", company="SFTC", price=54))
    assert step.bids[step.auctioning] == {p1: 50, by_name(game, "p3"): 50}
    game.process_action(act(p1, "bid", company="SFTC", price=55))
    assert step.next_bidder().name == "p3"
    game.process_action(act(by_name(game, "p3"), "pass"))
    assert owner_of(game, "SFTC") == "p1" and p1.cash == 1120 - 55


def open_auction(options: list[str], seed: int, buyer: str | None = None) -> list[str]:
    """The player order after an open auction in which ``buyer`` (if any) bought SFTC at
    L.20 and everyone else passed."""
    game = Game1841([(i, f"p{i}") for i in range(1, 5)], options, seed)
    if buyer is not None:
        player = by_name(game, buyer)
        while game.round.active_entities()[0] is not player:
            game.process_action(act(game.round.active_entities()[0], "pass"))
        game.process_action(act(player, "bid", company="SFTC", price=20))
        while any(c.sym == "SFTC" and c.owner is None for c in game.companies):
            game.process_action(act(game.round.active_entities()[0], "pass"))
    while game.round.name == "Round::Auction":
        game.process_action(act(game.round.active_entities()[0], "pass"))
    return [p.name for p in game.players]


def test_seed_003_h1_default_order_ties_by_concession_then_seat() -> None:
    """rules/1841.md 2.1.1 (18xx.games): least cash first; equal cash by the lowest
    concession owned, then the old seat -- so with nothing bought the seats stay."""
    for seed in range(1, 6):
        assert open_auction([], seed) == ["p1", "p2", "p3", "p4"]
    assert open_auction([], 1, buyer="p3") == ["p3", "p1", "p2", "p4"]


def test_seed_003_h1_priority_ties_between_players_by_lot() -> None:
    """seed 003 H1 (``priority_tie_by_lot``): priority deal to the least cash (the highest
    total bid), players equal in cash ordered by lot: some seed reorders the four, the same
    seed always the same way, and the buyer of SFTC still comes first."""
    orders = {seed: open_auction(["priority_tie_by_lot"], seed) for seed in range(1, 6)}
    assert any(order != ["p1", "p2", "p3", "p4"] for order in orders.values())
    assert all(sorted(order) == ["p1", "p2", "p3", "p4"] for order in orders.values())
    assert open_auction(["priority_tie_by_lot"], 3) == orders[3]
    assert len({tuple(order) for order in orders.values()}) > 1
    for seed in range(1, 4):
        assert open_auction(["priority_tie_by_lot"], seed, buyer="p3")[0] == "p3"
