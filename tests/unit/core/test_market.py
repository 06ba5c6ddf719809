"""Stock market movement (common rules §6.5)."""

from __future__ import annotations

from stellwerk.core.market import Market

GRID = [
    ["60", "70", "80p", "90"],
    ["50", "60", "70"],
    ["40", "50"],
]


def test_two_dimensional_moves() -> None:
    """Right at the row's end goes up; up in the top row stays; left at the row start goes
    down; down where no cell lies below stays."""
    m = Market(GRID)
    assert m.right((0, 1)) == (0, 2)
    assert m.right((1, 2)) == (0, 2)
    assert m.up((0, 3)) == (0, 3)
    assert m.left((1, 0)) == (2, 0)
    assert m.down((1, 2)) == (1, 2)
    assert m.down((0, 1)) == (1, 1)


def test_one_dimensional_moves() -> None:
    """A single-row market: up = right, down = left, and the ends stay."""
    m = Market([["40", "50", "60p", "70"]])
    assert m.one_dimensional
    assert m.up((0, 1)) == (0, 2)
    assert m.down((0, 1)) == (0, 0)
    assert m.right((0, 3)) == (0, 3)
    assert m.left((0, 0)) == (0, 0)


def test_cell_ids_and_types() -> None:
    m = Market(GRID)
    cell = m.cell_by_id("80,0,2")
    assert cell is not None and "p" in cell.types
    assert m.cell_by_id("81,0,2") is None
    assert [c.price for c in m.cells_with_type({"p"})] == [80]


def test_malformed_actions_are_refused_with_the_field() -> None:
    """Common rules §3.3: unknown types and missing fields are refused by name."""
    import pytest

    from stellwerk.core.actions import check_shape
    from stellwerk.core.errors import IllegalAction

    with pytest.raises(IllegalAction, match="unknown action type"):
        check_shape({"type": "fly", "entity": 1})
    with pytest.raises(IllegalAction, match="'price'"):
        check_shape({"type": "bid", "entity": 1, "company": "SCE"})
    with pytest.raises(IllegalAction, match="wrong type"):
        check_shape(
            {"type": "lay_tile", "entity": "X", "hex": "A1", "tile": "7-0", "rotation": "2"}
        )
    check_shape({"type": "pass", "entity": 1, "entity_type": "player"})
