"""The storage interface every front end uses: ``GameStore`` and ``StoredGame``.

Optimistic concurrency: every write names the action count it is *based on* (see
``stellwerk.store.log``).  Under the backend's exclusive lock the store compares it with the
stored count; if they differ the write is refused with ``GameMovedOn`` and nothing is written.
So two writers at once never lose an action silently: one wins, the other is told the game
moved on and may look again.  A refused action (``IllegalAction``) writes nothing either.

**Live engines.**  A store keeps, per key, the engine it last built or moved on (``LiveGame``)
together with a fingerprint of the game file it is at (``fingerprint``: action count, title,
players, settings and the last action).  A write checks, under the lock, that the stored game
still has that fingerprint; then the action is processed on the kept engine (one
``process``, no rebuild from the log), else the engine is rebuilt from the file just read
(another process wrote meanwhile, or the game was replaced).  A refused action leaves the kept
engine as it was (``Game.process`` restores it), any other failure drops it.  The game of a
``StoredGame`` is the store's engine while nobody moved it on; once the store processed a later
action on it, the ``StoredGame`` builds its own from its file.  Look at it, do not change it:
change a game through the store.
"""

from __future__ import annotations

import importlib
import json
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict, cast

from stellwerk.core.entities import EntityId
from stellwerk.core.errors import IllegalAction
from stellwerk.core.jsondata import JSONObject, JSONValue
from stellwerk.io.engine import EngineGame
from stellwerk.store.errors import GameMovedOn, StoreError
from stellwerk.store.log import (
    Action,
    EngineClass,
    GameData,
    action_count,
    actions_of,
    appended,
    controlled,
    record_outcome,
    with_actions,
)

if TYPE_CHECKING:
    from stellwerk.api import EntityId

Change = Callable[[GameData], tuple[GameData, EngineGame]]
"""What a write does to the game file read under the lock: the new file and the game after
it (``GameStore._change`` wraps the store's own changes into this shape)."""
LiveChange = Callable[[GameData, EngineGame | None], tuple[GameData, EngineGame]]
"""A change that may use the engine already at the file read (``None``: build one)."""

if TYPE_CHECKING:
    from stellwerk.io.snapshot import Snapshot


class View(TypedDict):
    """What a front end shows of a game at ``count`` actions (``game_view``); JSON."""

    count: int
    snapshot: Snapshot
    active: list[EntityId]
    deciders: list[JSONValue]
    legal: list[JSONObject]
    finished: bool
    result: dict[str, int]
    game_end_reason: str | None


def stored_view(value: JSONValue, count: int) -> View | None:
    """A view a backend cached (``game_view`` written as JSON by this package), when it is
    one for ``count`` actions; None otherwise (then it is computed again)."""
    if not isinstance(value, dict) or value.get("count") != count:
        return None
    if "legal" not in value or "deciders" not in value:  # cached before it had them
        return None
    return cast(View, value)  # written by game_view itself; the count names its state


def fingerprint(data: GameData) -> str:
    """What names the state of a stored game cheaply: the action count, the title, players
    and settings, and the last action, as JSON (so a file read back compares equal to the dict
    written).  The log only grows, so of two files of one game the count tells them apart;
    the rest tells a game replaced under the same key (``create(force=True)``) apart."""
    actions = actions_of(data)
    parts = [
        len(actions),
        data.get("title"),
        data.get("players"),
        data.get("settings"),
        actions[-1] if actions else None,
    ]
    return json.dumps(parts, sort_keys=True, default=str)


@dataclass
class LiveGame:
    """The engine a store keeps for one key, at the game file with ``mark``
    (:func:`fingerprint`).  ``moves`` counts the times the store changed it: a
    ``StoredGame`` handed the engine at one count knows it moved on."""

    mark: str
    game: EngineGame
    moves: int = 0


def api_engine() -> EngineClass:
    """``stellwerk.api.Game``, looked up at use (so tests can stand in a toy engine)."""
    engine: EngineClass = importlib.import_module("stellwerk.api").Game
    return engine


def game_view(game: EngineGame, count: int) -> View:
    """What a front end shows of a game at ``count`` actions; JSON-serialisable.
    ``deciders``: the player who decides for each of the ``active`` entities (a corporation's
    president or controller; None for nobody), so a list of games can say whose turn it is
    without rebuilding them."""
    active = game.active_entities()
    return {
        "count": count,
        "snapshot": game.snapshot(),
        "active": active,
        "deciders": [game.decider_of(entity) for entity in active],
        "legal": game.legal_actions(),
        "finished": game.finished,
        "result": game.result,
        "game_end_reason": game.game_end_reason,
    }


