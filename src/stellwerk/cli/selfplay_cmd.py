"""``stellwerk selfplay``: play a whole game with the seeded random driver."""

from __future__ import annotations

from pathlib import Path

import click

from stellwerk.cli.common import (
    EXIT_MISMATCH,
    check_output,
    create_game,
    describe_illegal,
    fail,
    player_list,
    save_json,
)
from stellwerk.core.errors import IllegalAction
from stellwerk.selfplay import play


@click.command("selfplay")
@click.argument("title")
@click.option(
    "--players",
    "count",
    type=click.IntRange(1, 99),
    required=True,
    help="Player count (`stellwerk titles` lists each title's).",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of game and driver.")
@click.option("--option", "options", multiple=True, help="An optional rule (repeatable).")
@click.option(
    "--max-actions",
    type=click.IntRange(0),
    default=10_000,
    show_default=True,
    help="Stop after this many actions.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="Where to write the game file.",
)
def selfplay(
    title: str, count: int, seed: int, options: tuple[str, ...], max_actions: int, output: Path
) -> None:
    """Play a whole game of TITLE with random legal actions and write its game file.

    Exits 0 when the game finished or reached --max-actions, 1 when it got stuck, 2 when the
    title, player count, options or output path are refused.
    """
    check_output(output)
    players = player_list([f"Player {number}" for number in range(1, count + 1)])
    try:
        game = create_game(title, players, list(options), seed)
    except IllegalAction as error:
        fail(describe_illegal(error))
    stuck = ""
    try:
        outcome = play(game, seed, max_actions)
        message = f"{outcome.actions} actions, {outcome.stopped_because}"
        stuck = message if outcome.stuck else ""
    except IllegalAction as error:
        stuck = message = f"the engine refused its own legal action: {describe_illegal(error)}"
    save_json(output, game.to_file())
    click.echo(f"{title} selfplay (seed {seed}): {message}; written to {output}")
    if game.finished:
        click.echo(f"result ({game.game_end_reason}): {game.result}")
    if stuck:
        raise SystemExit(EXIT_MISMATCH)
