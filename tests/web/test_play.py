"""A game played through the API (issue 11, "every action acknowledged with 200 is in the
log afterwards"): each player acts only with his own token, picking from the legal actions
as the selfplay driver does (tile lays asked for hex by hex)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from webhelp import app_client, bearer, new_game, pick, tokens

ACTIONS = 60


def contains(logged: dict[str, Any], sent: dict[str, Any]) -> bool:
    """Whether the logged action is the one sent (the store adds id, auto_actions, ...)."""
    return all(logged.get(name) == value for name, value in sent.items())


def play(client: Any, created: dict[str, Any], rng: random.Random, count: int) -> list[Any]:
    """``count`` acknowledged actions; (action count after it, the action) for each."""
    key = created["id"]
    seats = tokens(created)
    acked: list[tuple[int, dict[str, Any]]] = []
    while len(acked) < count:
        view = client.get(f"/api/games/{key}", headers=bearer(seats[1])).json()
        if view["finished"]:
            break
        movers = list(seats)  # each asks for his own choices ("yours")
        moved = False
        for pid in movers:
            mine = client.get(f"/api/games/{key}", headers=bearer(seats[pid])).json()
            action = pick(client, key, seats[pid], mine, rng)
            if action is None:
                continue
            answer = client.post(
                f"/api/games/{key}/actions",
                json={"action": action, "base": mine["action_count"]},
                headers=bearer(seats[pid]),
            )
            if answer.status_code == 202:  # a trade: the seller's player agrees (web.offers)
                offer = answer.json()["offer"]
                answer = client.post(
                    f"/api/games/{key}/offers",
                    json={"offer": offer["id"], "accept": True},
                    headers=bearer(seats[offer["seller"]]),
                )
                assert answer.status_code == 200, answer.text
                acked.append((answer.json()["action_count"], action))
                moved = True
                break
            assert answer.status_code == 200, (answer.status_code, answer.text, action)
            acked.append((answer.json()["position"], action))
            moved = True
            break
        assert moved, f"nobody could act: {view['active']}"
    return acked


@pytest.mark.parametrize("title", ["1849", "1835"])
def test_a_game_played_through_the_api_keeps_every_acknowledged_action(title: str) -> None:
    with app_client() as client:
        created = new_game(client, ["Ann", "Bob", "Cid", "Dan"], seed=11, title=title)
        acked = play(client, created, random.Random(3), ACTIONS)
        assert len(acked) == ACTIONS
        assert [n for n, _ in acked] == list(range(1, ACTIONS + 1))
        file = client.get(
            f"/api/games/{created['id']}/file", headers=bearer(created["spectator"]["token"])
        ).json()
        assert len(file["actions"]) == ACTIONS
        for number, action in acked:
            assert contains(file["actions"][number - 1], action), (number, action)
        kinds = {a["type"] for _, a in acked}
        assert len(kinds) >= 3, kinds  # more than an auction of passes
