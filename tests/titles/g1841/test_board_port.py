"""1841's board on the core's default board port (rules/1841.md 2.3.3, 2.3.4): the port is a
``BoardPort`` that takes the token counts and placement from it and overrides what differs
(token spots on the region graph, both graphs cleared, 1841's rule citations); built without
a game it answers routes only."""

from __future__ import annotations

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.port import BoardPort
from stellwerk.core.moves import PlaceToken
from stellwerk.core.policy import RECORDED
from stellwerk.titles.g1841 import tokens
from stellwerk.titles.g1841.mapport import MapPort

from .setup_helpers import new_game, start


def test_the_1841_board_is_a_default_board_port_with_its_own_rule_citations() -> None:
    game = new_game()
    assert isinstance(game.map, BoardPort)
    assert game.map.game is game
    assert game.map.track_rule == "rules/1841.md 2.3.3"
    assert game.map.token_rule == "rules/1841.md 2.3.4"


def test_a_board_built_without_a_game_answers_routes_but_not_what_reads_the_game() -> None:
    port = MapPort()
    port.board.place_token_at("P12", 0, "SFLP")
    assert port.best_run_of("SFLP", {}).revenue == 0
    assert port.run_context("SFLP").corp == "SFLP"
    sflp = new_game().corporation("SFLP")
    with pytest.raises(LookupError, match="without a game"):
        port.lay_options(sflp)


def test_token_counts_and_spots_come_from_the_port_on_the_region_graph() -> None:
    game = new_game()
    sflp = start(game, "SFLP", "100,3,5", game.players[0])
    port = game.map
    assert port.token_hexes("SFLP") == ["P12"]
    assert port.unplaced_tokens(sflp) == sflp.num_tokens - 1
    assert port.token_spots(sflp) == port.region_graph.tokenable_cities("SFLP")
    assert port.can_place_token(sflp) == bool(port.token_spots(sflp))


def test_a_token_refused_for_its_slot_names_the_1841_rule_and_changes_nothing() -> None:
    game = new_game()
    sflp = start(game, "SFLP", "100,3,5", game.players[0])
    port = game.map
    port.route_info(sflp)
    stamps = (port.graph.stamp, port.region_graph.stamp)
    city = port.board.city_id("P12", 0)
    with pytest.raises(IllegalAction) as refused:
        tokens.place(game, sflp, PlaceToken(entity="SFLP", entity_type="corporation", city=city))
    assert refused.value.rule == "rules/1841.md 2.3.4"
    assert (port.graph.stamp, port.region_graph.stamp) == stamps
    assert port.token_hexes("SFLP") == ["P12"]


def test_a_token_placed_on_a_pass_in_a_replay_clears_both_graphs() -> None:
    game = new_game()
    game.policy = RECORDED  # no reach checked, as 18xx.games loads a file
    sflp = start(game, "SFLP", "100,3,5", game.players[0])
    sflp.num_tokens = 2
    port = game.map
    port.route_info(sflp)
    port.graph.route_flags("SFLP")
    stamps = (port.graph.stamp, port.region_graph.stamp)
    hex_id = min(port.pass_hexes)
    city = port.board.city_id(hex_id, 0)
    port.place_token(sflp, PlaceToken(entity="SFLP", entity_type="corporation", city=city))
    assert sorted(port.token_hexes("SFLP")) == sorted(["P12", hex_id])
    assert port.unplaced_tokens(sflp) == 0
    assert port.graph.stamp != stamps[0] and port.region_graph.stamp != stamps[1]
