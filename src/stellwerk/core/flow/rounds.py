"""The three generic round kinds: auction, stock and operating (common rules §6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Entity, Player
from stellwerk.core.flow.base import Round, StepSpec, announces_changes

if TYPE_CHECKING:
    from stellwerk.core.game import Game


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class AuctionRound(Round[Player]):
    name = "Round::Auction"
    kind = "auction"

    def select_entities(self) -> list[Player]:
        return list(self.game.players)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class StockRound(Round[Player]):
    """Players in priority order until all pass in a row; end-of-round price moves."""

    name = "Round::Stock"
    kind = "stock"

    def select_entities(self) -> list[Player]:
        return [p for p in self.game.players if not p.bankrupt]

    def setup(self) -> None:
        self.game.changing()
        self.game.hooks_stock_round_setup(self)
        self.skip_steps(settled=True)
        if self.active_step() is None:
            self.game.changing()
            self.next_entity()

    @announces_changes
    def after_process(self, action: moves.Move, entity: Entity) -> None:
        if self.active_step() is not None:
            return
        self.game.changing()
        self.next_entity()

    def finished(self) -> bool:
        return self.game.finished or all(p.passed for p in self.entities)

    def next_entity(self) -> None:
        self.game.changing()
        if self.finished():
            self.next_entity_index()
            self.finish_round()
            return
        self.next_entity_index()
        self.start_entity()

    def start_entity(self) -> None:
        self.game.changing()
        self.game.hooks_stock_turn_start(self)
        for step in self.steps:
            step.unpass()
        for step in self.steps:
            step.setup()
        self.skip_steps(settled=True)
        if self.active_step() is None:
            self.game.changing()
            self.next_entity()

    def finish_round(self) -> None:
        """End of the stock round: the end-of-round price moves, in operating order (common
        rules §6.5)."""
        game = self.game
        corps = sorted(
            (c for c in game.corporations if c.floated and c.share_price is not None),
            key=lambda c: c.sort_key(),
        )
        for corp in corps:
            self.end_of_round_price(corp)

    def end_of_round_price(self, corp: Corporation) -> None:
        """Hook: a sold-out corporation (every certificate with holders that may preside)
        rises, shares in the pool push the price down (common rules §6.5)."""
        if self.game.sold_out(corp):
            self.game.move_price(corp, "up")
        if corp.market_percent() > 0:
            self.game.move_price(corp, "down")


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class OperatingRound(Round[Corporation]):
    """Floated corporations in operating order; each runs through the steps once."""

    name = "Round::Operating"
    kind = "operating"

    def __init__(self, game: Game, step_classes: list[StepSpec], round_num: int = 1) -> None:
        self.current_operator: Corporation | None = None
        super().__init__(game, step_classes, round_num)

    def select_entities(self) -> list[Corporation]:
        return self.game.operating_order()

    def setup(self) -> None:
        self.game.changing()
        self.current_operator = None
        self.game.payout_companies()
        for corp in self.entities:
            for train in corp.trains:
                train.operated = False
        if self.any_to_act():
            self.start_operating()

    def skip_entity(self, entity: Corporation) -> bool:
        return bool(entity.closed)

    def any_to_act(self) -> bool:
        skip = self.skip_entity
        for entity in self.entities:  # noqa: SIM110 (a loop: asked after every action)
            if not skip(entity):
                return True
        return False

    @announces_changes
    def after_process(self, action: moves.Move, entity: Entity) -> None:
        if action.type == "message":
            return
        if self.active_step() is not None:
            current = self.entities[self.entity_index]
            if current.owner is not None:
                return
        self.game.changing()
        if not self.game.finished:
            self.next_entity()

    def next_entity(self) -> None:
        self.game.changing()
        if self.game.hooks_before_next_operator(self):
            return
        if self.entity_index == len(self.entities) - 1:
            return
        self.next_entity_index()
        if self.skip_entity(self.entities[self.entity_index]):
            self.next_entity()
            return
        for step in self.steps:
            step.unpass()
        for step in self.steps:
            step.setup()
        self.start_operating()

    def start_operating(self) -> None:
        self.game.changing()
        entity = self.entities[self.entity_index]
        if self.skip_entity(entity):
            self.next_entity()
            return
        self.current_operator = entity
        self.skip_steps(settled=True)
        if not self.finished():
            return  # left settled: the caller returns (callers that go on call changing)
        self.game.changing()
        self.next_entity()

    def recalculate_order(self) -> None:
        """Re-sort the corporations that have not yet operated (after emergency sales)."""
        done = self.entities[: self.entity_index + 1]
        rest = self.entities[self.entity_index + 1 :]
        order = [c for c in self.game.operating_order() if c in rest]
        self.entities = done + order

    def finished(self) -> bool:
        done = super().finished() or not self.any_to_act()
        if done and self.current_operator is not None:
            self.game.changing()
            self.current_operator = None
        return done
