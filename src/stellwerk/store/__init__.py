"""The game store: one storage interface for every front end (CLI, game master, web app).

``GameStore`` (``base.py``) loads a game, appends an action *based on a known action count*,
undoes and redoes; a write based on an old count raises ``GameMovedOn`` and writes nothing.
Backends: ``JsonFileStore`` (an 18xx.games game file per game), ``SqliteStore`` (one
database file for many games) and ``PostgresStore`` (one PostgreSQL database, for several
server processes; needs the ``postgres`` extra); the two SQL ones share ``SqlStore``.
``open_store`` picks one from a command line spec.
"""

from __future__ import annotations

from stellwerk.store.base import GameStore, StoredGame, game_view
from stellwerk.store.errors import GameExists, GameMovedOn, GameNotFound, StoreError
from stellwerk.store.jsonfile import JsonFileStore
from stellwerk.store.log import EngineClass, action_count, actions_of, players_of
from stellwerk.store.postgres import URL_PREFIXES, PostgresStore
from stellwerk.store.sql import SqlStore
from stellwerk.store.sqlite import SqliteStore

__all__ = [
    "GameExists",
    "GameMovedOn",
    "GameNotFound",
    "GameStore",
    "JsonFileStore",
    "PostgresStore",
    "SqlStore",
    "SqliteStore",
    "StoreError",
    "StoredGame",
    "action_count",
    "actions_of",
    "game_view",
    "open_store",
    "players_of",
]

SQLITE_PREFIX = "sqlite:///"
SQLITE_SUFFIXES = (".db", ".sqlite", ".sqlite3")


def open_store(spec: str | None, engine: EngineClass | None = None) -> GameStore:
    """The store a spec names: ``None`` the JSON files (keys are paths); ``sqlite:///PATH``
    (``sqlite:////abs/path`` for an absolute one, as SQLAlchemy writes it) or a plain path
    ending in ``.db``, ``.sqlite`` or ``.sqlite3`` an SQLite database; a
    ``postgresql://`` or ``postgres://`` URL (``postgresql://user@host:port/db``) a
    PostgreSQL database."""
    if spec is None:
        return JsonFileStore(engine=engine)
    if spec.startswith(URL_PREFIXES):
        return PostgresStore(spec, engine)
    if spec.startswith(SQLITE_PREFIX):
        return SqliteStore(spec[len(SQLITE_PREFIX) :], engine)
    if spec.endswith(SQLITE_SUFFIXES):
        return SqliteStore(spec, engine)
    raise StoreError(
        f"unknown store {spec!r}: give sqlite:///PATH, a path ending in .db "
        "or postgresql://user@host:port/db"
    )
