"""Every store backend (JSON files, SQLite, PostgreSQL) against the toy engine
(tests/io/fakegame.py): the log only grows, writes are based on an action count, refusals
write nothing (stellwerk/store/base.py, common rules §3)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fakegame import FakeGame
from storehelp import KEY, pass_of, toy_file

from stellwerk.core.errors import IllegalAction
from stellwerk.io.undo import live_actions
from stellwerk.store import (
    GameExists,
    GameMovedOn,
    GameNotFound,
    GameStore,
    JsonFileStore,
    PostgresStore,
    SqliteStore,
    StoreError,
)

BACKENDS = ["json", "sqlite", "postgres"]


def open_backend(kind: str, request: pytest.FixtureRequest, folder: Path) -> GameStore:
    """A new, empty store of ``kind`` (PostgreSQL: a new database on the tests' server)."""
    if kind == "json":
        return JsonFileStore(folder, engine=FakeGame)
    if kind == "sqlite":
        return SqliteStore(folder / "games.db", engine=FakeGame)
    return PostgresStore(request.getfixturevalue("postgres_url"), engine=FakeGame)


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    made = open_backend(request.param, request, tmp_path)
    yield made
    made.close()


def test_create_then_load_gives_the_file_back(store: GameStore) -> None:
    data = toy_file()
    store.create(KEY, data)
    loaded = store.load(KEY)
    assert loaded.data == data and list(loaded.data) == list(data)
    assert loaded.count == 0 and store.keys() == [KEY]


def test_create_refuses_an_existing_game_without_force(store: GameStore) -> None:
    store.create(KEY, toy_file())
    store.append(KEY, pass_of(1), 0)
    with pytest.raises(GameExists):
        store.create(KEY, toy_file())
    assert store.count(KEY) == 1
    store.create(KEY, toy_file(), force=True)
    assert store.count(KEY) == 0


def test_append_gives_the_next_id_and_grows_the_count(store: GameStore) -> None:
    store.create(KEY, toy_file([{"type": "pass", "entity": 1, "id": 3}]))
    stored = store.append(KEY, pass_of(2), 1)
    assert stored.count == 2
    assert store.load(KEY).data["actions"][-1] == {"type": "pass", "entity": 2, "id": 4}


def test_a_stale_base_is_refused_and_writes_nothing(store: GameStore) -> None:
    store.create(KEY, toy_file())
    store.append(KEY, pass_of(1), 0)
    before = store.export(KEY)
    with pytest.raises(GameMovedOn) as caught:
        store.append(KEY, pass_of(2), 0)
    assert (caught.value.base, caught.value.actual) == (0, 1)
    assert "based on 0 actions, now 1" in str(caught.value)
    assert store.export(KEY) == before


def test_a_refused_action_writes_nothing(store: GameStore) -> None:
    store.create(KEY, toy_file())
    before = store.export(KEY)
    with pytest.raises(IllegalAction, match="may not act now"):
        store.append(KEY, pass_of(2), 0)
    assert store.export(KEY) == before and store.count(KEY) == 0


@pytest.mark.parametrize("given", [5, 0, "2", True])
def test_a_given_id_other_than_the_next_is_refused(store: GameStore, given: object) -> None:
    """An id copied from another game file must not be stored (common rules §3.2: ascending)."""
    store.create(KEY, toy_file([{"type": "pass", "entity": 1, "id": 1}]))
    with pytest.raises(IllegalAction, match="next id of this game is 2"):
        store.append(KEY, {**pass_of(2), "id": given}, 1)
    assert store.count(KEY) == 1


def test_the_next_id_may_be_given(store: GameStore) -> None:
    store.create(KEY, toy_file([{"type": "pass", "entity": 1, "id": 1}]))
    store.append(KEY, {**pass_of(2), "id": 2}, 1)
    assert [a["id"] for a in store.load(KEY).data["actions"]] == [1, 2]


def test_undo_and_redo_are_appended_actions(store: GameStore) -> None:
    """Undo hides the last live action, redo brings it back; both stay in the log (§3.4)."""
    store.create(KEY, toy_file())
    store.append(KEY, {"type": "take", "entity": 1, "amount": 20}, 0)
    undone = store.undo(KEY, 1)
    assert undone.count == 2 and undone.data["actions"][-1]["type"] == "undo"
    assert live_actions(undone.data["actions"]) == []
    assert undone.game.active_entities() == [1]
    redone = store.redo(KEY, 2)
    assert [a["type"] for a in redone.data["actions"]] == ["take", "undo", "redo"]
    assert [a["id"] for a in redone.data["actions"]] == [1, 2, 3]
    assert redone.game.active_entities() == [2]
    with pytest.raises(IllegalAction, match="nothing to redo"):
        store.redo(KEY, 3)
    assert store.count(KEY) == 3


def test_undo_records_the_entity_to_act(store: GameStore) -> None:
    store.create(KEY, toy_file())
    store.append(KEY, pass_of(1), 0)
    undo = store.undo(KEY, 1).data["actions"][-1]
    assert (undo["entity"], undo["entity_type"]) == (2, "player")


def test_undo_with_nothing_to_undo_is_refused(store: GameStore) -> None:
    store.create(KEY, toy_file())
    with pytest.raises(IllegalAction, match="nothing to undo"):
        store.undo(KEY, 0)
    assert store.count(KEY) == 0


def test_undo_to_an_action_id(store: GameStore) -> None:
    store.create(KEY, toy_file())
    for count, entity in enumerate([1, 2, 1]):
        store.append(KEY, pass_of(entity), count)
    stored = store.undo(KEY, 3, action_id=1)
    assert [a["id"] for a in live_actions(stored.data["actions"])] == [1]
    with pytest.raises(IllegalAction, match="not earlier in the file"):
        store.undo(KEY, 4, action_id=99)


def test_an_undo_sent_as_an_action_is_stored_as_an_undo(store: GameStore) -> None:
    store.create(KEY, toy_file())
    store.append(KEY, pass_of(1), 0)
    undo = {"type": "undo", "entity": 2, "entity_type": "player", "user": 2, "created_at": 9}
    stored = store.append(KEY, undo, 1)
    assert stored.data["actions"][-1] == {**undo, "id": 2}
    assert live_actions(stored.data["actions"]) == []


def test_status_and_result_follow_the_game(store: GameStore) -> None:
    """The toy game ends when the bank (200) is empty; an undo makes it active again."""
    store.create(KEY, toy_file())
    takes = [30] * 6 + [20]
    for count, amount in enumerate(takes):
        store.append(KEY, {"type": "take", "entity": 1 + count % 2, "amount": amount}, count)
    data = store.export(KEY)
    assert data["status"] == "finished" and data["result"] == {"1": 110, "2": 90}
    assert data["game_end_reason"] == "bank" and data["description"] == "kept"
    data = store.undo(KEY, len(takes)).data
    assert data["status"] == "active" and data["result"] == {}
    assert data["game_end_reason"] is None


def test_missing_games_are_reported(store: GameStore) -> None:
    with pytest.raises(GameNotFound):
        store.load("nothing.json")
    with pytest.raises(GameNotFound):
        store.append("nothing.json", pass_of(1), 0)
    with pytest.raises(GameNotFound):
        store.count("nothing.json")


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_both_backends_write_the_same_file(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    """Export from a database gives the dict the JSON backend holds (design: same file
    either way)."""
    stores = [JsonFileStore(tmp_path, engine=FakeGame), open_backend(kind, request, tmp_path)]
    for one in stores:
        one.create(KEY, toy_file())
        one.append(KEY, {"type": "take", "entity": 1, "amount": 10}, 0)
        one.undo(KEY, 1)
        one.append(KEY, pass_of(1), 2)
    exported = [one.export(KEY) for one in stores]
    assert exported[0] == exported[1]
    assert json.dumps(exported[0]) == json.dumps(exported[1])
    on_disk = json.loads((tmp_path / KEY).read_text(encoding="utf-8"))
    assert on_disk == exported[1]


def test_an_undo_for_a_named_entity_gets_its_type(store: GameStore) -> None:
    store.create(KEY, toy_file())
    store.append(KEY, pass_of(1), 0)
    undo = store.undo(KEY, 1, entity=1).data["actions"][-1]
    assert (undo["entity"], undo["entity_type"]) == (1, "player")


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_annex_data_is_kept_per_game_and_never_in_the_game_file(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    """A front end's data about a game (schema.py ``annex``): stored and replaced per name,
    seen by another store on the same database, dropped with the game, absent from the
    exported file; an unknown game is refused."""
    store = open_backend(kind, request, tmp_path)
    store.create(KEY, toy_file())
    assert store.annex_get(KEY, "seats") is None
    store.annex_put(KEY, "seats", [{"name": "A", "token": "x"}])
    store.annex_put(KEY, "seats", [{"name": "B", "token": "y"}])
    assert store.annex_get(KEY, "seats") == [{"name": "B", "token": "y"}]
    assert "seats" not in json.dumps(store.export(KEY))
    store.close()
    reopened = open_backend(kind, request, tmp_path)
    assert reopened.annex_get(KEY, "seats") == [{"name": "B", "token": "y"}]
    with pytest.raises(GameNotFound):
        reopened.annex_put("nope", "seats", [])
    with pytest.raises(GameNotFound):
        reopened.annex_get("nope", "seats")
    reopened.create(KEY, toy_file(), force=True)
    assert reopened.annex_get(KEY, "seats") is None
    reopened.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_site_data_is_set_once_per_database_and_never_in_a_game_file(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    """A front end's data about the whole store (schema.py ``site``, step 3): the first
    ``site_setdefault`` stores its value, later ones (another store on the same database
    too) get that value back and store nothing; no game file carries it."""
    store = open_backend(kind, request, tmp_path)
    store.create(KEY, toy_file())
    assert store.site_get("web-secret") is None
    assert store.site_setdefault("web-secret", "first") == "first"
    if isinstance(store, PostgresStore):  # another store on the same database
        other: GameStore = PostgresStore(store.url, engine=FakeGame)
    else:
        other = open_backend(kind, request, tmp_path)
    assert other.site_setdefault("web-secret", "second") == "first"
    assert other.site_get("web-secret") == store.site_get("web-secret") == "first"
    assert "first" not in json.dumps(store.export(KEY))
    store.close()
    other.close()


def test_the_json_files_keep_no_site_data(tmp_path: Path) -> None:
    store = JsonFileStore(tmp_path, engine=FakeGame)
    with pytest.raises(StoreError, match="keeps no data beside the game files"):
        store.site_setdefault("web-secret", "x")


def test_the_json_files_keep_no_annex(tmp_path: Path) -> None:
    store = JsonFileStore(tmp_path, engine=FakeGame)
    store.create(KEY, toy_file())
    with pytest.raises(StoreError, match="keeps no data beside the game file"):
        store.annex_put(KEY, "seats", [])
