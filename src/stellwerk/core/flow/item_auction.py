"""What the nominated auction and the sealed-bid auction share: the items for sale, the
standing bids of an auction of one item, the title's numbers (opening bid, increment) and
what a win does, and the new player order at the end.

Titles set the numbers as step options (``(NominatedAuction, {"opening_bid": 20})`` in a
round's step list) and override the named hook methods for anything else; the core names no
title.  Items are companies (18xx.games models concessions and privates as companies); an
unsold item simply keeps no owner (it stays with the bank).
"""

from __future__ import annotations

from stellwerk.core import moves
from stellwerk.core.entities import Company, Entity, Player, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.events import CompanyBought, ref
from stellwerk.core.flow.base import Action, PlayerStep, Round, act


class ItemAuction(PlayerStep):
    """Base of the item auctions: bookkeeping of one auction at a time (``auctioning``) whose
    bidders, their standing bids and the order among equal bids are kept in ``bids``.

    Options (all optional): ``opening_bid`` (the lowest first bid on an item; default the
    item's own minimum bid), ``increment`` (the least raise over the highest bid; default 5),
    ``rule`` (the rule an IllegalAction names; default the class's ``default_rule``).
    """

    round: Round[Player]
    """An auction round: its entities are the players."""

    default_rule = "common rules §6.7 (private auction)"
    default_increment = 5

    def setup(self) -> None:
        self.items: list[Company] = list(self.auction_items())
        self.all_items: list[Company] = list(self.items)
        """The items in their fixed order (the item numbers of the new player order)."""
        self.bids: dict[Company, dict[Player, int | None]] = {}
        """Standing bids per item; None: joined the auction but not yet bid."""
        self.auctioning: Company | None = None
        self.done = False

    # -- title hooks ------------------------------------------------------------------------
    @property
    def rule(self) -> str:
        return str(self.opts.get("rule", self.default_rule))

    def auction_items(self) -> list[Company]:
        """Hook: the items for sale in their fixed order (default: the game's companies not
        yet owned, in the game's order)."""
        return [c for c in self.game.companies if c.owner is None and not c.closed]

    def opening_bid(self, item: Company) -> int:
        """Hook: the lowest bid that may open the bidding on ``item``."""
        return int(self.opts.get("opening_bid", item.min_bid))

    def bid_increment(self) -> int:
        """Hook: the least raise over the highest standing bid."""
        return int(self.opts.get("increment", self.default_increment))

    def award(self, player: Player, item: Company, price: int) -> None:
        """Hook: ``player`` wins ``item`` at ``price``: he becomes its owner and pays the
        bank (``transfer``); then the game's ``after_buy_company`` hook runs."""
        if player.cash < price:
            reason = f"{player.name} has {player.cash} and cannot pay {price}"
            raise IllegalAction(reason, self.rule)
        item.owner = player
        player.companies.append(item)
        if price > 0:
            transfer(player, self.game.bank, price, self.rule)
        self.game.journal.append(CompanyBought(ref(player), item.sym, price))
        self.game.after_buy_company(player, item, price)

    def new_player_order(self) -> list[Player] | None:
        """Hook: the seat order after the auction (first = priority deal), or None to keep
        it."""
        return None

    def unsold(self, items: list[Company]) -> None:
        """Hook: the items nobody bought, once the auction is over (default: they keep no
        owner, i.e. stay with the bank)."""

    # -- bookkeeping ------------------------------------------------------------------------
    def seat_rank(self, player: Player) -> int:
        """Order among equal standing bids: the current seat order."""
        return self.game.players.index(player)

    def next_bidder(self) -> Player | None:
        """In a running auction: the bidder with the lowest standing bid (one who joined but
        has not bid yet counts as lowest), ties by ``seat_rank``."""
        if self.auctioning is None:
            return None
        standing = self.bids.get(self.auctioning, {})
        if not standing:
            return None

        def key(player: Player) -> tuple[bool, int, int]:
            price = standing[player]
            return (price is not None, price or 0, self.seat_rank(player))

        return min(standing, key=key)

    def high_bid(self, item: Company) -> int | None:
        prices = [p for p in self.bids.get(item, {}).values() if p is not None]
        return max(prices) if prices else None

    def min_bid(self, item: Company) -> int:
        """The least bid on ``item`` now: the opening bid, or the highest bid plus the
        increment."""
        high = self.high_bid(item)
        return self.opening_bid(item) if high is None else high + self.bid_increment()

    def current_bid(self, player: Player, item: Company) -> int:
        return self.bids.get(item, {}).get(player) or 0

    def committed(self, player: Player) -> int:
        """Cash ``player`` has bid on all items still pending."""
        return sum(bids.get(player) or 0 for bids in self.bids.values())

    def max_bid(self, player: Player, item: Company) -> int:
        """The most ``player`` may bid on ``item``: his cash less his other pending bids."""
        return player.cash - self.committed(player) + self.current_bid(player, item)

    def check_bid(self, player: Player, item: Company, price: object) -> int:
        """The bid's price, or IllegalAction: at least the minimum, at most the maximum."""
        if isinstance(price, bool) or not isinstance(price, int):
            raise IllegalAction("a bid must be a whole number", self.rule)
        low, high = self.min_bid(item), self.max_bid(player, item)
        if price < low:
            raise IllegalAction(f"the minimum bid for {item.sym} is {low}, not {price}", self.rule)
        if price > high:
            raise IllegalAction(
                f"{player.name} can bid at most {high} on {item.sym}, not {price}", self.rule
            )
        return price

    def item_of(self, action: moves.Bid) -> Company:
        sym = action.company
        if not isinstance(sym, str):
            raise IllegalAction("a bid names the company bid on", self.rule)
        return self.game.company(sym)

    def sell(self, player: Player, item: Company, price: int) -> None:
        """Close the auction of ``item``: ``player`` wins it at ``price``."""
        self.bids.pop(item, None)
        if item in self.items:
            self.items.remove(item)
        if self.auctioning is item:
            self.auctioning = None
        self.award(player, item, price)

    def apply_player_order(self, order: list[Player]) -> None:
        """Seat the players in ``order``; the round's turn index points at the first one
        (so the generic ``Game.reorder_players`` after the round keeps this order)."""
        self.game.players = list(order)
        self.round.entities = list(order)
        self.round.entity_index = 0

    def finish(self) -> None:
        """Once, when the auction is over: the new player order, then the unsold items."""
        if self.done:
            return
        self.done = True
        self.auctioning = None
        order = self.new_player_order()
        if order is not None:
            self.apply_player_order(order)
        self.unsold(list(self.items))

    # -- menus ------------------------------------------------------------------------------
    def auction_choices(self, entity: Player) -> list[Action]:
        """In a running auction: pass, or raise by the least increment if affordable."""
        out = [act(entity, "pass")]
        item = self.auctioning
        if item is not None and self.min_bid(item) <= self.max_bid(entity, item):
            out.append(act(entity, "bid", company=item.sym, price=self.min_bid(item)))
        return out

    def price_space(self, entity: Entity, listed: Action) -> tuple[int, int]:
        """A bid may name any price from the minimum bid (opening bid, or the highest bid
        plus the increment) up to the bidder's cash less his other pending bids."""
        item = self.game.company(str(listed["company"]))
        if not isinstance(entity, Player):
            return super().price_space(entity, listed)
        return (self.min_bid(item), self.max_bid(entity, item))
