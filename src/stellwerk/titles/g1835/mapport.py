"""1835's map work on the generic board: homes, tile lays, tokens at 20M per hex of distance,
routes (rules/1835.md 8.2-8.5)."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Train, Trains, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.graph import NO_LIMITS, GraphCache, Network, WalkLimits
from stellwerk.core.map.lay import LayOptions, check_lay, legal_lays
from stellwerk.core.routes.model import RouteView, RunContext, TrainSpec
from stellwerk.core.routes.optimize import BestRun, best_routes
from stellwerk.core.routes.validate import run_revenue
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


@dataclass(frozen=True)
class _FrozenGraph:
    """A graph cache holding one network fixed for the duration of an enumeration."""

    net: Network
    limits: WalkLimits = NO_LIMITS
    """1835 walks without limits (no borders)."""

    def network(self, corp: str) -> Network:
        return self.net


class MapPort:
    """The 1835 game's view of the board."""

    def __init__(self, game: Game1835, unlimited: str = "limited") -> None:
        self.game = game
        self.board = new_board(unlimited)
        self.graph = GraphCache(self.board)
        self.track_rules = track_rules()
        self.route_rules = route_rules()

    # -- homes ------------------------------------------------------------------------------
    def reserve_home(self, corp: Corporation, hex_id: str, city: int) -> None:
        """An unplaced home reserves its city (Rails default; rules/1835.md 8.4)."""
        self.board.reserve(hex_id, city, corp.sym)

    def place_home(self, corp: Corporation, hex_id: str, city: int) -> None:
        """Put the home token down; on a multi-city tile whose home city is taken the first
        free city is used (BA on green L6: Rails lets the director choose; UNSURE)."""
        board = self.board
        if board.hex(hex_id).has_token(corp.sym):
            return
        if city < len(board.hex(hex_id).cities) and board.can_place_token(hex_id, city, corp.sym):
            board.place_token_at(hex_id, city, corp.sym)
            return
        for index in range(len(board.hex(hex_id).cities)):
            if board.can_place_token(hex_id, index, corp.sym):
                board.place_token_at(hex_id, index, corp.sym)
                return
        board.unreserve(corp.sym)

    def placed_tokens(self, corp: Corporation) -> int:
        return len(self.board.token_hexes(corp.sym))

    def has_token_in(self, corp: Corporation, hex_id: str) -> bool:
        return self.board.hex(hex_id).has_token(corp.sym)

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
        return LayOptions(
            phase_colors=self.game.phases.current.tiles,
            teleport=teleport,
            policy=self.game.policy,
            rules=self.track_rules,
        )

    def lay_cost(self, corp: Corporation, action: moves.LayTile, opts: LayOptions) -> int:
        return check_lay(
            self.board,
            self.graph,
            corp.sym,
            action.hex,
            action.tile,
            action.rotation,
            opts,
        )

    def lay_tile(
        self,
        corp: Corporation,
        action: moves.LayTile,
        free: bool = False,
        teleport: list[str] | None = None,
        colors: tuple[str, ...] | None = None,
    ) -> None:
        """Lay or upgrade a tile; terrain (first lay only) is paid to the bank unless a private
        company's lay is free (rules/1835.md 6, 8.3)."""
        opts = self.lay_options(corp, teleport)
        if colors is not None:
            opts = replace(opts, phase_colors=colors)
        cost = 0 if free else self.lay_cost(corp, action, opts)
        if free:
            self.lay_cost(corp, action, opts)
        if corp.cash < cost:
            raise IllegalAction(f"{corp.sym} cannot pay {cost}", "1835 rules §8.3")
        self.board.lay_tile(action.hex, action.tile, action.rotation)
        if cost:
            transfer(corp, self.game.bank, cost, "1835 rules §8.3")

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

    def legal_lays(
        self, corp: Corporation, hex_id: str | None = None, colors: tuple[str, ...] | None = None
    ) -> list[tuple[str, str, int]]:
        """Every legal lay of ``corp`` (on ``hex_id`` only if given) that it can pay for.  The
        network is computed once for the whole enumeration (trial lays change the board's
        version and would otherwise recompute it for every candidate)."""
        opts = self.lay_options(corp)
        if colors is not None:
            opts = replace(opts, phase_colors=colors)
        graph = _FrozenGraph(self.graph.network(corp.sym))
        hexes = [hex_id] if hex_id else sorted(graph.net.hexes)
        pricing = replace(opts, policy=replace(opts.policy, lay_position=False))
        out = []
        for h in hexes:
            if h not in self.board.hexes:
                continue
            for tile_id, rotation in legal_lays(self.board, graph, corp.sym, h, opts):  # type: ignore[arg-type]
                cost = check_lay(self.board, graph, corp.sym, h, tile_id, rotation, pricing)  # type: ignore[arg-type]
                if cost <= corp.cash:
                    out.append((h, tile_id, rotation))
        return out

    def lay_hexes(self, corp: Corporation) -> list[str]:
        """Hexes where ``legal_lays(corp, hex)`` may list lays: those the network reaches."""
        return [h for h in sorted(self.graph.network(corp.sym).hexes) if h in self.board.hexes]

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
        spots = self.graph.tokenable_cities(corp.sym)
        return [(h, i) for h, i in spots if not self.blocked_by_home(corp, h)]

    def token_choices(self, corp: Corporation) -> list[tuple[str, int, int]]:
        """(city id, slot, cost) for every city where ``corp`` may place a token now."""
        out = []
        for hid, index in self.token_spots(corp):
            cost = self.token_cost(corp, hid)
            if cost <= corp.cash:
                slot = self.board.hex(hid).cities[index].get_slot(corp.sym)
                out.append((self.board.city_id(hid, index), slot or 0, cost))
        return out

    def place_token(
        self, corp: Corporation, action: moves.PlaceToken, free_hexes: list[str] | None = None
    ) -> str:
        """Place a station token: reachable (live play), a free slot, not on a blocked home;
        pays 20M per hex from home unless a private's free token (``free_hexes``).  Returns the
        hex."""
        board = self.board
        hex_id, index = board.resolve_city(action.city)
        if free_hexes is not None:
            if hex_id not in free_hexes:
                raise IllegalAction(f"the free token goes to {free_hexes}", "1835 rules §6")
            cost = 0
        else:
            if self.game.policy.token_reach and (hex_id, index) not in self.token_spots(corp):
                raise IllegalAction(f"{corp.sym} cannot place a token in {hex_id}", RULE_TOKEN)
            if self.blocked_by_home(corp, hex_id):
                raise IllegalAction(f"{hex_id} is reserved for a home", RULE_TOKEN)
            cost = self.token_cost(corp, hex_id)
        if corp.cash < cost:
            raise IllegalAction(f"{corp.sym} cannot pay {cost} for the token", RULE_TOKEN)
        board.place_token_at(hex_id, index, corp.sym)
        if cost:
            transfer(corp, self.game.bank, cost, RULE_TOKEN)
        return hex_id

    def free_token_city(self, corp: Corporation, hexes: list[str]) -> list[tuple[str, int]]:
        """(city id, slot) where a private's free token may go on ``hexes``."""
        out = []
        for hid in hexes:
            state = self.board.hex(hid)
            for index, city in enumerate(state.cities):
                if self.board.can_place_token(hid, index, corp.sym):
                    out.append((self.board.city_id(hid, index), city.get_slot(corp.sym) or 0))
        return out

    # -- routes -----------------------------------------------------------------------------
    def run_context(self, corp: Corporation) -> RunContext:
        game = self.game
        phase = game.phases.current
        return RunContext(self.board, corp.sym, phase.name, tuple(phase.tiles))

    def train_specs(self, corp: Corporation | Trains) -> dict[str, TrainSpec]:
        return {t.id: TrainSpec(t.id, t.name, t.distance) for t in corp.trains}

    def route_revenue(self, corp: Corporation, routes: Sequence[RouteView]) -> int:
        """Revenue of routes: checked and recomputed (common rules §6.1)."""
        return run_revenue(
            self.run_context(corp),
            routes,
            self.train_specs(corp),
            self.route_rules,
            recorded=not self.game.policy.run_revenue,
        )

    def best_run(
        self,
        corp: Corporation,
        node_limit: int | None = 20000,
        trains: Sequence[Train] | None = None,
    ) -> BestRun:
        """The best routes of ``corp`` with its trains or ``trains`` (core optimiser)."""
        return best_routes(
            self.run_context(corp),
            self.train_specs(corp if trains is None else Trains(list(trains))),
            self.route_rules,
            node_limit=node_limit,
        )
