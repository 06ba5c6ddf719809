"""1835's map work on the generic board: homes, tile lays, tokens at 20M per hex of distance,
routes (rules/1835.md 8.2-8.5).

The default board port (``core.map.port.BoardPort``) with what differs in 1835: a home city
given by the data (not always the hex's first), a home placed in another city of its hex when
its own is taken, tokens priced by distance from home and kept off a city held for an unplaced
home, the privates' free lays and tokens, the relaid tokens of an upgraded tile, and the route
search capped by default.  Lay listing and checks, station tokens, run revenue and the route
search's inputs are the default port's."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Train, Trains
from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.lay import LayOptions
from stellwerk.core.map.port import BoardPort
from stellwerk.core.routes.optimize import BestRun, best_routes
from stellwerk.titles.g1835.data_load import game_data, map_spec
from stellwerk.titles.g1835.rules.routes import route_rules
from stellwerk.titles.g1835.rules.track import new_board, track_rules

if TYPE_CHECKING:
    from stellwerk.titles.g1835.game import Game1835

RULE_TOKEN = "1835 rules §8.4"


@cache
def hex_distances(origin: str) -> dict[str, int]:
    """Hex steps from ``origin`` to every map hex along the map (rules/1835.md 8.4: the token
    cost counts the shortest chain of existing map hexes)."""
    spec = map_spec()
    dist = {origin: 0}
    queue = deque([origin])
    while queue:
        hid = queue.popleft()
        for nb in spec.hexes[hid].neighbors:
            if nb is not None and nb not in dist:
                dist[nb] = dist[hid] + 1
                queue.append(nb)
    return dist


class MapPort(BoardPort):
    """The 1835 game's view of the board."""

    game: Game1835
    track_rule = "1835 rules §8.3"
    token_rule = RULE_TOKEN

    def __init__(self, game: Game1835, unlimited: str = "limited") -> None:
        super().__init__(
            game, new_board(unlimited), track_rules=track_rules(), route_rules=route_rules()
        )

    # -- homes ------------------------------------------------------------------------------
    def home_city(self, corp: Corporation) -> tuple[str, int] | None:
        """A major's home city is the one its data names (rules/1835.md 8.4); an unplaced home
        reserves it (Rails default).  A minor has none here: its home token goes down when the
        start packet sells it."""
        return self.game.home_city.get(corp.sym)

    def place_home(self, corp: Corporation) -> None:
        """Put the home token down; on a multi-city tile whose home city is taken the first
        free city is used (BA on green L6: Rails lets the director choose; UNSURE), and with
        none free the reservation is dropped."""
        home = self.home_city(corp)
        assert home is not None, corp.sym
        hex_id, city = home
        board = self.board
        if self.has_token_in(corp, hex_id):
            return
        if city < len(board.hex(hex_id).cities) and board.can_place_token(hex_id, city, corp.sym):
            board.place_token_at(hex_id, city, corp.sym)
            return
        for index in range(len(board.hex(hex_id).cities)):
            if board.can_place_token(hex_id, index, corp.sym):
                board.place_token_at(hex_id, index, corp.sym)
                return
        board.unreserve(corp.sym)

    def replace_token(self, old: str, new: str) -> str | None:
        """The token of ``old`` becomes one of ``new`` on the same city, unless ``new`` already
        has a token on that hex (then ``old``'s token is removed).  Returns the hex."""
        board = self.board
        for hid in board.token_hexes(old):
            state = board.hex(hid)
            for city in state.cities:
                for i, holder in enumerate(city.tokens):
                    if holder != old:
                        continue
                    city.tokens[i] = None if state.has_token(new) else new
                    board.version += 1
                    return hid if city.tokens[i] == new else None
        return None

    # -- track ------------------------------------------------------------------------------
    def lay_options(self, corp: Corporation, teleport: list[str] | None = None) -> LayOptions:
        """The default lay options; a private's lay goes to its ``teleport`` hexes without a
        connection (rules/1835.md 6)."""
        return replace(super().lay_options(corp), teleport=teleport)

    def lay_private_tile(
        self, corp: Corporation, action: moves.LayTile, hexes: list[str], colors: tuple[str, ...]
    ) -> None:
        """A private company's lay for its company: on one of its ``hexes``, in the colours it
        allows, checked as any lay but free of terrain cost (rules/1835.md 6)."""
        opts = replace(self.lay_options(corp, hexes), phase_colors=colors)
        self.lay_checked(corp, action, opts, free=True)

    def trackless_tokens(self, hex_id: str) -> list[str]:
        """Tokens on cities without track (BA's home on the preprinted L6): on an upgrade they
        are relaid by choice (rules/1835.md 6; Rails tile -807 relays base tokens)."""
        state = self.board.hex(hex_id)
        placed = state.placed
        out: list[str] = []
        for index, node in enumerate(placed.tile.city_nodes):
            if not placed.node_exits[node]:
                out += [t for t in state.cities[index].tokens if t is not None]
        return out

    def relay_cities(self, hex_id: str, sym: str) -> list[int]:
        """Cities of the hex a relaid token may go to: its own, or one with a free slot."""
        state = self.board.hex(hex_id)
        return [
            i
            for i, city in enumerate(state.cities)
            if sym in city.tokens or self.board.can_place_token(hex_id, i, sym, True)
        ]

    def relay_token(self, hex_id: str, sym: str, index: int) -> None:
        """Move ``sym``'s token on the hex to city ``index``."""
        state = self.board.hex(hex_id)
        if sym in state.cities[index].tokens:
            return
        for city in state.cities:
            if sym in city.tokens:
                city.tokens[city.tokens.index(sym)] = None
        self.board.place_token_at(hex_id, index, sym, same_hex_allowed=True)

    # -- tokens -----------------------------------------------------------------------------
    def token_cost(self, corp: Corporation, hex_id: str) -> int:
        """20M per hex of distance from the company's home (rules/1835.md 8.4)."""
        per_hex = int(game_data()["operating"]["token_cost_per_hex"])
        home = self.game.home_of(corp)
        return per_hex * hex_distances(home).get(hex_id, 0)

    def blocked_by_home(self, corp: Corporation, hex_id: str) -> bool:
        """An unplaced home reserves its city; BA's home blocks all of L6 (rules/1835.md 8.4)."""
        for other in self.game.majors():
            if other is corp or not self.game.home_blocks_hex(other):
                continue
            home = self.game.home_of(other)
            if home == hex_id and not self.board.hex(home).has_token(other.sym):
                return True
        return False

    def token_spots(self, corp: Corporation) -> list[tuple[str, int]]:
        """The reached cities with a free slot, but none on a hex an unplaced home blocks
        (rules/1835.md 8.4)."""
        spots = super().token_spots(corp)
        return [(h, i) for h, i in spots if not self.blocked_by_home(corp, h)]

    def place_token(self, corp: Corporation, action: moves.PlaceToken) -> None:
        """A station token as by the default port, at 20M per hex from home; a hex an
        unplaced home blocks is refused in a replay too (rules/1835.md 8.4)."""
        hex_id, _ = self.board.resolve_city(action.city)
        if self.blocked_by_home(corp, hex_id):
            raise IllegalAction(f"{hex_id} is reserved for a home", RULE_TOKEN)
        super().place_token(corp, action)

    def free_token_city(self, corp: Corporation, hexes: list[str]) -> list[tuple[str, int]]:
        """(city id, slot) where a private's free token may go on ``hexes``."""
        out = []
        for hid in hexes:
            state = self.board.hex(hid)
            for index, city in enumerate(state.cities):
                if self.board.can_place_token(hid, index, corp.sym):
                    out.append((self.board.city_id(hid, index), city.get_slot(corp.sym) or 0))
        return out

    def place_free_token(
        self, corp: Corporation, action: moves.PlaceToken, hexes: list[str]
    ) -> str:
        """A private's free token: on one of its ``hexes``, with no reach needed and nothing
        to pay (rules/1835.md 6).  Returns the hex."""
        hex_id, index = self.board.resolve_city(action.city)
        if hex_id not in hexes:
            raise IllegalAction(f"the free token goes to {hexes}", "1835 rules §6")
        self.board.place_token_at(hex_id, index, corp.sym)
        return hex_id

    # -- routes -----------------------------------------------------------------------------
    def best_run(
        self,
        corp: Corporation,
        trains: Sequence[Train] | None = None,
        node_limit: int | None = 20000,
    ) -> BestRun:
        """The best routes of ``corp`` with its trains or ``trains`` (core optimiser), the
        search capped at ``node_limit`` nodes unless None (the routes offered in play; the
        1835 selfplay games were made with the cap of 20000)."""
        return best_routes(
            self.run_context(corp),
            self.train_specs(corp if trains is None else Trains(list(trains))),
            self.route_rules,
            node_limit=node_limit,
        )
