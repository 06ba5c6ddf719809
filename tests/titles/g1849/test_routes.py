"""1849 routes (1849 rules §4.3, §2.1, §1.4, §7.5) and a replay of the 1849 fixture's tiles,
tokens and routes on our board, compared with its trace (tiles, token hexes, lay costs,
recorded revenues)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.board import Board
from stellwerk.core.map.graph import GraphCache
from stellwerk.core.map.lay import LayOptions, check_lay, legal_lays
from stellwerk.core.map.spec import load_map, load_supply
from stellwerk.core.routes.model import RunContext
from stellwerk.core.routes.parse import parse_route
from stellwerk.core.routes.validate import run_routes
from stellwerk.titles.g1849.rules.routes import (
    check_route_cities_only,
    hex_distance,
    route_rules,
    train_spec,
)
from stellwerk.titles.g1849.rules.track import new_board, track_rules

FIXTURE = Path(__file__).parents[3] / ".." / "shared" / "fixtures" / "18xx.games" / "1849"
GAME = "1849_game_end_bank"
DIST: dict[str, int | None] = {
    "4H": 4, "6H": 6, "8H": 8, "10H": 10, "12H": 12, "16H": 16, "R6H": 6, "E": None,
}  # fmt: skip
YGB = ("yellow", "green", "brown")
PHASE_TILES = {
    "4H": ("yellow",), "6H": ("yellow", "green"), "8H": ("yellow", "green"),
    "10H": YGB, "12H": YGB, "16H": YGB,
}  # fmt: skip
HOME = {"ATA": "M13", "CTL": "E1", "IFT": "H12", "RCS": "C5", "SFA": "J6"}
SMS_HEXES = ("B14", "C1", "C5", "E1", "H12", "J6", "M9", "M13")
RULES = route_rules()


def run(board: Board, corp: str, phase: str, routes: list[dict[str, Any]], **kw: Any) -> list[int]:
    ctx = RunContext(board, corp, phase, PHASE_TILES[phase], **kw)
    trains = {r["train"]: train_spec(r["train"], DIST) for r in routes}
    return run_routes(ctx, routes, trains, RULES)


def route(train: str, *chains: list[str]) -> dict[str, Any]:
    return {"train": train, "connections": [list(c) for c in chains]}


def sfa_board() -> Board:
    """SFA at J6 (657, broad towards K7), K7 town, L8 straight to M9."""
    b = new_board()
    b.lay_tile("J6", "657-0", 2)
    b.place_token_at("J6", 0, "SFA")
    b.lay_tile("K7", "4-0", 2)
    b.lay_tile("L8", "9-0", 2)
    return b


SFA_RUN = route("6H-0", ["N8", "M9"], ["M9", "L8", "K7"], ["K7", "J6"])


def test_gray_cities_by_phase_and_port_bonus() -> None:
    """1849 rules §2.1 (M9 20/30/40) and §1.4 (CNM +20): N8-M9-K7-J6 in 6H pays 90."""
    b = sfa_board()
    assert run(b, "SFA", "6H", [SFA_RUN], bonus_hexes={"N8": 20}) == [90]
    assert run(b, "SFA", "8H", [SFA_RUN]) == [80]
    assert run(b, "SFA", "12H", [SFA_RUN]) == [90]


def test_h_distance_and_reverse_train() -> None:
    """1849 rules §4.3: broad/dual 1 per hex edge, narrow 2; the R6H counts broad 2."""
    b = sfa_board()
    assert run(b, "SFA", "4H", [{**SFA_RUN, "train": "4H-0"}]) == [70]  # 1 + 2 + 1 edges
    with pytest.raises(IllegalAction, match="too long"):
        run(b, "SFA", "16H", [{**SFA_RUN, "train": "R6H-0"}])  # 1 + 4 + 2
    b.place_token_at("M13", 0, "ATA")
    b.lay_tile("L12", "78-0", 5)
    narrow = route("4H-0", ["M13", "L12", "M11"])
    assert run(b, "ATA", "4H", [narrow]) == [30]
    walk = parse_route(b, "ATA", narrow)
    ctx = RunContext(b, "ATA", "4H", ("yellow",))
    assert hex_distance(ctx, walk, train_spec("4H-0", DIST)) == 4  # 2 narrow edges
    assert hex_distance(ctx, walk, train_spec("R6H-0", DIST)) == 2


def test_port_needs_three_stops() -> None:
    """1849 rules §4.3 (seed 001 item 42): a port plus one city is not a route."""
    b = new_board()
    b.place_token_at("C5", 0, "RCS")
    with pytest.raises(IllegalAction, match="non-port"):
        run(b, "RCS", "4H", [route("4H-0", ["A5", "C5"])])


def test_e_train_doubles_big_cities_and_avoids_narrow() -> None:
    """1849 rules §7.5: E-trains run any distance on broad/dual track; C5 counts double."""
    b = new_board()
    b.place_token_at("C5", 0, "RCS")
    b.lay_tile("D6", "9-0", 2)
    b.lay_tile("E7", "3-0", 2)
    line = route("4H-0", ["A5", "C5"], ["C5", "D6", "E7"])
    assert run(b, "RCS", "4H", [line]) == [70]
    assert run(b, "RCS", "12H", [{**line, "train": "E-0"}]) == [120]
    b.place_token_at("M13", 0, "ATA")
    b.lay_tile("L12", "78-0", 5)
    with pytest.raises(IllegalAction, match="narrow"):
        run(b, "ATA", "12H", [route("E-0", ["M13", "L12", "M11"])])


def test_gauge_change_only_at_cities_option() -> None:
    """Option gauge_change_cities_only (seed 001 item 41): no gauge change at a town."""
    towns = {"towns": [{"part": 0, "revenue": 10}]}
    city = {"cities": [{"part": 0, "revenue": 20}]}
    data = {
        "hexes": {
            "B2": {"color": "yellow", **city, "paths": [{"a": "e0", "b": "c0", "track": "narrow"}]},
            "D2": {
                "color": "yellow",
                **towns,
                "paths": [{"a": "e3", "b": "t0", "track": "narrow"}, {"a": "t0", "b": "e0"}],
            },
            "F2": {"color": "yellow", **city, "paths": [{"a": "e3", "b": "c0"}]},
        }
    }
    b = Board(load_map(data), load_supply({"tiles": {}}))
    b.place_token_at("B2", 0, "X")
    r = route("6H-0", ["B2", "D2"], ["D2", "F2"])
    ctx = RunContext(b, "X", "6H", ("yellow",))
    trains = {"6H-0": train_spec("6H-0", DIST)}
    assert run_routes(ctx, [r], trains, RULES) == [50]
    from dataclasses import replace

    strict = replace(RULES, check=check_route_cities_only)
    with pytest.raises(IllegalAction, match="only at a city"):
        run_routes(ctx, [r], trains, strict)


# --------------------------------------------------------------------------- fixture replay
def live_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Undo/redo resolution of common rules §3.4 (a tiny stand-in for the real one in io)."""
    live: list[dict[str, Any] | None] = [None] * len(actions)
    groups: list[list[int]] = []
    for i, a in enumerate(actions):
        kind = a["type"]
        if kind == "undo":
            target = a.get("action_id")
            if target == 0:
                start = 0
            elif target is not None:
                start = next(j for j, b in enumerate(actions) if b["id"] == target) + 1
            else:
                start = next(
                    (j for j in range(i - 1, -1, -1)
                     if live[j] is not None and actions[j]["type"] != "message"),
                    0,
                )  # fmt: skip
            group = [j for j in range(start, i) if live[j] and actions[j]["type"] != "message"]
            for j in group:
                live[j] = None
            groups.append(group)
        elif kind == "redo":
            for j in groups.pop():
                live[j] = actions[j]
        elif kind == "message":
            live[i] = a
        else:
            groups.clear()
            live[i] = a
    out: list[dict[str, Any]] = []
    for item in live:
        if item is not None:
            out.append(item)
            out.extend(item.get("auto_actions") or [])
    return out


