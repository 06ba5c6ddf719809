"""The GM's own tables, in the same SQLite database as the games.

The game's record stays the store's (``stellwerk.store.SqliteStore``: tables ``games`` and
``actions``; programmed standing orders are actions there).  What is not part of an
18xx.games game file lives here: the players' addresses and languages and the action count of
their last report, the deadline, the pending orders, our own standing orders, the answers,
the GM log (firings, cancellations, draws, corrections) and the mails seen.

A separate schema with its own version table (``gm_schema_version``), migrated like
``stellwerk.store.schema``: numbered steps, each in the transaction of its version bump.
Structured values are JSON text; player ids are stored as JSON (they may be numbers or text).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import TypedDict

from stellwerk.core.entities import PlayerId
from stellwerk.core.jsondata import JSONObject, JSONValue, as_object, ident, is_int, objects
from stellwerk.store.errors import StoreError
from stellwerk.store.schema import run_migrations
from stellwerk.store.sqldb import Database

MIGRATIONS: list[tuple[int, list[str]]] = [
    (
        1,
        [
            """CREATE TABLE gm_games (
                key TEXT PRIMARY KEY,
                deadline TEXT,
                settings TEXT NOT NULL
            )""",
            """CREATE TABLE gm_players (
                game_key TEXT NOT NULL REFERENCES gm_games (key) ON DELETE CASCADE,
                player TEXT NOT NULL,
                name TEXT NOT NULL,
                address TEXT NOT NULL,
                lang TEXT NOT NULL,
                reported INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (game_key, player)
            )""",
            """CREATE TABLE gm_state (
                game_key TEXT NOT NULL REFERENCES gm_games (key) ON DELETE CASCADE,
                part TEXT NOT NULL,
                data TEXT NOT NULL,
                PRIMARY KEY (game_key, part)
            )""",
            """CREATE TABLE gm_mails (
                game_key TEXT NOT NULL,
                message_id TEXT NOT NULL,
                sender TEXT NOT NULL,
                status TEXT NOT NULL,
                PRIMARY KEY (game_key, message_id)
            )""",
        ],
    ),
]
LATEST = MIGRATIONS[-1][0]


def migrate(db: Database | sqlite3.Connection) -> int:
    """Bring the GM tables up to ``LATEST`` in one transaction; a newer schema is refused."""
    return run_migrations(db, "gm_schema_version", MIGRATIONS, "the GM tables")


class GMPlayer(TypedDict):
    """A player of a GM game: the engine's id, name, address, language, and the id of the
    last action his last report covered."""

    player: PlayerId
    name: str
    address: str
    lang: str
    reported: int


def _player_id(text: str) -> PlayerId:
    """A player id as stored (JSON text: a number or a string)."""
    return ident({"player": json.loads(text)}, "player", StoreError)


class GMTables:
    """Reading and writing the GM tables of one database file."""

    def __init__(self, where: str | Path | sqlite3.Connection) -> None:
        """The tables in the database file ``where``, on a connection of their own, or on
        the open connection ``where`` (the game store's, so that the GM's state commits in
        the same transaction as the game's actions; made with ``isolation_level=None``)."""
        self._own = not isinstance(where, sqlite3.Connection)
        if isinstance(where, sqlite3.Connection):
            self.db = where
        else:
            self.db = sqlite3.connect(str(where), timeout=60.0, isolation_level=None)
        self.db.execute("PRAGMA foreign_keys = ON")
        migrate(self.db)

    def close(self) -> None:
        """Close the connection if it is the tables' own."""
        if self._own:
            self.db.close()

    def begin(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def commit(self) -> None:
        self.db.execute("COMMIT")

    def rollback(self) -> None:
        self.db.execute("ROLLBACK")

    # -- games and players ----------------------------------------------------------------
    def add_game(self, key: str, settings: JSONObject, deadline: str | None) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO gm_games (key, deadline, settings) VALUES (?, ?, ?)",
            (key, deadline, json.dumps(settings)),
        )

    def has_game(self, key: str) -> bool:
        found = self.db.execute("SELECT 1 FROM gm_games WHERE key = ?", (key,)).fetchone()
        return found is not None

    def games(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT key FROM gm_games ORDER BY key")]

    def game(self, key: str) -> tuple[str | None, JSONObject]:
        row = self.db.execute(
            "SELECT deadline, settings FROM gm_games WHERE key = ?", (key,)
        ).fetchone()
        if row is None:
            raise StoreError(f"no GM game {key!r}")
        return row[0], as_object(json.loads(row[1]), "the GM game's settings", StoreError)

    def set_deadline(self, key: str, deadline: str | None) -> None:
        self.db.execute("UPDATE gm_games SET deadline = ? WHERE key = ?", (deadline, key))

    def add_player(self, key: str, player: PlayerId, name: str, address: str, lang: str) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO gm_players (game_key, player, name, address, lang, reported)"
            " VALUES (?, ?, ?, ?, ?, 0)",
            (key, json.dumps(player), name, address, lang),
        )

    def players(self, key: str) -> list[GMPlayer]:
        rows = self.db.execute(
            "SELECT player, name, address, lang, reported FROM gm_players WHERE game_key = ?"
            " ORDER BY rowid",
            (key,),
        )
        return [
            GMPlayer(player=_player_id(r[0]), name=r[1], address=r[2], lang=r[3],
                     reported=r[4])
            for r in rows
        ]  # fmt: skip

    def set_reported(self, key: str, player: PlayerId, count: int) -> None:
        self.db.execute(
            "UPDATE gm_players SET reported = ? WHERE game_key = ? AND player = ?",
            (count, key, json.dumps(player)),
        )

    # -- state parts (pending orders, standing orders, answers, GM log) --------------------
    def part(self, key: str, part: str, default: JSONValue = None) -> JSONValue:
        """The stored value of ``part`` (JSON), ``default`` when there is none."""
        row = self.db.execute(
            "SELECT data FROM gm_state WHERE game_key = ? AND part = ?", (key, part)
        ).fetchone()
        if row is None:
            return default
        value: JSONValue = json.loads(row[0])
        return value

    def number(self, key: str, part: str) -> int | None:
        """A part holding a number (``count``, ``next_order_id``), None when there is none."""
        value = self.part(key, part)
        if value is not None and not is_int(value):
            raise StoreError(f"{key}: the GM part {part!r} is not a number: {value!r}")
        return value

    def records(self, key: str, part: str) -> list[JSONObject]:
        """A part holding a list of objects (pending and standing orders, answers, log)."""
        return objects(self.part(key, part, []), f"the GM part {part!r}", StoreError)

    def texts(self, key: str, part: str) -> list[str]:
        """A part holding a list of texts (``corrections``)."""
        value = self.part(key, part, [])
        if not isinstance(value, list):
            raise StoreError(f"{key}: the GM part {part!r} is not a list")
        return [str(item) for item in value]

    def counts(self, key: str, part: str) -> dict[str, int]:
        """A part mapping names to numbers (how far each player's reports went)."""
        value = as_object(self.part(key, part, {}), f"the GM part {part!r}", StoreError)
        return {name: int(count) for name, count in value.items() if is_int(count)}

    def notes(self, key: str, part: str) -> dict[str, str]:
        """A part mapping names to texts (the reports not sent, with the reason)."""
        value = as_object(self.part(key, part, {}), f"the GM part {part!r}", StoreError)
        return {name: str(note) for name, note in value.items()}

    def set_part(self, key: str, part: str, data: JSONValue) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO gm_state (game_key, part, data) VALUES (?, ?, ?)",
            (key, part, json.dumps(data, ensure_ascii=False)),
        )

    # -- mails --------------------------------------------------------------------------------
    def seen(self, key: str, message_id: str) -> bool:
        return (
            self.db.execute(
                "SELECT 1 FROM gm_mails WHERE game_key = ? AND message_id = ?", (key, message_id)
            ).fetchone()
            is not None
        )

    def mark_mail(self, key: str, message_id: str, sender: str, status: str) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO gm_mails (game_key, message_id, sender, status)"
            " VALUES (?, ?, ?, ?)",
            (key, message_id, sender, status),
        )
