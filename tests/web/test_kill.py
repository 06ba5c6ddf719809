"""kill -9 of the server during a stream of actions, then a restart on the same database:
every action acknowledged with 200 is there (issue 11, "How it will be checked").  The
server is a real ``stellwerk serve`` subprocess with its SQLite file in tmp_path; the store
commits (``synchronous=FULL``) before the API answers."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from test_play import contains
from webhelp import ServeProcess, bearer, new_game, pick, tokens


def stream(url: str, created: dict[str, Any], acked: list[Any], stop: threading.Event) -> None:
    """Act as fast as possible (every seat) until the server dies or ``stop``."""
    key = created["id"]
    seats = tokens(created)
    rng = random.Random(5)
    try:
        with httpx.Client(base_url=url, timeout=10) as client:
            while not stop.is_set():
                view = client.get(f"/api/games/{key}", headers=bearer(seats[1])).json()
                for pid in seats:
                    mine = client.get(f"/api/games/{key}", headers=bearer(seats[pid])).json()
                    action = pick(client, key, seats[pid], mine, rng)  # type: ignore[arg-type]
                    if action is None:
                        continue
                    answer = client.post(
                        f"/api/games/{key}/actions",
                        json={"action": action, "base": view["action_count"]},
                        headers=bearer(seats[pid]),
                    )
                    if answer.status_code == 200:
                        acked.append((answer.json()["position"], action))
                    break
    except httpx.HTTPError:
        return  # the server was killed under us


def test_kill_9_during_actions_loses_no_acknowledged_action(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    server = ServeProcess(db)
    acked: list[Any] = []
    stop = threading.Event()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            created = new_game(client, seed=21)  # type: ignore[arg-type]
        thread = threading.Thread(target=stream, args=(server.url, created, acked, stop))
        thread.start()
        deadline = time.monotonic() + 120
        while len(acked) < 12 and time.monotonic() < deadline and thread.is_alive():
            time.sleep(0.01)
        server.kill9()  # in the middle of the stream: requests are in flight
        stop.set()
        thread.join(30)
    finally:
        server.stop()
    assert len(acked) >= 12
    again = ServeProcess(db)
    try:
        with httpx.Client(base_url=again.url, timeout=30) as client:
            spectator = bearer(created["spectator"]["token"])
            file = client.get(f"/api/games/{created['id']}/file", headers=spectator).json()
            for number, action in acked:
                assert contains(file["actions"][number - 1], action), (number, action)
            assert len(file["actions"]) >= max(n for n, _ in acked)
            # the restarted server goes on with the game
            view = client.get(f"/api/games/{created['id']}", headers=bearer(tokens(created)[1]))
            assert view.json()["action_count"] == len(file["actions"])
    finally:
        again.stop()
