"""Two OS processes appending to the same games of one database at once, each write based on
the count it read and retried after ``GameMovedOn`` (issue 11 item 4: several server
processes on one PostgreSQL database stay correct; stellwerk/store/sql.py: the key's lock,
then the count check).  Afterwards no action is lost and none doubled: every acknowledged
append is in its game's log at the position it was acknowledged for, the log holds nothing
else, and every game's log replays to the state the store's kept engine shows."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fakegame import FakeGame
from storehelp import toy_file

from stellwerk.io.gamefile import load_game_file
from stellwerk.store import GameStore, PostgresStore, SqliteStore

HERE = Path(__file__).resolve().parent
RETRIER = HERE / "retrier.py"


def open_kind(kind: str, request: pytest.FixtureRequest, folder: Path, real: bool) -> tuple[
    GameStore, str
]:  # fmt: skip
    """A new store of ``kind`` and its spec for the writer processes."""
    engine = None if real else FakeGame
    if kind == "postgres":
        url: str = request.getfixturevalue("postgres_url")
        return PostgresStore(url, engine=engine), url
    return SqliteStore(folder / "games.db", engine=engine), str(folder / "games.db")


def start(spec: str, keys: list[str], rounds: int, marker: str, at: float, seed: int,
          real: bool) -> subprocess.Popen[str]:  # fmt: skip
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), str(HERE.parent / "io")])
    args = [sys.executable, str(RETRIER), spec, ",".join(keys), str(rounds), marker, str(at),
            str(seed), *(["real"] if real else [])]  # fmt: skip
    pipe = subprocess.PIPE
    return subprocess.Popen(args, stdout=pipe, stderr=pipe, text=True, env=env)


def real_file(seed: int) -> dict[str, Any]:
    from stellwerk.api import Game

    return Game.create("1849", [(1, "A"), (2, "B"), (3, "C")], [], seed).to_file()


def two_processes(
    kind: str, request: pytest.FixtureRequest, folder: Path, games: int, rounds: int, real: bool
) -> None:
    store, spec = open_kind(kind, request, folder, real)
    keys = [f"game-{n}" for n in range(games)]
    for number, key in enumerate(keys):
        store.create(key, real_file(100 + number) if real else toy_file())
    at = time.time() + 1.0
    writers = [start(spec, keys, rounds, f"w{n}", at, seed=n, real=real) for n in range(2)]
    outputs = [writer.communicate(timeout=900) for writer in writers]
    for writer, (_, errors) in zip(writers, outputs, strict=True):
        assert writer.returncode == 0, errors
    lines = [line.split() for out, _ in outputs for line in out.splitlines()]
    acks = [(key, int(count), note) for tag, key, count, note in (
        line for line in lines if line[0] == "ACK")]  # fmt: skip
    assert len(acks) == 2 * rounds, "a round was never acknowledged"
    for key in keys:
        mine = sorted((count, note) for k, count, note in acks if k == key)
        data = store.export(key)
        actions = data["actions"]
        assert [count for count, _ in mine] == list(range(1, len(actions) + 1)), (
            f"{key}: the acknowledged counts are not the log's positions, each once"
        )
        if not real:
            assert [a["note"] for a in actions] == [note for _, note in mine], key
        load_game_file(data)
        fresh = store.engine.from_file(data)
        kept = store.load(key).game
        assert kept.snapshot() == fresh.snapshot() and kept.active_entities() == (
            fresh.active_entities()
        )
    store.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_two_processes_on_the_same_games_lose_nothing(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    two_processes(kind, request, tmp_path, games=3, rounds=60, real=False)


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_two_processes_on_real_1849_games_lose_nothing(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    pytest.importorskip("stellwerk.api")
    two_processes(kind, request, tmp_path, games=2, rounds=20, real=True)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_two_processes_on_many_games_for_long_lose_nothing(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    two_processes(kind, request, tmp_path, games=6, rounds=400, real=False)
