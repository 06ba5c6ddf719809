"""The map to play on in headless Chromium: a click on a hex draws its first legal tile in
place, a click on the hex or the key r turns it through the legal rotations only, a bar
beside the hex confirms it (Enter); the map then shows the tile in that rotation.  The browser
and the server are ``test_browser_play``'s (Debian's chromium; skipped without it, failed in
CI)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from test_browser_play import browser, click_map, server  # noqa: F401
from tests.conftest import cut_fixture

GAME_1849 = "1849/1849_game_end_bank.json"
LAY_AT = 50
"""1849 fixture: after 50 actions SFA lays track; on J6 (a mountain, L.40) tile 644 may lie
in rotations 2, 3 and 4 (and other tiles)."""


def imported_page(browser: Any, server: str, actions: int, shows: str) -> Any:  # noqa: F811
    """The 1849 fixture cut after ``actions`` actions, imported; the page of the first
    player whose page shows ``shows`` (a selector)."""
    data = cut_fixture(GAME_1849, actions)
    answer = httpx.post(f"{server}/api/games/import", json=data, timeout=60)
    assert answer.status_code == 201, answer.text
    for player in answer.json()["players"]:
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.goto(server + player["link"])
        if page.locator(shows).count():
            return page
        page.context.close()
    raise AssertionError(f"no player's page shows {shows}")


def acting_page(browser: Any, server: str) -> Any:  # noqa: F811
    """The fixture cut at :data:`LAY_AT`, imported; the page of the player who moves."""
    return imported_page(browser, server, LAY_AT, "#choices")


def preview(page: Any) -> tuple[str, str]:
    """(tile, rotation) drawn in place on J6."""
    shown = page.locator('#map g.hex[data-hex="J6"] g.lay-preview')
    return shown.get_attribute("data-tile"), shown.get_attribute("data-rotation")


def test_a_tile_laid_by_clicking_turning_and_confirming(
    browser: Any,  # noqa: F811
    server: str,  # noqa: F811
) -> None:
    """1849: click J6: tile 644 in its first legal rotation (2) is drawn on the hex, the bar
    beside it states the terrain; a click on the hex turns it to the next legal rotation (3),
    r to the next (4), R back (3); Enter lays it: the map shows 644 in rotation 3."""
    page = acting_page(browser, server)
    assert "J6" in json.loads(page.get_attribute("#game", "data-lays"))
    click_map(page, '#map g.hex[data-hex="J6"] > polygon')
    page.locator('#map g.hex[data-hex="J6"] g.lay-preview').wait_for()
    assert preview(page) == ("644", "2")
    bar = page.locator(".map-bar")
    assert "Terrain: mountain, L.40" in bar.inner_text()
    assert "costs L.40" in bar.inner_text()
    # the bar stands beside the hex, on screen: no panel that scrolls away
    box = bar.bounding_box()
    assert box is not None and 0 <= box["y"] < 900
    click_map(page, '#map g.hex[data-hex="J6"] g.lay-preview > polygon')
    assert preview(page) == ("644", "3")
    page.keyboard.press("r")
    assert preview(page) == ("644", "4")
    page.keyboard.press("R")
    assert preview(page) == ("644", "3")
    page.screenshot(path=str(Path("/tmp") / "stellwerk-map-preview.png"))
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator("#error").count() == 0
    laid = page.locator('#map g.hex[data-hex="J6"]')
    assert (laid.get_attribute("data-tile"), laid.get_attribute("data-rotation")) == ("644", "3")
    assert page.locator("#map g.lay-preview").count() == 0


def test_escape_cancels_and_another_tile_is_picked_in_the_bar(
    browser: Any,  # noqa: F811
    server: str,  # noqa: F811
) -> None:
    """Esc takes the preview off the map and changes nothing; the bar's tile buttons pick
    another legal tile, whose first legal rotation is drawn."""
    page = acting_page(browser, server)
    count = page.get_attribute("#game", "data-count")
    click_map(page, '#map g.hex[data-hex="J6"] > polygon')
    page.locator('#map g.hex[data-hex="J6"] g.lay-preview').wait_for()
    page.locator('.map-bar button.bar-tile[data-tile="657"]').click()
    assert preview(page) == ("657", "2")
    page.keyboard.press("r")
    assert preview(page) == ("657", "5")
    page.keyboard.press("Escape")
    assert page.locator("#map g.lay-preview").count() == 0
    assert page.locator(".map-bar").count() == 0
    assert page.get_attribute("#game", "data-count") == count
    assert page.locator('#map g.hex[data-hex="J6"]').get_attribute("data-tile") is None


def test_the_map_zooms_pans_and_still_lays_a_tile(
    browser: Any,  # noqa: F811
    server: str,  # noqa: F811
) -> None:
    """The map zooms in (button, +), its box then scrolls and a mouse drag pans it without
    picking a hex; a click on a hex of the zoomed map still starts its tile lay; 0 shows the
    whole map again.  At a phone's width the zoom buttons are there too."""
    page = acting_page(browser, server)
    svg = page.locator("#map .map-box svg")
    whole = svg.bounding_box()
    assert whole is not None
    page.locator("#map .map-zoom button.zoom-in").click()
    page.keyboard.press("+")
    zoomed = svg.bounding_box()
    assert zoomed is not None and zoomed["width"] > 2 * whole["width"]
    box = page.locator("#map .map-box")
    assert "zoomed" in str(box.get_attribute("class"))
    start = box.evaluate("b => [b.scrollLeft, b.scrollTop]")
    area = box.bounding_box()
    assert area is not None
    x, y = area["x"] + area["width"] / 2, area["y"] + min(area["height"], 500) / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 120, y - 80, steps=6)
    page.mouse.up()
    moved = box.evaluate("b => [b.scrollLeft, b.scrollTop]")
    assert moved[0] > start[0] and moved[1] >= start[1], (start, moved)
    assert page.locator("#map g.lay-preview").count() == 0  # a drag picks no hex
    assert page.locator(".map-bar").count() == 0
    click_map(page, '#map g.hex[data-hex="J6"] > polygon')
    page.locator('#map g.hex[data-hex="J6"] g.lay-preview').wait_for()
    page.keyboard.press("Escape")
    page.keyboard.press("0")
    again = svg.bounding_box()
    assert again is not None and abs(again["width"] - whole["width"]) < 2
    page.set_viewport_size({"width": 390, "height": 800})
    assert page.locator("#map .map-zoom button.zoom-in").is_visible()
    page.screenshot(path=str(Path("/tmp") / "stellwerk-map-phone.png"))
