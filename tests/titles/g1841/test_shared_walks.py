"""One network walk serves both 1841 graphs where the borders do not matter
(``graph.same_walks``, ``graph.WalkedNetworks``): at every board of the recorded 18xx.games
games, for every corporation with a token and every set of borders of the game, a network
that ``same_walks`` lets stand for another is the one walked afresh under the other's limits
(rules/1841.md 2.3.3-2.3.5: the region graph does not cross the borders in force, the full
graph ignores them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from stellwerk.api import Game
from stellwerk.core.map.board import Board
from stellwerk.core.map.graph import Network, WalkLimits, compute_network, same_walks
from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.titles.g1841.game import Game1841
from stellwerk.titles.g1841.rules.borders import borders_in_force

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "18xx.games" / "1841"
NAMES = ["1841_game_end_bank", "1841_game_end_bankrupt", "1841_game_end_offboards"]


def _facts(net: Network) -> tuple[object, ...]:
    return (net.nodes, net.paths, net.hexes, net.route_available, net.route_train_purchase)


def _check_board(board: Board, corps: list[str], limit_sets: list[WalkLimits]) -> int:
    """Every pair of limits: where ``same_walks`` lets one's network stand for the other's,
    it is the other's.  Returns how many pairs it let stand."""
    stood = 0
    for corp in corps:
        nets = [(limits, compute_network(board, corp, limits=limits)) for limits in limit_sets]
        for walked, net in nets:
            for wanted, other in nets:
                if walked == wanted or not same_walks(board, net, wanted.uncrossable):
                    continue
                assert _facts(net) == _facts(other), (corp, walked, wanted)
                stood += 1
    return stood


@pytest.mark.skipif(not FIXTURES.is_dir(), reason="../shared/fixtures is missing")
@pytest.mark.parametrize("name", NAMES)
def test_a_walk_stands_for_another_only_where_the_walks_are_the_same(name: str) -> None:
    game_file = load_game_file(read_game_file(FIXTURES / f"{name}.json"))
    game = Game.create(
        game_file.title,
        players=game_file.players,
        options=game_file.optional_rules,
        seed=game_file.seed,
    )
    engine = game.engine
    assert isinstance(engine, Game1841)
    port = engine.map
    inert = port.pass_hexes
    borders = {borders_in_force(p.name, port.variant) for p in engine.phases.all}
    limit_sets = [WalkLimits(inert_tokens=inert)]
    limit_sets += [WalkLimits(b, inert) for b in sorted(borders, key=len) if b]
    stood = 0
    for action in game_file.live:
        game.process(action, replay=True)
        if action["type"] not in ("lay_tile", "place_token"):
            continue
        board = engine.map.board
        corps = sorted(board.tokens_by_corporation())
        stood += _check_board(board, corps, limit_sets)
    assert stood > 0  # the games have boards where one walk serves both graphs
