"""A minimal game around one auction step: players with given cash, a few companies for sale,
the auction round, then an idle round that only shows who has priority."""

from __future__ import annotations

from typing import Any

import pytest
from boardless import BoardlessGame

from stellwerk.core.entities import Company, Player
from stellwerk.core.flow.base import Action, Round, Step
from stellwerk.core.flow.rounds import AuctionRound


class Idle(Step):
    """After the auction: the first player may pass; nothing else happens."""

    def actions(self, entity: Any) -> list[str]:
        return ["pass"] if entity is self.current_entity() else []


class AfterAuction(Round):
    name = "Round::After"
    kind = "after"

    def select_entities(self) -> list[Any]:
        return list(self.game.players)


class AuctionGame(BoardlessGame):
    """``cash`` per seat (player ids 1, 2, ...), ``items`` (sym, value) in auction order, and
    the step class with its options."""

    title = "auction-test"

    def __init__(
        self,
        cash: list[int],
        items: list[tuple[str, int]],
        step: type[Step],
        ids: list[Any] | None = None,
        bank: int = 10_000,
        **opts: Any,
    ) -> None:
        ids = ids or list(range(1, len(cash) + 1))
        super().__init__([(pid, f"P{pid}") for pid in ids], [], 0)
        for player, amount in zip(self.players, cash, strict=True):
            player.cash = amount
        self.bank.cash = bank
        self.companies = [Company(sym, sym, value, 0) for sym, value in items]
        self.step_spec = (step, opts)
        self.bought: list[tuple[Any, str, int]] = []
        self.round = self.new_auction_round()
        self.round.setup()

    def new_auction_round(self) -> Round:
        return AuctionRound(self, [self.step_spec])

    def new_stock_round(self) -> Round:
        return AfterAuction(self, [Idle])

    def after_buy_company(self, player: Player, company: Company, price: int) -> None:
        self.bought.append((player.id, company.sym, price))

    # -- test helpers -----------------------------------------------------------------------
    @property
    def step(self) -> Any:
        return self.round.steps[0]

    def p(self, pid: Any) -> Player:
        return self.player_by_id(pid)

    def do(self, pid: Any, kind: str, **fields: Any) -> None:
        action: Action = {"type": kind, "entity": pid, "entity_type": "player", **fields}
        self.process_action(action)

    def active(self) -> list[Any]:
        return [e.id for e in self.round.active_entities()]

    def cash(self) -> dict[Any, int]:
        return {p.id: p.cash for p in self.all_players}

    def owners(self) -> dict[str, Any]:
        return {c.sym: (c.owner.id if c.owner is not None else None) for c in self.companies}

    def order(self) -> list[Any]:
        return [p.id for p in self.players]

    def money(self) -> int:
        return self.bank.cash + sum(p.cash for p in self.all_players)

    def in_auction(self) -> bool:
        return isinstance(self.round, AuctionRound)


@pytest.fixture
def auction_game() -> type[AuctionGame]:
    """The minimal auction game class (see module docstring)."""
    return AuctionGame
