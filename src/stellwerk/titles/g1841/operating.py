"""1841's operating round (rules/1841.md 2.3): the order, the frozen corporations' turn, the
"operated" mark, and the steps in 18xx.games' order (2.3.2):

Bankrupt, Track, Destinate, Token, Route, Dividend, BuyToken, DiscardTrain, token emergency
money (18xx.games' TokenEmergencyMoney; non-blocking and before Decisions, so that its sales
are routed while the token question is open), Decisions (the pending questions of mergers,
the secession, token counts: 18xx.games' RemoveTokens, ChooseOption, BuyNewTokens), BuyTrain,
StartCorporation (home token and token purchase of a corporation started by another:
HomeToken), token emergency money again, blocking, for a duty outlasting the token question
(:class:`.token_emr.TokenEmergencyMoneyAfterPurchase`), corporate share trading
(:mod:`.corporate`), Merge, Transform.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Entity
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import (
    Action,
    CorporationStep,
    Round,
    act,
    announces_changes,
)
from stellwerk.core.flow.operating import (
    DiscardTrain,
    Dividend,
    Route,
    Token,
    Track,
)
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.titles.g1841 import frozen, tokens, track
from stellwerk.titles.g1841.bankruptcy import Bankrupt1841
from stellwerk.titles.g1841.corporate import CorporateShares
from stellwerk.titles.g1841.decisions import Decisions, ProcedureGame
from stellwerk.titles.g1841.merging_steps import MergeStep, TransformStep
from stellwerk.titles.g1841.stock import StartCorporation
from stellwerk.titles.g1841.token_emr import (
    TokenEmergencyMoney,
    TokenEmergencyMoneyAfterPurchase,
)
from stellwerk.titles.g1841.trains import BuyTrain1841

if TYPE_CHECKING:
    from stellwerk.core.game import Game
    from stellwerk.titles.g1841.decisions import DecidingGame

RULE_ORDER = "rules/1841.md 2.3.1"


class OperatingGame(ProcedureGame, Protocol):
    """What the long procedures use of the game, with the frozen states brought up to date
    before a turn and the off-board hexes: what this module uses of the game
    (rules/1841.md 2.3)."""

    def refresh_frozen(self, after: str = "") -> None: ...

    def offboard_hexes(self) -> frozenset[str]: ...


if TYPE_CHECKING:

    class OperatingStepGame(DecidingGame, OperatingGame):
        """The game of this module's steps (see :class:`.decisions.DecidingGame`): only a
        name for type checking."""


def new_operating_round(game: Game, round_num: int) -> Round[Entity]:
    """The operating round's steps in 18xx.games' order (rules/1841.md 2.3.2)."""
    return OperatingRound1841(
        game,
        [
            Bankrupt1841,
            Track1841,
            Destinate,
            Token1841,
            Route1841,
            Dividend,
            BuyToken,
            DiscardTrain,
            TokenEmergencyMoney,
            Decisions,
            BuyTrain1841,
            StartCorporation,
            TokenEmergencyMoneyAfterPurchase,
            CorporateShares,
            MergeStep,
            TransformStep,
        ],
        round_num,
    )


class OperatingRound1841(OperatingRound):
    """Floated corporations by price, column, row and stack position (rules/1841.md 2.3.1);
    those "done this round" (merged, transformed, newly formed) are skipped; a frozen
    corporation's turn is its frozen operation (2.3.10); a corporation counts as operated once
    its turn is over (2.3.9)."""

    game: OperatingStepGame

    def setup(self) -> None:
        self.game.changing()
        self.current_operator = None
        for corp in self.entities:
            for train in corp.trains:
                train.operated = False
        self.game.done_this_round.clear()
        if self.any_to_act():
            self.start_operating()

    def skip_entity(self, entity: Corporation) -> bool:
        return bool(entity.closed) or entity.sym in self.game.done_this_round

    def finished(self) -> bool:
        """Over when no step is active or nobody is left to operate (every corporation of
        the order closed or done this round), as in 18xx.games, whatever a procedure still
        asks: the next round drops those questions (``Game1841.drop_open_questions``,
        docs/architecture.md, defect H).  With
        :attr:`.Settings1841.round_waits_for_decisions` not while a procedure of the turn
        still asks (the :class:`Decisions` step): a merger or transformation then completes
        its share offers and token purchase in the turn (rules/1841.md 2.3.11, 2.3.12)."""
        if self.game.settings.round_waits_for_decisions and not self.game.finished:
            step = self.step_of(Decisions)
            if step is not None and step.active():
                return False
        return super().finished()

    @announces_changes
    def after_process(self, action: moves.Move, entity: Entity) -> None:
        if action.type == "message":
            return
        if self.active_step() is not None:
            return
        self.game.changing()
        self.end_of_turn(self.current_operator)
        if not self.game.finished:
            self.next_entity()

    def start_operating(self) -> None:
        game = self.game
        game.changing()
        if game.finished:
            return
        entity = self.entities[self.entity_index]
        if self.skip_entity(entity):
            self.next_entity()
            return
        # a purchase that ended the previous turn may have unfrozen this one: 18xx.games
        # updates the frozen states in the purchase itself (a selfplay game, seed 5,
        # action 1189: RATF buys IFAI's president's certificate from
        # the pool and IFAI, next in the order, operates normally)
        game.refresh_frozen()
        if frozen.is_frozen(game, entity):
            frozen.frozen_operation(game, entity)
            for step in self.steps:
                step.pass_()
        self.current_operator = entity
        self.skip_steps(settled=True)
        if not self.finished():
            return
        game.changing()
        self.end_of_turn(entity)
        self.next_entity()

    def end_of_turn(self, corp: Corporation | None) -> None:
        """The corporation's turn is over: it has operated, unless it is done this round
        (rules/1841.md 2.3.9); the game's end-of-turn checks follow."""
        if corp is None:
            return
        self.game.after_operating_turn(corp)


