"""The 1841 board on the core's default board port (rules/1841.md 1.2, 2.3.3-2.3.5, 2.4).

:class:`MapPort` is a ``core.map.port.BoardPort`` holding the board of one game (map and tile
supply of the option set's variant) and the current phase.  It takes from the default port
the token hexes, the placed and unplaced tokens of a charter, the token choices and the
placement (no price: the tokens were bought at the start, rules/1841.md 2.2.3), the revenue of
a submitted run and the route search's inputs.  What differs in 1841 it overrides: two track
graphs, the phase and its political borders, the passes, where tokens may go, the lay
options, the run context, the trains' distances and the route search.

Two track graphs, as 18xx.games keeps them (its caches are cleared at its own points, so
both follow the board only when told, ``follow_board=False``): the full graph, where a token
on a mountain pass starts no walk (it is no base, rules/1841.md 2.3.3), and the region graph,
which besides may not cross the political borders in force (2.3.3 phase 2, 2.3.4, 2.5).

Built without a game (``MapPort(settings, phase)``), the port answers routes only: positions
rebuilt for tools and tests (:mod:`positions1841`, tools/) and the route benchmark; what reads
the game (lays, token placement, the revenue of a run by the game's checks) needs a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from stellwerk.core import moves
from stellwerk.core.entities import Bank, Corporation
from stellwerk.core.entities import Train as CoreTrain
from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.board import Board
from stellwerk.core.map.graph import ClearedAfter, GraphCache, WalkLimits
from stellwerk.core.map.lay import LayOptions
from stellwerk.core.map.port import BoardPort, PortGame
from stellwerk.core.policy import Policy
from stellwerk.core.routes.model import RunContext, TrainSpec
from stellwerk.core.routes.optimize import BestRun
from stellwerk.core.trains import Phases
from stellwerk.titles.g1841.data_load import (
    Edge,
    Variant,
    map_spec,
    pass_tiles,
    supply,
    title_data,
    variant_of,
)
from stellwerk.titles.g1841.routefind import best_run
from stellwerk.titles.g1841.rules.borders import borders_in_force
from stellwerk.titles.g1841.rules.routes import route_rules
from stellwerk.titles.g1841.rules.track import track_rules
from stellwerk.titles.g1841.settings import Settings1841


class Train(Protocol):
    """What routes need of a train: its id (``"8-0"``) and name (``"8"``)."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


class HasTrains(Protocol):
    """A train owner (a corporation, or a what-if stand-in)."""

    @property
    def trains(self) -> Sequence[Train]: ...


class NoGame:
    """The game of a port built without one (positions for tools and tests): it has nothing
    to read, and asking for it is an error of the caller."""

    def _missing(self, what: str) -> LookupError:
        return LookupError(f"an 1841 board built without a game has no {what}")

    @property
    def policy(self) -> Policy:
        raise self._missing("checks policy")

    @property
    def bank(self) -> Bank:
        raise self._missing("bank")

    @property
    def phases(self) -> Phases:
        raise self._missing("phases")


def new_board(variant: Variant = ()) -> Board:
    """A fresh 1841 board of a variant: printed map and full tile supply."""
    return Board(map_spec(variant), supply(variant))


def _sym(corp: Corporation | str) -> str:
    return corp if isinstance(corp, str) else corp.sym


