"""The SQLite backend: many games in one database file (stdlib ``sqlite3``).

Every write is one ``BEGIN IMMEDIATE`` transaction: it takes the database's write lock first,
then checks the action count the write is based on, then writes, so of two writers based on the
same count exactly one wins and the other gets ``GameMovedOn``.  The database runs in WAL mode
(readers never wait for the writer) with ``synchronous=FULL`` (a committed append survives a
crash) and a busy timeout (a writer waits for the lock instead of failing).  A killed writer's
transaction is rolled back by SQLite, so the database holds the old or the new log.

The schema (``stellwerk.store.schema``) keeps the action log as the truth; ``export`` gives the
same game file dict the JSON backend would hold.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from stellwerk.store.base import Change, GameStore, StoredGame, View, check_base
from stellwerk.store.errors import GameExists, GameNotFound, StoreError
from stellwerk.store.log import EngineClass, GameData, actions_of
from stellwerk.store.schema import migrate

BUSY_TIMEOUT_SECONDS = 60.0
COLUMNS = ("title", "players", "settings")


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class SqliteStore(GameStore):
    """Games in one SQLite database file, under free-form string keys."""

    def __init__(self, path: str | os.PathLike[str], engine: EngineClass | None = None) -> None:
        super().__init__(engine)
        self.path = Path(path)
        if not self.path.parent.is_dir():
            raise StoreError(f"folder {self.path.parent} does not exist")
        try:
            self._db = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None
            )
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.execute("PRAGMA foreign_keys = ON")
            migrate(self._db)
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: {error}") from error

    def close(self) -> None:
        """Close the database connection."""
        self._db.close()

    @contextmanager
    def _transaction(self, *, write: bool = True) -> Iterator[sqlite3.Connection]:
        """One transaction; a write transaction holds the database's write lock from its
        start (``BEGIN IMMEDIATE``), a read one sees one committed state (WAL snapshot)."""
        self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            yield self._db
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    # -- reading ----------------------------------------------------------------------------
    def _count(self, key: str) -> int:
        row = self._db.execute(
            "SELECT (SELECT COUNT(*) FROM games WHERE key = ?), "
            "(SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_key = ?)",
            (key, key),
        ).fetchone()
        if not row[0]:
            raise GameNotFound(key)
        return int(row[1])

    def _read(self, key: str) -> GameData:
        """The game file dict, rebuilt in the file's key order (call inside a transaction)."""
        row = self._db.execute(
            "SELECT title, players, settings, metadata, key_order FROM games WHERE key = ?", (key,)
        ).fetchone()
        if row is None:
            raise GameNotFound(key)
        parts: dict[str, Any] = {
            "title": row[0],
            "players": json.loads(row[1]),
            "settings": json.loads(row[2]),
        }
        parts.update(json.loads(row[3]))
        parts["actions"] = [
            json.loads(text)
            for (text,) in self._db.execute(
                "SELECT action FROM actions WHERE game_key = ? ORDER BY seq", (key,)
            )
        ]
        order: list[str] = json.loads(row[4])
        data = {name: parts[name] for name in order if name in parts}
        data.update({name: value for name, value in parts.items() if name not in data})
        return data

    def load(self, key: str) -> StoredGame:
        """The stored game, with the cached view when it is for the current count."""
        with self._transaction(write=False):  # one consistent read of game, actions, cache
            data = self._read(key)
            row = self._db.execute(
                "SELECT action_count, view FROM state_cache WHERE game_key = ?", (key,)
            ).fetchone()
        count = len(actions_of(data))
        cached = json.loads(row[1]) if row is not None and row[0] == count else None
        return StoredGame(
            key,
            data,
            self.engine,
            cached_view=cached,
            remember_view=lambda view: self._remember(key, view),
            live=self.live_game(key, data),
        )

    def count(self, key: str) -> int:
        """The stored action count."""
        return self._count(key)

    def keys(self) -> list[str]:
        """Every game key, sorted."""
        return [key for (key,) in self._db.execute("SELECT key FROM games ORDER BY key")]

    def _remember(self, key: str, view: View) -> None:
        """Cache ``view`` unless the game moved on meanwhile (then it is stale already)."""
        with self._transaction():
            if self._count(key) == view.get("count"):
                self._db.execute(
                    "INSERT INTO state_cache (game_key, action_count, view) VALUES (?, ?, ?) "
                    "ON CONFLICT (game_key) DO UPDATE SET "
                    "action_count = excluded.action_count, view = excluded.view",
                    (key, view["count"], _dump(view)),
                )

    def annex_get(self, key: str, name: str) -> Any:
        """The annex value of ``key`` under ``name`` (``GameStore.annex_get``)."""
        with self._transaction(write=False):
            self._count(key)
            row = self._db.execute(
                "SELECT value FROM annex WHERE game_key = ? AND name = ?", (key, name)
            ).fetchone()
        return None if row is None else json.loads(row[0])

    def annex_put(self, key: str, name: str, value: Any) -> None:
        """Store an annex value (``GameStore.annex_put``), in one write transaction."""
        with self._transaction():
            self._count(key)
            self._db.execute(
                "INSERT INTO annex (game_key, name, value) VALUES (?, ?, ?) "
                "ON CONFLICT (game_key, name) DO UPDATE SET value = excluded.value",
                (key, name, _dump(value)),
            )

    # -- writing ----------------------------------------------------------------------------
    def _insert_game(self, key: str, data: GameData) -> None:
        metadata = {k: v for k, v in data.items() if k not in (*COLUMNS, "actions")}
        self._db.execute(
            "INSERT INTO games (key, title, players, settings, metadata, key_order) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                key,
                data["title"],
                _dump(data.get("players", [])),
                _dump(data.get("settings", {})),
                _dump(metadata),
                _dump(list(data)),
            ),
        )
        self._insert_actions(key, actions_of(data), 0)

    def _insert_actions(self, key: str, actions: list[dict[str, Any]], count: int) -> None:
        self._db.executemany(
            "INSERT INTO actions (game_key, seq, action) VALUES (?, ?, ?)",
            [(key, count + n, _dump(action)) for n, action in enumerate(actions, start=1)],
        )

    def create(self, key: str, data: GameData, *, force: bool = False) -> StoredGame:
        """Store a new game; ``GameExists`` unless ``force`` (which replaces the old one)."""
        game = self.engine.from_file(data)
        with self._transaction():
            exists = self._db.execute("SELECT 1 FROM games WHERE key = ?", (key,)).fetchone()
            if exists and not force:
                raise GameExists(key)
            self.forget_live(key)
            self._db.execute("DELETE FROM games WHERE key = ?", (key,))
            self._insert_game(key, data)
        live = self.keep_live(key, data, game)  # committed
        return StoredGame(key, data, self.engine, live=live)

    def _update(self, key: str, base: int, change: Change) -> StoredGame:
        with self._transaction():
            count = self._count(key)
            check_base(key, base, count)
            new, game = change(self._read(key))
            metadata = {k: v for k, v in new.items() if k not in (*COLUMNS, "actions")}
            self._db.execute(
                "UPDATE games SET metadata = ?, key_order = ? WHERE key = ?",
                (_dump(metadata), _dump(list(new)), key),
            )
            self.forget_live(key)  # kept again only once the transaction committed
            self._insert_actions(key, actions_of(new)[count:], count)
        live = self.keep_live(key, new, game)
        return StoredGame(
            key, new, self.engine, remember_view=lambda v: self._remember(key, v), live=live
        )
