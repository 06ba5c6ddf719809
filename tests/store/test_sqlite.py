"""The SQLite backend: schema versions, the cached view, import/export
(stellwerk/store/sqlite.py, stellwerk/store/schema.py)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from fakegame import FakeGame
from storehelp import pass_of, toy_file

from stellwerk.store import SqliteStore, StoreError, open_store
from stellwerk.store.schema import LATEST, migrate, schema_version


def test_a_new_database_has_the_latest_schema_and_wal(tmp_path: Path) -> None:
    SqliteStore(tmp_path / "g.db", engine=FakeGame).close()
    with sqlite3.connect(tmp_path / "g.db") as db:
        assert schema_version(db) == LATEST
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_migrating_twice_changes_nothing(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "g.db", engine=FakeGame)
    store.create("k", toy_file())
    store.close()
    db = sqlite3.connect(tmp_path / "g.db", isolation_level=None)
    assert migrate(db) == LATEST
    assert db.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == 1
    db.close()
    assert SqliteStore(tmp_path / "g.db", engine=FakeGame).keys() == ["k"]


def test_a_database_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    SqliteStore(tmp_path / "g.db", engine=FakeGame).close()
    with sqlite3.connect(tmp_path / "g.db") as db:
        db.execute("UPDATE schema_version SET version = ?", (LATEST + 1,))
    with pytest.raises(StoreError, match="schema version"):
        SqliteStore(tmp_path / "g.db", engine=FakeGame)


def test_the_cached_view_is_used_only_for_its_count(tmp_path: Path) -> None:
    """The cache is an optimisation: a view for another count is ignored (schema.py)."""
    store = SqliteStore(tmp_path / "g.db", engine=FakeGame)
    store.create("k", toy_file())
    assert store.load("k").view()["active"] == [1]
    with sqlite3.connect(tmp_path / "g.db") as db:
        (count, text) = db.execute("SELECT action_count, view FROM state_cache").fetchone()
        assert count == 0 and json.loads(text)["active"] == [1]
        marked = {**json.loads(text), "active": ["from the cache"]}
        db.execute("UPDATE state_cache SET view = ?", (json.dumps(marked),))
    assert store.load("k").view()["active"] == ["from the cache"]
    store.append("k", pass_of(1), 0)
    assert store.load("k").view()["active"] == [2]


def test_games_are_kept_apart_by_key(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "g.db", engine=FakeGame)
    store.create("one", toy_file())
    store.create("two", toy_file())
    store.append("one", pass_of(1), 0)
    assert (store.count("one"), store.count("two")) == (1, 0)
    assert store.keys() == ["one", "two"]


@pytest.mark.parametrize("spec", ["sqlite:///{dir}/x.db", "{dir}/x.sqlite", "{dir}/x.db"])
def test_open_store_understands_database_specs(tmp_path: Path, spec: str) -> None:
    store = open_store(spec.format(dir=tmp_path), engine=FakeGame)
    assert isinstance(store, SqliteStore)
    store.close()


def test_open_store_refuses_an_unknown_spec() -> None:
    with pytest.raises(StoreError, match="unknown store"):
        open_store("mysql://x")


def test_a_database_in_a_missing_folder_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="does not exist"):
        SqliteStore(tmp_path / "missing" / "g.db", engine=FakeGame)
