"""Screen geometry of hexes and of the track on a tile (common rules §1.2-1.3).

Screen coordinates have y pointing down.  Edges are numbered clockwise as on screen (common
rules §1.2): on a flat board edge 0 is the bottom edge, on a pointy board edge 0 is the lower
left one.  A hex id ``(letter, number)`` becomes a row and column in doubled coordinates (the
neighbour deltas of core/map/geometry.py): on a flat board columns are 1.5 R apart and rows
R·√3/2; on a pointy board columns R·√3/2 and rows 1.5 R.

Track pieces are cubic Bézier curves: an edge-to-edge curve is the circular arc that leaves
both edges at right angles (the sharp curve around the shared corner, the gentle one around the
meeting point of the two edge lines), as on the printed tiles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from stellwerk.core.map.geometry import Layout, parse_hex_id
from stellwerk.core.map.tiles import NODE_BASE, NodeKind, RotatedTile

SQRT3 = math.sqrt(3.0)
Point = tuple[float, float]
Cubic = tuple[Point, Point, Point, Point]


def _base_angle(layout: Layout) -> float:
    """Angle (degrees, screen) of the outward normal of edge 0."""
    return 90.0 if layout is Layout.FLAT else 120.0


def edge_angle(edge: int, layout: Layout) -> float:
    """Angle of the outward normal of ``edge`` in degrees (screen, clockwise from east)."""
    return _base_angle(layout) + 60.0 * edge


def unit(angle_degrees: float) -> Point:
    rad = math.radians(angle_degrees)
    return (math.cos(rad), math.sin(rad))


def edge_mid(edge: int, layout: Layout, radius: float) -> Point:
    """Midpoint of ``edge`` of a hex centred on the origin."""
    ux, uy = unit(edge_angle(edge, layout))
    d = radius * SQRT3 / 2
    return (ux * d, uy * d)


def corners(layout: Layout, radius: float) -> list[Point]:
    """The six corners of a hex centred on the origin."""
    start = 0.0 if layout is Layout.FLAT else 30.0
    return [
        (
            radius * math.cos(math.radians(start + 60 * i)),
            radius * math.sin(math.radians(start + 60 * i)),
        )
        for i in range(6)
    ]


def edge_ends(edge: int, layout: Layout, radius: float) -> tuple[Point, Point]:
    """The two corners bounding ``edge``."""
    a = edge_angle(edge, layout)
    p = unit(a - 30.0)
    q = unit(a + 30.0)
    return ((p[0] * radius, p[1] * radius), (q[0] * radius, q[1] * radius))


def hex_center(hex_id: str, layout: Layout, letter_is_row: bool, radius: float) -> Point:
    """Centre of a hex on the board (before the margin shift)."""
    letter, number = parse_hex_id(hex_id)
    row, col = (letter, number) if letter_is_row else (number, letter)
    if layout is Layout.FLAT:
        return (col * 1.5 * radius, row * radius * SQRT3 / 2)
    return (col * radius * SQRT3 / 2, row * 1.5 * radius)


def lerp(p: Point, q: Point, t: float) -> Point:
    return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)


def cubic_at(c: Cubic, t: float) -> Point:
    p0, p1, p2, p3 = c
    a, b, cc = lerp(p0, p1, t), lerp(p1, p2, t), lerp(p2, p3, t)
    d, e = lerp(a, b, t), lerp(b, cc, t)
    return lerp(d, e, t)


def split_cubic(c: Cubic, t: float) -> tuple[Cubic, Cubic]:
    """De Casteljau split of a cubic at ``t``."""
    p0, p1, p2, p3 = c
    a, b, cc = lerp(p0, p1, t), lerp(p1, p2, t), lerp(p2, p3, t)
    d, e = lerp(a, b, t), lerp(b, cc, t)
    m = lerp(d, e, t)
    return (p0, a, d, m), (m, e, cc, p3)


def line(p: Point, q: Point) -> Cubic:
    return (p, lerp(p, q, 1 / 3), lerp(p, q, 2 / 3), q)


def edge_curve(e1: int, e2: int, layout: Layout, radius: float) -> Cubic:
    """Track from edge ``e1`` to edge ``e2``: straight, gentle or sharp curve."""
    a = edge_mid(e1, layout, radius)
    b = edge_mid(e2, layout, radius)
    diff = (e2 - e1) % 6
    if diff == 3:
        return line(a, b)
    if diff in (1, 5):  # sharp: arc of 120 degrees, radius R/2, around the shared corner
        r, theta = radius / 2, 120.0
    else:  # gentle: arc of 60 degrees, radius 1.5 R
        r, theta = 1.5 * radius, 60.0
    k = 4 / 3 * math.tan(math.radians(theta / 4)) * r
    # control points go inwards, perpendicular to each edge
    ua, ub = unit(edge_angle(e1, layout)), unit(edge_angle(e2, layout))
    return (
        a,
        (a[0] - ua[0] * k, a[1] - ua[1] * k),
        (b[0] - ub[0] * k, b[1] - ub[1] * k),
        b,
    )


def edge_to_point(edge: int, point: Point, layout: Layout, radius: float) -> Cubic:
    """Track from an edge to a node: leaves the edge at a right angle, bends to the node."""
    a = edge_mid(edge, layout, radius)
    ua = unit(edge_angle(edge, layout))
    dist = math.hypot(point[0] - a[0], point[1] - a[1])
    k = dist * 0.45
    c1 = (a[0] - ua[0] * k, a[1] - ua[1] * k)
    return (a, c1, lerp(c1, point, 0.5), point)


@dataclass(frozen=True, slots=True)
class TrackPiece:
    """One drawn part of a path: its Bézier, gauge name, and whether it is an off-board stub."""

    path: int
    curve: Cubic
    gauge: str
    stub: bool


@dataclass(frozen=True, slots=True)
class TileLayout:
    """Where the nodes of a rotated tile sit and the pieces its paths are drawn with."""

    nodes: tuple[Point, ...]
    pieces: tuple[TrackPiece, ...]
    samples: tuple[Point, ...] = ()
    """Points along the track (where marks should not go)."""
    track_angles: tuple[float | None, ...] = ()
    """Per node: the direction of the track through a town sitting on it (drawn as a bar
    across the track), else None."""


def _mean_direction(edges: frozenset[int], layout: Layout) -> Point | None:
    sx = sum(unit(edge_angle(e, layout))[0] for e in edges)
    sy = sum(unit(edge_angle(e, layout))[1] for e in edges)
    n = math.hypot(sx, sy)
    if n < 0.3:
        return None
    return (sx / n, sy / n)


def _node_radius_factor(kind: NodeKind, slots: int) -> float:
    if kind is NodeKind.TOWN:
        return 0.5
    return 0.5 if slots <= 1 else 0.45


def _far_enough(p: Point, placed: list[Point], radius: float) -> bool:
    return all(math.hypot(p[0] - q[0], p[1] - q[1]) > 0.35 * radius for q in placed)


_LAYOUTS: dict[tuple[int, Layout, float], tuple[RotatedTile, TileLayout]] = {}


def tile_layout(placed: RotatedTile, layout: Layout, radius: float) -> TileLayout:
    """:func:`compute_tile_layout`, kept per rotated tile object (a tile keeps its rotations,
    so the object, held in the value, identifies it)."""
    key = (id(placed), layout, radius)
    found = _LAYOUTS.get(key)
    if found is None or found[0] is not placed:
        found = _LAYOUTS[key] = (placed, compute_tile_layout(placed, layout, radius))
    return found[1]


def clear_layouts() -> None:
    """Forget the kept layouts (benchmarks)."""
    _LAYOUTS.clear()


def compute_tile_layout(placed: RotatedTile, layout: Layout, radius: float) -> TileLayout:
    """Node positions and track pieces of a rotated tile in hex-local coordinates.

    One node alone sits in the centre, except a town with two exits, which sits on the curve
    between them; with several nodes each sits towards the mean of its exits, nodes without
    track are spread across the hex; a town with two exits always sits on its curve."""
    tile = placed.tile
    n = len(tile.nodes)
    positions: list[Point | None] = [None] * n
    curve_of: dict[int, Cubic] = {}
    for i, node in enumerate(tile.nodes):
        exits = placed.node_exits[i]
        if node.kind is NodeKind.TOWN and len(exits) == 2 and len(placed.node_paths[i]) == 2:
            e1, e2 = sorted(exits)
            curve_of[i] = edge_curve(e1, e2, layout, radius)
    done: list[Point] = []
    angles: list[float | None] = [None] * n
    for i in curve_of:
        curve = curve_of[i]
        for t in (0.5, 0.3, 0.7, 0.2, 0.8):
            p = cubic_at(curve, t)
            if _far_enough(p, done, radius):
                break
        positions[i] = p
        done.append(p)
        ahead = cubic_at(curve, min(t + 0.02, 1.0))
        behind = cubic_at(curve, max(t - 0.02, 0.0))
        angles[i] = math.degrees(math.atan2(ahead[1] - behind[1], ahead[0] - behind[0]))
    rest = [i for i in range(n) if positions[i] is None]
    if n == 1 and rest:
        positions[0] = (0.0, 0.0)
    elif rest:
        trackless = []
        for i in rest:
            node = tile.nodes[i]
            direction = _mean_direction(placed.node_exits[i], layout)
            if node.kind is NodeKind.OFFBOARD or (direction is None and placed.node_exits[i]):
                p = (0.0, 0.0)
                if not _far_enough(p, done, radius) and direction is not None:
                    p = (direction[0] * 0.3 * radius, direction[1] * 0.3 * radius)
                positions[i] = p
                done.append(p)
            elif direction is None:
                trackless.append(i)
            else:
                f = _node_radius_factor(node.kind, node.slots) * radius
                p = (direction[0] * f, direction[1] * f)
                if not _far_enough(p, done, radius):
                    p = (direction[0] * f * 0.6, direction[1] * f * 0.6)
                positions[i] = p
                done.append(p)
        if trackless:
            k = len(trackless)
            start = 180.0 if layout is Layout.FLAT else 150.0
            for j, i in enumerate(trackless):
                node = tile.nodes[i]
                f = _node_radius_factor(node.kind, node.slots) * radius
                if k == 1 and not done:
                    p = (0.0, 0.0)
                else:
                    ang = start + j * 360.0 / max(k, 2)
                    if k == 1 and done:
                        mx = sum(q[0] for q in done) / len(done)
                        my = sum(q[1] for q in done) / len(done)
                        ang = math.degrees(math.atan2(-my, -mx)) if (mx or my) else ang
                    ux, uy = unit(ang)
                    p = (ux * f, uy * f)
                positions[i] = p
                done.append(p)
    nodes = tuple(p if p is not None else (0.0, 0.0) for p in positions)

    pieces: list[TrackPiece] = []
    for rp in placed.paths:
        gauge = rp.gauge.value
        a, b = rp.ends
        if a < NODE_BASE and b < NODE_BASE:
            pieces.append(TrackPiece(rp.index, edge_curve(a, b, layout, radius), gauge, False))
            continue
        if a >= NODE_BASE and b >= NODE_BASE:
            pa, pb = nodes[a - NODE_BASE], nodes[b - NODE_BASE]
            pieces.append(TrackPiece(rp.index, line(pa, pb), gauge, False))
            continue
        edge, node_index = (a, b - NODE_BASE) if a < NODE_BASE else (b, a - NODE_BASE)
        node = tile.nodes[node_index]
        if node_index in curve_of:
            curve = curve_of[node_index]
            e1 = sorted(placed.node_exits[node_index])[0]
            t = _param_of(curve, nodes[node_index])
            first, second = split_cubic(curve, t)
            pieces.append(
                TrackPiece(rp.index, first if edge == e1 else _reverse(second), gauge, False)
            )
            continue
        if node.kind is NodeKind.OFFBOARD:
            mid = edge_mid(edge, layout, radius)
            pieces.append(TrackPiece(rp.index, line(mid, lerp(mid, (0.0, 0.0), 0.55)), gauge, True))
            continue
        pieces.append(
            TrackPiece(
                rp.index, edge_to_point(edge, nodes[node_index], layout, radius), gauge, False
            )
        )
    samples = tuple(cubic_at(p.curve, t) for p in pieces for t in (0.0, 0.25, 0.5, 0.75, 1.0))
    return TileLayout(nodes, tuple(pieces), samples, tuple(angles))


def _reverse(c: Cubic) -> Cubic:
    return (c[3], c[2], c[1], c[0])


def _param_of(curve: Cubic, point: Point) -> float:
    best, best_d = 0.5, math.inf
    for step in range(1, 20):
        t = step / 20
        p = cubic_at(curve, t)
        d = math.hypot(p[0] - point[0], p[1] - point[1])
        if d < best_d:
            best, best_d = t, d
    return best
