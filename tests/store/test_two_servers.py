"""Two ``stellwerk serve`` processes on one PostgreSQL database (issue 11, "How it will be
checked": two server processes take actions for the same games without a loss).

Every player of several 1849 games plays through the JSON API, each request sent to one of
the two servers at random, each action based on the count just read (409 when the game moved
on: read again).  Afterwards every action acknowledged with 200 is in its game's log at the
count it was acknowledged with, every position of the log was acknowledged exactly once, and
each log replays (stellwerk/store/sql.py: the advisory lock of the key, then the count check;
the kept engine is rebuilt when the other server moved the game on)."""

from __future__ import annotations

import random
import threading
from typing import Any

import httpx
from test_play import contains
from webhelp import ServeProcess, bearer, new_game, pick, tokens

from stellwerk.api import Game
from stellwerk.store import PostgresStore

GAMES = 3
ACTIONS_PER_GAME = 14


def player_loop(
    urls: list[str], created: dict[str, Any], pid: Any, seed: int, acked: list[Any],
    errors: list[str],
) -> None:  # fmt: skip
    """One player: look at the game and act when it is his turn, each request to a server
    chosen at random, until the game has enough actions."""
    key = created["id"]
    token = tokens(created)[pid]
    rng = random.Random(seed)
    clients = [httpx.Client(base_url=url, timeout=120) for url in urls]
    try:
        for _ in range(3000):
            client = rng.choice(clients)
            view = client.get(f"/api/games/{key}", headers=bearer(token)).json()
            if view["action_count"] >= ACTIONS_PER_GAME or view["finished"]:
                return
            action = pick(client, key, token, view, rng)
            if action is None:
                continue
            server = rng.randrange(len(clients))
            answer = clients[server].post(
                f"/api/games/{key}/actions",
                json={"action": action, "base": view["action_count"]},
                headers=bearer(token),
            )
            if answer.status_code == 200:
                acked.append((key, answer.json()["action_count"], action, server))
            elif answer.status_code != 409:
                errors.append(f"{answer.status_code} {answer.text} for {action}")
                return
        errors.append(f"player {pid} of {key} never finished")
    finally:
        for client in clients:
            client.close()


def test_two_servers_on_one_postgres_database_lose_no_acknowledged_action(
    postgres_url: str,
) -> None:
    servers = [ServeProcess(postgres_url), ServeProcess(postgres_url)]  # type: ignore[arg-type]
    try:
        urls = [server.url for server in servers]
        with httpx.Client(base_url=urls[0], timeout=120) as client:
            games = [new_game(client, seed=300 + n) for n in range(GAMES)]
        acked: list[Any] = []
        errors: list[str] = []
        threads = [
            threading.Thread(target=player_loop, args=(urls, g, pid, 11 * n + pid, acked, errors))
            for n, g in enumerate(games)
            for pid in tokens(g)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(600)
        assert not errors, errors
        with httpx.Client(base_url=urls[1], timeout=120) as client:
            for g in games:
                spectator = bearer(g["spectator"]["token"])
                file = client.get(f"/api/games/{g['id']}/file", headers=spectator).json()
                mine = sorted((n, a) for key, n, a, _ in acked if key == g["id"])
                assert [n for n, _ in mine] == list(range(1, len(file["actions"]) + 1))
                for number, action in mine:
                    assert contains(file["actions"][number - 1], action)
                Game.from_file(file)  # the log replays
    finally:
        for server in servers:
            server.stop()
    assert len(acked) >= GAMES * ACTIONS_PER_GAME
    assert {server for *_, server in acked} == {0, 1}, "one server took every action"
    store = PostgresStore(postgres_url)
    assert sorted(store.keys()) == sorted(g["id"] for g in games)
    store.close()
