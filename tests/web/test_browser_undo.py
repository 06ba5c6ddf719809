"""End-to-end in headless Chromium (docs/web.md "Undo"; common rules §3.4): a player takes
back his own last move with the page's button; the other players' pages show it without a
reload, and the button goes once another player acted.  The browser and the server are
``test_browser_play``'s (Debian's chromium; skipped without it, failed in CI)."""

from __future__ import annotations

from typing import Any

from test_browser_play import browser, create_game, server, submit  # noqa: F401


def wait_count(page: Any, count: int) -> None:
    page.wait_for_function(
        "n => document.getElementById('game')?.dataset.count === String(n)",
        arg=count,
        timeout=15000,
    )


def test_undo_of_ones_own_last_move_by_its_button(browser: Any, server: str) -> None:  # noqa: F811
    table = create_game(browser, server, "1849", ["Ann", "Bob", "Cid"], 5)
    ann, bob = table.pages["Ann"], table.pages["Bob"]
    assert ann.locator("#undo").count() == 0
    submit(ann, ann.locator("#auction button[data-kind=bid]").first)
    assert ann.locator("#undo button[data-kind=undo]").count() == 1
    wait_count(bob, 1)
    assert bob.locator("#undo").count() == 0
    submit(ann, ann.locator("#undo button[data-kind=undo]"))
    wait_count(bob, 2)
    assert ann.locator("#undo").count() == 0
    assert ann.locator("#auction button[data-kind=bid]").count() > 0  # her turn again
    assert bob.locator("#choices").count() == 0
    # once Bob acted after her, her page (live) offers no undo
    submit(ann, ann.locator("#auction button[data-kind=bid]").first)
    wait_count(bob, 3)
    submit(bob, bob.locator("#choices button[data-kind=pass]"))
    wait_count(ann, 4)
    assert ann.locator("#undo").count() == 0
    assert bob.locator("#undo button[data-kind=undo]").count() == 1
