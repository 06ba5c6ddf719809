"""``stellwerk new / show / act / undo / redo``: play a game kept in the game store.

GAME is the path of an 18xx.games game file, or with ``--db`` a key in a database
(``stellwerk.store``).  ``act``, ``undo`` and ``redo`` are based on an action count (``--base``,
default the count read when the command starts); the store checks it under its lock, so two
commands racing on one game never lose an action: one wins, the other exits 3.
"""

from __future__ import annotations

import random
from pathlib import Path

import click

from stellwerk.cli.common import create_game, describe_illegal, fail, parse_action, player_list
from stellwerk.cli.store_access import base_option, db_option, opened, store_outcomes
from stellwerk.cli.words_cmds import ACT_EXAMPLES
from stellwerk.core.errors import IllegalAction
from stellwerk.store import StoredGame


def _report(verb: str, stored: StoredGame) -> None:
    click.echo(
        f"{verb}; the game holds {stored.count} actions; to act: {stored.game.active_entities()}"
    )


@click.command("new")
@click.argument("title")
@click.option("--players", required=True, help="Comma-separated player names in seat order.")
@click.option("--option", "options", multiple=True, help="An optional rule (repeatable).")
@click.option("--seed", type=int, help="Seed of the game's random generator (default: random).")
@click.option(
    "-o",
    "--output",
    required=True,
    help="Where to write the new game file (with --db: the game's key).",
)
@click.option("--force", is_flag=True, help="Overwrite an existing game.")
@db_option
def new(
    title: str,
    players: str,
    options: tuple[str, ...],
    seed: int | None,
    output: str,
    force: bool,
    db: str | None,
) -> None:
    """Start a new game of TITLE and store it (TITLE e.g. 1849); an existing game is only
    replaced with --force."""
    names = [name.strip() for name in players.split(",") if name.strip()]
    if not names:
        fail("--players needs at least one name")
    chosen = seed if seed is not None else random.SystemRandom().randrange(1, 2**31)
    try:
        game = create_game(title, player_list(names), list(options), chosen)
    except IllegalAction as error:
        fail(describe_illegal(error))
    with opened(db) as store, store_outcomes():
        store.create(output, game.to_file(), force=force)
    click.echo(f"new {title} game for {', '.join(names)} (seed {chosen}) written to {output}")


@click.command("act", epilog=ACT_EXAMPLES)
@click.argument("game")
@click.argument("action")
@base_option
@db_option
def act(game: str, action: str, base: int | None, db: str | None) -> None:
    """Apply ACTION (an 18xx.games action as JSON) to GAME.

    A refused action prints the reason and rule, exits 1 and leaves the game unchanged.  An
    "id" in ACTION must be the game's next id (or leave it out).
    """
    parsed = parse_action(action)
    with opened(db) as store, store_outcomes("illegal action"):
        based_on = store.count(game) if base is None else base
        stored = store.append(game, parsed, based_on)
    _report(f"applied {parsed['type']}", stored)


@click.command("undo")
@click.argument("game")
@click.option("--action-id", type=int, help="Undo everything after the action with this id.")
@base_option
@db_option
def undo(game: str, action_id: int | None, base: int | None, db: str | None) -> None:
    """Take back the last action of GAME (recorded as an undo action, so redo can restore it)."""
    with opened(db) as store, store_outcomes("cannot undo"):
        based_on = store.count(game) if base is None else base
        stored = store.undo(game, based_on, action_id=action_id)
    _report("undone", stored)


@click.command("redo")
@click.argument("game")
@base_option
@db_option
def redo(game: str, base: int | None, db: str | None) -> None:
    """Restore what the most recent undo of GAME took back."""
    with opened(db) as store, store_outcomes("cannot redo"):
        based_on = store.count(game) if base is None else base
        stored = store.redo(game, based_on)
    _report("redone", stored)


@click.command("import")
@click.argument("game_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--db", metavar="SPEC", required=True, help="sqlite:///PATH or PATH.db")
@click.option("--key", help="Key of the game in the database (default: the file's stem).")
@click.option("--force", is_flag=True, help="Replace a game stored under the same key.")
def import_command(game_file: Path, db: str, key: str | None, force: bool) -> None:
    """Copy the 18xx.games game file GAME_FILE into a database (everything it holds is kept)."""
    with opened(None) as files, store_outcomes():
        data = files.load(str(game_file)).data
    with opened(db) as store, store_outcomes():
        stored = store.create(key or game_file.stem, data, force=force)
    click.echo(f"imported {game_file} as {stored.key} ({stored.count} actions)")


@click.command("export")
@click.argument("key")
@click.option("--db", metavar="SPEC", required=True, help="sqlite:///PATH or PATH.db")
@click.option("-o", "--output", required=True, help="Game file to write.")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def export_command(key: str, db: str, output: str, force: bool) -> None:
    """Write game KEY of a database as an 18xx.games game file."""
    with opened(db) as store, store_outcomes():
        data = store.export(key)
    with opened(None) as files, store_outcomes():
        files.create(output, data, force=force)
    click.echo(f"exported {key} to {output}")
