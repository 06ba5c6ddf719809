"""Our 1841 data files against the reference facts (shared/reference/1841.yaml, tiles.yaml):
map hexes of every variant, tile supply and definitions with part indices, political borders
by phase, phases, trains, concessions, corporations (rules/1841.md 1.2, 2.4, section 4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stellwerk.core.map.geometry import opposite
from stellwerk.core.map.tiles import NODE_BASE, NodeKind, TileDef
from stellwerk.titles.g1841.data_load import (
    VARIANTS,
    map_spec,
    pass_tiles,
    political_borders,
    supply,
    title_data,
    variant_of,
)
from stellwerk.titles.g1841.mapport import new_board
from stellwerk.titles.g1841.options import DECLARED
from stellwerk.titles.g1841.settings import Settings1841
from stellwerk.titles.g1841.wording import SENTENCES

REFERENCE = Path(__file__).resolve().parents[3] / ".." / "shared" / "reference"

yaml = pytest.importorskip("yaml")


@pytest.fixture(scope="module")
def ref() -> dict[str, Any]:
    if not (REFERENCE / "1841.yaml").is_file():
        pytest.skip(f"shared reference not found at {REFERENCE}")
    with (REFERENCE / "1841.yaml").open(encoding="utf-8") as fh:
        data: dict[str, Any] = yaml.safe_load(fh)
    with (REFERENCE / "tiles.yaml").open(encoding="utf-8") as fh:
        data["_tiles"] = yaml.safe_load(fh)["tiles"]
    return data


REF_VARIANT = {"first_edition": "version_1", "short_game": "lite"}
"""The reference's names (18xx.games' option ids) of our data variants."""


def ref_hexes(ref: dict[str, Any], variant: tuple[str, ...]) -> dict[str, Any]:
    hexes = dict(ref["hexes"])
    for name in variant:
        over = ref["variants"][REF_VARIANT[name]]
        for hid in over.get("hexes_removed", ()):
            del hexes[hid]
        hexes.update(over["hexes_changed"])
    return hexes


def names(tile: TileDef) -> dict[int, str]:
    """Path-end numbers of the tile's nodes in the reference notation (c0, t1, o0)."""
    prefix = {NodeKind.CITY: "c", NodeKind.TOWN: "t", NodeKind.OFFBOARD: "o"}
    seen: dict[NodeKind, int] = {}
    out = {}
    for i, node in enumerate(tile.nodes):
        k = seen.get(node.kind, 0)
        out[NODE_BASE + i] = f"{prefix[node.kind]}{k}"
        seen[node.kind] = k + 1
    return out


def paths_of(tile: TileDef) -> list[tuple[str, str, bool]]:
    n = names(tile)
    return [
        (f"e{p.a}" if p.a < NODE_BASE else n[p.a], f"e{p.b}" if p.b < NODE_BASE else n[p.b],
         p.terminal)
        for p in tile.paths
    ]  # fmt: skip


def ref_paths(paths: list[Any]) -> list[tuple[str, str, bool]]:
    return [(p[0], p[1], bool(len(p) > 2 and p[2].get("terminal"))) for p in paths]


def test_variants_are_selected_by_settings() -> None:
    """rules/1841.md section 4: the short game and the first edition change data; other
    settings change none."""
    assert variant_of(Settings1841()) == ()
    assert variant_of(DECLARED.settings(["lite", "sfli_run_variant"], 4)) == ("short_game",)
    both = DECLARED.settings(["lite", "version_1", "p2p_purchases"], 4)
    assert variant_of(both) == VARIANTS == ("first_edition", "short_game")


