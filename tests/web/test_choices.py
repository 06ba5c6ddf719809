"""web.choices: the acting player's moves as a page shows them (issue 11 item 1).

The page may offer nothing the engine does not list and must offer everything it lists for
the viewer: every legal action of the allowed entities is exactly one button, one city's
station or the offered run; the tile lays of a hex are exactly ``legal_actions(hex)``'s.
Checked along seeded openings of 1849 and 1835 (hypothesis chooses the seeds)."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stellwerk.api import Game
from stellwerk.web.choices import Choices, build_choices, tile_name

NS = "{http://www.w3.org/2000/svg}"
FIXTURES = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures"


def key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def offered(choices: Choices) -> Counter[str]:
    """Every action a page built from ``choices`` can send (lays left out)."""
    found = Counter(key(a) for c in choices.buttons for a in (c.action, *c.also))
    found.update(
        key(a)
        for city in choices.tokens.values()
        for c in city.choices
        for a in (c.action, *c.also)
    )
    if choices.routes is not None:
        found[key(choices.routes.choice.action)] += 1
    return found


def lays_offered(choices: Choices) -> Counter[str]:
    return Counter(
        key(a)
        for lays in choices.lays.values()
        for tile in lays.tiles
        for a in tile.rotations.values()
    )


def pick(choices: Choices, rng: random.Random, trained: set[str]) -> dict[str, Any]:
    """A move for the walk, as the browser test's player: runs, dividends, lays, stations,
    trains (one per corporation, kept in ``trained``), pars, shares, bids first, so that
    openings get far in few moves."""
    if choices.routes is not None:
        return dict(choices.routes.choice.action)
    lays = [a for h in choices.lays.values() for t in h.tiles for a in t.rotations.values()]
    tokens = [c.action for city in choices.tokens.values() for c in city.choices]
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for c in choices.buttons:
        by_kind.setdefault(c.kind, []).append(c.action)
    if "dividend" in by_kind:
        return by_kind["dividend"][0]
    if lays:
        return rng.choice(lays)
    if tokens:
        return rng.choice(tokens)
    trains = by_kind.get("buy_train", [])
    if trains and trains[0]["entity"] not in trained:
        trained.add(trains[0]["entity"])
        return trains[0]
    for kind in ("par", "buy_shares", "bid", "pass"):
        if kind in by_kind:
            return by_kind[kind][0]
    return choices.buttons[0].action


def walk(title: str, seed: int, steps: int, players: int = 3) -> Any:
    """(game, choices) before each of ``steps`` moves of a seeded opening."""
    game = Game.create(title, [(i + 1, f"P{i + 1}") for i in range(players)], [], seed=seed)
    rng = random.Random(seed)
    trained: set[str] = set()
    for _ in range(steps):
        if game.finished:
            return
        choices = build_choices(game)
        yield game, choices
        game.process(pick(choices, rng, trained))


def check_exact(game: Game, choices: Choices) -> None:
    listed = [a for a in game.legal_actions() if a["type"] != "lay_tile"]
    assert offered(choices) == Counter(key(a) for a in listed)
    lays = [a for h in game.lay_hexes() for a in game.legal_actions(h) if a["type"] == "lay_tile"]
    assert lays_offered(choices) == Counter(key(a) for a in lays)
    for hex_id, group in choices.lays.items():
        assert all(a["hex"] == hex_id for t in group.tiles for a in t.rotations.values())
        for tile in group.tiles:
            assert all(a["tile"] == tile.tile for a in tile.rotations.values())
            assert list(tile.rotations) == sorted(tile.rotations)
    for key_, city in choices.tokens.items():
        hex_id, _, index = key_.partition(":")
        board = game.engine.map.board
        for c in city.choices:
            assert board.resolve_city(c.action["city"]) == (hex_id, int(index))


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10_000))
def test_choices_are_exactly_the_legal_actions_1849(seed: int) -> None:
    """Issue 11 item 1: the page's moves are the engine's legal actions (1849 opening)."""
    for game, choices in walk("1849", seed, 45):
        check_exact(game, choices)


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10_000))
def test_choices_are_exactly_the_legal_actions_1835(seed: int) -> None:
    """Issue 11 item 1: the page's moves are the engine's legal actions (1835 opening)."""
    for game, choices in walk("1835", seed, 45):
        check_exact(game, choices)


def test_choices_keep_to_the_allowed_entities() -> None:
    """A player sees only the moves of entities he decides for; a spectator none."""
    game = Game.create("1849", [(1, "Ann"), (2, "Bob"), (3, "Cid")], [], seed=5)
    nobody = build_choices(game, allowed=lambda action: False)
    assert nobody.empty and nobody.acting == ("1",)
    other = build_choices(game, allowed=lambda action: action.get("entity") == 2)
    assert other.empty
    mine = build_choices(game, allowed=lambda action: action.get("entity") == 1)
    assert not mine.empty and all(c.action["entity"] == 1 for c in mine.buttons)


def test_bid_prices_start_at_the_listed_minimum_common_rules_6_7() -> None:
    """A bid's amount is the player's (common rules §6.7): the field starts at the least
    listed price; a fixed-price move (a pass, a par) has no field."""
    game = Game.create("1849", [(1, "Ann"), (2, "Bob"), (3, "Cid")], [], seed=5)
    choices = build_choices(game)
    bids = [c for c in choices.buttons if c.kind == "bid"]
    # the cheapest private of the waterfall auction is bought at its price: no field
    fixed = [c for c in bids if c.price_min is None]
    assert [c.action["company"] for c in fixed] == ["SCE"]
    assert fixed[0].label == "Buy Società Corriere Etnee for L.20"
    open_bids = [c for c in bids if c.price_min is not None]
    assert open_bids and all(c.price_min == c.action["price"] for c in open_bids)
    assert all(c.price_max is not None and c.price_max >= c.price_min for c in open_bids)
    assert all(c.group == "auction" for c in bids)
    assert [c.price_min for c in choices.buttons if c.kind == "pass"] == [None]


def test_labels_in_english_and_german_with_the_titles_currency() -> None:
    """Labels come in both languages; names and money are the log's (stellwerk.words)."""
    game = Game.create("1835", [(1, "Ann"), (2, "Bob"), (3, "Cid")], [], seed=5)
    english = build_choices(game, "en")
    german = build_choices(game, "de")
    assert [c.action for c in english.buttons] == [c.action for c in german.buttons]
    passes = {c.label for c in (*english.buttons, *german.buttons) if c.kind == "pass"}
    assert passes == {"Pass", "Passen"}
    names = {c.sym: c.name for c in game.engine.companies}
    bids = [c for c in english.buttons if c.kind == "bid"]
    assert bids
    for bid in bids:  # a private by its name, a minor's certificate by its symbol
        target = bid.action["company"]
        assert names.get(target, target) in bid.label
    assert any(names.get(b.action["company"]) in b.label for b in bids)
    for _game, choices in walk("1835", 7, 30, players=4):
        trains = [c.label for c in choices.buttons if c.kind == "buy_train"]
        if trains:
            assert all(label.endswith(" M") for label in trains), trains
            break
    else:
        pytest.fail("no train offered in 30 moves")


