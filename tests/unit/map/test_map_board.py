"""Board: lays, supply, token slots, reservations, resets, trace (common rules §2, §6.3-6.4)."""

from __future__ import annotations

from typing import Any

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.board import Board
from stellwerk.core.map.spec import load_map, load_supply

CITY = {"cities": [{"part": 0, "revenue": 0, "slots": 1}]}
MAP: dict[str, Any] = {
    "layout": "flat",
    "letter": "row",
    "hexes": {
        "A1": {"color": "white", "terrain_cost": 40, **CITY},
        "C1": {"color": "white"},
        "E1": {"color": "white", **CITY},
        "B2": {"color": "white", "borders": [1]},
        "C3": {
            "color": "gray",
            "copy": 2,
            "cities": [{"part": 1, "revenue": {"white": 20, "gray": 30}, "slots": 2}],
            "paths": [{"a": "e2", "b": "c0"}],
        },
        "D2": {"color": "white"},
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
        "G": {
            "color": "green",
            "count": 1,
            "cities": [{"part": 0, "revenue": 30, "slots": 2}],
            "paths": [{"a": "e0", "b": "c0"}, {"a": "e1", "b": "c0"}, {"a": "e2", "b": "c0"}],
        },
        "S": {"color": "yellow", "count": 1, "paths": [{"a": "e0", "b": "e3"}]},
    }
}


def board() -> Board:
    return Board(load_map(MAP), load_supply(TILES))


def test_supply_ids_and_return_of_replaced_tile() -> None:
    """common rules §2.1: ids NAME-COPY; a replaced tile returns to the supply under its id."""
    b = board()
    assert list(b.supply) == ["Y-0", "Y-1", "G-0", "S-0"]
    b.lay_tile("A1", "Y-1", 5)
    assert "Y-1" not in b.supply
    result = b.lay_tile("A1", "G-0", 5)
    assert result.returned == "Y-1" and "Y-1" in b.supply
    assert b.available() == {"Y": "Y-0", "S": "S-0"}


def test_tokens_move_to_city_with_old_exits() -> None:
    """common rules §6.3: tokens go to the new city containing the old city's exits."""
    b = board()
    b.lay_tile("A1", "Y-0", 5)
    b.place_token("Y-0-0", "AAA")
    result = b.lay_tile("A1", "G-0", 5)
    assert result.moved_tokens == (("AAA", 0),)
    assert b.token_hexes("AAA") == ["A1"]
    assert b.city_id("A1", 0) == "G-0-0"
    assert b.resolve_city("G-0-0") == ("A1", 0)


def test_preprinted_city_ids_use_copy_and_part() -> None:
    """common rules §2.1-2.2: preprinted tiles are named after the hex; part index in the id."""
    b = board()
    assert b.city_id("C3", 0) == "C3-2-1"
    assert b.resolve_city("C3-2-1") == ("C3", 0)
    with pytest.raises(IllegalAction):
        b.resolve_city("C3-2-0")


def test_slots_respect_reservations_and_one_token_per_hex() -> None:
    """common rules §6.4: a slot reserved for another corporation counts as taken; no second
    token of a corporation on one hex."""
    b = board()
    b.reserve("C3", 0, "HOME")
    assert b.can_place_token("C3", 0, "AAA")
    b.place_token("C3-2-1", "AAA")
    assert not b.can_place_token("C3", 0, "BBB")
    assert b.can_place_token("C3", 0, "HOME")
    assert not b.can_place_token("C3", 0, "AAA")
    b.place_token_at("C3", 0, "HOME")
    assert b.hex("C3").cities[0].tokens == ["HOME", "AAA"]
    assert b.remove_token("C3-2-1", 1) == "AAA"
    assert b.unreserve("HOME") == []


def test_remove_all_tokens_and_reset_hex() -> None:
    """1849 rules §3.5 / §5: tokens leave the map; a reset puts the printed tile back."""
    b = board()
    b.lay_tile("A1", "Y-0", 5)
    b.place_token("Y-0-0", "AAA")
    b.place_token_at("C3", 0, "AAA")
    assert b.token_hexes("AAA") == ["A1", "C3"]
    assert b.reset_hex("A1") == ["AAA"]
    assert b.hex("A1").is_preprinted and "Y-0" not in b.supply
    assert b.remove_all_tokens("AAA") == ["C3"]
    assert b.token_hexes("AAA") == []


def test_trace_tiles_lists_coloured_and_laid_hexes() -> None:
    """Fixture trace format: laid tiles by name@rotation, printed coloured hexes by hex id."""
    b = board()
    assert b.trace_tiles() == {"C3": "C3@0"}
    b.lay_tile("E1", "Y-0", 2)
    assert b.trace_tiles() == {"C3": "C3@0", "E1": "Y@2"}


def test_linked_neighbours() -> None:
    """common rules §1.2: borders and gray hexes without track towards us do not link."""
    b = board()
    assert b.neighbor("A1", 0) == "C1"
    assert b.neighbor("B2", 1) is None  # impassable border
    assert b.neighbor("E1", 0) is None  # G1 is off the map
    assert b.neighbor("B2", 5) == "C3"  # gray C3 has track towards B2
    assert b.neighbor("D2", 4) is None  # ... but none towards D2
