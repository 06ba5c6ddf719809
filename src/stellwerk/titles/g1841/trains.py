"""1841 trains in the operating round (rules/1841.md 1.2, 2.3.7, 2.4).

* Train limits by phase and corporation type (minor/major, game.toml ``phases.train_limit``).
* A corporation buys from the depot (its cheapest type only) or from another corporation at any
  price from L.1.  It must buy one when it has none, the depot has trains and its full graph
  holds a route (18xx.games MUST_BUY_TRAIN = route); it is then offered no ``pass``.
* When the corporation cannot pay the cheapest depot train it must buy, emergency money
  (:mod:`.emergency`, rules/1841.md 2.3.7) raises the rest: the chain's corporations sell
  (``sell_shares`` by the buyer), then the controlling player (``sell_shares`` by him), the
  owners' cash is swept in; once a sale or sweep happened only the cheapest depot train may
  be bought (seed 003 H11), after it further trains normally (FAQ 2.22).  If even that cannot
  pay, the president may declare bankruptcy (:mod:`.bankruptcy`).

What is offered is what 18xx.games offers: the corporation ``buy_train`` and ``sell_shares``
while its chain has a legal sale, ``buy_train`` alone when it must buy otherwise; the
controlling player his emergency sales only once the chain has none and its cash is short.
Files replay as the site accepted them: a sale by the controlling player is taken whenever the
corporation must buy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Entity, Player, Train
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, act
from stellwerk.core.flow.operating import BuyTrain
from stellwerk.titles.g1841 import emergency, raising

if TYPE_CHECKING:
    from stellwerk.titles.g1841.decisions import DecidingGame, ProcedureGame

RULE = "rules/1841.md 2.3.7"


def train_limit(game: ProcedureGame, corp: Corporation) -> int:
    """The limit of the corporation's type in the current phase (rules/1841.md 1.2, 2.4)."""
    phase = game.data.phase(game.phases.current.name)
    return phase.train_limit[game.specs[corp.sym].type]


def must_buy(game: ProcedureGame, corp: Corporation) -> bool:
    """No train, the depot has trains and a route exists on the full graph (18xx.games
    ``must_buy_train?`` with MUST_BUY_TRAIN route; rules/1841.md 2.3.7)."""
    return (
        not corp.trains
        and bool(game.depot.depot_trains(game.phases))
        and game.map.graph.route_flags(corp.sym)[1]
    )


