"""Static map data: hexes with their preprinted tiles, borders, terrain; the tile supply list.

Read from a title's TOML tables (parsed by the title with ``tomllib``) into typed objects once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from stellwerk.core.map.geometry import Layout, edge_delta, parse_hex_id
from stellwerk.core.map.tiles import TileDef, tile_from_dict


@dataclass(frozen=True, slots=True)
class HexSpec:
    """One map hex.  ``copy`` is the copy index of its preprinted tile (common rules §2.1);
    ``neighbors[e]`` is the id of the map hex across edge e (None off the map)."""

    id: str
    preprinted: TileDef
    copy: int
    terrain_cost: int
    borders: frozenset[int]
    location: str | None
    port: bool
    neighbors: tuple[str | None, ...]
    terrain: str = ""
    """What the terrain cost is for (``mountain``, ``water``, ``swamp``; empty: not given, e.g.
    a pass's upgrade cost) -- for pictures only; the rules read ``terrain_cost``."""

    @property
    def preprinted_id(self) -> str:
        """Tile id of the preprinted tile, e.g. ``"C1-0"``."""
        return f"{self.preprinted.name}-{self.copy}"


@dataclass(frozen=True, slots=True)
class MapSpec:
    """All hexes of a map, in data order, and the layout."""

    layout: Layout
    letter_is_row: bool
    hexes: Mapping[str, HexSpec]


@dataclass(frozen=True, slots=True)
class SupplyEntry:
    """A tile name in the supply with its number of copies."""

    tile: TileDef
    count: int


def load_map(data: Mapping[str, Any]) -> MapSpec:
    """Build a :class:`MapSpec` from the map TOML (keys ``layout``, ``letter``, ``hexes``)."""
    layout = Layout(data.get("layout", "flat"))
    letter_is_row = data.get("letter", "row") == "row"
    raw: Mapping[str, Mapping[str, Any]] = data["hexes"]
    coords = {hid: parse_hex_id(hid) for hid in raw}
    by_coord = {c: hid for hid, c in coords.items()}
    hexes: dict[str, HexSpec] = {}
    for hid, h in raw.items():
        letter, number = coords[hid]
        neighbors = []
        for edge in range(6):
            d_letter, d_number = edge_delta(edge, layout, letter_is_row)
            neighbors.append(by_coord.get((letter + d_letter, number + d_number)))
        tile = tile_from_dict(hid, h)
        hexes[hid] = HexSpec(
            id=hid,
            preprinted=tile,
            copy=int(h.get("copy", 0)),
            terrain_cost=int(h.get("terrain_cost", 0)),
            borders=frozenset(int(b) for b in h.get("borders", ())),
            location=h.get("location"),
            port=bool(h.get("port", False)),
            neighbors=tuple(neighbors),
            terrain=str(h.get("terrain", "")),
        )
    return MapSpec(layout=layout, letter_is_row=letter_is_row, hexes=hexes)


def load_supply(data: Mapping[str, Any]) -> list[SupplyEntry]:
    """Build the supply list from the tiles TOML (table ``tiles``: name -> definition + count)."""
    raw: Mapping[str, Mapping[str, Any]] = data["tiles"]
    return [SupplyEntry(tile_from_dict(name, t), int(t.get("count", 1))) for name, t in raw.items()]


def supply_ids(entries: Sequence[SupplyEntry]) -> list[tuple[str, TileDef]]:
    """Tile ids ``NAME-COPY`` in supply order (common rules §2.1)."""
    return [(f"{e.tile.name}-{i}", e.tile) for e in entries for i in range(e.count)]
