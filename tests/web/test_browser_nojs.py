"""The pages with and without JavaScript in Chromium: with the script a move is posted and the
next position swapped in without loading the document again (the same forms, the same
server answers); with JavaScript off a game of 1849 is played from its start into its second
operating round, every move a plain form and a new page (docs/web.md: every move is a form).
The browser and server are ``test_browser_play``'s."""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from test_browser_play import browser, server, submit  # noqa: F401

from stellwerk.selfplay import choose_action

KINDS = ("par", "buy_shares", "bid", "pass")
MOVES = "#choices form.move, #auction form.move, #corporations form.move"
"""The forms of the mover's moves (not the undo, standing orders or chat)."""
LAY = {"type": "lay_tile"}
"""Stands for "follow a hex's link and lay there" among the page's actions."""
OPERATING = re.compile(r"Operating round (\d+)\.(\d+)")
WANTED = {"bid", "par", "buy_shares", "lay_tile", "place_token", "run_routes", "dividend",
          "buy_train"}  # fmt: skip
"""The moves the game must have made by the end (OR1 runs no train: OR2's first run)."""
MOST = 400
"""Moves allowed to get there (the seeded game below needs 62 actions)."""


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


READ = """() => {
    const text = sel => document.querySelector(sel)?.innerText.trim() ?? null;
    const game = document.getElementById('game');
    return {
        error: text('#error'),
        game: game !== null,
        count: game ? Number(game.dataset.count) : null,
        seat: game?.dataset.seat ?? null,
        round: text('#round-name'),
        live: document.getElementById('live')?.hidden ?? null,
        choices: document.getElementById('choices') !== null,
        acting: text('#acting'),
        presidents: Object.fromEntries(Array.from(
            document.querySelectorAll('#corporations tr[data-corporation]'),
            row => [row.dataset.corporation,
                    row.querySelector('td[data-control]').innerText.trim()])),
        forms: Array.from(document.querySelectorAll(MOVES), f => [
            f.querySelector('input[name=action]').value,
            f.querySelector('input[name=price]')?.value ?? null]),
        hexes: document.querySelectorAll('#lays a[data-lay-hex]').length,
        lays: document.querySelectorAll('#lay-page form.lay-option').length,
        waiting: document.querySelectorAll('#offers li[data-role="withdraw"]').length,
        answers: document.querySelectorAll(
            '#offers li[data-role="answer"] button[name=answer]').length,
    };
}""".replace("MOVES", repr(MOVES))
"""What a page shows, read in one go: its position, its moves' forms, its links to lay pages,
the lay page's forms, the open offers."""


@dataclass
class Plain:
    """A game played with the script off: the seats' links and pages, what was played."""

    base: str
    links: dict[str, str]
    pages: dict[str, Any]
    rng: random.Random
    errors: list[str] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=dict)
    rounds: list[str] = field(default_factory=list)
    offers: int = 0
    bids: int = 0
    sales: int = 0
    trained: set[str] = field(default_factory=set)


def shown(page: Any, status: int | None) -> dict[str, Any]:
    """A page loaded anew is whole -- 200, no refusal shown --: what it shows."""
    assert status == 200, (page.url, status)
    seen: dict[str, Any] = page.evaluate(READ)
    assert seen["error"] is None, seen["error"]
    return seen


def load(play: Plain, name: str) -> tuple[Any, dict[str, Any]]:
    """``name``'s page loaded anew, and what it shows."""
    page = play.pages[name]
    response = page.goto(play.base + play.links[name])
    return page, shown(page, response and response.status)


def follow(page: Any, target: Any) -> dict[str, Any]:
    """Click a link or a form's button: what the new page it leads to shows (a post's 303
    followed)."""
    with page.expect_navigation() as navigation:
        target.click()
    response = navigation.value
    return shown(page, response and response.status)


def mover(play: Plain, page: Any, seen: dict[str, Any]) -> tuple[str, Any, dict[str, Any]]:
    """Who moves now, as the pages say: ``page``'s own seat when it shows moves; else the
    player it says is waited for, or the president its corporations' table names for the
    corporation waited for; else whichever other seat's page shows moves.  His page, loaded
    anew when it is another's, and what it shows."""
    if seen["choices"]:
        return str(seen["seat"]), page, seen
    assert seen["acting"], f"nobody may move: {play.kinds} {play.rounds}"
    for who in (n.strip() for n in seen["acting"].split(",")):
        name = who if who in play.links else seen["presidents"].get(who)
        if name in play.links:
            return name, *load(play, name)
    for name in play.pages:
        if play.pages[name] is not page:
            other, seen = load(play, name)
            if seen["choices"]:
                return name, other, seen
    raise AssertionError(f"nobody's page offers a move: {play.kinds} {play.rounds}")


