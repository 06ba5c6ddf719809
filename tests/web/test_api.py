"""The JSON API's shape and every status code (issue 11, item 3; docs/web.md)."""

from __future__ import annotations

from typing import Any

from webhelp import app_client, bearer, new_game, tokens

from stellwerk.web.seats import ANNEX, digest


def first_action(client: Any, created: dict[str, Any]) -> tuple[dict[str, Any], str, int]:
    """The first legal action of the active player, his token and the count."""
    toks = tokens(created)
    view = client.get(f"/api/games/{created['id']}", headers=bearer(toks[1])).json()
    action = next(a for a in view["legal_actions"] if a["type"] == "bid")
    return action, toks[action["entity"]], view["action_count"]


def test_create_answers_id_players_with_token_and_link_issue11_3() -> None:
    with app_client() as client:
        created = new_game(client, ["Ann", "Bob", "Cid"])
        assert set(created) >= {"id", "players", "spectator"}
        assert [p["name"] for p in created["players"]] == ["Ann", "Bob", "Cid"]
        for seat in [*created["players"], created["spectator"]]:
            assert len(seat["token"]) >= 32
            assert seat["token"] in seat["link"] and created["id"] in seat["link"]
        assert len({p["token"] for p in created["players"]}) == 3


def test_show_answers_title_count_active_legal_finished_issue11_3() -> None:
    with app_client() as client:
        created = new_game(client)
        answer = client.get(f"/api/games/{created['id']}", headers=bearer(tokens(created)[2]))
        assert answer.status_code == 200
        view = answer.json()
        assert view["title"] == "1849" and view["action_count"] == 0
        assert view["active"] == [1] and view["finished"] is False
        assert {"type": "pass", "entity": 1, "entity_type": "player"} in view["legal_actions"]
        assert view["you"] == {"role": "player", "player": 2, "name": "Bob"}
        assert view["yours"] == []  # Bob is not to act


def test_act_200_counts_and_409_on_a_moved_game_store_base() -> None:
    with app_client() as client:
        created = new_game(client)
        action, token, count = first_action(client, created)
        url = f"/api/games/{created['id']}/actions"
        answer = client.post(url, json={"action": action, "base": count}, headers=bearer(token))
        assert answer.status_code == 200 and answer.json() == {
            "action_count": count + 1,
            "position": count + 1,
        }
        again = client.post(url, json={"action": action, "base": count}, headers=bearer(token))
        assert again.status_code == 409
        assert again.json()["action_count"] == count + 1
        file = client.get(f"/api/games/{created['id']}/file", headers=bearer(token)).json()
        assert len(file["actions"]) == count + 1


def test_refused_action_is_422_with_the_rule_and_writes_nothing_common_rules() -> None:
    with app_client() as client:
        created = new_game(client)
        action, token, count = first_action(client, created)
        bad = dict(action, price=action["price"] - 5)  # below the minimum bid
        url = f"/api/games/{created['id']}/actions"
        answer = client.post(url, json={"action": bad, "base": count}, headers=bearer(token))
        assert answer.status_code == 422
        body = answer.json()
        assert body["error"] and body["rule"]
        view = client.get(f"/api/games/{created['id']}", headers=bearer(token)).json()
        assert view["action_count"] == count


def test_another_players_entity_is_403_issue11_5() -> None:
    with app_client() as client:
        created = new_game(client)
        action, _, count = first_action(client, created)
        other = tokens(created)[2]  # Bob sends Ann's bid
        url = f"/api/games/{created['id']}/actions"
        answer = client.post(url, json={"action": action, "base": count}, headers=bearer(other))
        assert answer.status_code == 403
        spectator = created["spectator"]["token"]
        answer = client.post(url, json={"action": action, "base": count}, headers=bearer(spectator))
        assert answer.status_code == 403


def test_missing_token_401_wrong_token_403_unknown_game_404() -> None:
    with app_client() as client:
        created = new_game(client)
        key = created["id"]
        assert client.get(f"/api/games/{key}").status_code == 401
        assert client.get(f"/api/games/{key}", headers=bearer("x" * 32)).status_code == 403
        assert client.get(f"/api/games/{key}?token=" + "y" * 32).status_code == 403
        assert client.get("/api/games/nope", headers=bearer("x")).status_code == 404
        assert client.get(f"/api/games/{key}/events").status_code == 401
        assert client.get(f"/api/games/{key}/file").status_code == 401
        assert client.get("/api/games/nope/events", headers=bearer("x")).status_code == 404
        assert client.post("/api/games/nope/deadline", headers=bearer("x")).status_code == 404
        post = client.post("/api/games/nope/actions", json={"action": {}, "base": 0})
        assert post.status_code == 404 and post.json() == {"error": "no such game"}


def test_malformed_bodies_are_400() -> None:
    with app_client() as client:
        created = new_game(client)
        token = tokens(created)[1]
        url = f"/api/games/{created['id']}/actions"
        for body in (
            b"{not json",
            b"[1, 2]",
            b'{"action": 3, "base": 0}',
            b'{"action": {"type": "pass", "entity": 1}, "base": "0"}',
            b'{"action": {"type": "pass", "entity": 1}, "base": -1}',
        ):
            answer = client.post(url, content=body, headers=bearer(token))
            assert answer.status_code == 400, body
            assert "error" in answer.json()
        for game in (
            {"title": "1849"},
            {"title": "1849", "players": ["A", "A", "B"]},
            {"title": 1849, "players": ["A", "B", "C"]},
            {"title": "1849", "players": ["A", "B", "C"], "seed": "x"},
        ):
            assert client.post("/api/games", json=game).status_code == 400, game


