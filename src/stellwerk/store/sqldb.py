"""One connection to an SQL database, in the dialect of its engine: SQLite or PostgreSQL.

The store's SQL (``stellwerk.store.sql``) and the migration runner (``stellwerk.store.schema``)
are written once, with ``?`` placeholders, and run through a ``Database``.  What differs
between the engines is only here:

* **placeholders**: SQLite takes ``?``, psycopg ``%s`` (our statements hold no literal ``?``
  or ``%``, so the PostgreSQL dialect rewrites one into the other);
* **transactions and locks**: a write transaction must be the only writer of what it touches
  from its first read on.  SQLite: ``BEGIN IMMEDIATE`` takes the database's write lock at once,
  so ``lock(name)`` has nothing left to do.  PostgreSQL: a write transaction runs in READ
  COMMITTED (each statement sees what was committed before it) and ``lock(name)`` takes a
  transaction-level advisory lock on the name (held until COMMIT or ROLLBACK, also released
  when the client dies), so a write that locks the game's key first and reads after sees every
  earlier writer's commit.  An advisory lock also covers a key that has no row yet (``create``)
  and the migrations (no tables yet).  A read transaction is REPEATABLE READ, READ ONLY: its
  statements see one snapshot (the game row, its actions and the cached view agree).
* **table lookup**: ``sqlite_master`` against ``information_schema.tables``.

The driver's connection runs in autocommit mode and the transactions are begun and ended with
explicit statements, in both dialects, so the code above reads the same for both.
"""

from __future__ import annotations

import sqlite3
import zlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import psycopg
    from psycopg.rows import TupleRow

SQLValue = int | float | str | bytes | None
"""A value the two drivers bind and return: our columns are integers and (JSON) text."""
Params = Sequence[SQLValue]
"""The parameters of one statement, in the order of its ``?`` placeholders."""
Row = tuple[SQLValue, ...]
LOCK_CLASS = 0x5354  # "ST": the first key of our advisory locks (the second hashes the name)


