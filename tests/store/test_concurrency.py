"""Two writers at once, and writers killed with SIGKILL (issue 12, item 3): every write
acknowledged is in the log afterwards, at the position it was acknowledged for, and the log
always loads (stellwerk/store/base.py: the count check under the lock)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fakegame import FakeGame
from storehelp import toy_file

from stellwerk.io.gamefile import load_game_file
from stellwerk.store import GameStore, JsonFileStore, PostgresStore, SqliteStore

HERE = Path(__file__).resolve().parent
WRITER = HERE / "writer.py"
KEY = "g.json"
RACES = [("append", "append"), ("append", "undo"), ("cli", "cli"), ("cli", "cli-undo")]


KINDS = ["json", "sqlite", "postgres"]


@pytest.fixture
def place(request: pytest.FixtureRequest, tmp_path: Path, kind: str) -> Path | str:
    """Where the test's games live: a folder, or (PostgreSQL) a new database's URL."""
    if kind == "postgres":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return tmp_path


def make_store(kind: str, place: Path | str, real: bool = False) -> tuple[GameStore, str]:
    """A store holding a new toy game (or 1849 game), and the writer's spec of it."""
    engine = None if real else FakeGame
    store: GameStore
    if kind == "postgres":
        spec = str(place)
        store = PostgresStore(spec, engine=engine)
    elif kind == "json":
        store = JsonFileStore(place, engine=engine)
        spec = f"json:{place}"
    else:
        folder = Path(place)
        store = SqliteStore(folder / "games.db", engine=engine)
        spec = f"sqlite:///{folder / 'games.db'}"
    store.create(KEY, real_1849_file() if real else toy_file())
    return store, spec


def real_1849_file() -> dict[str, Any]:
    from stellwerk.api import Game

    return Game.create("1849", [(1, "A"), (2, "B"), (3, "C")], [], 814263386).to_file()


def start_writer(mode: str, spec: str, rounds: int, marker: str, start_at: float) -> Any:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), str(HERE.parent / "io")])
    args = [sys.executable, str(WRITER), mode, spec, KEY, str(rounds), marker, str(start_at)]
    return subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )


def acknowledged(lines: list[str]) -> list[tuple[int, str]]:
    """(count after the write, note) of every ACK line."""
    return [(int(line.split()[1]), line.split()[2]) for line in lines if line.startswith("ACK ")]


def check_log(store: GameStore, acks: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """The log loads, its ids ascend, and every acknowledged write sits where it was acked."""
    data = store.export(KEY)
    load_game_file(data)
    store.engine.from_file(data)
    actions: list[dict[str, Any]] = data["actions"]
    ids = [action["id"] for action in actions]
    assert ids == sorted(set(ids))
    assert len({count for count, _ in acks}) == len(acks), "two writes acked for one count"
    for count, note in acks:
        entry = actions[count - 1]
        if note == "undo" or note.startswith("type:"):
            assert entry["type"] == note.removeprefix("type:")
        else:
            assert entry.get("note") == note
    return actions


def race(kind: str, modes: tuple[str, str], rounds: int, place: Path | str) -> None:
    store, spec = make_store(kind, place, real="real" in modes)
    start_at = time.time() + 0.6
    writers = [start_writer(mode, spec, rounds, f"w{n}", start_at) for n, mode in enumerate(modes)]
    outputs = [writer.communicate(timeout=600) for writer in writers]
    for writer, (_, errors) in zip(writers, outputs, strict=True):
        assert writer.returncode == 0, errors
    acks = [ack for out, _ in outputs for ack in acknowledged(out.splitlines())]
    actions = check_log(store, acks)
    assert len(acks) == len(actions), "an action in the log was never acknowledged"
    assert len(acks) >= rounds
    store.close()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("modes", RACES, ids="+".join)
def test_two_writers_at_once_lose_nothing(
    place: Path | str, kind: str, modes: tuple[str, str]
) -> None:
    race(kind, modes, 40, place)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("modes", RACES, ids="+".join)
def test_two_writers_at_once_lose_nothing_in_hundreds_of_rounds(
    place: Path | str, kind: str, modes: tuple[str, str]
) -> None:
    race(kind, modes, 400, place)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_two_writers_of_a_real_1849_game_lose_nothing(place: Path | str, kind: str) -> None:
    pytest.importorskip("stellwerk.api")
    race(kind, ("real", "real"), 150, place)


def kill_rounds(kind: str, kills: int, place: Path | str, seed: int) -> None:
    """Start a writer, SIGKILL it at a random moment, check the store; ``kills`` times."""
    chance = random.Random(seed)
    store, spec = make_store(kind, place)
    acks: list[tuple[int, str]] = []
    for number in range(kills):
        writer = start_writer("append", spec, 100_000, f"k{number}", 0.0)
        first = writer.stdout.readline()
        assert first.startswith("ACK"), first + writer.stderr.read()
        time.sleep(chance.uniform(0.0, 0.15))
        writer.send_signal(signal.SIGKILL)
        rest, _ = writer.communicate()
        lines = [first, *rest.splitlines()]
        acks.extend(acknowledged(lines))
        actions = check_log(store, acks)
        # the last write may have reached the store without its ACK being printed
        assert max(count for count, _ in acks) <= len(actions) <= max(c for c, _ in acks) + 1
    stored = store.load(KEY)
    store.append(KEY, {"type": "pass", "entity": stored.game.active_entities()[0]}, stored.count)
    if kind == "json":  # the next write removed what killed writers left behind
        assert sorted(p.name for p in Path(place).iterdir()) == [".g.json.lock", "g.json"]
    store.close()


@pytest.mark.parametrize("kind", KINDS)
def test_kill_9_during_appends_leaves_the_old_or_the_new_log(place: Path | str, kind: str) -> None:
    kill_rounds(kind, 4, place, seed=12)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_kill_9_during_appends_many_times(place: Path | str, kind: str) -> None:
    kill_rounds(kind, 40, place, seed=41)
