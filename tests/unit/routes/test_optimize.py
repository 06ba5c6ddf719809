"""The route optimiser is exact (common rules §6.1): it equals a plain exhaustive search on
hand-made and random small positions, and every route it returns passes the route check."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.board import Board
from stellwerk.core.map.geometry import Layout, neighbor_id
from stellwerk.core.map.graph import NodeKey
from stellwerk.core.map.spec import load_map, load_supply
from stellwerk.core.map.tiles import Gauge
from stellwerk.core.routes.legs import Leg, enumerate_legs
from stellwerk.core.routes.model import RouteRules, RouteWalk, RunContext, TrainSpec
from stellwerk.core.routes.optimize import LegCosts, best_routes
from stellwerk.core.routes.validate import check_overlap, check_run, route_revenue, run_routes

# -- a plain exhaustive search, the reference ------------------------------------------------


def all_routes(ctx: RunContext, train: TrainSpec, rules: RouteRules) -> list[tuple[int, RouteWalk]]:
    """Every legal route of ``train``: all simple walks from every node, no pruning, each
    checked by ``route_revenue``."""
    legs = enumerate_legs(ctx.board)
    out: dict[tuple[frozenset[Any], frozenset[NodeKey]], tuple[int, RouteWalk]] = {}

    def walk(stops: list[NodeKey], path: list[Leg], track: frozenset[Any]) -> None:
        if path:
            route = RouteWalk(train.id, tuple(stops), tuple(path))
            try:
                revenue = route_revenue(ctx, route, train, rules)
            except IllegalAction:
                revenue = None
            if revenue is not None:
                out[(track, frozenset(stops))] = (revenue, route)
        for leg in legs.get(stops[-1], ()):
            if leg.end in stops or leg.track & track:
                continue
            walk([*stops, leg.end], [*path, leg], track | leg.track)

    for start in legs:
        walk([start], [], frozenset())
    return list(out.values())


def plain_best(ctx: RunContext, trains: Sequence[TrainSpec], rules: RouteRules) -> int:
    """The best total over every assignment of routes (or none) to the trains."""
    options = [all_routes(ctx, t, rules) for t in trains]
    best = 0

    def assign(i: int, used: frozenset[Any], total: int, chosen: list[RouteWalk]) -> None:
        nonlocal best
        if i == len(options):
            if total > best:
                check_overlap(chosen)
                best = total
            return
        assign(i + 1, used, total, chosen)
        for revenue, route in options[i]:
            track = frozenset(k for leg in route.legs for k in leg.track)
            if track & used:
                continue
            assign(i + 1, used | track, total + revenue, [*chosen, route])

    assign(0, frozenset(), 0, [])
    return best


# -- rules used here --------------------------------------------------------------------------


def gauge_of(leg: Leg) -> Gauge:
    """One gauge between two stops (a test rule in the manner of 1849 §4.3)."""
    if Gauge.NARROW in leg.gauges and Gauge.BROAD in leg.gauges:
        raise IllegalAction("gauge changes only at stops", "test")
    return Gauge.NARROW if Gauge.NARROW in leg.gauges else Gauge.BROAD


def hex_distance(ctx: RunContext, route: RouteWalk, train: TrainSpec) -> int:
    """Hex edges crossed, narrow track counting double."""
    return sum(leg.crossings * (2 if gauge_of(leg) is Gauge.NARROW else 1) for leg in route.legs)


def leg_hexes(ctx: RunContext, leg: Leg, train: TrainSpec) -> int | None:
    try:
        return leg.crossings * (2 if gauge_of(leg) is Gauge.NARROW else 1)
    except IllegalAction:
        return None


def no_stop_cost(ctx: RunContext, stop: NodeKey, train: TrainSpec) -> int:
    return 0


STOP_RULES = RouteRules()
HEX_RULES = RouteRules(distance=hex_distance)
HEX_COSTS = LegCosts(leg_hexes, no_stop_cost)


def solve(
    board: Board, trains: Sequence[TrainSpec], rules: RouteRules, costs: LegCosts | None = None
) -> tuple[int, int]:
    """(optimiser revenue, exhaustive revenue); also checks the optimiser's routes."""
    ctx = RunContext(board, "X", "p", ("yellow",))
    result = best_routes(ctx, trains, rules, costs=costs)
    assert result.optimal
    specs = {t.id: t for t in trains}
    assert run_routes(ctx, result.routes, specs, rules) == list(result.revenues)
    assert check_run(ctx, result.walks, specs, rules) == list(result.revenues)
    assert sum(r["revenue"] for r in result.routes) == result.revenue
    return result.revenue, plain_best(ctx, trains, rules)


