"""Drawing one hex: its tile's colour, track, towns, cities with tokens, revenues and labels.

Everything is drawn in hex-local coordinates (centre at the origin) into a group the caller
places.  The positions of free-standing marks (revenue, label, terrain, port) are chosen per
hex among a few candidate spots, the one farthest from track and nodes (:class:`Spots`).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from stellwerk.core.map.geometry import Layout
from stellwerk.core.map.state import CityState, HexState
from stellwerk.core.map.tiles import NodeKind, RotatedTile
from stellwerk.pictures.geometry import (
    Point,
    TileLayout,
    corners,
    edge_angle,
    edge_ends,
    tile_layout,
    unit,
)
from stellwerk.pictures.style import HEX_FILL, REVENUE_BOX, CorpColors
from stellwerk.pictures.svg import num, path_d, polygon_points, sub, text

TRACK = "#000"
NARROW = "DejaVu Sans Condensed, Arial Narrow, sans-serif"
"""Font of token symbols (up to five letters in a small circle)."""
CASING = "#fff"


@dataclass(slots=True)
class Spots:
    """Free places in a hex: obstacles as (point, radius); :meth:`take` picks the candidate
    farthest from them and records it."""

    obstacles: list[tuple[Point, float]] = field(default_factory=list)

    def add(self, p: Point, r: float) -> None:
        self.obstacles.append((p, r))

    def take(self, candidates: Sequence[Point], r: float) -> Point:
        best = candidates[0]
        best_score = -math.inf
        for c in candidates:
            score = min(
                (math.hypot(c[0] - p[0], c[1] - p[1]) - pr - r for p, pr in self.obstacles),
                default=math.inf,
            )
            if score > best_score + 1e-6:
                best, best_score = c, score
        self.add(best, r)
        return best

    def take_wide(self, candidates: Sequence[Point], half_width: float, r: float) -> Point:
        """Like :meth:`take` for a text ``2 * half_width`` wide (scored at its ends too)."""
        best = candidates[0]
        best_score = -math.inf
        for c in candidates:
            points = [(c[0] + f * half_width, c[1]) for f in (-1.0, -0.5, 0.0, 0.5, 1.0)]
            score = min(
                (
                    math.hypot(q[0] - p[0], q[1] - p[1]) - pr - r
                    for q in points
                    for p, pr in self.obstacles
                ),
                default=math.inf,
            )
            if score > best_score + 1e-6:
                best, best_score = c, score
        for f in (-1.0, 0.0, 1.0):
            self.add((best[0] + f * half_width, best[1]), r)
        return best


def ring(layout: Layout, radius: float, factor: float, at_corners: bool) -> list[Point]:
    """Six points at ``factor`` R towards the corners (or the edge midpoints)."""
    out = []
    for e in range(6):
        a = edge_angle(e, layout) + (30.0 if at_corners else 0.0)
        ux, uy = unit(a)
        out.append((ux * radius * factor, uy * radius * factor))
    return out


def slot_offsets(slots: int, rs: float) -> list[Point]:
    """Centres of a city's token slots around the city's position."""
    if slots <= 1:
        return [(0.0, 0.0)]
    if slots == 2:
        return [(-rs, 0.0), (rs, 0.0)]
    if slots == 3:
        return [(0.0, -rs * 1.15), (-rs, rs * 0.58), (rs, rs * 0.58)]
    if slots == 4:
        return [(-rs, -rs), (rs, -rs), (-rs, rs), (rs, rs)]
    d = rs / math.sin(math.pi / slots)
    return [
        (
            d * math.cos(2 * math.pi * i / slots - math.pi / 2),
            d * math.sin(2 * math.pi * i / slots - math.pi / 2),
        )
        for i in range(slots)
    ]


def token(
    g: ET.Element,
    p: Point,
    r: float,
    sym: str,
    colors: CorpColors,
    *,
    reserved: bool = False,
    corp_id: str | None = None,
) -> None:
    """A token (filled) or a reservation (dashed ring) of corporation ``sym`` at ``p``."""
    size = r * min(0.95, 3.0 / max(len(sym), 1))
    if reserved:
        sub(
            g,
            "circle",
            cx=p[0],
            cy=p[1],
            r=r * 0.92,
            fill="#fff",
            stroke=colors.fill if colors.fill.lower() != "#ffffff" else "#000",
            stroke_width=r * 0.16,
            stroke_dasharray=f"{num(r * 0.3)} {num(r * 0.2)}",
            class_="reservation",
            data_corporation=corp_id or sym,
        )
        text(g, p[0], p[1], sym, size, fill="#555", weight="bold", font_family=NARROW)
        return
    sub(
        g,
        "circle",
        cx=p[0],
        cy=p[1],
        r=r * 0.92,
        fill=colors.fill,
        stroke="#000",
        stroke_width=r * 0.08,
        class_="token",
        data_corporation=corp_id or sym,
    )
    text(g, p[0], p[1], sym, size, fill=colors.text, weight="bold", font_family=NARROW)


def badge(g: ET.Element, p: Point, value: int, r: float) -> None:
    """A revenue in a white circle."""
    sub(g, "circle", cx=p[0], cy=p[1], r=r, fill="#fff", stroke="#000", stroke_width=r * 0.08)
    label = str(value)
    text(g, p[0], p[1], label, r * (1.1 if len(label) <= 2 else 0.85), class_="revenue")


def revenue_boxes(
    g: ET.Element,
    p: Point,
    columns: Sequence[tuple[str, int]],
    radius: float,
    active: str | None,
) -> float:
    """Phase revenues of an off-board as a row of coloured boxes; returns the row's width."""
    digits = max((len(str(v)) for _, v in columns), default=2)
    w, h = radius * (0.3 if digits <= 2 else 0.4), radius * 0.28
    total = w * len(columns)
    x0 = p[0] - total / 2
    for i, (column, value) in enumerate(columns):
        fill, ink = REVENUE_BOX.get(column, ("#fff", "#000"))
        x = x0 + i * w
        sub(
            g,
            "rect",
            x=x,
            y=p[1] - h / 2,
            width=w,
            height=h,
            fill=fill,
            stroke="#000",
            stroke_width=radius * (0.05 if column == active else 0.015),
            class_="phase-revenue",
            data_phase=column,
        )
        text(g, x + w / 2, p[1], str(value), h * 0.6, fill=ink, weight="bold")
    if active is not None:
        for i, (column, _) in enumerate(columns):
            if column == active:
                x = x0 + i * w
                sub(
                    g,
                    "rect",
                    x=x - radius * 0.02,
                    y=p[1] - h / 2 - radius * 0.02,
                    width=w + radius * 0.04,
                    height=h + radius * 0.04,
                    fill="none",
                    stroke="#c00",
                    stroke_width=radius * 0.04,
                )
    return total


