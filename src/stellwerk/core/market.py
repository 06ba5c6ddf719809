"""Stock markets: the price grid, par cells and price movement (common rules §6.5).

A 2-D market is a list of rows; each cell has a price and a set of type letters
(``p`` par, ``e`` end-game trigger, ``c`` close, ...).  Movement follows the generic
two-dimensional rules; a title may refine single moves through :class:`MoveHooks`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

from mypy_extensions import mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(eq=False)
class Cell:
    """One market cell.  ``corporations`` lists the corporation symbols on it in arrival order."""

    row: int
    column: int
    price: int
    types: frozenset[str]
    corporations: list[str] = field(default_factory=list)

    @property
    def coordinates(self) -> tuple[int, int]:
        return (self.row, self.column)

    @property
    def id(self) -> str:
        """The 18xx.games share price id ``price,row,column``."""
        return f"{self.price},{self.row},{self.column}"


Coordinates = tuple[int, int]


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass
class MoveHooks:
    """Title refinements of single moves: each receives the market and the coordinates and
    returns the new coordinates, or None to use the generic move."""

    right: Callable[[Market, Coordinates], Coordinates | None] | None = None
    up: Callable[[Market, Coordinates], Coordinates | None] | None = None


@functools.cache
def _parsed(code: str) -> tuple[int, frozenset[str]]:
    """A cell's code (``"100p"``): its price and type letters (the same few codes recur in
    every market made: read each once)."""
    digits = "".join(ch for ch in code if ch.isdigit())
    return int(digits), frozenset(ch for ch in code if ch.isalpha())


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Market:
    """The share price grid with generic two-dimensional movement (common rules §6.5)."""

    def __init__(self, rows: list[list[str]], letters: str = "pxzuec") -> None:
        self.rows: list[list[Cell | None]] = []
        for r, row in enumerate(rows):
            cells: list[Cell | None] = []
            for c, code in enumerate(row):
                if not code:
                    cells.append(None)
                    continue
                price, types = _parsed(code)
                cells.append(Cell(r, c, price, types))
            self.rows.append(cells)
        self.hooks = MoveHooks()
        self.end_reached = False
        self._with_type: dict[frozenset[str], list[Cell]] = {}

    def cell(self, coordinates: Coordinates) -> Cell | None:
        r, c = coordinates
        if r < 0 or r >= len(self.rows) or c < 0 or c >= len(self.rows[r]):
            return None
        return self.rows[r][c]

    def cell_by_id(self, share_price_id: str) -> Cell | None:
        """Find a cell from its ``price,row,column`` id."""
        try:
            price, r, c = (int(x) for x in share_price_id.split(","))
        except ValueError:
            return None
        cell = self.cell((r, c))
        return cell if cell is not None and cell.price == price else None

    def cells_with_type(self, types: set[str]) -> list[Cell]:
        """Cells carrying one of ``types``, highest price first (a cell's price and types
        never change: found once per set of types)."""
        key = frozenset(types)
        known = self._with_type.get(key)
        if known is None:
            found = [cell for row in self.rows for cell in row if cell and cell.types & types]
            known = self._with_type[key] = sorted(found, key=lambda cell: -cell.price)
        return list(known)

    # -- generic movement -------------------------------------------------------------------
    @property
    def one_dimensional(self) -> bool:
        """A single-row market: up means right and down means left (common rules §6.5)."""
        return len(self.rows) == 1

    def right_ledge(self, coordinates: Coordinates) -> bool:
        r, c = coordinates
        return c + 1 == len(self.rows[r])

    def right(self, coordinates: Coordinates) -> Coordinates:
        """One cell right; at the right end of a row, up instead."""
        if self.hooks.right is not None:
            moved = self.hooks.right(self, coordinates)
            if moved is not None:
                return moved
        return self.generic_right(coordinates)

    def generic_right(self, coordinates: Coordinates) -> Coordinates:
        r, c = coordinates
        if self.right_ledge(coordinates):
            return coordinates if self.one_dimensional else self.up(coordinates)
        return (r, c + 1)

    def up(self, coordinates: Coordinates) -> Coordinates:
        """One row up; in the top row, no move."""
        if self.hooks.up is not None:
            moved = self.hooks.up(self, coordinates)
            if moved is not None:
                return moved
        if self.one_dimensional:
            return self.generic_right(coordinates)
        r, c = coordinates
        if r - 1 >= 0 and self.cell((r - 1, c)) is not None:
            return (r - 1, c)
        return coordinates

    def down(self, coordinates: Coordinates) -> Coordinates:
        """One row down if that cell exists; otherwise no move."""
        if self.one_dimensional:
            return self.left(coordinates)
        r, c = coordinates
        if self.cell((r + 1, c)) is not None:
            return (r + 1, c)
        return coordinates

    def left(self, coordinates: Coordinates) -> Coordinates:
        """One cell left; at the left end of a row (or a blank cell), down instead."""
        r, c = coordinates
        if c - 1 >= 0 and self.cell((r, c - 1)) is not None:
            return (r, c - 1)
        return coordinates if self.one_dimensional else self.down(coordinates)


def move_corporation(market: Market, sym: str, current: Cell, target: Coordinates) -> Cell:
    """Move a corporation's marker to ``target``.  Entering the same cell does nothing; the
    corporation goes to the end of the arrival list of its new cell (common rules §6.2)."""
    cell = market.cell(target)
    if cell is None or cell is current:
        return current
    if sym in current.corporations:
        current.corporations.remove(sym)
    cell.corporations.append(sym)
    if "e" in cell.types:
        market.end_reached = True
    return cell