class StoredGame:
    """One stored game: its game file dict, its action count and (built on first use) the game.

    ``view()`` gives the state a front end shows; a backend may hand in a cached view for this
    count and a callback that remembers a freshly computed one.
    """

    def __init__(
        self,
        key: str,
        data: GameData,
        engine: EngineClass,
        game: EngineGame | None = None,
        *,
        cached_view: View | None = None,
        remember_view: Callable[[View], None] | None = None,
        live: LiveGame | None = None,
    ) -> None:
        self.key = key
        self.data = data
        self._engine = engine
        self._live = live
        self._moves = live.moves if live is not None else 0
        self._game = live.game if live is not None and game is None else game
        self._view = cached_view
        self._remember_view = remember_view

    @property
    def count(self) -> int:
        """The action count (raw actions, undo/redo/message included)."""
        return action_count(self.data)

    @property
    def game(self) -> EngineGame:
        """The game at this file: the store's live engine while the store has not moved it
        on, else rebuilt from the file (on first use)."""
        live = self._live
        if live is not None and live.moves != self._moves:
            self._live = None
            if self._game is live.game:
                self._game = None  # the store moved it on: build our own
        if self._game is None:
            self._game = self._engine.from_file(self.data)
        return self._game

    def view(self) -> View:
        """``game_view`` of this game, from the cache when it is for this count."""
        if self._view is None or self._view.get("count") != self.count:
            self._view = game_view(self.game, self.count)
            if self._remember_view is not None:
                self._remember_view(self._view)
        return self._view