@dataclass(frozen=True, slots=True)
class HexMarks:
    """What is printed on a hex besides its tile."""

    hex_id: str
    location: str | None = None
    terrain_cost: int = 0
    terrain: str = ""
    port: bool = False
    show_coordinate: bool = True
    tile_name: str | None = None


def hex_marks(hex_id: str, state: HexState) -> HexMarks:
    """What the map prints on a hex besides its tile: the terrain cost only while the printed
    tile is there, the name of a laid tile."""
    spec = state.spec
    return HexMarks(
        hex_id=hex_id,
        location=spec.location,
        terrain_cost=spec.terrain_cost if state.is_preprinted else 0,
        terrain=spec.terrain,
        port=spec.port,
        tile_name=None if state.is_preprinted else state.tile.name,
    )


def _draw_track(g: ET.Element, lay: TileLayout, radius: float, color: str) -> None:
    w = radius * 0.13
    broad = [p.curve for p in lay.pieces if not p.stub and p.gauge != "narrow"]
    narrow = [p.curve for p in lay.pieces if not p.stub and p.gauge == "narrow"]
    dual = [p.curve for p in lay.pieces if not p.stub and p.gauge == "dual"]
    every = broad + narrow
    if every:
        sub(g, "path", d=path_d(every), fill="none", stroke=CASING, stroke_width=w * 1.6)
    if broad:
        sub(g, "path", d=path_d(broad), fill="none", stroke=color, stroke_width=w, class_="track")
    if dual:
        sub(g, "path", d=path_d(dual), fill="none", stroke="#fff", stroke_width=w * 0.25)
    if narrow:
        # narrow gauge: a thin rail with sleepers across it
        sub(
            g,
            "path",
            d=path_d(narrow),
            fill="none",
            stroke=color,
            stroke_width=w * 1.3,
            stroke_dasharray=f"{num(w * 0.35)} {num(w * 0.55)}",
            class_="track narrow",
        )
        sub(g, "path", d=path_d(narrow), fill="none", stroke=color, stroke_width=w * 0.4)
    for piece in lay.pieces:
        if piece.stub:
            (a, _, _, b) = piece.curve
            dx, dy = b[0] - a[0], b[1] - a[1]
            n = math.hypot(dx, dy) or 1.0
            px, py = -dy / n * w * 1.1, dx / n * w * 1.1
            sub(
                g,
                "polygon",
                points=polygon_points([(a[0] + px, a[1] + py), (a[0] - px, a[1] - py), b]),
                fill=color,
                class_="track",
            )


