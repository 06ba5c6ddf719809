"""Answers a game keeps about its own state (computed once per state change).

A few pure questions of 1841 are asked after every action and rarely change their answer: has
a corporation a free home city (rules/1841.md 2.2.3), what a token costs at a home hex (2.2.3),
the order of the tokens (2.3.3).  Their answers depend only on the board (its identity and
version) and the phase, so the game keeps them, typed, in a :class:`BoardAnswers` of its own
(``Game1841.home_city_kept`` and ``Game1841.hex_price_kept``); the token order keeps its last
answer in a :class:`TokenOrderKept`.

They live on the game, never in a process-wide table (``stellwerk.core.kept``): two games
in one process (the web server, the game master) cannot see each other's answers, and a
game's answers go with it.  A copy of the game (a checkpoint's pickle, ``copy.deepcopy``, a
merger's light copy in :mod:`.trial`) starts with nothing kept and finds the answers again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from stellwerk.core.kept import NotState
from stellwerk.core.map.board import Board

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

Order = dict[str, list[str | None]]
"""Each corporation's tokens in charter order (:mod:`.token_order`)."""


class BoardAnswers(NotState, Generic[K, V]):
    """Answers by key, good while the board (this very board, at this version) and the phase
    are those they were found for; any change of them forgets every answer."""

    __slots__ = ("answers", "board", "phase", "version")

    def __init__(self) -> None:
        self.board: Board | None = None
        self.version = -1
        self.phase: object = None
        self.answers: dict[K, V] = {}

    def get(self, board: Board, phase: object, key: K, find: Callable[[], V]) -> V:
        """The answer for ``key`` on ``board`` in ``phase``: the kept one, or ``find()``
        (then kept)."""
        if self.board is not board or self.version != board.version or self.phase != phase:
            self.board, self.version, self.phase = board, board.version, phase
            self.answers = {}
        answers = self.answers
        if key in answers:
            return answers[key]
        found = answers[key] = find()
        return found


class TokenOrderKept(NotState):
    """The last answer of :func:`.token_order._answer`: the board's token index and the order
    given it was found for, the order brought up to date and whether it equals the given one
    (copies: the game's order is changed in place by the procedures)."""

    __slots__ = ("answer", "given", "given_object", "index", "same")

    def __init__(self) -> None:
        self.index: dict[str, list[str]] | None = None
        self.given: Order = {}
        self.given_object: Order | None = None
        """The order object last asked about: the game's order is replaced, never changed in
        place (:mod:`.token_order`), so the same object means the same order."""
        self.answer: Order = {}
        self.same = False

    def found(self, index: dict[str, list[str]], given: Order) -> tuple[Order, bool] | None:
        """The kept answer if it was found for this index and this order, else None.  The
        very objects of the last question are answered at once (asked after every action,
        which mostly changes neither); equal ones are compared first."""
        kept_index = self.index
        if kept_index is None:
            return None
        if kept_index is index and self.given_object is given:
            return self.answer, self.same
        if not (kept_index is index or kept_index == index) or self.given != given:
            return None
        self.index, self.given_object = index, given
        return self.answer, self.same

    def keep(self, index: dict[str, list[str]], given: Order, answer: Order, same: bool) -> None:
        """Keep ``answer`` for ``index`` and ``given`` (this very object, a copy of which is
        kept to compare others with)."""
        self.index, self.given, self.answer, self.same = index, _copy(given), answer, same
        self.given_object = given


def _copy(order: Order) -> Order:
    return {sym: list(slots) for sym, slots in order.items()}
