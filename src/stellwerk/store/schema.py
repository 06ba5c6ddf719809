"""The SQL schema of the database backend and its migrations.

The action log is the truth: ``actions`` holds every raw action of a game in order (``seq``
1, 2, ... is its position, so the action count is ``MAX(seq)``).  ``games`` holds what else the
game file says: ``title``, ``players`` and ``settings`` as columns (JSON text where
structured), every other top-level key in ``metadata`` (JSON object) and the file's key order
in ``key_order`` so an export gives back the same file.  ``state_cache`` holds a computed view
(snapshot, who acts, legal actions) *for one action count*; it is an optimisation only, ignored
whenever its count is not the game's count.  ``annex`` holds what a front end keeps about a
game besides its file (JSON text under a name per game; dropped with the game); ``site`` what
a front end keeps about the whole store (JSON text under a name, e.g. the web app's secret).

Plain SQL types (TEXT, INTEGER) and statements both SQLite and PostgreSQL run as written, so
both backends (``SqliteStore``, ``PostgresStore``) have this one schema and these migrations.
``schema_version`` holds one row; ``migrate`` brings any older database up to ``LATEST``, one
numbered step at a time, each in the same transaction as its version bump.
"""

from __future__ import annotations

import sqlite3

from stellwerk.store.errors import StoreError
from stellwerk.store.sqldb import Database, as_database

MIGRATIONS: list[tuple[int, list[str]]] = [
    (
        1,
        [
            """CREATE TABLE games (
                key TEXT PRIMARY KEY,
                title TEXT NOT NULL,
                players TEXT NOT NULL,
                settings TEXT NOT NULL,
                metadata TEXT NOT NULL,
                key_order TEXT NOT NULL
            )""",
            """CREATE TABLE actions (
                game_key TEXT NOT NULL REFERENCES games (key) ON DELETE CASCADE,
                seq INTEGER NOT NULL,
                action TEXT NOT NULL,
                PRIMARY KEY (game_key, seq)
            )""",
            """CREATE TABLE state_cache (
                game_key TEXT PRIMARY KEY REFERENCES games (key) ON DELETE CASCADE,
                action_count INTEGER NOT NULL,
                view TEXT NOT NULL
            )""",
        ],
    ),
    (
        2,
        [
            # a front end's own data about a game (the web app's seats and their secret links,
            # ...): JSON text under a name, never part of the game file (``GameStore.annex_*``)
            """CREATE TABLE annex (
                game_key TEXT NOT NULL REFERENCES games (key) ON DELETE CASCADE,
                name TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (game_key, name)
            )""",
        ],
    ),
    (
        3,
        [
            # what a front end keeps about the whole store rather than one game (the web
            # app's form-signing secret, shared by every server process on the database):
            # JSON text under a name, never part of any game file (``GameStore.site_*``)
            """CREATE TABLE site (
                name TEXT PRIMARY KEY,
                value TEXT NOT NULL
            )""",
        ],
    ),
]
LATEST = MIGRATIONS[-1][0]


def schema_version(connection: Database | sqlite3.Connection) -> int:
    """The database's schema version (0 for a new, empty database)."""
    db = as_database(connection)
    if not db.table_exists("schema_version"):
        return 0
    found = db.one("SELECT MAX(version) FROM schema_version")
    return int(found[0] or 0) if found else 0


def migrate(connection: Database | sqlite3.Connection) -> int:
    """Bring the schema up to ``LATEST`` (in one write transaction per call); a database from
    a newer stellwerk is refused.  Returns the version now in place."""
    return run_migrations(connection, "schema_version", MIGRATIONS, "the database")


def run_migrations(
    connection: Database | sqlite3.Connection,
    version_table: str,
    migrations: list[tuple[int, list[str]]],
    what: str,
) -> int:
    """Apply the numbered ``migrations`` newer than the version in ``version_table`` (one row),
    all in one write transaction that first locks the version table's name (SQLite: ``BEGIN
    IMMEDIATE``; PostgreSQL: an advisory lock, so two processes starting at once do not both
    create the tables; its DDL is transactional, so a failed step leaves the old schema); a
    newer version than the last step is refused (``what`` names the schema in that error).
    Returns the version now in place.  The store's schema and the GM's tables
    (``stellwerk.gm.gmstore``) are migrated by this one runner, on either dialect."""
    db = as_database(connection)
    latest = migrations[-1][0]
    with db.transaction(lock=f"migrations of {version_table}"):
        db.run(f"CREATE TABLE IF NOT EXISTS {version_table} (version INTEGER NOT NULL)")
        found = db.one(f"SELECT MAX(version) FROM {version_table}")
        version = int(found[0] or 0) if found else 0
        if version > latest:
            raise StoreError(
                f"{what} has schema version {version}; this stellwerk knows up to {latest}"
            )
        for number, statements in migrations:
            if number <= version:
                continue
            for statement in statements:
                db.run(statement)
            db.run(f"DELETE FROM {version_table}")
            db.run(f"INSERT INTO {version_table} (version) VALUES (?)", (number,))
            version = number
    return version
