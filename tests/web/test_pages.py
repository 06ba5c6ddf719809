"""The web pages without a browser (Starlette's TestClient): forms, CSRF, links, languages,
refusals shown as the rule's sentence, import and export (issue 11 items 1, 2 and 5)."""

from __future__ import annotations

import html
import json
import re
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2 for its TestClient
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from stellwerk.titles.registry import title_info
from stellwerk.web.app import create_app
from stellwerk.web.seats import digest

FIXTURES = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures"


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None), raise_server_exceptions=False) as c:
        yield c


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found, "the page has a form token"
    return found.group(1)


def forms(page: str) -> list[dict[str, Any]]:
    """The move forms of a game page: their action JSON and button kind."""
    out = []
    for match in re.finditer(
        r'name="action" value="([^"]+)">.*?data-kind="(\w+)"', page, flags=re.S
    ):
        out.append({"action": json.loads(html.unescape(match.group(1))), "kind": match[2]})
    return out


def turn_forms(page: str) -> list[dict[str, Any]]:
    """The move forms of a game page for its player's turn (not the undo of his last move,
    which is offered after his turn)."""
    return [f for f in forms(page) if f["kind"] != "undo"]


def create(client: TestClient, title: str = "1849", names: str = "Ann\nBob\nCid") -> dict[str, str]:
    """A game made with the new-game form: name -> link, and ``spectator``."""
    page = client.get(f"/new?title={title}").text
    answer = client.post(
        "/new", data={"csrf": csrf_of(page), "title": title, "players": names, "seed": "5"}
    )
    assert answer.status_code == 201, answer.text
    links = dict(re.findall(r'href="(/play/[^"]+)" data-player="([^"]+)"', answer.text))
    out = {name: link for link, name in links.items()}
    spectator = re.search(r'href="(/watch/[^"]+)" data-spectator', answer.text)
    assert spectator
    out["spectator"] = spectator.group(1)
    return out


def count_of(page: str) -> int:
    found = re.search(r'id="game" data-count="(\d+)"', page)
    assert found
    return int(found.group(1))


def test_pages_are_usable_on_a_phone(client: TestClient) -> None:
    """Issue 11 item 1: a viewport, one stylesheet and one script, no build step."""
    page = client.get("/").text
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert client.get("/static/app.css").status_code == 200
    assert client.get("/static/app.js").status_code == 200


def test_new_game_form_lists_the_titles_options_with_their_labels(client: TestClient) -> None:
    """The new-game form offers every registered title and shows every option of the title by
    its label (stellwerk options)."""
    for title in ("1849", "1835", "1841"):
        page = html.unescape(client.get(f"/new?title={title}").text)
        for option in title_info(title).options:
            assert f'value="{option.id}"' in page
            assert option.label in page
    from stellwerk.titles import registry

    offered = re.findall(r'href="/new\?title=(\w+)"', client.get("/new").text)
    assert set(offered) == set(registry.TITLES)


