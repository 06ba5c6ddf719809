"""The PostgreSQL backend's own part (stellwerk/store/postgres.py, sqldb.py, schema.py): the
URL, the schema and its migrations on PostgreSQL, the advisory lock, the cached view and the
errors.  The behaviour every backend shares is in test_store_backends.py."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

import psycopg
import pytest
from click.testing import CliRunner
from fakegame import FakeGame
from storehelp import pass_of, toy_file

from stellwerk.cli.common import EXIT_MOVED_ON
from stellwerk.cli.main import main
from stellwerk.gm import gmstore
from stellwerk.store import PostgresStore, StoreError, open_store
from stellwerk.store.postgres import shown_url
from stellwerk.store.schema import LATEST, MIGRATIONS, migrate, schema_version
from stellwerk.store.sqldb import PostgresDatabase, lock_number


def connect(url: str) -> PostgresDatabase:
    return PostgresDatabase(psycopg.connect(url, autocommit=True))


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
def test_open_store_picks_postgres_for_its_urls(postgres_url: str, scheme: str) -> None:
    url = postgres_url.replace("postgresql://", f"{scheme}://", 1)
    store = open_store(url, engine=FakeGame)
    assert isinstance(store, PostgresStore)
    store.create("k", toy_file())
    assert store.keys() == ["k"]
    store.close()


def test_a_new_database_gets_every_table_and_the_latest_version(postgres_url: str) -> None:
    """The one schema of schema.py, created by the shared migration runner."""
    PostgresStore(postgres_url, engine=FakeGame).close()
    db = connect(postgres_url)
    assert schema_version(db) == LATEST
    for table in ("games", "actions", "state_cache", "annex", "site", "schema_version"):
        assert db.table_exists(table), table
    db.close()


def test_migrating_twice_changes_nothing(postgres_url: str) -> None:
    store = PostgresStore(postgres_url, engine=FakeGame)
    store.create("k", toy_file())
    store.close()
    db = connect(postgres_url)
    assert migrate(db) == LATEST
    assert db.one("SELECT COUNT(*) FROM schema_version") == (1,)
    db.close()
    assert PostgresStore(postgres_url, engine=FakeGame).keys() == ["k"]


def test_a_database_from_a_newer_version_is_refused(postgres_url: str) -> None:
    PostgresStore(postgres_url, engine=FakeGame).close()
    db = connect(postgres_url)
    db.run("UPDATE schema_version SET version = ?", (LATEST + 1,))
    db.close()
    with pytest.raises(StoreError, match="schema version"):
        PostgresStore(postgres_url, engine=FakeGame)


def test_an_old_database_is_migrated_step_by_step(postgres_url: str) -> None:
    """A database at version 1 (no annex) gets step 2 and keeps its games."""
    db = connect(postgres_url)
    from stellwerk.store.schema import run_migrations

    assert run_migrations(db, "schema_version", MIGRATIONS[:1], "the database") == 1
    assert not db.table_exists("annex")
    db.close()
    store = PostgresStore(postgres_url, engine=FakeGame)
    store.create("k", toy_file())
    store.annex_put("k", "seats", ["A"])
    assert store.annex_get("k", "seats") == ["A"]
    store.close()


def test_a_failed_migration_step_leaves_the_old_schema(postgres_url: str) -> None:
    """PostgreSQL's DDL is transactional: a step that fails takes its tables and its version
    bump with it."""
    db = connect(postgres_url)
    broken = [*MIGRATIONS, (LATEST + 1, ["CREATE TABLE extra (x INTEGER)", "SELECT nonsense"])]
    from stellwerk.store.schema import run_migrations

    with pytest.raises(psycopg.Error):
        run_migrations(db, "schema_version", broken, "the database")
    assert schema_version(db) == 0 and not db.table_exists("games")
    assert not db.table_exists("extra")
    db.close()


def test_the_gm_tables_migrate_on_postgres_with_the_same_runner(postgres_url: str) -> None:
    db = connect(postgres_url)
    assert gmstore.migrate(db) == gmstore.LATEST
    assert db.table_exists("gm_games") and db.table_exists("gm_schema_version")
    assert gmstore.migrate(db) == gmstore.LATEST
    db.close()


def test_processes_starting_at_once_migrate_once(postgres_url: str) -> None:
    """Several stores opening a new database at the same moment: the migration runner's
    advisory lock lets one create the tables; the others find them (no duplicate-table
    error, one version row)."""
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def open_one() -> None:
        try:
            start.wait()
            PostgresStore(postgres_url, engine=FakeGame).close()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    db = connect(postgres_url)
    assert db.one("SELECT COUNT(*) FROM schema_version") == (1,)
    db.close()


def test_a_writer_waits_for_the_lock_of_the_game(postgres_url: str) -> None:
    """While another connection holds the advisory lock of a game's key, an append waits;
    it then sees that connection's commit (here: nothing changed, so it succeeds), and the
    lock of another key does not hold it up."""
    store = PostgresStore(postgres_url, engine=FakeGame)
    store.create("k", toy_file())
    store.create("other", toy_file())
    holder = connect(postgres_url)
    holder.begin(write=True)
    holder.lock("k")
    store.append("other", pass_of(1), 0)  # another key: not held up
    done = threading.Event()

    def append() -> None:
        store.append("k", pass_of(1), 0)
        done.set()

    thread = threading.Thread(target=append)
    thread.start()
    assert not done.wait(0.5), "the append did not wait for the game's lock"
    holder.commit()
    thread.join(30)
    assert done.is_set() and store.count("k") == 1
    holder.close()
    store.close()


def test_the_cached_view_is_used_only_for_its_count(postgres_url: str) -> None:
    """The cache is an optimisation: a view for another count is ignored (schema.py)."""
    store = PostgresStore(postgres_url, engine=FakeGame)
    store.create("k", toy_file())
    assert store.load("k").view()["active"] == [1]
    db = connect(postgres_url)
    row = db.one("SELECT action_count, view FROM state_cache")
    assert row is not None and row[0] == 0
    db.run("UPDATE state_cache SET view = ?", (row[1].replace('"active":[1]', '"active":["c"]'),))
    db.close()
    assert store.load("k").view()["active"] == ["c"]
    store.append("k", pass_of(1), 0)
    assert store.load("k").view()["active"] == [2]
    store.close()


def test_a_server_that_is_not_there_is_a_store_error_without_the_password(
    postgres_server: Any,
) -> None:
    url = f"postgresql://someone:secret@127.0.0.1:{postgres_server.port}/no_such_database"
    with pytest.raises(StoreError) as caught:
        PostgresStore(url, engine=FakeGame)
    assert "secret" not in str(caught.value) and "***" in str(caught.value)


def test_shown_url_hides_only_the_password() -> None:
    assert shown_url("postgresql://u:pw@h:5/db") == "postgresql://u:***@h:5/db"
    assert shown_url("postgresql://u@h/db") == "postgresql://u@h/db"


def test_without_psycopg_the_error_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import fails
    with pytest.raises(StoreError, match=r"stellwerk\[postgres\]"):
        PostgresStore("postgresql://u@127.0.0.1:1/db")


def test_lock_numbers_are_stable_signed_32_bit() -> None:
    """The advisory lock's key must be the same in every process (no per-process hash seed)
    and fit PostgreSQL's int4."""
    numbers = [lock_number(name) for name in ("game.json", "k", "ü" * 50, "")]
    assert numbers == [lock_number(name) for name in ("game.json", "k", "ü" * 50, "")]
    assert all(-(2**31) <= n < 2**31 for n in numbers)
    assert len(set(numbers)) == len(numbers)


