"""1835 title data checked number by number against ../shared/reference/1835.yaml (rules/1835.md
sections 1, 3, 4, 6-9, 11) and the tile catalogue reference/tiles.yaml.

The reference follows Rails; our data does too, so every number must match.  Skips when
../shared is absent.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from stellwerk.core.map.board import Board
from stellwerk.core.map.tiles import NodeKind, TileDef
from stellwerk.core.schema import game_tables
from stellwerk.titles.g1835 import data_load as dl

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared"
REF_1835 = SHARED / "reference" / "1835.yaml"
REF_TILES = SHARED / "reference" / "tiles.yaml"


@pytest.fixture(scope="module")
def ref() -> dict[str, Any]:
    if not REF_1835.is_file():
        pytest.skip(f"shared reference not found at {REF_1835}")
    with REF_1835.open(encoding="utf-8") as fh:
        data: dict[str, Any] = yaml.safe_load(fh)
    return data


@pytest.fixture(scope="module")
def tiles_ref() -> dict[str, Any]:
    if not REF_TILES.is_file():
        pytest.skip(f"shared reference not found at {REF_TILES}")
    with REF_TILES.open(encoding="utf-8") as fh:
        data: dict[str, Any] = yaml.safe_load(fh)
    return data


def _first_int(value: object) -> int:
    """'20 (option ld_income: 30)' -> 20; 20 -> 20."""
    match = re.match(r"\s*(\d+)", str(value))
    assert match, value
    return int(match.group(1))


# --- game facts ---------------------------------------------------------------------------


def test_bank_players_cash_and_cert_limits(ref: dict[str, Any]) -> None:
    """1835 rules §1: bank 12,000; 3-7 players; starting cash and certificate limits."""
    d = dl.title_data()
    assert d.bank == ref["bank"]
    assert d.players == (ref["players"]["min"], ref["players"]["max"])
    assert dict(d.starting_cash) == ref["starting_cash"]
    assert dict(d.cert_limit) == ref["cert_limit"]["base"]
    bonus = d.raw["cert_limit_bonus"]
    assert bonus["bonus"] == ref["cert_limit"]["bonus_per_major_held_80_percent"]
    assert bonus["percent_held"] == 80
    assert d.raw["pool_limit_percent"] == ref["bank_pool_limit_percent"]
    assert d.raw["player_share_limit_percent"] == ref["player_share_limit_percent"]


def test_common_facts_are_the_core_schemas() -> None:
    """game.toml's common facts read through ``core.schema``; 1835's own sit on top of them."""
    core = game_tables(dl.game_data())
    data = dl.title_data()
    assert (data.bank, data.players) == (core.bank, (core.players[0], core.players[-1]))
    assert (data.starting_cash, data.cert_limit) == (core.starting_cash, core.cert_limit)
    assert data.market == core.market
    assert [(p.name, p.train_limit) for p in data.phases] == [
        (p.name, limits) for p, limits in zip(core.phases, core.train_limits, strict=True)
    ]
    assert [(t.name, t.distance, t.price, t.count, t.rusts_on) for t in data.trains] == [
        (t.name, t.distance, t.price, t.count, t.rusts_on) for t in core.trains
    ]
    assert [(m.sym, m.home, m.tokens, m.shares, m.float_percent) for m in data.majors] == [
        (c.sym, c.home, c.tokens, c.shares, c.float_percent) for c in core.corporations
    ]


def test_bank_after_paying_players_matches_reports() -> None:
    """rails-report-format §2.1: BankHas = 12000 - n x cash (4 players: 10,100)."""
    d = dl.title_data()
    assert d.bank - 4 * d.starting_cash[4] == 10100


def test_market_grid_and_start_cells(ref: dict[str, Any]) -> None:
    """1835 rules §8.6: the market grid as Rails' StockMarket.xml; fixed start prices."""
    d = dl.title_data()
    assert [list(r) for r in d.market] == ref["market"]["rows"]
    for sym, start in ref["market"]["start_prices"].items():
        major = d.major(sym)
        assert (major.start_price, major.start_cell) == (start["price"], start["cell"])
        assert dl.market_price(start["cell"]) == start["price"]


