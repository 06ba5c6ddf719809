"""Table play (hotseat): one link for the one screen a table shares.  It acts for whoever is to
act -- each move is recorded as that player's (``user``) --, shows who acts in large letters
with the bank's and the players' cash, may take back the last move whoever made it, and is
refused for nothing a seat may do for its player; the spectators still act for nobody."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient
from test_pages import csrf_of, forms

from stellwerk.web.app import create_app


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None), raise_server_exceptions=False) as c:
        yield c


def _create(client: TestClient) -> tuple[str, dict[str, str]]:
    page = client.get("/new?title=1849").text
    answer = client.post(
        "/new", data={"csrf": csrf_of(page), "title": "1849", "players": "Ann\nBob\nCid",
                      "seed": "5"},
    )  # fmt: skip
    assert answer.status_code == 201
    table = re.search(r'href="(/table/[^"]+)" data-table', answer.text)
    assert table
    links = dict(re.findall(r'href="(/play/[^"]+)" data-player="([^"]+)"', answer.text))
    return table.group(1), {name: link for link, name in links.items()}


def _move(client: TestClient, table: str, kind: str) -> None:
    page = client.get(table).text
    chosen = next(f for f in forms(page) if f["kind"] == kind)
    count = re.search(r'data-count="(\d+)"', page)
    assert count
    answer = client.post(
        table + "/act",
        data={
            "csrf": csrf_of(page),
            "base": count.group(1),
            "action": json.dumps(chosen["action"]),
        },
        follow_redirects=False,
    )
    assert answer.status_code == 303 and answer.headers["location"] == table


def _acting(page: str) -> str:
    found = re.search(r'id="table-acting">(.*?)</span>', page)
    assert found
    return html.unescape(found.group(1))


def test_the_table_acts_for_whoever_is_to_act(client: TestClient) -> None:
    table, links = _create(client)
    page = client.get(table).text
    assert _acting(page) == "Ann" and 'id="table-bank"' in page
    assert re.search(r'data-player="Bob">Bob: <strong>L\.\d', page)
    assert all(f["action"]["entity"] == 1 for f in forms(page) if f["kind"] != "undo")
    _move(client, table, "pass")
    assert _acting(client.get(table).text) == "Bob"
    _move(client, table, "pass")
    assert _acting(client.get(table).text) == "Cid"
    key, token = table.split("/")[2:4]
    data = client.get(f"/api/games/{key}/file", params={"token": token}).json()
    assert [a.get("user") for a in data["actions"]] == [1, 2]  # each move is its player's
    # the table may take back the last move, whoever made it (Bob's here)
    page = client.get(table).text
    undo = next(f for f in forms(page) if f["kind"] == "undo")
    assert undo["action"]["entity"] == 2
    _move(client, table, "undo")
    assert _acting(client.get(table).text) == "Bob"
    # Bob's own seat sees it is his turn, Ann's does not
    assert "Your turn" in client.get(links["Bob"]).text.split("</title>")[0]
    assert "Your turn" not in client.get(links["Ann"]).text.split("</title>")[0]


def test_a_table_link_is_only_for_the_table(client: TestClient) -> None:
    table, links = _create(client)
    key, token = table.split("/")[2:4]
    assert client.get(f"/play/{key}/{token}").status_code == 403
    assert client.get(f"/watch/{key}/{token}").status_code == 403
    assert (
        client.get(f"/games/{key}?token={token}", follow_redirects=False).headers["location"]
        == table
    )
    seat = links["Ann"].split("/")[3]
    assert client.get(f"/table/{key}/{seat}").status_code == 403
    assert client.get(table + "/log").status_code == 200
    german = html.unescape(client.get(table + "?lang=de").text)
    assert "ist am Zug" in german


def test_the_api_takes_the_tables_token(client: TestClient) -> None:
    answer = client.post("/api/games", json={"title": "1849", "players": ["A", "B", "C"]})
    assert answer.status_code == 201
    made = answer.json()
    token = made["table"]["token"]
    shown = client.get(f"/api/games/{made['id']}", params={"token": token}).json()
    assert shown["you"]["role"] == "table" and shown["yours"] == shown["active"]
    first = next(a for a in shown["legal_actions"] if a["type"] == "pass")
    moved = client.post(
        f"/api/games/{made['id']}/actions",
        json={"action": first, "base": 0},
        headers={"authorization": f"Bearer {token}"},
    )
    assert moved.status_code == 200, moved.text