def test_choices_name_the_maps_hexes_and_cities() -> None:
    """Every hex with lays and every city with a station choice is a clickable part of the
    map picture (``data-hex``, ``data-city="HEX:INDEX"``)."""
    from stellwerk.pictures.mapview import render_map
    from stellwerk.pictures.scene import map_scene

    seen_lays = seen_tokens = False
    for game, choices in walk("1849", 5, 60):
        if not (choices.lays or choices.tokens):
            continue
        root = ET.fromstring(render_map(map_scene(game.engine)))
        hexes = {g.get("data-hex") for g in root.iter(f"{NS}g") if g.get("class") == "hex"}
        cities = {g.get("data-city") for g in root.iter(f"{NS}g") if g.get("class") == "city"}
        assert set(choices.lays) <= hexes
        assert set(choices.tokens) <= cities
        seen_lays |= bool(choices.lays)
        seen_tokens |= bool(choices.tokens)
    assert seen_lays and seen_tokens


def test_the_offered_run_is_the_listed_best_run_common_rules_6_1() -> None:
    """The run offered is the listed ``run_routes`` (the optimiser's routes); its revenue is
    the routes' sum and the label says it."""
    for _game, choices in walk("1849", 5, 120):
        offer = choices.routes
        if offer is not None and offer.routes:
            assert offer.revenue == sum(int(r["revenue"]) for r in offer.routes)
            assert offer.choice.action["routes"] == list(offer.routes)
            assert str(offer.revenue) in offer.choice.label
            return
    pytest.fail("no run with routes in 120 moves")


def test_tile_name_of_a_copy() -> None:
    assert tile_name("57-0") == "57"
    assert tile_name("X1") == "X1"
    assert tile_name("B4-1") == "B4"


def test_a_finished_game_offers_nothing() -> None:
    """After the game's end no move is offered (common rules: game end)."""
    path = FIXTURES / "18xx.games" / "1849" / "1849_game_end_bank.json"
    if not path.exists():
        pytest.skip(f"{path} not found")
    game = Game.from_file(json.loads(path.read_text()))
    assert game.finished
    assert build_choices(game).empty


def test_a_token_from_another_corporation_is_one_form_with_a_price_field_1841_2_5() -> None:
    """rules/1841.md 2.5: a corporation may buy another's placed token for any amount from
    L.1 to its cash, paid to the seller.  The engine lists each token at L.1 and at the
    buyer's cash; the page shows one form per token, naming the seller, with a price field
    over that range (not two buttons "for L.1" and "for L.400")."""
    from tests.conftest import played_until

    def token_for_sale(game: Game) -> bool | None:
        return any(a["type"] == "buy_token" for a in game.legal_actions()) or None

    game, _ = played_until("1841", ["P1", "P2", "P3"], 1, token_for_sale, most=1500)
    listed = [a for a in game.legal_actions() if a["type"] == "buy_token"]
    forms = [c for city in build_choices(game).tokens.values() for c in city.choices]
    forms = [c for c in forms if c.kind == "buy_token"]
    slots = {(a["city"], a["slot"]) for a in listed}
    assert len(forms) == len(slots) and len(listed) > len(forms)
    buyer = game.view.corporation(str(listed[0]["entity"]))
    for form in forms:
        assert (form.price_min, form.price_max) == (1, buyer.cash)
        hex_id, index = game.board.resolve_city(str(form.action["city"]))
        owner = game.board.hexes[hex_id].cities[index].tokens[int(form.action["slot"])]
        assert owner and f"{owner}'s station" in form.label and "L." not in form.label
    assert offered(build_choices(game)) >= Counter(key(a) for a in listed)
    german = [c for city in build_choices(game, "de").tokens.values() for c in city.choices]
    assert any(c.label.startswith("Station von ") for c in german if c.kind == "buy_token")
