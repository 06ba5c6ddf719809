"""Mutable per-hex state: the placed tile and the token slots of its cities.

Slot rules follow common rules §2.2 and §6.4: a token goes into the slot reserved for its
corporation, else into the first slot that is empty and not reserved.  A city blocks a
corporation when all its slots hold other corporations' tokens (common rules §6.1.6).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mypy_extensions import mypyc_attr

from stellwerk.core.map.spec import HexSpec
from stellwerk.core.map.tiles import NodeKind, RotatedTile, TileDef


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(slots=True)
class CityState:
    """Token slots (corporation symbol or None) and slot reservations of one city."""

    tokens: list[str | None]
    reservations: list[str | None] = field(default_factory=list)

    def reserved_slot(self, corp: str) -> int | None:
        """Index of the slot reserved for ``corp``."""
        for i, holder in enumerate(self.reservations):
            if holder == corp:
                return i
        return None

    def open_slot(self) -> int | None:
        """First slot that is empty and not reserved."""
        for i, token in enumerate(self.tokens):
            if token is None and (i >= len(self.reservations) or self.reservations[i] is None):
                return i
        return None

    def get_slot(self, corp: str) -> int | None:
        """The slot a token of ``corp`` goes into: its reserved slot, else the first open one."""
        reserved = self.reserved_slot(corp)
        return reserved if reserved is not None else self.open_slot()

    def tokened_by(self, corp: str) -> bool:
        """Does ``corp`` have a token here?"""
        return corp in self.tokens

    def blocks(self, corp: str | None) -> bool:
        """All slots filled and none by ``corp`` (common rules §6.1.6)."""
        if corp is None or corp in self.tokens:
            return False
        return None not in self.tokens

    def settle_reservations(self) -> None:
        """Move each reservation that lies on a slot holding another corporation's token to
        the first slot holding neither a token nor a reservation (kept where none is): a
        reserved slot stays free for its corporation's home (common rules §6.4)."""
        for i, holder in enumerate(list(self.reservations)):
            if holder is None or i >= len(self.tokens) or self.tokens[i] in (None, holder):
                continue
            free = next((j for j in range(len(self.tokens)) if self._free(j)), None)
            if free is None:
                continue
            while len(self.reservations) <= free:
                self.reservations.append(None)
            self.reservations[free] = holder
            self.reservations[i] = None

    def _free(self, slot: int) -> bool:
        """Neither a token nor a reservation on ``slot``."""
        reserved = slot < len(self.reservations) and self.reservations[slot] is not None
        return self.tokens[slot] is None and not reserved

    def place(self, corp: str) -> int:
        """Put a token of ``corp`` into its slot; clear its reservation.  Returns the slot."""
        slot = self.get_slot(corp)
        if slot is None:
            raise ValueError("no free slot")
        self.tokens[slot] = corp
        reserved = self.reserved_slot(corp)
        if reserved is not None:
            self.reservations[reserved] = None
        return slot


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(slots=True)
class HexState:
    """A hex as it is now: tile id (``"644-0"``, preprinted ``"C1-0"``), rotated tile, cities."""

    spec: HexSpec
    tile_id: str
    placed: RotatedTile
    cities: list[CityState]

    @property
    def tile(self) -> TileDef:
        """The unrotated definition of the tile on the hex."""
        return self.placed.tile

    @property
    def rotation(self) -> int:
        """Rotation of the tile on the hex."""
        return self.placed.rotation

    @property
    def is_preprinted(self) -> bool:
        """Is the printed map tile still there?"""
        return self.tile_id == self.spec.preprinted_id

    def city_index(self, node: int) -> int | None:
        """City index (cN) of tile node ``node``, or None if it is not a city."""
        try:
            return self.placed.tile.city_nodes.index(node)
        except ValueError:
            return None

    def city_of_node(self, node: int) -> CityState | None:
        """The city state of tile node ``node``."""
        index = self.city_index(node)
        return None if index is None else self.cities[index]

    def node_blocks(self, node: int, corp: str | None) -> bool:
        """Can ``corp``'s trains not pass through this node?  Offboards always block."""
        tile = self.placed.tile
        kind = tile.nodes[node].kind
        if kind is NodeKind.OFFBOARD:
            return True
        if kind is NodeKind.TOWN:
            return False
        try:  # city_of_node, inlined (asked for every node a walk meets)
            index = tile.city_nodes.index(node)
        except ValueError:
            return False
        return self.cities[index].blocks(corp)

    def has_token(self, corp: str) -> bool:
        """Does ``corp`` have a token in any city of this hex?  (A loop: token tests ask it
        for every city a network reaches.)"""
        for city in self.cities:  # noqa: SIM110 (a loop costs less than any() over a generator)
            if corp in city.tokens:
                return True
        return False


def fresh_cities(tile: TileDef) -> list[CityState]:
    """Empty cities for a tile."""
    return [CityState([None] * tile.nodes[n].slots) for n in tile.city_nodes]


def city_map(old: RotatedTile, new: RotatedTile) -> list[int | None]:
    """For each old city, the index of the new city its tokens move to (18xx.games
    Hex#city_map_for): by index when the old cities have no track, else the first new city
    containing all the old city's exits, else by index / first unused."""
    old_nodes = old.tile.city_nodes
    new_nodes = new.tile.city_nodes
    result: list[int | None] = []
    no_exits = all(not old.node_exits[n] for n in old_nodes)
    if no_exits and len(old_nodes) == len(new_nodes):
        return list(range(len(old_nodes)))
    for n in old_nodes:
        found = None
        exits = old.node_exits[n]
        if exits:
            for j, m in enumerate(new_nodes):
                if exits <= new.node_exits[m]:
                    found = j
                    break
        result.append(found)
    used = {j for j in result if j is not None}
    for i, mapped in enumerate(result):
        if mapped is not None:
            continue
        cand: int | None = i if i < len(new_nodes) else None
        if cand is None or cand in used:
            cand = next((k for k in range(len(new_nodes)) if k not in used), None)
        result[i] = cand
        if cand is not None:
            used.add(cand)
    return result
