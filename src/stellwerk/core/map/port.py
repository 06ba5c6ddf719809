"""The default board port: a game's map work on the generic board by the common rules.

A title whose map follows the common rules (common rules §§6.1, 6.3, 6.4) uses
:class:`BoardPort` as it is: the printed map and tile supply from its data tables
(:func:`new_board`, the schema of ``core.map.spec``), one home token per corporation on its
home hex, tile lays and upgrades checked by ``core.map.lay`` (the printed terrain cost paid to
the bank), station tokens in reachable cities at a fixed price, and routes counted by
``core.routes`` with the title's :class:`~stellwerk.core.routes.model.RouteRules`.  A title
whose map differs subclasses it and overrides only the methods that differ (its
``home_city`` for a home that is not the hex's first city, ``lay_options`` for its track
rules, ``token_price`` / ``token_cost`` for its token costs, ``token_spots`` for where tokens
may go, ``best_run`` for its route search), as a title's own map port may.  The port reads of its
game only what :class:`PortGame` names.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol

from stellwerk.core.entities import Bank, Corporation, Train, Trains, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.jsondata import JSONObject
from stellwerk.core.map.board import Board
from stellwerk.core.map.graph import GraphCache
from stellwerk.core.map.lay import (
    LayOptions,
    TrackRules,
    candidate_hexes,
    check_lay,
    costed_lays,
)
from stellwerk.core.map.spec import load_map, load_supply
from stellwerk.core.policy import Policy
from stellwerk.core.routes.model import RouteRules, RouteSearch, RouteView, RunContext, TrainSpec
from stellwerk.core.routes.optimize import BestRun, best_routes
from stellwerk.core.routes.validate import run_revenue
from stellwerk.core.trains import Phases

if TYPE_CHECKING:
    from stellwerk.core import moves

TRACK_RULE = "common rules §6.3"
TOKEN_RULE = "common rules §6.4"


def new_board(map_table: JSONObject, tiles_table: JSONObject) -> Board:
    """A fresh board: the printed map of ``map_table`` (keys ``layout``, ``letter``, ``hexes``)
    and the full tile supply of ``tiles_table`` (table ``tiles``: name -> definition and
    ``count``), both in the schema of ``core.map.spec``; a table of another shape raises
    ValueError."""
    return Board(load_map(map_table), load_supply(tiles_table))


class PortGame(Protocol):
    """What the default port reads of its game: the checks that run (``policy``), the bank
    paid for lays and tokens, and the current phase (its tile colours and name).  A title's
    port may read more of its own game."""

    @property
    def policy(self) -> Policy: ...

    @property
    def bank(self) -> Bank: ...

    @property
    def phases(self) -> Phases: ...


class BoardPort:
    """A game's view of its board by the common rules.

    ``token_prices``: the price of a corporation's second, third ... token (the home token is
    free; a token beyond the list costs its last price; none: every token is free).
    ``track_rules`` and ``route_rules``: the title's hooks of ``core.map.lay`` and
    ``core.routes`` (the core's defaults: printed terrain cost, any rotation, stops counted,
    printed values).  ``follow_board``: whether the graph cache follows every change of the
    board (``core.map.graph.GraphCache``; a title replaying another engine exactly clears it
    at that engine's points instead).

    The rule a refusal or a payment names is ``track_rule`` / ``token_rule`` (a title's port
    sets its own rule book's section)."""

    track_rule = TRACK_RULE
    token_rule = TOKEN_RULE

    def __init__(
        self,
        game: PortGame,
        board: Board,
        *,
        token_prices: Sequence[int] = (),
        track_rules: TrackRules | None = None,
        route_rules: RouteRules | None = None,
        follow_board: bool = True,
    ) -> None:
        self.game = game
        self.board = board
        self.graph = GraphCache(board, follow_board=follow_board)
        self.token_prices = tuple(token_prices)
        self.track_rules = track_rules or TrackRules()
        self.route_rules = route_rules or RouteRules()

    def cleared_after(self) -> AbstractContextManager[None]:
        """A board change (a tile lay, a token placed) after which the port's graphs forget
        their networks: by default its one graph's (``GraphCache.cleared_after``)."""
        return self.graph.cleared_after()

    # -- homes and tokens -------------------------------------------------------------------
    def home_city(self, corp: Corporation) -> tuple[str, int] | None:
        """The corporation's home city as (hex, city index): by default the first city of its
        ``home`` hex (none without a home)."""
        return None if corp.home is None else (corp.home, 0)

    def reserve_home(self, corp: Corporation) -> None:
        """Reserve a slot of the corporation's home city until its home token is placed
        (common rules §6.4)."""
        home = self.home_city(corp)
        if home is not None:
            self.board.reserve(home[0], home[1], corp.sym)

    def place_home(self, corp: Corporation) -> None:
        """Put the home token on the home city if a slot is free for it; a corporation with a
        token on the home hex already keeps it (common rules §6.4)."""
        home = self.home_city(corp)
        if home is None or self.has_token_in(corp, home[0]):
            return
        if self.board.can_place_token(home[0], home[1], corp.sym):
            self.board.place_token_at(home[0], home[1], corp.sym)
            self.graph.clear()

    def has_token_in(self, corp: Corporation, hex_id: str) -> bool:
        """Whether the corporation has a token on the hex."""
        return self.board.hex(hex_id).has_token(corp.sym)

    def token_hexes(self, corp: str) -> list[str]:
        """The hexes of a corporation's tokens on the board."""
        return self.board.token_hexes(corp)

    def placed_tokens(self, corp: Corporation) -> int:
        return len(self.token_hexes(corp.sym))

    def unplaced_tokens(self, corp: Corporation) -> int:
        """Tokens of the charter not on the board (``Corporation.num_tokens`` in all)."""
        return corp.num_tokens - self.placed_tokens(corp)

    def token_price(self, corp: Corporation) -> int:
        """The price of the corporation's next token: the entry of ``token_prices`` for the
        tokens it has placed after its home token (0 without prices)."""
        if not self.token_prices:
            return 0
        index = max(self.placed_tokens(corp) - 1, 0)
        return self.token_prices[min(index, len(self.token_prices) - 1)]

    def token_cost(self, corp: Corporation, hex_id: str) -> int:
        """The price of the corporation's next token in a city of ``hex_id``: by default
        :meth:`token_price`, the same everywhere."""
        return self.token_price(corp)

    def token_spots(self, corp: Corporation) -> list[tuple[str, int]]:
        """(hex, city index) where the corporation may place a token by position: the cities
        with a free slot that it reaches (common rules §6.4)."""
        return self.graph.tokenable_cities(corp.sym)

    def can_place_token(self, corp: Corporation) -> bool:
        """A token left, its price in the treasury, and a reachable city with a free slot
        (common rules §6.4)."""
        return (
            self.unplaced_tokens(corp) > 0
            and corp.cash >= self.token_price(corp)
            and self.graph.has_tokenable_city(corp.sym)
        )

    def token_choices(self, corp: Corporation) -> list[tuple[str, int]]:
        """(city id, slot) where the corporation may place a token now and pay for it."""
        if not self.can_place_token(corp):
            return []
        out = []
        for hex_id, index in self.token_spots(corp):
            if self.token_cost(corp, hex_id) > corp.cash:
                continue
            slot = self.board.hex(hex_id).cities[index].get_slot(corp.sym)
            out.append((self.board.city_id(hex_id, index), slot or 0))
        return out

    def place_token(self, corp: Corporation, action: moves.PlaceToken) -> None:
        """Place a token in the action's ``city`` (a city id), reachable in live play, paying
        its price to the bank (common rules §6.4)."""
        hex_id, index = self.board.resolve_city(action.city)
        rule = self.token_rule
        if self.unplaced_tokens(corp) <= 0:
            raise IllegalAction(f"{corp.sym} has no token left", rule)
        price = self.token_cost(corp, hex_id)
        if corp.cash < price:
            raise IllegalAction(f"{corp.sym} cannot pay {price} for a token", rule)
        if self.game.policy.token_reach and (hex_id, index) not in self.token_spots(corp):
            raise IllegalAction(f"{corp.sym} cannot reach a free slot in {hex_id}", rule)
        with self.cleared_after():
            self.board.place_token_at(hex_id, index, corp.sym)
        if price:
            transfer(corp, self.game.bank, price, rule)

    # -- track ------------------------------------------------------------------------------
    def lay_options(self, corp: Corporation) -> LayOptions:
        """The inputs of the lay check: the current phase's tile colours, the checks policy
        and the title's track rules (common rules §6.3)."""
        return LayOptions(
            phase_colors=self.game.phases.current.tiles,
            policy=self.game.policy,
            rules=self.track_rules,
        )

    def can_lay_tile(self, corp: Corporation) -> bool:
        """A corporation with a token on the board may lay track (common rules §6.3)."""
        return self.placed_tokens(corp) > 0

    def lay_tile(self, corp: Corporation, action: moves.LayTile) -> None:
        """Lay or upgrade the action's tile (``hex``, ``tile``, ``rotation``), checked by the
        core lay rules; its cost (the printed terrain cost by default) is paid to the bank
        (common rules §6.3)."""
        self.lay_checked(corp, action, self.lay_options(corp))

    def lay_checked(
        self, corp: Corporation, action: moves.LayTile, opts: LayOptions, *, free: bool = False
    ) -> None:
        """Lay the action's tile checked by the core lay rules with ``opts``; its cost is paid
        to the bank unless the lay is ``free`` (checked all the same)."""
        cost = check_lay(
            self.board, self.graph, corp.sym, action.hex, action.tile, action.rotation, opts
        )
        if free:
            cost = 0
        if corp.cash < cost:
            raise IllegalAction(f"{corp.sym} cannot pay {cost}", self.track_rule)
        with self.cleared_after():
            self.board.lay_tile(action.hex, action.tile, action.rotation)
        if cost:
            transfer(corp, self.game.bank, cost, self.track_rule)

    def legal_lays(self, corp: Corporation, hex_id: str | None) -> list[tuple[str, str, int]]:
        """(hex, tile id, rotation) the corporation may lay now and pay for (one hex on
        request; none on a hex not on the board)."""
        if hex_id and hex_id not in self.board.hexes:
            return []
        opts = self.lay_options(corp)
        lays = costed_lays(self.board, self.graph, corp.sym, opts, hex_id or None)
        return [(h, tile, rotation) for h, tile, rotation, cost in lays if cost <= corp.cash]

    def lay_hexes(self, corp: Corporation) -> list[str]:
        """Hexes where :meth:`legal_lays` may list lays (the hexes the corporation reaches)."""
        return candidate_hexes(self.board, self.graph, corp.sym, self.lay_options(corp))

    def lay_is_legal(self, corp: Corporation, hex_id: str, tile_id: str, rotation: int) -> bool:
        """Whether :meth:`legal_lays` lists this lay (one lay checked)."""
        if hex_id not in self.board.hexes or tile_id not in self.board.available().values():
            return False
        try:
            cost = check_lay(
                self.board, self.graph, corp.sym, hex_id, tile_id, rotation, self.lay_options(corp)
            )
        except IllegalAction:
            return False
        return cost <= corp.cash

    # -- routes -----------------------------------------------------------------------------
    def route_info(self, corp: Corporation) -> tuple[bool, bool]:
        """(has a route, must buy a train) of the corporation's network."""
        return self.graph.route_flags(corp.sym)

    def run_context(self, corp: Corporation) -> RunContext:
        """The board, the running corporation and the current phase with its tile colours."""
        phase = self.game.phases.current
        return RunContext(self.board, corp.sym, phase.name, tuple(phase.tiles))

    def train_specs(self, corp: Corporation | Trains) -> dict[str, TrainSpec]:
        """The trains as routes see them: each counts its ``distance`` in stops."""
        return {t.id: TrainSpec(t.id, t.name, t.distance) for t in corp.trains}

    def route_revenue(self, corp: Corporation, routes: Sequence[RouteView]) -> int:
        """The revenue of a run: every route checked by the route rules in live play, the
        recorded revenues taken in a replay (common rules §§2.3, 6.1)."""
        return run_revenue(
            self.run_context(corp),
            routes,
            self.train_specs(corp),
            self.route_rules,
            recorded=not self.game.policy.run_revenue,
        )

    def best_run(self, corp: Corporation, trains: Sequence[Train] | None = None) -> BestRun:
        """The best run of the corporation with its trains or ``trains`` (proven optimal)."""
        specs = self.train_specs(corp if trains is None else Trains(list(trains)))
        return best_routes(self.run_context(corp), specs, self.route_rules)

    def route_search(self, corp: Corporation) -> RouteSearch:
        """What a search of the corporation's routes needs now."""
        return RouteSearch(self.run_context(corp), self.train_specs(corp), self.route_rules)
