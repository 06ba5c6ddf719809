"""``stellwerk routes``: the best routes of a corporation (not implemented yet)."""

from __future__ import annotations

from pathlib import Path

import click

from stellwerk.cli.common import EXIT_USAGE, fail


@click.command("routes")
@click.argument("game_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--corporation", "corporation", required=True, help="Corporation symbol, e.g. SFA.")
@click.option("--before-action", type=int, help="Use the state before this action id.")
@click.option("--trains", help="Trains to run instead of the owned ones, e.g. 8H,8H.")
@click.option("--json", "as_json", is_flag=True, help="Print the routes as JSON.")
def routes(
    game_file: Path,
    corporation: str,
    before_action: int | None,
    trains: str | None,
    as_json: bool,
) -> None:
    """Find the best routes of CORPORATION in GAME_FILE (not implemented yet)."""
    fail("stellwerk routes: not implemented yet", EXIT_USAGE)
