"""Errors of the game store (``stellwerk.store``).

A refused action is still ``IllegalAction`` and a corrupt stored game ``GameFileError``; these are
the store's own outcomes.  Front ends map them to exit statuses: ``GameMovedOn`` to
``EXIT_MOVED_ON`` (3), every other ``StoreError`` to ``EXIT_USAGE`` (2).
"""

from __future__ import annotations


class StoreError(Exception):
    """The store cannot do what was asked (missing folder, unknown key, newer schema, ...)."""


class GameMovedOn(StoreError):
    """A write based on ``base`` actions, but the game already holds ``actual`` actions.

    Optimistic concurrency: the caller composed its action against an older state, so it is
    refused rather than applied to a game it did not see; nothing is written.
    """

    def __init__(self, key: str, base: int, actual: int) -> None:
        self.key = key
        self.base = base
        self.actual = actual
        super().__init__(f"the game moved on: based on {base} actions, now {actual} ({key})")


class GameExists(StoreError):
    """``create`` without ``force`` for a key that already holds a game."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(f"{key} already exists (use --force to overwrite it)")


class GameNotFound(StoreError):
    """No game is stored under ``key``."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(f"no game {key}")
