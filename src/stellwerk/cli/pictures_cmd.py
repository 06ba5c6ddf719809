"""``stellwerk map|market|charters|players|tiles``: pictures of a game as SVG or PNG.

The game (an 18xx.games-format game file, or a Rails 1835 ``.report``) is replayed up to, not
including, ``--before-action`` (all live actions when absent).  ``map --routes CORP`` draws the
routes of CORP's last run before that point, one colour per train; ``--best`` draws the best
routes the optimiser finds for CORP's trains instead.  The output format follows the file
name: ``.png`` is PNG (scaled by ``--scale``), anything else SVG.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from stellwerk.cli.common import check_output, describe_illegal, engine_class, fail
from stellwerk.core.errors import EngineError, GameFileError, IllegalAction


def _game_data(path: Path) -> dict[str, Any]:
    """The game file's data; a Rails report is imported first."""
    if path.suffix == ".report":
        from stellwerk.io.from_rails_report import import_report

        report = import_report(path)
        if report.game is None:
            fail(f"{path}: the report could not be imported")
        data: dict[str, Any] = report.game.to_file()
        return data
    from stellwerk.io.gamefile import read_game_file

    try:
        return read_game_file(path)
    except GameFileError as error:
        fail(f"{path}: {error}")


def load(
    path: Path, before_action: int | None, board_only: bool = False
) -> tuple[Any, list[dict[str, Any]]]:
    """The title game before ``before_action`` and the live actions it applied.

    With ``board_only`` (the map), an 1841 game the engine cannot replay that far yet (its
    operating rounds are being built) is drawn from the board rebuilt from the state trace
    beside the file (``titles/g1841/positions.py``), when there is one."""
    from stellwerk.io.gamefile import load_game_file

    data = _game_data(path)
    try:
        live = load_game_file(data).live
    except GameFileError as error:
        fail(f"{path}: {error}")
    actions = [a for a in live if before_action is None or int(a.get("id", 0)) < before_action]
    try:
        game = engine_class().from_file({**data, "actions": actions})
    except GameFileError as error:
        if board_only and data.get("title") == "1841":
            port = _positions_1841(path, before_action)
            if port is not None:
                return port, actions
        fail(f"{path}: {error}")
    except IllegalAction as error:
        fail(f"{path}: cannot set up this game: {describe_illegal(error)}")
    return game.engine, actions


def _positions_1841(path: Path, before_action: int | None) -> Any:
    """The 1841 board before ``before_action`` rebuilt from the file's trace, or None."""
    from stellwerk.titles.g1841.positions import positions, trace_path

    if not trace_path(path).is_file():
        return None
    port = None
    try:  # the port is updated in place; when the loop ends every action is applied
        for action, position in positions(path):
            if before_action is not None and int(action["id"]) >= before_action:
                return position.port
            port = position.port
    except ValueError:
        return None
    return port


def _write(svg_text: str, output: Path, scale: float) -> None:
    from stellwerk.pictures.svg import write

    try:
        write(svg_text, output, scale)
    except OSError as error:
        fail(f"{output}: cannot write: {error.strerror or error}")
    except RuntimeError as error:
        fail(str(error))
    click.echo(f"wrote {output}")


def _map_svg(engine: Any, actions: list[dict[str, Any]], routes: str | None, best: bool) -> str:
    from stellwerk.pictures.mapview import render_map
    from stellwerk.pictures.scene import board_of, last_run, map_scene, route_lines

    lines: list[Any] = []
    if routes is not None:
        try:
            engine.corporation(routes)
        except IllegalAction as error:
            fail(describe_illegal(error))
        board = board_of(engine)
        if best:
            from stellwerk.cli.routes_cmd import find_best

            result, _ = find_best(engine, routes, None)
            recorded: list[Any] | None = list(result.routes)
        else:
            recorded = last_run(actions, routes)
            if recorded is None:
                fail(f"--routes: {routes} has not run any train before this point")
            if not recorded and _ran_for_revenue(actions, routes):
                # a run without its routes (an imported Rails report records only revenue)
                click.echo(f"{routes}'s last run records no routes: drawing its best routes")
                from stellwerk.cli.routes_cmd import find_best

                best = True
                recorded = list(find_best(engine, routes, None)[0].routes)
        try:
            lines = route_lines(board, routes, recorded or [])
        except (IllegalAction, EngineError) as error:
            fail(f"--routes: the routes of {routes} do not fit the board now: {error}")
    return render_map(map_scene(engine, lines, routes, best))


