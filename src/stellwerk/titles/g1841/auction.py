"""1841's concession auction (rules/1841.md 2.1): the second edition's open, nominated
English auctions (2.1.1) or the first edition's sealed bids with tie auctions (2.1.2), on
the concessions in their fixed order, opening bid L.20, raises of at least L.5.

Both are the core's generic auctions; their default new player orders are 1841's (2.1.1:
least cash first, then the lowest concession owned, then the old seat; 2.1.2: descending
bid totals, then the bid lists, then the later seat).  18xx.games never resolves a nominated
auction nobody else can join: the nominator stays to act (``alone_buys`` off).  In the
sealed auction 18xx.games takes a raise on a later tied concession from the bidder to act
in the running tie auction (``advance_raises`` on): rules/1841.md 2.1.2 auctions the ties
one after another and does not forbid raising early a bid one stands by anyway.  18xx.games
takes such a bid from that bidder on any later tied concession, also one he did not tie on:
he joins its tie auction with it (:class:`SealedBids1841`)."""

from __future__ import annotations

from typing import Any

from stellwerk.core.flow.nominated_auction import NominatedAuction
from stellwerk.core.flow.sealed_bids import SealedBids
from stellwerk.titles.g1841.settings import Settings1841

OPENING_BID = 20
"""The lowest bid on a concession (rules/1841.md 2.1.1, 2.1.2)."""

INCREMENT = 5
"""The least raise (rules/1841.md 2.1.1, 2.1.2)."""


class SealedBids1841(SealedBids):
    """The first edition's sealed bids (rules/1841.md 2.1.2) as 18xx.games runs the tie
    auctions: the bidder to act may bid on any later tied concession, joining its tie auction
    if he was not among its tied bidders (its waterfall auction adds a bid on any pending
    company, from the minimum there, within his maximum), while the running auction and its
    turn stay as they were."""

    def advance_raise(self, entity: Any, item: Any) -> bool:
        return (
            bool(self.opts.get("advance_raises", False))
            and self.auctioning is not None
            and item is not self.auctioning
            and entity is self.next_bidder()
            and item in self.bids
        )


def auction_step(settings: Settings1841) -> tuple[type[Any], dict[str, Any]]:
    """The step of the concession auction in play, with 1841's numbers."""
    if settings.auction == "sealed":
        opts = {
            "opening_bid": OPENING_BID,
            "increment": INCREMENT,
            "advance_raises": True,
            "rule": "rules/1841.md 2.1.2",
        }
        return SealedBids1841, opts
    opts = {
        "opening_bid": OPENING_BID,
        "increment": INCREMENT,
        "alone_buys": False,
        "rule": "rules/1841.md 2.1.1",
    }
    return NominatedAuction, opts
