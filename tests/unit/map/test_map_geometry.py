"""Hex ids, neighbours and rotation (common rules §1)."""

from __future__ import annotations

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.geometry import (
    Layout,
    format_hex_id,
    letter_index,
    neighbor_id,
    opposite,
    parse_hex_id,
    rotate_edge,
)


@pytest.mark.parametrize(
    ("letters", "index"), [("A", 0), ("Z", 25), ("AA", 26), ("AZ", 51), ("a", -1), ("b", -2)]
)
def test_letter_index(letters: str, index: int) -> None:
    """common rules §1.1: A=0 … Z=25, AA=26 … AZ=51, a=-1, b=-2."""
    assert letter_index(letters) == index
    assert format_hex_id(index, 7) == f"{letters}7"


def test_parse_hex_id() -> None:
    """common rules §1.1: letter part then a (possibly negative) number."""
    assert parse_hex_id("a12") == (-1, 12)
    assert parse_hex_id("R14") == (17, 14)
    with pytest.raises(IllegalAction):
        parse_hex_id("14")


@pytest.mark.parametrize(
    ("hex_id", "edge", "layout", "expected"),
    [
        ("E9", 1, Layout.FLAT, "F8"),  # §1.2 example
        ("F8", 4, Layout.FLAT, "E9"),
        ("C5", 0, Layout.FLAT, "E5"),
        ("C11", 4, Layout.POINTY, "C13"),
        ("C11", 0, Layout.POINTY, "D10"),
        ("B14", 1, Layout.FLAT, "C13"),
        ("A13", 2, Layout.FLAT, "a12"),
    ],
)
def test_neighbours(hex_id: str, edge: int, layout: Layout, expected: str) -> None:
    """common rules §1.2 neighbour table and its worked examples."""
    assert neighbor_id(hex_id, edge, layout) == expected
    assert neighbor_id(expected, opposite(edge), layout) == hex_id


def test_default_axes_swap_deltas() -> None:
    """common rules §1.1: with letter = column the letter and number deltas swap."""
    assert neighbor_id("C5", 0, Layout.FLAT, letter_is_row=False) == "C7"


def test_rotation_moves_edges_clockwise() -> None:
    """common rules §1.3: definition edge e lies on board edge (e + r) mod 6 (tile 202 rot 5)."""
    assert [rotate_edge(e, 5) for e in (0, 2)] == [5, 1]
    assert opposite(1) == 4
