"""Standing orders through the API (web.standing; the game master's, gm.standing, issue 10
item 2): 18xx.games' ``program_share_pass`` given by a player acts at his decisions in the
stock round; ``program_disable`` cancels it."""

from __future__ import annotations

import random
from typing import Any

from webhelp import app_client, bearer, new_game, pick, tokens


def to_stock_round(client: Any, created: dict[str, Any]) -> dict[str, Any]:
    """Play (as the selfplay driver does) until someone may start a corporation."""
    key, seats = created["id"], tokens(created)
    rng = random.Random(2)
    for _ in range(300):
        view = client.get(f"/api/games/{key}", headers=bearer(seats[1])).json()
        kinds = {a["type"] for a in view["legal_actions"]}
        if {"par", "pass"} <= kinds:
            return dict(view)
        pid = next(p for p in seats if client.get(
            f"/api/games/{key}", headers=bearer(seats[p])).json()["yours"])  # fmt: skip
        mine = client.get(f"/api/games/{key}", headers=bearer(seats[pid])).json()
        action = pick(client, key, seats[pid], mine, rng)
        assert action is not None
        body = {"action": action, "base": mine["action_count"]}
        answer = client.post(f"/api/games/{key}/actions", json=body, headers=bearer(seats[pid]))
        assert answer.status_code == 200, answer.text
    raise AssertionError("no stock round")


def send(client: Any, created: dict[str, Any], pid: int, action: dict[str, Any]) -> Any:
    key = created["id"]
    count = client.get(f"/api/games/{key}", headers=bearer(tokens(created)[pid])).json()
    body = {"action": action, "base": count["action_count"]}
    return client.post(f"/api/games/{key}/actions", json=body, headers=bearer(tokens(created)[pid]))


def program(pid: int) -> dict[str, Any]:
    return {"type": "program_share_pass", "entity": pid, "entity_type": "player",
            "unconditional": False, "indefinite": False}  # fmt: skip


def test_a_standing_pass_acts_at_the_players_turn_and_can_be_cancelled_gm_standing() -> None:
    with app_client() as client:
        created = new_game(client, seed=5)
        view = to_stock_round(client, created)
        key, seats = created["id"], tokens(created)
        first = view["active"][0]
        others = [p for p in seats if p != first]
        waiting, cancelling = others[0], others[1]
        # a player not to act gives a standing pass; another gives one and cancels it
        given = send(client, created, waiting, program(waiting))
        assert given.status_code == 200, given.text
        assert given.json()["action_count"] == given.json()["position"]  # nothing fired yet
        assert send(client, created, cancelling, program(cancelling)).status_code == 200
        cancel = {"type": "program_disable", "entity": cancelling, "entity_type": "player",
                  "reason": "changed my mind", "original_type": "program_share_pass"}  # fmt: skip
        assert send(client, created, cancelling, cancel).status_code == 200
        # the players in turn pass; the standing pass acts by itself at its holder's turn
        log_before = len(
            client.get(f"/api/games/{key}/file", headers=bearer(seats[1])).json()["actions"]
        )
        rng = random.Random(1)
        turns = []
        for _ in range(6):
            now = client.get(f"/api/games/{key}", headers=bearer(seats[1])).json()
            pid = now["active"][0]
            if pid not in seats:
                break  # the stock round is over: a corporation operates
            assert pid != waiting, "the standing order should have acted for him"
            turns.append(pid)
            passed = {"type": "pass", "entity": pid, "entity_type": "player"}
            if passed not in now["legal_actions"]:  # e.g. a par the rules ask for first
                mine = client.get(f"/api/games/{key}", headers=bearer(seats[pid])).json()
                passed = pick(client, key, seats[pid], mine, rng) or passed
            answer = send(client, created, pid, passed)
            assert answer.status_code == 200, answer.text
        file = client.get(f"/api/games/{key}/file", headers=bearer(seats[1])).json()
        fired = [a for a in file["actions"][log_before:] if a.get("entity") == waiting]
        assert fired and all(a["type"] == "pass" and a["user"] == waiting for a in fired)
        assert cancelling in turns  # his order was cancelled: he was asked himself


def undo(pid: int) -> dict[str, Any]:
    return {"type": "undo", "entity": pid, "entity_type": "player"}


def turns_until(client: Any, created: dict[str, Any], player: int, most: int = 6) -> bool:
    """Everyone else passes in turn; True when ``player`` is asked himself (his standing
    pass did not act), False when the round went on without asking him."""
    key, seats = created["id"], tokens(created)
    rng = random.Random(3)
    for _ in range(most):
        now = client.get(f"/api/games/{key}", headers=bearer(seats[1])).json()
        pid = now["active"][0]
        if pid == player:
            return True
        if pid not in seats:
            return False
        passed = {"type": "pass", "entity": pid, "entity_type": "player"}
        if passed not in now["legal_actions"]:
            mine = client.get(f"/api/games/{key}", headers=bearer(seats[pid])).json()
            passed = pick(client, key, seats[pid], mine, rng) or passed
        assert send(client, created, pid, passed).status_code == 200
    return False


def test_an_undone_standing_order_no_longer_acts_common_rules_3_4() -> None:
    """Undo of the ``program_share_pass`` that gave the order (his last move): the order
    ends with it, so at his turn he is asked himself; the undo itself woke nothing."""
    with app_client() as client:
        created = new_game(client, seed=5)
        view = to_stock_round(client, created)
        waiting = next(p for p in tokens(created) if p != view["active"][0])
        assert send(client, created, waiting, program(waiting)).status_code == 200
        undone = send(client, created, waiting, undo(waiting))
        assert undone.status_code == 200, undone.text
        assert undone.json()["action_count"] == undone.json()["position"]  # nothing fired
        assert turns_until(client, created, waiting)


def test_an_undone_cancel_gives_the_order_back() -> None:
    """Undo of the ``program_disable`` that cancelled the order: it is active again and
    passes for him at his turn (he is never asked in this round)."""
    with app_client() as client:
        created = new_game(client, seed=5)
        view = to_stock_round(client, created)
        waiting = next(p for p in tokens(created) if p != view["active"][0])
        assert send(client, created, waiting, program(waiting)).status_code == 200
        cancel = {"type": "program_disable", "entity": waiting, "entity_type": "player",
                  "reason": "changed my mind", "original_type": "program_share_pass"}  # fmt: skip
        assert send(client, created, waiting, cancel).status_code == 200
        assert send(client, created, waiting, undo(waiting)).status_code == 200
        assert not turns_until(client, created, waiting)
