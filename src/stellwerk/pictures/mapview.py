"""The map picture: every hex of a board with its tile, tokens and marks, borders, coordinates
on the margins, and optionally the routes of one corporation (one colour per train).

:func:`render_map` draws from a :class:`MapScene`, which holds only public objects (the core
board, colours, political borders); :mod:`stellwerk.pictures.scene` builds scenes from games.
Every hex is one ``<g>`` whose ``id`` and ``data-hex`` are the hex id, every city of it a
``<g class="city">`` with ``data-city="HEX:INDEX"`` (the 18xx.games city index, from 0): the web
pages map a click to a hex or a city by these attributes.  A hex with a laid tile names it and
its rotation (``data-tile``, ``data-rotation``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from stellwerk.core.map.board import Board
from stellwerk.core.map.geometry import letters_for, parse_hex_id
from stellwerk.core.map.graph import NodeKey, PathKey
from stellwerk.pictures.geometry import Cubic, TileLayout, hex_center, tile_layout
from stellwerk.pictures.hexdraw import draw_hex, edge_line, hex_marks
from stellwerk.pictures.style import IMPASSABLE, POLITICAL, TRAIN_COLORS, CorpColors
from stellwerk.pictures.svg import new_svg, num, path_d, sub, text, to_string

RADIUS = 50.0
"""Hex circumradius in SVG units."""


@dataclass(frozen=True, slots=True)
class RouteLine:
    """One train's route: its label, the track it used (hex, path index) and its stops."""

    label: str
    paths: tuple[PathKey, ...]
    stops: tuple[NodeKey, ...]
    revenue: int | None = None


@dataclass(slots=True)
class MapScene:
    """What the map shows: the board, the colours, borders in force, phase column, routes."""

    title: str
    board: Board
    colors: Mapping[str, CorpColors]
    caption: str = ""
    political: frozenset[tuple[str, int]] = frozenset()
    active_column: str | None = None
    homes: Mapping[str, Sequence[tuple[str, int]]] = field(default_factory=dict)
    """Hex -> (corporation, city index) of home stations not yet tokened nor reserved."""
    routes: Sequence[RouteLine] = ()
    routes_of: str | None = None


def _offsets(board: Board, radius: float) -> tuple[dict[str, tuple[float, float]], float, float]:
    spec = board.spec
    centers = {hid: hex_center(hid, spec.layout, spec.letter_is_row, radius) for hid in board.hexes}
    min_x = min(x for x, _ in centers.values())
    min_y = min(y for _, y in centers.values())
    margin = radius * 1.5
    shifted = {hid: (x - min_x + margin, y - min_y + margin) for hid, (x, y) in centers.items()}
    width = max(x for x, _ in shifted.values()) + margin
    height = max(y for _, y in shifted.values()) + margin
    return shifted, width, height


def render_map(scene: MapScene, radius: float = RADIUS) -> str:
    """The map as SVG text."""
    board = scene.board
    layout = board.spec.layout
    centers, width, height = _offsets(board, radius)
    legend_h = radius * (0.9 + 0.45 * len(scene.routes)) if scene.routes else radius * 0.8
    root = new_svg(width, height + legend_h, f"{scene.title} map")
    sub(root, "desc").text = scene.caption
    hexes_g = sub(root, "g", id="hexes")
    layouts: dict[str, TileLayout] = {}
    for hid, state in board.hexes.items():
        x, y = centers[hid]
        g = sub(
            hexes_g,
            "g",
            id=hid,
            transform=f"translate({num(x)} {num(y)})",
            class_="hex",
            data_hex=hid,
            data_tile=None if state.is_preprinted else state.tile.name,
            data_rotation=None if state.is_preprinted else str(state.placed.rotation),
            # a route's stops on the hex (hex and tile node index): an off-board area has no
            # element of its own to click
            data_stops=" ".join(f"{hid}.{n}" for n in range(len(state.tile.nodes))) or None,
        )
        marks = hex_marks(hid, state)
        homes: dict[int, list[str]] = {}
        for corp, city in scene.homes.get(hid, ()):
            homes.setdefault(city, []).append(corp)
        layouts[hid] = draw_hex(
            g,
            state.placed,
            layout,
            radius,
            marks,
            state.cities,
            scene.colors,
            active_column=scene.active_column,
            homes=homes,
        )
    _borders(root, board, centers, radius, scene.political)
    _lift_labels(root, hexes_g)
    _coordinates(root, board, centers, radius)
    if scene.routes:
        _routes(root, scene, centers, layouts, radius)
    _legend(root, scene, height, radius)
    return to_string(root)


