"""The sealed-bid auction with tie auctions (18xx.games' blind auction).

Rule (as the step implements it):

* Each player once, in seat order, submits a sealed list of bids, one per item in the fixed
  item order (``blind_bid`` {bids: [int, ...]}).  Each bid is 0 (no bid) or at least the
  opening bid; the total may not exceed the player's cash.
* When all have bid: items nobody bid on stay with the bank; an item with a single highest bid
  is sold to that bidder at his bid (money to the bank); on an item with tied highest bids the
  lower bids are dropped.
* The new player order is set at once: descending total of a player's bids; equal totals by
  comparing the bid lists item by item (the higher bid first); then the *later* original seat
  first.  The first player has priority.
* The tied items are then auctioned one after another, in item order, among their tied
  bidders only: the bidder with the lowest standing bid acts (equal bids: the one earlier in
  the new order), raising by at least the increment or passing (out of this item).  His
  maximum is his cash less his other still pending bids plus his current bid on this item.
  The last bidder left buys the item at his bid.  With the step option ``advance_raises``
  the bidder to act may instead raise his standing bid on a later tied item
  (:meth:`SealedBids.advance_raise`).

No recorded game in ../shared uses this auction; the action type ``blind_bid`` and its field
``bids`` (a list of whole numbers, one per item) are those of 18xx.games'
lib/engine/action/blind_bid.rb, as its title-specific blind auction step reads them.  The
tie auctions use ``bid`` {company, price} and ``pass``.
"""

from __future__ import annotations

from collections.abc import Sequence

from stellwerk.core import moves
from stellwerk.core.entities import Company, Entity, Player
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, act
from stellwerk.core.flow.item_auction import ItemAuction