# -- hand-made positions ----------------------------------------------------------------------


def city(revenue: int, *edges: int, slots: int = 1, track: str = "broad") -> dict[str, Any]:
    return {
        "color": "yellow",
        "cities": [{"part": 0, "revenue": revenue, "slots": slots}],
        "paths": [{"a": f"e{e}", "b": "c0", "track": track} for e in edges],
    }


def town(revenue: int, *edges: int) -> dict[str, Any]:
    return {
        "color": "yellow",
        "towns": [{"part": 0, "revenue": revenue}],
        "paths": [{"a": f"e{e}", "b": "t0"} for e in edges],
    }


def offboard(revenue: int, edge: int) -> dict[str, Any]:
    return {
        "color": "red",
        "offboards": [{"part": 0, "revenue": revenue}],
        "paths": [{"a": f"e{edge}", "b": "o0"}],
    }


def board_of(hexes: Mapping[str, Any], tokens: Mapping[str, str] | None = None) -> Board:
    board = Board(load_map({"layout": "flat", "hexes": dict(hexes)}), load_supply({"tiles": {}}))
    for hid, corp in (tokens or {}).items():
        state = board.hexes[hid]
        for index in range(len(state.cities)):
            if board.can_place_token(hid, index, corp):
                board.place_token_at(hid, index, corp)
    return board


# A column A1-C1-E1-G1 (edge 0 = down), with a town branch B2 off A1 and an offboard I1.
COLUMN = {
    "A1": city(20, 0, 5),
    "C1": town(10, 3, 0),
    "E1": city(30, 3, 0, slots=1),
    "G1": city(40, 3, 0),
    "I1": offboard(50, 3),
    "B2": town(10, 2),
}


def test_single_train_takes_the_richest_reachable_line() -> None:
    """§6.1: a 3-train from A1 earns most on A1-C1-E1 (60) vs B2-A1-C1 (40)."""
    board = board_of(COLUMN, {"A1": "X"})
    assert solve(board, [TrainSpec("3-0", "3", 3)], STOP_RULES) == (60, 60)


def test_two_trains_split_track_without_reuse() -> None:
    """§6.1.7: trains cannot share track; the second takes the branch."""
    board = board_of(COLUMN, {"A1": "X"})
    trains = [TrainSpec("5-0", "5", 5), TrainSpec("2-0", "2", 2)]
    ours, plain = solve(board, trains, STOP_RULES)
    assert ours == plain == 150 + 30


def test_full_city_of_others_blocks_passing() -> None:
    """§6.1.6: E1 is full with Y's token: X may end there but not pass through."""
    board = board_of(COLUMN, {"A1": "X", "E1": "Y"})
    ours, plain = solve(board, [TrainSpec("9-0", "9", None)], STOP_RULES)
    assert ours == plain == 20 + 10 + 30 + 10


def test_no_token_means_no_route() -> None:
    """§6.1.2: without a token the corporation runs nothing."""
    board = board_of(COLUMN, {"E1": "Y"})
    assert solve(board, [TrainSpec("4-0", "4", 4)], STOP_RULES) == (0, 0)


def test_offboard_only_at_the_end_and_marker_bonus() -> None:
    """§6.1.5-6 and marker bonus: from G1 the route ends at I1 and gets its +20."""
    board = board_of(COLUMN, {"G1": "X"})
    ctx = RunContext(board, "X", "p", ("yellow",), {"I1": 20})
    result = best_routes(ctx, [TrainSpec("2-0", "2", 2)], STOP_RULES)
    assert result.revenue == 40 + 50 + 20 and result.routes[0]["revenue_str"] == "G1-I1"


