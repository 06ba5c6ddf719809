"""The board: per hex the placed tile and city tokens; the tile supply (common rules §2, §6.3-4).

Mutating methods do no rule checks beyond what keeps the state consistent; rule checks live in
:mod:`stellwerk.core.map.lay` (tiles) and in the callers (tokens).  Every mutation bumps
``version`` so graph caches know when to recompute.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from stellwerk.core.errors import IllegalAction
from stellwerk.core.kept import ByVersion
from stellwerk.core.map.geometry import opposite
from stellwerk.core.map.spec import MapSpec, SupplyEntry, supply_ids
from stellwerk.core.map.state import HexState, city_map, fresh_cities
from stellwerk.core.map.tiles import IMPASSABLE_COLORS, RotatedTile, TileDef
from stellwerk.core.native import fields_state, set_fields_state

if TYPE_CHECKING:
    from stellwerk.core.routes.candidates import LegMap

RULE_IDS = "common rules §2"
RULE_TOKEN = "common rules §6.4"


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(frozen=True, slots=True)
class LayResult:
    """What a tile lay did: the replaced tile (returned to the supply unless preprinted) and
    where the tokens of the old cities went (corporation, new city index)."""

    hex: str
    tile_id: str
    old_tile_id: str
    returned: str | None
    moved_tokens: tuple[tuple[str, int], ...]

    def __getstate__(self) -> list[object]:
        """Pickle and copy, as ``dataclasses`` does for a slotted class (``core.native``)."""
        return fields_state(self)

    def __setstate__(self, state: list[object]) -> None:
        set_fields_state(self, state)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Board:
    """Mutable board state built from a :class:`MapSpec` and the tile supply."""

    def __init__(self, spec: MapSpec, supply: Sequence[SupplyEntry]) -> None:
        self.spec = spec
        self.tile_defs: dict[str, TileDef] = {e.tile.name: e.tile for e in supply}
        self.supply: dict[str, TileDef] = dict(supply_ids(supply))
        self.hexes: dict[str, HexState] = {}
        self._tile_hex: dict[str, str] = {}
        for hid, h in spec.hexes.items():
            state = HexState(
                h, h.preprinted_id, h.preprinted.rotated(0), fresh_cities(h.preprinted)
            )
            self.hexes[hid] = state
            self._tile_hex[state.tile_id] = hid
        self._version = 0
        self.content = 0
        """Names what is on the board: a new number at every change (with ``version``), except
        that a trial lay gives back the number the board had before it (``version`` never
        goes back).  Pure results of the board may be kept by it."""
        self._next_content = 1
        self._links: dict[tuple[str, int], str | None] = {}
        self._token_index: tuple[int, dict[str, list[str]]] | None = None
        """(version, corporation -> hexes of its tokens): :meth:`tokens_by_corporation`."""
        self.legs_kept: ByVersion[LegMap] = ByVersion()
        """The route search's legs of this board at a version (``routes.optimize.board_legs``;
        not state: a copy starts without them, ``core.kept``)."""
        self.before_change: list[Callable[[], None]] = []
        """Called before anything on the board changes (tiles, tokens, reservations): a cache
        that put off work on the board as it is does it then (``GraphCache``)."""
        """Answers of :meth:`neighbor` for the tiles as they lie now (:meth:`link_table`)."""

    def _will_change(self) -> None:
        for call in self.before_change:
            call()

    def link_table(self) -> dict[tuple[str, int], str | None]:
        """Answers of :meth:`neighbor` for the tiles as they lie now, keyed by (hex, edge), for
        callers that ask many (network walks) to read and fill.  They depend on the tiles
        only: a new table when a tile changes, the old one back after a trial lay."""
        return self._links

    @property
    def version(self) -> int:
        """Bumped by every change of the board, never reused: caches keyed on it stay valid."""
        return self._version

    @version.setter
    def version(self, value: int) -> None:
        self._version = value
        self.content = self._next_content
        self._next_content += 1

    # ----------------------------------------------------------------- lookup
    def hex(self, hex_id: str) -> HexState:
        """The state of a hex; IllegalAction for an unknown id."""
        try:
            return self.hexes[hex_id]
        except KeyError:
            raise IllegalAction(f"There is no hex {hex_id}", "common rules §1.1") from None

    def neighbor(self, hex_id: str, edge: int) -> str | None:
        """The hex linked to ``hex_id`` across ``edge`` (common rules §1.2): it exists, no
        impassable border lies on the edge, and a red/gray/blue neighbour has track towards us."""
        state = self.hexes[hex_id]
        other = state.spec.neighbors[edge]
        if other is None or edge in state.spec.borders:
            return None
        nb = self.hexes[other]
        back = opposite(edge)
        if back in nb.spec.borders:
            return None
        if nb.tile.color in IMPASSABLE_COLORS and back not in nb.placed.exits:
            return None
        return other

    def supply_tile(self, tile_id: str) -> TileDef:
        """The definition of a tile that is in the supply; IllegalAction otherwise."""
        tile = self.supply.get(tile_id)
        if tile is None:
            raise IllegalAction(f"Tile {tile_id} is not in the supply", RULE_IDS)
        return tile

    def available(self) -> dict[str, str]:
        """First available tile id per tile name, in supply order."""
        out: dict[str, str] = {}
        for tile_id, tile in self.supply.items():
            out.setdefault(tile.name, tile_id)
        return out

    def hex_of_tile(self, tile_id: str) -> str | None:
        """The hex a tile id lies on, if placed."""
        return self._tile_hex.get(tile_id)

    def city_id(self, hex_id: str, city_index: int) -> str:
        """18xx.games city id ``<tile id>-<part>`` of city ``city_index`` on a hex (§2.2)."""
        state = self.hex(hex_id)
        node = state.tile.nodes[state.tile.city_nodes[city_index]]
        return f"{state.tile_id}-{node.part}"

    def resolve_city(self, city_id: str) -> tuple[str, int]:
        """(hex, city index) of an 18xx.games city id such as ``"644-0-0"`` or ``"C1-0-1"``."""
        tile_id, _, part = city_id.rpartition("-")
        hex_id = self._tile_hex.get(tile_id)
        if hex_id is None or not part.isdigit():
            raise IllegalAction(f"City {city_id} is not on the map", RULE_IDS)
        state = self.hexes[hex_id]
        node = state.tile.node_by_part(int(part))
        index = None if node is None else state.city_index(node)
        if index is None:
            raise IllegalAction(f"{city_id} is not a city", RULE_IDS)
        return hex_id, index

    def node_signature(self, hex_id: str, node: int) -> str:
        """Route node signature ``<hex>-<part>`` (common rules §2.3)."""
        return f"{hex_id}-{self.hexes[hex_id].tile.nodes[node].part}"

    # ----------------------------------------------------------------- tiles
    def lay_tile(self, hex_id: str, tile_id: str, rotation: int) -> LayResult:
        """Replace the tile on ``hex_id`` with supply tile ``tile_id`` (no rule checks; see
        lay.check_lay).  Tokens and reservations move to the new city containing the old city's
        exits; a replaced supply tile returns to the supply under its old id (§2.1, §6.3)."""
        self._will_change()
        state = self.hex(hex_id)
        tile = self.supply_tile(tile_id)
        new = tile.rotated(rotation)
        old_id = state.tile_id
        moved = self._swap_tile(state, tile_id, new)
        del self.supply[tile_id]
        returned = None
        if old_id != state.spec.preprinted_id:
            old_name = old_id.rpartition("-")[0]
            self.supply[old_id] = self.tile_defs[old_name]
            returned = old_id
        return LayResult(hex_id, tile_id, old_id, returned, moved)

    def _swap_tile(
        self, state: HexState, tile_id: str, new: RotatedTile
    ) -> tuple[tuple[str, int], ...]:
        mapping = city_map(state.placed, new)
        cities = fresh_cities(new.tile)
        moved: list[tuple[str, int]] = []
        held = sum(1 for city in state.cities for corp in city.tokens if corp is not None)
        for old_index, new_index in enumerate(mapping):
            old_city = state.cities[old_index]
            if new_index is None:
                continue
            target = cities[new_index]
            target.reservations.extend(old_city.reservations)
            for corp in old_city.tokens:
                if corp is not None and target.get_slot(corp) is not None:
                    target.place(corp)
                    moved.append((corp, new_index))
        for city in cities:
            # two old cities that become one (a two-city tile upgraded to a one-city tile with
            # both slots): a reservation that came after the first city's token took its slot
            # moves to a free slot, so the reserved slot stays free beside the token
            city.settle_reservations()
        self._tile_hex.pop(state.tile_id, None)
        state.tile_id = tile_id
        state.placed = new
        state.cities = cities
        self._tile_hex[tile_id] = state.spec.id
        self._links = self._links_without(state)
        index = self._token_index
        self.version += 1
        if index is not None and index[0] == self._version - 1 and len(moved) == held:
            # every token stayed on the hex: the index of tokens by hex is the same
            self._token_index = (self._version, index[1])
        return tuple(moved)

    def _links_without(self, state: HexState) -> dict[tuple[str, int], str | None]:
        """A copy of the link table without the answers a new tile on ``state``'s hex may
        change.  ``neighbor(h, e)`` reads the static map and the tile of the hex across
        ``e`` only (its colour and exits), so only the links *into* this hex depend on its
        tile; the copy keeps the old table intact for a trial lay to give back."""
        links = dict(self._links)
        for edge, other in enumerate(state.spec.neighbors):
            if other is not None:
                links.pop((other, opposite(edge)), None)
        return links

    @contextmanager
    def trial_lay(self, hex_id: str, tile_id: str, rotation: int) -> Iterator[None]:
        """Lay a tile for the duration of a ``with`` block, then restore the hex exactly (used by
        pure checks that need the board after the lay)."""
        self._will_change()
        state = self.hex(hex_id)
        saved = (state.tile_id, state.placed, state.cities)
        content = self.content
        links = self._links
        index = self._token_index
        tokens_before = index[1] if index is not None and index[0] == self._version else None
        tile = self.tile_defs.get(tile_id.rpartition("-")[0]) or self.supply_tile(tile_id)
        self._swap_tile(state, tile_id, tile.rotated(rotation))
        after = self._version
        try:
            yield
        finally:
            self._tile_hex.pop(state.tile_id, None)
            state.tile_id, state.placed, state.cities = saved
            self._tile_hex[state.tile_id] = hex_id
            self._links = links
            untouched = self._version == after  # nothing else changed inside the block
            self.version += 1  # never reuse a version number: caches keyed on it stay valid
            self.content = content  # but the board holds again what it held before
            if untouched and tokens_before is not None:
                self._token_index = (self._version, tokens_before)  # the tokens as before

    def reset_hex(self, hex_id: str, return_tile: bool = False) -> list[str]:
        """Put the preprinted tile back and remove every token on the hex from the game (a
        title's disaster event).  18xx.games does not return the removed tile to the supply;
        pass ``return_tile`` to do so.  Returns the corporations whose tokens were removed."""
        self._will_change()
        state = self.hex(hex_id)
        removed = [c for city in state.cities for c in city.tokens if c is not None]
        for city in state.cities:
            city.tokens = [None] * len(city.tokens)
        self._token_index = None  # the tokens changed (the lay below must not carry it)
        old_id = state.tile_id
        if old_id == state.spec.preprinted_id:
            self.version += 1
            return removed
        self._swap_tile(state, state.spec.preprinted_id, state.spec.preprinted.rotated(0))
        if return_tile:
            self.supply[old_id] = self.tile_defs[old_id.rpartition("-")[0]]
        return removed

    def trace_tiles(self) -> dict[str, str]:
        """{hex: "tile@rotation"} for every hex that is not a plain white printed hex, as in the
        fixture traces: laid tiles by name ("57@2"), printed coloured hexes by hex id ("C1@0")."""
        out = {}
        for hid, state in self.hexes.items():
            if state.is_preprinted and state.tile.color == "white":
                continue
            out[hid] = f"{state.tile.name}@{state.rotation}"
        return out

    # ----------------------------------------------------------------- tokens
    def can_place_token(
        self, hex_id: str, city_index: int, corp: str, same_hex_allowed: bool = False
    ) -> bool:
        """Free-slot test: a slot that is empty and not reserved for another corporation (or
        reserved for ``corp``), and no token of ``corp`` on the hex (common rules §6.4)."""
        state = self.hex(hex_id)
        if city_index >= len(state.cities):
            return False
        if not same_hex_allowed and state.has_token(corp):
            return False
        return state.cities[city_index].get_slot(corp) is not None

    def place_token_at(
        self, hex_id: str, city_index: int, corp: str, same_hex_allowed: bool = False
    ) -> int:
        """Place a token of ``corp`` in a city (home tokens use this); returns the slot."""
        self._will_change()
        if not self.can_place_token(hex_id, city_index, corp, same_hex_allowed):
            raise IllegalAction(f"{corp} cannot place a token in {hex_id}", RULE_TOKEN)
        slot = self.hexes[hex_id].cities[city_index].place(corp)
        self.version += 1
        return slot

    def place_token(
        self, city_id: str, corp: str, same_hex_allowed: bool = False
    ) -> tuple[str, int]:
        """Place by 18xx.games city id.  The recorded slot is not used: like 18xx.games the token
        goes into ``corp``'s reserved slot, else the first open one (§2.2).  Returns (hex, slot)."""
        hex_id, index = self.resolve_city(city_id)
        return hex_id, self.place_token_at(hex_id, index, corp, same_hex_allowed)

    def replace_token(self, city_id: str, slot: int, corp: str) -> str:
        """Swap the token in ``slot`` for one of ``corp`` (token purchase); returns its owner."""
        self._will_change()
        hex_id, index = self.resolve_city(city_id)
        city = self.hexes[hex_id].cities[index]
        old = city.tokens[slot] if slot < len(city.tokens) else None
        if old is None:
            raise IllegalAction(f"No token in slot {slot} of {city_id}", RULE_TOKEN)
        city.tokens[slot] = None
        city.place(corp)
        self.version += 1
        return old

    def remove_token(self, city_id: str, slot: int) -> str | None:
        """Remove the token in ``slot`` of a city; returns its corporation."""
        self._will_change()
        hex_id, index = self.resolve_city(city_id)
        city = self.hexes[hex_id].cities[index]
        corp = city.tokens[slot] if slot < len(city.tokens) else None
        if corp is not None:
            city.tokens[slot] = None
            self.version += 1
        return corp

    def remove_corp_token(self, hex_id: str, corp: str) -> bool:
        """Remove ``corp``'s token from a hex; True if there was one."""
        self._will_change()
        found = False
        for city in self.hex(hex_id).cities:
            for i, holder in enumerate(city.tokens):
                if holder == corp:
                    city.tokens[i] = None
                    found = True
        if found:
            self.version += 1
        return found

    def remove_all_tokens(self, corp: str) -> list[str]:
        """Remove every token of ``corp`` (closing corporation); returns the hexes, sorted."""
        hexes = self.token_hexes(corp)
        for hid in hexes:
            self.remove_corp_token(hid, corp)
        return hexes

    def token_hexes(self, corp: str) -> list[str]:
        """Hexes holding a token of ``corp``, sorted (one entry per token)."""
        return sorted(self.tokens_by_corporation().get(corp, ()))

    def tokens_by_corporation(self) -> dict[str, list[str]]:
        """Corporation -> the hexes of its tokens in board order (one entry per token): an
        index of the board made once per :attr:`version` (every token change bumps it), as
        stock turns, token checks and network walks ask for the tokens of many corporations;
        a tile lay that keeps every token on its hex, and the end of a trial lay that changed
        nothing else, carry it to the new version.  Do not change it."""
        index = self._token_index
        if index is None or index[0] != self._version:
            found: dict[str, list[str]] = {}
            for hid, state in self.hexes.items():
                for city in state.cities:
                    for holder in city.tokens:
                        if holder is not None:
                            found.setdefault(holder, []).append(hid)
            index = self._token_index = (self._version, found)
        return index[1]

    def reserve(self, hex_id: str, city_index: int, corp: str) -> int:
        """Reserve a slot of a city for ``corp``'s home token: the first open slot (§6.4)."""
        self._will_change()
        city = self.hex(hex_id).cities[city_index]
        slot = city.open_slot()
        if slot is None:
            raise IllegalAction(f"No slot to reserve in {hex_id}", RULE_TOKEN)
        city.reservations.insert(slot, corp)
        self.version += 1
        return slot

    def unreserve(self, corp: str) -> list[str]:
        """Drop every reservation of ``corp``; returns the hexes concerned."""
        self._will_change()
        out = []
        for hid, state in self.hexes.items():
            for city in state.cities:
                for i, holder in enumerate(city.reservations):
                    if holder == corp:
                        city.reservations[i] = None
                        out.append(hid)
        self.version += 1
        return out