def test_the_command_line_plays_in_a_postgres_database(
    postgres_url: str, fake_api: type, tmp_path: Path
) -> None:
    """``--db postgresql://...`` works for every store command (open_store), and a write
    based on an old count exits 3 (moved on) and writes nothing."""

    def run(*args: str) -> Any:
        return CliRunner().invoke(main, list(args))

    made = run("new", "toy", "--players", "Ann,Bob", "--seed", "7", "-o", "first",
               "--db", postgres_url)  # fmt: skip
    assert made.exit_code == 0, made.output
    assert run("act", "first", '{"type": "pass", "entity": 1}', "--db", postgres_url).exit_code == 0
    shown = run("show", "first", "--db", postgres_url)
    assert shown.exit_code == 0 and "To act: 2" in shown.output
    pass_2 = '{"type": "pass", "entity": 2}'
    stale = run("act", "first", pass_2, "--base", "0", "--db", postgres_url)
    assert stale.exit_code == EXIT_MOVED_ON
    out = tmp_path / "first.json"
    assert run("export", "first", "--db", postgres_url, "-o", str(out)).exit_code == 0
    assert [a["type"] for a in json.loads(out.read_text())["actions"]] == ["pass"]


def test_a_store_reconnects_after_its_connection_was_cut(postgres_url: str) -> None:
    """A server restart (here: the server ends the store's session) must not break every
    later call of a long-running server: the next call connects anew, and a write based on
    the stored count then succeeds (postgres.py; sqldb.PostgresDatabase)."""
    store = PostgresStore(postgres_url, engine=FakeGame)
    store.create("k", toy_file())
    admin = connect(postgres_url)

    def cut() -> None:
        pid = store._db.connection.info.backend_pid  # type: ignore[attr-defined]
        assert admin.one("SELECT pg_terminate_backend(?)", (pid,)) == (True,)

    cut()
    assert store.append("k", pass_of(1), 0).count == 1  # BEGIN on a new connection
    cut()
    assert store.count("k") == 1 and store.keys() == ["k"]
    cut()
    assert store.load("k").count == 1
    admin.close()
    store.close()