class Database(ABC):
    """A connection in one SQL dialect, with explicit transactions (module docstring)."""

    dialect: str

    @abstractmethod
    def run(self, sql: str, params: Params = ()) -> None:
        """Execute one statement."""

    @abstractmethod
    def rows(self, sql: str, params: Params = ()) -> list[Row]:
        """Execute one query and return all its rows."""

    @abstractmethod
    def run_many(self, sql: str, rows: Sequence[Params]) -> None:
        """Execute one statement once per parameter row."""

    @abstractmethod
    def begin(self, *, write: bool, lock: str | None = None) -> None:
        """Begin a transaction (a write one takes what lock the dialect needs at once) and
        take ``lock`` (``lock(name)``) before anything else."""

    @abstractmethod
    def lock(self, name: str) -> None:
        """Inside a write transaction: be the only writer holding ``name`` until it ends."""

    @abstractmethod
    def table_exists(self, table: str) -> bool:
        """Whether the database has a table of that name."""

    @abstractmethod
    def close(self) -> None:
        """Close the connection."""

    def one(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of a query, or ``None``."""
        found = self.rows(sql, params)
        return found[0] if found else None

    def commit(self) -> None:
        self.run("COMMIT")

    def rollback(self) -> None:
        self.run("ROLLBACK")

    @contextmanager
    def transaction(self, *, write: bool = True, lock: str | None = None) -> Iterator[None]:
        """One transaction, committed when the block ends and rolled back when it raises;
        ``lock`` names what a write transaction locks before anything else."""
        self.begin(write=write, lock=lock)
        try:
            yield
            self.commit()
        except BaseException:
            self.rollback()
            raise


class SqliteDatabase(Database):
    """An ``sqlite3`` connection (made with ``isolation_level=None``: we begin ourselves)."""

    dialect = "sqlite"

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def run(self, sql: str, params: Params = ()) -> None:
        self.connection.execute(sql, params)

    def rows(self, sql: str, params: Params = ()) -> list[Row]:
        return [tuple(row) for row in self.connection.execute(sql, params)]

    def run_many(self, sql: str, rows: Sequence[Params]) -> None:
        self.connection.executemany(sql, rows)

    def begin(self, *, write: bool, lock: str | None = None) -> None:
        """``BEGIN IMMEDIATE`` for a write (it holds the database: ``lock`` is implied)."""
        self.run("BEGIN IMMEDIATE" if write else "BEGIN")

    def lock(self, name: str) -> None:
        """Nothing: ``BEGIN IMMEDIATE`` already holds the whole database's write lock."""

    def table_exists(self, table: str) -> bool:
        query = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
        return self.one(query, (table,)) is not None

    def close(self) -> None:
        self.connection.close()


def lock_number(name: str) -> int:
    """The advisory lock's second key for ``name``: a stable signed 32-bit hash (CRC-32).
    Two names with one hash only wait for each other; they never share data."""
    value = zlib.crc32(name.encode("utf-8"))
    return value - (1 << 32) if value >= 1 << 31 else value


class PostgresDatabase(Database):
    """A psycopg 3 connection in autocommit mode (we begin ourselves).

    A server that restarts, or an idle connection the network dropped, breaks the connection;
    a long-running server must not fail on every later call.  So a statement *outside* a
    transaction (``BEGIN`` itself, the count and key reads) that fails because the connection
    broke is sent once more on a new connection (``connect``): nothing of ours ran on the old
    one.  Inside a transaction nothing is retried (a lost ``COMMIT`` may or may not have been
    committed): the call fails, the transaction is gone with the connection, and the next
    call reconnects."""

    dialect = "postgresql"

    def __init__(
        self,
        connection: psycopg.Connection[TupleRow],
        connect: Callable[[], psycopg.Connection[TupleRow]] | None = None,
    ) -> None:
        self.connection = connection
        self._connect = connect
        self._in_transaction = False

    @staticmethod
    def sql(text: str) -> str:
        """The statement with psycopg's placeholders."""
        return text.replace("?", "%s")

    def _reconnected(self, error: Exception) -> bool:
        """After ``error``: a new connection when the old one broke outside a transaction
        (then the statements are sent again), else ``False`` (the error stands)."""
        if self._in_transaction or self._connect is None or not self.connection.broken:
            return False
        self.connection.close()
        self.connection = self._connect()
        return True

    def _execute(self, sql: str, params: Params) -> list[Row]:
        import psycopg

        try:
            cursor = self.connection.execute(self.sql(sql), params)
        except psycopg.OperationalError as error:
            if not self._reconnected(error):
                raise
            cursor = self.connection.execute(self.sql(sql), params)
        return [tuple(row) for row in cursor] if cursor.description is not None else []

    def _send(self, statements: list[tuple[str, Params]]) -> None:
        """Statements without results in one round trip (psycopg's pipeline mode)."""
        with self.connection.pipeline():
            for sql, params in statements:
                self.connection.execute(self.sql(sql), params)

    def run(self, sql: str, params: Params = ()) -> None:
        self._execute(sql, params)

    def rows(self, sql: str, params: Params = ()) -> list[Row]:
        return self._execute(sql, params)

    def run_many(self, sql: str, rows: Sequence[Params]) -> None:
        with self.connection.cursor() as cursor:
            cursor.executemany(self.sql(sql), rows)

    def begin(self, *, write: bool, lock: str | None = None) -> None:
        """``BEGIN`` and the advisory lock in one round trip (the lock is its own statement,
        so the statements after it take their snapshots once it is held)."""
        import psycopg

        statements: list[tuple[str, Params]] = [(
            "BEGIN ISOLATION LEVEL READ COMMITTED" if write
            else "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", (),
        )]  # fmt: skip
        if lock is not None:
            statements.append(self._lock_statement(lock))
        try:
            self._send(statements)
        except psycopg.OperationalError as error:
            if not self._reconnected(error):
                raise
            self._send(statements)
        self._in_transaction = True

    def commit(self) -> None:
        try:
            self.run("COMMIT")
        finally:
            self._in_transaction = False

    def rollback(self) -> None:
        try:
            if not self.connection.broken:
                self.run("ROLLBACK")
        finally:
            self._in_transaction = False

    @staticmethod
    def _lock_statement(name: str) -> tuple[str, Params]:
        return "SELECT pg_advisory_xact_lock(?, ?)", (LOCK_CLASS, lock_number(name))

    def lock(self, name: str) -> None:
        """A transaction-level advisory lock on ``name`` (released at COMMIT/ROLLBACK)."""
        self.run(*self._lock_statement(name))

    def table_exists(self, table: str) -> bool:
        query = (
            "SELECT 1 FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_name = ?"
        )
        return self.one(query, (table,)) is not None

    def close(self) -> None:
        self.connection.close()


def as_database(connection: Database | sqlite3.Connection) -> Database:
    """A ``Database`` for a plain ``sqlite3`` connection (made with ``isolation_level=None``)."""
    return connection if isinstance(connection, Database) else SqliteDatabase(connection)
