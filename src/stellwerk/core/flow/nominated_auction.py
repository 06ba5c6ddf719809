"""The open English auction with nominations (18xx.games' concession auction).

Rule (as the step implements it; a title's rulebook may cite it as its concession auction):

* Players take nomination turns in seat order.  The player in turn either **nominates** an
  item by bidding at least the opening bid on it (``bid``), or **passes** (``pass``).
* On a nomination every other player whose cash is *more* than the opening bid joins the
  auction of that item; the others never join.  Inside the auction the bidder with the lowest
  standing bid acts; those who joined and have not bid yet come first, in seat order starting
  left of the nominator.  He raises (at least the highest bid plus the increment, at most his
  cash) or passes, which puts him out of this auction for good.
* When one bidder is left he buys the item at his bid (the money goes to the bank).  The
  nomination turn then passes to the player after the *nominator*.
* A pass on a nomination turn marks the player passed; any bid (nomination or raise) takes
  the mark off.  The auction is over when every player is marked passed or every item is
  sold; unsold items stay with the bank.  Then the title's new player order applies.

A nominator nobody can join buys the item at once (``alone_buys``, default True).  18xx.games
(lib/engine/step/concession_auction.rb) never resolves such an auction: the nominator stays to
act and can only raise his own bid or pass, which withdraws the nomination (the item stays
for sale and it is his nomination turn again).  A title that must replay such files sets the
option ``alone_buys`` to False to do the same.

Actions: ``bid`` {company, price} and ``pass``, as 18xx.games writes them.
"""

from __future__ import annotations

from collections.abc import Sequence

from stellwerk.core import moves
from stellwerk.core.entities import Company, Entity, Player
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, act
from stellwerk.core.flow.item_auction import ItemAuction


class NominatedAuction(ItemAuction):
    """Nominate an item by bidding on it, or pass; the nominated item is auctioned among
    the players who can afford more than the opening bid (module docstring).

    Options besides ``ItemAuction``'s: ``alone_buys`` (bool, default True).  Hooks: those of
    ``ItemAuction``; the default ``new_player_order`` is least cash first (see there).
    """

    description = "Bid on Companies"
    default_rule = "common rules: nominated English auction"

    def setup(self) -> None:
        super().setup()
        self.nominator: Player | None = None
        self.rank: dict[Player, int] = {}

    @property
    def alone_buys(self) -> bool:
        return bool(self.opts.get("alone_buys", True))

    # -- who --------------------------------------------------------------------------------
    def over(self) -> bool:
        """All items sold, or every player marked passed."""
        return not self.items or all(p.passed for p in self.round.entities)

    def active_entities(self) -> Sequence[Entity]:
        bidder = self.next_bidder()
        if bidder is not None:
            return [bidder]
        return super().active_entities()

    def actions(self, entity: Entity) -> list[str]:
        if self.done or self.over():
            return []
        if self.auctioning is not None:
            return ["bid", "pass"] if entity is self.next_bidder() else []
        return ["bid", "pass"] if entity is super().current_entity() else []

    def seat_rank(self, player: Player) -> int:
        """Among bidders who have not bid yet: seat order starting left of the nominator."""
        return self.rank.get(player, 0)

    # -- prices -----------------------------------------------------------------------------
    def max_bid(self, player: Player, item: Company) -> int:
        """One auction at a time: a bidder may bid up to his cash."""
        return player.cash

    def choices(self, entity: Entity) -> list[Action]:
        """On a nomination turn: pass, or nominate any unsold item at the opening bid; in an
        auction: pass, or raise by the increment."""
        if not isinstance(entity, Player) or not self.actions(entity):
            return []
        if self.auctioning is not None:
            return self.auction_choices(entity)
        out = [act(entity, "pass")]
        for item in self.items:
            price = self.min_bid(item)
            if price <= self.max_bid(entity, item):
                out.append(act(entity, "bid", company=item.sym, price=price))
        return out

    # -- processing -------------------------------------------------------------------------
    def process_bid(self, action: moves.Bid, entity: Player) -> None:
        item = self.item_of(action)
        if self.auctioning is not None:
            if item is not self.auctioning:
                raise IllegalAction(
                    f"{self.auctioning.sym} is up for auction, not {item.sym}", self.rule
                )
            price = self.check_bid(entity, item, action.price)
            entity.passed = False
            self.bids[item][entity] = price
            return
        if item not in self.items:
            raise IllegalAction(f"{item.sym} is not for sale", self.rule)
        price = self.check_bid(entity, item, action.price)
        entity.passed = False
        self.nominate(entity, item, price)

    def nominate(self, nominator: Player, item: Company, price: int) -> None:
        """Open the auction of ``item``: the others who can pay more than ``price`` join, in
        seat order starting left of the nominator."""
        seats = self.round.entities
        start = seats.index(nominator)
        rotated = seats[start:] + seats[:start]
        standing: dict[Player, int | None] = {nominator: price}
        self.rank = {nominator: 0}
        for offset, player in enumerate(rotated[1:], start=1):
            if player.cash > price:
                standing[player] = None
                self.rank[player] = offset
        self.bids[item] = standing
        self.auctioning = item
        self.nominator = nominator
        if len(standing) == 1 and self.alone_buys:
            self.resolve()

    def process_pass(self, action: moves.Pass, entity: Entity) -> None:
        if not isinstance(entity, Player):  # ``actions`` offers the pass to players only
            raise TypeError(f"{entity.name} is not a bidder")
        if self.auctioning is not None:
            self.bids[self.auctioning].pop(entity, None)
            self.resolve()
            return
        entity.passed = True
        self.round.next_entity_index()
        if self.over():
            self.finish()

    def resolve(self) -> None:
        """One bidder left: he buys at his bid and the nomination turn passes to the player
        after the nominator; nobody left (the nominator withdrew, ``alone_buys`` False): the
        item stays for sale and the nominator is in turn again."""
        item = self.auctioning
        assert item is not None
        standing = self.bids[item]
        if len(standing) > 1:
            return
        if not standing:
            self.bids.pop(item)
            self.auctioning = None
            return
        ((winner, price),) = standing.items()
        assert price is not None
        self.sell(winner, item, price)
        self.round.next_entity_index()
        if self.over():
            self.finish()

    # -- the new order ----------------------------------------------------------------------
    def new_player_order(self) -> list[Player] | None:
        """Least cash first; equal cash: the owner of the lowest-numbered item first (a player
        owning none before those who own one), then the old seat order."""
        old = list(self.game.players)

        def lowest_owned(player: Player) -> int:
            owned = [i for i, item in enumerate(self.all_items) if item.owner is player]
            return min(owned) if owned else -1

        return sorted(old, key=lambda p: (p.cash, lowest_owned(p), old.index(p)))
