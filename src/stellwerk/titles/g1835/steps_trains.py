"""Buying trains in 1835 operating rounds: new from the bank, used from the pool, from other
companies from phase 3; a major without a train must buy one, its director adds money and sells
shares if needed, and goes bankrupt if even that cannot pay (rules/1835.md 8.7-8.8)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stellwerk.core.entities import Corporation, Player, Train, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, Step, act
from stellwerk.titles.g1835 import bankruptcy
from stellwerk.titles.g1835.entities import Minor
from stellwerk.titles.g1835.sales import SaleMemory, bundle_of, lower_price, sale_bundles, sell

if TYPE_CHECKING:
    from stellwerk.titles.g1835.game import Game1835
    from stellwerk.titles.g1835.steps_operating import OperatingRound1835

RULE_TRAIN = "1835 rules §8.7"


class BuyTrain1835(Step):
    """Buy trains: new from the bank (the current type), used from the pool, and from phase 3
    on from other companies at any price of at least 1M.  A major without a train must buy one;
    its director adds the missing money and may have to sell shares first
    (rules/1835.md 8.7-8.8)."""

    game: Game1835
    round: OperatingRound1835
    description = "Buy Trains"

    def setup(self) -> None:
        self.memory = SaleMemory()

    def room(self, corp: Corporation) -> bool:
        return len(corp.trains) < self.game.train_limit(corp)

    def must_buy(self, corp: Corporation) -> bool:
        return (
            not isinstance(corp, Minor)
            and not corp.trains
            and bool(self.game.depot.depot_trains(self.game.phases))
        )

    def from_others(self) -> bool:
        return "trains_between_companies" in self.game.phases.current.status

    def other_trains(self, corp: Corporation) -> list[Train]:
        if not self.from_others():
            return []
        return [
            t
            for c in self.game.corporations
            if c is not corp and c.floated and not c.closed
            for t in c.trains
        ]

    def depot_trains(self) -> list[Train]:
        return self.game.depot.depot_trains(self.game.phases)

    def budget(self, corp: Corporation) -> int:
        owner = corp.owner
        if self.must_buy(corp) and isinstance(owner, Player):
            return corp.cash + owner.cash
        return corp.cash

    def needs_money(self, corp: Corporation) -> bool:
        prices = [t.price for t in self.depot_trains()]
        return self.must_buy(corp) and bool(prices) and self.budget(corp) < max(prices)

    def can_buy(self, corp: Corporation) -> bool:
        if not self.room(corp):
            return False
        prices = [t.price for t in self.depot_trains()]
        if self.other_trains(corp) and corp.cash >= 1:
            return True
        return bool(prices) and min(prices) <= self.budget(corp)

    def actions(self, entity: Any) -> list[str]:
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
        if self.can_buy(corp):
            return ["buy_train", "pass"]
        return []

    def choices(self, entity: Any) -> list[Action]:
        kinds = self.actions(entity)
        if not kinds:
            return []
        game = self.game
        corp = self.current_entity()
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
        seen: set[tuple[str, int]] = set()
        for train in self.depot_trains():
            if train.price <= self.budget(corp) and (train.name, 0) not in seen:
                seen.add((train.name, 0))
                out.append(act(entity, "buy_train", train=train.id, price=train.price))
        if self.budget(corp) >= 1:
            for train in self.other_trains(corp):
                key = (train.name, id(train.owner))
                if key not in seen:
                    seen.add(key)
                    out.append(act(entity, "buy_train", train=train.id, price=1))
        if not out or (self.must_buy(corp) and len(out) == 0):
            out += self.choices(corp.owner) if corp.owner is not None else []
        return out

    # -- emergency selling (rules/1835.md 8.8) ------------------------------------------------
    def emergency_sale_error(self, player: Player, bundle: Any) -> str | None:
        corp = self.current_entity()
        prices = [t.price for t in self.depot_trains()]
        missing = max(prices, default=0) - corp.cash - player.cash
        if missing <= 0:
            return "no money is missing"
        sold = bundle.corporation
        if sold is corp:
            holders = [p.percent_of(corp.sym) for p in self.game.players if p is not player]
            if player.percent_of(corp.sym) - bundle.percent < max(holders, default=0):
                return "the director may not lose the buying company"
        return None

    def process_sell_shares(self, action: Action, entity: Any) -> None:
        if "sell_shares" not in self.actions(entity):
            raise IllegalAction(f"{entity.name} need not sell now", "1835 rules §8.8")
        bundle = bundle_of(self.game, action)
        error = self.emergency_sale_error(entity, bundle)
        if error:
            raise IllegalAction(error, "1835 rules §8.8")
        sell(self.game, entity, bundle, self.memory)

    def bankruptcy_due(self, corp: Corporation) -> bool:
        """The director cannot raise the price of the cheapest bank train even after selling
        everything he may sell, and no other company's train is within reach
        (rules/1835.md 8.8)."""
        owner = corp.owner
        if not self.must_buy(corp) or not isinstance(owner, Player):
            return False
        budget = self.budget(corp)
        prices = [t.price for t in self.depot_trains()]
        if min(prices) <= budget or (self.other_trains(corp) and budget >= 1):
            return False
        for c in self.game.majors():
            if owner.shares_of(c.sym):
                for bundle in sale_bundles(self.game, owner, c):
                    if self.emergency_sale_error(owner, bundle) is None:
                        return False
        return True

    def process_bankrupt(self, action: Action, entity: Any) -> None:
        """The director goes bankrupt; with a forced new director the bank lends the company
        the rest of the cheapest bank train's price (rules/1835.md 8.8)."""
        if not isinstance(entity, Corporation) or not self.bankruptcy_due(entity):
            raise IllegalAction("bankruptcy only when no train can be paid for", "1835 rules §8.8")
        train = bankruptcy.declare(self.game, entity)
        self.memory = SaleMemory()
        if train is not None:
            self.complete_purchase(entity, train, train.price)
            self.pass_()

    def process_choose(self, action: Action, entity: Any) -> None:
        lower_price(self.game, self.memory, action.get("corporation"))

    def process_pass(self, action: Action, entity: Any) -> None:
        if self.must_buy(entity):
            raise IllegalAction(f"{entity.sym} must buy a train", RULE_TRAIN)
        self.pass_()

    def price_space(self, entity: Any, listed: Action) -> tuple[int, int]:
        """Depot trains cost their printed price; a train from another company any price
        from 1M up to what the buyer can pay, the director helping when the company must buy
        (rules/1835.md 8.8)."""
        train = self.game.train_by_id(str(listed["train"]))
        if train.owner is self.game.depot:
            return (train.price, train.price)
        return (1, self.budget(entity))

    def process_buy_train(self, action: Action, entity: Any) -> None:
        game = self.game
        corp = entity
        train = game.train_by_id(str(action["train"]))
        price = int(action.get("price", train.price))
        owner = train.owner
        if owner is corp:
            raise IllegalAction("a company cannot buy its own train", RULE_TRAIN)
        if not self.room(corp):
            raise IllegalAction(f"{corp.sym} is at its train limit", RULE_TRAIN)
        if owner is game.depot:
            if train not in self.depot_trains() and not any(
                t.name == train.name and t.owner is game.depot for t in self.depot_trains()
            ):
                raise IllegalAction(f"{train.name} is not for sale yet", RULE_TRAIN)
            if price != train.price:
                raise IllegalAction(f"{train.name} costs {train.price}", RULE_TRAIN)
        else:
            if train not in self.other_trains(corp):
                raise IllegalAction("trains change hands between companies only from phase 3",
                                    RULE_TRAIN)  # fmt: skip
            if price < 1:
                raise IllegalAction("a train costs at least 1M", RULE_TRAIN)
        missing = price - corp.cash
        if missing > 0:
            president = corp.owner
            if not self.must_buy(corp) or not isinstance(president, Player):
                raise IllegalAction(f"{corp.sym} cannot pay {price}", RULE_TRAIN)
            if president.cash < missing:
                raise IllegalAction(
                    f"{president.name} must first raise {missing - president.cash}",
                    "1835 rules §8.8",
                )
            transfer(president, corp, missing, "1835 rules §8.8")
            game.note("president_adds", corp=corp.sym, amount=missing)
        self.complete_purchase(corp, train, price)
        if not self.can_buy(corp) and not self.must_buy(corp):
            self.pass_()

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