def _ran_for_revenue(actions: list[dict[str, Any]], corp: str) -> bool:
    """Did ``corp``'s last run earn something?"""
    for action in reversed(actions):
        if action.get("type") == "run_routes" and action.get("entity") == corp:
            return bool(action.get("revenue"))
    return False


def _common(function: Callable[..., None]) -> Callable[..., None]:
    function = click.option(
        "--scale", type=float, default=1.5, show_default=True, help="PNG scale factor."
    )(function)
    function = click.option(
        "--before-action", type=int, help="Picture the state before this action id."
    )(function)
    function = click.option(
        "-o",
        "--output",
        type=click.Path(dir_okay=False, path_type=Path),
        required=True,
        help="Output file: .svg or .png.",
    )(function)
    return click.argument(
        "game_file", type=click.Path(exists=True, dir_okay=False, path_type=Path)
    )(function)


@click.command("map")
@_common
@click.option("--routes", "routes", metavar="CORP", help="Draw CORP's routes of its last run.")
@click.option("--best", is_flag=True, help="With --routes: CORP's best routes instead.")
def map_command(
    game_file: Path,
    output: Path,
    before_action: int | None,
    scale: float,
    routes: str | None,
    best: bool,
) -> None:
    """Draw the map of GAME_FILE (tiles, tokens, borders; routes on request).

    Example: stellwerk map game.json -o map.png --routes SFA --before-action 300
    """
    check_output(output)
    engine, actions = load(game_file, before_action, board_only=True)
    _write(_map_svg(engine, actions, routes, best), output, scale)


@click.command("market")
@_common
def market_command(game_file: Path, output: Path, before_action: int | None, scale: float) -> None:
    """Draw the stock market of GAME_FILE with every corporation's marker.

    Example: stellwerk market game.json -o market.svg
    """
    from stellwerk.pictures.market import render_market

    check_output(output)
    engine, _ = load(game_file, before_action)
    _write(render_market(engine), output, scale)


@click.command("charters")
@_common
def charters_command(
    game_file: Path, output: Path, before_action: int | None, scale: float
) -> None:
    """Draw a charter per corporation of GAME_FILE (treasury, trains, tokens, shares).

    Example: stellwerk charters game.json -o charters.png
    """
    from stellwerk.pictures.charters import render_charters

    check_output(output)
    engine, actions = load(game_file, before_action)
    _write(render_charters(engine, actions), output, scale)


@click.command("players")
@_common
def players_command(game_file: Path, output: Path, before_action: int | None, scale: float) -> None:
    """Draw the players' table of GAME_FILE (cash, certificates, shares, worth).

    Example: stellwerk players game.json -o players.png
    """
    from stellwerk.pictures.charters import render_players

    check_output(output)
    engine, _ = load(game_file, before_action)
    _write(render_players(engine), output, scale)


@click.command("tiles")
@_common
def tiles_command(game_file: Path, output: Path, before_action: int | None, scale: float) -> None:
    """Draw every tile of GAME_FILE's supply with the copies left.

    Example: stellwerk tiles game.json -o tiles.svg
    """
    from stellwerk.pictures.tilesheet import render_tiles

    check_output(output)
    engine, _ = load(game_file, before_action)
    _write(render_tiles(engine), output, scale)


PICTURE_COMMANDS = (map_command, market_command, charters_command, players_command, tiles_command)