def test_market_cell_names() -> None:
    """Rails cell names: column letter + row number (format §1): C3 = 92, I4 = 154, A7 = 54."""
    assert dl.market_price("C3") == 92
    assert dl.market_price("I4") == 154
    assert dl.market_price("A7") == 54
    assert dl.market_price("A1") is None
    assert dl.cell_name(*dl.cell_position("L4")) == "L4"


def test_phases(ref: dict[str, Any]) -> None:
    """1835 rules §9: phases, tile colours, ORs per set and train limits."""
    d = dl.title_data()
    assert [p.name for p in d.phases] == [p["name"] for p in ref["phases"]]
    for ours, theirs in zip(d.phases, ref["phases"], strict=True):
        assert ours.printed == theirs["rails_real_name"]
        assert list(ours.tiles) == theirs["tiles"]
        assert ours.operating_rounds == theirs["operating_rounds"]
        assert dict(ours.train_limit) == theirs["train_limit"]


def test_trains_and_rusting(ref: dict[str, Any]) -> None:
    """1835 rules §8.7, §14: roster, prices, counts, rusting phases."""
    d = dl.title_data()
    assert [t.name for t in d.trains] == [t["name"] for t in ref["trains"]]
    for ours, theirs in zip(d.trains, ref["trains"], strict=True):
        assert (ours.price, ours.count) == (theirs["price"], theirs["count"])
        assert ours.rusts_on == theirs.get("rusts_on")
        n = int(theirs["name"].split("+")[0])
        assert ours.distance == n
        assert ours.towns == (n if "+" in theirs["name"] else 0)


def test_private_companies(ref: dict[str, Any]) -> None:
    """1835 rules §6: privates' prices, revenues, 18xx.games ids and extra shares."""
    d = dl.title_data()
    assert [p.sym for p in d.privates] == [c["sym"] for c in ref["companies"]]
    for ours, theirs in zip(d.privates, ref["companies"], strict=True):
        assert ours.value == theirs["value"]
        assert ours.revenue == _first_int(theirs["revenue"])
        assert ours.x18_sym == theirs.get("x18_sym", theirs["sym"])
    assert {p.sym for p in d.privates if p.closes_on_phase == "5"} == {"NF", "OBB", "PfB", "LD"}
    assert {
        p.sym: p.prussian_exchange_percent for p in d.privates if p.prussian_exchange_percent
    } == {
        "BB": 10,
        "HB": 10,
    }
    extras = {p.sym: (p.extra_share or {}).get("company") for p in d.privates}
    assert extras == {"NF": "BY", "OBB": "BY", "PfB": "BY", "LD": "SX", "BB": None, "HB": None}
    ld = d.private("LD").extra_share
    assert ld is not None and ld["percent"] == 20 and ld["president"] is True


def test_private_abilities_are_data() -> None:
    """1835 rules §6: NF token on L14; OBB tiles on M15/M17; PfB green tile and token on L6."""
    d = dl.title_data()
    nf = d.private("NF").abilities
    assert [(a["type"], a["hexes"]) for a in nf] == [("token", ["L14"])]
    obb = d.private("OBB").abilities
    assert obb[0]["hexes"] == ["M15", "M17"] and obb[0]["one_per_operating_round"] is True
    pfb = d.private("PfB").abilities
    assert [a["type"] for a in pfb] == ["tile_lay", "token"]
    assert pfb[0]["tiles"] == [str(t) for t in range(210, 216)]
    assert pfb[1]["requires_tile"] is True and pfb[1]["closes_company"] is True