@pytest.mark.parametrize(
    "variant", [(), ("short_game",), ("first_edition",)], ids=["v2", "lite", "v1"]
)
def test_hexes_match_reference(ref: dict[str, Any], variant: tuple[str, ...]) -> None:
    """Every hex of the variant: colour, preprinted tile id, terrain cost, impassable edges,
    label, port, cities (revenue, slots, pass), towns, off-board values and group, paths."""
    board = new_board(variant)
    expected = ref_hexes(ref, variant)
    assert set(board.hexes) == set(expected)
    passes = pass_tiles(variant)
    for hid, h in expected.items():
        state = board.hexes[hid]
        tile = state.tile
        assert tile.color == h["color"], hid
        assert state.tile_id == h["preprinted_tile_id"], hid
        assert state.spec.terrain_cost == h.get("terrain_cost", 0), hid
        assert state.spec.borders == set(h.get("impassable_edges", ())), hid
        assert tile.label == h.get("label"), hid
        assert state.spec.port == (h["kind"] == "port"), hid
        assert state.spec.location == h.get("name"), hid
        cities = [tile.nodes[n] for n in tile.city_nodes]
        assert [(c.revenue, c.slots) for c in cities] == [
            (c["revenue"], c["slots"]) for c in h.get("cities", ())
        ], hid
        assert (hid in passes) == any(c.get("pass") for c in h.get("cities", ())), hid
        towns = [n.revenue for n in tile.nodes if n.kind is NodeKind.TOWN]
        assert towns == [t["revenue"] for t in h.get("towns", ())], hid
        offboards = [n for n in tile.nodes if n.kind is NodeKind.OFFBOARD]
        if h["kind"] == "offboard":
            (o,) = offboards
            assert dict(o.phase_revenue) == h["revenue"], hid
            assert o.groups == ((h["group"],) if "group" in h else ()), hid
        else:
            assert not offboards, hid
        assert paths_of(tile) == ref_paths(h.get("paths", [])), hid


def test_city_ids_and_signatures_of_the_fixtures() -> None:
    """common rules §2.2-2.3: ids the game files use (e.g. K11-6-0, R14-0-1, F16-1 on 601)."""
    board = new_board()
    assert board.city_id("K11", 0) == "K11-6-0"
    assert board.city_id("R14", 1) == "R14-0-1"
    assert board.city_id("H4", 1) == "H4-0-1"
    assert board.city_id("H10", 0) == "H10-3-0"
    board.lay_tile("F16", "601-0", 0)
    assert board.node_signature("F16", 1) == "F16-1"
    assert board.city_id("F16", 0) == "601-0-0"


@pytest.mark.parametrize("variant", [(), ("first_edition",)], ids=["v2", "v1"])
def test_supply_matches_reference(ref: dict[str, Any], variant: tuple[str, ...]) -> None:
    """Tile names and counts (191 tiles; version_1: 608 instead of 612), colours, labels,
    paths, revenues, slots, part indices (tiles.yaml), passes and the green passes' cost."""
    counts = dict(ref["tiles"])
    if variant:
        del counts["612"]
        counts["608"] = 1
    assert {e.tile.name: e.count for e in supply(variant)} == counts
    for entry in supply(variant):
        tile, name = entry.tile, entry.tile.name
        expected = ref["game_tiles"][name]
        assert tile.color == expected["color"], name
        assert tile.label == expected.get("label"), name
        assert tile.cost == expected.get("upgrade_cost_when_replaced", 0), name
        assert paths_of(tile) == ref_paths(expected["paths"]), name
        cities = [tile.nodes[n] for n in tile.city_nodes]
        assert [(c.part, c.revenue, c.slots) for c in cities] == [
            (c["part_index"], c["revenue"], c["slots"]) for c in ref["_tiles"][name]["cities"]
        ], name
        towns = [n for n in tile.nodes if n.kind is NodeKind.TOWN]
        assert [(t.part, t.revenue) for t in towns] == [
            (t["part_index"], t["revenue"]) for t in ref["_tiles"][name]["towns"]
        ], name
        is_pass = any(c.get("pass") for c in expected.get("cities", ()))
        assert (name in pass_tiles(variant)) == is_pass, name


@pytest.mark.parametrize("variant", [(), ("short_game",)], ids=["v2", "lite"])
def test_political_borders_match_reference(ref: dict[str, Any], variant: tuple[str, ...]) -> None:
    """rules/1841.md 1.2 "Borders by phase": the three sets, both sides of every border, each
    between two map hexes; lite has its own phase-2 set."""
    spec = map_spec(variant)
    for name, edges in political_borders(variant).items():
        sides = ref["political_borders"][name]["both_sides"]
        expected = {(h, int(e)) for h, es in sides.items() for e in es}
        if variant and name == "phases_2_3":
            defined = ref["variants"]["lite"]["political_borders_phases_2_3_as_defined"]
            expected = {(h, e) for h, es in defined.items() for e in es}
            expected |= {(spec.hexes[h].neighbors[e], opposite(e)) for h, e in expected}
        assert edges == expected, name
        for hid, edge in edges:
            other = spec.hexes[hid].neighbors[edge]
            assert other is not None and (other, opposite(edge)) in edges, (name, hid, edge)


