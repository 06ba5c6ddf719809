"""A title from outside the package, added through the contract alone: 18Tiny
(``tests/tinytitle``: its data in the core schema, a game class on the default board port and
its ``Title``) is registered, played to the end by the selfplay driver, run through the CLI,
drawn and shown by the web pages, and unregistered again."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from webhelp import app_client, new_game

from stellwerk.api import Game
from stellwerk.cli.main import main
from stellwerk.core.errors import IllegalAction
from stellwerk.core.schema import game_tables
from stellwerk.pictures.mapview import render_map
from stellwerk.pictures.market import render_market
from stellwerk.pictures.scene import map_scene
from stellwerk.selfplay import play
from stellwerk.titles import registry
from tinytitle.game import GameTiny
from tinytitle.title import TITLE

TINY = TITLE.id


@pytest.fixture
def tiny() -> Iterator[str]:
    """18Tiny registered for the test, taken out afterwards."""
    registry.register(TITLE)
    try:
        yield TINY
    finally:
        registry.unregister(TINY)


def played(seed: int, players: int = 2) -> Game:
    game = Game.create(TINY, [(n, f"P{n}") for n in range(1, players + 1)], [], seed)
    outcome = play(game, seed, max_actions=3000)
    assert outcome.finished, outcome
    return game


def test_a_registered_title_is_listed_until_it_is_unregistered() -> None:
    """``register`` adds a title after the ones there, ``TITLES`` shows it at once (a live
    view), an id registered twice or a built-in title taken out is refused."""
    assert TINY not in registry.TITLES
    registry.register(TITLE)
    try:
        assert list(registry.TITLES)[-1] == TINY
        assert registry.registered()[-1] is TITLE
        assert registry.get_title(TINY) is TITLE
        assert TINY in registry.known_titles()
        with pytest.raises(ValueError):
            registry.register(TITLE)
        with pytest.raises(ValueError):
            registry.unregister("1849")
    finally:
        registry.unregister(TINY)
    assert TINY not in registry.TITLES
    assert [t.id for t in registry.registered()] == ["1849", "1835", "1841"]
    with pytest.raises(IllegalAction):
        registry.get_title(TINY)


def test_the_title_keeps_the_contract(tiny: str) -> None:
    """Player counts from its ``[players]``, no options, a game class for 2 and 3 players that
    refuses 1, and its data loaded by ``prepare``."""
    assert registry.player_counts(tiny) == (2, 3)
    assert registry.title_info(tiny).options == ()
    registry.check_setup(tiny, 2, [])
    with pytest.raises(IllegalAction):
        registry.check_setup(tiny, 4, [])
    cls = registry.title_class(tiny)
    assert cls.title == tiny
    with pytest.raises(IllegalAction):
        cls([(1, "P1")], [], 1)
    registry.prepare(tiny)


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 2)])
def test_selfplay_plays_the_title_to_the_end(tiny: str, seed: int, players: int) -> None:
    """Both corporations start, lay track, run and pay until the bank breaks (common rules
    §4.2); the file replays to the same result."""
    game = played(seed, players)
    engine = game.engine
    assert engine.game_end_reason == "bank"
    kinds = Counter(a["type"] for a in game.actions)
    assert kinds["par"] == 2 and kinds["lay_tile"] >= 1 and kinds["run_routes"] >= 1
    assert kinds["buy_train"] >= 1
    again = Game.from_file(game.to_file())
    assert again.engine.result() == engine.result()


def test_the_cli_lists_plays_shows_and_draws_the_title(tiny: str, tmp_path: Path) -> None:
    """``titles`` and ``--help`` name it, ``selfplay`` writes its game file, ``replay``
    matches it, ``show`` shows it and ``map`` and ``market`` draw it."""
    runner = CliRunner()
    listed = runner.invoke(main, ["titles", "--json"])
    assert listed.exit_code == 0, listed.output
    assert [t["id"] for t in json.loads(listed.output)][-1] == tiny
    assert f"{tiny})" in " ".join(runner.invoke(main, ["--help"]).output.split())
    options = runner.invoke(main, ["options", tiny])
    assert options.exit_code == 0, options.output
    path = tmp_path / "tiny.json"
    selfplay = ["selfplay", tiny, "--players", "2", "--seed", "4", "-o", str(path)]
    result = runner.invoke(main, selfplay)
    assert result.exit_code == 0, result.output
    assert json.loads(path.read_text())["title"] == tiny
    replayed = runner.invoke(main, ["replay", str(path)])
    assert replayed.exit_code == 0 and "MATCH" in replayed.output, replayed.output
    shown = runner.invoke(main, ["show", str(path)])
    assert shown.exit_code == 0, shown.output
    assert "RB" in shown.output and " T" in shown.output
    for command in ("map", "market"):
        picture = tmp_path / f"{command}.svg"
        drawn = runner.invoke(main, [command, str(path), "-o", str(picture)])
        assert drawn.exit_code == 0, drawn.output
        ET.fromstring(picture.read_text())


def test_the_pictures_draw_its_map_and_market(tiny: str) -> None:
    """Every hex of the map is drawn, the corporations in their data's colours; the market's
    legend says the title's words."""
    game = played(5)
    svg = render_map(map_scene(game.engine))
    ET.fromstring(svg)
    for hex_id in ("A1", "B2", "C1", "C3", "D2", "E3", "D4"):
        assert f'data-hex="{hex_id}"' in svg
    assert "#c0392b" in svg  # RB's colour from data/game.toml
    market = render_market(game.engine)
    assert "start price" in market


