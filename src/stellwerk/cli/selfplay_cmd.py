"""``stellwerk selfplay``: play a whole game with the seeded random driver."""

from __future__ import annotations

import json
from pathlib import Path

import click

from stellwerk.cli.common import (
    EXIT_INTERNAL,
    EXIT_REFUSED,
    check_output,
    create_game,
    describe_illegal,
    fail,
    player_list,
    save_json,
)
from stellwerk.core.errors import IllegalAction
from stellwerk.selfplay import SelfplayFailure, Veto, describe_error, play, reproducer


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
    "--veto",
    "veto_spec",
    metavar="FILE.py:NAME",
    help="A function (game, action) -> reason or None, loaded from FILE.py, that puts the "
    "driver's picks aside (differential tooling: tools/oracle_defects_1841.py:veto steers "
    "clear of 18xx.games' known defects).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="Where to write the game file.",
)
def selfplay(
    title: str,
    count: int,
    seed: int,
    options: tuple[str, ...],
    max_actions: int,
    output: Path,
    veto_spec: str | None,
) -> None:
    """Play a whole game of TITLE with random legal actions and write its game file.

    Exits 0 when the game finished or reached --max-actions; 1 when the engine refused an
    action it had offered; 2 for a title, option or player count the engine does not accept,
    or an output path that cannot be written; 4 when the engine failed (an internal error) or
    left nobody able to act.  On a failure the file holds the game up to the failing action,
    and one line on stderr names the seed, the action and the command that plays it again.
    """
    check_output(output)
    veto = load_veto(veto_spec) if veto_spec else None
    players = player_list([f"Player {number}" for number in range(1, count + 1)])
    try:
        game = create_game(title, players, list(options), seed)
    except IllegalAction as error:
        fail(describe_illegal(error))  # it names the title, the count and the rule
    except Exception as error:  # an engine defect while setting up: one line, never a traceback
        reason = f"internal engine error: {describe_error(error)}"
        fail(f"cannot start {title} with {count} players: {reason}", EXIT_INTERNAL)
    again = reproducer(title, count, seed, options, max_actions)
    try:
        outcome = play(game, seed, max_actions, veto=veto)
    except SelfplayFailure as failure:
        save_json(output, game.to_file())
        action = json.dumps(failure.action) if failure.action is not None else "-"
        fail(
            f"{title} selfplay (seed {seed}): {failure}; action {action};"
            f" game before it in {output}; again: {again}",
            EXIT_REFUSED if failure.kind == "refused" else EXIT_INTERNAL,
        )
    save_json(output, game.to_file())
    message = f"{outcome.actions} actions, {outcome.stopped_because}"
    if outcome.avoided:
        put_aside = ", ".join(f"{n} x {letter}" for letter, n in sorted(outcome.avoided.items()))
        message += f" (picks put aside by the veto: {put_aside})"
    click.echo(f"{title} selfplay (seed {seed}): {message}; written to {output}")
    if game.finished:
        click.echo(f"result ({game.game_end_reason}): {game.result}")
    if outcome.stuck:
        fail(f"{title} selfplay (seed {seed}): nobody can act; again: {again}", EXIT_INTERNAL)


def load_veto(spec: str) -> Veto:
    """The veto ``FILE.py:NAME`` names (``--veto``); a missing file or name: exit 2."""
    import importlib.util

    path_text, _, name = spec.rpartition(":")
    path = Path(path_text)
    if not path_text or not name or not path.is_file():
        fail(f"--veto: {spec!r} is not FILE.py:NAME of an existing file")
    module_spec = importlib.util.spec_from_file_location(f"stellwerk_veto_{path.stem}", path)
    if module_spec is None or module_spec.loader is None:
        fail(f"--veto: cannot load {path}")
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except Exception as error:  # the tooling's own fault: one line, no traceback
        fail(f"--veto: {path} failed to load: {error}")
    found = vars(module).get(name)
    if not callable(found):
        fail(f"--veto: {path} has no function {name!r}")
    veto: Veto = found
    return veto
