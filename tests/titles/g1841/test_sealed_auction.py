"""The first edition's tie auctions as 18xx.games runs them (rules/1841.md 2.1.2)."""

from __future__ import annotations

from stellwerk.core.flow.base import act
from stellwerk.titles.g1841.auction import SealedBids1841
from stellwerk.titles.g1841.game import Game1841


def test_2_1_2_the_bidder_to_act_may_join_a_later_tie_auction() -> None:
    """rules/1841.md 2.1.2 auctions the ties among the tied bidders; 18xx.games takes a bid
    from the bidder to act in the running tie auction on any later tied concession, also one
    he did not tie on (a random game of its engine, 8 players seed 113, does it): he joins
    that auction with his bid; the running auction and its turn stay."""
    game = Game1841([(i, f"p{i}") for i in range(1, 5)], ["version_1"], 1)
    step = game.round.active_step()
    assert isinstance(step, SealedBids1841)
    lists = {1: [0, 50, 50], 2: [0, 50, 0], 3: [0, 0, 50], 4: [0, 0, 0]}
    for pid, bids in lists.items():
        game.process_action(act(game.player_by_id(pid), "blind_bid", bids=bids + [0] * 5))
    p1, p2, p3 = (game.player_by_id(i) for i in (1, 2, 3))
    sflp, sftc = game.company("SFLP"), game.company("SFTC")
    assert step.auctioning is sflp and step.next_bidder() is p1
    game.process_action(act(p1, "bid", company="SFLP", price=55))
    assert step.next_bidder() is p2 and p2 not in step.bids[sftc]
    game.process_action(act(p2, "bid", company="SFTC", price=55))
    assert step.auctioning is sflp and step.next_bidder() is p2
    assert step.bids[sftc] == {p1: 50, p3: 50, p2: 55}
    game.process_action(act(p2, "pass"))
    assert sflp.owner is p1 and step.auctioning is sftc
    assert step.next_bidder() in (p1, p3)
