"""The store keeps its engine between writes (stellwerk/store/base.py, "Live engines"): a
stream of appends by one store costs one ``process`` each, not a rebuild from the log; a
write by another store object (another process) is seen; a refused action leaves the kept
engine as it was (common rules §3.4: a refusal changes nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stellwerk.api import Game
from stellwerk.core.errors import IllegalAction
from stellwerk.selfplay import play
from stellwerk.store import GameStore, JsonFileStore, PostgresStore, SqliteStore

KEY = "g.json"
START = 20
"""Actions stored before the appends start."""


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    """A 1849 selfplay game of 160 actions, as a game file."""
    game = Game.create("1849", [(n, f"P{n}") for n in range(1, 5)], [], 3)
    play(game, 3, max_actions=160)
    return game.to_file()


def _head(data: dict[str, Any], count: int) -> dict[str, Any]:
    out = {k: v for k, v in data.items() if k not in ("status", "result", "game_end_reason")}
    out["actions"] = data["actions"][:count]
    return out


def _sent(action: dict[str, Any]) -> dict[str, Any]:
    """The action as a player sends it: no id, no derived automatic actions."""
    return {k: v for k, v in action.items() if k not in ("id", "auto_actions")}


class Counting:
    """``Game`` whose loads are counted."""

    loads = 0

    @classmethod
    def from_file(cls, data: dict[str, Any]) -> Game:
        cls.loads += 1
        return Game.from_file(data)


BACKENDS = ["json", "sqlite", "postgres"]
PLACES: dict[str, str] = {}
"""The PostgreSQL URL of the running test, per kind (set by the ``kind`` fixture)."""


def _store(kind: str, folder: Path) -> GameStore:
    """A store of ``kind`` on the test's one place (folder, file or database): two calls
    give two store objects on the same games, as two processes would have."""
    if kind == "json":
        return JsonFileStore(folder, engine=Counting)
    if kind == "sqlite":
        return SqliteStore(folder / "games.db", engine=Counting)
    return PostgresStore(PLACES[kind], engine=Counting)


@pytest.fixture(params=BACKENDS)
def kind(request: pytest.FixtureRequest) -> Iterator[str]:
    Counting.loads = 0
    if request.param == "postgres":
        PLACES["postgres"] = request.getfixturevalue("postgres_url")
    yield str(request.param)
    PLACES.pop(str(request.param), None)


def test_appends_move_the_kept_engine_on_without_rebuilding(
    kind: str, tmp_path: Path, played: dict[str, Any]
) -> None:
    """140 appends: one load (at create), and after every append the store's game is the
    game a fresh load of the stored file gives; the stored log is the played one."""
    store = _store(kind, tmp_path)
    store.create(KEY, _head(played, START))
    actions = played["actions"]
    for count in range(START, len(actions)):
        stored = store.append(KEY, _sent(actions[count]), count)
        if count % 35 == 0 or count == len(actions) - 1:
            fresh = Game.from_file(store.export(KEY))
            assert stored.game.snapshot() == fresh.snapshot(), f"after {count + 1} actions"
            assert stored.game.legal_actions() == fresh.legal_actions()
    assert Counting.loads == 1
    assert store.export(KEY)["actions"] == actions
    store.close()


def test_a_write_by_another_store_is_seen(
    kind: str, tmp_path: Path, played: dict[str, Any]
) -> None:
    """Two store objects on one game (two processes): each append is based on what is
    stored, so the one whose kept engine is behind rebuilds and both agree with the file."""
    first, second = _store(kind, tmp_path), _store(kind, tmp_path)
    first.create(KEY, _head(played, START))
    actions = played["actions"]
    first.append(KEY, _sent(actions[START]), START)
    second.append(KEY, _sent(actions[START + 1]), START + 1)
    loads = Counting.loads
    stored = first.append(KEY, _sent(actions[START + 2]), START + 2)
    assert Counting.loads == loads + 1  # first's engine was behind: rebuilt once
    assert stored.game.snapshot() == Game.from_file(first.export(KEY)).snapshot()
    assert first.load(KEY).game is stored.game
    assert second.load(KEY).game.snapshot() == stored.game.snapshot()
    assert first.export(KEY)["actions"] == actions[: START + 3]
    first.close()
    second.close()


def test_a_refused_append_leaves_the_kept_engine_as_it_was(
    kind: str, tmp_path: Path, played: dict[str, Any]
) -> None:
    """A refused action writes nothing and keeps the engine: the next append needs no
    rebuild and gives the state a fresh load gives."""
    store = _store(kind, tmp_path)
    store.create(KEY, _head(played, START))
    before = store.load(KEY).game.snapshot()
    with pytest.raises(IllegalAction):
        store.append(KEY, {"type": "lay_tile", "entity": "B&O", "entity_type": "corporation",
                           "hex": "A1", "tile": "7-0", "rotation": 0}, START)  # fmt: skip
    assert store.load(KEY).game.snapshot() == before
    actions = played["actions"]
    stored = store.append(KEY, _sent(actions[START]), START)
    assert Counting.loads == 1
    assert stored.game.snapshot() == Game.from_file(store.export(KEY)).snapshot()
    store.close()


def test_an_earlier_stored_game_keeps_its_state(
    kind: str, tmp_path: Path, played: dict[str, Any]
) -> None:
    """A ``StoredGame`` from an earlier append shows its own count's state after the store
    moved its engine on (it builds its own)."""
    store = _store(kind, tmp_path)
    store.create(KEY, _head(played, START))
    actions = played["actions"]
    earlier = store.append(KEY, _sent(actions[START]), START)
    later = store.append(KEY, _sent(actions[START + 1]), START + 1)
    assert earlier.game is not later.game
    assert earlier.game.snapshot() == Game.from_file(earlier.data).snapshot()
    assert later.view()["count"] == START + 2
    store.close()


def test_undo_through_the_store_agrees_with_a_fresh_load(
    kind: str, tmp_path: Path, played: dict[str, Any]
) -> None:
    """Undo and redo (common rules §3.4) give the game of the stored file, and appends after
    them go on from it."""
    store = _store(kind, tmp_path)
    store.create(KEY, _head(played, START))
    actions = played["actions"]
    store.append(KEY, _sent(actions[START]), START)
    undone = store.undo(KEY, START + 1)
    assert undone.game.snapshot() == Game.from_file(store.export(KEY)).snapshot()
    redone = store.redo(KEY, START + 2)
    assert redone.game.snapshot() == Game.from_file(store.export(KEY)).snapshot()
    after = store.append(KEY, _sent(actions[START + 1]), START + 3)
    assert after.game.snapshot() == Game.from_file(store.export(KEY)).snapshot()
    store.close()


def test_the_kept_engines_are_bounded(kind: str, tmp_path: Path, played: dict[str, Any]) -> None:
    """A store keeps at most ``kept_live`` engines, the most recently used: appends to a game
    whose engine was dropped rebuild it once from its file, with the same state."""
    store = _store(kind, tmp_path)
    store.kept_live = 2
    keys = [f"k{n}.json" for n in range(3)]
    for key in keys:
        store.create(key, _head(played, START))
    loads = Counting.loads
    actions = played["actions"]
    store.append(keys[1], _sent(actions[START]), START)
    store.append(keys[2], _sent(actions[START]), START)
    assert Counting.loads == loads  # both still kept (k0, the oldest, was dropped)
    stored = store.append(keys[0], _sent(actions[START]), START)
    assert Counting.loads == loads + 1  # k0 rebuilt from its file
    assert stored.game.snapshot() == Game.from_file(store.export(keys[0])).snapshot()
    store.append(keys[2], _sent(actions[START + 1]), START + 1)
    assert Counting.loads == loads + 1  # k2 was kept
    store.close()
