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

The step stands before the Decisions step and does not block; while the token question is
open it takes sales only when the sweep cannot pay the required token (18xx.games asks the
question first and lets the sweep pay; :meth:`TokenEmergencyMoney.active`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Entity, Player
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, CorporationStep
from stellwerk.titles.g1841 import emergency, raising
from stellwerk.titles.g1841.transform import REQUIRED_TOKEN_PRICE, Transform

if TYPE_CHECKING:
    from stellwerk.titles.g1841.decisions import DecidingGame, ProcedureGame

RULE = "rules/1841.md 2.3.12 (Token EMR)"


def pending(game: ProcedureGame) -> Corporation | None:
    """The transformed major that must still raise its required token's L.50, if any.

    Whether it must is decided once, when the transformation reaches its tokens
    (:meth:`.transform.Transformation.tokens` sets ``game.token_emr_due``: it must buy exactly
    one token and the cash of its chain up to the first seller, the controlling player's
    included, is below L.50).  The duty then lasts until a sale brings that cash to L.50 or
    the next corporation operates -- even after the token was bought with the sweep's money
    (18xx.games keeps its TokenEmergencyMoney step active so; its random game s14: CFCC
    buys the token, then sells a share)."""
    due = game.token_emr_due
    return game.corporation(due[0]) if due is not None else None


def amount_due(game: ProcedureGame) -> int:
    """The price the pending major must raise (L.50, rules/1841.md 2.3.12)."""
    due = game.token_emr_due
    return due[1] if due is not None else REQUIRED_TOKEN_PRICE


def raising_for(game: ProcedureGame, target: Corporation) -> raising.Raising:
    """The pending major's emergency money for its required token (rules/1841.md 2.3.12): the
    controlling player sells while his own cash is below it."""
    return raising.Raising(target.sym, amount_due(game), players_cash=True, cited=RULE)


class TokenEmergencyMoney(CorporationStep):
    """The major's and its controlling player's emergency sales for the required token."""

    description = "Token Emergency Money Raising"
    BLOCKS = False
    game: DecidingGame

    def active(self) -> bool:
        """While the token question is open, only when its required token cannot be paid
        even with the sweep up the chain (:func:`required_payable`): 18xx.games asks the
        question first (its BuyNewTokens step stands before TokenEmergencyMoney and
        blocks, so it refuses a sale then; selfplay seed 38, a selfplay game, action
        768), and lets the sweep pay.  When even the sweep is short its purchase fails and
        the game cannot go on there; the rules' token emergency money (rules/1841.md
        2.3.12, seed 000 item 2.5) then comes first here."""
        if pending(self.game) is None:
            return False
        return not (question_open(self.game) and required_payable(self.game))

    def active_entities(self) -> Sequence[Entity]:
        target = pending(self.game)
        return [target] if target is not None else []

    def setup(self) -> None:
        """A new operator: an unfulfilled token EMR duty ends (18xx.games' step setup)."""
        super().setup()
        self.game.token_emr_due = None

    def skip(self) -> None:
        """Never passed: it is active exactly while the money is missing."""

    def actions(self, entity: Entity) -> list[str]:
        target = pending(self.game)
        if target is None or not self.active():
            return []
        if entity is target:
            chain = emergency.issuable_bundles(self.game, target, amount_due(self.game))
            return ["sell_shares"] if chain else []
        player = emergency.controller_of(target)
        if entity is player and player is not None and player.cash < amount_due(self.game):
            return ["sell_shares"]
        return []

    def choices(self, entity: Entity) -> list[Action]:
        target = pending(self.game)
        if target is None or not self.actions(entity):
            return []
        return raising.offered(self.game, raising_for(self.game, target), entity)

    def process_sell_shares(self, action: moves.SellShares, entity: Player | Corporation) -> None:
        game = self.game
        target = pending(game)
        if target is None:
            raise IllegalAction("no token money is missing", RULE)
        amount = amount_due(game)
        raising.sell(game, raising_for(game, target), entity, action)
        if emergency.cash_before_selling(game, target, amount) >= amount:
            game.token_emr_due = None


def question_open(game: ProcedureGame) -> bool:
    """A transformation's token question is still to be answered."""
    return any(isinstance(p, Transform) and p.buying_tokens() for p in game.procedures)


def required_payable(game: ProcedureGame) -> bool:
    """The open token question offers its required token: the treasury or the sweep up the
    chain can pay it (:meth:`.transform.Transform.token_choices`)."""
    return any(
        isinstance(p, Transform) and p.buying_tokens() and p.token_min in p.token_choices(game)
        for p in game.procedures
    )


class TokenEmergencyMoneyAfterPurchase(TokenEmergencyMoney):
    """The duty once the token question is answered (the token bought with the sweep's
    money): now the step blocks the turn until the sale is made, as 18xx.games'
    TokenEmergencyMoney does after its token purchase step (rules/1841.md 2.3.12).  While the
    question is open, :class:`TokenEmergencyMoney` (non-blocking, before the Decisions step)
    takes the sales instead."""

    BLOCKS = True

    def active(self) -> bool:
        return pending(self.game) is not None and not question_open(self.game)

    def setup(self) -> None:
        """The duty is ended by :class:`TokenEmergencyMoney`'s setup."""