def draw_hex(
    g: ET.Element,
    placed: RotatedTile,
    layout: Layout,
    radius: float,
    marks: HexMarks,
    cities: Sequence[CityState] | None,
    colors: Mapping[str, CorpColors],
    *,
    active_column: str | None = None,
    homes: Mapping[int, Sequence[str]] | None = None,
) -> TileLayout:
    """Draw a hex's tile and marks into ``g`` (hex-local coordinates); returns the layout of
    its track (route overlays use it)."""
    tile = placed.tile
    sub(
        g,
        "polygon",
        points=polygon_points(corners(layout, radius)),
        fill=HEX_FILL.get(tile.color, "#fff"),
        stroke="#666",
        stroke_width=radius * 0.02,
        class_=f"hex {tile.color}",
    )
    lay = tile_layout(placed, layout, radius)
    spots = Spots([(p, radius * 0.08) for p in lay.samples])
    _draw_track(g, lay, radius, TRACK)

    rs = radius * 0.2
    city_index = 0
    for i, node in enumerate(tile.nodes):
        p = lay.nodes[i]
        if node.kind is NodeKind.TOWN:
            angle = lay.track_angles[i] if i < len(lay.track_angles) else None
            if angle is not None:  # a town on through track: a bar across it
                sub(
                    g,
                    "rect",
                    x=-radius * 0.07,
                    y=-radius * 0.2,
                    width=radius * 0.14,
                    height=radius * 0.4,
                    fill="#000",
                    stroke="#fff",
                    stroke_width=radius * 0.02,
                    transform=f"translate({num(p[0])} {num(p[1])}) rotate({num(angle)})",
                    class_="town",
                    data_node=f"{marks.hex_id}.{i}",
                )
            else:
                sub(
                    g,
                    "circle",
                    cx=p[0],
                    cy=p[1],
                    r=radius * 0.1,
                    fill="#000",
                    stroke="#fff",
                    stroke_width=radius * 0.025,
                    class_="town",
                    data_node=f"{marks.hex_id}.{i}",
                )
            spots.add(p, radius * 0.12)
        elif node.kind is NodeKind.CITY:
            slots = max(node.slots, 1)
            small = rs * (0.85 if slots >= 3 else 1.0)
            offsets = slot_offsets(slots, small)
            extent = max(math.hypot(x, y) for x, y in offsets) + small
            # the city's group holds its outline and slots, so a click anywhere on the city
            # finds ``data-city`` ("H12:0", hex and 18xx.games city index: the web pages)
            city_g = sub(
                g,
                "g",
                class_="city",
                data_city=f"{marks.hex_id}:{city_index}",
                data_node=f"{marks.hex_id}.{i}",  # a route's stop: hex and tile node index
            )
            _city_outline(city_g, p, slots, small, extent)
            state = cities[city_index] if cities is not None and city_index < len(cities) else None
            home_here = list((homes or {}).get(city_index, ()))
            for s, (ox, oy) in enumerate(offsets):
                c = (p[0] + ox, p[1] + oy)
                holder = state.tokens[s] if state is not None and s < len(state.tokens) else None
                reserved = (
                    state.reservations[s]
                    if state is not None and s < len(state.reservations)
                    else None
                )
                if holder is not None:
                    token(city_g, c, small, holder, colors.get(holder, _UNKNOWN), corp_id=holder)
                elif reserved is not None:
                    token(city_g, c, small, reserved, colors.get(reserved, _UNKNOWN), reserved=True)
                elif home_here:
                    sym = home_here.pop(0)
                    token(city_g, c, small, sym, colors.get(sym, _UNKNOWN), reserved=True)
            spots.add(p, extent)
            city_index += 1
        else:
            spots.add(p, radius * 0.2)

    if marks.show_coordinate:  # keep the coordinate's corner free of revenue badges
        spots.add(coordinate_spot(layout, radius), radius * 0.12)
    _draw_revenues(g, placed, lay, layout, radius, spots, active_column)
    _draw_marks(g, placed, layout, radius, spots, marks)
    return lay


