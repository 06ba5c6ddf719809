"""``stellwerk routes``: the best routes of a corporation, proven optimal (common rules §6.1).

The game is replayed up to, not including, ``--before-action`` (replay mode, as when loading a
game file); ``--trains`` replaces the corporation's trains for a what-if.  The search is the
engine's own (``stellwerk.api.Game.best_routes``: the title's route rules, map variant and
distance), so every title with route rules answers here, 1841's map variants included.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from stellwerk.cli.common import describe_illegal, engine_class, fail
from stellwerk.cli.game_source import format_option, game_data
from stellwerk.core.errors import GameFileError, IllegalAction
from stellwerk.io.gamefile import action_id, load_game_file

if TYPE_CHECKING:
    from stellwerk.api import Game
    from stellwerk.core.routes.optimize import BestRun


def load_before(path: Path, before_action: int | None, file_format: str = "auto") -> Game:
    """The game after every live action with an id below ``before_action`` (all live
    actions when None); GAME_FILE read as ``cli/game_source.py`` says."""
    data, _ = game_data(str(path), None, file_format)
    try:
        live = load_game_file(data).live
    except GameFileError as error:
        fail(f"{path}: {error}")
    actions = []
    for action in live:
        if before_action is not None and action_id(action) >= before_action:
            break
        actions.append(action)
    try:
        game: Game = engine_class().from_file({**data, "actions": [*actions]})
        return game
    except GameFileError as error:
        fail(f"{path}: {error}")
    except IllegalAction as error:  # before any action: title, players or options
        fail(f"{path}: cannot set up this game: {describe_illegal(error)}")


def find_best(game: Game, symbol: str, trains: str | None) -> tuple[BestRun, float]:
    """The best run of corporation ``symbol`` (with the named what-if trains, "8H,8H") and
    the seconds the search took."""
    names = None if trains is None else [n.strip() for n in trains.split(",")]
    start = time.perf_counter()
    try:
        result = game.best_routes(symbol, names)
    except IllegalAction as error:
        fail(describe_illegal(error))
    return result, time.perf_counter() - start


def describe(symbol: str, result: BestRun, seconds: float) -> list[str]:
    """Text report: one line per route, the total, time and optimality."""
    lines = []
    for route in result.routes:
        lines.append(f"{route['train']:>8}  {route['revenue']:>5}  {route['revenue_str']}")
    if not result.routes:
        lines.append(f"{symbol} has no route")
    proof = "proven optimal" if result.optimal else "search cut short, not proven optimal"
    lines.append(f"{symbol}: revenue {result.revenue} ({proof}) in {seconds:.4f} s")
    return lines


@click.command("routes")
@click.argument("game_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--corporation", "corporation", required=True, help="Corporation symbol, e.g. SFA.")
@click.option("--before-action", type=int, help="Use the state before this action id.")
@click.option("--trains", help="Trains to run instead of the owned ones, e.g. 8H,8H.")
@click.option("--json", "as_json", is_flag=True, help="Print the routes as JSON.")
@format_option
def routes(
    game_file: Path,
    corporation: str,
    before_action: int | None,
    trains: str | None,
    as_json: bool,
    file_format: str,
) -> None:
    """Find the best routes of CORPORATION in GAME_FILE, proven optimal.

    JSON output: {"corporation", "revenue", "routes", "seconds", "optimal"}; routes are in the
    run_routes format.
    """
    game = load_before(game_file, before_action, file_format)
    result, seconds = find_best(game, corporation, trains)
    if as_json:
        out = {
            "corporation": corporation,
            "revenue": result.revenue,
            "routes": result.routes,
            "seconds": round(seconds, 6),
            "optimal": result.optimal,
        }
        click.echo(json.dumps(out))
    else:
        for line in describe(corporation, result, seconds):
            click.echo(line)
