"""Tile shape rules: which tile may replace which, and in which rotation (common rules §6.3).

``upgrade_shape_error`` is the rotation-free test the reference engine runs even when loading a
game (colour, track preserved in some rotation, label, town/city counts).  ``rotation_error`` is
the per-rotation test it skips when loading, and we skip under ``Policy.lay_position`` off
(exits face linked hexes, old paths kept in this rotation, city counts and mapping).
"""

from __future__ import annotations

from collections.abc import Callable

from stellwerk.core.map.tiles import COLORS, NODE_BASE, RotatedTile, RPath, TileDef


def _end_kind(tile: TileDef, end: int) -> tuple[str, int]:
    if end < NODE_BASE:
        return ("e", end)
    return (tile.nodes[end - NODE_BASE].kind.value, 0)


def path_kept_by(old: RPath, old_tile: TileDef, new: RPath, new_tile: TileDef) -> bool:
    """Old path contained in new path: every old end matches a new end (same edge, or same
    node kind) and the gauge is kept (18xx.games Path#<=)."""
    new_ends = [_end_kind(new_tile, e) for e in new.ends]
    for end in old.ends:
        kind = _end_kind(old_tile, end)
        if kind not in new_ends:
            return False
    return old.gauge.kept_by(new.gauge)


def paths_kept(old: RotatedTile, new: RotatedTile) -> bool:
    """Every old path still exists in the new tile as laid (``old_paths_maintained?``)."""
    return all(
        any(path_kept_by(op, old.tile, np, new.tile) for np in new.paths) for op in old.paths
    )


def color_follows(old: TileDef, new: TileDef) -> bool:
    """New colour is exactly the next one in white → yellow → green → brown → gray (§6.3.1)."""
    if old.color not in COLORS or new.color not in COLORS:
        return False
    return COLORS.index(new.color) == COLORS.index(old.color) + 1


def _ct_subset(old: RotatedTile, new: RotatedTile) -> bool:
    """Some rotation maps each old city/town exit set into one new exit set."""
    old_sets = old.ct_edges()
    new_sets = new.ct_edges()
    for r in range(6):
        if all(any({(e + r) % 6 for e in s} <= t for t in new_sets) for s in old_sets):
            return True
    return False


_SHAPE_ERRORS: dict[tuple[int, int], tuple[RotatedTile, TileDef, str | None]] = {}
"""Answers of ``upgrade_shape_error`` by the identity of its (immutable) arguments, which are
kept alive with the answer so an id is never reused while its entry exists."""


def upgrade_shape_error(old: RotatedTile, new_tile: TileDef) -> str | None:
    """Why ``new_tile`` can never replace ``old`` (None if it can in some rotation): colour,
    track preserved with gauge, label, same towns, same cities unless labelled (§6.3.1-4).
    A pure function of two immutable tiles, so each pair is decided once."""
    key = (id(old), id(new_tile))
    known = _SHAPE_ERRORS.get(key)
    if known is None:
        known = _SHAPE_ERRORS[key] = (old, new_tile, _shape_error(old, new_tile))
    return known[2]


def _shape_error(old: RotatedTile, new_tile: TileDef) -> str | None:
    o = old.tile
    if not color_follows(o, new_tile):
        return f"{new_tile.color} tile {new_tile.name} does not follow {o.color}"
    if not any(paths_kept(old, new_tile.rotated(r)) for r in range(6)):
        return f"tile {new_tile.name} does not keep the track of {o.name}"
    if o.label != new_tile.label:
        return f"tile {new_tile.name} does not have label {o.label or 'none'}"
    if o.towns != new_tile.towns:
        return f"tile {new_tile.name} changes the number of towns"
    old_cities, new_cities = len(o.city_nodes), len(new_tile.city_nodes)
    if o.label is None and old_cities != new_cities:
        return f"tile {new_tile.name} changes the number of cities"
    if old_cities > 1 and new_cities > 1 and not _ct_subset(old, new_tile.rotated(0)):
        return f"tile {new_tile.name} does not keep the cities apart"
    if o.label is not None and old_cities and not new_cities:
        return "a labelled city may not become plain track"
    return None


def rotation_error(
    old: RotatedTile, new: RotatedTile, edge_linked: Callable[[int], bool]
) -> str | None:
    """Why this rotation is illegal regardless of who lays it (None if fine): every new exit
    faces a linked hex, the old paths are kept, no more new cities than added, each old city
    maps to one new city, slot counts not reduced (§6.3.2, §6.3.5)."""
    bad = [e for e in sorted(new.exits) if not edge_linked(e)]
    if bad:
        return f"track would run off the map or into a closed edge ({bad[0]})"
    if not paths_kept(old, new):
        return "the old track is not kept in this rotation"
    old_ct = old.ct_edges()
    new_ct = new.ct_edges()
    added = max(0, len(new_ct) - len(old_ct))
    fresh = sum(1 for n in new_ct if all(not (n & o) for o in old_ct))
    if fresh > added:
        return "the rotation creates unconnected cities"
    if len(new.tile.city_nodes) > 1 and len(old.tile.city_nodes) > 1:
        for o in old_ct:
            if sum(1 for n in new_ct if o <= n) != 1:
                return "an old city is not kept in one new city"
    return None


def slots_kept(old: RotatedTile, new: RotatedTile, mapping: list[int | None]) -> bool:
    """A city never loses slots (only checked when old cities differ in size)."""
    old_nodes = old.tile.city_nodes
    sizes = {old.tile.nodes[n].slots for n in old_nodes}
    if len(sizes) <= 1:
        return True
    for i, j in enumerate(mapping):
        if j is None:
            continue
        old_slots = old.tile.nodes[old_nodes[i]].slots
        if new.tile.nodes[new.tile.city_nodes[j]].slots < old_slots:
            return False
    return True
