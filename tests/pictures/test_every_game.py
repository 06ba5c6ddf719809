"""Issue 9's checks over every game we hold: the final map of every 18xx.games file (1849 by
replay; 1841 by replay too, checked against the board rebuilt from its trace) and of every
Rails 1835 report is valid SVG with one element per hex
(common rules §1.1), every token in its city (§6.4), and the routes of the last operating
round drawn when asked (§6.1: one path group per train of the corporation's last run; a Rails
report records revenues only, so its best routes).  And ``map`` / ``log`` work from the game
store (``--db``) as from a file.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from stellwerk.api import Game
from stellwerk.cli.main import main
from stellwerk.pictures.scene import board_of, last_run
from stellwerk.selfplay import play

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures"
FILES = sorted((SHARED / "18xx.games").glob("*/*.json")) if SHARED.is_dir() else []
GAMES_1841 = [p for p in FILES if p.parent.name == "1841"]
REPORTS = sorted((SHARED / "rails" / "1835").glob("*.report")) if SHARED.is_dir() else []
NS = "{http://www.w3.org/2000/svg}"


def _run(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


def _hexes_and_tokens(svg: str) -> tuple[set[str], dict[str, list[str]], list[ET.Element]]:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    groups = {g.get("id"): g for g in root.iter(f"{NS}g") if g.get("class") == "hex"}
    tokens = {
        str(hid): sorted(
            str(c.get("data-corporation"))
            for c in g.iter(f"{NS}circle")
            if c.get("class") == "token"
        )
        for hid, g in groups.items()
    }
    routes = [g for g in root.iter(f"{NS}g") if g.get("class") == "route"]
    return {str(h) for h in groups}, tokens, routes


def _board_tokens(board: object) -> dict[str, list[str]]:
    return {
        hid: sorted(t for city in state.cities for t in city.tokens if t is not None)
        for hid, state in board.hexes.items()  # type: ignore[attr-defined]
    }


def _last_runner(actions: list[dict[str, object]]) -> str:
    """The corporation of the last run with routes (the last operating round's)."""
    for action in reversed(actions):
        if action.get("type") == "run_routes" and action.get("routes"):
            return str(action["entity"])
    raise AssertionError("no run with routes")


@pytest.mark.parametrize("path", GAMES_1841, ids=[p.stem for p in GAMES_1841])
def test_1841_final_maps_tokens_and_last_routes(path: Path, tmp_path: Path) -> None:
    """Each 1841 game's final map drawn from the replay, checked against the board rebuilt
    from its trace (tools/positions1841.py): one group per hex,
    the trace's tokens in their hexes, and ``--routes`` the last run's trains."""
    from positions1841 import positions

    port = None
    live: list[dict[str, object]] = []
    for action, position in positions(path):
        port = position.port
        live.append(action)
    assert port is not None
    corp = _last_runner(live)
    out = tmp_path / "map.svg"
    result = _run("map", str(path), "-o", str(out), "--routes", corp)
    assert result.exit_code == 0, result.stderr  # type: ignore[attr-defined]
    assert "note:" not in result.stderr  # type: ignore[attr-defined]
    hexes, tokens, routes = _hexes_and_tokens(out.read_text(encoding="utf-8"))
    board = port.board
    assert hexes == set(board.hexes)
    assert tokens == _board_tokens(board)
    assert sum(len(t) for t in tokens.values()) > 0
    recorded = last_run(live, corp)
    assert recorded
    assert [g.get("data-train") for g in routes] == [r["train"] for r in recorded]


@pytest.mark.parametrize("report", REPORTS, ids=[p.stem for p in REPORTS])
def test_rails_report_routes_of_the_last_run(report: Path, tmp_path: Path) -> None:
    """Every Rails 1835 report: ``--routes`` of the last corporation that earned draws a
    route per train the optimiser uses (the report records no routes)."""
    from stellwerk.importers.rails import import_report

    imported = import_report(report)
    if imported.game is None:
        pytest.skip("report does not import")
    actions = imported.game.to_file()["actions"]
    earned = [a for a in actions if a.get("type") == "run_routes" and a.get("revenue")]
    if not earned:
        pytest.skip("no corporation earned in this report")
    corp = str(earned[-1]["entity"])
    out = tmp_path / "map.svg"
    result = _run("map", str(report), "-o", str(out), "--routes", corp)
    assert result.exit_code == 0, result.stderr  # type: ignore[attr-defined]
    hexes, tokens, routes = _hexes_and_tokens(out.read_text(encoding="utf-8"))
    board = board_of(imported.game.engine)
    assert hexes == set(board.hexes) and tokens == _board_tokens(board)
    assert routes and all(list(g.iter(f"{NS}path")) for g in routes)


def test_1841_log_tells_the_whole_game() -> None:
    """``stellwerk log`` of an 1841 game file tells the game; the engine replays the real 1841
    games to their end, so no note says the log stops early (exit 0)."""
    if not GAMES_1841:
        pytest.skip("../shared fixtures absent")
    for lang, word in (("en", "wins"), ("de", "ersteigert")):
        result = _run("log", str(GAMES_1841[0]), "--lang", lang)
        assert result.exit_code == 0, result.stderr  # type: ignore[attr-defined]
        assert word in result.stdout  # type: ignore[attr-defined]
        assert "the log stops there" not in result.stderr  # type: ignore[attr-defined]


def _store_case(title: str, tmp_path: Path) -> Path:
    """A game of ``title`` as a file: the 1849 fixture, or a selfplay 1835 game; 1841: the
    fixture up to the engine's first refusal (a store keeps only games that load)."""
    if title == "1849":
        path = SHARED / "18xx.games" / "1849" / "1849_game_end_bank.json"
        if not path.is_file():
            pytest.skip("../shared fixtures absent")
        return path
    out = tmp_path / f"{title}.json"
    if title == "1835":
        game = Game.create("1835", [(1, "Anna"), (2, "Bernd"), (3, "Carl")], [], seed=4)
        play(game, 4, max_actions=300)
        out.write_text(json.dumps(game.to_file()), encoding="utf-8")
        return out
    if not GAMES_1841:
        pytest.skip("../shared fixtures absent")
    from stellwerk.core.errors import GameFileError

    data = json.loads(GAMES_1841[0].read_text(encoding="utf-8"))
    try:
        Game.from_file(data)
    except GameFileError as error:
        assert error.action_id is not None
        data["actions"] = [a for a in data["actions"] if a["id"] < error.action_id]
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


@pytest.mark.parametrize("title", ["1849", "1835", "1841"])
def test_map_and_log_from_the_store_equal_the_file(title: str, tmp_path: Path) -> None:
    """``map GAME --db`` and ``log GAME --db`` give what they give for the file."""
    path = _store_case(title, tmp_path)
    db = str(tmp_path / "games.db")
    assert _run("import", str(path), "--db", db, "--key", "g").exit_code == 0  # type: ignore[attr-defined]
    from_file, from_db = tmp_path / "file.svg", tmp_path / "db.svg"
    assert _run("map", str(path), "-o", str(from_file)).exit_code == 0  # type: ignore[attr-defined]
    assert _run("map", "g", "--db", db, "-o", str(from_db)).exit_code == 0  # type: ignore[attr-defined]
    assert from_file.read_text(encoding="utf-8") == from_db.read_text(encoding="utf-8")
    for lang in ("en", "de"):
        file_log = _run("log", str(path), "--lang", lang)
        db_log = _run("log", "g", "--db", db, "--lang", lang)
        assert db_log.exit_code == 0, db_log.stderr  # type: ignore[attr-defined]
        assert file_log.stdout == db_log.stdout and db_log.stdout  # type: ignore[attr-defined]
    for command in ("market", "charters", "players", "tiles"):
        out = tmp_path / f"{command}.svg"
        result = _run(command, "g", "--db", db, "-o", str(out))
        assert result.exit_code == 0, result.stderr  # type: ignore[attr-defined]
        ET.fromstring(out.read_text(encoding="utf-8"))


def test_map_of_a_missing_store_key_is_a_usage_error(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    result = _run("map", "nope", "--db", db, "-o", str(tmp_path / "x.svg"))
    assert result.exit_code == 2  # type: ignore[attr-defined]
    assert "nope" in result.stderr  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("title", "legend"),
    [("1849", "par 144 (from the first 6H)"), ("1835", "start price")],
)
def test_market_legend_speaks_the_titles_words(title: str, legend: str) -> None:
    """The market letters mean different things per title (rules/1849.md: par 144 from the
    first 6H; rules/1835.md 8.6: fixed start prices): the legend says it in its words."""
    from stellwerk.pictures.market import render_market

    players = [(1, "A"), (2, "B"), (3, "C")]
    root = ET.fromstring(render_market(Game.create(title, players, [], seed=1).engine))
    group = next(g for g in root.iter(f"{NS}g") if g.get("id") == "market-legend")
    labels = ["".join(t.itertext()) for t in group.iter(f"{NS}text")]
    assert legend in labels
    assert not any(label.startswith("zone ") for label in labels)


def test_pictures_write_money_as_the_log_does() -> None:
    """Issue 9 item 3 for the pictures: the players' table gives each player's cash in the
    title's currency exactly as the log does (``stellwerk.words.money``)."""
    from stellwerk.pictures.charters import render_players
    from stellwerk.words import money

    for title in ("1849", "1835"):
        game = Game.create(title, [(1, "A"), (2, "B"), (3, "C")], [], seed=2)
        play(game, 2, max_actions=120)
        root = ET.fromstring(render_players(game.engine))
        rows = [g for g in root.iter(f"{NS}g") if g.get("class") == "player"]
        for player, row in zip(game.engine.players, rows, strict=True):
            cells = ["".join(t.itertext()) for t in row.iter(f"{NS}text")]
            assert money(title, player.cash) in cells, (title, cells)


def test_before_action_pictures_an_earlier_state_for_every_title(tmp_path: Path) -> None:
    """``--before-action N`` draws the state before action N: for 1849 and a Rails report by
    replaying the actions before N (1841 checked against the board rebuilt from the trace up to
    N); each differs from the final map and has the tokens of that point."""
    from positions1841 import position_before

    g1849 = SHARED / "18xx.games" / "1849" / "1849_game_end_bank.json"
    report = SHARED / "rails" / "1835" / "1835_Stoll_12.report"
    if not (g1849.is_file() and report.is_file() and GAMES_1841):
        pytest.skip("../shared fixtures absent")
    for path, before in ((g1849, 200), (report, 150), (GAMES_1841[0], 400)):
        early, final = tmp_path / f"{path.stem}-early.svg", tmp_path / f"{path.stem}.svg"
        result = _run("map", str(path), "-o", str(early), "--before-action", str(before))
        assert result.exit_code == 0, result.stderr  # type: ignore[attr-defined]
        assert _run("map", str(path), "-o", str(final)).exit_code == 0  # type: ignore[attr-defined]
        _, tokens, _ = _hexes_and_tokens(early.read_text(encoding="utf-8"))
        assert early.read_text(encoding="utf-8") != final.read_text(encoding="utf-8")
        if path.parent.name == "1841":
            _, position = position_before(path, before)
            assert tokens == _board_tokens(position.port.board)
        elif path.suffix == ".json":
            data = json.loads(path.read_text(encoding="utf-8"))
            from stellwerk.io.gamefile import load_game_file

            kept = [a for a in load_game_file(data).live if a["id"] < before]
            earlier = Game.from_file({**data, "actions": kept}).engine
            assert tokens == _board_tokens(board_of(earlier))


RIVERS_1835 = set(
    ["C11", "D8", "D14", "E15", "G3", "I3", "J6", "J8", "K7", "K9", "M13", "M15", "M17"]
)
"""rules/1835.md, "Terrain costs": 50M rivers on these hexes (70M mountains elsewhere)."""


@pytest.mark.parametrize("title", ["1849", "1835"])
def test_terrain_costs_are_drawn_by_kind(title: str) -> None:
    """Each printed terrain cost is drawn as what it is for: 1835's rivers as water, its
    mountains and all of 1849's costs as mountains (rules/1835.md, rules/1849.md), with the
    cost written on it; city names sit in the label layer above the hexes."""
    from stellwerk.pictures.mapview import render_map
    from stellwerk.pictures.scene import map_scene

    engine = Game.create(title, [(1, "A"), (2, "B"), (3, "C")], [], seed=1).engine
    root = ET.fromstring(render_map(map_scene(engine)))
    kinds: dict[str, str] = {}
    for g in root.iter(f"{NS}g"):
        if g.get("class") != "hex":
            continue
        for mark in g.iter():
            cls = mark.get("class") or ""
            if cls.startswith("terrain "):
                kinds[str(g.get("id"))] = cls.split()[1]
    board = board_of(engine)
    costly = {h for h, s in board.hexes.items() if s.spec.terrain_cost and s.is_preprinted}
    assert set(kinds) == costly
    if title == "1835":
        assert {h for h, k in kinds.items() if k == "water"} == RIVERS_1835
        assert {k for h, k in kinds.items() if h not in RIVERS_1835} == {"mountain"}
    else:
        assert set(kinds.values()) == {"mountain"}
    layer = next(g for g in root.iter(f"{NS}g") if g.get("id") == "labels")
    named = {g.get("data-hex") for g in layer}
    assert named == {h for h, s in board.hexes.items() if s.spec.location}
