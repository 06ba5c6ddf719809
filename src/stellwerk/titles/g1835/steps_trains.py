"""Buying trains in 1835 operating rounds: new from the bank, used from the pool, from other
companies from phase 3; a major without a train must buy one, its director adds money and sells
shares if needed, and goes bankrupt if even that cannot pay (rules/1835.md 8.7-8.8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.asking import Asked
from stellwerk.core.entities import Corporation, Entity, Player, Train
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, act
from stellwerk.core.flow.operating import BuyTrain
from stellwerk.core.shares import Bundle
from stellwerk.titles.g1835 import bankruptcy
from stellwerk.titles.g1835.sales import (
    SaleMemory,
    bundle_of,
    lower_price,
    lower_price_question,
    sale_bundles,
    sell,
)

if TYPE_CHECKING:
    from stellwerk.titles.g1835.game import Game1835
    from stellwerk.titles.g1835.steps_operating import OperatingRound1835

RULE_TRAIN = "1835 rules §8.7"


class BuyTrain1835(BuyTrain):
    """Buy trains: new from the bank (the current type), used from the pool, and from phase 3
    on from other companies at any price of at least 1M.  A major without a train must buy one;
    its director adds the missing money and may have to sell shares first
    (rules/1835.md 8.7-8.8).  The core step's purchase with these hooks; the emergency sales
    follow Rails' ShareSellingRound_1835."""

    game: Game1835
    round: OperatingRound1835

    def setup(self) -> None:
        super().setup()
        self.memory = SaleMemory()

    # -- hooks of the core step ---------------------------------------------------------------
    def others_offer_trains(self, corp: Corporation) -> bool:
        """Trains change hands between companies from phase 3 on (rules/1835.md 8.7)."""
        return bool(self.game.other_trains(corp))

    def budget(self, corp: Corporation) -> int:
        """A company that must buy a train spends its director's cash too (rules/1835.md
        8.7)."""
        owner = corp.owner
        if self.must_buy(corp) and isinstance(owner, Player):
            return int(corp.cash + owner.cash)
        return int(corp.cash)

    def may_buy(self, corp: Corporation, train: Train) -> bool:
        """A bank train of a type on sale (new or used), or from phase 3 another company's
        train (rules/1835.md 8.7)."""
        game = self.game
        if train.owner is game.depot:
            trains = game.depot_trains_for(corp)
            return train in trains or any(
                t.name == train.name and t.owner is game.depot for t in trains
            )
        return train in game.other_trains(corp)

    def president_may_help(self, corp: Corporation, train: Train) -> bool:
        """Any train, not only the cheapest (Rails EmergencyTrainBuying mustBuyCheapestTrain=no,
        rules/1835.md 8.7)."""
        return True

    def president_adds(self, corp: Corporation, train: Train, amount: int) -> None:
        super().president_adds(corp, train, amount)
        self.game.note("president_adds", corp=corp.sym, amount=amount)

    def complete_purchase(self, corp: Corporation, train: Train, price: int) -> None:
        """Pay, take the train, and hold a formation round if the purchase calls one
        (rules/1835.md 8.7, 10.1)."""
        game = self.game
        seller = train.owner.sym if isinstance(train.owner, Corporation) else (
            "Pool" if train in game.depot.discarded else "IPO")  # fmt: skip
        phase = game.phases.name
        game.buy_train(corp, train, price)
        game.note("train", corp=corp.sym, train=train.name, seller=seller, price=price)
        self.memory = SaleMemory()
        if game.formation_trigger(train, game.phases.name != phase):
            self.round.trigger = corp
            game.start_formation(interrupting=True)

    # -- the director's emergency (rules/1835.md 8.8) -----------------------------------------
    def depot_prices(self, corp: Corporation) -> list[int]:
        return [t.price for t in self.game.depot_trains_for(corp)]

    def needs_money(self, corp: Corporation) -> bool:
        prices = self.depot_prices(corp)
        return self.must_buy(corp) and bool(prices) and self.budget(corp) < max(prices)

    def actions(self, entity: Entity) -> list[str]:
        corp = self.current_entity()
        if not isinstance(corp, Corporation):
            return []
        if isinstance(entity, Player):
            if entity is corp.owner and self.needs_money(corp):
                out = ["sell_shares"]
                if self.memory.adjustable is not None:
                    out.append("choose")
                return out
            return []
        if entity is not corp:
            return []
        if self.must_buy(corp):
            return ["buy_train", "bankrupt"] if self.bankruptcy_due(corp) else ["buy_train"]
        if self.can_buy_train(corp):
            return ["buy_train", "pass"]
        return []

    def question(self, entity: Entity) -> Asked | None:
        """After a repeated emergency sale of a corporation's shares, whether its price
        drops one more row (rules/1835.md 5.3, 8.8)."""
        if not isinstance(entity, Player):
            return None
        return lower_price_question(entity, self.memory, self.choices(entity))

    def choices(self, entity: Entity) -> list[Action]:
        kinds = self.actions(entity)
        corp = self.current_entity()
        if not kinds or corp is None:
            return []
        game = self.game
        out: list[Action] = []
        if isinstance(entity, Player):
            for c in game.majors():
                if entity.shares_of(c.sym):
                    for b in sale_bundles(game, entity, c):
                        if self.emergency_sale_error(entity, b) is None:
                            shares = [s.id for s in b.shares]
                            out.append(act(entity, "sell_shares", shares=shares, percent=b.percent))
            if "choose" in kinds:
                out.append(act(entity, "choose", choice="lower_price"))
            return out
        if "pass" in kinds:
            out.append(act(entity, "pass"))
        if "bankrupt" in kinds:
            out.append(act(entity, "bankrupt"))
        budget = self.budget(corp)
        seen: set[tuple[str, int]] = set()
        for train in game.depot_trains_for(corp):
            if train.price <= budget and (train.name, 0) not in seen:
                seen.add((train.name, 0))
                out.append(act(entity, "buy_train", train=train.id, price=train.price))
        if budget >= 1:
            for train in game.other_trains(corp):
                key = (train.name, id(train.owner))
                if key not in seen:
                    seen.add(key)
                    out.append(act(entity, "buy_train", train=train.id, price=1))
        if not out and isinstance(corp.owner, Player):  # the director's sales
            out += self.choices(corp.owner)
        return out

    def emergency_sale_error(self, player: Player, bundle: Bundle) -> str | None:
        corp = self.current_entity()
        if corp is None:
            return "no company buys a train"
        missing = max(self.depot_prices(corp), default=0) - corp.cash - player.cash
        if missing <= 0:
            return "no money is missing"
        sold = bundle.corporation
        if sold is corp:
            holders = [p.percent_of(corp.sym) for p in self.game.players if p is not player]
            if player.percent_of(corp.sym) - bundle.percent < max(holders, default=0):
                return "the director may not lose the buying company"
        return None

    def process_sell_shares(self, action: moves.SellShares, entity: Player | Corporation) -> None:
        if not isinstance(entity, Player) or "sell_shares" not in self.actions(entity):
            raise IllegalAction(f"{entity.name} need not sell now", "1835 rules §8.8")
        bundle = bundle_of(self.game, action)
        error = self.emergency_sale_error(entity, bundle)
        if error:
            raise IllegalAction(error, "1835 rules §8.8")
        sell(self.game, entity, bundle, self.memory)

    def process_choose(self, action: moves.Choose, entity: Player) -> None:
        lower_price(self.game, self.memory, action.corporation)

    def bankruptcy_due(self, corp: Corporation) -> bool:
        """The director cannot raise the price of the cheapest bank train even after selling
        everything he may sell, and no other company's train is within reach
        (rules/1835.md 8.8)."""
        owner = corp.owner
        if not self.must_buy(corp) or not isinstance(owner, Player):
            return False
        budget = self.budget(corp)
        if min(self.depot_prices(corp)) <= budget or (self.game.other_trains(corp) and budget >= 1):
            return False
        for c in self.game.majors():
            if owner.shares_of(c.sym):
                for bundle in sale_bundles(self.game, owner, c):
                    if self.emergency_sale_error(owner, bundle) is None:
                        return False
        return True

    def process_bankrupt(self, action: moves.Bankrupt, entity: Entity) -> None:
        """The director goes bankrupt; with a forced new director the bank lends the company
        the rest of the cheapest bank train's price (rules/1835.md 8.8)."""
        if not isinstance(entity, Corporation) or not self.bankruptcy_due(entity):
            raise IllegalAction("bankruptcy only when no train can be paid for", "1835 rules §8.8")
        train = bankruptcy.declare(self.game, entity)
        self.memory = SaleMemory()
        if train is not None:
            self.complete_purchase(entity, train, train.price)
            self.pass_()
