"""The public engine API: create, load, act, undo, save, look (docs/architecture.md).

A game is a function of title, players, options, seed and its action log.  ``process``
either applies an action completely or raises :class:`IllegalAction` and leaves the game
exactly as before: a refused action and an undo restore the nearest engine checkpoint (kept
every few actions, see :mod:`stellwerk.checkpoints`) and replay the few actions after it.
"""

from __future__ import annotations

import copy
from typing import Any

from stellwerk.checkpoints import Checkpoints
from stellwerk.core.errors import EngineError, GameFileError, IllegalAction
from stellwerk.core.game import Game as CoreGame
from stellwerk.titles.registry import title_class

__all__ = ["EngineError", "Game", "GameFileError", "IllegalAction"]


class Game:
    """One game in progress."""

    def __init__(
        self,
        title: str,
        players: list[tuple[int | str, str]],
        options: list[str],
        seed: int,
        game_id: int | str | None = None,
    ) -> None:
        self.title = title
        self.players = [(pid, name) for pid, name in players]
        self.options = list(options)
        self.seed = seed
        self.game_id = game_id
        self.actions: list[dict[str, Any]] = []
        self.checkpoints = Checkpoints()
        self.engine: CoreGame = self._fresh()

    def _fresh(self) -> CoreGame:
        cls = title_class(self.title)
        return cls(self.players, self.options, self.seed)

    # -- construction -----------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        title: str,
        players: list[tuple[int | str, str]],
        options: list[str] | None = None,
        seed: int = 0,
    ) -> Game:
        """A new game."""
        return cls(title, players, list(options or []), seed)

    @classmethod
    def from_file(cls, data: dict[str, Any]) -> Game:
        """Load an 18xx.games game file: resolve undo/redo and apply every live action.
        A refused action is reported as a :class:`GameFileError` naming the action."""
        from stellwerk.io.gamefile import load_game_file

        gf = load_game_file(data)
        game = cls(gf.title, gf.players, gf.optional_rules, gf.seed, data.get("id"))
        game.engine.loading = True
        # one checkpoint near the end: what an undo or a refused next action needs
        every = game.checkpoints.every
        kept = (len(gf.live) - 1) // every * every
        for action in gf.live:
            try:
                game.engine.process_action(action)
            except IllegalAction as error:
                raise GameFileError(str(error), action.get("id")) from error
            game.actions.append(action)
            if len(game.actions) == kept:
                game._checkpoint()
        game.engine.loading = False
        return game

    # -- acting -----------------------------------------------------------------------------
    def process(self, action: dict[str, Any], replay: bool = False) -> None:
        """Apply one action.  Refused: IllegalAction, and the game is unchanged.

        Live play (default): the server's automatic follow-ups are derived and stored in the
        action's ``auto_actions``.  ``replay=True`` (loading a game file): the recorded
        ``auto_actions`` are applied as given and nothing is derived (common rules §3.5), and
        the checks the reference engine skips while loading are skipped too.
        """
        action = dict(action)
        action.setdefault(
            "id", (self.actions[-1].get("id", len(self.actions)) + 1) if self.actions else 1
        )
        if not replay:
            action.pop("auto_actions", None)
        self.engine.loading = replay
        try:
            self.engine.process_action(action)
            autos = [] if replay else self._auto_actions()
            if autos:
                action["auto_actions"] = autos
        except IllegalAction:
            self.engine = self._rebuild(self.actions)
            raise
        except Exception as error:
            self.engine = self._rebuild(self.actions)
            raise EngineError(f"{type(error).__name__}: {error}", action) from error
        self.actions.append(action)
        if not replay:
            self._checkpoint()

    def _auto_actions(self) -> list[dict[str, Any]]:
        """Run the server's automatic follow-ups and return them for the game file."""
        autos: list[dict[str, Any]] = []
        for _ in range(100):
            if self.engine.finished:
                break
            with self.engine.looking_ahead():
                batch = self.engine.round.auto_actions()
            if not batch:
                break
            for auto in batch:
                self.engine.process_single(auto)
            autos.extend(batch)
        return autos

    def _checkpoint(self) -> None:
        """Save the engine now and then (every ``checkpoints.every`` actions)."""
        if self.checkpoints.due(len(self.actions)):
            self.checkpoints.save(len(self.actions), self.engine)

    def _rebuild(self, actions: list[dict[str, Any]]) -> CoreGame:
        """The engine after ``actions`` (a prefix of this game's log): the nearest checkpoint
        and the few actions after it, never the engine in hand (a refused action may have
        changed it half-way)."""
        return self.checkpoints.restore(actions, self._fresh)

    def undo(self) -> None:
        """Take back the last action: restore the state before it from a checkpoint."""
        if not self.actions:
            raise IllegalAction("nothing to undo", "common rules §3.4")
        self.actions.pop()
        self.engine = self._rebuild(self.actions)

    # -- looking ----------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.engine.finished

    @property
    def result(self) -> dict[str, int]:
        return self.engine.result() if self.engine.finished else {}

    @property
    def game_end_reason(self) -> str | None:
        return self.engine.game_end_reason

    def active_entities(self) -> list[Any]:
        return [_entity_id(e) for e in self.engine.round.active_entities()]

    def snapshot(self) -> dict[str, Any]:
        from stellwerk.io.snapshot import snapshot

        return snapshot(self.engine)

    def legal_actions(
        self, hex_id: str | None = None, all_lays: bool = False
    ) -> list[dict[str, Any]]:
        """What the entities that may act now can send.  Tile lays are listed for ``hex_id``
        on request, or for every hex with ``all_lays``."""
        from stellwerk.core.legal import legal_actions

        with self.engine.looking_ahead():
            return legal_actions(self.engine, hex_id, all_lays)

    def to_file(self) -> dict[str, Any]:
        """The 18xx.games game file of this game."""
        out: dict[str, Any] = {
            "id": self.game_id or self.seed,
            "title": self.title,
            "players": [{"id": pid, "name": name} for pid, name in self.players],
            "settings": {"seed": self.seed, "optional_rules": list(self.options)},
            "actions": copy.deepcopy(self.actions),
        }
        if self.finished:
            out["status"] = "finished"
            out["result"] = self.result
            out["game_end_reason"] = self.game_end_reason
        return out


def _entity_id(entity: Any) -> Any:
    if hasattr(entity, "id") and not hasattr(entity, "sym"):
        return entity.id
    return getattr(entity, "sym", entity)
