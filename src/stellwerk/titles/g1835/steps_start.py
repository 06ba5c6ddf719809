"""The 1835 start packet: fixed prices, no bidding, Standard/Snake/Clemens order
(rules/1835.md 3; Rails StartRound_1835).  A purchase is an 18xx.games ``bid`` action naming
the item (``company``) and its price, as in 18xx.games' 1835 draft."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.entities import Entity, Player, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, PlayerStep, Round, act
from stellwerk.core.shares import Bundle
from stellwerk.titles.g1835.entities import Minor, StartItem

if TYPE_CHECKING:
    from stellwerk.titles.g1835.data_load import Included
    from stellwerk.titles.g1835.game import Game1835

RULE = "1835 rules §3"


class StartRound1835(Round[Player]):
    """Players buy start items in the variant's order until the packet is sold or all pass in
    succession (rules/1835.md 3.3)."""

    name = "Round::Draft"
    kind = "start"

    def __init__(self, game: Game1835) -> None:
        self.game1835 = game
        self.turns = 0
        self.passes = 0
        self.number = game.start_round_num
        self.first_player = game.players.index(game.priority)
        super().__init__(game, [BuyStartItem])
        self.label = f"start {self.number}"
        self.entity_index = self.seat_for(0)

    def select_entities(self) -> list[Player]:
        return list(self.game.players)

    def seat_for(self, turn: int) -> int:
        """The seat acting in turn ``turn``: start round 1 follows the variant's cycles
        (Standard 1234 1234, Snake 1234 4321 1234, Clemens 4321 1234); later start rounds go
        clockwise from the priority holder (rules/1835.md 3.3)."""
        game = self.game1835
        n = len(game.players)
        if self.number > 1:
            return (self.first_player + turn) % n
        order = game.start_order()
        cycle, pos = divmod(turn, n)
        direction = order.cycles[cycle] if cycle < len(order.cycles) else order.then
        return n - 1 - pos if direction == "reverse" else pos

    def setup(self) -> None:
        self.skip_unable()

    def finished(self) -> bool:
        return (
            self.game.finished
            or not self.game1835.start_items
            or self.passes >= len(self.game.players)
        )

    def advance(self, passed: bool) -> None:
        self.passes = self.passes + 1 if passed else 0
        self.turns += 1
        self.entity_index = self.seat_for(self.turns)
        self.skip_unable()

    def skip_unable(self) -> None:
        """A player who cannot afford any available item passes automatically (Rails
        CannotBuyAnything)."""
        step = self.steps[0]
        assert isinstance(step, BuyStartItem)
        while not self.finished():
            player = self.entities[self.entity_index]
            if step.affordable(player):
                return
            self.game1835.note("cannot_buy", player=player.name)
            self.passes += 1
            self.turns += 1
            self.entity_index = self.seat_for(self.turns)

    def after_process(self, action: moves.Move, entity: Entity) -> None:
        step = self.steps[0]
        step.passed = False


class BuyStartItem(PlayerStep):
    """Buy one available item at its fixed price, or pass (rules/1835.md 3.2-3.3)."""

    game: Game1835
    round: StartRound1835
    description = "Buy a start item"

    def available(self) -> list[StartItem]:
        """Every unsold item if the start order says so (Clemens).  Otherwise the uppermost row
        with unsold items, and when it has exactly one left, also the first unsold item of the
        next row (rules/1835.md 3.2)."""
        items = self.game.start_items
        if not items or self.game.start_order().all_items_available:
            return list(items)
        top = min(i.row for i in items)
        row = [i for i in items if i.row == top]
        if len(row) == 1:
            nxt = [i for i in items if i.row > top]
            if nxt:
                second = min(i.row for i in nxt)
                row.append(next(i for i in items if i.row == second))
        return row

    def affordable(self, player: Player) -> bool:
        return any(i.price <= player.cash for i in self.available())

    def actions(self, entity: Entity) -> list[str]:
        if entity is not self.current_entity() or self.round.finished():
            return []
        return ["bid", "pass"]

    def choices(self, entity: Entity) -> list[Action]:
        if not self.actions(entity):
            return []
        out = [act(entity, "pass")]
        for item in self.available():
            if item.price <= entity.cash:
                out.append(act(entity, "bid", company=item.item, price=item.price))
        return out

    def process_pass(self, action: moves.Pass, entity: Entity) -> None:
        self.game.note("passed", player=entity.name)
        self.round.advance(True)

    def process_bid(self, action: moves.Bid, entity: Player) -> None:
        game = self.game
        name = action.company
        item = next((i for i in self.available() if i.item == name), None)
        if item is None:
            raise IllegalAction(f"{name} is not available now", "1835 rules §3.2")
        price = action.price
        if price != item.price:
            raise IllegalAction(f"{name} costs {item.price}", "1835 rules §3.1")
        if entity.cash < price:
            raise IllegalAction(f"{entity.name} cannot pay {price}", RULE)
        transfer(entity, game.bank, price, RULE)
        game.start_items.remove(item)
        self.deliver(entity, item)
        n = len(game.players)
        game.priority = game.players[(game.players.index(entity) + 1) % n]
        self.round.advance(False)

    def deliver(self, player: Player, item: StartItem) -> None:
        """Hand over the item: a private, a minor (floats at once with its price and home
        token) or the BY director's certificate, plus any certificate included
        (rules/1835.md 3.1)."""
        game = self.game
        sym = item.item
        minor = next((m for m in game.minors() if m.sym == sym), None)
        if minor is not None:
            self.float_minor(player, minor)
        elif any(c.sym == sym for c in game.companies):
            company = game.company(sym)
            company.owner = player
            player.companies.append(company)
        if item.includes:
            self.give_share(player, item, item.includes)

    def float_minor(self, player: Player, minor: Minor) -> None:
        game = self.game
        share = minor.shares_of(minor.sym)[0]
        game.set_president(minor, player)
        game.transfer_certificates(Bundle.of([share], minor), player, False)
        minor.ipoed = minor.floated = True
        transfer(game.bank, minor, minor.price, "1835 rules §3.1")
        game.note("float", corp=minor.sym, amount=minor.price)
        assert minor.home is not None
        game.map.board.place_token_at(minor.home, minor.city, minor.sym)

    def give_share(self, player: Player, item: StartItem, includes: Included) -> None:
        game = self.game
        corp = game.corporation(includes.company)
        spec = game.data.private(item.item).extra_share if item.item != "BY_D" else None
        share_id = spec.get("x18_share") if spec else None
        treasury = corp.shares_of(corp.sym)
        if includes.president:
            share = next(s for s in treasury if s.president)
        elif share_id:
            share = next(s for s in treasury if s.id == share_id)
        else:
            share = next(s for s in treasury if not s.president)
        if share.president:
            game.start_company(corp)
            if corp.owner is None:
                game.set_president(corp, player)
        was_floated = corp.floated
        game.transfer_certificates(Bundle.of([share], corp), player, corp.owner is not None)
        if was_floated and corp.par_price is not None:
            # UNSURE (only when BY floats at 20 %): after floating, a start-packet share
            # capitalises the company like an IPO sale (incremental capitalisation).
            transfer(game.bank, corp, corp.par_price.price * share.percent // 10, RULE)
        game.check_floated(corp)