class SealedBids(ItemAuction):
    """Sealed bid lists from every player, then auctions of the tied items (module
    docstring).  Options and hooks: those of ``ItemAuction``; the default
    ``new_player_order`` is the descending-bids order described there."""

    description = "Bid on Companies"
    default_rule = "common rules: sealed bids"

    def setup(self) -> None:
        super().setup()
        self.sealed: dict[Player, list[int]] = {}
        """Each player's submitted list, in submission order."""

    # -- who --------------------------------------------------------------------------------
    def sealing(self) -> bool:
        """Still collecting the sealed lists."""
        return len(self.sealed) < len(self.round.entities)

    def active_entities(self) -> Sequence[Entity]:
        bidder = self.next_bidder()
        if bidder is not None:
            return [bidder]
        return super().active_entities()

    def actions(self, entity: Entity) -> list[str]:
        if self.done or not self.items:
            return []
        if self.sealing():
            current = self.round.entities[self.round.entity_index]
            return ["blind_bid"] if entity is current else []
        return ["bid", "pass"] if entity is self.next_bidder() else []

    # -- sealed lists -----------------------------------------------------------------------
    def bids_problem(self, entity: Player, bids: object) -> str | None:
        """Why ``bids`` is not a legal sealed list for ``entity`` (None if it is): one whole
        number per item, each 0 or at least the opening bid, in total at most his cash."""
        if not isinstance(bids, (list, tuple)) or len(bids) != len(self.all_items):
            return f"a sealed list has one bid for each of the {len(self.all_items)} items"
        for item, bid in zip(self.all_items, bids, strict=True):
            if isinstance(bid, bool) or not isinstance(bid, int) or bid < 0:
                return f"the bid for {item.sym} must be a whole number, 0 or more"
            if 0 < bid < self.opening_bid(item):
                return f"a bid for {item.sym} is 0 or at least {self.opening_bid(item)}, not {bid}"
        if sum(bids) > entity.cash:
            return f"the bids total {sum(bids)}, more than {entity.name}'s cash {entity.cash}"
        return None

    def process_blind_bid(self, action: moves.BlindBid, entity: Player) -> None:
        bids = action.bids
        problem = self.bids_problem(entity, bids)
        if problem is not None:
            raise IllegalAction(problem, self.rule)
        entity.passed = False
        self.sealed[entity] = [int(b) for b in bids]
        self.round.next_entity_index()
        if not self.sealing():
            self.open_bids()

    def open_bids(self) -> None:
        """All lists are in: unbid items stay with the bank, single highest bids buy, tied
        highest bids stay (lower ones dropped); the new order; the first tie auction."""
        for index, item in enumerate(self.all_items):
            offers = {p: bids[index] for p, bids in self.sealed.items() if bids[index] > 0}
            if not offers:
                self.items.remove(item)
                continue
            high = max(offers.values())
            top = [p for p, price in offers.items() if price == high]
            if len(top) == 1:
                self.sell(top[0], item, high)
            else:
                self.bids[item] = {p: high for p in top}
        order = self.new_player_order()
        if order is not None:
            self.apply_player_order(order)
        self.next_tie()

    def next_tie(self) -> None:
        """Auction the next tied item in item order, or end the step."""
        self.auctioning = self.items[0] if self.items else None
        if self.auctioning is None:
            self.finish()

    def finish(self) -> None:
        """The new order was set when the lists were opened; only the unsold hook is left."""
        if self.done:
            return
        self.done = True
        self.auctioning = None
        self.unsold([item for item in self.all_items if item.owner is None])

    # -- tie auctions -----------------------------------------------------------------------
    def process_bid(self, action: moves.Bid, entity: Player) -> None:
        item = self.item_of(action)
        if item is not self.auctioning and not self.advance_raise(entity, item):
            what = self.auctioning.sym if self.auctioning is not None else "nothing"
            raise IllegalAction(f"{what} is up for auction, not {item.sym}", self.rule)
        price = self.check_bid(entity, item, action.price)
        entity.passed = False
        self.bids[item][entity] = price

    def advance_raise(self, entity: Player, item: Company) -> bool:
        """Option ``advance_raises`` (default off): the bidder to act in the running tie
        auction may instead raise his standing bid on a *later* tied item (the same minimum
        and maximum as there); the running auction and its turn stay as they were.
        18xx.games' blind auction takes such a bid."""
        return (
            bool(self.opts.get("advance_raises", False))
            and self.auctioning is not None
            and entity is self.next_bidder()
            and item in self.bids
            and entity in self.bids[item]
        )

    def process_pass(self, action: moves.Pass, entity: Entity) -> None:
        item = self.auctioning
        if item is None:
            raise IllegalAction("no auction is running", self.rule)
        standing = self.bids[item]
        if isinstance(entity, Player):
            standing.pop(entity, None)
        if len(standing) == 1:
            ((winner, price),) = standing.items()
            assert price is not None
            self.sell(winner, item, price)
            self.next_tie()

    def choices(self, entity: Entity) -> list[Action]:
        """Sealing: no bids at all, or the opening bid on one item (any list within the rules
        is legal, see ``bids_problem``); a tie auction: pass, or raise by the increment."""
        kinds = self.actions(entity)
        if not kinds or not isinstance(entity, Player):
            return []
        if "blind_bid" not in kinds:
            return self.auction_choices(entity)
        zero = [0] * len(self.all_items)
        out = [act(entity, "blind_bid", bids=zero)]
        for index, item in enumerate(self.all_items):
            if self.opening_bid(item) <= entity.cash:
                bids = list(zero)
                bids[index] = self.opening_bid(item)
                out.append(act(entity, "blind_bid", bids=bids))
        return out

    # -- the new order ----------------------------------------------------------------------
    def new_player_order(self) -> list[Player] | None:
        """Descending total of the sealed bids; equal totals by the bid lists compared item
        by item (higher first); then the later original seat first."""
        old = list(self.game.players)

        def key(player: Player) -> tuple[int, list[int], int]:
            bids = self.sealed.get(player, [])
            return (sum(bids), bids, old.index(player))

        return sorted(old, key=key, reverse=True)