def cash(state: dict[str, Any], corp: str) -> int:
    return int(next(c["cash"] for c in state["corporations"] if c["id"] == corp))


def test_fixture_replay_matches_trace() -> None:
    """Replay every lay_tile / place_token / run_routes of the 1849 bank fixture: tiles and
    token hexes equal the trace, every lay passes the full (non-replay) checks and is offered by
    legal_lays, its cost equals the corporation's cash change, and every recorded revenue
    equals ours (1849 rules §3, §4; common rules §6.1, §6.3, §6.4)."""
    game_file = FIXTURE / f"{GAME}.json"
    if not game_file.is_file():
        pytest.skip(f"shared fixtures not found at {FIXTURE}")
    game = json.loads(game_file.read_text())
    trace = [json.loads(line) for line in (FIXTURE / f"{GAME}.trace.jsonl").open()]
    states = {t["action_id"]: t for t in trace[2:-1]}
    actions = [a for a in live_actions(game["actions"]) if "id" in a]
    assert len(actions) == trace[0]["active_actions"]

    board = new_board()
    graph = GraphCache(board)
    prev = trace[1]
    quake_done = False
    sms_corp: str | None = None
    cnm: tuple[str, str] | None = None
    counts = {"lay_tile": 0, "place_token": 0, "run_routes": 0, "tiles": 0}
    for action in actions:
        kind, entity = action["type"], action["entity"]
        after = states[action["id"]]
        if sms_corp is not None and entity != sms_corp:
            sms_corp = None
        if kind == "par" and action["corporation"] in HOME:
            board.place_token_at(HOME[action["corporation"]], 0, action["corporation"])
        elif kind == "choose" and action["choice"] == "Close SMS":
            sms_corp = entity
        elif kind == "assign":
            owner = next(c["id"] for c in prev["corporations"] if "CNM" in c["companies"])
            cnm = (owner, action["target"])
        elif kind == "lay_tile":
            owned: dict[str, list[str]] = {c["id"]: c["companies"] for c in prev["corporations"]}

            def sigi(corp: str, owned: dict[str, list[str]] = owned) -> bool:
                return "SIGI" in owned.get(corp, [])

            opts = LayOptions(
                PHASE_TILES[prev["phase"]],
                teleport=SMS_HEXES if sms_corp == entity else None,
                rules=track_rules(sigi),
            )
            hex_id, tile_id, rot = action["hex"], action["tile"], action["rotation"]
            cost = check_lay(board, graph, entity, hex_id, tile_id, rot, opts)
            assert cost == cash(prev, entity) - cash(after, entity), action
            assert (tile_id, rot) in legal_lays(board, graph, entity, hex_id, opts), action
            board.lay_tile(hex_id, tile_id, rot)
            counts[kind] += 1
        elif kind == "place_token":
            hex_id, index = board.resolve_city(action["city"])
            if sms_corp is None and entity != "AFG":
                assert (hex_id, index) in graph.tokenable_cities(entity), action
            board.place_token(action["city"], entity)
            sms_corp = None
            counts[kind] += 1
        elif kind == "buy_train" and action["train"].startswith("12H") and not quake_done:
            quake_done = True
            board.reset_hex("B14")  # 1849 rules §3.5
        elif kind == "bankrupt":
            board.remove_all_tokens(entity)
        elif kind == "run_routes":
            assert graph.has_route(entity)
            bonus = {cnm[1]: 20} if cnm and cnm[0] == entity else {}
            revenues = run(board, entity, prev["phase"], action["routes"], bonus_hexes=bonus)
            assert revenues == [r["revenue"] for r in action["routes"]], action["id"]
            counts[kind] += 1
        if after.get("tiles") is not None:
            assert board.trace_tiles() == after["tiles"], action["id"]
            counts["tiles"] += 1
        for corp in after["corporations"]:
            assert board.token_hexes(corp["id"]) == corp["tokens"], (action["id"], corp["id"])
        prev = after
    assert counts == {"lay_tile": 54, "place_token": 10, "run_routes": 54, "tiles": 17}
