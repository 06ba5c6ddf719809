"""The SQLite backend: many games in one database file (stdlib ``sqlite3``).

The SQL is ``SqlStore``'s (``stellwerk.store.sql``); here only the connection.  Every write is
one ``BEGIN IMMEDIATE`` transaction: it takes the database's write lock first, then checks the
action count the write is based on, then writes.  The database runs in WAL mode (readers never
wait for the writer) with ``synchronous=FULL`` (a committed append survives a crash) and a busy
timeout (a writer waits for the lock instead of failing).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from stellwerk.store.errors import StoreError
from stellwerk.store.log import EngineClass
from stellwerk.store.sql import SqlStore
from stellwerk.store.sqldb import SqliteDatabase

BUSY_TIMEOUT_SECONDS = 60.0


class SqliteStore(SqlStore):
    """Games in one SQLite database file, under free-form string keys."""

    def __init__(self, path: str | os.PathLike[str], engine: EngineClass | None = None) -> None:
        self.path = Path(path)
        if not self.path.parent.is_dir():
            raise StoreError(f"folder {self.path.parent} does not exist")
        try:
            connection = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None
            )
            connection.execute("PRAGMA journal_mode = WAL")
            connection.execute("PRAGMA synchronous = FULL")
            connection.execute("PRAGMA foreign_keys = ON")
            super().__init__(SqliteDatabase(connection), engine)
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: {error}") from error

    @property
    def connection(self) -> sqlite3.Connection:
        """The store's own connection, for a front end whose tables live in the same file and
        whose writes must commit with the game's (``GameStore.extend``'s ``also``)."""
        db = self._db
        assert isinstance(db, SqliteDatabase)
        return db.connection
