"""Static map data: hexes with their preprinted tiles, borders, terrain; the tile supply list.

Read from a title's TOML tables (parsed by the title with ``tomllib``) into typed objects once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from stellwerk.core.jsondata import JSONObject, as_object, is_int, optional_integer, optional_text
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


def load_map(data: JSONObject) -> MapSpec:
    """Build a :class:`MapSpec` from the map TOML (keys ``layout``, ``letter``, ``hexes``);
    a value of another shape raises ValueError."""
    layout = Layout(data.get("layout", "flat"))
    letter_is_row = data.get("letter", "row") == "row"
    raw = {
        hid: as_object(h, f"hex {hid}", ValueError)
        for hid, h in as_object(data.get("hexes"), "hexes", ValueError).items()
    }
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
            copy=optional_integer(h, "copy", ValueError) or 0,
            terrain_cost=optional_integer(h, "terrain_cost", ValueError) or 0,
            borders=frozenset(_edges(h.get("borders") or [], hid)),
            location=optional_text(h, "location", ValueError),
            port=bool(h.get("port", False)),
            neighbors=tuple(neighbors),
            terrain=str(h.get("terrain", "")),
        )
    return MapSpec(layout=layout, letter_is_row=letter_is_row, hexes=hexes)


def _edges(value: object, hex_id: str) -> list[int]:
    """A hex's border edges: a list of integers; another value raises ValueError."""
    if not isinstance(value, list) or not all(is_int(edge) for edge in value):
        raise ValueError(f"hex {hex_id}: borders must be a list of edges, not {value!r}")
    return [edge for edge in value if is_int(edge)]


def load_supply(data: JSONObject) -> list[SupplyEntry]:
    """Build the supply list from the tiles TOML (table ``tiles``: name -> definition + count);
    a value of another shape raises ValueError."""
    raw = as_object(data.get("tiles"), "tiles", ValueError)
    out = []
    for name, value in raw.items():
        tile = as_object(value, f"tile {name}", ValueError)
        count = optional_integer(tile, "count", ValueError)
        out.append(SupplyEntry(tile_from_dict(name, tile), 1 if count is None else count))
    return out


def supply_ids(entries: Sequence[SupplyEntry]) -> list[tuple[str, TileDef]]:
    """Tile ids ``NAME-COPY`` in supply order (common rules §2.1)."""
    return [(f"{e.tile.name}-{i}", e.tile) for e in entries for i in range(e.count)]