def test_phases_and_trains(ref: dict[str, Any]) -> None:
    """rules/1841.md 2.4 and 1.2: tiles, ORs, train limits, off-board column and border set by
    phase; trains' distance, free stops (towns; the 8-train also passes), price, count, rust."""
    data = title_data()
    assert [p.name for p in data.phases] == [p["name"] for p in ref["phases"]]
    for mine, theirs in zip(data.phases, ref["phases"], strict=True):
        assert list(mine.tiles) == theirs["tiles"]
        assert mine.operating_rounds == theirs["operating_rounds"]
        assert dict(mine.train_limit) == theirs["train_limit"]
        assert mine.offboard_revenue == theirs["offboard_revenue_column"]
        assert mine.on == theirs.get(True)  # PyYAML reads the key `on` as True (YAML 1.1)
    assert [p.borders for p in data.phases] == ["phases_2_3"] * 2 + ["phase_4"] + [
        "phases_5_to_8"
    ] * 4
    for mine, theirs in zip(data.trains, ref["trains"], strict=True):
        assert mine.name == theirs["name"]
        assert mine.distance == int(str(theirs["distance"]).split()[0])
        assert mine.free == ({"town", "pass"} if mine.name == "8" else {"town"})
        assert (mine.price, mine.count, mine.rusts_on) == (
            theirs["price"], theirs["count"], theirs["rusts_on"]
        )  # fmt: skip
    lite = title_data(("short_game",))
    assert [t.count for t in lite.trains] == [6, 5, 3, 2, 2, 2, 7]
    assert "tuscan_merge" not in lite.train("4").events
    assert (lite.bank, dict(lite.starting_cash)) == (10900, {3: 840, 4: 630, 5: 504, 6: 420})


def test_market_concessions_corporations(ref: dict[str, Any]) -> None:
    """rules/1841.md 1.2: market grid, concessions in order, corporations in definition order
    with type, shares, homes; lite drops the Tuscan ones, version_1 has SFV and minor SFTC/SFL."""
    data = title_data()
    assert [list(r) for r in data.market] == ref["market"]["rows"]
    assert [c.sym for c in data.companies] == [c["sym"] for c in ref["companies"]]
    assert [c.sym for c in data.corporations] == [c["sym"] for c in ref["corporations"]]
    for mine, theirs in zip(data.corporations, ref["corporations"], strict=True):
        assert (mine.type, mine.historical, list(mine.shares), mine.min_tokens) == (
            theirs["type"], theirs["historical"], theirs["shares"], theirs["min_tokens"]
        ), mine.sym  # fmt: skip
    assert data.corporation("SFTG").homes == (("H4", 0), ("J6", 0))
    assert data.corporation("SFTN").homes == (("H4", 1),)
    assert data.corporation("SFMA").homes == (("R14", -1),)
    lite = title_data(("short_game",))
    assert {"SFMA", "SFLP", "SSFL", "SFLi"}.isdisjoint(c.sym for c in lite.corporations)
    assert [c.sym for c in lite.companies] == ["Bayard", "SFTC", "SFTN", "SFTG", "IRSFF"]
    v1 = title_data(("first_edition",))
    assert [c.sym for c in v1.corporations][7:10] == ["SFLi", "SFV", "SFL"]
    assert v1.corporation("SFTC").type == v1.corporation("SFL").type == "minor"
    assert v1.corporation("SFMA").homes == (("R14", 1),)


def test_market_markers_are_named_in_both_languages() -> None:
    """rules/1841.md 1.2 "Stock market": the cells carry p (par), x (par for majors only), m (a
    minor's maximum), n (the maximum before phase 8) and e (game end), each said in English
    and German for the market's legend."""
    markers = title_data().market_markers
    assert markers == ("p", "x", "m", "n", "e")
    cell_letters = {ch for row in title_data().market for cell in row for ch in cell}
    assert set(markers) == {ch for ch in cell_letters if ch.isalpha()}
    for lang in ("en", "de"):
        assert all(SENTENCES[lang].get(f"market.{m}") for m in markers), lang
