"""A writer process for the concurrency and kill -9 tests (run as a script, not collected).

    python writer.py MODE SPEC KEY ROUNDS MARKER START_AT

MODE ``append``: each round load the game and append a ``pass`` of the entity to act, carrying
``"note": "MARKER-ROUND"``, based on the count just read.  MODE ``undo``: like ``append`` but
every other round an undo.  MODE ``real``: the real 1849 engine (``stellwerk.api``) appends
its first legal action (ACK note ``type:<action type>``).  MODE ``cli``: each round run
``stellwerk act`` (without ``--base``, as the tester did) through click's test runner; MODE
``cli-undo`` likewise, every other round ``stellwerk undo``.  SPEC is
``json:FOLDER`` or a database spec.  Every acknowledged write prints
``ACK <count after> <note>`` at once (flushed); the game is the toy game of
tests/io/fakegame.py except in MODE ``real``.  Waits until the epoch time START_AT first.
"""

from __future__ import annotations

import json
import sys
import time
import types
from typing import Any

from click.testing import CliRunner
from fakegame import FakeGame

from stellwerk.cli.main import main
from stellwerk.core.errors import IllegalAction
from stellwerk.store import GameMovedOn, GameStore, JsonFileStore, open_store


def open_spec(spec: str, real: bool) -> GameStore:
    engine = None if real else FakeGame
    if spec.startswith("json:"):
        return JsonFileStore(spec[len("json:") :], engine=engine)
    return open_store(spec, engine=engine)


def cli_round(spec: str, key: str, action: dict[str, Any], undo: bool) -> str:
    target = f"{spec[len('json:') :]}/{key}" if spec.startswith("json:") else key
    args = ["undo", target] if undo else ["act", target, json.dumps(action)]
    if not spec.startswith("json:"):
        args += ["--db", spec]
    result = CliRunner().invoke(main, args)
    if result.exit_code == 0:
        count = result.output.split("the game holds ")[1].split(" ")[0]
        return f"ACK {count} {'undo' if undo else action['note']}"
    return f"EXIT {result.exit_code}"


def real_round(store: GameStore, key: str) -> str:
    stored = store.load(key)
    legal = stored.game.legal_actions()
    if not legal:
        return "DONE"
    try:
        return f"ACK {store.append(key, legal[0], stored.count).count} type:{legal[0]['type']}"
    except GameMovedOn:
        return "MOVED"


def one_round(store: GameStore, mode: str, spec: str, key: str, note: str, number: int) -> str:
    if mode == "real":
        return real_round(store, key)
    stored = store.load(key)
    action = {"type": "pass", "entity": stored.game.active_entities()[0], "note": note}
    if mode in ("cli", "cli-undo"):
        return cli_round(spec, key, action, mode == "cli-undo" and number % 2 == 1)
    try:
        if mode == "undo" and number % 2:
            return f"ACK {store.undo(key, stored.count).count} undo"
        return f"ACK {store.append(key, action, stored.count).count} {note}"
    except GameMovedOn:
        return "MOVED"
    except IllegalAction as error:
        return f"REFUSED {error}"


def run(mode: str, spec: str, key: str, rounds: int, marker: str, start_at: float) -> None:
    if mode != "real":
        fake_api = types.ModuleType("stellwerk.api")
        fake_api.Game = FakeGame  # type: ignore[attr-defined]
        sys.modules["stellwerk.api"] = fake_api
    store = open_spec(spec, mode == "real")
    time.sleep(max(0.0, start_at - time.time()))
    for number in range(rounds):
        print(one_round(store, mode, spec, key, f"{marker}-{number}", number), flush=True)
    store.close()


if __name__ == "__main__":
    mode, spec, key, rounds, marker, start_at = sys.argv[1:7]
    run(mode, spec, key, int(rounds), marker, float(start_at))
