"""1841's hooks of the core lay check (rules/1841.md 1.2 "Map", 2.3.3): pass tiles only on
passes of their size, tile 601 only in rotation 0, and (a setting) the upgrade of a reached
city excused from new track.  The track step's own rules (bases, lays per turn) are
:mod:`stellwerk.titles.g1841.track`'s."""

from __future__ import annotations

from functools import cache

from stellwerk.core.map.lay import LayContext, TrackRules, shape_rule
from stellwerk.core.map.state import HexState
from stellwerk.core.map.tiles import TileDef
from stellwerk.titles.g1841.data_load import Edge, Variant, map_data, tiles_data

NO_ROTATION_TILES = frozenset({"601"})
"""Tiles laid only in rotation 0 (rules/1841.md 1.2 "Map", 2.3.3)."""


@cache
def pass_sizes(variant: Variant) -> dict[str, int]:
    """The pass size (1 small, 2 large) of every pass tile and printed pass hex by tile name
    (a printed tile is named after its hex); other tiles are absent (size 0)."""
    out: dict[str, int] = {}
    for name, tile in tiles_data(variant)["tiles"].items():
        for city in tile.get("cities", ()):
            if city.get("pass"):
                out[name] = int(city.get("size", 1))
    for hid, hex_ in map_data(variant)["hexes"].items():
        for city in hex_.get("cities", ()):
            if city.get("pass"):
                out[hid] = int(city.get("size", 1))
    return out


def track_rules(
    variant: Variant, city_upgrade_borders: frozenset[Edge] | None = None
) -> TrackRules:
    """The core lay hooks with 1841's: pass tiles only on passes of their size, 601 only in
    rotation 0 (rules/1841.md 2.3.3).

    With ``city_upgrade_borders`` (the political borders in force; given when the setting
    ``reachable_city_upgrade_without_new_track`` is on, seed 000 rule change 3.2) an upgrade
    of a city the corporation reaches is excused from reaching new track or a changed value,
    as long as no new exit points at one of those borders (off the map is refused anyway).
    A city is reached when the corporation has a token in it or reaches an edge of the hex
    that old track joins to it; a pass is no city (seed 000 item 1.5).  18xx.games refuses
    such a lay ("Must use new track or change city value"): e.g. Venezia's yellow 601 to
    green 602 (values unchanged for the city, the port town reached only through the city)
    when the city is full of another corporation's token."""
    sizes = pass_sizes(variant)

    def upgrade_error(state: HexState, tile: TileDef) -> str | None:
        if sizes.get(state.tile.name, 0) != sizes.get(tile.name, 0):
            return "a pass takes only a pass tile of its size (rules/1841.md 2.3.3)"
        return shape_rule(state, tile)

    def legal_rotation(ctx: LayContext) -> bool:
        return ctx.new.tile.name not in NO_ROTATION_TILES or ctx.new.rotation == 0

    def new_track_waived(ctx: LayContext) -> bool:
        if city_upgrade_borders is None or sizes.get(ctx.old.tile.name, 0):
            return False
        hex_id = ctx.hex.spec.id
        fresh = ctx.new.exits - ctx.old.exits
        if any((hex_id, edge) in city_upgrade_borders for edge in fresh):
            return False
        if any(ctx.corp in city.tokens for city in ctx.hex.cities):
            return True
        cities = set(ctx.old.tile.city_nodes)
        return any(
            cities & set(path.nodes) and ctx.connected_edges & set(path.edges)
            for path in ctx.old.paths
        )

    return TrackRules(
        legal_rotation=legal_rotation,
        upgrade_error=upgrade_error,
        new_track_waived=new_track_waived,
    )