def test_a_new_game_gives_a_link_per_player_and_one_for_spectators(client: TestClient) -> None:
    """Issue 11 item 2: secret links; the acting player's page offers his moves, another
    player's and the spectators' offer none."""
    links = create(client)
    ann = client.get(links["Ann"])
    assert ann.status_code == 200
    assert 'id="choices"' in ann.text and forms(ann.text)
    assert all(f["action"]["entity"] == 1 for f in forms(ann.text))
    bob = client.get(links["Bob"]).text
    assert 'id="choices"' not in bob and not forms(bob)
    watch = client.get(links["spectator"]).text
    assert 'id="choices"' not in watch and 'id="map"' in watch
    # the map is the clickable picture
    assert 'data-hex="' in ann.text and 'data-city="' in ann.text
    # a spectator link is not a player's page, nor the other way round
    key, token = links["spectator"].split("/")[2:4]
    assert client.get(f"/play/{key}/{token}").status_code == 403
    # the API's link goes to the right page
    answer = client.get(f"/games/{key}?token={token}", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == links["spectator"]
    german = client.get(f"/games/{key}?token={token}&lang=de", follow_redirects=False)
    assert german.headers["location"] == links["spectator"] + "?lang=de"
    odd = client.get(f"/games/{key}?token={token}&lang=xx", follow_redirects=False)
    assert odd.headers["location"] == links["spectator"]


def test_a_move_by_button_and_the_log(client: TestClient) -> None:
    """A button posts its action; the page after it shows the move in the log."""
    links = create(client)
    page = client.get(links["Ann"]).text
    bid = next(f for f in forms(page) if f["kind"] == "bid")
    answer = client.post(
        links["Ann"] + "/act",
        data={"csrf": csrf_of(page), "base": "0", "action": json.dumps(bid["action"])},
        follow_redirects=False,
    )
    assert answer.status_code == 303 and answer.headers["location"] == links["Ann"]
    after = client.get(links["Ann"]).text
    assert count_of(after) == 1
    assert "Ann bids" in html.unescape(after)
    assert 'id="choices"' in client.get(links["Bob"]).text


def post_move(client: TestClient, link: str, csrf: str, action: dict[str, Any], base: int) -> Any:
    return client.post(
        link + "/act",
        data={"csrf": csrf, "base": str(base), "action": json.dumps(action)},
        follow_redirects=False,
    )


def test_every_post_needs_the_forms_token_and_the_cookie(client: TestClient) -> None:
    """Issue 11 item 5 (CSRF): a move without the signed token, with another seat's token,
    without the SameSite cookie or from another origin is 403 and changes nothing."""
    links = create(client)
    page = client.get(links["Ann"]).text
    move = forms(page)[0]["action"]
    # a valid token of Bob's seat (Bob's page has no form now: it is not his turn)
    key, bob_token = links["Bob"].split("/")[2:4]
    nonce = client.cookies.get("stellwerk_csrf")
    bob_csrf = client.app.state.csrf.token(f"act|{key}|{digest(bob_token)}|{nonce}")
    assert post_move(client, links["Ann"], "", move, 0).status_code == 403
    assert post_move(client, links["Ann"], "1.abc", move, 0).status_code == 403
    assert post_move(client, links["Ann"], bob_csrf, move, 0).status_code == 403
    other = create(client)
    other_csrf = csrf_of(client.get(other["Ann"]).text)
    assert post_move(client, links["Ann"], other_csrf, move, 0).status_code == 403
    good = csrf_of(page)
    cookies = dict(client.cookies)
    client.cookies.clear()
    assert post_move(client, links["Ann"], good, move, 0).status_code == 403
    client.cookies.update(cookies)
    answer = client.post(
        links["Ann"] + "/act",
        data={"csrf": good, "base": "0", "action": json.dumps(move)},
        headers={"origin": "http://evil.example"},
        follow_redirects=False,
    )
    assert answer.status_code == 403
    answer = client.post(
        links["Ann"] + "/act",
        data={"csrf": good, "base": "0", "action": json.dumps(move)},
        headers={"sec-fetch-site": "cross-site"},
        follow_redirects=False,
    )
    assert answer.status_code == 403
    assert count_of(client.get(links["Ann"]).text) == 0
    new_page = client.get("/new").text
    assert client.post("/new", data={"title": "1849", "players": "A\nB\nC"}).status_code == 403
    assert csrf_of(new_page)


def test_a_refused_move_shows_the_rules_sentence_and_changes_nothing(client: TestClient) -> None:
    """A bid under the least price is refused by the engine: the page says why, citing the
    rule, with no traceback; the game is unchanged."""
    links = create(client)
    page = client.get(links["Ann"]).text
    bid = next(f for f in forms(page) if f["kind"] == "bid")["action"]
    answer = client.post(
        links["Ann"] + "/act",
        data={"csrf": csrf_of(page), "base": "0", "action": json.dumps(bid), "price": "1"},
    )
    assert answer.status_code == 422
    text = html.unescape(answer.text)
    error = re.search(r'id="error">(.*?)</p>', text, flags=re.S)
    assert error and "rule" in error.group(1).lower() + text.lower()
    assert "Traceback" not in text and 'File "' not in text
    assert count_of(answer.text) == 0
    # another player's move through Ann's link
    bobs = dict(bid, entity=2)
    answer = post_move(client, links["Ann"], csrf_of(page), bobs, 0)
    assert answer.status_code == 403 and count_of(answer.text) == 0


def test_a_stale_page_is_told_the_game_moved_on(client: TestClient) -> None:
    """A move based on an old count is refused (409) and the page shows the game as it is."""
    links = create(client)
    page = client.get(links["Ann"]).text
    first = forms(page)[0]["action"]
    assert post_move(client, links["Ann"], csrf_of(page), first, 0).status_code == 303
    later = client.get(links["Bob"]).text
    bob_move = forms(later)[0]["action"]
    answer = post_move(client, links["Bob"], csrf_of(later), bob_move, 0)
    assert answer.status_code == 409
    assert count_of(answer.text) == 1


def test_language_switch_is_kept(client: TestClient) -> None:
    """?lang=de switches the pages and the game's words to German and stays so."""
    links = create(client)
    german = client.get(links["Ann"] + "?lang=de").text
    assert 'lang="de"' in german and "Passen" in german and "Karte" in german
    again = client.get(links["Ann"]).text
    assert 'lang="de"' in again and "Passen" in again
    english = client.get(links["Ann"] + "?lang=en").text
    assert "Pass" in english and 'lang="en"' in english


def test_money_in_the_titles_currency_and_the_languages_digits(client: TestClient) -> None:
    """Cash is shown as the log shows it (stellwerk.words.money): 1835 in marks, German
    thousands with a dot."""
    links = create(client, "1835")
    german = client.get(links["Ann"] + "?lang=de").text
    assert re.search(r"Bank:</strong> \d{1,3}\.\d{3} M", german)
    english = client.get(links["Ann"] + "?lang=en").text
    assert re.search(r"Bank:</strong> \d{1,3},\d{3} M", english)


def test_new_game_refusals_are_shown_on_the_form(client: TestClient) -> None:
    """A wrong player count is the engine's refusal, shown with its rule."""
    page = client.get("/new?title=1849").text
    answer = client.post(
        "/new", data={"csrf": csrf_of(page), "title": "1849", "players": "Ann\nBob"}
    )
    assert answer.status_code == 422
    assert 'class="error"' in answer.text and "Traceback" not in answer.text
    # what was typed is kept: the names, the options ticked, the seed
    answer = client.post(
        "/new",
        data={"csrf": csrf_of(page), "title": "1849", "players": "Ann\nBob<b>", "seed": "77",
              "option": "bonds"},
    )  # fmt: skip
    assert answer.status_code == 422
    assert ">Ann\nBob&lt;b&gt;</textarea>" in answer.text
    assert 'value="bonds" checked' in answer.text and 'value="77"' in answer.text


def test_import_an_18xx_games_file_and_export_it(client: TestClient) -> None:
    """Import (upload of an 18xx.games file) and the export link give the same game."""
    path = FIXTURES / "18xx.games" / "1849" / "1849_game_end_bank.json"
    if not path.exists():
        pytest.skip(f"{path} not found")
    home = client.get("/").text
    answer = client.post(
        "/import",
        data={"csrf": csrf_of(home)},
        files={"file": ("game.json", path.read_bytes(), "application/json")},
    )
    assert answer.status_code == 201, answer.text
    watch = re.search(r'href="(/watch/[^"]+)"', answer.text)
    assert watch
    page = client.get(watch.group(1)).text
    assert 'id="game-over"' in page
    export = re.search(r'href="(/api/games/[^"]+/file\?token=[^"]+)"', page)
    assert export
    exported = client.get(html.unescape(export.group(1))).json()
    original = json.loads(path.read_text())
    assert len(exported["actions"]) == len(original["actions"])
    assert client.post("/import", data={"csrf": "x"}).status_code == 403


def test_import_a_rails_report(client: TestClient) -> None:
    path = FIXTURES / "rails" / "1835" / "1835_changePresidentAtStart.report"
    if not path.exists():
        pytest.skip(f"{path} not found")
    home = client.get("/").text
    answer = client.post(
        "/import",
        data={"csrf": csrf_of(home)},
        files={"file": ("game.report", path.read_bytes(), "text/plain")},
    )
    assert answer.status_code == 201, answer.text
    assert "/play/" in answer.text
    listed = client.get("/").text
    assert "1835" in listed


def test_deadline_in_the_browser_applies_the_default_order() -> None:
    """Issue 11 item 2 (the game master's deadlines): a game made with hours per decision
    shows when the open decision is due; once due, a player applies the default order
    (web.deadlines) and it is in the log, marked."""
    with TestClient(create_app(None, deadline_interval=0), raise_server_exceptions=False) as c:
        page = c.get("/new?title=1835").text
        answer = c.post(
            "/new",
            data={
                "csrf": csrf_of(page),
                "title": "1835",
                "players": "Ann\nBob\nCid",
                "deadline_hours": "0.0001",
            },
        )
        assert answer.status_code == 201, answer.text
        link = re.findall(r'href="(/play/[^"]+)" data-player="Bob"', answer.text)[0]
        time.sleep(1.2)
        page = c.get(link).text
        assert 'id="due"' in page and 'id="settle"' in page
        settled = c.post(link + "/deadline", data={"csrf": csrf_of(page)}, follow_redirects=False)
        assert settled.status_code == 303, settled.text
        after = c.get(link).text
        assert count_of(after) >= 1
        assert c.post(link + "/deadline", data={"csrf": "x"}).status_code == 403


def test_tile_previews_of_the_titles_tiles(client: TestClient) -> None:
    """The lay panels show each rotation's picture: a tile of the title in a rotation is an
    SVG; an unknown title, tile or rotation is 404."""
    answer = client.get("/tile/1835/201/3.svg")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("image/svg")
    assert answer.text.startswith("<svg") and "rotate" not in answer.text.split(">")[0]
    assert client.get("/tile/1835/201/2.svg").text != answer.text
    for wrong in ("/tile/1835/nope/0.svg", "/tile/9999/201/0.svg", "/tile/1835/201/6.svg"):
        assert client.get(wrong).status_code == 404


def play_until(client: TestClient, links: dict[str, str], marker: str, most: int = 30) -> str:
    """Play first-listed bids, pars and buys (else a pass) until a page shows ``marker``;
    the name of a player not to move then."""
    for _ in range(most):
        pages = {name: client.get(link).text for name, link in links.items() if name != "spectator"}
        page = next(iter(pages.values()))
        if marker in page:
            return next(name for name, text in pages.items() if not turn_forms(text))
        name, text = next((n, t) for n, t in pages.items() if turn_forms(t))
        found = {f["kind"]: f["action"] for f in reversed(turn_forms(text))}
        move = next(found[k] for k in ("par", "buy_shares", "bid", "pass") if k in found)
        answer = post_move(client, links[name], csrf_of(text), move, count_of(text))
        assert answer.status_code == 303
    pytest.fail(f"{marker!r} not reached")


def test_standing_orders_in_the_browser(client: TestClient) -> None:
    """Issue 11 item 2 (the game master's standing orders): a player gives "pass for the
    rest of this stock round" on his page and it acts at his turn; he can cancel an order;
    an unknown order is refused and changes nothing."""
    links = create(client)
    waiting = play_until(client, links, 'id="round-name">Stock round')
    link = links[waiting]
    page = client.get(link).text
    assert 'id="order-share-pass"' in page and 'id="order-buy-shares"' in page

    def order(fields: dict[str, str], page: str) -> Any:
        data = {"csrf": csrf_of(page), "base": str(count_of(page)), **fields}
        return client.post(link + "/standing", data=data, follow_redirects=False)

    answer = order({"kind": "buy_shares", "corporation": "ATA", "until": "float"}, page)
    assert answer.status_code == 303, answer.text
    page = client.get(link).text
    assert 'data-order="buy_shares"' in page
    answer = order({"kind": "disable", "original": "buy_shares"}, page)
    assert answer.status_code == 303
    page = client.get(link).text
    assert 'data-order="buy_shares"' not in page
    before = count_of(page)
    assert order({"kind": "nonsense"}, page).status_code == 400
    forged = client.post(
        link + "/standing",
        data={"csrf": "1.x", "base": str(before), "kind": "share_pass"},
        follow_redirects=False,
    )
    assert forged.status_code == 403
    assert count_of(client.get(link).text) == before
    said = f"{waiting} passes"
    passes = html.unescape(page).count(said)
    assert order({"kind": "share_pass"}, page).status_code == 303
    # the order passes for him when his turn comes: he never has a move in this round
    for _ in range(12):
        page = client.get(link).text
        if 'id="round-name">Stock round' not in page:
            break
        assert not turn_forms(page), "the standing pass acts at his turn"
        others = {
            n: client.get(li).text for n, li in links.items() if n not in ("spectator", waiting)
        }
        mover = next(((n, t) for n, t in others.items() if turn_forms(t)), None)
        if mover is None:
            break
        name, text = mover
        found = {f["kind"]: f["action"] for f in turn_forms(text)}
        move = found.get("pass") or next(iter(found.values()))
        assert (
            post_move(client, links[name], csrf_of(text), move, count_of(text)).status_code == 303
        )
    assert html.unescape(client.get(link).text).count(said) > passes