def test_wrong_player_count_option_or_unknown_title_is_422_titles_registry() -> None:
    with app_client() as client:
        for game in (
            {"title": "1849", "players": ["A", "B"]},
            {"title": "1849", "players": ["A", "B", "C"], "options": ["nope"]},
            {"title": "1841", "players": ["A", "B"]},
            {"title": "9999", "players": ["A", "B", "C"]},
        ):
            answer = client.post("/api/games", json=game)
            assert answer.status_code == 422, game
            assert answer.json()["rule"], game


def test_list_shows_games_without_tokens() -> None:
    with app_client() as client:
        created = new_game(client)
        listed = client.get("/api/games").json()["games"]
        assert [g["id"] for g in listed] == [created["id"]]
        assert listed[0]["players"] == ["Ann", "Bob", "Cid"]
        assert created["players"][0]["token"] not in str(listed)


def test_only_token_digests_are_stored_and_export_has_no_secret() -> None:
    with app_client() as client:
        created = new_game(client)
        service = client.app.state.service  # type: ignore[attr-defined]
        record = service._pool.submit(service._store.annex_get, created["id"], ANNEX).result()
        text = str(record)
        for seat in [*created["players"], created["spectator"]]:
            assert seat["token"] not in text
            assert digest(seat["token"]) in text
        exported = client.get(
            f"/api/games/{created['id']}/file", headers=bearer(created["spectator"]["token"])
        )
        assert exported.status_code == 200
        for seat in created["players"]:
            assert seat["token"] not in exported.text and digest(seat["token"]) not in exported.text


def test_import_18xx_file_and_export_round_trip() -> None:
    with app_client() as client:
        created = new_game(client)
        action, token, count = first_action(client, created)
        url = f"/api/games/{created['id']}/actions"
        client.post(url, json={"action": action, "base": count}, headers=bearer(token))
        file = client.get(f"/api/games/{created['id']}/file", headers=bearer(token)).json()
        answer = client.post("/api/games/import", json=file)
        assert answer.status_code == 201
        copy = answer.json()
        assert copy["id"] != created["id"]
        assert [p["name"] for p in copy["players"]] == ["Ann", "Bob", "Cid"]
        again = client.get(
            f"/api/games/{copy['id']}/file", headers=bearer(copy["players"][0]["token"])
        )
        assert again.json()["actions"] == file["actions"]
        broken = dict(file, actions=[dict(action, price=1)])
        assert client.post("/api/games/import", json=broken).status_code == 422
        assert (
            client.post("/api/games/import?format=rails-report", content=b"hello").status_code
            == 400
        )


def test_security_headers_on_every_answer_issue11_5() -> None:
    with app_client() as client:
        for answer in (client.get("/healthz"), client.get("/api/games/x")):
            assert answer.headers["x-content-type-options"] == "nosniff"
            assert answer.headers["x-frame-options"] == "DENY"
            assert answer.headers["referrer-policy"] == "no-referrer"
            assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        assert client.get("/api/games").headers["cache-control"] == "no-store"


def test_undo_and_redo_only_of_ones_own_moves_common_rules_3_4() -> None:
    with app_client() as client:
        created = new_game(client)
        action, token, count = first_action(client, created)
        seats = tokens(created)
        url = f"/api/games/{created['id']}/actions"

        def send(pid: int, kind: str, base: int) -> Any:
            body = {"action": {"type": kind, "entity": pid, "entity_type": "player"}, "base": base}
            return client.post(url, json=body, headers=bearer(seats[pid]))

        assert client.post(url, json={"action": action, "base": count}, headers=bearer(token))
        assert send(2, "undo", count + 1).status_code == 403  # Ann's bid is not Bob's
        assert send(1, "undo", count + 1).json()["action_count"] == count + 2
        assert send(2, "redo", count + 2).status_code == 403
        assert send(1, "redo", count + 2).json()["action_count"] == count + 3
        refused = send(1, "redo", count + 3)  # nothing to redo
        assert refused.status_code == 422 and refused.json()["rule"] == "common rules §3.4"
        file = client.get(f"/api/games/{created['id']}/file", headers=bearer(token)).json()
        assert [a["type"] for a in file["actions"]] == ["bid", "undo", "redo"]
        assert {a["user"] for a in file["actions"]} == {1}  # who sent each


def test_with_game_hands_the_pages_the_game_after_the_token_check() -> None:
    import asyncio

    import pytest

    from stellwerk.web.errors import Forbidden

    with app_client() as client:
        created = new_game(client)
        service = client.app.state.service  # type: ignore[attr-defined]
        token = tokens(created)[2]

        def look(stored: Any, access: Any, extra: str) -> tuple[Any, ...]:
            return stored.count, stored.game.active_entities(), access.name, extra

        got = asyncio.run(service.with_game(created["id"], token, look, "x"))
        assert got == (0, [1], "Bob", "x")
        with pytest.raises(Forbidden):
            asyncio.run(service.with_game(created["id"], "wrong", look, "x"))


def test_one_player_cannot_end_the_game_for_all() -> None:
    with app_client() as client:
        created = new_game(client)
        end = {"type": "end_game", "entity": 1, "entity_type": "player"}
        answer = client.post(
            f"/api/games/{created['id']}/actions",
            json={"action": end, "base": 0},
            headers=bearer(tokens(created)[1]),
        )
        assert answer.status_code == 403
        view = client.get(f"/api/games/{created['id']}", headers=bearer(tokens(created)[1]))
        assert view.json()["action_count"] == 0 and view.json()["finished"] is False
