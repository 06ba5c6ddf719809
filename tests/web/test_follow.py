"""Following a game: the page title and the status line tell a player it is his turn (and only
him), the list of games says who is to act in each, and the script that remembers the games
opened on this device and offers the opt-in sound and notification is served with the page."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_browser_play import browser, server, submit  # noqa: F401
from test_pages import create, csrf_of, forms, post_move

from stellwerk.web.app import create_app


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None), raise_server_exceptions=False) as c:
        yield c


def _title(page: str) -> str:
    found = re.search(r"<title>(.*?)</title>", page, flags=re.S)
    assert found
    return html.unescape(found.group(1))


def test_the_title_says_whose_turn_it_is(client: TestClient) -> None:
    links = create(client)
    ann, bob = client.get(links["Ann"]).text, client.get(links["Bob"]).text
    assert _title(ann).startswith("▶ Your turn · 1849")
    assert 'id="your-turn"' in ann and 'data-yours="1"' in ann
    assert _title(bob) == "1849 - stellwerk" and 'data-yours="0"' in bob
    assert "Your turn" not in _title(client.get(links["spectator"]).text)
    assert 'id="notify"' in ann and 'id="notify"' not in client.get(links["spectator"]).text
    # after Ann's move it is Bob's turn: the titles follow
    bid = next(f for f in forms(ann) if f["kind"] == "bid")
    assert post_move(client, links["Ann"], csrf_of(ann), bid["action"], 0).status_code == 303
    assert _title(client.get(links["Bob"]).text).startswith("▶ Your turn")
    assert not _title(client.get(links["Ann"]).text).startswith("▶")
    german = client.get(links["Bob"] + "?lang=de").text
    assert _title(german).startswith("▶ Du bist am Zug · 1849")


def test_the_list_says_who_is_to_act(client: TestClient) -> None:
    links = create(client)
    listed = html.unescape(client.get("/").text)
    game = links["Ann"].split("/")[2]
    item = re.search(rf'<li data-game="{game}">(.*?)</li>', listed, flags=re.S)
    assert item and "to act: <strong>Ann</strong>" in item.group(1)
    ann = client.get(links["Ann"]).text
    bid = next(f for f in forms(ann) if f["kind"] == "bid")
    post_move(client, links["Ann"], csrf_of(ann), bid["action"], 0)
    listed = html.unescape(client.get("/?lang=de").text)
    item = re.search(rf'<li data-game="{game}">(.*?)</li>', listed, flags=re.S)
    assert item and "am Zug: <strong>Bob</strong>" in item.group(1)


def test_a_browser_follows_the_game(browser: Any, server: str) -> None:  # noqa: F811
    """In Chromium: a player who opted in is told (the page's title changes, a notification
    is shown) when the live feed brings a position where he is to move, and the list of games
    links the games this browser opened, by the seat it opened."""
    setup = browser.new_page()
    setup.goto(f"{server}/new?title=1849")
    setup.fill("textarea[name=players]", "Ann\nBob\nCid")
    setup.fill("input[name=seed]", "5")
    with setup.expect_navigation():
        setup.click("#new-form button[type=submit]")
    links = {
        name: str(setup.get_attribute(f'#seat-links a[data-player="{name}"]', "href"))
        for name in ("Ann", "Bob")
    }
    context = browser.new_context()
    context.grant_permissions(["notifications"], origin=server)
    context.add_init_script(
        "window.shown = []; window.Notification = class { constructor(t) { window.shown.push(t); }"
        " static get permission() { return 'granted'; } static requestPermission() {} };"
    )
    bob = context.new_page()
    bob.goto(server + links["Bob"])
    bob.wait_for_selector("#live:not([hidden])")
    assert not bob.title().startswith("▶")
    bob.check("#notify")
    ann = browser.new_context().new_page()
    ann.goto(server + links["Ann"])
    submit(ann, ann.locator('button[data-kind="bid"]').first)
    bob.wait_for_function("() => document.title.startsWith('▶')", timeout=15000)
    assert bob.evaluate("window.shown") == [bob.title()]
    listing = context.new_page()
    listing.goto(f"{server}/")
    game = links["Bob"].split("/")[2]
    link = listing.locator(f'li[data-game="{game}"] a.game-link')
    assert link.get_attribute("href") == links["Bob"]
    assert "Bob" in link.inner_text()


def test_chat_on_the_page(client: TestClient) -> None:
    """A player's message is stored as an 18xx.games ``message`` action (it changes nothing
    in the game: the same player is still to act), shown to everybody, and in the log; empty
    and over-long messages are refused and change nothing; spectators cannot write."""
    links = create(client)
    bob = client.get(links["Bob"]).text
    answer = client.post(
        links["Bob"] + "/say",
        data={"csrf": csrf_of(bob), "message": "  good   luck <b>all</b> "},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    watch = client.get(links["spectator"]).text
    assert "<strong>Bob:</strong> good luck &lt;b&gt;all&lt;/b&gt;" in watch
    assert 'id="say"' not in watch
    ann = client.get(links["Ann"]).text
    assert _title(ann).startswith("▶ Your turn")  # still Ann's turn
    assert "Bob says: good luck" in html.unescape(client.get(links["Ann"] + "/log").text)
    key = links["Ann"].split("/")[2]
    data = client.get(f"/api/games/{key}/file", params={"token": links["Ann"].split("/")[3]})
    assert data.json()["actions"][-1]["type"] == "message"
    count = len(data.json()["actions"])
    for text, status in (("   ", 422), ("x" * 501, 422)):
        refused = client.post(links["Bob"] + "/say", data={"csrf": csrf_of(bob), "message": text})
        assert refused.status_code == status
    token = links["spectator"].split("/")[3]
    assert (
        client.post(
            f"/play/{key}/{token}/say", data={"csrf": csrf_of(bob), "message": "hi"}
        ).status_code
        == 403
    )
    after = client.get(f"/api/games/{key}/file", params={"token": links["Ann"].split("/")[3]})
    assert len(after.json()["actions"]) == count
