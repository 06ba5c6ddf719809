"""Route parsing, checks and revenue on a small generic map (common rules §2.3, §6.1)."""

from __future__ import annotations

from typing import Any

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.board import Board
from stellwerk.core.map.spec import load_map, load_supply
from stellwerk.core.routes.legs import enumerate_legs
from stellwerk.core.routes.model import RouteRules, RouteWalk, RunContext, TrainSpec
from stellwerk.core.routes.parse import parse_route
from stellwerk.core.routes.validate import check_run, run_routes

MAP: dict[str, Any] = {
    "layout": "flat",
    "hexes": {
        "A1": {
            "color": "yellow",
            "cities": [{"part": 0, "revenue": 20}],
            "paths": [{"a": "e0", "b": "c0"}, {"a": "e5", "b": "c0"}],
        },
        "C1": {
            "color": "yellow",
            "towns": [{"part": 0, "revenue": 10}],
            "paths": [{"a": "e3", "b": "t0"}, {"a": "t0", "b": "e0"}],
        },
        "E1": {
            "color": "yellow",
            "cities": [{"part": 0, "revenue": 30}],
            "paths": [{"a": "e3", "b": "c0"}, {"a": "e0", "b": "c0"}],
        },
        "G1": {
            "color": "red",
            "offboards": [{"part": 0, "revenue": {"yellow": 40, "green": 50}}],
            "paths": [{"a": "e3", "b": "o0"}],
        },
        "B2": {
            "color": "yellow",
            "label": "T",
            "cities": [{"part": 1, "revenue": 10}],
            "towns": [{"part": 2, "revenue": 5}],
            "paths": [{"a": "e2", "b": "c0"}, {"a": "c0", "b": "t0"}],
        },
    },
}
TRAINS = {t.id: t for t in (TrainSpec("4-0", "4", 4), TrainSpec("3-0", "3", 3))}
RULES = RouteRules()


def ctx(phase_colors: tuple[str, ...] = ("yellow",), **kw: Any) -> RunContext:
    board = Board(load_map(MAP), load_supply({"tiles": {}}))
    board.place_token_at("A1", 0, "X")
    return RunContext(board, "X", "p", phase_colors, **kw)


LINE = {"train": "4-0", "connections": [["A1", "C1"], ["C1", "E1"], ["E1", "G1"]]}


def test_revenue_is_sum_of_stops_by_phase() -> None:
    """common rules §6.1 Revenue: stop values, phase-dependent by the latest phase colour."""
    assert run_routes(ctx(), [LINE], TRAINS, RULES) == [100]
    assert run_routes(ctx(("yellow", "green")), [LINE], TRAINS, RULES) == [110]


def test_chains_in_reverse_order_and_marker_bonus() -> None:
    """common rules §2.3: chains are walked in order; a marker adds its bonus once."""
    route = {"train": "4-0", "connections": [["G1", "E1"], ["E1", "C1"], ["C1", "A1"]]}
    assert run_routes(ctx(bonus_hexes={"G1": 20}), [route], TRAINS, RULES) == [120]


def test_distance_counts_stops() -> None:
    """common rules §6.1.8: an n-train visits at most n stops."""
    with pytest.raises(IllegalAction, match="too long"):
        run_routes(ctx(), [{**LINE, "train": "3-0"}], TRAINS, RULES)


def test_route_needs_token_and_own_train() -> None:
    """common rules §6.1.2 and §6.1: a token on the route; only the corporation's trains."""
    c = ctx()
    with pytest.raises(IllegalAction, match="token"):
        run_routes(c, [{"train": "4-0", "connections": [["E1", "G1"]]}], TRAINS, RULES)
    with pytest.raises(IllegalAction, match="does not own"):
        run_routes(c, [{**LINE, "train": "9-0"}], TRAINS, RULES)


def test_blocked_city_is_an_end_only() -> None:
    """common rules §6.1.6: a city full of other tokens may end a route but not be passed."""
    c = ctx()
    c.board.place_token_at("E1", 0, "Z")
    with pytest.raises(IllegalAction, match="blocked"):
        run_routes(c, [LINE], TRAINS, RULES)
    short = {"train": "4-0", "connections": [["A1", "C1"], ["C1", "E1"]]}
    assert run_routes(c, [short], TRAINS, RULES) == [60]


def test_no_track_reuse_between_routes() -> None:
    """common rules §6.1.7: routes of one corporation share no track (they may share cities)."""
    short = {"train": "3-0", "connections": [["A1", "C1"]]}
    with pytest.raises(IllegalAction, match="reuse track"):
        run_routes(ctx(), [LINE, short], TRAINS, RULES)


def test_no_node_twice() -> None:
    """common rules §6.1.3: no stop twice in one route."""
    c = ctx()
    walk = parse_route(c.board, "X", {"train": "4-0", "connections": [["A1", "C1"]]})
    loop = RouteWalk("4-0", (*walk.stops, walk.stops[0]), (walk.legs[0], walk.legs[0].reversed()))
    with pytest.raises(IllegalAction, match="twice"):
        check_run(c, [loop], TRAINS, RULES)


def test_intra_tile_chain() -> None:
    """common rules §2.3: "<hex> a.b" names the path between parts a and b of one tile."""
    route = {"train": "4-0", "connections": [["A1", "B2"], ["B2 1.2"]]}
    c = ctx()
    walk = parse_route(c.board, "X", route)
    assert [c.board.node_signature(*s) for s in walk.stops] == ["A1-0", "B2-1", "B2-2"]
    assert run_routes(c, [route], TRAINS, RULES) == [35]


def test_unknown_track_is_refused() -> None:
    """common rules §2.3: chains must describe existing track."""
    with pytest.raises(IllegalAction):
        run_routes(ctx(), [{"train": "4-0", "connections": [["A1", "E1"]]}], TRAINS, RULES)


def test_enumerate_legs_for_search() -> None:
    """The optimiser's leg table: every stop-to-stop stretch from every node."""
    legs = enumerate_legs(ctx().board)
    assert {leg.end for leg in legs[("A1", 0)]} == {("C1", 0), ("B2", 0)}
    assert all(leg.crossings == 1 for leg in legs[("A1", 0)])
