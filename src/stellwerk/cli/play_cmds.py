"""``stellwerk new / show / act / undo``: play a game kept in an 18xx.games game file."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import click

from stellwerk.cli.common import (
    EXIT_MISMATCH,
    create_game,
    describe_illegal,
    fail,
    load_game,
    parse_action,
    player_list,
)
from stellwerk.cli.show import render
from stellwerk.core.errors import IllegalAction
from stellwerk.io.engine import EngineGame
from stellwerk.io.gamefile import write_json_atomic

GameFilePath = click.Path(exists=True, dir_okay=False, path_type=Path)


def _save(path: Path, game: EngineGame) -> None:
    write_json_atomic(path, game.to_file())


def _next_id(data: dict[str, Any]) -> int:
    ids = [a["id"] for a in data.get("actions", []) if isinstance(a, dict) and "id" in a]
    return max((i for i in ids if isinstance(i, int)), default=0) + 1


@click.command("new")
@click.argument("title")
@click.option("--players", required=True, help="Comma-separated player names in seat order.")
@click.option("--option", "options", multiple=True, help="An optional rule (repeatable).")
@click.option("--seed", type=int, help="Seed of the game's random generator (default: random).")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="Where to write the new game file.",
)
def new(title: str, players: str, options: tuple[str, ...], seed: int | None, output: Path) -> None:
    """Start a new game of TITLE and write its game file (TITLE e.g. 1849)."""
    names = [name.strip() for name in players.split(",") if name.strip()]
    if not names:
        fail("--players needs at least one name")
    chosen = seed if seed is not None else random.SystemRandom().randrange(1, 2**31)
    try:
        game = create_game(title, player_list(names), list(options), chosen)
    except IllegalAction as error:
        fail(describe_illegal(error))
    _save(output, game)
    click.echo(f"new {title} game for {', '.join(names)} (seed {chosen}) written to {output}")


@click.command("show")
@click.argument("game_file", type=GameFilePath)
def show(game_file: Path) -> None:
    """Show the state of GAME_FILE: round, market, corporations, players, who acts and how."""
    data, game = load_game(game_file)
    names = {str(p.get("id")): str(p.get("name", "")) for p in data.get("players", [])}
    for line in render(game.snapshot(), names, game.active_entities(), game.legal_actions()):
        click.echo(line)
    if game.finished:
        click.echo(f"Game over ({game.game_end_reason}): {game.result}")


@click.command("act")
@click.argument("game_file", type=GameFilePath)
@click.argument("action")
def act(game_file: Path, action: str) -> None:
    """Apply ACTION (an 18xx.games action as JSON) to GAME_FILE.

    A refused action prints the reason and rule, exits non-zero and leaves the file unchanged.
    """
    parsed = parse_action(action)
    data, game = load_game(game_file)
    parsed.setdefault("id", _next_id(data))
    try:
        game.process(parsed)
    except IllegalAction as error:
        fail(f"illegal action: {describe_illegal(error)}", EXIT_MISMATCH)
    _save(game_file, game)
    click.echo(f"applied {parsed['type']}; to act: {game.active_entities()}")


@click.command("undo")
@click.argument("game_file", type=GameFilePath)
def undo(game_file: Path) -> None:
    """Take back the last action of GAME_FILE."""
    _, game = load_game(game_file)
    try:
        game.undo()
    except IllegalAction as error:
        fail(f"cannot undo: {describe_illegal(error)}", EXIT_MISMATCH)
    _save(game_file, game)
    click.echo(f"undone; to act: {game.active_entities()}")