def test_minors(ref: dict[str, Any]) -> None:
    """1835 rules §7: M1-M6 prices, homes (18xx.games city index) and PR exchange values."""
    d = dl.title_data()
    assert [m.sym for m in d.minors] == [m["sym"] for m in ref["minors"]]
    for ours, theirs in zip(d.minors, ref["minors"], strict=True):
        assert ours.price == theirs["price"]
        assert ours.x18_sym == theirs["x18_sym"]
        assert (ours.home, ours.city) == (theirs["home"]["hex"], theirs["home"]["city"])
        assert ours.exchange_percent == _first_int(
            theirs["pr_exchange"].replace("PR director's certificate (", "")
        )
    assert [m.sym for m in d.minors if m.exchange_president] == ["M2"]


def test_majors(ref: dict[str, Any]) -> None:
    """1835 rules §1: share lists (20% director, double last shares), homes, tokens, groups."""
    d = dl.title_data()
    assert [c.sym for c in d.majors] == [c["sym"] for c in ref["corporations"]]
    for ours, theirs in zip(d.majors, ref["corporations"], strict=True):
        assert ours.home == theirs["home"]["hex"]
        assert ours.start_price == theirs["start_price"]
        assert sum(ours.shares) == 100
        if ours.sym == "PR":
            assert ours.tokens == 7
            # the YAML flow list splits "10 (director, reserved)" at its comma: keep the numbers
            order = [str(s) for s in theirs["shares"]["buy_order_rails"]]
            assert list(ours.shares) == [int(s.split()[0]) for s in order if s[0].isdigit()]
            assert ours.group == 2
        else:
            assert list(ours.shares) == theirs["shares"]
            assert ours.tokens == len(theirs["tokens"])
            assert ours.group == theirs["group"]
    assert d.major("BA").shares[-1] == 20 and d.major("MS").shares[:3] == (20, 20, 20)


def test_prussian_reserved_certificates() -> None:
    """1835 rules §1, §10: PR director share for M2, 4 buyable, 10% M4/BB/HB, 5% the others."""
    pr = dl.title_data().major("PR")
    reserved = dict(zip(pr.reserved, pr.shares, strict=True))
    assert reserved["M2"] == 10 and pr.reserved[0] == "M2"
    assert [pr.shares[i] for i, r in enumerate(pr.reserved) if r == ""] == [10, 10, 10, 10]
    for sym in ("M4", "BB", "HB"):
        assert reserved[sym] == 10
    for sym in ("M1", "M3", "M5", "M6"):
        assert reserved[sym] == 5


def test_start_packet(ref: dict[str, Any]) -> None:
    """1835 rules §3.1: items, rows, prices (total 1,684M)."""
    d = dl.title_data()
    theirs = ref["start_packet"]
    assert [s.row for s in d.start_packet] == [s["row"] for s in theirs]
    assert [s.price for s in d.start_packet] == [s["price"] for s in theirs]
    names = [s.item for s in d.start_packet]
    assert names == [s["item"] if " " not in s["item"] else "BY_D" for s in theirs]
    assert sum(s.price for s in d.start_packet) == 1684


def test_start_orders() -> None:
    """1835 rules §3.3: Standard clockwise; Snake forward then reverse; Clemens reverse first."""
    orders = dl.title_data().start_orders
    assert set(orders) == {"standard", "snake", "clemens"}
    assert orders["snake"].cycles == ("forward", "reverse")
    assert orders["clemens"].cycles == ("reverse",) and orders["clemens"].all_items_available
    assert not orders["standard"].all_items_available


def test_release_rules_follow_seed_004(ref: dict[str, Any]) -> None:
    """Seed 004 items 2.3-2.6 as Rails implements them: BA after BY+SX, PR's 40% after BA's
    director share, WT at 50% BA, HE at 50% WT, MS after BA+WT+HE, OL at 60% MS."""
    d = dl.title_data()
    got = [(r.companies, r.sold_percent, r.company) for r in d.release_rules]
    assert got == [
        (("BY", "SX"), 100, "BA"),
        (("BA",), 20, "PR"),
        (("BA",), 50, "WT"),
        (("WT",), 50, "HE"),
        (("BA", "WT", "HE"), 100, "MS"),
        (("MS",), 60, "OL"),
    ]
    assert len(got) == len(ref["release_rules"])
    assert d.share_groups == (("BY", "SX"), ("BA", "WT", "HE", "PR"), ("MS", "OL"))