def answer(play: Plain, buyer: Any) -> tuple[Any, dict[str, Any]]:
    """A purchase the mover's page offered (it waits for the seller's consent): the seller
    accepts or declines it on his page, a plain form too; his page then."""
    for name in play.pages:
        if play.pages[name] is buyer:
            continue
        page, seen = load(play, name)
        if seen["answers"]:
            play.offers += 1
            buttons = page.locator('#offers li[data-role="answer"] button[name=answer]')
            before = seen["count"]
            seen = follow(page, buttons.nth(play.rng.randrange(seen["answers"])))
            assert seen["count"] >= before and not seen["answers"], seen
            return page, seen
    raise AssertionError("an offer nobody may answer")


def plain_step(play: Plain, page: Any, seen: dict[str, Any]) -> tuple[str, Any, dict[str, Any]]:
    """One move on the mover's page, only through its forms and links: the kind played, the
    page shown after it and what it shows."""
    if not play.rounds or play.rounds[-1] != seen["round"]:
        play.rounds.append(seen["round"])
        play.bids, play.sales, play.trained = 0, 0, set()
    listed = []
    for i, (text, price) in enumerate(seen["forms"]):
        action = json.loads(text)
        if price is not None:
            action = {**action, "price": int(price or 0)}
        listed.append((action, i))
    # as the click-through tests: no second train for a corporation in a round, no bidding
    # war past four bids a player, while something else is left; and no more sales in a
    # round than players (they only make the stock round longer)
    choices = [
        (action, i)
        for action, i in listed
        if not (
            (action.get("type") == "buy_train" and action.get("entity") in play.trained)
            or (action.get("type") == "bid" and play.bids >= 4 * len(play.pages))
            or (action.get("type") == "sell_shares" and play.sales >= len(play.pages))
        )
    ] or listed
    actions = [action for action, _ in choices]
    assert actions or seen["hexes"], f"a move only the script offers? {page.url} {seen}"
    picker = (lambda: LAY) if seen["hexes"] else None
    chosen = choose_action(actions, play.rng, picker) if actions else LAY
    before = seen["count"]
    if chosen is LAY:  # the hex's own page: every legal tile and rotation, each a form
        hexes = page.locator("#lays a[data-lay-hex]")
        laying = follow(page, hexes.nth(play.rng.randrange(seen["hexes"])))
        assert laying["lays"], f"no lay on {page.url}"
        options = page.locator("#lay-page form.lay-option button")
        seen = follow(page, options.nth(play.rng.randrange(laying["lays"])))
        kind = "lay_tile"
    else:
        kind = str(chosen.get("type"))
        if kind == "buy_train":
            play.trained.add(str(chosen.get("entity")))
        play.bids += kind == "bid"
        play.sales += kind == "sell_shares"
        form = page.locator(MOVES).nth(choices[actions.index(chosen)][1])
        seen = follow(page, form.locator("button[type=submit]"))
    assert seen["game"], f"not the game's page after {kind}: {page.url}"
    if seen["count"] == before:
        assert seen["waiting"], f"{kind} changed nothing"
        page, seen = answer(play, page)
    return kind, page, seen


def test_the_opening_without_javascript(browser: Any, server: str) -> None:  # noqa: F811
    """1849 (three players, seed 5) with the script off, every player on his own page, from
    the private auction through the first stock round and the whole first operating round
    into the second, up to its first run and dividend: every move a form post and a new
    page -- tile lays on their hex's own page, stations by city, the offered run, dividends,
    trains, a purchase another president must consent to answered on his page -- chosen as
    the click-through tests choose (``choose_action``, seeded) among the forms the mover's
    page shows; the next mover is whom the page says it waits for."""
    began = time.monotonic()
    context = browser.new_context(java_script_enabled=False)
    links = _new_game(browser, server, context)
    play = Plain(server, links, {}, random.Random(3))
    for name in links:
        page = context.new_page()
        page.on("response", lambda r: r.status >= 500 and play.errors.append(f"{r.status} {r.url}"))
        play.pages[name] = page
    page, seen = load(play, "Ann")
    assert seen["live"] is True, "the script ran: the live feed's mark is shown"
    reached = ""
    for _ in range(MOST):
        found = OPERATING.match(seen["round"])
        if found and int(found[1]) >= 2:
            reached = reached or seen["round"]
            if set(play.kinds) >= WANTED:
                break
        _name, page, seen = mover(play, page, seen)
        kind, page, seen = plain_step(play, page, seen)
        play.kinds[kind] = play.kinds.get(kind, 0) + 1
        assert not play.errors, play.errors
    assert reached == "Operating round 2.1", (
        f"operating round 2 not reached in {MOST} moves: {play.kinds} {play.rounds}"
    )
    assert set(play.kinds) >= WANTED, f"not played: {WANTED - set(play.kinds)}"
    assert play.rounds[:3] == ["Auction", "Stock round 1", "Operating round 1.1"], play.rounds
    took = time.monotonic() - began
    print(
        f"1849 without JavaScript: {seen['count']} actions {play.kinds} {play.offers} offers"
        f" answered, {play.rounds}, {took:.0f} s"
    )
