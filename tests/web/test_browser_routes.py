"""Routes edited on the map in headless Chromium (``web/runs.py``, ``static/app.js``): in the
1849 fixture cut before ATA's run (three trains, best run L.200) the player picks the first
4H, clicks the port N8 on the map (an off-board stop: its hex) to take it off its route
N8-M9-N10-M11, sees the train's revenue and the total priced by the server (50, 180), clicks
N8 again -- placed by the server before M9, where it fits, not at the end (70, 200) -- then
"Best run" (200), takes it off again and runs these routes: the game records the edited
run.  The browser and the server are
``test_browser_play``'s (Debian's chromium; skipped without it, failed in CI)."""

from __future__ import annotations

from typing import Any

import httpx
from test_browser_map import imported_page
from test_browser_play import browser, click_map, server, submit  # noqa: F401

CUT = 99


def runner_page(browser: Any, server: str) -> Any:  # noqa: F811
    """The cut game imported; the page of the player whose corporation runs."""
    return imported_page(browser, server, CUT, "#route-edit .route-editor")


def total(page: Any) -> str:
    text: str = page.locator("#route-edit .route-total").inner_text()
    return text


def test_a_stop_taken_off_on_the_map_is_priced_and_run(
    browser: Any,  # noqa: F811
    server: str,  # noqa: F811
) -> None:
    page = runner_page(browser, server)
    editor = page.locator("#route-edit .route-editor")
    editor.wait_for(state="visible")  # shown by the script
    assert total(page) == "200"
    page.locator('#route-edit button.route-train[data-train="4H-1"]').click()
    click_map(page, '#map g.hex[data-hex="N8"] > polygon')  # a port: the hex's only stop
    page.wait_for_function(
        "() => document.querySelector('#route-edit .route-total').textContent === '180'",
        timeout=30000,
    )
    assert page.locator('#route-edit .route-revenue-of[data-train="4H-1"]').inner_text() == "50"
    assert (
        page.locator('#map-routes g.route[data-train="4H-1"]').get_attribute("data-revenue") == "50"
    )
    click_map(page, '#map g.hex[data-hex="N8"] > polygon')  # back on: before M9, not at the end
    page.wait_for_function(
        "() => document.querySelector('#route-edit .route-total').textContent === '200'",
        timeout=30000,
    )
    stops = page.locator('#route-edit .route-stops[data-train="4H-1"]').inner_text()
    assert stops == "N8-M9-N10-M11"
    assert page.locator('#route-edit .route-revenue-of[data-train="4H-1"]').inner_text() == "70"
    page.locator("#route-edit button.route-best").click()
    assert total(page) == "200"
    click_map(page, '#map g.hex[data-hex="N8"] > polygon')  # a port: the hex's only stop
    run = page.locator("#route-edit form.route-run button")
    page.wait_for_function(
        "() => document.querySelector('#route-edit .route-total').textContent === '180' && "
        "!document.querySelector('#route-edit form.route-run button').disabled",
        timeout=30000,
    )
    submit(page, run)
    key, token = page.url.split("/play/")[1].split("#")[0].split("/")[:2]
    file = httpx.get(f"{server}/api/games/{key}/file?token={token}", timeout=60).json()
    ran = next(a for a in reversed(file["actions"]) if a["type"] == "run_routes")
    assert ran["entity"] == "ATA"
    assert sorted((r["train"], r["revenue"]) for r in ran["routes"]) == [
        ("4H-1", 50),
        ("4H-2", 40),
        ("6H-1", 90),
    ]
    page.context.close()
