"""1841 routes on the real map (rules/1841.md 1.2 trains, 2.3.5 routes and revenue, 2.4 phases;
FAQ items cited by the rulebook): free stops, the two required stops, off-board values by
phase, ports, yellow Milano, and political borders by phase, which routes ignore."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.core.routes.model import TrainSpec
from stellwerk.core.routes.parse import parse_routes
from stellwerk.core.routes.validate import check_run, run_routes
from stellwerk.titles.g1841.mapport import MapPort
from stellwerk.titles.g1841.options import DECLARED
from stellwerk.titles.g1841.rules.borders import borders_in_force
from stellwerk.titles.g1841.rules.routes import distance


def port_with(
    lays: Iterable[tuple[str, str, int]],
    tokens: Iterable[tuple[str, int, str]],
    phase: str = "3",
    options: Iterable[str] = (),
) -> MapPort:
    """A board with tiles laid (hex, tile id, rotation) and tokens placed (hex, city, corp)."""
    port = MapPort(DECLARED.settings(list(options), 4), phase)
    for hid, tile, rotation in lays:
        port.board.lay_tile(hid, tile, rotation)
    for hid, city, corp in tokens:
        port.board.place_token_at(hid, city, corp)
    return port


def trains(*names: str) -> dict[str, TrainSpec]:
    distances = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8}
    return {f"{n}-{i}": TrainSpec(f"{n}-{i}", n, distances[n]) for i, n in enumerate(names)}


def route(train: str, *chains: list[str]) -> dict[str, Any]:
    return {"train": train, "connections": [list(c) for c in chains]}


# Alessandria - pass K7 - Genova - Genova's port O7: J6 (tile 57, 20), I7 (track), K7 (green
# pass 613), M7 (green Genova 612, 40), O7 (port, 70).
PIEDMONT = [("J6", "57-0", 1), ("I7", "7-0", 0), ("K7", "613-0", 0), ("M7", "612-0", 0)]
TO_PORT = (["J6", "I7", "K7"], ["K7", "M7"], ["M7", "O7"])


def test_passes_count_for_trains_2_to_7_but_not_for_the_8_train() -> None:
    """rules/1841.md 1.2 (trains: cities, off-boards and passes count; for the 8-train passes
    are free), 2.3.5; FAQ 5.2: J6-K7-M7-O7 is 3 stops for a 3-train, 2 for an 8-train."""
    port = port_with(PIEDMONT, [("J6", 0, "X")])
    ctx = port.run_context("X")
    (walk,) = parse_routes(port.board, "X", [route("3-0", *TO_PORT)])
    dist = distance()
    assert dist(ctx, walk, TrainSpec("3-0", "3", 3)) == 3
    assert dist(ctx, walk, TrainSpec("8-0", "8", 8)) == 2
    assert run_routes(ctx, [route("3-0", *TO_PORT)], trains("3"), port.route_rules) == [130]
    with pytest.raises(IllegalAction, match="too long"):
        run_routes(ctx, [route("2-0", *TO_PORT)], trains("2"), port.route_rules)
    assert port.best_run_of("X", trains("3")).revenue == 20 + 0 + 40 + 70
    assert port.best_run_of("X", trains("8")).revenue == 130
    assert port.best_run_of("X", trains("2")).revenue == 0


def test_a_route_needs_two_stops_that_are_not_passes_or_ports() -> None:
    """rules/1841.md 2.3.5; FAQ 1.11 and common mistake 5.2: Genova port - Genova - northern
    pass is not a route (one city only); the port and the pass pay but do not count."""
    port = port_with(PIEDMONT, [("M7", 0, "X")])
    ctx = port.run_context("X")
    with pytest.raises(IllegalAction, match="at least 2 cities"):
        run_routes(ctx, [route("8-0", ["O7", "M7"], ["M7", "K7"])], trains("8"), port.route_rules)
    assert run_routes(
        ctx, [route("8-0", ["O7", "M7"], ["M7", "K7"], ["K7", "I7", "J6"])], trains("8"),
        port.route_rules,
    ) == [70 + 40 + 0 + 20]  # fmt: skip


def test_a_pass_full_of_another_corporation_blocks() -> None:
    """rules/1841.md reference passes: a token on a pass blocks other corporations' routes
    through it like a full city (common rules §6.1.6)."""
    port = port_with(PIEDMONT, [("J6", 0, "X"), ("K7", 0, "Y")])
    with pytest.raises(IllegalAction, match="blocked"):
        run_routes(port.run_context("X"), [route("8-0", *TO_PORT)], trains("8"), port.route_rules)
    assert port.best_run_of("X", trains("8")).revenue == 0


def test_political_borders_do_not_stop_routes() -> None:
    """rules/1841.md 2.3.5 (reviewed): routes never consult political borders; J6-I7-K7
    crosses two phase-2/3 borders (I7 edges 0 and 1) and runs in phase 3."""
    in_force = borders_in_force("3")
    assert {("I7", 1), ("J6", 4), ("I7", 0), ("K7", 3)} <= in_force
    port = port_with(PIEDMONT, [("J6", 0, "X")], phase="3")
    assert port.political_borders() == in_force
    assert port.best_run_of("X", trains("3")).revenue == 130


def test_borders_by_phase() -> None:
    """rules/1841.md 1.2 "Borders by phase" and 2.4: the phase-2 set lasts through phase 3;
    from the first 4 only Veneto's border and Lugano's remain; from the first 5 only
    Lugano's (C7 edges 0 and 5)."""
    early = borders_in_force("2")
    assert borders_in_force("3") == early
    assert {("I7", 1), ("K11", 3), ("P12", 2), ("H12", 0), ("C7", 0)} <= early
    four = borders_in_force("4")
    assert ("I7", 1) not in four and ("K11", 3) not in four and ("P12", 2) not in four
    assert {("H12", 0), ("G13", 0), ("I15", 1), ("C7", 5)} <= four
    lugano = {("C7", 0), ("E7", 3), ("C7", 5), ("D8", 2)}
    for phase in "5678":
        assert borders_in_force(phase) == lugano
    lite = borders_in_force("2", ("short_game",))
    assert ("P12", 2) not in lite and ("P10", 5) not in lite and ("P10", 3) in lite
    assert borders_in_force("4", ("short_game",)) == four


