"""Our 1849 map and tile data against shared/reference (1849 rules §3, reference 1849.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stellwerk.core.map.tiles import NODE_BASE, Gauge, NodeKind, TileDef
from stellwerk.core.map.upgrades import upgrade_shape_error
from stellwerk.titles.g1849.rules.track import new_board

REFERENCE = Path(__file__).parents[3] / ".." / "shared" / "reference"

yaml = pytest.importorskip("yaml")


@pytest.fixture(scope="module")
def ref() -> dict[str, Any]:
    if not (REFERENCE / "1849.yaml").is_file():
        pytest.skip(f"shared reference not found at {REFERENCE}")
    with (REFERENCE / "1849.yaml").open() as fh:
        data: dict[str, Any] = yaml.safe_load(fh)
    with (REFERENCE / "tiles.yaml").open() as fh:
        data["_tiles"] = yaml.safe_load(fh)["tiles"]
    return data


def normal_paths(tile: TileDef) -> list[tuple[str, str, str]]:
    """Paths as (end, end, gauge) in the reference notation."""
    counters = {NodeKind.CITY: "c", NodeKind.TOWN: "t", NodeKind.OFFBOARD: "o"}
    names = {}
    seen: dict[NodeKind, int] = {}
    for i, node in enumerate(tile.nodes):
        k = seen.get(node.kind, 0)
        names[NODE_BASE + i] = f"{counters[node.kind]}{k}"
        seen[node.kind] = k + 1

    def end(e: int) -> str:
        return f"e{e}" if e < NODE_BASE else names[e]

    return [(end(p.a), end(p.b), p.gauge.value) for p in tile.paths]


def ref_paths(paths: list[Any]) -> list[tuple[str, str, str]]:
    return [(p[0], p[1], p[2]["track"] if len(p) > 2 else "broad") for p in paths]


def test_supply_matches_reference(ref: dict[str, Any]) -> None:
    """Tile names, counts, colours, labels, paths with gauge, revenues, part indices."""
    board = new_board()
    assert len(board.supply) == ref["tiles"]["total_tiles"]
    counts: dict[str, int] = {}
    for tile in board.supply.values():
        counts[tile.name] = counts.get(tile.name, 0) + 1
    assert counts == ref["tiles"]["supply"]
    for name, tile in board.tile_defs.items():
        expected = ref["tile_definitions"][name]
        assert tile.color == expected["color"], name
        assert tile.label == expected.get("label"), name
        assert normal_paths(tile) == ref_paths(expected["paths"]), name
        cities = [n for n in tile.nodes if n.kind is NodeKind.CITY]
        ref_cities = ref["_tiles"][name]["cities"]
        assert [(c.part, c.revenue, c.slots) for c in cities] == [
            (c["part_index"], c["revenue"], c["slots"]) for c in ref_cities
        ], name
        towns = [n for n in tile.nodes if n.kind is NodeKind.TOWN]
        assert [(t.part, t.revenue) for t in towns] == [
            (t["part_index"], t["revenue"]) for t in ref["_tiles"][name]["towns"]
        ], name


def test_hexes_match_reference(ref: dict[str, Any]) -> None:
    """Every hex: colour, terrain, borders, label, paths with gauge, stops and revenues."""
    board = new_board()
    assert set(board.hexes) == set(ref["hexes"])
    for hid, h in ref["hexes"].items():
        state = board.hexes[hid]
        tile = state.tile
        assert tile.color == h["color"], hid
        assert state.spec.terrain_cost == h.get("terrain_cost", 0), hid
        assert state.spec.borders == {b["edge"] for b in h.get("borders", [])}, hid
        assert tile.label == h.get("label"), hid
        assert state.spec.port == bool(h.get("port")), hid
        assert normal_paths(tile) == ref_paths(h.get("paths", [])), hid
        cities = [n for n in tile.nodes if n.kind is NodeKind.CITY]
        assert [
            (c.slots, dict(c.phase_revenue) if c.phase_revenue else c.revenue) for c in cities
        ] == [(c["slots"], c["revenue"]) for c in h.get("cities", [])], hid
        offboards = [n for n in tile.nodes if n.kind is NodeKind.OFFBOARD]
        if "offboard_revenue" in h:
            (o,) = offboards
            assert (dict(o.phase_revenue) if o.phase_revenue else o.revenue) == h[
                "offboard_revenue"
            ], hid
            assert o.optional == bool(h.get("port")), hid


def test_ids_of_preprinted_cities() -> None:
    """common rules §2.1-2.2 / 1849 rules §9.1: ids used by the game files."""
    board = new_board()
    assert board.city_id("M9", 0) == "M9-0-0"
    assert board.city_id("C1", 0) == "C1-0-1"
    assert board.city_id("M11", 0) == "M11-0-0"
    assert board.node_signature("C5", 0) == "C5-1"
    assert board.hex("K13").spec.preprinted_id == "K13-1"


def test_upgrades_match_reference(ref: dict[str, Any]) -> None:
    """Our shape rule reproduces the reference engine's upgrades_to lists (tiles and hexes)."""
    board = new_board()
    supply = board.tile_defs
    for name, tile in supply.items():
        expected = ref["tile_definitions"][name]["upgrades_to"]
        got = [n for n, t in supply.items() if upgrade_shape_error(tile.rotated(0), t) is None]
        assert sorted(got) == sorted(expected), name
    for hid, h in ref["hexes"].items():
        if "upgrades_to" not in h:
            continue
        placed = board.hexes[hid].placed
        got = [n for n, t in supply.items() if upgrade_shape_error(placed, t) is None]
        assert sorted(got) == sorted(h["upgrades_to"]), hid


def test_gauges_present() -> None:
    """1849 rules §3.1: dual track only on gray hexes, the port N8 and brown tiles."""
    board = new_board()
    for hid, state in board.hexes.items():
        if any(p.gauge is Gauge.DUAL for p in state.tile.paths):
            assert state.tile.color == "gray" or hid == "N8"
    for tile in board.tile_defs.values():
        if any(p.gauge is Gauge.DUAL for p in tile.paths):
            assert tile.color == "brown"
