"""Token emergency money after a transformation (rules/1841.md 2.3.12 "If the required L.50
can't be paid, Token EMR"; seed 000 item 2.5; 18xx.games' TokenEmergencyMoney step).

A transformed major with one token must buy a second for L.50.  When that is the only
purchase it may make (at most one token) and the cash of its chain up to the first seller,
the controlling player's included, is below L.50 (:func:`.emergency.cash_before_selling`),
the money is raised as for a train (:mod:`.emergency`), with L.50 as what is needed: the
major (``sell_shares``, entity = the major) sells for the first corporation of its chain
with a legal bundle; once the chain has none, the controlling player sells (entity = him,
offered while his cash is below L.50).  After each sale the owners up the chain give the
major what it lacks of L.50, up to the seller.  Then the token purchase (``choose`` 1 of the
transformation, :mod:`.transform`) sweeps the rest from the chain and pays.

The step stands before the Decisions step and does not block: as on the site, the purchase
may be sent whenever the sweep can pay it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stellwerk.core.entities import Corporation, Player
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, Step
from stellwerk.core.flow.stock import bundle_from_action
from stellwerk.titles.g1841 import emergency
from stellwerk.titles.g1841.transform import REQUIRED_TOKEN_PRICE, Transform

if TYPE_CHECKING:
    from stellwerk.titles.g1841.game import Game1841

RULE = "rules/1841.md 2.3.12 (Token EMR)"


def pending(game: Game1841) -> Corporation | None:
    """The transformed major that must raise its required token's L.50 now, if any."""
    for procedure in game.procedures:
        if not isinstance(procedure, Transform) or procedure.stage != "tokens":
            continue
        if procedure.tuscan or procedure.token_min != 1 or procedure.token_max != 1:
            continue
        target = game.corporation(procedure.target)
        if emergency.cash_before_selling(game, target, REQUIRED_TOKEN_PRICE) < REQUIRED_TOKEN_PRICE:
            return target
    return None


class TokenEmergencyMoney(Step):
    """The major's and its controlling player's emergency sales for the required token."""

    description = "Token Emergency Money Raising"
    blocks = False
    game: Game1841

    def active(self) -> bool:
        return pending(self.game) is not None

    def active_entities(self) -> list[Any]:
        target = pending(self.game)
        return [target] if target is not None else []

    def skip(self) -> None:
        """Never passed: it is active exactly while the money is missing."""

    def actions(self, entity: Any) -> list[str]:
        target = pending(self.game)
        if target is None:
            return []
        if entity is target:
            chain = emergency.issuable_bundles(self.game, target, REQUIRED_TOKEN_PRICE)
            return ["sell_shares"] if chain else []
        player = emergency.controller_of(target)
        if entity is player and player is not None and player.cash < REQUIRED_TOKEN_PRICE:
            return ["sell_shares"]
        return []

    def choices(self, entity: Any) -> list[Action]:
        target = pending(self.game)
        if target is None or not self.actions(entity):
            return []
        game = self.game
        if isinstance(entity, Player):
            if emergency.issuable_bundles(game, target, REQUIRED_TOKEN_PRICE):
                return []
            return [
                emergency.sale_action(entity, b)
                for b in emergency.player_bundles(game, entity, target)
            ]
        return [
            emergency.sale_action(entity, b)
            for b in emergency.issuable_bundles(game, target, REQUIRED_TOKEN_PRICE)
        ]

    def process_sell_shares(self, action: Action, entity: Any) -> None:
        game = self.game
        target = pending(game)
        if target is None:
            raise IllegalAction("no token money is missing", RULE)
        bundle = bundle_from_action(game, action)
        seller = bundle.owner
        if isinstance(entity, Player):
            own = entity is seller and entity is emergency.controller_of(target)
        else:
            own = entity is target and seller in emergency.chain_of_corps(target)
        if not own or not emergency.may_sell(game, target, bundle):
            raise IllegalAction(
                f"{getattr(seller, 'name', seller)} may not sell these shares now", RULE
            )
        emergency.sell(game, bundle, action)
        emergency.sweep(game, target, seller, REQUIRED_TOKEN_PRICE)