@pytest.mark.parametrize(
    ("phase", "gotthard", "lyon"),
    [("2", 20, 0), ("3", 20, 0), ("4", 30, 140), ("5", 30, 140), ("6", 150, 200), ("8", 150, 200)],
)
def test_offboard_values_by_phase(phase: str, gotthard: int, lyon: int) -> None:
    """rules/1841.md 2.3.5 and 1.2 (offboards): white values in phases 2-3, gray in 4-5, black
    in 6-8 (Gotthard 20/30/150, Lyon 0/140/200)."""
    port = port_with([("C7", "57-0", 0)], [("C7", 0, "X")], phase=phase)
    assert port.best_run_of("X", trains("2")).revenue == 20 + gotthard
    ctx = port.run_context("X")
    assert port.route_rules.stop_value(ctx, ("E1", 0), TrainSpec("2-0", "2", 2)) == lyon


def test_lite_roma_offboard_values() -> None:
    """rules/1841.md 4.2 (lite): P12/Q11/Q13/R14 form the Roma off-board, 50/100/250."""
    spec = TrainSpec("2-0", "2", 2)
    for phase, value in (("3", 50), ("5", 100), ("7", 250)):
        port = MapPort(DECLARED.settings(["lite"], 4), phase)
        ctx = port.run_context("X")
        assert [port.route_rules.stop_value(ctx, (h, 0), spec) for h in ("P12", "R14")] == [
            value,
            value,
        ]


def test_ports_and_towns_are_free_stops() -> None:
    """rules/1841.md 1.2 (towns, ports included, are free for every train) and 2.3.5: a 2-train
    runs the port G17, Venezia's town and city, and Padova (the run of common rules §1.3)."""
    port = port_with([("G15", "621-0", 1), ("F16", "601-0", 0)], [("G15", 0, "X")])
    best = port.best_run_of("X", trains("2"))
    assert best.revenue == 40 + 20 + 10 + 30
    assert sorted(best.routes[0]["nodes"]) == ["F16-0", "F16-1", "G15-0", "G17-0"]


# Milano F8 yellow (60, track only to Como D8 and Bergamo E9, ending there); X in both.
MILANO = [("D8", "57-0", 0), ("E9", "202-0", 1)]
BOTH = [route("2-0", ["D8", "F8"]), route("2-1", ["E9", "F8"])]


def test_yellow_milano_only_once_per_run() -> None:
    """rules/1841.md 2.3.5: while Milano is yellow only one of a corporation's routes may
    include it (18xx.games check_overlap); once green, both may."""
    port = port_with(MILANO, [("D8", 0, "X"), ("E9", 0, "X")])
    ctx = port.run_context("X")
    with pytest.raises(IllegalAction, match="Only one route may visit F8"):
        run_routes(ctx, BOTH, trains("2", "2"), port.route_rules)
    assert port.best_run_of("X", trains("2", "2")).revenue == 30 + 60
    port.board.lay_tile("F8", "604-0", 0)
    ctx = port.run_context("X")
    assert run_routes(ctx, BOTH, trains("2", "2"), port.route_rules) == [120, 130]
    best = port.best_run_of("X", trains("2", "2"))
    assert best.revenue == 250
    assert sorted(check_run(ctx, best.walks, trains("2", "2"), port.route_rules)) == [120, 130]


def test_2_3_5_faq_1_11_a_port_never_makes_a_route() -> None:
    """rules/1841.md 2.3.5 (FAQ 1.11): ports and passes are no stops that make a route; a
    corporation whose token reaches only a port has no route (18xx.games route:never, so its
    Route step is skipped and the price moves left)."""
    from tests.titles.g1841.setup_helpers import new_game

    game = new_game()
    board = game.map.board
    assert all(node.never for node in board.hexes["O7"].tile.nodes)
    assert all(node.never for node in board.supply_tile("613-0").nodes)  # a pass tile
    assert all(node.never for node in board.hexes["K7"].tile.nodes)  # a printed pass
    board.lay_tile("M7", "612-0", 0)
    board.place_token_at("M7", 0, "AFI")
    game.map.clear_graphs()
    assert {hid for hid, _ in game.map.graph.network("AFI").nodes} == {"M7", "O7"}
    assert game.map.graph.route_flags("AFI") == (False, False)
