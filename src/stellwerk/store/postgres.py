"""The PostgreSQL backend: many games in one PostgreSQL database (psycopg 3), for a server
with several processes.

The SQL and the schema are ``SqlStore``'s and ``stellwerk.store.schema``'s, the same as
SQLite's; the dialect (``stellwerk.store.sqldb.PostgresDatabase``) makes every write one READ
COMMITTED transaction that first takes an advisory lock on the game's key, then reads and
checks the count, then writes.  So several processes (web servers, the CLI) on one database
stay correct: of two writes based on one count one wins, the other gets ``GameMovedOn``, and a
store's kept engine is used only when it is at the game read under the lock.  Reads are one
REPEATABLE READ snapshot.  Commits are durable as the server is configured (PostgreSQL's
default ``synchronous_commit = on``: a committed append survives a server crash).

psycopg is an optional dependency (``pip install stellwerk[postgres]``), imported only when a
``PostgresStore`` is opened, so SQLite users need nothing.  A lost connection (the server
restarted) is opened anew by the next call (``PostgresDatabase``); a call whose transaction
was cut off fails with the driver's error and wrote nothing or everything, as a commit does.
One store object is for one thread at a time (the web app runs every store call on one
thread): its transactions are statements on one connection.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from stellwerk.store.errors import StoreError
from stellwerk.store.log import EngineClass
from stellwerk.store.sql import SqlStore
from stellwerk.store.sqldb import PostgresDatabase

if TYPE_CHECKING:
    from psycopg.rows import TupleRow

URL_PREFIXES = ("postgresql://", "postgres://")
CONNECT_TIMEOUT_SECONDS = 10


def shown_url(url: str) -> str:
    """``url`` without its password, for error messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return urlunsplit(parts._replace(netloc=user + host))


def _require_psycopg() -> None:
    """psycopg is optional: without it, a ``StoreError`` says how to install it."""
    try:
        import psycopg  # noqa: F401
    except ImportError as error:
        raise StoreError("PostgreSQL needs psycopg: pip install 'stellwerk[postgres]'") from error


class PostgresStore(SqlStore):
    """Games in one PostgreSQL database, named by a libpq URL
    (``postgresql://user[:password]@host[:port]/dbname[?host=/socket/dir]``)."""

    def __init__(self, url: str, engine: EngineClass | None = None) -> None:
        self.url = url
        _require_psycopg()
        import psycopg

        def connect() -> psycopg.Connection[TupleRow]:
            return psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_SECONDS)

        try:
            connection = connect()
        except psycopg.Error as error:
            raise StoreError(f"{shown_url(url)}: {error}".strip()) from error
        try:
            super().__init__(PostgresDatabase(connection, connect), engine)
        except BaseException:
            connection.close()
            raise