class Track1841(Track):
    """Tile lays (rules/1841.md 2.3.3): the allowance by railheads and phase, each lay from
    another base, no hex twice; the graph of the phase chosen at the start of the turn."""

    game: OperatingStepGame

    def setup(self) -> None:
        self.lays = 0
        self.turn = track.TurnLays()
        self.game.map.select_graph(self.game.phases.current.status)

    def lays_allowed(self, corp: Corporation) -> int:
        return track.lays_allowed(self.game, corp)

    def actions(self, entity: Entity) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        if entity.num_tokens <= 0 or self.lays >= self.lays_allowed(entity):
            return []
        return ["lay_tile", "pass"]

    def process_lay_tile(self, action: moves.LayTile, entity: Corporation) -> None:
        track.lay_tile(self.game, entity, action, self.turn)
        self.lays += 1


class Destinate(CorporationStep):
    """After the turn's lays: the off-boards the operator's graph newly reaches are recorded
    (``destination_connection``, an automatic action; the game end by off-boards reads them,
    rules/1841.md 1.4, 5.3)."""

    description = "Destinate"
    game: OperatingStepGame

    def laid(self) -> int:
        step = self.round.step_of(Track1841)
        return int(step.lays) if step is not None else 0

    def actions(self, entity: Entity) -> list[str]:
        if entity is not self.current_entity() or not self.laid():
            return []
        return ["destination_connection"]

    def new_connections(self, corp: Corporation) -> list[str]:
        """Off-board hexes the selected graph reaches that were not reached before."""
        game = self.game
        offboards = game.offboard_hexes()
        found: list[str] = []
        for hid, _ in sorted(game.map.selected.network(corp.sym).nodes):
            if hid in offboards and hid not in game.offboards_connected and hid not in found:
                found.append(hid)
        return found

    def auto_actions(self, entity: Entity) -> list[Action] | None:
        if not isinstance(entity, Corporation) or not self.actions(entity):
            return None
        return [act(entity, "destination_connection", hexes=self.new_connections(entity))]

    def choices(self, entity: Entity) -> list[Action]:
        return self.auto_actions(entity) or []

    def process_destination_connection(
        self, action: moves.DestinationConnection, entity: Corporation
    ) -> None:
        offboards = self.game.offboard_hexes()
        for hid in action.hexes or []:
            if hid in offboards:
                self.game.offboards_connected.add(str(hid))
        self.pass_()


class Token1841(Token):
    """One token per turn on the region graph (rules/1841.md 2.3.4)."""

    game: OperatingStepGame

    def actions(self, entity: Entity) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        return ["place_token", "pass"] if self.game.map.can_place_token(entity) else []


class Route1841(Route):
    """Run the trains that have not run this round (rules/1841.md 2.3.5); the route test is
    the selected graph's."""

    def actions(self, entity: Entity) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        if not any(not t.operated for t in entity.trains):
            return []
        if not self.game.route_info(entity)[0]:
            return []
        return ["run_routes"]


class BuyToken(CorporationStep):
    """Token acquisition (rules/1841.md 2.5): ``buy_token`` or ``pass`` while the corporation
    has an unplaced token and L.1; passed automatically when nothing is buyable."""

    description = "Buy a Token From Another Corporation"
    game: OperatingStepGame

    def setup(self) -> None:
        self.bought = False

    def actions(self, entity: Entity) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        if self.bought or self.game.map.unplaced_tokens(entity) <= 0 or entity.cash < 1:
            return []
        return ["buy_token", "pass"]

    def auto_actions(self, entity: Entity) -> list[Action] | None:
        if not isinstance(entity, Corporation) or not self.actions(entity):
            return None
        with self.game.looking_ahead():
            buyable = tokens.any_buyable(self.game, entity)
        return None if buyable else [act(entity, "pass")]

    def choices(self, entity: Entity) -> list[Action]:
        if not isinstance(entity, Corporation) or not self.actions(entity):
            return []
        out = [act(entity, "pass")]
        for city, slot in tokens.buy_choices(self.game, entity):
            for price in sorted({1, entity.cash}):
                out.append(act(entity, "buy_token", city=city, slot=slot, price=price))
        return out

    def price_space(self, entity: Entity, listed: Action) -> tuple[int, int]:
        """Any price from L.1 to the buyer's cash (rules/1841.md 2.5)."""
        return (1, int(entity.cash))

    def process_buy_token(self, action: moves.BuyToken, entity: Corporation) -> None:
        if self.bought:
            raise IllegalAction("one token purchase per turn", tokens.RULE_BUY)
        tokens.buy(self.game, entity, action)
        self.bought = True