class BuyTrain1841(BuyTrain):
    """Train purchase with emergency money (rules/1841.md 2.3.7): ``buy_train``, ``pass``
    unless the corporation must buy, ``sell_shares`` for EMR; nothing for a corporation done
    this round."""

    game: DecidingGame

    def setup(self) -> None:
        super().setup()
        self.emr_triggered = False
        """A sale or sweep happened: the next train is the cheapest depot train (H11)."""

    # -- what is offered -------------------------------------------------------------------
    def actions(self, entity: Entity) -> list[str]:
        current = self.current_entity()
        if current is None or current.sym in self.game.done_this_round:
            return []
        if isinstance(entity, Player):
            if entity is emergency.controller_of(current) and self.must_buy(current):
                return ["sell_shares"]
            return []
        if entity is not current:
            return []
        if self.must_buy(current):
            if self.chain_must_sell(current):
                return ["buy_train", "sell_shares"]
            return ["buy_train"]
        if self.can_buy_train(current):
            return ["buy_train", "pass"]
        return []

    def short(self, corp: Corporation) -> bool:
        """The chain's cash up to its first seller does not pay the cheapest depot train."""
        return emergency.cash_before_issuing(self.game, corp) < emergency.needed_price(
            self.game, corp
        )

    def chain_must_sell(self, corp: Corporation) -> bool:
        """A corporation of the chain must sell before the president helps (18xx.games
        MUST_EMERGENCY_ISSUE_BEFORE_EBUY; rules/1841.md 2.3.7)."""
        # a legal sale is found only while the chain's cash is short of the price, so the
        # chain is short whenever a sale is listed (cash_before_issuing stops at the seller)
        return emergency.has_issuable(self.game, corp)

    def president_may_contribute(self, corp: Corporation) -> bool:
        """The controlling player's turn to sell: the corporation must buy, is short, and no
        corporation of its chain has a legal sale (rules/1841.md 2.3.7)."""
        return (
            self.must_buy(corp)
            and self.short(corp)
            and not emergency.issuable_bundles(self.game, corp)
        )

    def buyable_trains(self, corp: Corporation) -> list[Train]:
        """After an EMR sale or sweep only the cheapest depot train (seed 003 H11); short of
        cash the cheapest depot train and other corporations' trains; else all (2.3.7)."""
        game = self.game
        cheapest = game.min_depot_train(corp)
        if self.emr_triggered:
            return [cheapest] if cheapest is not None else []
        depot = game.depot_trains_for(corp)
        if corp.cash < game.min_depot_price(corp):
            depot = [cheapest] if cheapest is not None else []
        others = list(game.other_trains(corp)) if corp.cash > 0 else []
        return depot + others

    def choices(self, entity: Entity) -> list[Action]:
        kinds = self.actions(entity)
        corp = self.current_entity()
        if not kinds or corp is None:
            return []
        game = self.game
        if isinstance(entity, Player):
            return raising.offered(game, self.raising(corp), entity)
        out: list[Action] = []
        if "pass" in kinds:
            out.append(act(entity, "pass"))
        if "buy_train" in kinds and self.room(corp):
            out += self.train_choices(corp)
        if "sell_shares" in kinds:
            out += raising.offered(game, self.raising(corp), entity)
        return out

    def raising(self, corp: Corporation) -> raising.Raising:
        """``corp``'s emergency money for the cheapest depot train (rules/1841.md 2.3.7)."""
        return raising.Raising(corp.sym, emergency.needed_price(self.game, corp))

    def train_choices(self, corp: Corporation) -> list[Action]:
        game = self.game
        out: list[Action] = []
        seen: set[tuple[str, int]] = set()
        helped = self.must_buy(corp) and not emergency.issuable_bundles(game, corp)
        cheapest = game.min_depot_train(corp)
        for train in self.buyable_trains(corp):
            key = (train.name, id(train.owner))
            if key in seen:
                continue
            seen.add(key)
            if train.owner is game.depot:
                budget = corp.cash
                if helped and cheapest is not None and train.name == cheapest.name:
                    budget = emergency.available(corp)
                if train.price <= budget:
                    out.append(act(corp, "buy_train", train=train.id, price=train.price))
            elif corp.cash >= 1:
                for price in sorted({1, min(train.price, self.budget(corp))}):
                    out.append(act(corp, "buy_train", train=train.id, price=price))
        return out

    # -- processing ------------------------------------------------------------------------
    def process_buy_train(self, action: moves.BuyTrain, entity: Corporation) -> None:
        game = self.game
        train = game.train_by_id(action.train)
        price = action.price
        from_depot = train.owner is game.depot
        if entity.cash < price and not from_depot:
            raise IllegalAction(f"{entity.sym} has not the cash for this train", RULE)
        if self.emr_triggered and not from_depot:
            raise IllegalAction(
                "after emergency money the first train comes from the depot",
                "rules/1841.md 2.3.7; seed 003 H11",
            )
        if entity.cash < price:
            if not self.must_buy(entity):
                raise IllegalAction(f"{entity.sym} cannot afford {train.name}", RULE)
            if price > game.min_depot_price(entity):
                raise IllegalAction(f"{entity.sym} must buy the cheapest train", RULE)
            if emergency.issuable_bundles(game, entity):
                raise IllegalAction(f"{entity.sym} must sell shares before buying", RULE)
            if emergency.available(entity) < price:
                raise IllegalAction(f"{entity.sym} cannot afford {train.name}", RULE)
        super().process_buy_train(action, entity)
        self.emr_triggered = False

    def president_adds(self, corp: Corporation, train: Train, amount: int) -> None:
        """Short of cash for the cheapest depot train it must buy: the owners up the chain
        give the rest, the controlling player last (rules/1841.md 2.3.7, sweeps)."""
        self.emr_triggered = True
        emergency.sweep(self.game, corp, None, amount + corp.cash)

    def process_sell_shares(self, action: moves.SellShares, entity: Player | Corporation) -> None:
        """An emergency sale (rules/1841.md 2.3.7): by the buyer for a corporation of its
        chain, or by the controlling player for himself; half price; then the sweep
        (:class:`.raising.Raising`)."""
        game = self.game
        current = self.current_entity()
        if current is None:
            raise IllegalAction("no corporation buys a train: no emergency sale", RULE)
        if not self.must_buy(current):
            raise IllegalAction(f"{current.sym} need not buy a train: no emergency sale", RULE)
        raising.sell(game, self.raising(current), entity, action)
        self.emr_triggered = True
