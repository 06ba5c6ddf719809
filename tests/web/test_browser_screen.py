"""The game screen of issue 25 in headless Chromium: a sealed-bid list typed into the
auction's cards and handed in with one button reaches the other players' pages live, and on
a phone the stock table's moves are visible without scrolling the table.  The browser and the
server are ``test_browser_play``'s (Debian's chromium; skipped without it, failed in CI)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_browser_play import browser, server, submit  # noqa: F401

GAME_1841 = (
    Path(__file__).resolve().parents[2]
    / ".."
    / "shared"
    / "fixtures"
    / "18xx.games"
    / "1841"
    / "1841_game_end_bank.json"
)


def test_sealed_bids_typed_into_the_cards(browser: Any, server: str) -> None:  # noqa: F811
    """1841's first edition: the bidder types two amounts and hands in his list; the next
    bidder's page shows the form at once, the first's no longer."""
    setup = browser.new_page()
    setup.goto(f"{server}/new?title=1841")
    setup.fill("textarea[name=players]", "Ann\nBob\nCid")
    setup.fill("input[name=seed]", "5")
    setup.check('input[name=option][value="version_1"]')
    with setup.expect_navigation():
        setup.click("#new-form button[type=submit]")
    links = {
        name: setup.get_attribute(f'#seat-links a[data-player="{name}"]', "href")
        for name in ("Ann", "Bob", "Cid")
    }
    pages = {}
    for name, link in links.items():
        page = browser.new_context().new_page()
        page.goto(server + str(link))
        page.wait_for_selector("#live:not([hidden])")
        pages[name] = page
    bidder = next(n for n, p in pages.items() if p.locator("#sealed-bids").count())
    page = pages[bidder]
    fields = page.locator("#sealed-bids input[name=bid]")
    assert fields.count() == 8
    fields.nth(1).fill("25")
    fields.nth(7).fill("30")
    submit(page, page.locator("#sealed-bids button[type=submit]"))
    assert page.locator("#sealed-bids").count() == 0
    assert "sealed bids" in page.inner_text("#log")
    others = [p for n, p in pages.items() if n != bidder]
    for other in others:
        other.wait_for_function(
            "() => document.getElementById('game')?.dataset.count === '1'", timeout=15000
        )
    assert sum(p.locator("#sealed-bids").count() for p in others) == 1


def test_stock_moves_are_visible_on_a_phone(browser: Any, server: str) -> None:  # noqa: F811
    """At phone width the moves column of the stock table is on screen: 1841's second stock
    round, the acting player buys by tapping the row's button without scrolling the table."""
    if not GAME_1841.exists():
        pytest.skip(f"{GAME_1841} not found")
    data = json.loads(GAME_1841.read_text())
    data["actions"] = data["actions"][:83]
    data.pop("result", None)
    data["status"] = "active"
    answer = httpx.post(f"{server}/api/games/import", json=data, timeout=60)
    assert answer.status_code == 201, answer.text
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    for player in answer.json()["players"]:
        phone.goto(f"{server}{player['link']}")
        if phone.locator("#corporations td.row-moves button").count():
            break
    buy = phone.locator('#corporations tr[data-corporation="IRSFF"] button[data-kind=buy_shares]')
    buy.scroll_into_view_if_needed()
    box = buy.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    wide = phone.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 1, f"the page scrolls sideways by {wide} px on a phone"
    before = phone.locator('#corporations tr[data-corporation="IRSFF"] [data-ipo]').inner_text()
    submit(phone, buy)
    after = phone.locator('#corporations tr[data-corporation="IRSFF"] [data-ipo]').inner_text()
    assert (before, after) == ("60%", "50%")
