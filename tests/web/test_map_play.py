"""The map to play on without a script (docs/web.md, "The map is clickable"): the hexes where
the player may lay a tile are links to a page of that hex, which draws every legal tile in
every legal rotation on the hex, states the terrain in words and money, and sends each lay
as a plain form through the move path; station tokens are plain forms on the game page."""

from __future__ import annotations

import html
import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2 for its TestClient
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from stellwerk.web.app import create_app

FIXTURES = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "18xx.games"
GAME_1849 = FIXTURES / "1849" / "1849_game_end_bank.json"
LAY_AT = 50
"""1849 fixture: after 50 actions SFA lays track; J6 is a mountain (L.40) it may build on."""


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None), raise_server_exceptions=False) as c:
        yield c


def imported(client: TestClient, path: Path, actions: int) -> dict[str, str]:
    """The fixture cut after ``actions`` actions, imported: player name -> his page."""
    if not path.exists():
        pytest.skip(f"{path} not found")
    data = json.loads(path.read_text())
    data["actions"] = data["actions"][:actions]
    data.pop("result", None)
    data["status"] = "active"
    answer = client.post("/api/games/import", json=data)
    assert answer.status_code == 201, answer.text
    links = {p["name"]: p["link"] for p in answer.json()["players"]}
    return {name: client.get(link).url.path for name, link in links.items()}


def acting(client: TestClient, links: dict[str, str]) -> tuple[str, str]:
    """(link, page) of the player whose page offers moves."""
    for link in links.values():
        page = client.get(link).text
        if 'id="choices"' in page:
            return link, page
    raise AssertionError("nobody has moves")


def forms(text: str) -> list[tuple[dict[str, Any], dict[str, str]]]:
    """Each lay form of a page: its action and its fields."""
    out = []
    for form in re.findall(r"<form [^>]*class=\"move lay-option\".*?</form>", text, flags=re.S):
        fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))
        out.append((json.loads(html.unescape(fields["action"])), fields))
    return out


def tile_on(page: str, hex_id: str) -> str | None:
    """The tile and rotation the map shows on ``hex_id`` ("657/5"; None: the printed hex)."""
    found = re.search(rf'<g id="{hex_id}" [^>]*data-hex="{hex_id}"[^>]*>', page)
    assert found, f"no hex {hex_id} on the map"
    name = re.search(r'data-tile="([^"]+)" data-rotation="(\d)"', found.group(0))
    return f"{name.group(1)}/{name.group(2)}" if name else None


def test_a_tile_is_laid_from_the_hex_page_without_a_script(client: TestClient) -> None:
    """1849: the hex J6 is a link on the acting player's page; its page draws each legal tile
    in each legal rotation on the hex (an SVG per lay, the hex among its neighbours), says
    "Terrain: mountain, L.40", and its form lays the tile: afterwards the map shows it."""
    links = imported(client, GAME_1849, LAY_AT)
    link, page = acting(client, links)
    assert f'href="{link}/lay/J6"' in page
    lay_page = client.get(f"{link}/lay/J6")
    assert lay_page.status_code == 200
    text = lay_page.text
    assert "Terrain: mountain, L.40" in text
    options = forms(text)
    assert len(options) == 12, "every legal tile in every legal rotation"
    assert {(a["tile"], a["rotation"]) for a, _ in options} >= {("644-0", 2), ("657-0", 5)}
    previews = re.findall(r'<g [^>]*class="hex preview"[^>]*>', text)
    assert len(previews) == len(options)
    assert 'data-hex="J6"' in previews[0] and 'data-tile="644"' in previews[0]
    assert "costs L.40" in text
    assert tile_on(page, "J6") is None
    _action, fields = next((a, f) for a, f in options if (a["tile"], a["rotation"]) == ("657-0", 5))
    answer = client.post(
        f"{link}/act",
        data={
            "csrf": fields["csrf"],
            "base": fields["base"],
            "action": html.unescape(fields["action"]),
        },
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text
    after = client.get(link).text
    assert int(re.findall(r'data-count="(\d+)"', after)[0]) == int(fields["base"]) + 1
    assert tile_on(after, "J6") == "657/5"
    assert "J6" in after[after.index('id="log"') :]
    # the hex has no lays any more: its page says so
    gone = client.get(f"{link}/lay/J6")
    assert gone.status_code == 404 and 'id="no-lays"' in gone.text


def test_the_hex_page_in_german_and_for_others(client: TestClient) -> None:
    """The words are German with ``?lang=de``; another player's page has no link and his
    hex page no form; a hex off the map has none."""
    links = imported(client, GAME_1849, LAY_AT)
    link, _page = acting(client, links)
    german = client.get(f"{link}/lay/J6?lang=de").text
    assert "Gelände: Berge, L.40" in german and "Plättchen 644, Drehung 2" in german
    assert "kostet L.40" in german
    other = next(lk for lk in links.values() if lk != link)
    assert "/lay/" not in client.get(other).text
    refused = client.get(f"{other}/lay/J6")
    assert refused.status_code == 404 and not forms(refused.text)
    assert client.get(f"{link}/lay/Z99").status_code == 404
    watch = link.replace("/play/", "/watch/")
    assert client.get(f"{watch}/lay/J6").status_code in (403, 404)


def test_offered_routes_train_by_train_in_their_colours(client: TestClient) -> None:
    """1849, a corporation's run: each train's route is drawn in its own colour with its
    revenue beside its last stop, and the list under "Your move" names each train with its
    revenue and the same colour; the button runs them all."""
    links = imported(client, GAME_1849, 67)
    _link, page = acting(client, links)
    routes = re.findall(r'<g class="route" ([^>]*)>', page)
    listed = re.findall(
        r'<li data-train-index="(\d+)"[^>]*><span class="swatch" style="background: ([^"]+)">'
        r"</span> ([^:]+): <strong>([^<]+)</strong>",
        page,
    )
    assert routes and len(routes) == len(listed)
    colors = [re.search(r'data-color="([^"]+)"', r).group(1) for r in routes]  # type: ignore[union-attr]
    assert len(set(colors)) == len(colors), "one colour per train"
    assert colors == [color for _i, color, _train, _revenue in listed]
    revenues = [re.search(r'data-revenue="(\d+)"', r).group(1) for r in routes]  # type: ignore[union-attr]
    assert [f"L.{r}" for r in revenues] == [revenue for *_, revenue in listed]
    assert page.count('class="route-revenue"') == len(routes)
    total = sum(int(r) for r in revenues)
    assert f"Run the best routes for L.{total}" in page
