"""A tile lay drawn on its hex: the hex with a candidate tile in one rotation, among its
neighbours as the map shows them, so the player sees where the new track leads.

The candidate hex is a ``<g class="hex preview">`` with ``data-hex``, ``data-tile`` and
``data-rotation``, drawn in hex-local coordinates at the map's radius exactly as
:func:`stellwerk.pictures.mapview.render_map` draws a hex (the page's script moves this group
onto the map as the preview in place).  The board is only read: nothing is laid.
"""

from __future__ import annotations

from dataclasses import replace

from stellwerk.core.map.tiles import RotatedTile
from stellwerk.pictures.geometry import hex_center
from stellwerk.pictures.hexdraw import draw_hex, hex_marks
from stellwerk.pictures.mapview import RADIUS, MapScene
from stellwerk.pictures.svg import new_svg, num, sub, to_string

NEIGHBOUR_OPACITY = "0.55"
"""The neighbours are drawn paler than the hex the tile goes on."""


def render_lay_preview(
    scene: MapScene, hex_id: str, placed: RotatedTile, width: float = 180.0
) -> str:
    """The hex ``hex_id`` of the scene's board with ``placed`` on it (its tokens kept where
    the city indexes agree) and its neighbours as they are, as SVG text ``width`` wide."""
    board = scene.board
    spec = board.spec
    radius = RADIUS
    cx, cy = hex_center(hex_id, spec.layout, spec.letter_is_row, radius)
    reach = radius * 1.95
    size = reach * 2
    root = new_svg(size, size, f"{hex_id}: {placed.tile.name} / {placed.rotation}")
    root.set("width", num(width))
    root.set("height", num(width))
    root.set("class", "lay-preview")
    state = board.hexes[hex_id]
    neighbours = [n for n in state.spec.neighbors if n is not None and n in board.hexes]
    for other in neighbours:
        ox, oy = hex_center(other, spec.layout, spec.letter_is_row, radius)
        there = board.hexes[other]
        g = sub(
            root,
            "g",
            transform=f"translate({num(ox - cx + reach)} {num(oy - cy + reach)})",
            class_="hex neighbour",
            opacity=NEIGHBOUR_OPACITY,
        )
        draw_hex(
            g,
            there.placed,
            spec.layout,
            radius,
            hex_marks(other, there),
            there.cities,
            scene.colors,
            active_column=scene.active_column,
        )
    g = sub(
        root,
        "g",
        transform=f"translate({num(reach)} {num(reach)})",
        class_="hex preview",
        data_hex=hex_id,
        data_tile=placed.tile.name,
        data_rotation=str(placed.rotation),
    )
    # a laid tile covers the printed terrain (its cost is paid with the lay)
    marks = replace(hex_marks(hex_id, state), terrain_cost=0, tile_name=placed.tile.name)
    homes: dict[int, list[str]] = {}
    for corp, city in scene.homes.get(hex_id, ()):
        homes.setdefault(city, []).append(corp)
    draw_hex(
        g,
        placed,
        spec.layout,
        radius,
        marks,
        state.cities,
        scene.colors,
        active_column=scene.active_column,
        homes=homes,
    )
    return to_string(root)