# --- map ----------------------------------------------------------------------------------


def _all_ref_hexes(ref: dict[str, Any]) -> dict[str, dict[str, Any]]:
    hexes = dict(ref["hexes"])
    for hid in hexes.pop("blank_hexes"):
        hexes[hid] = {"kind": "blank", "upgrades_to": [7, 8, 9]}
    return hexes


def _norm_paths(tile: TileDef) -> set[tuple[str, str]]:
    """Paths as sets of ends in the reference's notation (eN, cN, tN, oN)."""
    prefix = {NodeKind.CITY: "c", NodeKind.TOWN: "t", NodeKind.OFFBOARD: "o"}
    numbers: list[str] = []
    counts: dict[str, int] = {}
    for node in tile.nodes:
        p = prefix[node.kind]
        numbers.append(f"{p}{counts.get(p, 0)}")
        counts[p] = counts.get(p, 0) + 1
    out = set()
    for path in tile.paths:
        ends = [f"e{e}" if e < 10 else numbers[e - 10] for e in (path.a, path.b)]
        out.add((min(ends), max(ends)))
    return out


def test_map_loads_and_has_every_hex(ref: dict[str, Any]) -> None:
    """Every reference hex is on our map (plus 18xx.games' hidden I21), pointy layout."""
    spec = dl.map_spec()
    assert spec.layout.value == "pointy" and spec.letter_is_row
    assert set(spec.hexes) == set(_all_ref_hexes(ref))


def test_preprinted_hexes_match_reference(ref: dict[str, Any]) -> None:
    """Each preprinted tile parses and has the reference's stops, track, label and cost."""
    spec = dl.map_spec()
    table = dl.upgrade_table()
    for hid, theirs in _all_ref_hexes(ref).items():
        ours = spec.hexes[hid]
        tile = ours.preprinted
        for r in range(6):
            tile.rotated(r)
        cities = [n for n in tile.nodes if n.kind is NodeKind.CITY]
        towns = [n for n in tile.nodes if n.kind is NodeKind.TOWN]
        assert [(c.revenue, c.slots) for c in cities] == [
            (c["revenue"], c["slots"]) for c in theirs.get("cities", [])
        ], hid
        assert [t.revenue for t in towns] == [t["revenue"] for t in theirs.get("towns", [])], hid
        expected = {tuple(sorted(p)) for p in theirs.get("paths", [])}
        assert _norm_paths(tile) == {(a, b) for a, b in expected}, hid
        assert tile.label == theirs.get("label"), hid
        assert ours.terrain_cost == theirs.get("terrain_cost", 0), hid
        assert sorted(ours.borders) == sorted(b["edge"] for b in theirs.get("borders", [])), hid
        if "upgrades_to" in theirs:
            assert table[hid] == tuple(str(u) for u in theirs["upgrades_to"]), hid
        if theirs.get("kind") == "offboard":
            (node,) = tile.nodes
            assert dict(node.phase_revenue) == theirs["offboard_revenue"], hid


def test_city_ids_as_18xx_games() -> None:
    """common rules §2.1-2.2: copy index = position in the shared-definition list, part index =
    position in the definition string (M6's home is C11-0-2, NF's L14 cities L14-0-0/-3)."""
    board = Board(dl.map_spec(), dl.supply())
    assert board.city_id("C11", 1) == "C11-0-2"
    assert board.city_id("C11", 2) == "C11-0-4"
    assert board.city_id("L14", 1) == "L14-0-3"
    assert board.city_id("E19", 1) == "E19-0-1"
    assert dl.map_spec().hexes["G1"].preprinted_id == "G1-1"
    assert dl.map_spec().hexes["P14"].preprinted_id == "P14-1"
    assert dl.map_spec().hexes["O17"].preprinted_id == "O17-43"
    assert dl.map_spec().hexes["M17"].preprinted_id == "M17-5"
    assert dl.map_spec().hexes["O7"].preprinted_id == "O7-9"
    assert board.resolve_city("C11-0-2") == ("C11", 1)


