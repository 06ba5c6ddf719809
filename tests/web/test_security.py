"""The web app's security (issue 11, item 5; docs/web.md "Security"): links per game, size
limits, no stack trace to a user, form tokens."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from test_api import first_action
from webhelp import app_client, bearer, new_game, tokens

from stellwerk.api import Game
from stellwerk.web.security import IMPORT_LIMIT, JSON_LIMIT, Csrf, same_origin


def test_a_token_of_game_a_opens_nothing_of_game_b_issue11_5() -> None:
    with app_client() as client:
        a = new_game(client, seed=1)
        b = new_game(client, seed=1)  # the same seats and state, another game
        action, _, count = first_action(client, b)
        for token in [*tokens(a).values(), a["spectator"]["token"]]:
            key = b["id"]
            assert client.get(f"/api/games/{key}", headers=bearer(token)).status_code == 403
            assert client.get(f"/api/games/{key}/file", headers=bearer(token)).status_code == 403
            assert client.get(f"/api/games/{key}/events", headers=bearer(token)).status_code == 403
            answer = client.post(
                f"/api/games/{key}/actions",
                json={"action": action, "base": count},
                headers=bearer(tokens(a)[action["entity"]]),
            )
            assert answer.status_code == 403
        view = client.get(f"/api/games/{b['id']}", headers=bearer(tokens(b)[1])).json()
        assert view["action_count"] == count


def test_oversize_action_is_413_and_changes_nothing_issue11_5() -> None:
    with app_client() as client:
        created = new_game(client)
        action, token, count = first_action(client, created)
        url = f"/api/games/{created['id']}/actions"
        padded = dict(action, note="x" * JSON_LIMIT)
        answer = client.post(url, json={"action": padded, "base": count}, headers=bearer(token))
        assert answer.status_code == 413

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted while it streams in
            yield b'{"action": {"type": "pass", "entity": 1}, "note": "'
            for _ in range(JSON_LIMIT // 1024 + 1):
                yield b"y" * 1024
            yield b'", "base": 0}'

        answer = client.post(url, content=chunks(), headers=bearer(token))
        assert answer.status_code == 413
        view = client.get(f"/api/games/{created['id']}", headers=bearer(token)).json()
        assert view["action_count"] == count


def test_imports_may_be_larger_but_not_over_their_limit() -> None:
    with app_client() as client:
        big = b'{"title": "1849", "players": [], "pad": "' + b"z" * (JSON_LIMIT * 2) + b'"}'
        assert client.post("/api/games/import", content=big).status_code == 400  # read: no players
        huge = b"z" * (IMPORT_LIMIT + 1)
        assert client.post("/api/games/import", content=huge).status_code == 413


class CrashingGame(Game):
    """An engine with a defect: any bid blows up with a message naming internals."""

    def process(self, action: dict[str, Any], replay: bool = False) -> None:
        if action.get("type") == "bid" and not replay:
            raise RuntimeError("secret internals at /srv/stellwerk/engine.py line 42")
        super().process(action, replay)


def test_a_crash_inside_the_engine_is_a_bare_500_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with app_client(engine=CrashingGame) as client:
        created = new_game(client)
        action, token, count = first_action(client, created)
        url = f"/api/games/{created['id']}/actions"
        with caplog.at_level(logging.ERROR, logger="stellwerk.web"):
            answer = client.post(url, json={"action": action, "base": count}, headers=bearer(token))
        assert answer.status_code == 500
        assert answer.json() == {"error": "internal error"}
        for leak in ("Traceback", "RuntimeError", "secret", ".py"):
            assert leak not in answer.text
        logged = [r for r in caplog.records if r.name == "stellwerk.web"]
        assert logged and logged[0].exc_info is not None
        assert "secret internals" in str(logged[0].exc_info[1])
        view = client.get(f"/api/games/{created['id']}", headers=bearer(token)).json()
        assert view["action_count"] == count  # nothing written
        passed = {"type": "pass", "entity": action["entity"], "entity_type": "player"}
        after = client.post(url, json={"action": passed, "base": count}, headers=bearer(token))
        assert after.status_code == 200  # the game goes on


def test_csrf_tokens_bound_to_secret_scope_and_time() -> None:
    csrf = Csrf(b"k" * 32, max_age=60)
    value = csrf.token("game-1", now=1000)
    assert csrf.check(value, "game-1", now=1030)
    assert not csrf.check(value, "game-2", now=1030)  # another scope
    assert not csrf.check(value, "game-1", now=1061)  # too old
    assert not Csrf(b"j" * 32).check(value, "game-1", now=1030)  # another server's secret
    stamp, signature = value.split(".")
    assert not csrf.check(f"{int(stamp) + 1}.{signature}", "game-1", now=1030)
    for junk in (None, "", "nodot", "x.y", ".abc"):
        assert not csrf.check(junk, "game-1", now=1030)


def test_same_origin_refuses_a_foreign_origin() -> None:
    assert same_origin({}, "localhost:8000")  # no Origin: not a cross-site browser post
    assert same_origin({"origin": "http://localhost:8000"}, "localhost:8000")
    assert not same_origin({"origin": "https://evil.example"}, "localhost:8000")
    assert not same_origin({"origin": "null"}, "localhost:8000")
