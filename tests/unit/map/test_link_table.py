"""The board's link table (``Board.link_table``) stays equal to ``Board.neighbor`` after tile
lays and trial lays (common rules §1.2: a red/gray/blue hex links only where its track
points): a lay drops only the links into its hex."""

from __future__ import annotations

import pytest

from stellwerk.api import Game
from stellwerk.core.map.board import Board
from stellwerk.selfplay import play


def _fill(board: Board) -> None:
    links = board.link_table()
    for hid in board.hexes:
        for edge in range(6):
            links[(hid, edge)] = board.neighbor(hid, edge)


def _check(board: Board) -> None:
    for (hid, edge), found in board.link_table().items():
        assert found == board.neighbor(hid, edge), (hid, edge)


@pytest.mark.parametrize("title", ["1849", "1835"])
def test_link_table_follows_every_lay_of_a_game(title: str) -> None:
    """Fill the table, play on (tile lays of a selfplay game, each walking networks), and
    every remembered link is still what ``neighbor`` answers."""
    game = Game.create(title, [(n, f"P{n}") for n in range(1, 5)], [], 5)
    board = game.engine.map.board
    lays = []

    def after(g: object, action: dict[str, object], rng: object) -> None:
        if action.get("type") == "lay_tile":
            lays.append(action)
            _check(board)
            _fill(board)

    _fill(board)
    play(game, 5, max_actions=400, after_action=after)
    assert lays, "the game laid no tile"


def test_trial_lay_gives_back_the_table_it_found() -> None:
    """A trial lay works on a copy: afterwards the table is the very one from before."""
    game = Game.create("1849", [(n, f"P{n}") for n in range(1, 5)], [], 1)
    board = game.engine.map.board
    _fill(board)
    before = board.link_table()
    hex_id, tile_id = next(
        (h, t)
        for h, state in board.hexes.items()
        if state.is_preprinted and state.tile.color == "white"
        for t in board.available().values()
    )
    with board.trial_lay(hex_id, tile_id, 0):
        assert board.link_table() is not before
    assert board.link_table() is before
    _check(board)