def test_the_web_pages_offer_and_show_the_title(tiny: str) -> None:
    """The new-game page offers it, a game of it is made through the API and its pages (a
    player's, the spectators') show the map with moves for the player to act."""
    with app_client() as client:
        offered = re.findall(r'href="/new\?title=(\w+)"', client.get("/new").text)
        assert tiny in offered
        assert client.get(f"/new?title={tiny}").status_code == 200
        created = new_game(client, ["Ann", "Bob"], title=tiny)
        for link in (created["players"][0]["link"], created["spectator"]["link"]):
            page = client.get(link)
            assert page.status_code == 200, page.text
            assert 'id="map"' in page.text and 'data-hex="A1"' in page.text
        assert 'name="action"' in client.get(created["players"][0]["link"]).text
        assert client.get(f"/tile/{tiny}/9/1.svg").status_code == 200


def test_the_core_schema_reads_the_common_facts_and_refuses_a_wrong_shape() -> None:
    """The game table's common facts, typed (defaults of ``[corporation_defaults]`` filled
    in); a table without a market or with a train lacking its price is refused."""
    data = GameTiny([(1, "A"), (2, "B")], [], 1).data
    facts = game_tables(data)
    assert facts.players == (2, 3) and facts.starting_cash == {2: 450, 3: 350}
    assert [p.name for p in facts.phases] == ["2", "3", "4"] and facts.phases[1].on == "3"
    first = facts.trains[0]
    assert (first.name, first.count, first.rusts_on) == ("2", 3, "4")
    rb = facts.corporations[0]
    assert (rb.sym, rb.home, rb.tokens, rb.float_percent, rb.shares[0]) == ("RB", "A1", 2, 50, 20)
    assert facts.token_prices == (40,)
    with pytest.raises(ValueError):
        game_tables({k: v for k, v in data.items() if k != "market"})
    with pytest.raises(ValueError):
        game_tables({**data, "trains": [{"name": "2", "distance": 2, "count": 1}]})


def test_the_default_board_port_places_homes_and_prices_tokens() -> None:
    """A started corporation's home token goes down free on its home city; its next token
    costs the table's price; it may lay track from its token, not before."""
    game = GameTiny([(1, "A"), (2, "B")], [], 1)
    rb = game.corporation("RB")
    port = game.map
    assert port.board.hex("A1").cities[0].reservations and not port.can_lay_tile(rb)
    game.set_par(rb, game.par_cells()[0])
    game.after_par(rb)
    assert port.token_hexes("RB") == ["A1"] and port.unplaced_tokens(rb) == 1
    assert port.token_price(rb) == 40 and port.can_lay_tile(rb)
    lays = port.legal_lays(rb, None)
    assert lays and {hex_id for hex_id, _, _ in lays} <= {"B2", "C1"}
