"""The SQL store: many games in one database, the same SQL for SQLite and PostgreSQL.

``SqlStore`` holds every statement of the database backends; ``SqliteStore``
(``stellwerk.store.sqlite``) and ``PostgresStore`` (``stellwerk.store.postgres``) only open the
connection, in their dialect (``stellwerk.store.sqldb``: placeholders, transactions, locks).

Every write is one transaction that first locks the game's key (``Database.lock``: SQLite's
``BEGIN IMMEDIATE`` holds the whole database already, PostgreSQL takes an advisory lock on
the key), then reads the stored action count and checks the count the write is based on, then
writes: of two writers based on the same count exactly one wins and the other gets
``GameMovedOn``, whichever process or server each runs in.  The engine a store keeps
(``GameStore``, "Live engines") is used only when its fingerprint matches the game read under
that lock; a write by another process changes the fingerprint and the engine is rebuilt.  A
killed writer's transaction is rolled back by the database, so it holds the old or the new log.

The schema (``stellwerk.store.schema``) keeps the action log as the truth; ``export`` gives the
same game file dict the JSON backend would hold.
"""

from __future__ import annotations

import json

from stellwerk.core.jsondata import JSONObject, JSONValue, as_list, as_object, text
from stellwerk.store.base import Change, GameStore, StoredGame, View, check_base, stored_view
from stellwerk.store.errors import GameExists, GameNotFound, StoreError
from stellwerk.store.log import Action, EngineClass, GameData, actions_of
from stellwerk.store.schema import migrate
from stellwerk.store.sqldb import Database, SQLValue

COLUMNS = ("title", "players", "settings")


def _dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _text(value: SQLValue) -> str:
    """A text column's value (our JSON columns and keys); anything else is a corrupt row."""
    if not isinstance(value, str):
        raise StoreError(f"the database holds {value!r} where text belongs")
    return value


def _int(value: SQLValue) -> int:
    """An integer column's value (counts and sequence numbers)."""
    if not isinstance(value, int):
        raise StoreError(f"the database holds {value!r} where a number belongs")
    return value


def _json(value: SQLValue) -> JSONValue:
    """A JSON text column's value, parsed."""
    parsed: JSONValue = json.loads(_text(value))
    return parsed


def _object(value: SQLValue) -> JSONObject:
    """A JSON object column's value, parsed."""
    return as_object(_json(value), "a stored JSON column", StoreError)


