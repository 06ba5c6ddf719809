"""How the play commands reach the game store: the ``--db`` and ``--base`` options and the
mapping of store outcomes to exit statuses (README, "Exit statuses").

``GameMovedOn`` exits ``EXIT_MOVED_ON`` (3), a refused action ``EXIT_REFUSED`` (1), every
other store problem (no such game, game exists, missing folder, corrupt file) ``EXIT_USAGE`` (2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import click

from stellwerk.cli.common import EXIT_MOVED_ON, EXIT_REFUSED, describe_illegal, fail
from stellwerk.core.errors import GameFileError, IllegalAction
from stellwerk.store import GameMovedOn, GameStore, StoreError, open_store

F = TypeVar("F", bound=Callable[..., object])


def db_option(function: F) -> F:
    """``--db SPEC``: keep the game in a database instead of a JSON file."""
    return click.option(
        "--db",
        metavar="SPEC",
        help="Database holding the game (sqlite:///PATH or PATH.db); GAME is then its key.",
    )(function)


def base_option(function: F) -> F:
    """``--base N``: the action count the caller's view of the game is based on."""
    return click.option(
        "--base",
        type=click.IntRange(min=0),
        help="Action count your action is based on; if the game holds another count, "
        "nothing is written and the exit status is 3.  Default: the count read at the start.",
    )(function)


@contextmanager
def store_outcomes(verb: str = "") -> Iterator[None]:
    """Turn store errors into a one-line message and the documented exit status."""
    try:
        yield
    except GameMovedOn as error:
        fail(str(error), EXIT_MOVED_ON)
    except IllegalAction as error:
        prefix = f"{verb}: " if verb else ""
        fail(f"{prefix}{describe_illegal(error)}", EXIT_REFUSED)
    except GameFileError as error:
        fail(f"the stored game cannot be loaded: {error}")
    except StoreError as error:
        fail(str(error))


@contextmanager
def opened(db: str | None) -> Iterator[GameStore]:
    """The store ``--db`` names (JSON files without it), closed afterwards."""
    with store_outcomes():
        store = open_store(db)
    try:
        yield store
    finally:
        store.close()