def render_routes(scene: MapScene, radius: float = RADIUS) -> str:
    """Only the routes layer of :func:`render_map` (``<g id="map-routes">`` in an ``<svg>``
    of the map's coordinates): the web page swaps it into its map while a player edits routes."""
    board = scene.board
    centers, width, height = _offsets(board, radius)
    root = new_svg(width, height, f"{scene.title} routes")
    hexes = {hid for route in scene.routes for hid, _ in (*route.paths, *route.stops)}
    layouts = {
        hid: tile_layout(board.hexes[hid].placed, board.spec.layout, radius) for hid in hexes
    }
    _routes(root, scene, centers, layouts, radius)
    return to_string(root)


def _lift_labels(root: ET.Element, hexes_g: ET.Element) -> None:
    """Move each hex's city-name label into a layer above all hexes and borders, placed as in
    its hex: a name longer than its hex stays readable over the neighbouring hexes."""
    layer = sub(root, "g", id="labels")
    for g in hexes_g:
        labels = [child for child in g if child.get("class") == "location-label"]
        if not labels:
            continue
        placed = sub(layer, "g", transform=g.get("transform", ""), data_hex=g.get("id", ""))
        for label in labels:
            g.remove(label)
            placed.append(label)


def _borders(
    root: ET.Element,
    board: Board,
    centers: Mapping[str, tuple[float, float]],
    radius: float,
    political: frozenset[tuple[str, int]],
) -> None:
    layout = board.spec.layout
    g = sub(root, "g", id="borders")
    drawn: set[frozenset[tuple[str, int]]] = set()
    for hid, state in board.hexes.items():
        for edge in state.spec.borders:
            other = state.spec.neighbors[edge]
            key = frozenset({(hid, edge), (other or "", (edge + 3) % 6)})
            if key in drawn:
                continue
            drawn.add(key)
            x, y = centers[hid]
            eg = sub(g, "g", transform=f"translate({num(x)} {num(y)})")
            edge_line(eg, edge, layout, radius, IMPASSABLE, radius * 0.12, cls="impassable")
    for hid, edge in sorted(political):
        if hid not in centers:
            continue
        other = board.hexes[hid].spec.neighbors[edge]
        key = frozenset({(hid, edge), (other or "", (edge + 3) % 6)})
        if key in drawn:
            continue
        drawn.add(key)
        x, y = centers[hid]
        eg = sub(g, "g", transform=f"translate({num(x)} {num(y)})")
        edge_line(
            eg,
            edge,
            layout,
            radius,
            POLITICAL,
            radius * 0.1,
            dash=f"{num(radius * 0.18)} {num(radius * 0.12)}",
            cls="political-border",
        )


def _coordinates(
    root: ET.Element, board: Board, centers: Mapping[str, tuple[float, float]], radius: float
) -> None:
    """Row letters on the left and right, column numbers on top and bottom."""
    spec = board.spec
    g = sub(root, "g", id="coordinates", fill="#444")
    rows: dict[str, float] = {}
    cols: dict[int, float] = {}
    for hid in board.hexes:
        letter, number = parse_hex_id(hid)
        x, y = centers[hid]
        letters = hid[: len(hid) - len(str(number))]
        if spec.letter_is_row:
            rows[letters] = y
            cols[number] = x
        else:
            rows[str(number)] = y
            cols[letter] = x
    xs = [x for x, _ in centers.values()]
    ys = [y for _, y in centers.values()]
    size = radius * 0.3
    for label, y in rows.items():
        text(g, min(xs) - radius * 1.15, y, label, size, weight="bold")
        text(g, max(xs) + radius * 1.15, y, label, size, weight="bold")
    for key, x in cols.items():
        label = str(key) if spec.letter_is_row else letters_for(key)
        text(g, x, min(ys) - radius * 1.15, label, size, weight="bold")
        text(g, x, max(ys) + radius * 1.15, label, size, weight="bold")


