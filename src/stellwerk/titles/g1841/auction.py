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
he joins its tie auction with it (:meth:`SealedBids1841.advance_raise`).

Two seed rules change how ties are broken (each a setting, off by default):

* ``sealed_bid_ties == "farthest_from_priority"`` (seed 000 item 1.1): on equal highest
  sealed bids the tied player seated farthest from the priority card must take the
  concession at his bid, unless a tied player seated before him bids (at least L.5 more).
  The tie auction then runs with the tied bidders acting, among equal bids, in the seating
  of the bidding -- from the priority card (the first seat) on, the farthest last -- so he
  takes it when all before him pass.  18xx.games breaks equal bids by the *new* player order
  (set by the bid totals when the lists open), so there another tied player may be last.
* ``auction_order_ties == "lot"`` (seed 003 H1): in the player order after the auction,
  players equal on its first key (least cash after the open auction, the bid total after
  the sealed one) are ordered by lot (the game's seeded random numbers, one draw per player
  in seat order), not by concessions, bid lists and seats as in 18xx.games."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stellwerk.core.entities import Company, Player
from stellwerk.core.flow.base import Step, StepOption
from stellwerk.core.flow.nominated_auction import NominatedAuction
from stellwerk.core.flow.sealed_bids import SealedBids
from stellwerk.titles.g1841.settings import Settings1841

if TYPE_CHECKING:
    from stellwerk.core.game import Game
    from stellwerk.titles.g1841.ports import Rules

    class AuctionGame(Game, Rules):
        """The game with the rules chosen, as the auction's steps see it (the core gives a
        step a :class:`~stellwerk.core.game.Game`; 1841's game has the rules): only a name
        for type checking."""


OPENING_BID = 20
"""The lowest bid on a concession (rules/1841.md 2.1.1, 2.1.2)."""

INCREMENT = 5
"""The least raise (rules/1841.md 2.1.1, 2.1.2)."""


def by_lot(game: Game, players: list[Player]) -> dict[Player, int]:
    """One draw of the game's random numbers per player, in seat order (seed 003 H1)."""
    return {player: game.rng.draw() for player in players}


class NominatedAuction1841(NominatedAuction):
    """The open auction (rules/1841.md 2.1.1); ties of the new order by lot with seed 003
    H1's setting (module docstring)."""

    game: AuctionGame

    def new_player_order(self) -> list[Player] | None:
        if self.game.settings.auction_order_ties != "lot":
            return super().new_player_order()
        old = list(self.game.players)
        lot = by_lot(self.game, old)
        return sorted(old, key=lambda p: (p.cash, lot[p]))


class SealedBids1841(SealedBids):
    """The first edition's sealed bids (rules/1841.md 2.1.2); seed 000 item 1.1's tie rule
    and seed 003 H1's order by lot with their settings (module docstring); the bidder to act
    may join a later tie auction (:meth:`advance_raise`)."""

    game: AuctionGame

    def setup(self) -> None:
        super().setup()
        self.seating: list[Player] = list(self.game.players)
        """The seats while the lists are written, the priority card's holder first."""

    def seat_rank(self, player: Player) -> int:
        if self.game.settings.sealed_bid_ties == "farthest_from_priority":
            return self.seating.index(player)
        return super().seat_rank(player)

    def new_player_order(self) -> list[Player] | None:
        if self.game.settings.auction_order_ties != "lot":
            return super().new_player_order()
        old = list(self.game.players)
        lot = by_lot(self.game, old)
        return sorted(old, key=lambda p: (-sum(self.sealed.get(p, [])), lot[p]))

    def advance_raise(self, entity: Player, item: Company) -> bool:
        """As 18xx.games runs the tie auctions: the bidder to act may bid on any later tied
        concession, joining its tie auction if he was not among its tied bidders (its
        waterfall auction adds a bid on any pending company, from the minimum there, within
        his maximum), while the running auction and its turn stay as they were."""
        return (
            bool(self.opts.get("advance_raises", False))
            and self.auctioning is not None
            and item is not self.auctioning
            and entity is self.next_bidder()
            and item in self.bids
        )


def auction_step(settings: Settings1841) -> tuple[type[Step], dict[str, StepOption]]:
    """The step of the concession auction in play, with 1841's numbers."""
    if settings.auction == "sealed":
        opts: dict[str, StepOption] = {
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
    return NominatedAuction1841, opts
