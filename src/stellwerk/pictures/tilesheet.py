"""A sheet of every tile of the supply, unrotated, with the copies left and in all
(common rules §2.1: laid tiles leave the supply, replaced ones return to it)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from stellwerk.core.map.board import Board
from stellwerk.core.map.geometry import Layout
from stellwerk.core.map.tiles import COLORS
from stellwerk.pictures.geometry import SQRT3
from stellwerk.pictures.hexdraw import HexMarks, draw_hex
from stellwerk.pictures.scene import MapSource, board_of, caption_of, title_of

if TYPE_CHECKING:
    from stellwerk.pictures.scene import Shown
from stellwerk.pictures.svg import new_svg, sub, text, to_string
from stellwerk.pictures.wording import word

RADIUS = 44.0


def tile_counts(board: Board) -> dict[str, tuple[int, int]]:
    """Tile name -> (copies left in the supply, copies in the game)."""
    left = Counter(tile.name for tile in board.supply.values())
    placed = Counter(state.tile.name for state in board.hexes.values() if not state.is_preprinted)
    return {name: (left[name], left[name] + placed[name]) for name in board.tile_defs}


def render_tiles(game: Shown | MapSource, per_row: int = 10, lang: str = "en") -> str:
    """The tile sheet of a game's (or map source's) board as SVG text, its caption in
    ``lang``."""
    board = board_of(game)
    layout = board.spec.layout
    counts = tile_counts(board)
    order = {c: i for i, c in enumerate(COLORS)}
    names = sorted(
        board.tile_defs,
        key=lambda n: (order.get(board.tile_defs[n].color, 9), _numeric(n), n),
    )
    cell_w = RADIUS * 2.3
    cell_h = RADIUS * 2.5
    margin = 20.0
    rows = (len(names) + per_row - 1) // per_row
    width = margin * 2 + per_row * cell_w
    height = margin * 2 + 30 + rows * cell_h
    root = new_svg(width, height, f"{title_of(game)} tiles")
    text(
        root,
        margin,
        margin + 8,
        f"{word('tiles_left', lang)} - {caption_of(game, lang=lang)}",
        16,
        anchor="start",
        weight="bold",
    )
    for i, name in enumerate(names):
        row, col = divmod(i, per_row)
        x = margin + col * cell_w + cell_w / 2
        y = (
            margin
            + 30
            + row * cell_h
            + RADIUS * (1.0 if layout is Layout.POINTY else SQRT3 / 2)
            + 4
        )
        left, total = counts[name]
        g = sub(
            root,
            "g",
            id=f"tile-{name}",
            transform=f"translate({x} {y})",
            class_="tile",
            opacity="1" if left else "0.45",
        )
        tile = board.tile_defs[name]
        draw_hex(
            g,
            tile.rotated(0),
            layout,
            RADIUS,
            HexMarks(hex_id=name, show_coordinate=False),
            None,
            {},
        )
        text(
            root,
            x,
            y + RADIUS * 1.1,
            f"{name}: {left} of {total}",
            11,
            weight="bold",
            class_="count",
        )
    return to_string(root)


def _numeric(name: str) -> int:
    digits = "".join(ch for ch in name if ch.isdigit())
    return int(digits) if digits else 0
