"""Graph caching: following the board, or the reference engine's clearing points
(docs/architecture.md; 18xx.games Graph#clear keeps route needs that say a train is needed)."""

from __future__ import annotations

from typing import Any

from stellwerk.core.map.board import Board
from stellwerk.core.map.graph import GraphCache
from stellwerk.core.map.spec import load_map, load_supply

CITY = {"cities": [{"part": 0, "revenue": 20, "slots": 1}]}
MAP: dict[str, Any] = {
    "layout": "flat",
    "hexes": {
        "A1": {"color": "gray", **CITY, "paths": [{"a": "e0", "b": "c0"}]},
        "C1": {"color": "gray", "paths": [{"a": "e3", "b": "e0"}]},
        "E1": {"color": "gray", **CITY, "paths": [{"a": "e3", "b": "c0"}]},
    },
}
TILES: dict[str, Any] = {"tiles": {}}


def board() -> Board:
    b = Board(load_map(MAP), load_supply(TILES))
    b.place_token_at("A1", 0, "X")
    return b


def test_following_the_board_recomputes_after_any_change() -> None:
    b = board()
    graph = GraphCache(b)
    assert graph.tokenable_cities("X") == [("E1", 0)]
    b.place_token_at("E1", 0, "Y")
    assert graph.tokenable_cities("X") == []


def test_manual_cache_keeps_stale_answers_until_cleared() -> None:
    b = board()
    graph = GraphCache(b, follow_board=False)
    assert graph.tokenable_cities("X") == [("E1", 0)]
    b.place_token_at("E1", 0, "Y")
    assert graph.tokenable_cities("X") == [("E1", 0)]  # as 18xx.games, until it clears
    graph.clear()
    assert graph.tokenable_cities("X") == []


def test_route_need_survives_clear_until_cleared_for_the_corporation() -> None:
    b = board()
    graph = GraphCache(b, follow_board=False)
    assert graph.route_flags("X") == (True, True)
    b.remove_all_tokens("X")
    graph.clear()
    assert graph.route_flags("X") == (True, True)  # sticky: a train is still needed
    graph.clear_for("X")
    assert graph.route_flags("X") == (False, False)


def test_look_ahead_state_can_be_restored() -> None:
    b = board()
    graph = GraphCache(b, follow_board=False)
    saved = graph.save()
    graph.tokenable_cities("X")
    graph.restore(saved)
    b.place_token_at("E1", 0, "Y")
    assert graph.tokenable_cities("X") == []
