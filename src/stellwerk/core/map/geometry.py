"""Hex geometry: hex ids, the two layouts, edge numbering and neighbours (common rules §1).

A hex id is a letter part and a number (``"F8"``, ``"AA3"``, ``"a12"``).  Letters map to an
integer index: ``A`` = 0 … ``Z`` = 25, ``AA`` = 26 …; lower-case letters are negative rows
above row A (``a`` = -1, ``b`` = -2).  Edges are numbered 0..5 clockwise as seen on screen.
Edge e of a hex and edge (e + 3) mod 6 of its neighbour are the same physical edge.

>>> neighbor_id("E9", 1, Layout.FLAT)
'F8'
>>> neighbor_id("C11", 4, Layout.POINTY)
'C13'
"""

from __future__ import annotations

import re
from enum import Enum

from stellwerk.core.errors import IllegalAction

_HEX_RE = re.compile(r"^([A-Za-z]+)(-?\d+)$")


class Layout(Enum):
    """Hex orientation: flat tops (columns offset) or pointed tops (rows offset)."""

    FLAT = "flat"
    POINTY = "pointy"


# (Δletter, Δnumber) per edge when the letter is the row (common rules §1.2 table).
_DELTAS: dict[Layout, tuple[tuple[int, int], ...]] = {
    Layout.FLAT: ((2, 0), (1, -1), (-1, -1), (-2, 0), (-1, 1), (1, 1)),
    Layout.POINTY: ((1, -1), (0, -2), (-1, -1), (-1, 1), (0, 2), (1, 1)),
}


def opposite(edge: int) -> int:
    """The same physical edge seen from the neighbour: (e + 3) mod 6 (common rules §1.2)."""
    return (edge + 3) % 6


def rotate_edge(edge: int, rotation: int) -> int:
    """Definition edge e of a tile laid with rotation r lies on board edge (e + r) mod 6 (§1.3)."""
    return (edge + rotation) % 6


def letter_index(letters: str) -> int:
    """``A``=0 … ``Z``=25, ``AA``=26 …; ``a``=-1, ``b``=-2 … (common rules §1.1)."""
    if letters.islower():
        if len(letters) != 1:
            raise ValueError(f"unsupported lower-case row {letters!r}")
        return -(ord(letters) - ord("a") + 1)
    value = 0
    for ch in letters:
        value = value * 26 + (ord(ch) - ord("A") + 1)
    return value - 1


def letters_for(index: int) -> str:
    """Inverse of :func:`letter_index`."""
    if index < 0:
        return chr(ord("a") - index - 1)
    out = ""
    n = index + 1
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(ord("A") + rem) + out
    return out


def parse_hex_id(hex_id: str) -> tuple[int, int]:
    """Split a hex id into (letter index, number)."""
    match = _HEX_RE.match(hex_id)
    if not match:
        raise IllegalAction(f"{hex_id!r} is not a hex id", "common rules §1.1")
    return letter_index(match.group(1)), int(match.group(2))


def format_hex_id(letter: int, number: int) -> str:
    """Build a hex id from (letter index, number)."""
    return f"{letters_for(letter)}{number}"


def edge_delta(edge: int, layout: Layout, letter_is_row: bool = True) -> tuple[int, int]:
    """(Δletter, Δnumber) to the neighbour across ``edge`` (swapped if the letter is the column)."""
    d_row, d_col = _DELTAS[layout][edge]
    return (d_row, d_col) if letter_is_row else (d_col, d_row)


def neighbor_id(hex_id: str, edge: int, layout: Layout, letter_is_row: bool = True) -> str:
    """The id of the hex across ``edge`` (whether or not it exists on a map)."""
    letter, number = parse_hex_id(hex_id)
    d_letter, d_number = edge_delta(edge, layout, letter_is_row)
    return format_hex_id(letter + d_letter, number + d_number)