def test_homes_are_cities_on_the_map() -> None:
    """1835 rules §7, §8.4: every home hex has the home city index."""
    d = dl.title_data()
    spec = dl.map_spec()
    homes = [(m.sym, m.home, m.city) for m in d.minors] + [
        (c.sym, c.home, c.city) for c in d.majors
    ]
    for sym, home, city in homes:
        assert city < len(spec.hexes[home].preprinted.city_nodes), sym


# --- tiles --------------------------------------------------------------------------------


def test_tile_supply_and_definitions(ref: dict[str, Any]) -> None:
    """1835 rules §8.3: tile counts and track as in the reference (Rails TileSet.xml)."""
    supply = {e.tile.name: e for e in dl.supply()}
    assert {k: e.count for k, e in supply.items()} == ref["tiles"]["supply"]
    for name, theirs in ref["tiles"]["definitions"].items():
        tile = supply[name].tile
        assert tile.color == theirs["color"], name
        assert tile.label == theirs.get("label"), name
        cities = [(n.revenue, n.slots) for n in tile.nodes if n.kind is NodeKind.CITY]
        assert cities == [(c["revenue"], c["slots"]) for c in theirs.get("cities", [])], name
        assert _norm_paths(tile) == {tuple(sorted(p)) for p in theirs["paths"]}, name
        assert dl.rails_offsets()[name] == tuple(theirs["rails_offset"]), name
        assert dl.upgrade_table()[name] == tuple(str(u) for u in theirs["upgrades_to"]), name


def test_tile_part_indices_as_18xx_games(tiles_ref: dict[str, Any]) -> None:
    """common rules §2.2: city/town part indices as 18xx.games numbers them (tiles.yaml)."""
    for entry in dl.supply():
        theirs = tiles_ref["tiles"][entry.tile.name]
        for kind, key in ((NodeKind.CITY, "cities"), (NodeKind.TOWN, "towns")):
            ours = sorted(n.part for n in entry.tile.nodes if n.kind is kind)
            assert ours == sorted(x["part_index"] for x in theirs.get(key, [])), entry.tile.name


def test_upgrades_agree_with_18xx_games_where_rails_does(tiles_ref: dict[str, Any]) -> None:
    """Where 18xx.games and Rails agree the Rails table equals tiles.yaml's 1835 upgrades; the
    listed differences (double towns, 14/15, L14) follow Rails (1835 rules §8.3)."""
    table = dl.upgrade_table()
    diffs = {d["tile"]: d for d in tiles_ref["rails_1835_upgrades"]["differences"]}
    for entry in dl.supply():
        name = entry.tile.name
        x18 = sorted(tiles_ref["tiles"][name]["upgrades_to"]["1835"], key=int)
        ours = sorted(table[name], key=int)
        if name in diffs:
            assert ours == sorted(diffs[name]["rails"], key=int), name
            assert x18 == sorted(diffs[name]["tobymao"], key=int), name
        else:
            assert ours == x18, name
    l14 = next(d for k, d in diffs.items() if k.startswith("preprinted L14"))
    assert list(table["L14"]) == l14["rails"]


def test_rails_rotation_examples() -> None:
    """rails-report-format §3.2: 201 SW -> 5, 57 SW -> 0, 8 NW -> 2."""
    assert dl.rails_rotation("201", "SW") == 5
    assert dl.rails_rotation("57", "SW") == 0
    assert dl.rails_rotation("8", "NW") == 2
    with pytest.raises(KeyError):
        dl.rails_rotation("999", "SW")