class SqlStore(GameStore):
    """Games in one SQL database, under free-form string keys; the backends give the
    connection (``Database``) and this class migrates it to the latest schema."""

    def __init__(self, db: Database, engine: EngineClass | None = None) -> None:
        super().__init__(engine)
        self._db = db
        migrate(db)

    def close(self) -> None:
        """Close the database connection."""
        self._db.close()

    # -- reading ----------------------------------------------------------------------------
    def _count(self, key: str) -> int:
        row = self._db.one(
            "SELECT (SELECT COUNT(*) FROM games WHERE key = ?), "
            "(SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_key = ?)",
            (key, key),
        )
        if row is None or not row[0]:
            raise GameNotFound(key)
        return _int(row[1])

    def _read(self, key: str) -> GameData:
        """The game file dict, rebuilt in the file's key order (call inside a transaction)."""
        row = self._db.one(
            "SELECT title, players, settings, metadata, key_order FROM games WHERE key = ?", (key,)
        )
        if row is None:
            raise GameNotFound(key)
        parts: JSONObject = {
            "title": _text(row[0]),
            "players": _json(row[1]),
            "settings": _json(row[2]),
        }
        parts.update(_object(row[3]))
        parts["actions"] = [
            _json(text)
            for (text,) in self._db.rows(
                "SELECT action FROM actions WHERE game_key = ? ORDER BY seq", (key,)
            )
        ]
        order = [str(name) for name in as_list(_json(row[4]), "key_order", StoreError)]
        data = {name: parts[name] for name in order if name in parts}
        data.update({name: value for name, value in parts.items() if name not in data})
        return data

    def load(self, key: str) -> StoredGame:
        """The stored game, with the cached view when it is for the current count."""
        with self._db.transaction(write=False):  # one consistent read of game, actions, cache
            data = self._read(key)
            row = self._db.one(
                "SELECT action_count, view FROM state_cache WHERE game_key = ?", (key,)
            )
        count = len(actions_of(data))
        cached = stored_view(_json(row[1]), count) if row is not None and row[0] == count else None
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
        """Every game key, sorted by code point (in Python: a server's collation may differ)."""
        return sorted(_text(key) for (key,) in self._db.rows("SELECT key FROM games"))

    def _remember(self, key: str, view: View) -> None:
        """Cache ``view`` unless the game moved on meanwhile (then it is stale already)."""
        with self._db.transaction(lock=key):
            if self._count(key) == view.get("count"):
                self._db.run(
                    "INSERT INTO state_cache (game_key, action_count, view) VALUES (?, ?, ?) "
                    "ON CONFLICT (game_key) DO UPDATE SET "
                    "action_count = excluded.action_count, view = excluded.view",
                    (key, view["count"], _dump(view)),
                )

    def annex_get(self, key: str, name: str) -> JSONValue:
        """The annex value of ``key`` under ``name`` (``GameStore.annex_get``)."""
        with self._db.transaction(write=False):
            self._count(key)
            row = self._db.one(
                "SELECT value FROM annex WHERE game_key = ? AND name = ?", (key, name)
            )
        return None if row is None else _json(row[0])

    def annex_put(self, key: str, name: str, value: JSONValue) -> None:
        """Store an annex value (``GameStore.annex_put``), in one write transaction."""
        with self._db.transaction(lock=key):
            self._count(key)
            self._db.run(
                "INSERT INTO annex (game_key, name, value) VALUES (?, ?, ?) "
                "ON CONFLICT (game_key, name) DO UPDATE SET value = excluded.value",
                (key, name, _dump(value)),
            )

    def site_get(self, name: str) -> JSONValue:
        """The store-wide value under ``name`` (``GameStore.site_get``)."""
        with self._db.transaction(write=False):
            row = self._db.one("SELECT value FROM site WHERE name = ?", (name,))
        return None if row is None else _json(row[0])

    def site_setdefault(self, name: str, value: JSONValue) -> JSONValue:
        """``GameStore.site_setdefault``: one write transaction locked on the name; the
        insert does nothing when a value is there, and the value read after it is the
        first writer's."""
        with self._db.transaction(lock=f"site {name}"):
            self._db.run(
                "INSERT INTO site (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                (name, _dump(value)),
            )
            row = self._db.one("SELECT value FROM site WHERE name = ?", (name,))
        assert row is not None
        return _json(row[0])

    # -- writing ----------------------------------------------------------------------------
    def _insert_game(self, key: str, data: GameData) -> None:
        metadata = {k: v for k, v in data.items() if k not in (*COLUMNS, "actions")}
        self._db.run(
            "INSERT INTO games (key, title, players, settings, metadata, key_order) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                key,
                text(data, "title", StoreError),
                _dump(data.get("players", [])),
                _dump(data.get("settings", {})),
                _dump(metadata),
                _dump(list(data)),
            ),
        )
        self._insert_actions(key, actions_of(data), 0)

    def _insert_actions(self, key: str, actions: list[Action], count: int) -> None:
        self._db.run_many(
            "INSERT INTO actions (game_key, seq, action) VALUES (?, ?, ?)",
            [(key, count + n, _dump(action)) for n, action in enumerate(actions, start=1)],
        )

    def create(self, key: str, data: GameData, *, force: bool = False) -> StoredGame:
        """Store a new game; ``GameExists`` unless ``force`` (which replaces the old one)."""
        game = self.engine.from_file(data)
        with self._db.transaction(lock=key):
            exists = self._db.one("SELECT 1 FROM games WHERE key = ?", (key,))
            if exists and not force:
                raise GameExists(key)
            self.forget_live(key)
            self._db.run("DELETE FROM games WHERE key = ?", (key,))
            self._insert_game(key, data)
        live = self.keep_live(key, data, game)  # committed
        return StoredGame(key, data, self.engine, live=live)

    def _update(self, key: str, base: int, change: Change) -> StoredGame:
        with self._db.transaction(lock=key):
            data = self._read(key)  # GameNotFound; the count is its number of actions
            count = len(actions_of(data))
            check_base(key, base, count)
            new, game = change(data)
            metadata = {k: v for k, v in new.items() if k not in (*COLUMNS, "actions")}
            self._db.run(
                "UPDATE games SET metadata = ?, key_order = ? WHERE key = ?",
                (_dump(metadata), _dump(list(new)), key),
            )
            self.forget_live(key)  # kept again only once the transaction committed
            self._insert_actions(key, actions_of(new)[count:], count)
        live = self.keep_live(key, new, game)
        return StoredGame(
            key, new, self.engine, remember_view=lambda v: self._remember(key, v), live=live
        )
