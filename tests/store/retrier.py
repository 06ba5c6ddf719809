"""A writer process that retries (run as a script by test_processes.py, not collected).

    python retrier.py SPEC KEYS ROUNDS MARKER START_AT SEED [real]

KEYS is a comma-separated list of games in the store SPEC (a database URL or path).  Each
round picks one of the games at random, reads it and appends an action based on the count it
read; when the game moved on (``GameMovedOn``) it reads again and retries, until the write is
acknowledged.  The toy engine (tests/io/fakegame.py) appends a ``pass`` of the entity to act
carrying ``"note": "MARKER-ROUND"``; with ``real`` the real engine appends its first legal
action (the note is then kept in the ACK line only).  Every acknowledged write prints
``ACK KEY COUNT NOTE`` at once (flushed), every retry ``RETRY KEY``.  Waits until the epoch
time START_AT first.
"""

from __future__ import annotations

import random
import sys
import time
import types
from typing import Any

from fakegame import FakeGame

from stellwerk.store import GameMovedOn, GameStore, open_store


def next_action(store: GameStore, key: str, note: str, real: bool) -> tuple[dict[str, Any], int]:
    """What to append to ``key`` now, and the count it is based on."""
    stored = store.load(key)
    if real:
        return dict(stored.game.legal_actions()[0]), stored.count
    return {"type": "pass", "entity": stored.game.active_entities()[0], "note": note}, stored.count


def run(spec: str, keys: list[str], rounds: int, marker: str, start_at: float, seed: int,
        real: bool) -> None:  # fmt: skip
    if not real:
        fake_api = types.ModuleType("stellwerk.api")
        fake_api.Game = FakeGame  # type: ignore[attr-defined]
        sys.modules["stellwerk.api"] = fake_api
    store = open_store(spec, engine=None if real else FakeGame)
    chance = random.Random(seed)
    time.sleep(max(0.0, start_at - time.time()))
    for number in range(rounds):
        key = chance.choice(keys)
        note = f"{marker}-{number}"
        while True:
            action, base = next_action(store, key, note, real)
            try:
                count = store.append(key, action, base).count
            except GameMovedOn:
                print(f"RETRY {key}", flush=True)
                continue
            print(f"ACK {key} {count} {note}", flush=True)
            break
    store.close()


if __name__ == "__main__":
    spec, keys, rounds, marker, start_at, seed = sys.argv[1:7]
    run(spec, keys.split(","), int(rounds), marker, float(start_at), int(seed),
        "real" in sys.argv[7:])  # fmt: skip
