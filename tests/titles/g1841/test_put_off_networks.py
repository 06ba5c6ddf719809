"""The 1841 token step's test (rules/1841.md 2.3.4: a token to place and a free city reached
on the region graph) stops its walks at the first such city and puts the corporation's
network off (``GraphCache.has_tokenable_city``): at every position of the recorded
18xx.games games both graphs hold what walking the network at once would leave, the same
entities are to act, and the answers stay those of the network walked at the test when the
borders in force change before anything clears the graphs (a new phase: the cache keeps the
network walked under the old borders, as 18xx.games' does)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from tests.conftest import net_contents

from stellwerk.api import Game
from stellwerk.core.actions import action_id
from stellwerk.core.map.graph import (
    GraphCache,
    TokenablePaths,
    compute_network,
    reaches_any_path,
    tokenable_paths,
)
from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.titles.g1841.game import Game1841

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "18xx.games" / "1841"
NAMES = ["1841_game_end_bank", "1841_game_end_bankrupt", "1841_game_end_offboards"]


def _contents(graph: GraphCache) -> tuple[object, ...]:
    """What the cache holds, the networks it put off walked now under the limits of their
    test (what ``settle`` would leave, found without changing the cache)."""
    nets = {corp: net_contents(net) for corp, net in graph._nets.items()}
    tokenable = dict(graph._tokenable)
    routes = dict(graph._routes)
    for corp, (_, limits, _) in graph._deferred.items():
        net = compute_network(graph.board, corp, limits=limits)
        nets[corp] = net_contents(net)
        tokenable[corp] = graph._token_spots(corp, net)
        old = routes.get(corp, (False, False))
        routes[corp] = (old[0] or net.route_available, old[1] or net.route_train_purchase)
    return nets, tokenable, routes


def _check_token_tests(engine: Game1841) -> None:
    """The walks stopped at the first city with a free slot (the cities looked at as the
    walks meet them) answer what the whole network's token spots answer, on both graphs."""
    board = engine.map.board
    for graph in (engine.map.region_graph, engine.map.graph):
        for corp in engine.corporations:
            sym = corp.sym
            lazy = reaches_any_path(board, sym, TokenablePaths(board, sym), graph.limits)
            listed = reaches_any_path(board, sym, tokenable_paths(board, sym), graph.limits)
            net = compute_network(board, sym, limits=graph.limits)
            assert lazy == listed == bool(graph._token_spots(sym, net)), sym


def _check_new_borders(ours: Game1841, theirs: Game1841) -> None:
    """On copies: the last phase's borders come into force; every corporation's token test
    and network on the region graph are what the cache walking at once answers."""
    ours, theirs = copy.deepcopy(ours), copy.deepcopy(theirs)
    last = ours.phases.all[-1].name
    ours.map.set_phase(last)
    theirs.map.set_phase(last)
    mine, eager = ours.map.region_graph, theirs.map.region_graph
    for sym in list(mine._deferred):
        assert mine.has_tokenable_city(sym) == bool(eager.tokenable_cities(sym)), sym
        assert net_contents(mine.network(sym)) == net_contents(eager.network(sym)), sym
        assert mine.route_flags(sym) == eager.route_flags(sym), sym


@pytest.mark.parametrize("name", NAMES)
def test_put_off_networks_are_the_networks_walked_at_once(name: str) -> None:
    path = FIXTURES / f"{name}.json"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    game_file = load_game_file(read_game_file(path))
    args = (game_file.title, game_file.players, game_file.optional_rules, game_file.seed)
    putting_off, eager = Game.create(*args), Game.create(*args)
    eager_engine = eager._engine
    assert isinstance(eager_engine, Game1841)
    eager_region = eager_engine.map.region_graph

    eager_region.puts_off = False  # the token test walks the network at once
    put_off = borders_checked = 0
    for number, action in enumerate(game_file.live):
        putting_off.process(action, replay=True)
        eager.process(action, replay=True)
        engine = putting_off._engine
        assert isinstance(engine, Game1841)
        put_off += bool(engine.map.region_graph._deferred)
        for ours, theirs in (
            (engine.map.region_graph, eager_region),
            (engine.map.graph, eager_engine.map.graph),
        ):
            assert _contents(ours) == _contents(theirs), action_id(action)
            assert ours.stale == 0
        assert putting_off.active_entities() == eager.active_entities()
        if action["type"] == "lay_tile" and number % 5 == 0:
            _check_token_tests(engine)
            if engine.map.region_graph._deferred:
                _check_new_borders(engine, eager_engine)
                borders_checked += 1
    assert put_off > 10
    assert borders_checked > 0
