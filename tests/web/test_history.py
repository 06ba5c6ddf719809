"""The history pages (web/history.py): the whole log, searchable without JavaScript, each
action a link to the game as it was right after it -- the same position a replay of the file
up to that action gives -- with the previous and next action a click away; bad ids are 404
and a player's link on the spectators' path is refused."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from test_pages import create, csrf_of, forms, post_move

from stellwerk.api import Game
from stellwerk.pictures.mapview import render_map
from stellwerk.pictures.scene import map_scene
from stellwerk.web.app import create_app
from stellwerk.web.history import matches

GAME_1849 = (
    Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "18xx.games" / "1849"
    / "1849_game_end_bank.json"
)  # fmt: skip


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None), raise_server_exceptions=False) as c:
        yield c


def _play(client: TestClient, links: dict[str, str], moves: int) -> None:
    """``moves`` moves of whoever is to act, each his first offered bid or pass."""
    for _ in range(moves):
        for name in ("Ann", "Bob", "Cid"):
            page = client.get(links[name]).text
            offered = [f for f in forms(page) if f["kind"] in ("bid", "pass")]
            if offered:
                count = int(re.search(r'data-count="(\d+)"', page).group(1))  # type: ignore[union-attr]
                answer = post_move(client, links[name], csrf_of(page), offered[0]["action"], count)
                assert answer.status_code == 303
                break


def test_the_whole_log_with_search_and_links(client: TestClient) -> None:
    links = create(client)
    _play(client, links, 3)
    game = client.get(links["Ann"]).text
    assert 'href="' + links["Ann"] + '/log"' in game
    whole = html.unescape(client.get(links["Ann"] + "/log").text)
    ids = re.findall(r'href="' + re.escape(links["Ann"]) + r'/at/(\d+)"', whole)
    assert ids == ["1", "2", "3"]
    assert "3 of " in whole
    found = html.unescape(client.get(links["Ann"] + "/log", params={"q": "BOB"}).text)
    lines = re.findall(r"<li class=\"(?:action|auto)\"[^>]*>(.*?)</li>", found, flags=re.S)
    assert lines and all("bob" in line.casefold() for line in lines)
    assert "Bob" in found and 'value="BOB"' in found
    spectator = client.get(links["spectator"] + "/log")
    assert spectator.status_code == 200 and "/at/1" in spectator.text
    german = html.unescape(client.get(links["Ann"] + "/log?lang=de").text)
    assert "Ganzes Protokoll" in german


def test_matches_needs_every_word() -> None:
    assert matches("Ann buys a 10% share of SFA", "sfa ann")
    assert not matches("Ann buys a 10% share of SFA", "sfa bob")
    assert matches("anything", "")


def test_a_past_position_is_the_replay_up_to_that_action(client: TestClient) -> None:
    """The map after action N of a real game is the map of the file cut after action N."""
    if not GAME_1849.is_file():
        pytest.skip("../shared fixtures absent")
    data = json.loads(GAME_1849.read_text(encoding="utf-8"))
    answer = client.post("/api/games/import", json=data)
    assert answer.status_code == 201, answer.text
    link = answer.json()["players"][0]["link"]
    link = client.get(link, follow_redirects=False).headers["location"]
    ids = [a["id"] for a in data["actions"]]
    n = ids[len(ids) // 2]
    page = client.get(f"{link}/at/{n}").text
    cut = Game.from_file({**data, "actions": data["actions"][: ids.index(n) + 1]})
    expected = render_map(map_scene(cut.view))
    assert expected in page
    assert f'href="{link}/at/{ids[ids.index(n) - 1]}"' in page
    assert f'href="{link}/at/{ids[ids.index(n) + 1]}"' in page
    assert render_map(map_scene(Game.from_file(data).view)) not in page
    first = client.get(f"{link}/at/{ids[0]}").text
    assert 'id="previous"' not in first and 'id="next"' in first
    assert client.get(f"{link}/at/{max(ids) + 1}").status_code == 404


def test_history_links_keep_to_their_seat(client: TestClient) -> None:
    links = create(client)
    _play(client, links, 1)
    key, token = links["Ann"].split("/")[2:4]
    assert client.get(f"/watch/{key}/{token}/log").status_code == 403
    assert client.get(f"/play/{key}/wrongtoken/at/1").status_code == 403
    assert client.get(f"/play/{key}/{token}/at/1").status_code == 200
