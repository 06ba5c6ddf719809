"""Against a real uvicorn server on localhost (issue 11, "many concurrent games and players"):
threads for every player of several games act at once, each with his own token and client;
every action acknowledged with 200 is in the log afterwards, at the count it was given.
Also: of many writers based on the same count exactly one wins; the live feed (server-sent
events) tells of each new count."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

import httpx
from test_play import contains
from webhelp import bearer, live_server, new_game, pick, tokens

GAMES = 4
ACTIONS_PER_GAME = 15


def player_loop(
    url: str, created: dict[str, Any], pid: Any, seed: int, acked: list[Any], errors: list[str]
) -> None:
    """One player's browser: look, act when it is his turn, until the game has enough."""
    key = created["id"]
    token = tokens(created)[pid]
    rng = random.Random(seed)
    with httpx.Client(base_url=url, timeout=60) as client:
        for _ in range(2000):
            view = client.get(f"/api/games/{key}", headers=bearer(token)).json()
            if view["action_count"] >= ACTIONS_PER_GAME or view["finished"]:
                return
            action = pick(client, key, token, view, rng)  # type: ignore[arg-type]
            if action is None:
                continue
            answer = client.post(
                f"/api/games/{key}/actions",
                json={"action": action, "base": view["action_count"]},
                headers=bearer(token),
            )
            if answer.status_code == 200:
                acked.append((key, answer.json()["position"], action))
            elif answer.status_code != 409:
                errors.append(f"{answer.status_code} {answer.text} for {action}")
                return
        errors.append(f"player {pid} of {key} never finished")


def test_concurrent_games_and_players_lose_no_acknowledged_action(tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'web.db'}") as url:
        with httpx.Client(base_url=url, timeout=60) as client:
            games = [new_game(client, seed=100 + n) for n in range(GAMES)]  # type: ignore[arg-type]
        acked: list[Any] = []
        errors: list[str] = []
        threads = [
            threading.Thread(target=player_loop, args=(url, g, pid, 7 * n + pid, acked, errors))
            for n, g in enumerate(games)
            for pid in tokens(g)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(300)
        assert not errors, errors
        with httpx.Client(base_url=url, timeout=60) as client:
            for g in games:
                spectator = bearer(g["spectator"]["token"])
                file = client.get(f"/api/games/{g['id']}/file", headers=spectator).json()
                mine = sorted((n, a) for key, n, a in acked if key == g["id"])
                assert [n for n, _ in mine] == list(range(1, len(file["actions"]) + 1))
                for number, action in mine:
                    assert contains(file["actions"][number - 1], action)
    assert len(acked) >= GAMES * ACTIONS_PER_GAME


def test_of_many_writers_on_one_count_exactly_one_wins_store_base() -> None:
    with live_server() as url:
        with httpx.Client(base_url=url, timeout=60) as client:
            created = new_game(client)  # type: ignore[arg-type]
            token = tokens(created)[1]
            view = client.get(f"/api/games/{created['id']}", headers=bearer(token)).json()
        action = next(a for a in view["legal_actions"] if a["type"] == "bid")
        statuses: list[int] = []
        start = threading.Barrier(8)

        def send() -> None:
            with httpx.Client(base_url=url, timeout=60) as client:
                start.wait()
                answer = client.post(
                    f"/api/games/{created['id']}/actions",
                    json={"action": action, "base": 0},
                    headers=bearer(token),
                )
                statuses.append(answer.status_code)

        threads = [threading.Thread(target=send) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert sorted(statuses) == [200] + [409] * 7


def test_the_live_feed_tells_each_new_count_issue11_2() -> None:
    with live_server() as url, httpx.Client(base_url=url, timeout=30) as client:
        created = new_game(client)  # type: ignore[arg-type]
        key = created["id"]
        seats = tokens(created)
        seen: list[int] = []
        with client.stream(
            "GET", f"/api/games/{key}/events", headers=bearer(created["spectator"]["token"])
        ) as feed:
            assert feed.headers["content-type"].startswith("text/event-stream")
            lines = feed.iter_lines()
            while len(seen) < 3:
                line = next(lines)
                if line.startswith("data: "):
                    seen.append(json.loads(line[6:])["action_count"])
                    if len(seen) < 3:  # act: the feed must tell of it
                        view = client.get(f"/api/games/{key}", headers=bearer(seats[1])).json()
                        pid = view["active"][0]
                        passed = {"type": "pass", "entity": pid, "entity_type": "player"}
                        answer = client.post(
                            f"/api/games/{key}/actions",
                            json={"action": passed, "base": view["action_count"]},
                            headers=bearer(seats[pid]),
                        )
                        assert answer.status_code == 200, answer.text
        assert seen == [0, 1, 2]


def test_the_live_feed_sees_another_process_write_by_polling(tmp_path: Path) -> None:
    """A write through another connection to the database (as another server process makes
    it) reaches the feed within the polling interval."""
    from stellwerk.store import open_store

    db = tmp_path / "web.db"
    with live_server(f"sqlite:///{db}") as url, httpx.Client(base_url=url, timeout=30) as client:
        created = new_game(client)  # type: ignore[arg-type]
        key = created["id"]
        with client.stream(
            "GET", f"/api/games/{key}/events", headers=bearer(created["spectator"]["token"])
        ) as feed:
            lines = feed.iter_lines()
            assert next(line for line in lines if line.startswith("data: ")) == (
                'data: {"action_count": 0}'
            )
            other = open_store(str(db))
            try:
                other.append(key, {"type": "pass", "entity": 1, "entity_type": "player"}, 0)
            finally:
                other.close()
            line = next(line for line in lines if line.startswith("data: "))
            assert json.loads(line[6:]) == {"action_count": 1}
