"""Whole stretches of games played by clicks only in Chromium: every title (1841 second and
first edition and lite, 1849, 1835) from its start into its second operating round, and one
1849 game to its end (``--slow``).

Each move is a click on what the page offers: a move's button (in the choices, the auction's
cards, the corporations' rows; a bid's amount stays the field's least), a hex of the map and
the confirm button of the bar beside it (a tile lay, the bar's tile and rotation buttons
clicked at random first), a city and its station button, the routes' accept button.  Which
move is taken is :func:`stellwerk.selfplay.choose_action`'s seeded pick among the actions of
the forms on the mover's page (a tile lay counts as one more kind when the page marks hexes
to lay on), so the pages are played the way the engine's random self-play plays the engine.

The server, the browser and the players' pages are ``test_browser_play``'s; every response
of the server is watched for a 5xx, and each kind of step met (round and step) is loaded
anew once, as a whole page, to check it renders on its own.

A purchase between corporations of different presidents is offered, not made
(``stellwerk.web.offers``); such offers are left unanswered here (the move counts, the count
does not) and voided by the next move; ``test_browser_offers`` answers one on the seller's page.
"""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from test_browser_play import (  # noqa: F401
    Table,
    actor,
    browser,
    click_map,
    server,
    submit,
)

from stellwerk.selfplay import choose_action

MOVES = "#choices form.move, #auction form.move, #corporations form.move"
"""The forms of the mover's moves (not the undo, standing orders or chat)."""

LAY = {"type": "lay_tile"}
"""Stands for "click a hex and lay" among the page's actions."""

OPERATING = re.compile(r"Operating round (\d+)\.(\d+)")


@dataclass
class Run:
    """A game played by clicks: the table, the server's errors, the steps met."""

    table: Table
    base: str
    rng: random.Random
    errors: list[str] = field(default_factory=list)
    steps: set[str] = field(default_factory=set)
    operating: list[tuple[int, int]] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=dict)
    round: str = ""
    bids: int = 0
    trained: set[str] = field(default_factory=set)


def start(
    chromium: Any, base: str, title: str, names: list[str], seed: int, options: list[str]
) -> Run:
    """The new-game form with ``options`` ticked; every seat's page in its own context."""
    setup = chromium.new_page()
    setup.goto(f"{base}/new?title={title}")
    setup.fill("textarea[name=players]", "\n".join(names))
    for option in options:
        setup.check(f"input[name=option][value={option}]")
    setup.fill("input[name=seed]", str(seed))
    with setup.expect_navigation():
        setup.click("#new-form button[type=submit]")
    links = {
        name: setup.get_attribute(f'#seat-links a[data-player="{name}"]', "href") for name in names
    }
    setup.close()
    run = Run(Table({}), base, random.Random(seed))
    for name, link in links.items():
        assert link and link.startswith("/play/")
        page = chromium.new_context().new_page()
        page.on("response", lambda r: r.status >= 500 and run.errors.append(f"{r.status} {r.url}"))
        page.goto(base + link)
        page.wait_for_selector("#live:not([hidden])")
        run.table.pages[name] = page
    return run


def offered(page: Any) -> list[tuple[dict[str, Any], Any]]:
    """The actions of the page's move forms (a price field's amount as ``price``), each with
    its form; read in one go."""
    listed = page.evaluate(
        """sel => Array.from(document.querySelectorAll(sel), f => [
            f.querySelector('input[name=action]').value,
            f.querySelector('input[name=price]')?.value ?? null])""",
        MOVES,
    )
    forms = page.locator(MOVES)
    found = []
    for i, (text, price) in enumerate(listed):
        action = json.loads(text)
        if price is not None:
            action = {**action, "price": int(price or 0)}
        found.append((action, forms.nth(i)))
    return found


