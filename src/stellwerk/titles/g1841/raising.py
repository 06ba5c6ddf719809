"""1841's emergency money as a procedure of the core kind (rules/1841.md 2.3.7; the token
emergency money 2.3.12, seed 000 item 2.5): who sells now, and one sale as the transition.

Emergency money is a part of the operating turn (the train step, :mod:`.trains`; the token
emergency money, :mod:`.token_emr`), not a queued procedure: where it stands follows from the
game -- the cash of the buyer's chain and what each of them may sell -- so its stage is
derived (:meth:`Raising.stage`), never kept.  The stages:

* :class:`ChainSelling` -- rules/1841.md 2.3.7 item 1: the first corporation of the buyer's
  chain that, counting the chain's cash so far, still needs money and has a legal bundle
  sells (:func:`.emergency.issuable_bundles`; the action's entity is the buyer);
* :class:`PlayerSelling` -- 2.3.7 item 2: no corporation of the chain has a legal bundle and
  the money is still short: the controlling player sells any bundle
  :func:`.emergency.may_sell` allows;
* :class:`Covered` -- the money is there (or nobody is asked): asks nothing.

Which money is short: for a train, the chain's cash up to its first seller is below the
cheapest depot train (:func:`.emergency.cash_before_issuing`); for the token emergency money,
the controlling player's own cash is below the required token's L.50 (``players_cash``; what
18xx.games' TokenEmergencyMoney step offers him).

The answer is one sale (:class:`Sale`).  :meth:`Raising.verify` checks it without changing
anything: the seller belongs to the buyer's chain (answered by the buyer) or is the
controlling player (answered by himself), and :func:`.emergency.may_sell` allows the bundle.
It does not hold the sale to the stage: a recorded sale by the controlling player is taken
whenever the corporation must raise money, as 18xx.games takes it (its files replay so); the
live gate takes only what the stage lists.  :meth:`Raising.advance` sells at half price
(:func:`.emergency.sell`), brings the frozen states up to date and sweeps the owners' cash to
the buyer up to the seller (:func:`.emergency.sweep`); the next stage follows from the game.
Bankruptcy is the end of the road (:mod:`.bankruptcy`), offered from :class:`PlayerSelling`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Player
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action
from stellwerk.core.flow.stock import bundle_from_action
from stellwerk.core.procedure import Machine, drive
from stellwerk.core.shares import Bundle
from stellwerk.titles.g1841 import emergency

if TYPE_CHECKING:
    from stellwerk.titles.g1841.decisions import DecidingGame

RULE = emergency.RULE


@dataclass(frozen=True)
class ChainSelling:
    """A corporation of the buyer's chain sells (rules/1841.md 2.3.7 item 1): ``seller``, the
    first that still needs money and has a legal bundle; ``bundles``, its legal bundles as
    found for the stage (not part of the stage's identity), so its question need not look for
    them again."""

    seller: str
    bundles: tuple[Bundle, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class PlayerSelling:
    """The controlling player sells (rules/1841.md 2.3.7 item 2): ``player`` (his id)."""

    player: int | str


@dataclass(frozen=True)
class Covered:
    """Nobody is asked to sell: the money is there, or no player controls the buyer."""


RaisingStage = ChainSelling | PlayerSelling | Covered
"""Where emergency money stands (derived from the game, :meth:`Raising.stage`)."""


@dataclass(frozen=True)
class Sale:
    """An emergency sale: ``action`` answered by ``entity`` (the buyer for its chain, the
    controlling player for himself)."""

    entity: Player | Corporation
    action: moves.SellShares


@dataclass(frozen=True)
class Raising(Machine["DecidingGame", RaisingStage, Sale, list[Action]]):
    """The rules of ``buyer``'s emergency money for ``needed`` (rules/1841.md 2.3.7):
    ``players_cash`` -- the player's turn is judged by his own cash (the token emergency
    money, 2.3.12) rather than by the chain's; ``cited`` the rule a refusal names.  Its
    question is the list of sales offered."""

    buyer: str
    needed: int
    players_cash: bool = False
    cited: str = RULE

    rule = RULE
    stages = (ChainSelling, PlayerSelling, Covered)

    def stage(self, game: DecidingGame) -> RaisingStage:
        """Where the money stands now (changes nothing): the chain's first seller, else the
        controlling player while the money is short, else covered."""
        buyer = game.corporation(self.buyer)
        bundles = emergency.issuable_bundles(game, buyer, self.needed)
        if bundles:
            owner = bundles[0].owner
            assert isinstance(owner, Corporation)
            return ChainSelling(owner.sym, tuple(bundles))
        player = emergency.controller_of(buyer)
        if player is not None and self.short(game, buyer, player):
            return PlayerSelling(player.id)
        return Covered()

    def short(self, game: DecidingGame, buyer: Corporation, player: Player) -> bool:
        """Whether the money is short for the controlling player's sales (see the module)."""
        if self.players_cash:
            return player.cash < self.needed
        return emergency.cash_before_issuing(game, buyer, self.needed) < self.needed

    def question(self, game: DecidingGame, stage: RaisingStage) -> list[Action] | None:
        """The sales offered: the chain's as 18xx.games' corporation buttons send them
        (:func:`.emergency.issue_actions`), or every bundle the player may sell."""
        buyer = game.corporation(self.buyer)
        if isinstance(stage, ChainSelling):
            bundles = list(stage.bundles) or emergency.issuable_bundles(game, buyer, self.needed)
            return emergency.issue_actions(game, buyer, buyer, bundles)
        if isinstance(stage, PlayerSelling):
            player = game.player_by_id(stage.player)
            return [
                emergency.sale_action(player, b)
                for b in emergency.player_bundles(game, player, buyer)
            ]
        return None

    def verify(self, game: DecidingGame, stage: RaisingStage, answer: Sale) -> IllegalAction | None:
        """Why the sale cannot be taken (changes nothing): certificates not of one
        corporation and owner, a seller outside the buyer's chain (or not the answering
        player), a bundle :func:`.emergency.may_sell` refuses (rules/1841.md 2.3.7)."""
        buyer = game.corporation(self.buyer)
        try:
            bundle = bundle_from_action(game, answer.action)
        except IllegalAction as refused:
            return refused
        seller = bundle.owner
        entity = answer.entity
        if isinstance(entity, Player):
            own = entity is seller and entity is emergency.controller_of(buyer)
        else:
            own = entity is buyer and seller in emergency.chain_of_corps(buyer)
        if not own or not emergency.may_sell(game, buyer, bundle):
            name = getattr(seller, "name", seller)
            return IllegalAction(f"{name} may not sell these shares now", self.cited)
        return None

    def advance(self, game: DecidingGame, stage: RaisingStage, answer: Sale) -> RaisingStage:
        """The sale at half price, the frozen states brought up to date, the sweep up to the
        seller (rules/1841.md 2.3.7); the next stage as the game now stands."""
        bundle = bundle_from_action(game, answer.action)
        seller = bundle.owner
        emergency.sell(game, bundle, answer.action)
        game.trade_updates_frozen()
        emergency.sweep(game, game.corporation(self.buyer), seller, self.needed)
        return self.stage(game)


def sell(game: DecidingGame, machine: Raising, entity: Player | Corporation,
         action: moves.SellShares) -> RaisingStage:  # fmt: skip
    """Take one emergency sale through the machine (:func:`~stellwerk.core.procedure.drive`:
    verified first, a refusal raised with nothing changed)."""
    stage = drive(machine, game, machine.stage(game), Sale(entity, action))
    assert stage is not None
    return stage


def offered(game: DecidingGame, machine: Raising, entity: object) -> list[Action]:
    """The sales offered to ``entity`` now: the stage's question when it is the one who
    answers it (the buyer for its chain, the controlling player for himself), else none."""
    stage = machine.stage(game)
    if isinstance(stage, ChainSelling) and entity is game.corporation(machine.buyer):
        return machine.question(game, stage) or []
    if isinstance(stage, PlayerSelling) and entity is game.player_by_id(stage.player):
        return machine.question(game, stage) or []
    return []
