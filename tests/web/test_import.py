"""Import of real games (issue 11, item 2): an 18xx.games file and a Rails 1835 report, from
../shared/fixtures (skipped without it); the imported game reads like the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from webhelp import app_client, bearer

FIXTURES = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures"


def fixture(path: str) -> Path:
    found = FIXTURES / path
    if not found.is_file():
        pytest.skip(f"fixture {found} not found")
    return found


def test_import_real_1849_game_file_keeps_every_action_and_the_result() -> None:
    data = json.loads(fixture("18xx.games/1849/1849_game_end_bank.json").read_text())
    with app_client() as client:
        answer = client.post(
            "/api/games/import",
            content=json.dumps(data).encode(),
            headers={"content-type": "application/json"},
        )
        assert answer.status_code == 201, answer.text
        created = answer.json()
        names = [p["name"] for p in data["players"]]
        assert [p["name"] for p in created["players"]] == names
        token = created["spectator"]["token"]
        view = client.get(f"/api/games/{created['id']}", headers=bearer(token)).json()
        assert view["action_count"] == len(data["actions"])
        assert view["finished"] is True
        assert {str(k): v for k, v in view["result"].items()} == {
            str(k): v for k, v in data["result"].items()
        }
        exported = client.get(f"/api/games/{created['id']}/file", headers=bearer(token)).json()
        assert exported["actions"] == data["actions"]


def test_import_rails_1835_report_makes_a_playable_1835_game() -> None:
    text = fixture("rails/1835/1835_changePresidentAtStart.report").read_text()
    with app_client() as client:
        answer = client.post(
            "/api/games/import", content=text.encode(), headers={"content-type": "text/plain"}
        )
        assert answer.status_code == 201, answer.text
        created = answer.json()
        assert created["title"] == "1835" and len(created["players"]) >= 3
        view = client.get(
            f"/api/games/{created['id']}", headers=bearer(created["players"][0]["token"])
        ).json()
        assert view["title"] == "1835" and view["action_count"] > 0
