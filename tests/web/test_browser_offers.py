"""A trade offer seen live in Chromium (web/offers.py, the live feed's ``offers`` event): the
buyer's player offers another corporation's train on his page; the seller's open page shows
the offer with Accept and Decline without a reload; declined, it leaves the buyer's page
without a reload; offered again and accepted, the purchase is made and both pages show it.

The browser and the server are ``test_browser_play``'s (Debian's chromium, skipped when it is
missing, except under ``CI=true``); the position is ``test_offers``' seeded 1849 game."""

from __future__ import annotations

from typing import Any

import httpx
from test_browser_play import browser, server, submit  # noqa: F401
from test_offers import _position

FIND_TRADE = """([train, price]) => {
  for (const form of document.querySelectorAll('#game form.move')) {
    const field = form.querySelector('input[name=action]');
    if (!field) continue;
    const action = JSON.parse(field.value);
    if (action.type === 'buy_train' && action.train === train) {
      form.querySelector('input[name=price]').value = String(price);
      form.setAttribute('data-trade', '1');
      return true;
    }
  }
  return false;
}"""
"""Mark the buyer's form of the train's purchase and set its price."""


def offer_on(page: Any, trade: dict[str, Any]) -> None:
    """The buyer's player offers ``trade`` with its form on his page."""
    assert page.evaluate(FIND_TRADE, [trade["train"], trade["price"]]), "no form of the trade"
    submit(page, page.locator("form[data-trade] button[type=submit]"))
    page.locator('#offers li[data-role="withdraw"]').wait_for(timeout=15000)


def test_the_sellers_page_shows_an_offer_live_and_accepts_it(
    browser: Any,  # noqa: F811
    server: str,  # noqa: F811
) -> None:
    game, trade = _position()
    names = dict(game.players)
    buyer = names[game.decider_of(str(trade["entity"]))]
    owner = game.view.train(str(trade["train"])).owner
    assert owner is not None
    seller = names[game.decider_of(owner.key)]
    with httpx.Client(base_url=server, timeout=30) as client:
        made = client.post("/api/games/import", json=game.to_file()).json()
    key = made["id"]
    tokens = {p["name"]: p["token"] for p in made["players"]}
    pages = {}
    for name in (buyer, seller):
        page = browser.new_context().new_page()
        page.goto(f"{server}/games/{key}?token={tokens[name]}")
        page.locator("#live:not([hidden])").wait_for(timeout=15000)  # the feed is open
        page.evaluate("() => { window.__loaded = true; }")  # gone if the page loads anew
        pages[name] = page
    base = int(pages[seller].get_attribute("#game", "data-count"))
    assert pages[seller].query_selector("#offers") is None

    offer_on(pages[buyer], trade)
    answer = pages[seller].locator('#offers li[data-role="answer"]')
    answer.wait_for(timeout=15000)  # the live feed brought it
    assert answer.locator('button[data-kind="accept_offer"]').count() == 1
    assert answer.locator('button[data-kind="decline_offer"]').count() == 1
    submit(pages[seller], answer.locator('button[data-kind="decline_offer"]'))
    pages[buyer].locator("#offers").wait_for(state="detached", timeout=15000)

    offer_on(pages[buyer], trade)
    answer.wait_for(timeout=15000)
    submit(pages[seller], answer.locator('button[data-kind="accept_offer"]'))
    for page in pages.values():
        page.wait_for_function(
            "n => document.getElementById('game')?.dataset.count === String(n)",
            arg=base + 1,
            timeout=15000,
        )
        assert page.query_selector("#offers") is None
        assert page.evaluate("() => window.__loaded === true"), "the page was loaded anew"
    with httpx.Client(base_url=server, timeout=30) as client:
        data = client.get(f"/api/games/{key}/file?token={tokens[seller]}").json()
    bought = data["actions"][-1]
    assert bought["type"] == "buy_train" and bought["train"] == trade["train"]
    assert bought["price"] == trade["price"] and bought["user"] == game.decider_of(
        str(trade["entity"])
    )
    assert len(data["actions"]) == base + 1
