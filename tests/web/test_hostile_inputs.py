"""What the hostile tests of the web app found: an imported game's player names pass the same
checks as a new game's, and ``X-Forwarded-For`` names the client only for the proxies that
``--forwarded-allow-ips`` names (none by default), so no client dodges the create limit."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from webhelp import ServeProcess, app_client

from stellwerk.web.service import MAX_NAME

GAME = {"title": "1849", "players": ["Ann", "Ben", "Cid"]}


def _file_with_names(names: list[str]) -> dict[str, object]:
    """A fresh 1849 game file (made through the API) with its players renamed."""
    with app_client() as client:
        made = client.post("/api/games", json=GAME).json()
        exported = client.get(
            f"/api/games/{made['id']}/file",
            headers={"authorization": f"Bearer {made['spectator']['token']}"},
        ).json()
    players = exported["players"]
    for player, name in zip(players, names, strict=False):
        player["name"] = name
    data: dict[str, object] = exported
    return data


def test_an_imported_file_with_a_500_character_name_is_refused_and_nothing_is_stored() -> None:
    data = _file_with_names(["x" * 500, "Ben", "Cid"])
    with app_client() as client:
        before = len(client.get("/api/games").json()["games"])
        answer = client.post("/api/games/import", content=json.dumps(data).encode(),
                             headers={"content-type": "application/json"})  # fmt: skip
        assert answer.status_code == 400
        assert f"at most {MAX_NAME} characters" in answer.json()["error"]
        assert len(client.get("/api/games").json()["games"]) == before


def test_an_imported_file_with_two_equal_or_empty_names_is_refused() -> None:
    for names in (["Ben", "Ben", "Cid"], ["", "Ben", "Cid"]):
        data = _file_with_names(names)
        with app_client() as client:
            answer = client.post("/api/games/import", content=json.dumps(data).encode(),
                                 headers={"content-type": "application/json"})  # fmt: skip
            assert answer.status_code == 400, names


def test_an_imported_file_with_good_names_is_still_taken() -> None:
    data = _file_with_names(["Ann", "Ben", "Cid"])
    with app_client() as client:
        answer = client.post("/api/games/import", content=json.dumps(data).encode(),
                             headers={"content-type": "application/json"})  # fmt: skip
        assert answer.status_code == 201, answer.text


def _created(url: str, forwarded: list[str]) -> list[int]:
    codes = []
    with httpx.Client(base_url=url, timeout=60) as client:
        for address in forwarded:
            answer = client.post("/api/games", json=GAME, headers={"x-forwarded-for": address})
            codes.append(answer.status_code)
    return codes


def test_a_local_client_cannot_name_other_addresses_by_default(tmp_path: Path) -> None:
    """By default no proxy is trusted: the client is the connecting address, whatever
    ``X-Forwarded-For`` says, so its third game in the hour is refused."""
    server = ServeProcess(tmp_path / "w.db", "--create-limit", "2/3600")
    try:
        codes = _created(server.url, ["203.0.113.1", "203.0.113.2", "203.0.113.3"])
    finally:
        server.stop()
    assert codes == [201, 201, 429]


def test_a_named_proxy_forwards_the_clients_address(tmp_path: Path) -> None:
    """Behind a proxy named by ``--forwarded-allow-ips`` each forwarded client has its own
    bucket."""
    server = ServeProcess(tmp_path / "w.db", "--create-limit", "2/3600",
                          "--forwarded-allow-ips", "127.0.0.1")  # fmt: skip
    try:
        codes = _created(server.url, ["203.0.113.1", "203.0.113.2", "203.0.113.3"])
    finally:
        server.stop()
    assert codes == [201, 201, 201]
