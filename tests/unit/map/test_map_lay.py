"""Tile shape rules, lay checks, costs and the corporation's network (common rules §6.3, §6.4)."""

from __future__ import annotations

from typing import Any

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.board import Board
from stellwerk.core.map.graph import GraphCache
from stellwerk.core.map.lay import LayOptions, check_lay, lay_hexes, legal_lays
from stellwerk.core.map.spec import load_map, load_supply
from stellwerk.core.map.upgrades import upgrade_shape_error
from stellwerk.core.policy import RECORDED

CITY = {"cities": [{"part": 0, "revenue": 0, "slots": 1}]}
MAP: dict[str, Any] = {
    "layout": "flat",
    "hexes": {
        "A1": {"color": "white", "terrain_cost": 40, **CITY},
        "C1": {"color": "white"},
        "E1": {"color": "white", **CITY},
        "G1": {
            "color": "red",
            "offboards": [{"part": 0, "revenue": 30}],
            "paths": [{"a": "e3", "b": "o0"}],
        },
        "B2": {"color": "white", "borders": [1]},
    },
}
TILES: dict[str, Any] = {
    "tiles": {
        "Y": {
            "color": "yellow",
            "count": 2,
            "cities": [{"part": 0, "revenue": 20, "slots": 1}],
            "paths": [{"a": "e0", "b": "c0"}, {"a": "e1", "b": "c0"}],
        },
        "S": {"color": "yellow", "count": 2, "paths": [{"a": "e0", "b": "e3"}]},
        "N": {"color": "yellow", "count": 1, "paths": [{"a": "e0", "b": "e3", "track": "narrow"}]},
        "K": {
            "color": "green",
            "count": 1,
            "paths": [{"a": "e0", "b": "e3"}, {"a": "e0", "b": "e5"}],
        },
        "G": {
            "color": "green",
            "count": 1,
            "cities": [{"part": 0, "revenue": 30, "slots": 2}],
            "paths": [{"a": "e0", "b": "c0"}, {"a": "e1", "b": "c0"}],
        },
    }
}
YELLOW = LayOptions(phase_colors=("yellow",))
GREEN = LayOptions(phase_colors=("yellow", "green"))


def setup() -> tuple[Board, GraphCache]:
    b = Board(load_map(MAP), load_supply(TILES))
    b.lay_tile("A1", "Y-0", 5)  # exits 5 (B2) and 0 (C1)
    b.place_token("Y-0-0", "X")
    return b, GraphCache(b)


def test_shape_rules() -> None:
    """common rules §6.3.1-4: next colour, track kept with gauge, same cities and towns."""
    b, _ = setup()
    tiles = b.tile_defs
    assert upgrade_shape_error(b.hex("E1").placed, tiles["Y"]) is None
    assert "cities" in (upgrade_shape_error(b.hex("E1").placed, tiles["S"]) or "")
    assert "follow" in (upgrade_shape_error(b.hex("C1").placed, tiles["K"]) or "")
    assert upgrade_shape_error(tiles["S"].rotated(0), tiles["K"]) is None
    assert "keep" in (upgrade_shape_error(tiles["N"].rotated(0), tiles["K"]) or "")
    assert upgrade_shape_error(b.hex("A1").placed, tiles["G"]) is None


def test_lay_needs_connection_and_valid_exits() -> None:
    """common rules §6.3.5: a new exit must be reached from a token; no track off the map."""
    b, g = setup()
    assert check_lay(b, g, "X", "C1", "S-0", 0, YELLOW) == 0
    with pytest.raises(IllegalAction, match="reach"):
        check_lay(b, g, "X", "E1", "Y-1", 0, YELLOW)
    with pytest.raises(IllegalAction, match="off the map"):
        check_lay(b, g, "X", "C1", "S-0", 1, YELLOW)
    with pytest.raises(IllegalAction, match="phase"):
        check_lay(b, g, "X", "A1", "G-0", 5, YELLOW)
    with pytest.raises(IllegalAction, match="supply"):
        check_lay(b, g, "X", "C1", "Y-0", 0, YELLOW)


def test_recorded_policy_skips_connectivity_but_not_shape() -> None:
    """common rules §3.6: replays skip connectivity and rotation checks, not the shape check."""
    b, g = setup()
    recorded = LayOptions(phase_colors=("yellow",), policy=RECORDED)
    assert check_lay(b, g, "X", "E1", "Y-1", 0, recorded) == 0
    with pytest.raises(IllegalAction):
        check_lay(b, g, "X", "E1", "S-0", 0, recorded)
    with pytest.raises(IllegalAction, match="upgraded now"):
        frozen = LayOptions(("yellow",), frozen={"E1"}, policy=RECORDED)
        check_lay(b, g, "X", "E1", "Y-1", 0, frozen)


def test_generic_cost_is_printed_terrain_of_old_tile() -> None:
    """common rules §6.3.8: terrain of the old tile - the hex's while the printed tile lies."""
    b, g = setup()
    b.reset_hex("A1")
    b.place_token_at("A1", 0, "X")
    assert check_lay(b, g, "X", "A1", "Y-1", 5, YELLOW) == 40
    b.lay_tile("A1", "Y-1", 5)
    assert check_lay(b, g, "X", "A1", "G-0", 5, GREEN) == 0


def test_upgrade_keeps_old_track_in_rotation() -> None:
    """common rules §6.3.2: every old path still exists in the laid rotation."""
    b, g = setup()
    assert check_lay(b, g, "X", "A1", "G-0", 5, GREEN) == 0
    with pytest.raises(IllegalAction):
        check_lay(b, g, "X", "A1", "G-0", 0, GREEN)


def test_legal_lays_and_lay_hexes() -> None:
    """The 'what may I do' lists agree with check_lay."""
    b, g = setup()
    assert legal_lays(b, g, "X", "C1", YELLOW) == [("S-0", 0), ("S-0", 3), ("N-0", 0), ("N-0", 3)]
    assert lay_hexes(b, g, "X", YELLOW) == ["C1"]


def test_network_tokens_and_blocking() -> None:
    """common rules §6.4, §6.1.6: tokens go to reachable free cities; a full city of another
    corporation is reached but not passed."""
    b, g = setup()
    b.lay_tile("C1", "S-0", 0)
    b.lay_tile("E1", "Y-1", 2)  # exits 2 and 3: not towards C1 (edge 3 is north: C1)
    assert ("E1", 0) in g.tokenable_cities("X")
    assert g.has_route("X") and g.must_buy_train("X")
    b.place_token("Y-1-0", "Z")
    assert g.tokenable_cities("X") == []
    assert ("E1", 0) in g.network("X").nodes
    assert g.network("Z").route_available


def test_gauges_do_not_join() -> None:
    """common rules §6.3.5 / 1849 rules §3.1: broad and narrow track do not connect."""
    b, g = setup()
    b.lay_tile("C1", "N-0", 0)
    b.lay_tile("E1", "Y-1", 2)
    assert ("E1", 0) not in g.network("X").nodes
    assert not g.has_route("X")