def coordinate_spot(layout: Layout, radius: float) -> Point:
    """Where a hex's coordinate is written: the left corner of a flat hex, the top of a
    pointy one (as printed boards do)."""
    return (-0.74 * radius, 0.0) if layout is Layout.FLAT else (0.0, -0.8 * radius)


_UNKNOWN = CorpColors("#cccccc", "#000")


def _city_outline(g: ET.Element, p: Point, slots: int, rs: float, extent: float) -> None:
    sw = rs * 0.1
    if slots == 1:
        sub(g, "circle", cx=p[0], cy=p[1], r=rs, fill="#fff", stroke="#000", stroke_width=sw)
    elif slots in (2, 4):
        h = rs * (2 if slots == 2 else 4)
        sub(
            g,
            "rect",
            x=p[0] - 2 * rs,
            y=p[1] - h / 2,
            width=4 * rs,
            height=h,
            rx=rs,
            fill="#fff",
            stroke="#000",
            stroke_width=sw,
        )
    else:
        sub(g, "circle", cx=p[0], cy=p[1], r=extent, fill="#fff", stroke="#000", stroke_width=sw)


def _draw_revenues(
    g: ET.Element,
    placed: RotatedTile,
    lay: TileLayout,
    layout: Layout,
    radius: float,
    spots: Spots,
    active_column: str | None,
) -> None:
    tile = placed.tile
    stops = [
        i
        for i, n in enumerate(tile.nodes)
        if n.kind is not NodeKind.OFFBOARD or not n.phase_revenue
    ]
    values = {tile.nodes[i].revenue for i in stops if not tile.nodes[i].phase_revenue}
    br = radius * 0.17
    candidates = ring(layout, radius, 0.6, True) + ring(layout, radius, 0.5, False)
    if len(stops) > 1 and len(values) == 1 and not any(tile.nodes[i].phase_revenue for i in stops):
        value = values.pop()
        if value:
            badge(g, spots.take(candidates, br), value, br)
    else:
        for i in stops:
            node = tile.nodes[i]
            if node.phase_revenue:
                p = spots.take([(0.0, 0.0), *ring(layout, radius, 0.45, False)], radius * 0.3)
                revenue_boxes(g, p, node.phase_revenue, radius, active_column)
                continue
            if not node.revenue:
                continue
            p = lay.nodes[i]
            near = [(p[0] + x * 0.7, p[1] + y * 0.7) for x, y in ring(layout, radius, 0.55, True)]
            badge(g, spots.take([*near, *candidates], br), node.revenue, br)
    for i, node in enumerate(tile.nodes):
        if node.kind is NodeKind.OFFBOARD and node.phase_revenue:
            # the boxes stand back from the arrows pointing into the off-board
            exits = placed.node_exits[i]
            sx = sum(unit(edge_angle(e, layout))[0] for e in exits)
            sy = sum(unit(edge_angle(e, layout))[1] for e in exits)
            norm = math.hypot(sx, sy)
            p = lay.nodes[i]
            if norm > 0.3:
                p = (p[0] - sx / norm * radius * 0.22, p[1] - sy / norm * radius * 0.22)
            spots.add(p, radius * 0.35)
            revenue_boxes(g, (p[0], p[1]), node.phase_revenue, radius, active_column)


