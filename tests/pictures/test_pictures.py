"""Pictures of games (issue 9): the map of a game's final state is valid SVG with one element
per hex (its id the hex id, common rules §1.1), every token on the board drawn in its hex's
cities (common rules §6.4), and the routes of a corporation's last run drawn when asked, one
colour per train (common rules §6.1); market, charters, players and the tile sheet render.

Games: the 1849 18xx.games fixture and the Rails 1835 reports (skipped when ../shared is
absent), 1841 positions rebuilt from a fixture trace (tools/positions1841.py), and selfplay
games of 1849 and 1835.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from stellwerk.cli.common import create_game
from stellwerk.cli.main import main
from stellwerk.core.map.board import Board
from stellwerk.pictures.charters import render_charters, render_players
from stellwerk.pictures.mapview import render_map
from stellwerk.pictures.market import render_market
from stellwerk.pictures.scene import MapSource, board_of, last_run, map_scene, route_lines
from stellwerk.pictures.tilesheet import render_tiles, tile_counts
from stellwerk.reading import port_map_facts
from stellwerk.selfplay import play

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures"
GAME_1849 = SHARED / "18xx.games" / "1849" / "1849_game_end_bank.json"
GAME_1841 = SHARED / "18xx.games" / "1841" / "1841_game_end_bankrupt.json"
REPORTS = sorted((SHARED / "rails" / "1835").glob("*.report")) if SHARED.is_dir() else []
NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def check_map(svg: str, board: Board) -> ET.Element:
    """One <g> per hex with the hex id, and in each exactly the tokens its cities hold."""
    root = parse(svg)
    groups = {g.get("id"): g for g in root.iter(f"{NS}g") if g.get("class") == "hex"}
    assert set(groups) == set(board.hexes)
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids)), "element ids are unique"
    for hid, state in board.hexes.items():
        want = Counter(t for city in state.cities for t in city.tokens if t is not None)
        drawn = Counter(
            c.get("data-corporation")
            for c in groups[hid].iter(f"{NS}circle")
            if c.get("class") == "token"
        )
        assert drawn == want, hid
    return root


def test_1849_final_map_tokens_and_routes(tmp_path: Path) -> None:
    if not GAME_1849.is_file():
        pytest.skip("../shared fixtures absent")
    out = tmp_path / "map.svg"
    result = CliRunner().invoke(main, ["map", str(GAME_1849), "-o", str(out), "--routes", "SFA"])
    assert result.exit_code == 0, result.output
    from stellwerk.cli.pictures_cmd import load

    engine, actions = load(GAME_1849, None)
    board = board_of(engine)
    root = check_map(out.read_text(encoding="utf-8"), board)
    assert sum(1 for _ in board.hexes) == 73
    tokens = sum(1 for s in board.hexes.values() for c in s.cities for t in c.tokens if t)
    assert tokens > 0
    recorded = last_run(actions, "SFA")
    assert recorded is not None
    routes = [g for g in root.iter(f"{NS}g") if g.get("class") == "route"]
    assert [g.get("data-train") for g in routes] == [r["train"] for r in recorded]
    for g in routes:
        paths = list(g.iter(f"{NS}path"))
        assert paths and paths[0].get("d", "").startswith("M")
    # each route walks as many pieces of track as the run used
    lines = route_lines(board, "SFA", recorded)
    assert all(line.paths for line in lines)


def test_1849_map_before_an_action_and_png(tmp_path: Path) -> None:
    """``--before-action`` pictures an earlier state; a .png path writes PNG."""
    if not GAME_1849.is_file():
        pytest.skip("../shared fixtures absent")
    pytest.importorskip("cairosvg")
    out = tmp_path / "map.png"
    args = ["map", str(GAME_1849), "-o", str(out), "--before-action", "100"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_best_routes_are_drawn(tmp_path: Path) -> None:
    """``--best``: the optimiser's routes (common rules §6.1), one colour per train."""
    if not GAME_1849.is_file():
        pytest.skip("../shared fixtures absent")
    out = tmp_path / "best.svg"
    args = ["map", str(GAME_1849), "-o", str(out), "--routes", "SFA", "--best"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    root = parse(out.read_text(encoding="utf-8"))
    routes = [g for g in root.iter(f"{NS}g") if g.get("class") == "route"]
    assert len(routes) == 2
    colours = {p.get("stroke") for g in routes for p in g.iter(f"{NS}path")}
    assert len(colours) == 2
    assert "best routes of SFA" in (root.findtext(f"{NS}desc") or "")


def test_routes_of_a_corporation_that_never_ran_are_refused(tmp_path: Path) -> None:
    if not GAME_1849.is_file():
        pytest.skip("../shared fixtures absent")
    out = tmp_path / "map.svg"
    args = ["map", str(GAME_1849), "-o", str(out), "--routes", "AFG"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert "has not run" in result.output


@pytest.mark.parametrize("report", REPORTS, ids=[p.stem for p in REPORTS])
def test_1835_report_final_map(report: Path, tmp_path: Path) -> None:
    from stellwerk.importers.rails import import_report

    imported = import_report(report)
    if imported.game is None:
        pytest.skip("report does not import")
    engine = imported.game.engine
    board = board_of(engine)
    check_map(render_map(map_scene(engine)), board)
    charters = parse(render_charters(engine, imported.game.to_file()["actions"]))
    assert [g for g in charters.iter(f"{NS}g") if g.get("class") == "charter"]


def test_rails_report_routes_are_the_best_routes(tmp_path: Path) -> None:
    """A Rails report records a run's revenue, not its routes: ``--routes`` draws the best
    routes of the corporation's trains (common rules §6.1), one colour per train."""
    report = next((p for p in REPORTS if p.stem == "1835_Stoll_12"), None)
    if report is None:
        pytest.skip("Rails 1835 reports absent")
    out = tmp_path / "map.svg"
    result = CliRunner().invoke(main, ["map", str(report), "-o", str(out), "--routes", "PR"])
    assert result.exit_code == 0, result.output
    assert "best routes" in result.output
    root = parse(out.read_text(encoding="utf-8"))
    routes = [g for g in root.iter(f"{NS}g") if g.get("class") == "route"]
    assert routes and all(list(g.iter(f"{NS}path")) for g in routes)


def test_1841_map_has_the_borders_of_the_phase() -> None:
    """rules/1841.md 1.2: the political borders in force are drawn; later phases drop them."""
    if not GAME_1841.is_file():
        pytest.skip("../shared fixtures absent")
    from positions1841 import positions

    seen: dict[str, int] = {}
    for _action, position in positions(GAME_1841):
        port = position.port
        if port.phase in seen:
            continue
        source = MapSource(port.board, port_map_facts(port, "1841"))
        root = check_map(render_map(map_scene(source)), port.board)
        borders = [e for e in root.iter(f"{NS}line") if e.get("class") == "political-border"]
        seen[port.phase] = len(borders)
        assert len(borders) * 2 >= len(port.political_borders()) > 0 or not borders
    assert seen["2"] > seen[max(seen)] > 0


def test_1841_game_files_map_as_their_traces(tmp_path: Path) -> None:
    """``map`` of a recorded 1841 game draws the replayed board, every tile and token as the
    board rebuilt from the file's state trace (tools/positions1841.py) has it."""
    if not GAME_1841.is_file():
        pytest.skip("../shared fixtures absent")
    from positions1841 import positions

    port = None
    for _action, position in positions(GAME_1841):
        port = position.port
    assert port is not None
    out = tmp_path / "map.svg"
    result = CliRunner().invoke(main, ["map", str(GAME_1841), "-o", str(out)])
    assert result.exit_code == 0, result.output
    check_map(out.read_text(encoding="utf-8"), port.board)


@pytest.mark.parametrize(("title", "players"), [("1849", 3), ("1835", 4)])
def test_selfplay_game_pictures(title: str, players: int, tmp_path: Path) -> None:
    """A game stellwerk played itself: map, market, charters, players and tiles render."""
    game = create_game(title, [(i, f"Player {i}") for i in range(1, players + 1)], [], 3)
    play(game, 3, max_actions=600)
    engine = game.engine
    board = board_of(engine)
    assert any(not s.is_preprinted for s in board.hexes.values())
    check_map(render_map(map_scene(engine)), board)
    data = game.to_file()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    runs = [a for a in data["actions"] if a["type"] == "run_routes" and a.get("routes")]
    if runs:
        corp = str(runs[-1]["entity"])
        out = tmp_path / "routes.svg"
        result = CliRunner().invoke(main, ["map", str(path), "-o", str(out), "--routes", corp])
        assert result.exit_code == 0, result.output
        root = parse(out.read_text(encoding="utf-8"))
        assert [g for g in root.iter(f"{NS}g") if g.get("class") == "route"]
    market = parse(render_market(engine))
    cells = [g for g in market.iter(f"{NS}g") if g.get("class") == "cell"]
    priced = [c for c in engine.corporations if c.share_price is not None]
    markers = [t for g in cells for t in g.iter(f"{NS}circle") if t.get("class") == "token"]
    assert len(markers) == len(priced)
    charters = parse(render_charters(engine, data["actions"]))
    assert {g.get("id") for g in charters.iter(f"{NS}g") if g.get("class") == "charter"} == {
        f"charter-{c.sym}" for c in engine.corporations
    }
    table = parse(render_players(engine))
    assert len([g for g in table.iter(f"{NS}g") if g.get("class") == "player"]) == players
    sheet = parse(render_tiles(engine))
    counts = tile_counts(board)
    assert len([g for g in sheet.iter(f"{NS}g") if g.get("class") == "tile"]) == len(counts)
    assert sum(left for left, _ in counts.values()) == len(board.supply)


def test_market_markers_in_arrival_order() -> None:
    """common rules §6.2: markers on one cell are drawn in the order they arrived."""
    game = create_game("1849", [(1, "A"), (2, "B"), (3, "C")], [], 5)
    play(game, 5, max_actions=250)
    engine = game.engine
    root = parse(render_market(engine))
    for row in engine.market.rows:
        for cell in row:
            if cell is None or not cell.corporations:
                continue
            g = next(
                e for e in root.iter(f"{NS}g") if e.get("id") == f"cell-{cell.row}-{cell.column}"
            )
            drawn = [c.get("data-corporation") for c in g.iter(f"{NS}circle")]
            assert drawn == cell.corporations


def test_1841_charters_show_the_chain_of_control() -> None:
    """rules/1841.md 2.1: a corporation may be presided over by another; its charter names the
    chain of control up to the player (not "-"), as the views give it."""
    if not GAME_1841.is_file():
        pytest.skip("../shared fixtures absent")
    from stellwerk.api import Game

    data = json.loads(GAME_1841.read_text(encoding="utf-8"))
    game = Game.from_file({**data, "actions": data["actions"][:150]})
    root = parse(render_charters(game.view))
    held = [c for c in game.view.corporations() if c.president and c.president.kind != "player"]
    assert held
    for corp in held:
        charter = next(g for g in root.iter(f"{NS}g") if g.get("id") == f"charter-{corp.sym}")
        shown = [t.text for t in charter.iter(f"{NS}text") if t.get("class") == "president"]
        assert shown == [" ← ".join(link.name for link in corp.chain)]
        assert corp.chain[-1].kind == "player" and corp.chain[-1].name in shown[0]
