"""The pages with and without JavaScript in Chromium: with the script a move is posted and the
next position swapped in without loading the document again (the same forms, the same
server answers); with JavaScript off every move of the opening still works as a plain form
(docs/web.md: every move is a form).  The browser and server are ``test_browser_play``'s."""

from __future__ import annotations

from typing import Any

from test_browser_play import browser, server, submit  # noqa: F401

KINDS = ("par", "buy_shares", "bid", "pass")


def _new_game(browser: Any, server: str, context: Any) -> dict[str, str]:  # noqa: F811
    setup = context.new_page()
    setup.goto(f"{server}/new?title=1849")
    setup.fill("textarea[name=players]", "Ann\nBob\nCid")
    setup.fill("input[name=seed]", "5")
    with setup.expect_navigation():
        setup.click("#new-form button[type=submit]")
    links = {
        name: str(setup.get_attribute(f'#seat-links a[data-player="{name}"]', "href"))
        for name in ("Ann", "Bob", "Cid")
    }
    setup.close()
    return links


def _first_move(page: Any) -> Any | None:
    for kind in KINDS:
        found = page.locator(
            f"#choices .group button[data-kind={kind}], #corporations button[data-kind={kind}],"
            f" #auction button[data-kind={kind}]"
        )
        if found.count():
            return found.first
    return None


def test_a_move_swaps_the_position_in_without_a_reload(browser: Any, server: str) -> None:  # noqa: F811
    context = browser.new_context()
    links = _new_game(browser, server, context)
    page = context.new_page()
    page.goto(server + links["Ann"])
    page.evaluate("() => { window.kept = 'still here'; }")
    button = _first_move(page)
    assert button is not None
    submit(page, button)
    assert page.evaluate("() => window.kept") == "still here"  # the document stayed
    assert page.get_attribute("#game", "data-count") == "1"
    assert page.url == server + links["Ann"]


def test_the_opening_without_javascript(browser: Any, server: str) -> None:  # noqa: F811
    """The private auction and the first stock round's moves of 1849, every player on his own
    page, with the script off: each move is a form post and a new page."""
    context = browser.new_context(java_script_enabled=False)
    links = _new_game(browser, server, context)
    pages = {name: context.new_page() for name in links}
    played: list[str] = []
    for _ in range(40):
        moved = False
        for name, page in pages.items():
            page.goto(server + links[name])
            button = _first_move(page)
            if button is None:
                continue
            kind = str(button.get_attribute("data-kind"))
            with page.expect_navigation():
                button.click()
            assert page.query_selector("#error") is None, page.inner_text("#error")
            played.append(kind)
            moved = True
            break
        assert moved, "somebody has a move"
        if "par" in played and "buy_shares" in played:
            break
    assert {"bid", "par", "buy_shares"} <= set(played), played
    pages["Ann"].goto(server + links["Ann"])
    assert pages["Ann"].get_attribute("#game", "data-count") == str(len(played))
