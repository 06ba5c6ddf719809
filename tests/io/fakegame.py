"""A tiny stand-in for ``stellwerk.api.Game`` used by the io, CLI and selfplay tests.

The "game": players take turns in seat order; each may ``take`` 10, 20 or 30 from the bank or
``pass``.  The game ends when the bank is empty; a player's result is their cash.  Snapshots use
the trace format's field names so the trace comparison can be exercised.
"""

from __future__ import annotations

import copy
from typing import Any

from stellwerk.core.errors import IllegalAction
from stellwerk.io.gamefile import build_game_file, load_game_file

BANK = 200
CHOICES = (10, 20, 30)


class FakeGame:
    """The public engine API over a toy game (same method names as ``stellwerk.api.Game``)."""

    def __init__(
        self, title: str, players: list[tuple[int | str, str]], options: list[str], seed: int
    ) -> None:
        self.title = title
        self.players = list(players)
        self.options = list(options)
        self.seed = seed
        self.actions: list[dict[str, Any]] = []
        self.bank = BANK
        self.cash = {pid: 0 for pid, _ in players}
        self.turn = 0

    @classmethod
    def create(
        cls,
        title: str,
        players: list[tuple[int | str, str]],
        options: list[str] | None = None,
        seed: int = 0,
    ) -> FakeGame:
        """A new game (``Game.create``)."""
        if title != "toy":
            raise IllegalAction(f"unknown title {title}", "fake")
        return cls(title, players, options or [], seed)

    @classmethod
    def from_file(cls, data: dict[str, Any]) -> FakeGame:
        """Load a game file, resolve undo/redo and apply the live actions."""
        gf = load_game_file(data)
        game = cls.create(gf.title, gf.players, gf.optional_rules, gf.seed)
        for action in gf.live:
            game.process(action)
        return game

    @property
    def finished(self) -> bool:
        """The bank is empty."""
        return self.bank <= 0

    @property
    def result(self) -> dict[str, int]:
        """Cash per player id, once finished."""
        return {str(pid): cash for pid, cash in self.cash.items()} if self.finished else {}

    @property
    def game_end_reason(self) -> str | None:
        """``bank`` once finished."""
        return "bank" if self.finished else None

    def decider_of(self, entity: Any) -> Any:
        """Players decide for themselves; there is nobody else."""
        return entity

    def active_entities(self) -> list[Any]:
        """The player whose turn it is."""
        if self.finished:
            return []
        return [self.players[self.turn % len(self.players)][0]]

    def legal_actions(
        self, hex_id: str | None = None, all_lays: bool = False
    ) -> list[dict[str, Any]]:
        """``pass`` and every affordable ``take``."""
        actions: list[dict[str, Any]] = []
        for pid in self.active_entities():
            actions.append({"type": "pass", "entity": pid, "entity_type": "player"})
            for amount in CHOICES:
                if amount <= self.bank:
                    actions.append(
                        {"type": "take", "entity": pid, "entity_type": "player", "amount": amount}
                    )
        return actions

    def _apply_one(self, action: dict[str, Any]) -> None:
        """Check and apply one action (no auto actions)."""
        if action.get("entity") not in self.active_entities():
            raise IllegalAction(f"{action.get('entity')} may not act now", "toy rules §1")
        if action["type"] == "take":
            amount = action.get("amount")
            if amount not in CHOICES or amount > self.bank:
                raise IllegalAction(f"cannot take {amount}", "toy rules §2")
            self.bank -= amount
            self.cash[action["entity"]] += amount
        elif action["type"] != "pass":
            raise IllegalAction(f"unknown action type {action['type']}", "toy rules §3")
        self.turn += 1

    def process(self, action: dict[str, Any], replay: bool = False) -> None:
        """Apply one action and its auto actions; on IllegalAction nothing changes."""
        saved = (self.bank, dict(self.cash), self.turn)
        try:
            for one in [action, *action.get("auto_actions", [])]:
                self._apply_one(one)
        except IllegalAction:
            self.bank, self.cash, self.turn = saved
            raise
        recorded = copy.deepcopy(action)
        recorded.setdefault("id", (self.actions[-1]["id"] if self.actions else 0) + 1)
        self.actions.append(recorded)

    def undo(self) -> None:
        """Drop the last action by replaying the others."""
        if not self.actions:
            raise IllegalAction("nothing to undo", "toy rules §4")
        fresh = FakeGame(self.title, self.players, self.options, self.seed)
        for action in self.actions[:-1]:
            fresh.process(action)
        self.__dict__.update(fresh.__dict__)

    def to_file(self) -> dict[str, Any]:
        """The game file of the processed actions."""
        return build_game_file(
            self.title,
            self.players,
            self.seed,
            self.options,
            self.actions,
            finished=self.finished,
            result=self.result,
            game_end_reason=self.game_end_reason,
        )

    def snapshot(self) -> dict[str, Any]:
        """The state in trace format."""
        return {
            "round": "Round::Toy",
            "turn": self.turn,
            "phase": "1",
            "active": self.active_entities(),
            "bank": self.bank,
            "players": [
                {"id": pid, "cash": self.cash[pid], "shares": {}, "companies": []}
                for pid, _ in self.players
            ],
            "corporations": [],
            "depot": {},
        }
