"""Deadlines and default orders through the API (web.deadlines; the game master's default
orders, issue 10 item 3): a decision is due ``deadline_hours`` after the last action; then any
player (or the server's ticker) settles it with the default order, marked in the log."""

from __future__ import annotations

import asyncio
from typing import Any

from webhelp import TestClient, bearer, tokens

from stellwerk.web.app import create_app
from stellwerk.web.service import GameService


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def client_at(clock: Clock) -> TestClient:
    service = GameService(None, clock=clock)
    app = create_app(service=service, deadline_interval=0)
    return TestClient(app, raise_server_exceptions=False)


def create(client: TestClient, hours: Any = 1) -> dict[str, Any]:
    body = {"title": "1849", "players": ["Ann", "Bob", "Cid"], "seed": 3, "deadline_hours": hours}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def test_a_due_decision_gets_its_default_order_marked_in_the_log_gm_defaults() -> None:
    clock = Clock(1_000)
    with client_at(clock) as client:
        created = create(client, hours=1)
        key, seats = created["id"], tokens(created)
        view = client.get(f"/api/games/{key}", headers=bearer(seats[2])).json()
        assert view["deadline"] == {"due": 1_000 + 3_600, "seconds": 3_600}
        early = client.post(f"/api/games/{key}/deadline", headers=bearer(seats[2]))
        assert early.status_code == 422 and early.json()["rule"] == "deadline"
        clock.now = 5_000
        settled = client.post(f"/api/games/{key}/deadline", headers=bearer(seats[2]))
        assert settled.status_code == 200, settled.text
        body = settled.json()
        assert body["entity"] == 1 and body["player"] == 1
        assert body["default"]["type"] == "pass" and body["action_count"] == 2
        file = client.get(f"/api/games/{key}/file", headers=bearer(seats[1])).json()
        default, message = file["actions"]
        assert default["type"] == "pass" and default["user"] == "deadline"
        assert message["type"] == "message" and "Ann" in message["message"]
        assert default["created_at"] == 5_000
        # the next decision has its own deadline, from the default on
        view = client.get(f"/api/games/{key}", headers=bearer(seats[2])).json()
        assert view["deadline"]["due"] == 5_000 + 3_600 and view["active"] == [2]
        again = client.post(f"/api/games/{key}/deadline", headers=bearer(seats[1]))
        assert again.status_code == 422
        # a default order is not the player's move: he cannot take it back
        undo = {"type": "undo", "entity": 1, "entity_type": "player"}
        answer = client.post(
            f"/api/games/{key}/actions", json={"action": undo, "base": 2}, headers=bearer(seats[1])
        )
        assert answer.status_code == 403


def test_the_ticker_settles_every_due_game_and_spares_the_others() -> None:
    clock = Clock(1_000)
    with client_at(clock) as client:
        due = create(client, hours=1)
        later = create(client, hours=10)
        plain = client.post(
            "/api/games", json={"title": "1849", "players": ["A", "B", "C"], "seed": 1}
        ).json()
        clock.now = 1_000 + 2 * 3_600
        service = client.app.state.service  # type: ignore[attr-defined]
        moved = asyncio.run(service.settle_due())
        assert moved == [due["id"]]
        counts = {g["id"]: g["action_count"] for g in client.get("/api/games").json()["games"]}
        assert counts == {due["id"]: 2, later["id"]: 0, plain["id"]: 0}


def test_deadline_refusals_spectator_no_deadline_bad_hours() -> None:
    clock = Clock(1_000)
    with client_at(clock) as client:
        created = create(client, hours=1)
        clock.now = 10_000
        spectator = bearer(created["spectator"]["token"])
        assert (
            client.post(f"/api/games/{created['id']}/deadline", headers=spectator).status_code
            == 403
        )
        plain = create(client, hours=None)
        answer = client.post(
            f"/api/games/{plain['id']}/deadline", headers=bearer(plain["players"][0]["token"])
        )
        assert answer.status_code == 422 and answer.json()["rule"] == "deadline"
        for hours in (0, -1, "2", True, 10**9):
            body = {"title": "1849", "players": ["A", "B", "C"], "deadline_hours": hours}
            assert client.post("/api/games", json=body).status_code == 400, hours