def test_narrow_track_counts_double_and_gauges_do_not_mix() -> None:
    """Hex distance (1849 §4.3 style): narrow edges cost 2, broad/dual 1; broad and narrow
    may not meet between two stops (with the distance hook and with LegCosts)."""
    narrow_town = {
        "color": "yellow",
        "towns": [{"part": 0, "revenue": 10}],
        "paths": [
            {"a": "e3", "b": "t0", "track": "narrow"},
            {"a": "t0", "b": "e0", "track": "dual"},
        ],
    }
    hexes = {"A1": city(20, 0, track="narrow"), "C1": narrow_town, "E1": city(30, 3, 0)}
    board = board_of(hexes, {"A1": "X"})
    mixed = {**hexes, "C1": {"color": "yellow", "paths": [{"a": "e3", "b": "e0", "track": "dual"}]}}
    mixed_board = board_of(mixed, {"A1": "X"})
    for costs in (None, HEX_COSTS):
        assert solve(board, [TrainSpec("2H-0", "2H", 2)], HEX_RULES, costs) == (30, 30)
        assert solve(board, [TrainSpec("3H-0", "3H", 3)], HEX_RULES, costs) == (60, 60)
        assert solve(mixed_board, [TrainSpec("9H-0", "9H", 9)], HEX_RULES, costs) == (0, 0)


def test_identical_trains_and_node_limit() -> None:
    """Two identical trains get two different routes; a tiny node limit says not optimal."""
    board = board_of(COLUMN, {"A1": "X", "G1": "X"})
    trains = [TrainSpec("3-0", "3", 3), TrainSpec("3-1", "3", 3)]
    ours, plain = solve(board, trains, STOP_RULES)
    assert ours == plain
    ctx = RunContext(board, "X", "p", ("yellow",))
    cut = best_routes(ctx, trains, STOP_RULES, node_limit=1)
    assert not cut.optimal and cut.revenue <= ours


# -- random positions -------------------------------------------------------------------------

GRID = [f"{chr(65 + r)}{n}" for r in range(5) for n in range(1, 6) if (r + n) % 2 == 1]
GAUGES = ["broad", "broad", "narrow", "dual"]


@st.composite
def positions(draw: st.DrawFn, gauges: bool) -> Board:
    """A random small map: track crosses a random set of hex edges; each hex is a city, town,
    offboard (one edge) or plain track pairing up its edges.  X has tokens in one or two
    cities; other cities are sometimes full of Y."""
    chosen = draw(st.lists(st.sampled_from(GRID), min_size=4, max_size=len(GRID), unique=True))
    edges: dict[str, dict[int, str]] = {h: {} for h in chosen}
    for hid in chosen:
        for edge in range(3):
            other = neighbor_id(hid, edge, Layout.FLAT)
            if other in edges and draw(st.booleans()):
                gauge = draw(st.sampled_from(GAUGES)) if gauges else "broad"
                edges[hid][edge] = edges[other][(edge + 3) % 6] = gauge
    hexes: dict[str, Any] = {}
    cities: list[str] = []
    for hid in chosen:
        exits = sorted(edges[hid].items())
        kind = draw(st.sampled_from(["city", "city", "town", "offboard", "track"]))
        if kind == "offboard" and exits:
            edge, gauge = exits[0]
            hexes[hid] = offboard(draw(st.sampled_from([20, 30, 60])), edge)
            hexes[hid]["paths"][0]["track"] = gauge
        elif kind == "track" or not exits:
            order = draw(st.permutations(exits))
            paths = [
                {"a": f"e{a}", "b": f"e{b}", "track": draw(st.sampled_from([ga, gb]))}
                for (a, ga), (b, gb) in zip(order[::2], order[1::2], strict=False)
            ]
            hexes[hid] = {"color": "yellow", "paths": paths}
        else:
            ref = "c0" if kind == "city" else "t0"
            node = {"part": 0, "revenue": draw(st.sampled_from([10, 20, 30, 40]))}
            if kind == "city":
                node["slots"] = draw(st.integers(1, 2))
                cities.append(hid)
            hexes[hid] = {
                "color": "yellow",
                "cities" if kind == "city" else "towns": [node],
                "paths": [{"a": f"e{e}", "b": ref, "track": g} for e, g in exits],
            }
    board = board_of(hexes)
    if cities:
        for hid in draw(st.lists(st.sampled_from(cities), min_size=1, max_size=2, unique=True)):
            board.place_token_at(hid, 0, "X")
        for hid in draw(st.lists(st.sampled_from(cities), max_size=2, unique=True)):
            state = board.hexes[hid]
            while not state.has_token("X") and board.can_place_token(hid, 0, "Y", True):
                board.place_token_at(hid, 0, "Y", same_hex_allowed=True)
    return board


def train_lists(limits: Sequence[int | None]) -> st.SearchStrategy[list[TrainSpec]]:
    return st.lists(st.sampled_from(limits), min_size=1, max_size=3).map(
        lambda ds: [TrainSpec(f"{d}-{i}", str(d), d) for i, d in enumerate(ds)]
    )


FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(positions(gauges=False), train_lists([2, 3, 4, None]))
def test_random_positions_stop_counting(board: Board, trains: list[TrainSpec]) -> None:
    """Random maps, n-trains counting stops: optimiser == exhaustive search."""
    ours, plain = solve(board, trains, STOP_RULES)
    assert ours == plain


@FAST
@given(positions(gauges=True), train_lists([2, 3, 5]))
def test_random_positions_hex_distance(board: Board, trains: list[TrainSpec]) -> None:
    """Random maps with gauges, hex-distance trains: the distance hook and the additive
    LegCosts both give the exhaustive optimum."""
    ours, plain = solve(board, trains, HEX_RULES)
    assert ours == plain
    assert solve(board, trains, HEX_RULES, HEX_COSTS)[0] == plain


@pytest.mark.parametrize("limit", [2, 3])
def test_candidates_equal_exhaustive_routes(limit: int) -> None:
    """Every legal route is a candidate, exactly once."""
    from stellwerk.core.routes.candidates import TrackIndex, train_candidates

    board = board_of(COLUMN, {"A1": "X", "G1": "X"})
    ctx = RunContext(board, "X", "p", ("yellow",))
    train = TrainSpec(f"{limit}-0", str(limit), limit)
    cands = train_candidates(ctx, enumerate_legs(board), train, STOP_RULES, TrackIndex())
    plain = all_routes(ctx, train, STOP_RULES)
    assert len(cands) == len(plain)
    assert sorted(c.revenue for c in cands) == sorted(r for r, _ in plain)


def test_lazy_valuation_falls_back_when_the_check_values_differently(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """If route_revenue ever values a route beyond stop values + bonus, the search redoes
    the run with every candidate checked first, and still returns the checked revenues."""
    import stellwerk.core.routes.candidates as candidates

    def plus_five(ctx: RunContext, route: RouteWalk, train: TrainSpec, rules: RouteRules) -> int:
        return route_revenue(ctx, route, train, rules) + 5

    board = board_of(COLUMN, {"A1": "X"})
    trains = [TrainSpec("5-0", "5", 5), TrainSpec("2-0", "2", 2)]
    monkeypatch.setattr(candidates, "route_revenue", plus_five)
    result = best_routes(RunContext(board, "X", "p", ("yellow",)), trains, STOP_RULES)
    assert result.optimal and result.revenue == 150 + 30 + 10


def test_node_limit_still_returns_legal_routes() -> None:
    """A search cut short returns its incumbent: legal routes, not proven optimal."""
    board = board_of(COLUMN, {"A1": "X", "G1": "X"})
    trains = [TrainSpec("2-0", "2", 2), TrainSpec("2-1", "2", 2), TrainSpec("3-0", "3", 3)]
    ctx = RunContext(board, "X", "p", ("yellow",))
    full = best_routes(ctx, trains, STOP_RULES)
    for limit in range(1, 6):
        cut = best_routes(ctx, trains, STOP_RULES, node_limit=limit)
        specs = {t.id: t for t in trains}
        assert run_routes(ctx, cut.routes, specs, STOP_RULES) == list(cut.revenues)
        assert cut.revenue <= full.revenue


def test_exclusive_stop_goes_to_one_route_of_a_run() -> None:
    """``RouteRules.exclusive``: a stop one route of a run may visit at most.  Without it two
    2-trains from G1 run G1-I1 and G1-E1 (160); with G1 exclusive the second train must take
    A1's branch (120); check_run refuses the pair."""
    board = board_of(COLUMN, {"A1": "X", "G1": "X"})
    ctx = RunContext(board, "X", "p", ("yellow",))
    trains = [TrainSpec("2-0", "2", 2), TrainSpec("2-1", "2", 2)]
    free = best_routes(ctx, trains, STOP_RULES)
    assert free.revenue == 90 + 70
    only_one = RouteRules(exclusive=lambda ctx, stop: stop[0] == "G1")
    result = best_routes(ctx, trains, only_one)
    assert result.optimal and result.revenue == 90 + 30
    specs = {t.id: t for t in trains}
    assert sorted(check_run(ctx, result.walks, specs, only_one)) == [30, 90]
    with pytest.raises(IllegalAction, match="Only one route may visit G1"):
        check_run(ctx, free.walks, specs, only_one)