class MapPort(BoardPort):
    """The 1841 game's view of the board: the default port with 1841's graphs, phase, token
    spots, lay options and route search."""

    track_rule = "rules/1841.md 2.3.3"
    token_rule = "rules/1841.md 2.3.4"

    def __init__(
        self,
        settings: Settings1841 | None = None,
        phase: str = "2",
        game: PortGame | None = None,
    ) -> None:
        self.settings = settings or Settings1841()
        self.variant = variant_of(self.settings)
        self.data = title_data(self.variant)
        super().__init__(
            game or NoGame(),
            new_board(self.variant),
            route_rules=route_rules(self.variant),
            follow_board=False,
        )
        self.phase = phase
        passes = pass_tiles(self.variant)
        self.pass_hexes = frozenset(h for h in self.board.hexes if h in passes)
        """Hexes of mountain passes (printed pass cities; pass tiles go only there)."""
        self.graph.limits = WalkLimits(inert_tokens=self.pass_hexes)
        """The full graph: borders ignored; tokens on passes start no walk."""
        self.region_graph = GraphCache(
            self.board, follow_board=False, limits=self.region_limits(), walked=self.graph.walked
        )
        """The region graph: the political borders in force are not crossed either.  It
        shares the networks walked with the full graph: where no border is near, one walk
        serves both (``graph.same_walks``)."""
        self.selected = self.region_graph
        """The graph track and routes use now (18xx.games ``@selected_graph``): chosen at the
        start of every operating turn, the region graph in phase 2 (rules/1841.md 2.3.3)."""

    # -- phase ------------------------------------------------------------------------------
    def political_borders(self) -> frozenset[Edge]:
        """The political border edges in force now (rules/1841.md 1.2, 2.4)."""
        return borders_in_force(self.phase, self.variant)

    def region_limits(self) -> WalkLimits:
        """The region graph's limits: the borders in force, and passes start no walk."""
        return WalkLimits(self.political_borders(), self.pass_hexes)

    def set_phase(self, phase: str) -> None:
        """A new phase: its borders bound the region graph from now on (its cached networks
        stay until the next clearing, as in 18xx.games, rules/1841.md 2.4)."""
        self.phase = phase
        self.region_graph.limits = self.region_limits()

    def select_graph(self, status: Sequence[str]) -> None:
        """At the start of a turn: the region graph while borders may not be crossed by
        track (phase 2), else the full graph (rules/1841.md 2.3.3)."""
        self.selected = self.region_graph if "no_border_crossing" in status else self.graph

    def clear_graphs(self) -> None:
        """After a tile lay or a token: both graphs forget their networks (18xx.games
        ``clear_graph_for_entity``)."""
        self.graph.clear()
        self.region_graph.clear()

    def cleared_after(self) -> ClearedAfter:
        """A tile lay or a token placed, after which both graphs forget their networks (the
        default port's has one graph; :meth:`clear_graphs`): networks a token test put off
        are dropped, not walked before the board changes (``GraphCache.cleared_after``)."""
        return ClearedAfter((self.graph, self.region_graph))

    def is_pass(self, hex_id: str) -> bool:
        """Whether the hex is a mountain pass (rules/1841.md 1.2)."""
        return hex_id in self.pass_hexes

    # -- tokens ---------------------------------------------------------------------------
    def token_spots(self, corp: Corporation) -> list[tuple[str, int]]:
        """The cities with a free slot the corporation reaches on the region graph: a token
        never reaches across a political border in force (rules/1841.md 2.3.4)."""
        return self.region_graph.tokenable_cities(corp.sym)

    def can_place_token(self, corp: Corporation) -> bool:
        """A token left and a free city reached on the region graph (18xx.games
        ``can_token?``; no price, rules/1841.md 2.3.4)."""
        return self.unplaced_tokens(corp) > 0 and self.region_graph.has_tokenable_city(corp.sym)

    def place_token(self, corp: Corporation, action: moves.PlaceToken) -> None:
        """Place the token as the default port does (no price; a city reached on the region
        graph in live play), its slot checked first (a refusal changes nothing); both graphs
        forget their networks, and a token on a pass makes the full graph forget every
        route too (it may cut a route, 18xx.games; rules/1841.md 2.3.4)."""
        hex_id, index = self.board.resolve_city(action.city)
        if not self.board.can_place_token(hex_id, index, corp.sym):
            raise IllegalAction(f"{corp.sym} cannot place a token in {hex_id}", self.token_rule)
        super().place_token(corp, action)
        if self.is_pass(hex_id):
            self.graph.clear_all()

    # -- track ------------------------------------------------------------------------------
    def lay_options(self, corp: Corporation) -> LayOptions:
        """The phase's colours, the game's checks policy and 1841's hooks: with the setting
        ``reachable_city_upgrade_without_new_track`` the borders in force bound the excused
        city upgrades (rules/1841.md 2.3.3, :func:`.rules.track.track_rules`)."""
        borders = (
            self.political_borders()
            if self.settings.reachable_city_upgrade_without_new_track
            else None
        )
        return LayOptions(
            phase_colors=self.game.phases.current.tiles,
            policy=self.game.policy,
            rules=track_rules(self.variant, borders),
        )

    # -- routes -----------------------------------------------------------------------------
    def route_info(self, corp: Corporation) -> tuple[bool, bool]:
        """The selected graph's route flags (18xx.games ``can_run_route?``)."""
        return self.selected.route_flags(corp.sym)

    def run_context(self, corp: Corporation | str) -> RunContext:
        """Board, running corporation (or its symbol) and the port's phase (its tile colours)
        for the route hooks."""
        phase = self.data.phase(self.phase)
        return RunContext(self.board, _sym(corp), phase.name, phase.tiles)

    def train_specs(self, corp: HasTrains) -> dict[str, TrainSpec]:
        """Route specifications of the owner's trains by id: the number printed on the train
        is its distance (rules/1841.md 1.2; free stops are the distance hook's business)."""
        return {
            t.id: TrainSpec(t.id, t.name, self.data.train(t.name).distance) for t in corp.trains
        }

    def best_run(self, corp: Corporation, trains: Sequence[CoreTrain] | None = None) -> BestRun:
        """The proven-optimal run of the corporation with its trains or ``trains``, by 1841's
        route search (:mod:`.routefind`)."""
        owner: HasTrains = corp if trains is None else _Owner(tuple(trains))
        return self.best_run_of(corp.sym, self.train_specs(owner))

    def best_run_of(self, corp: str, trains: Mapping[str, TrainSpec]) -> BestRun:
        """The proven-optimal run of the corporation named ``corp`` with ``trains`` (a
        position without a game)."""
        return best_run(self.run_context(corp), trains, self.route_rules, self.variant)


class _Owner:
    """Trains to run without their corporation (a what-if run)."""

    def __init__(self, trains: Sequence[Train]) -> None:
        self.trains = trains
