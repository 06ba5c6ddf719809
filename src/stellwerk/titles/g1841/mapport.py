"""The 1841 board for the core map and router (rules/1841.md 1.2, 2.3.3-2.3.5, 2.4).

:class:`MapPort` holds the board of one game (map and tile supply of the option set's variant)
and the current phase, and answers what routes need: the run context, train specifications,
the revenue of a submitted run, the best run, and the political borders in force.  The game
owns one and sets its phase (:meth:`MapPort.set_phase`); tests and the route benchmark also
build positions with :mod:`positions1841` (tools/).

Two track graphs, as 18xx.games keeps them (its caches are cleared at its own points, so
both follow the board only when told, ``follow_board=False``): the full graph, where a token
on a mountain pass starts no walk (it is no base, rules/1841.md 2.3.3), and the region graph,
which besides may not cross the political borders in force (2.3.3 phase 2, 2.3.4, 2.5).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Protocol

from stellwerk.core.map.board import Board
from stellwerk.core.map.graph import GraphCache, WalkLimits
from stellwerk.core.routes.model import RouteView, RunContext, TrainSpec
from stellwerk.core.routes.optimize import BestRun
from stellwerk.core.routes.validate import run_revenue
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


def new_board(variant: Variant = ()) -> Board:
    """A fresh 1841 board of a variant: printed map and full tile supply."""
    return Board(map_spec(variant), supply(variant))


class MapPort:
    """The 1841 game's view of the board (routes; track and tokens come with the game flow)."""

    def __init__(self, settings: Settings1841 | None = None, phase: str = "2") -> None:
        self.variant = variant_of(settings or Settings1841())
        self.data = title_data(self.variant)
        self.board = new_board(self.variant)
        self.phase = phase
        self.route_rules = route_rules(self.variant)
        passes = pass_tiles(self.variant)
        self.pass_hexes = frozenset(h for h in self.board.hexes if h in passes)
        """Hexes of mountain passes (printed pass cities; pass tiles go only there)."""
        self.graph = GraphCache(
            self.board, follow_board=False, limits=WalkLimits(inert_tokens=self.pass_hexes)
        )
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

    @contextlib.contextmanager
    def cleared_after(self) -> Iterator[None]:
        """A tile lay or a token placed, after which both graphs forget their networks
        (:meth:`clear_graphs`): networks a token test put off are dropped, not walked
        before the board changes (``GraphCache.cleared_after``)."""
        with self.graph.cleared_after(), self.region_graph.cleared_after():
            yield

    def is_pass(self, hex_id: str) -> bool:
        """Whether the hex is a mountain pass (rules/1841.md 1.2)."""
        return hex_id in self.pass_hexes

    # -- routes -----------------------------------------------------------------------------
    def run_context(self, corp: str) -> RunContext:
        """Board, running corporation and phase (its tile colours) for the route hooks."""
        phase = self.data.phase(self.phase)
        return RunContext(self.board, corp, phase.name, phase.tiles)

    def train_specs(self, owner: HasTrains) -> dict[str, TrainSpec]:
        """Route specifications of the owner's trains by id: the number printed on the train
        is its distance (rules/1841.md 1.2; free stops are the distance hook's business)."""
        return {
            t.id: TrainSpec(t.id, t.name, self.data.train(t.name).distance) for t in owner.trains
        }

    def route_revenue(
        self,
        corp: str,
        routes: Sequence[RouteView],
        trains: Mapping[str, TrainSpec],
        recorded: bool,
    ) -> int:
        """Revenue of a run_routes action: the recorded revenues on replay, else every route
        checked by the rules and recomputed (common rules §2.3, §6.1)."""
        ctx = self.run_context(corp)
        return run_revenue(ctx, routes, trains, self.route_rules, recorded=recorded)

    def best_run(self, corp: str, trains: Mapping[str, TrainSpec]) -> BestRun:
        """The proven-optimal run of ``corp`` with ``trains``."""
        return best_run(self.run_context(corp), trains, self.route_rules, self.variant)
