"""Answers kept on the object they are about (``core/kept.py``): the route search's legs live
on their board (``Board.legs_kept``), not in a table of the process; a copy or a pickle of the
board starts without them, and a board nobody holds any more is freed with its legs (a table
keyed weakly by the board whose values held the board never let it go)."""

from __future__ import annotations

import copy
import gc
import pickle

from stellwerk.api import Game
from stellwerk.core.kept import ByVersion
from stellwerk.core.map.board import Board
from stellwerk.core.routes.optimize import board_legs, clear_leg_cache


def _board(title: str = "1849") -> Board:
    engine = Game.create(title, [(n, f"P{n}") for n in range(1, 4)], [], 5).engine
    board = getattr(engine, "map").board  # noqa: B009 - every title's map port has one
    assert isinstance(board, Board)
    return board


def test_legs_are_kept_on_their_board_per_version() -> None:
    board, other = _board("1849"), _board("1841")
    legs = board_legs(board)
    assert board_legs(board) is legs and board.legs_kept.get(board.version) is legs
    assert board_legs(other) is not legs and other.legs_kept.get(other.version) is not legs
    board.version += 1
    assert board.legs_kept.get(board.version) is None
    fresh = board_legs(board)
    assert fresh is not legs and board_legs(board) is fresh
    clear_leg_cache(board)
    assert board.legs_kept.get(board.version) is None


def test_a_copy_of_the_board_starts_without_kept_legs() -> None:
    board = _board()
    board_legs(board)
    for twin in (copy.deepcopy(board), pickle.loads(pickle.dumps(board))):
        assert isinstance(twin.legs_kept, ByVersion)
        assert twin.legs_kept.get(twin.version) is None
        assert set(board_legs(twin)) == set(board_legs(board))


def test_a_board_with_kept_legs_is_freed() -> None:
    board = _board()
    board_legs(board)
    # found among the live objects by its address (a Board compiled by mypyc takes no weak
    # reference); no Board is made after it here, so no other can take the address
    address = id(board)
    del board
    gc.collect()
    assert all(id(held) != address for held in gc.get_objects() if isinstance(held, Board))
