"""1841 trains in the operating round (rules/1841.md 1.2, 2.3.7, 2.4).

* Train limits by phase and corporation type (minor/major, game.toml ``phases.train_limit``).
* A corporation buys from the depot (its cheapest type only) or from another corporation at any
  price from L.1.  It must buy one when it has none, the depot has trains and its full graph
  holds a route (18xx.games MUST_BUY_TRAIN = route); it is then offered no ``pass``.
* When the corporation cannot pay the cheapest depot train it must buy, the emergency money
  procedure raises the rest: :meth:`BuyTrain1841.emergency_actions` (the share sales offered)
  and :meth:`BuyTrain1841.raise_money` (the cash moved in) are where it plugs in.  Without it,
  the cash of the chain of control above the corporation is swept in, nearest owner first
  (rules/1841.md 2.3.7, "automatic cash sweeps").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stellwerk.core.entities import Corporation, Player, Train, chain_of_control, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action
from stellwerk.core.flow.operating import BuyTrain

if TYPE_CHECKING:
    from stellwerk.titles.g1841.game import Game1841

RULE = "rules/1841.md 2.3.7"


def train_limit(game: Game1841, corp: Corporation) -> int:
    """The limit of the corporation's type in the current phase (rules/1841.md 1.2, 2.4)."""
    phase = game.data.phase(game.phases.current.name)
    return phase.train_limit[game.specs[corp.sym].type]


def must_buy(game: Game1841, corp: Corporation) -> bool:
    """No train, the depot has trains and a route exists on the full graph (18xx.games
    ``must_buy_train?`` with MUST_BUY_TRAIN route; rules/1841.md 2.3.7)."""
    return (
        not corp.trains
        and bool(game.depot.depot_trains(game.phases))
        and game.map.graph.route_flags(corp.sym)[1]
    )


class BuyTrain1841(BuyTrain):
    """Train purchase (rules/1841.md 2.3.7): ``buy_train`` (and ``pass`` unless the
    corporation must buy); nothing for a corporation done this round."""

    game: Game1841

    def actions(self, entity: Any) -> list[str]:
        current = self.current_entity()
        if current is None or current.sym in self.game.done_this_round:
            return []
        if isinstance(entity, Player):
            return self.emergency_actions(entity, current)
        if entity is not current:
            return []
        if self.must_buy(entity):
            return ["buy_train", *self.emergency_actions(entity, current)]
        if self.can_buy_train(entity):
            return ["buy_train", "pass"]
        return []

    # -- emergency money: where rules/1841.md 2.3.7 EMR plugs in ----------------------------
    def emergency_actions(self, entity: Any, buyer: Corporation) -> list[str]:
        """Hook: the share sales ``entity`` (the buyer, a corporation of its chain, or its
        controlling player) is offered to raise the money for the train the buyer must buy
        (``["sell_shares"]``); none here."""
        return []

    def raise_money(self, corp: Corporation, train: Train, price: int) -> None:
        """Hook: ``corp`` must buy ``train`` for ``price`` and lacks cash: the money comes in.
        Here the owners up its chain of control give what is missing, nearest first
        (rules/1841.md 2.3.7 "automatic cash sweeps")."""
        for owner in chain_of_control(corp):
            needed = price - corp.cash
            if needed <= 0 or not isinstance(owner, (Player, Corporation)):
                break
            amount = min(needed, owner.cash)
            if amount > 0:
                transfer(owner, corp, amount, RULE)
            if isinstance(owner, Player):
                break

    def process_buy_train(self, action: Action, entity: Any) -> None:
        game = self.game
        train = game.train_by_id(action["train"])
        price = int(action.get("price", train.price))
        from_depot = train.owner is game.depot
        if entity.cash < price:
            if not from_depot:
                raise IllegalAction(f"{entity.sym} has not the cash for this train", RULE)
            if not self.must_buy(entity):
                raise IllegalAction(f"{entity.sym} cannot afford {train.name}", RULE)
            if price > game.min_depot_price(entity):
                raise IllegalAction(f"{entity.sym} must buy the cheapest train", RULE)
        super().process_buy_train(action, entity)

    def president_adds(self, corp: Corporation, train: Train, amount: int) -> None:
        price = amount + corp.cash
        if self.available_cash(corp) < price:
            raise IllegalAction(f"{corp.sym} cannot afford {train.name}", RULE)
        self.raise_money(corp, train, price)

    def available_cash(self, corp: Corporation) -> int:
        """Hook: what ``corp`` can have for a train it must buy: its cash and its owners' up
        the chain of control to the controlling player."""
        total = corp.cash
        for owner in chain_of_control(corp):
            if not isinstance(owner, (Player, Corporation)):
                break
            total += owner.cash
            if isinstance(owner, Player):
                break
        return total
