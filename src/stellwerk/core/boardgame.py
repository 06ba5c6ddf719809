"""A game by the common rules on the default board port, built from the core schema.

:class:`BoardGame` is a complete :class:`~stellwerk.core.game.Game`: its bank, market, phases,
trains and corporations come from a title's game table (``core.schema``), its board from the
title's map and tile tables through :class:`~stellwerk.core.map.port.BoardPort`, and its
rounds are the generic ones: stock rounds of buying, selling and starting corporations (a
corporation's home token goes down when it is started), operating rounds of track, a token,
routes, dividends and trains (common rules §6).  The game ends when the bank breaks, after
the operating rounds of the set (common rules §4.2).  A title that plays like this writes its
data and a subclass naming its title and its tables (:meth:`tables`, :meth:`map_table`,
:meth:`tiles_table`), and overrides only the hooks where its rules differ.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Entity, Player, Train, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Round
from stellwerk.core.flow.operating import (
    Bankrupt,
    BuyTrain,
    DiscardTrain,
    Dividend,
    Route,
    Token,
    Track,
)
from stellwerk.core.flow.rounds import OperatingRound, StockRound
from stellwerk.core.flow.stock import BuySellParShares
from stellwerk.core.game import Game
from stellwerk.core.jsondata import JSONObject
from stellwerk.core.map.port import BoardPort, new_board
from stellwerk.core.market import Market
from stellwerk.core.routes.model import RouteSearch, RouteView
from stellwerk.core.routes.optimize import BestRun
from stellwerk.core.schema import GameTables, game_tables
from stellwerk.core.trains import Depot, Phases

RULE_PLAYERS = "common rules §2.4"


class BoardGame(Game[BoardPort]):
    """A game by the common rules on the default board port (the module's description)."""

    game_end_check: ClassVar[dict[str, str]] = {"bank": "full_or", "bankrupt": "immediate"}

    def __init__(self, players: list[tuple[int | str, str]], options: list[str], seed: int) -> None:
        super().__init__(players, options, seed)
        data = self.tables()
        self.data: JSONObject = data
        """The parsed game table (read by front ends for the corporations' colours)."""
        self.facts: GameTables = game_tables(data)
        """The common facts of the game table (``core.schema``)."""
        n = len(self.players)
        if n not in self.facts.players:
            raise IllegalAction(f"{self.title} is for {self.facts.players} players", RULE_PLAYERS)
        self.bank.cash = self.facts.bank
        self.market = Market([list(row) for row in self.facts.market])
        self.phases = Phases(list(self.facts.phases))
        self.operating_rounds = self.phases.current.operating_rounds
        self.depot = Depot(
            [
                Train(t.name, i, t.distance, t.price, t.rusts_on, t.available_on, list(t.events))
                for t in self.facts.trains
                for i in range(t.count)
            ]
        )
        for player in self.players:
            transfer(self.bank, player, self.facts.starting_cash[n])
        self.map = self.new_map()
        self.memo_cache = self.map.graph
        for c in self.facts.corporations:
            corp = Corporation(c.sym, c.name, list(c.shares), c.tokens, c.float_percent, c.home)
            self.corporations.append(corp)
            self.map.reserve_home(corp)
        self.round = self.new_stock_round()
        self.round.setup()

    # -- the title's data ---------------------------------------------------------------------
    @abstractmethod
    def tables(self) -> JSONObject:
        """The title's parsed ``data/game.toml`` (the schema of ``core.schema``)."""

    @abstractmethod
    def map_table(self) -> JSONObject:
        """The title's parsed ``data/map.toml`` (the schema of ``core.map.spec``)."""

    @abstractmethod
    def tiles_table(self) -> JSONObject:
        """The title's parsed ``data/tiles.toml`` (the schema of ``core.map.spec``)."""

    def new_map(self) -> BoardPort:
        """Hook: the game's map port; the default board port on the title's map and tiles,
        tokens at the table's ``token_prices``."""
        return BoardPort(
            self,
            new_board(self.map_table(), self.tiles_table()),
            token_prices=self.facts.token_prices,
        )

    # -- rounds -------------------------------------------------------------------------------
    def new_stock_round(self) -> Round[Entity]:
        """Players buy, sell and start corporations (common rules §6.6)."""
        return StockRound(self, [DiscardTrain, BuySellParShares])

    def new_operating_round(self, round_num: int) -> Round[Entity]:
        """Each floated corporation lays track, places a token, runs, pays or withholds and
        buys trains (common rules §6)."""
        return OperatingRound(
            self,
            [Bankrupt, Track, Token, Route, Dividend, DiscardTrain, BuyTrain],
            round_num,
        )

    def player_cert_limit(self, player: Player | None) -> int:
        """The table's ``[cert_limit]`` for the number of players."""
        return self.facts.cert_limit[len(self.players)]

    def after_par(self, corp: Corporation) -> None:
        """A started corporation puts its home token down at once (common rules §6.4)."""
        self.map.place_home(corp)

    # -- the map --------------------------------------------------------------------------------
    def token_hexes(self, corp: Corporation) -> list[str]:
        return sorted(self.map.token_hexes(corp.sym))

    def trace_tiles(self) -> dict[str, str]:
        return self.map.board.trace_tiles()

    def can_lay_tile(self, corp: Corporation) -> bool:
        return self.map.can_lay_tile(corp)

    def legal_lays(self, corp: Corporation, hex_id: str | None) -> list[tuple[str, str, int]]:
        return self.map.legal_lays(corp, hex_id)

    def lay_hexes(self, corp: Corporation) -> list[str]:
        return self.map.lay_hexes(corp)

    def lay_is_legal(self, corp: Corporation, hex_id: str, tile_id: str, rotation: int) -> bool:
        return self.map.lay_is_legal(corp, hex_id, tile_id, rotation)

    def lay_tile(self, corp: Corporation, action: moves.LayTile) -> None:
        self.map.lay_tile(corp, action)

    def can_place_token(self, corp: Corporation) -> bool:
        return self.map.can_place_token(corp)

    def token_choices(self, corp: Corporation) -> list[tuple[str, int]]:
        return self.map.token_choices(corp)

    def place_token(self, corp: Corporation, action: moves.PlaceToken) -> None:
        self.map.place_token(corp, action)

    def route_info(self, corp: Corporation) -> tuple[bool, bool]:
        return self.map.route_info(corp)

    def best_run(self, corp: Corporation, trains: Sequence[Train] | None = None) -> BestRun:
        return self.map.best_run(corp, trains)

    def route_search(self, corp: Corporation) -> RouteSearch:
        return self.map.route_search(corp)

    def route_revenue(self, corp: Corporation, routes: Sequence[RouteView]) -> int:
        return self.map.route_revenue(corp, routes)
