"""Helpers shared by the CLI commands: finding the engine, reading files, reporting errors."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from stellwerk.core.errors import GameFileError, IllegalAction
from stellwerk.core.jsondata import JSONObject
from stellwerk.io.engine import EngineGame
from stellwerk.io.gamefile import read_game_file, write_json_atomic

if TYPE_CHECKING:
    from stellwerk.api import Game

# Exit statuses of every command (README, "Exit statuses").
EXIT_OK = 0
EXIT_MISMATCH = 1
"""A refused action, or a replay that differs from its trace or recorded result."""
EXIT_REFUSED = EXIT_MISMATCH
EXIT_USAGE = 2
"""Bad arguments, or a file that cannot be read or loaded."""
EXIT_MOVED_ON = 3
"""The game moved on since the action count the caller based its action on (store)."""
EXIT_INTERNAL = 4
"""An engine defect (``EngineError``) or any other unexpected error; never a traceback."""


def engine_class() -> type[Game]:
    """``stellwerk.api.Game``, imported on first use so ``--help`` works without the engine."""
    try:
        api = importlib.import_module("stellwerk.api")
    except ImportError as error:
        raise click.ClickException(f"the engine API is not available: {error}") from error
    game_class: type[Game] = api.Game
    return game_class


def create_game(
    title: str,
    players: list[tuple[int | str, str]],
    options: list[str],
    seed: int,
) -> EngineGame:
    """A new game to play through ``Game.create`` (``IllegalAction`` for an unknown title, a
    wrong player count or option)."""
    return _build(title, players, options, seed)


def _build(
    title: str, players: list[tuple[int | str, str]], options: list[str], seed: int
) -> EngineGame:
    game: EngineGame = engine_class().create(title, players=players, options=options, seed=seed)
    return game


def game_factory(
    title: str, players: list[tuple[int | str, str]], options: list[str], seed: int
) -> EngineGame:
    """A game to replay a file into, with the factory signature ``stellwerk.io.replay``
    expects."""
    return _build(title, players, options, seed)


def load_game(path: Path) -> tuple[JSONObject, EngineGame]:
    """Read a game file and rebuild the game with ``Game.from_file``."""
    try:
        data = read_game_file(path)
        game: EngineGame = engine_class().from_file(data)
    except GameFileError as error:
        fail(f"{path}: {error}")
    except IllegalAction as error:  # before any action: title, players or options
        fail(f"{path}: cannot set up this game: {describe_illegal(error)}")
    return data, game


def check_output(path: Path) -> None:
    """Refuse an output path whose folder is missing or which names a folder, before any work."""
    if path.is_dir():
        fail(f"{path}: is a folder, not a file")
    folder = path.parent
    if not folder.is_dir():
        fail(f"{path}: the folder {folder} does not exist")


def save_json(path: Path, data: JSONObject) -> None:
    """Write a game file atomically; a path that cannot be written is a usage error."""
    try:
        write_json_atomic(path, data)
    except OSError as error:
        fail(f"{path}: cannot write: {error.strerror or error}")


def describe_illegal(error: IllegalAction) -> str:
    """``reason (rule)`` of a refused action."""
    return f"{error.reason} ({error.rule})" if error.rule else error.reason


def parse_action(text: str) -> JSONObject:
    """An action given on the command line as a JSON object."""
    try:
        action = json.loads(text)
    except (ValueError, RecursionError) as error:  # not JSON, huge numbers, deep nesting
        raise click.BadParameter(f"not JSON: {error}", param_hint="ACTION") from error
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise click.BadParameter("must be a JSON object with a 'type'", param_hint="ACTION")
    return action


def player_list(names: list[str]) -> list[tuple[int | str, str]]:
    """Players with ids 1..n in seat order."""
    return [(number, name) for number, name in enumerate(names, start=1)]


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Print ``error: message`` to stderr and exit with ``code``."""
    click.echo(f"error: {message}", err=True)
    raise SystemExit(code)