def trimmed(
    run: Run, page: Any, choices: list[tuple[dict[str, Any], Any]]
) -> list[tuple[dict[str, Any], Any]]:
    """The choices without the idle ones, while something else is left: a second train for
    a corporation in the same round (trains handed to and fro between corporations), bids
    once an auction has seen four per player (a bidding war on the cheapest item)."""
    shown = page.inner_text("#round-name")
    if shown != run.round:
        run.round, run.bids, run.trained = shown, 0, set()

    def idle(action: dict[str, Any]) -> bool:
        kind = action.get("type")
        if kind == "buy_train":
            return action.get("entity") in run.trained
        return kind == "bid" and run.bids >= 4 * len(run.table.pages)

    kept = [(action, form) for action, form in choices if not idle(action)]
    return kept or choices


def lay(run: Run, page: Any) -> None:
    """Click a random hex marked for a lay; turn the tile and pick among the tiles at random
    in the bar; confirm."""
    hexes = json.loads(page.get_attribute("#game", "data-lays"))
    hex_id = run.rng.choice(hexes)
    target = f'#map g.hex[data-hex="{hex_id}"]'
    click_map(page, f"{target} > polygon")
    preview = page.locator(f"{target} g.lay-preview")
    page.wait_for_selector(f"{target} g.lay-preview, .map-bar button.bar-cancel")
    if not preview.count():  # a city took the click: the hex's edge is its own
        page.locator(".map-bar button.bar-cancel").click()
        box = page.locator(f"{target} > polygon").first.bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.1)
    preview.wait_for()
    bar = page.locator(".map-bar")
    tiles = bar.locator("button.bar-tile")
    if tiles.count():
        tiles.nth(run.rng.randrange(tiles.count())).click()
    for _ in range(run.rng.randrange(3)):
        turning = bar.locator("button.bar-turn")
        if turning.count():
            turning.click()
    submit(page, bar.locator("button.bar-confirm"))


def station(run: Run, page: Any, action: dict[str, Any], form: Any) -> None:
    """Click the city of a station choice on the map; confirm the choice in its bar."""
    holder = form.locator("xpath=..")
    key = holder.get_attribute("data-tokens-for")
    forms = holder.locator("form.move input[name=action]")
    sent = form.locator("input[name=action]").get_attribute("value")
    index = [forms.nth(i).get_attribute("value") for i in range(forms.count())].index(sent)
    click_map(page, f'#map g.city[data-city="{key}"]')
    bar = page.locator(".map-bar")
    bar.wait_for(state="visible")
    submit(page, bar.locator("button.bar-confirm").nth(index))


def step(run: Run, page: Any) -> str:
    """One move on ``page`` (the mover's): the kind played."""
    name = page.locator("#step-name")
    shown = re.sub(r"[\d.]+", "", page.inner_text("#round-name"))
    kind_of_step = f"{shown}: {name.inner_text() if name.count() else ''}"
    if kind_of_step not in run.steps:  # each kind of step once as a whole page of its own
        run.steps.add(kind_of_step)
        response = page.reload()
        assert response is not None and response.status == 200, kind_of_step
        page.wait_for_selector("#live:not([hidden])")
    if page.locator("#sealed-bids").count():
        sealed = page.locator("#sealed-bids")
        fields = sealed.locator("input[name=bid]")
        pick = run.rng.randrange(fields.count())
        opening = fields.nth(pick).get_attribute("data-opening")
        fields.nth(pick).fill(str(opening))
        submit(page, sealed.locator("button[data-kind=blind_bid]"))
        return "blind_bid"
    choices = trimmed(run, page, offered(page))
    lays = json.loads(page.get_attribute("#game", "data-lays"))
    actions = [action for action, _ in choices]
    picker = (lambda: LAY) if lays else None
    chosen = choose_action(actions, run.rng, picker) if actions else LAY
    if chosen is LAY:
        lay(run, page)
        return "lay_tile"
    form = choices[actions.index(chosen)][1]
    kind = str(chosen.get("type"))
    if kind == "place_token" and form.locator("xpath=..").get_attribute("data-tokens-for"):
        station(run, page, chosen, form)
        return kind
    if kind == "buy_train":
        run.trained.add(str(chosen.get("entity")))
    run.bids += kind == "bid"
    submit(page, form.locator("button[type=submit]"))
    return kind


