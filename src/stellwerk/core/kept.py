"""Answers kept on the object they are about (computed once per state change).

A pure result of a game's state -- a board's legs for the route search, a title's answers
asked after every action -- is kept on the game object it is about, never in a table of the
process: two games in one process (the web server, the game master) can then never see each
other's answers, and the answers go with their game.  What is kept is not state: a copy or a
pickle of its holder (a checkpoint, ``copy.deepcopy``) starts empty and finds the answers
again, so a copy never carries an answer for another object.
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class NotState:
    """Kept answers are not state: a copy or a pickle of their holder starts empty."""

    __slots__ = ()

    def __reduce__(self) -> tuple[type[NotState], tuple[()]]:
        return (type(self), ())


class ByVersion(NotState, Generic[T]):
    """One value, good for the version of its holder it was found for (a board's
    ``version``, which is never reused)."""

    __slots__ = ("value", "version")

    def __init__(self) -> None:
        self.version = -1
        self.value: T | None = None

    def get(self, version: int) -> T | None:
        """The value kept for ``version``, else None."""
        return self.value if self.version == version else None

    def keep(self, version: int, value: T) -> T:
        self.version, self.value = version, value
        return value