def _routes(
    root: ET.Element,
    scene: MapScene,
    centers: Mapping[str, tuple[float, float]],
    layouts: Mapping[str, TileLayout],
    radius: float,
) -> None:
    g = sub(root, "g", id="map-routes", data_corporation=scene.routes_of or "")
    n = len(scene.routes)
    for index, route in enumerate(scene.routes):
        color = TRAIN_COLORS[index % len(TRAIN_COLORS)]
        curves: list[Cubic] = []
        for hid, path in route.paths:
            x, y = centers[hid]
            for piece in layouts[hid].pieces:
                if piece.path == path:
                    curves.append(_shift(piece.curve, x, y))
        width = radius * (0.11 + 0.05 * (n - 1 - index))
        rg = sub(
            g,
            "g",
            class_="route",
            data_train=route.label,
            data_index=str(index),
            data_color=color,
            data_revenue=None if route.revenue is None else str(route.revenue),
        )
        if curves:
            sub(
                rg,
                "path",
                d=path_d(curves),
                fill="none",
                stroke=color,
                stroke_width=width,
                stroke_linecap="round",
                stroke_opacity="0.85",
            )
        for hid, node in route.stops:
            x, y = centers[hid]
            lay = layouts[hid]
            if node < len(lay.nodes):
                nx, ny = lay.nodes[node]
                sub(
                    rg,
                    "circle",
                    cx=x + nx,
                    cy=y + ny,
                    r=radius * 0.27,
                    fill="none",
                    stroke=color,
                    stroke_width=radius * 0.06,
                )
        if route.revenue is not None and route.stops:
            _revenue_badge(rg, route, centers, layouts, radius, color, index)


def _revenue_badge(
    g: ET.Element,
    route: RouteLine,
    centers: Mapping[str, tuple[float, float]],
    layouts: Mapping[str, TileLayout],
    radius: float,
    color: str,
    index: int,
) -> None:
    """The train's revenue in its colour beside the route's last stop (badges of several
    trains ending at one stop stand one above the other)."""
    hid, node = route.stops[-1]
    x, y = centers[hid]
    lay = layouts[hid]
    nx, ny = lay.nodes[node] if node < len(lay.nodes) else (0.0, 0.0)
    label = str(route.revenue)
    w = radius * (0.2 + 0.17 * len(label))
    h = radius * 0.36
    bx = x + nx + radius * 0.3
    by = y + ny - radius * 0.55 - index * h * 1.1
    badge = sub(g, "g", class_="route-revenue")
    sub(badge, "rect", x=bx, y=by, width=w, height=h, rx=h / 3, fill=color, stroke="#fff",
        stroke_width=radius * 0.03)  # fmt: skip
    text(badge, bx + w / 2, by + h / 2, label, h * 0.7, weight="bold", fill="#fff")


def _shift(c: Cubic, dx: float, dy: float) -> Cubic:
    return (
        (c[0][0] + dx, c[0][1] + dy),
        (c[1][0] + dx, c[1][1] + dy),
        (c[2][0] + dx, c[2][1] + dy),
        (c[3][0] + dx, c[3][1] + dy),
    )


def _legend(root: ET.Element, scene: MapScene, top: float, radius: float) -> None:
    g = sub(root, "g", id="legend")
    size = radius * 0.3
    y = top + radius * 0.2
    text(g, radius * 0.5, y, scene.caption, size, anchor="start", weight="bold")
    for index, route in enumerate(scene.routes):
        y += radius * 0.45
        color = TRAIN_COLORS[index % len(TRAIN_COLORS)]
        sub(
            g,
            "line",
            x1=radius * 0.5,
            y1=y,
            x2=radius * 1.3,
            y2=y,
            stroke=color,
            stroke_width=radius * 0.14,
            stroke_linecap="round",
        )
        revenue = "" if route.revenue is None else f": {route.revenue}"
        text(g, radius * 1.5, y, f"{route.label}{revenue}", size * 0.85, anchor="start")