def _draw_marks(
    g: ET.Element,
    placed: RotatedTile,
    layout: Layout,
    radius: float,
    spots: Spots,
    marks: HexMarks,
) -> None:
    tile = placed.tile
    flat = layout is Layout.FLAT
    if marks.show_coordinate:
        p = coordinate_spot(layout, radius)
        text(g, p[0], p[1], marks.hex_id, radius * 0.14, fill="#666", class_="coordinate")
    if marks.location:
        name = marks.location
        size = min(radius * 0.17, radius * 1.5 / (0.58 * max(len(name), 1)))
        half = min(len(name) * size * 0.3, radius * 0.75)
        p = spots.take_wide(
            [(0.0, 0.7 * radius), (0.0, -0.66 * radius), (0.0, 0.5 * radius), (0.0, -0.5 * radius)],
            half,
            radius * 0.08,
        )
        _halo_text(g, p, name, size, "location")
    if tile.label:
        p = spots.take(ring(layout, radius, 0.58, True), radius * 0.14)
        text(g, p[0], p[1], tile.label, radius * 0.26, weight="bold", class_="label")
    cost = marks.terrain_cost
    if cost:
        p = spots.take(ring(layout, radius, 0.56, True), radius * 0.2)
        terrain_mark(g, p, cost, marks.terrain, radius)
    if marks.port:
        p = spots.take(ring(layout, radius, 0.55, True), radius * 0.16)
        text(g, p[0], p[1], "\u2693", radius * 0.32, fill="#0b3d91", class_="port")
    if marks.tile_name:
        p = (0.42 * radius, 0.62 * radius) if flat else (0.5 * radius, 0.55 * radius)
        text(g, p[0], p[1], marks.tile_name, radius * 0.12, fill="#333", class_="tile-name")


TERRAIN_STYLE: Mapping[str, tuple[str, str]] = {
    "mountain": ("#8b6b3e", "#fff"),
    "water": ("#2f7fd1", "#fff"),
    "swamp": ("#5a8f3c", "#fff"),
}
"""Fill and figure colour of a terrain cost by kind, as printed boards show them: a brown
triangle for mountains, a blue wave-topped shield for rivers, a green one for swamps."""


def terrain_mark(g: ET.Element, p: Point, cost: int, kind: str, radius: float) -> None:
    """The terrain cost ``cost`` at ``p``: a mountain triangle, a water or swamp badge by
    ``kind``, or a plain box when the data does not say what it is for (a pass upgrade)."""
    s = radius * 0.2
    x, y = p
    if kind == "mountain" or (kind and kind not in TERRAIN_STYLE):
        points = [(x - s, y + s * 0.55), (x + s, y + s * 0.55), (x, y - s * 0.9)]
        fill, ink = TERRAIN_STYLE["mountain"]
        sub(g, "polygon", points=polygon_points(points), fill=fill, stroke="#000",
            stroke_width=radius * 0.015, class_="terrain mountain")  # fmt: skip
        text(g, x, y + s * 0.12, str(cost), s * 0.72, fill=ink, weight="bold")
        return
    if kind in TERRAIN_STYLE:
        fill, ink = TERRAIN_STYLE[kind]
        w, h = s * 1.1, s * 0.7
        wave = (
            f"M {num(x - w)} {num(y - h)} q {num(w / 2)} {num(-h * 0.6)} {num(w)} 0 "
            f"t {num(w)} 0 L {num(x + w)} {num(y + h)} L {num(x - w)} {num(y + h)} Z"
        )
        sub(g, "path", d=wave, fill=fill, stroke="#000", stroke_width=radius * 0.015,
            class_=f"terrain {kind}")  # fmt: skip
        text(g, x, y + h * 0.15, str(cost), s * 0.72, fill=ink, weight="bold")
        return
    w, h = s * 0.95, s * 0.6
    sub(g, "rect", x=x - w, y=y - h, width=2 * w, height=2 * h, fill="#fff", stroke="#000",
        stroke_width=radius * 0.015, class_="terrain")  # fmt: skip
    text(g, x, y, str(cost), s * 0.72, weight="bold")


def _halo_text(g: ET.Element, p: Point, content: str, size: float, cls: str) -> None:
    """A text on a white halo, both in one ``<g class="CLS-label">`` (the map lifts these
    above every hex, so a long name is not hidden under the next hex)."""
    label = sub(g, "g", class_=f"{cls}-label")
    text(label, p[0], p[1], content, size, fill="#fff", stroke="#fff", stroke_width=size * 0.3)
    text(label, p[0], p[1], content, size, class_=cls)


def edge_line(
    g: ET.Element,
    edge: int,
    layout: Layout,
    radius: float,
    color: str,
    width: float,
    dash: str | None = None,
    cls: str | None = None,
) -> None:
    """A thick line along one edge (impassable side or border)."""
    a, b = edge_ends(edge, layout, radius)
    sub(
        g,
        "line",
        x1=a[0],
        y1=a[1],
        x2=b[0],
        y2=b[1],
        stroke=color,
        stroke_width=width,
        stroke_linecap="round",
        stroke_dasharray=dash,
        class_=cls,
    )
