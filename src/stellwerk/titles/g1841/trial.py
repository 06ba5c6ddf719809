"""Trying a merger's choice on a light copy of the game (rules/1841.md
2.3.11).

A merger is checked before anything changes: its start and each price or exchange answer are
tried first, and an answer after which nobody can be president of the new corporation, or
which makes a new circular chain of control, is refused or not listed (seed 000 items 3.1,
3.6).  Those tries used to run on ``copy.deepcopy`` of the whole game: the board with its
graph caches and the round with its remembered answers made a copy cost 0.1-0.3 s, and a
merger window asks for several (70 % of a whole selfplay game's time).

What a try changes is only the ownership side of the game: certificates, cash, trains,
prices on the market, presidents, the journal, the queued procedures.  :func:`light_copy`
copies exactly that and shares the rest with the game (:data:`SHARED`): the board and its
graphs, the title's data and the round.  The copy is marked (``Game1841.shares_board``), and
a merger tried on it stops where its outcome is judged, before its token stage touches the
board (:meth:`.merger.Merging.tokens_start`): everything after that point cannot refuse, so
the answer is the one a whole copy gives.  Nothing shared is written by a try; the test
``tests/titles/g1841/test_trial.py`` checks that, and that the answers equal those of whole
copies.
"""

from __future__ import annotations

import copy
from typing import Any, Protocol, TypeVar

from stellwerk.core.native import state_of

SHARED = ("map", "memo_cache", "data", "specs", "settings", "round")
"""Parts of the game a light copy shares with it: the map port (board, tile supply, both
graphs and their caches), the caches' stamp, the title's data and charters, the settings, and
the round with its steps (a try never routes an action).  A try only reads them."""

LISTS = ("journal", "log")
"""Append-only lists: the copy gets its own list of the same (immutable) entries."""

T = TypeVar("T")


class Tried(Protocol):
    """A game that may be a light copy (:attr:`shares_board`): what this module sets."""

    shares_board: bool


G = TypeVar("G", bound=Tried)


def light_copy(game: G, *extra: T) -> tuple[G, list[T]]:
    """A copy of ``game`` for trying a merger's choice, and copies of ``extra`` objects as
    they are in it (a procedure not in the queue, say).  Holders, certificates, cash, trains,
    market and procedures are copied; :data:`SHARED` parts are the game's own."""
    trial = copy.copy(game)
    memo: dict[int, object] = {id(game): trial}
    # ``vars(game)``, with the attributes a compiled core keeps natively (``core.native``)
    state: dict[str, Any] = state_of(game)
    for name in SHARED:
        memo[id(state[name])] = state[name]
    for name, value in state.items():
        if name in SHARED:
            continue
        if name in LISTS:
            setattr(trial, name, list(value))
        else:
            setattr(trial, name, copy.deepcopy(value, memo))
    trial.shares_board = True
    return trial, [copy.deepcopy(x, memo) for x in extra]
