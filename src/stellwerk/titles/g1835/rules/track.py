"""1835 track rules as hooks for core/map (rules/1835.md 8.3).

* Upgrades follow Rails' explicit table (TileSet.xml), not the generic shape check: the XX
  cities become X cities (210-215 -> 217-219), the double-town tiles become single-town tiles
  (1, 55 -> 88 ...), 14 and 15 have no upgrade.  18xx.games decides by shape and label instead
  (DISAGREE, rules/1835.md 13.12).
* Terrain is paid only for the first tile on a hex (the one replacing the preprinted tile).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from stellwerk.core.map.board import Board
from stellwerk.core.map.lay import LayContext, TrackRules
from stellwerk.core.map.spec import SupplyEntry
from stellwerk.core.map.state import HexState
from stellwerk.core.map.tiles import COLORS, TileDef
from stellwerk.titles.g1835.data_load import map_spec, supply, upgrade_table

UNLIMITED_COPIES = 30
"""Copies per tile when the test-aid option makes the supply unlimited."""


def upgrade_error(state: HexState, tile: TileDef) -> str | None:
    """Only the replacements of Rails' upgrade table are legal (rules/1835.md 8.3)."""
    key = state.spec.id if state.is_preprinted else state.tile.name
    allowed = upgrade_table().get(key, ())
    if tile.name not in allowed:
        return f"tile {tile.name} may not replace {state.tile.name} (1835 upgrade table)"
    old, new = state.tile.color, tile.color
    if old in COLORS and new in COLORS and COLORS.index(new) <= COLORS.index(old):
        return f"{new} tile {tile.name} does not follow {old}"
    return None


def first_lay_cost(ctx: LayContext) -> int:
    """Terrain costs only the first tile laid on the hex (Rails; rules/1835.md 8.3)."""
    return ctx.hex.spec.terrain_cost if ctx.hex.is_preprinted else 0


def track_rules() -> TrackRules:
    """1835's track hooks."""
    return TrackRules(lay_cost=first_lay_cost, upgrade_error=upgrade_error)


@cache
def _unlimited_supply(kind: str) -> tuple[SupplyEntry, ...]:
    out = []
    for entry in supply():
        plain = entry.tile.color == "yellow" and not entry.tile.city_nodes and not entry.tile.towns
        if kind == "all" or (kind == "yellow_plain" and plain):
            entry = replace(entry, count=max(entry.count, UNLIMITED_COPIES))
        out.append(entry)
    return tuple(out)


def new_board(unlimited: str = "limited") -> Board:
    """A fresh 1835 board.  ``unlimited`` ("all", "yellow_plain") is the Rails test aid
    UnlimitedTiles (rules/1835.md 11): the supply gets many copies of those tiles."""
    entries = supply() if unlimited == "limited" else _unlimited_supply(unlimited)
    return Board(map_spec(), entries)