class GameStore(ABC):
    """Games under string keys.  Backends: ``JsonFileStore`` (a key is a game file path) and
    ``SqliteStore`` (one database file).

    ``append``/``undo``/``redo`` return the ``StoredGame`` after the write (its ``count`` is the
    new action count) so a front end can show it without rebuilding the game.
    """

    kept_live = 64
    """At most this many kept engines (the most recently used); an older one is rebuilt from
    its file when next needed, so a server with many games keeps a bounded memory."""

    def __init__(self, engine: EngineClass | None = None) -> None:
        self._engine = engine
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        """The kept engine per key (module docstring, "Live engines")."""

    @property
    def engine(self) -> EngineClass:
        """The engine class that loads game files (default ``stellwerk.api.Game``)."""
        return self._engine if self._engine is not None else api_engine()

    # -- the backend's part -----------------------------------------------------------------
    @abstractmethod
    def create(self, key: str, data: GameData, *, force: bool = False) -> StoredGame:
        """Store a new game file dict under ``key``; ``GameExists`` unless ``force``.

        The file must load (``GameFileError`` otherwise); it is stored as given."""

    @abstractmethod
    def load(self, key: str) -> StoredGame:
        """The stored game; ``GameNotFound`` if there is none."""

    @abstractmethod
    def count(self, key: str) -> int:
        """The stored action count, without building the game; ``GameNotFound``."""

    @abstractmethod
    def keys(self) -> list[str]:
        """The keys of the stored games, sorted."""

    @abstractmethod
    def _update(self, key: str, base: int, change: Change) -> StoredGame:
        """Under the exclusive lock: read the game, raise ``GameMovedOn`` unless its count is
        ``base``, apply ``change`` and write its result; on any error write nothing."""

    def annex_get(self, key: str, name: str) -> JSONValue:
        """What a front end stored about game ``key`` under ``name`` (JSON-like), or ``None``;
        ``GameNotFound`` if there is no such game.  Never part of the game file."""
        raise StoreError(f"{type(self).__name__} keeps no data beside the game file")

    def annex_put(self, key: str, name: str, value: JSONValue) -> None:
        """Store ``value`` (JSON-serialisable) about game ``key`` under ``name``, replacing
        what was there; ``GameNotFound`` if there is no such game.  Not checked against the
        action count: annex data is the front end's, not the game's."""
        raise StoreError(f"{type(self).__name__} keeps no data beside the game file")

    def site_get(self, name: str) -> JSONValue:
        """What a front end stored about the whole store (not one game) under ``name``
        (JSON-like), or ``None``.  Never part of a game file."""
        raise StoreError(f"{type(self).__name__} keeps no data beside the game files")

    def site_setdefault(self, name: str, value: JSONValue) -> JSONValue:
        """The value stored under ``name`` (``site_get``); if there is none yet, store
        ``value`` first -- atomically, so of several processes doing this at once on one
        database all get the value of the first (as ``dict.setdefault``)."""
        raise StoreError(f"{type(self).__name__} keeps no data beside the game files")

    # -- live engines -----------------------------------------------------------------------
    def live_game(self, key: str, data: GameData) -> LiveGame | None:
        """The kept engine of ``key`` if it is at ``data`` (same :func:`fingerprint`); a kept
        engine at another state is dropped (it is rebuilt when next needed)."""
        live = self._live.get(key)
        if live is None:
            return None
        if live.mark != fingerprint(data):
            del self._live[key]
            return None
        self._live.move_to_end(key)
        return live

    def keep_live(self, key: str, data: GameData, game: EngineGame) -> LiveGame:
        """Keep ``game`` as the engine of ``key`` at ``data`` (call once ``data`` is stored)."""
        live = self._live.get(key)
        mark = fingerprint(data)
        if live is not None and live.game is game:
            live.mark = mark
        else:
            live = self._live[key] = LiveGame(mark, game)
        self._live.move_to_end(key)
        while len(self._live) > self.kept_live:
            self._live.popitem(last=False)
        return live

    def forget_live(self, key: str) -> None:
        """Drop the kept engine of ``key``."""
        self._live.pop(key, None)

    def _change(self, key: str, change: LiveChange) -> Change:
        """``change`` as a backend's :data:`Change`, given the kept engine when it is at the
        file read under the lock.  The engine is marked as moved before the change; a refused
        action (``IllegalAction``) leaves it as it was, so it stays kept; any other failure
        drops it."""

        def run(data: GameData) -> tuple[GameData, EngineGame]:
            live = self.live_game(key, data)
            if live is None:
                return change(data, None)
            live.moves += 1
            try:
                return change(data, live.game)
            except IllegalAction:
                live.moves -= 1  # refused: the engine is as it was
                raise
            except BaseException:
                self.forget_live(key)
                raise

        return run

    # -- shared -----------------------------------------------------------------------------
    def append(self, key: str, action: Action, base: int) -> StoredGame:
        """Append ``action``, based on ``base`` actions; ``IllegalAction`` if refused,
        ``GameMovedOn`` if the game holds another count.  The action is processed on the kept
        engine when it is at the stored game (module docstring)."""
        return self._update(
            key,
            base,
            self._change(key, lambda data, game: appended(self.engine, data, action, game)),
        )

    def undo(
        self,
        key: str,
        base: int,
        *,
        entity: EntityId | None = None,
        entity_type: str | None = None,
        action_id: int | None = None,
    ) -> StoredGame:
        """Append an ``undo`` (of the last action, or of everything after ``action_id``)."""
        return self._update(
            key,
            base,
            self._change(key, lambda data, game: controlled(
                self.engine, data, "undo", entity=entity, entity_type=entity_type,
                action_id=action_id, game=game,
            )),
        )  # fmt: skip

    def redo(
        self, key: str, base: int, *, entity: EntityId | None = None, entity_type: str | None = None
    ) -> StoredGame:
        """Append a ``redo`` of the most recent undo (common rules §3.4)."""
        return self._update(
            key,
            base,
            self._change(key, lambda data, game: controlled(
                self.engine, data, "redo", entity=entity, entity_type=entity_type, game=game
            )),
        )  # fmt: skip

    def extend(
        self, key: str, game: EngineGame, base: int, also: Callable[[int], None] | None = None
    ) -> StoredGame:
        """Write the actions ``game`` holds beyond the stored ones, based on ``base`` actions
        (``GameMovedOn`` otherwise): for a front end that applied many actions to a game in
        memory (the game master's processing), one write instead of one per action.  The
        stored record must be the start of the game's record (``StoreError`` otherwise).

        ``also(count)``: a front end's own writes that belong to this state of the game (the
        game master's orders and mail marks), called with the new action count inside the
        write; in an SQL store on the store's connection (``SqliteStore.connection``) they
        commit or roll back with the actions."""

        def change(data: GameData) -> tuple[GameData, EngineGame]:
            old = actions_of(data)
            new = actions_of(game.to_file())
            if new[: len(old)] != old:
                raise StoreError(f"{key}: the game's record does not continue the stored one")
            out = with_actions(data, new)
            record_outcome(out, game)
            if also is not None:
                also(len(new))
            return out, game

        return self._update(key, base, change)

    def export(self, key: str) -> GameData:
        """The game as an 18xx.games game file dict."""
        return self.load(key).data

    @abstractmethod
    def close(self) -> None:
        """Release what the backend holds open."""


def check_base(key: str, base: int, actual: int) -> None:
    """``GameMovedOn`` unless the stored count is the one the write is based on."""
    if base != actual:
        raise GameMovedOn(key, base, actual)