def play_until(run: Run, done: Any, most: int) -> int:
    """Moves by clicks until ``done(run, page)``; the count of actions then."""
    count = 0
    for _ in range(most):
        _name, page = mover(run, count)
        if page is None or done(run, page):
            return count
        kind = step(run, page)
        run.kinds[kind] = run.kinds.get(kind, 0) + 1
        count = run.table.count(page)
        assert not run.errors, run.errors
    raise AssertionError(f"not done after {most} moves: {run.kinds}")


def mover(run: Run, count: int) -> tuple[str, Any]:
    """The page that moves at ``count`` (None when nobody may: the game is over)."""
    pages = run.table.pages
    for page in pages.values():
        page.wait_for_function(
            "n => document.getElementById('game')?.dataset.count === String(n)",
            arg=count,
            timeout=15000,
        )
    movers = [(n, p) for n, p in pages.items() if p.query_selector("#choices")]
    if not movers:
        return "", None
    return movers[0]


def in_operating(run: Run, page: Any) -> bool:
    """Whether the page shows the second operating round (operating rounds seen counted)."""
    found = OPERATING.match(page.inner_text("#round-name"))
    if found:
        at = (int(found[1]), int(found[2]))
        if at not in run.operating:
            run.operating.append(at)
    return len(run.operating) >= 2


SLOW = pytest.mark.slow
"""The default run clicks through one game (1841's default edition, the heart of the seeds;
40-70 s each): the other titles and variants run with ``--slow`` (the CI budget is 15 min)."""

CASES = [
    # title, options, players, seed, most moves
    pytest.param("1849", [], ["Ann", "Bob", "Cid"], 3, 400, id="1849", marks=SLOW),
    pytest.param("1841", [], ["Ann", "Bob", "Cid"], 3, 600, id="1841"),
    pytest.param("1841", ["version_1"], ["Ann", "Bob", "Cid"], 3, 600, id="1841-v1", marks=SLOW),
    pytest.param("1841", ["lite"], ["Ann", "Bob", "Cid"], 3, 600, id="1841-lite", marks=SLOW),
    pytest.param("1835", [], ["Ann", "Bob", "Cid", "Dan"], 3, 600, id="1835", marks=SLOW),
]  # fmt: skip


@pytest.mark.parametrize(("title", "options", "names", "seed", "most"), CASES)
def test_into_the_second_operating_round_by_clicks(
    browser: Any,  # noqa: F811
    server: str,  # noqa: F811
    title: str,
    options: list[str],
    names: list[str],
    seed: int,
    most: int,
) -> None:
    """From the start into the second operating round, every move a click on the pages."""
    began = time.monotonic()
    run = start(browser, server, title, names, seed, options)
    count = play_until(run, in_operating, most)
    page = next(iter(run.table.pages.values()))
    page.reload()
    assert OPERATING.match(page.inner_text("#round-name")), page.inner_text("#round-name")
    assert run.operating[1] > run.operating[0]
    assert not run.errors, run.errors
    took = time.monotonic() - began
    print(f"{title} {options}: {count} actions {run.kinds} {len(run.steps)} steps {took:.0f} s")


def over(run: Run, page: Any) -> bool:
    """Never done before nobody may move (the game's end)."""
    return False


@pytest.mark.slow
def test_a_whole_1849_game_by_clicks(browser: Any, server: str) -> None:  # noqa: F811
    """One 1849 game from its start to its end, every move a click; the pages then tell why
    it ended and every player's score."""
    began = time.monotonic()
    names = ["Ann", "Bob", "Cid"]
    run = start(browser, server, "1849", names, 4, [])
    count = play_until(run, over, 4000)
    for page in run.table.pages.values():
        page.reload()
        assert page.locator("#choices").count() == 0
        ended = page.inner_text("#game-over")
        assert ended.startswith("Game over: ") and "?" not in ended.split(".")[0], ended
        scores = ended.split("Scores: ", 1)[1]
        assert all(name in scores for name in names), ended
    assert not run.errors, run.errors
    took = time.monotonic() - began
    print(f"1849 to its end: {count} actions {run.kinds} {len(run.steps)} steps {took:.0f} s")
