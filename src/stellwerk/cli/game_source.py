"""Where the commands that read a game find it: a game file, a Rails 1835 ``.report`` or a
key in the game store (``--db``), replayed as far as the engine can.

One rule for every such command (``replay``, ``show``, ``log``, ``routes`` and the pictures):
GAME is read by its name -- a Rails 1835 report when it ends in ``.report``, else an
18xx.games game file -- and ``--format 18xx|rails-report`` says it when the name does not.

A game the engine cannot replay to its end must still be drawn and told: when a recorded
action is refused, the game is rebuilt from the live actions before it and :class:`Loaded`
says where it stopped and why, so the command can say so on stderr instead of failing.  A
game that cannot be set up at all still fails.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from stellwerk.cli.common import describe_illegal, engine_class, fail
from stellwerk.cli.store_access import opened, store_outcomes
from stellwerk.core.errors import GameFileError, IllegalAction
from stellwerk.core.jsondata import JSONObject

if TYPE_CHECKING:
    from stellwerk.api import Game

FORMATS = ("auto", "18xx", "rails-report")
"""How a game is read: ``auto`` by its name, or said outright."""

F = TypeVar("F", bound=Callable[..., object])


def format_option(function: F) -> F:
    """The ``--format`` option of every command that reads a game."""
    option = click.option(
        "--format",
        "file_format",
        type=click.Choice(FORMATS),
        default="auto",
        show_default=True,
        help="How GAME is read: auto (a Rails 1835 report when its name ends in .report, "
        "else an 18xx.games game file), 18xx or rails-report.",
    )
    return option(function)


def format_of(path: Path, file_format: str) -> str:
    """``18xx`` or ``rails-report``: the format said, or the one the name gives."""
    if file_format != "auto":
        return file_format
    return "rails-report" if path.suffix == ".report" else "18xx"


@dataclass
class Loaded:
    """A replayed game: the API game, the live actions it applied and, when the engine could
    not go on, the first refused action's id and the reason (``stopped``)."""

    game: Game
    actions: list[JSONObject]
    data: JSONObject
    path: Path | None
    stopped: GameFileError | None = None

    def note(self) -> str | None:
        """One line for stderr when the replay stopped early."""
        if self.stopped is None:
            return None
        return (
            f"note: the engine replays this game only up to action {self.stopped.action_id} "
            f"({self.stopped.reason}); shown is the state before it"
        )


def game_data(
    game: str, db: str | None, file_format: str = "auto"
) -> tuple[JSONObject, Path | None]:
    """The game file dict of GAME (a path read as ``file_format`` says, or a key of the store
    ``db``, which holds game files) and its path."""
    if db is not None:
        if file_format == "rails-report":
            fail("--format rails-report reads a file: a stored game is a game file")
        with opened(db) as store, store_outcomes():
            return dict(store.load(game).data), None
    path = Path(game)
    if not path.is_file():
        fail(f"{path}: no such file" if not path.exists() else f"{path}: is not a file")
    if format_of(path, file_format) == "rails-report":
        from stellwerk.importers.rails import import_report

        check_rails_report(path)
        report = import_report(path)
        if report.game is None:
            fail(f"{path}: the report could not be imported")
        data: JSONObject = report.game.to_file()
        return data, path
    from stellwerk.io.gamefile import read_game_file

    try:
        return read_game_file(path), path
    except GameFileError as error:
        fail(f"{path}: {error}")


def check_rails_report(path: Path) -> None:
    """Refuse a file that is no Rails 1835 report (unreadable, or without its game and player
    lines) before importing it."""
    from stellwerk.io.rails_report import ReportError, parse_file

    try:
        parsed = parse_file(path)
    except (ReportError, OSError, ValueError) as error:  # ValueError: not UTF-8
        fail(f"{path}: {error}")
    if not parsed.players or not any(e.__class__.__name__ == "GameIs" for e in parsed.events):
        fail(f"{path}: not a Rails 1835 report (no GameIs/PlayerIs lines)")


def replay(data: JSONObject, path: Path | None, before_action: int | None) -> Loaded:
    """The game before ``before_action`` (all live actions when None); when the engine refuses
    a recorded action, the game before that action, with ``stopped`` set."""
    from stellwerk.io.gamefile import action_id, load_game_file

    where = f"{path}: " if path is not None else ""
    try:
        live = load_game_file(data).live
    except GameFileError as error:
        fail(f"{where}{error}")
    actions = [a for a in live if before_action is None or action_id(a) < before_action]
    stopped: GameFileError | None = None
    while True:
        try:
            game = engine_class().from_file({**data, "actions": [*actions]})
        except GameFileError as error:
            if error.action_id is None or stopped is not None:
                fail(f"{where}{error}")
            stopped = error
            actions = [a for a in actions if action_id(a) < error.action_id]
            continue
        except IllegalAction as error:
            fail(f"{where}cannot set up this game: {describe_illegal(error)}")
        return Loaded(game, actions, data, path, stopped)
