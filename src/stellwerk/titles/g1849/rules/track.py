"""1849 track rules as hooks for core/map (1849 rules §3).

Bind them with :func:`track_rules`; the title's options may replace either hook.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from stellwerk.core.map.board import Board
from stellwerk.core.map.geometry import opposite
from stellwerk.core.map.lay import LayContext, TrackRules
from stellwerk.core.map.spec import MapSpec, SupplyEntry, load_map, load_supply
from stellwerk.core.map.tiles import Gauge
from stellwerk.titles.datafiles import read_table

DATA = Path(__file__).resolve().parents[1] / "data"


@cache
def map_data() -> dict[str, Any]:
    """The parsed ``data/map.toml``."""
    return read_table(DATA, "map.toml")


@cache
def _spec() -> tuple[MapSpec, tuple[SupplyEntry, ...]]:
    tiles = read_table(DATA, "tiles.toml")
    return load_map(map_data()), tuple(load_supply(tiles))


def new_board() -> Board:
    """A fresh 1849 board: printed map and full tile supply (1849 rules §3, reference 1849.yaml)."""
    spec, supply = _spec()
    return Board(spec, supply)


def gauge_rotation(ctx: LayContext) -> bool:
    """Gauge-matching build rule (1849 rules §3.2, 18xx.games ``legal_tile_rotation?``): unless
    the corporation has a token on the hex (or lays without connection, SMS), one of the new
    tile's exits towards a hex through which the corporation is connected must meet that
    neighbour's track with a compatible gauge (broad–broad/dual, narrow–narrow/dual, dual–any).
    If no such exit meets any neighbouring track at all, the rotation is allowed."""
    if ctx.teleport or ctx.hex.has_token(ctx.corp):
        return True
    hex_id = ctx.hex.spec.id
    met_track = False
    for edge in sorted(ctx.connected_edges):
        mine = ctx.new.paths_at_edge[edge]
        if not mine:
            continue
        nb = ctx.board.neighbor(hex_id, edge)
        if nb is None:
            continue
        nb_tile = ctx.board.hexes[nb].placed
        theirs = nb_tile.paths_at_edge[opposite(edge)]
        if theirs:
            met_track = True
            if ctx.new.paths[mine[0]].gauge.connects(nb_tile.paths[theirs[0]].gauge):
                return True
    return not met_track


def added_gauge(ctx: LayContext) -> Gauge:
    """Gauge of the track a lay adds: the new tile's path gauges minus the old tile's (as a
    multiset).  Dual if any dual is added, else broad if any broad, else narrow (also when
    nothing is added) - 18xx.games ``new_track``."""
    added = [p.gauge for p in ctx.new.paths]
    for p in ctx.old.paths:
        if p.gauge in added:
            added.remove(p.gauge)
    if Gauge.DUAL in added:
        return Gauge.DUAL
    return Gauge.BROAD if Gauge.BROAD in added else Gauge.NARROW


def terrain_cost(has_discount: Callable[[str], bool]) -> Callable[[LayContext], int]:
    """Terrain cost hook (1849 rules §3.3): the hex's printed cost is paid at every lay or
    upgrade; full if dual track is added, full (half with SIGI, ``has_discount(corp)``) if broad
    track is added, a quarter if only narrow track (or nothing) is added.  Integer division."""

    def cost(ctx: LayContext) -> int:
        printed = ctx.hex.spec.terrain_cost
        if printed == 0:
            return 0
        gauge = added_gauge(ctx)
        if gauge is Gauge.DUAL:
            return printed
        if gauge is Gauge.BROAD:
            return printed - (printed // 2 if has_discount(ctx.corp) else 0)
        return printed // 4

    return cost


def track_rules(has_discount: Callable[[str], bool]) -> TrackRules:
    """1849's track hooks: gauge-matching rotations and gauge-dependent terrain cost."""
    return TrackRules(legal_rotation=gauge_rotation, lay_cost=terrain_cost(has_discount))
