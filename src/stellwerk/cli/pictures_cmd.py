"""``stellwerk map|market|charters|players|tiles``: pictures of a game as SVG or PNG.

The game (an 18xx.games-format game file, a Rails 1835 ``.report``, or with ``--db`` a key of
the game store) is replayed up to, not including, ``--before-action`` (all live actions when
absent; ``cli/game_source.py`` says what happens when the engine cannot replay that far).
``map --routes CORP`` draws the routes of CORP's last run before that point, one colour per
train; ``--best`` draws the best routes the optimiser finds for CORP's trains instead.  The
output format follows the file name: ``.png`` is PNG (scaled by ``--scale``), anything else
SVG.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from stellwerk.cli.common import check_output, fail
from stellwerk.cli.game_source import format_option, game_data, replay
from stellwerk.cli.store_access import db_option
from stellwerk.core.errors import EngineError, IllegalAction
from stellwerk.core.jsondata import JSONObject
from stellwerk.core.routes.model import RouteView

if TYPE_CHECKING:
    from stellwerk.api import Game
    from stellwerk.pictures.mapview import RouteLine


@dataclass
class Picture:
    """What a picture is drawn from: the API game and the live actions it applied."""

    source: Game
    actions: list[JSONObject]


def load(
    game: str, before_action: int | None, db: str | None = None, file_format: str = "auto"
) -> tuple[Game, list[JSONObject]]:
    """The game before ``before_action`` and the live actions it applied."""
    picture = load_picture(game, before_action, db, file_format)
    return picture.source, picture.actions


def load_picture(
    game: str, before_action: int | None, db: str | None = None, file_format: str = "auto"
) -> Picture:
    """The game GAME (a file, a Rails report or a store key) before ``before_action``.

    When the engine cannot replay that far (it refuses a recorded action) the state before
    the first refused action is drawn, with a note on stderr."""
    data, path = game_data(game, db, file_format)
    loaded = replay(data, path, before_action)
    note = loaded.note()
    if note is not None:
        click.echo(note, err=True)
    from stellwerk.api import Game

    if not isinstance(loaded.game, Game):  # tests' toy engines draw nothing
        fail("this engine draws no pictures")
    return Picture(loaded.game, loaded.actions)


def _write(svg_text: str, output: Path, scale: float) -> None:
    from stellwerk.pictures.svg import write

    try:
        write(svg_text, output, scale)
    except OSError as error:
        fail(f"{output}: cannot write: {error.strerror or error}")
    except RuntimeError as error:
        fail(str(error))
    click.echo(f"wrote {output}")


def _map_svg(picture: Picture, routes: str | None, best: bool, lang: str = "en") -> str:
    from stellwerk.pictures.mapview import render_map
    from stellwerk.pictures.scene import last_run, map_scene, route_lines

    actions = picture.actions
    game = picture.source
    lines: list[RouteLine] = []
    if routes is not None:
        _check_corporation(game, routes)
        if best:
            recorded: list[RouteView] | None = list(game.best_routes(routes).routes)
        else:
            recorded = last_run(actions, routes)
            if recorded is None:
                fail(f"--routes: {routes} has not run any train before this point")
            if not recorded and _ran_for_revenue(actions, routes):
                # a run without its routes (an imported Rails report records only revenue)
                click.echo(f"{routes}'s last run records no routes: drawing its best routes")
                best = True
                recorded = list(game.best_routes(routes).routes)
        try:
            lines = route_lines(game.board, routes, recorded or [])
        except (IllegalAction, EngineError) as error:
            fail(f"--routes: the routes of {routes} do not fit the board now: {error}")
    return render_map(map_scene(game, lines, routes, best, lang))


def _check_corporation(game: Game, symbol: str) -> None:
    """Refuse a symbol that names no corporation of the game."""
    known = [c.sym for c in game.view.corporations()]
    if symbol not in known:
        fail(f"--routes: no corporation {symbol} (one of {', '.join(known)})")


def _ran_for_revenue(actions: list[JSONObject], corp: str) -> bool:
    """Did ``corp``'s last run earn something?"""
    for action in reversed(actions):
        if action.get("type") == "run_routes" and action.get("entity") == corp:
            return bool(action.get("revenue"))
    return False


def _common(function: Callable[..., None]) -> Callable[..., None]:
    function = click.option(
        "--lang",
        type=click.Choice(["en", "de"]),
        default="en",
        show_default=True,
        help="The picture's words: English or German.",
    )(function)
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
    function = db_option(function)
    function = format_option(function)
    return click.argument("game_file", metavar="GAME")(function)


@click.command("map")
@_common
@click.option("--routes", "routes", metavar="CORP", help="Draw CORP's routes of its last run.")
@click.option("--best", is_flag=True, help="With --routes: CORP's best routes instead.")
def map_command(
    game_file: str,
    output: Path,
    before_action: int | None,
    scale: float,
    db: str | None,
    file_format: str,
    routes: str | None,
    best: bool,
    lang: str,
) -> None:
    """Draw the map of GAME (tiles, tokens, borders; routes on request).

    Example: stellwerk map game.json -o map.png --routes SFA --before-action 300
    """
    check_output(output)
    picture = load_picture(game_file, before_action, db, file_format)
    _write(_map_svg(picture, routes, best, lang), output, scale)


@click.command("market")
@_common
def market_command(
    game_file: str,
    output: Path,
    before_action: int | None,
    scale: float,
    db: str | None,
    file_format: str,
    lang: str,
) -> None:
    """Draw the stock market of GAME with every corporation's marker.

    Example: stellwerk market game.json -o market.svg
    """
    from stellwerk.pictures.market import render_market

    check_output(output)
    game, _ = load(game_file, before_action, db, file_format)
    _write(render_market(game, lang), output, scale)


@click.command("charters")
@_common
def charters_command(
    game_file: str,
    output: Path,
    before_action: int | None,
    scale: float,
    db: str | None,
    file_format: str,
    lang: str,
) -> None:
    """Draw a charter per corporation of GAME (treasury, trains, tokens, shares).

    Example: stellwerk charters game.json -o charters.png
    """
    from stellwerk.pictures.charters import render_charters

    check_output(output)
    game, actions = load(game_file, before_action, db, file_format)
    _write(render_charters(game, actions, lang), output, scale)


@click.command("players")
@_common
def players_command(
    game_file: str,
    output: Path,
    before_action: int | None,
    scale: float,
    db: str | None,
    file_format: str,
    lang: str,
) -> None:
    """Draw the players' table of GAME (cash, certificates, shares, worth).

    Example: stellwerk players game.json -o players.png
    """
    from stellwerk.pictures.charters import render_players

    check_output(output)
    game, _ = load(game_file, before_action, db, file_format)
    _write(render_players(game, lang), output, scale)


@click.command("tiles")
@_common
def tiles_command(
    game_file: str,
    output: Path,
    before_action: int | None,
    scale: float,
    db: str | None,
    file_format: str,
    lang: str,
) -> None:
    """Draw every tile of GAME's supply with the copies left.

    Example: stellwerk tiles game.json -o tiles.svg
    """
    from stellwerk.pictures.tilesheet import render_tiles

    check_output(output)
    game, _ = load(game_file, before_action, db, file_format)
    _write(render_tiles(game, lang=lang), output, scale)


@click.command("plot")
@click.argument("kind", type=click.Choice(["worth", "prices", "revenues"]))
@_common
def plot_command(
    kind: str, game_file: str, output: Path, before_action: int | None, scale: float,
    db: str | None, file_format: str, lang: str,
) -> None:  # fmt: skip
    """Plot GAME's course over the rounds: the players' worth (KIND worth), the share prices
    (prices) after every round, or each corporation's revenue in every operating round
    (revenues).

    Example: stellwerk plot worth game.json -o worth.svg
    """
    from stellwerk.history import history
    from stellwerk.pictures.plots import price_plot, revenue_plot, worth_plot
    from stellwerk.pictures.style import corporation_colors

    check_output(output)
    game, _ = load(game_file, before_action, db, file_format)
    course = history(game)
    colors = corporation_colors(game.title, course.corporations, game.view.declared_colors())
    if kind == "worth":
        svg = worth_plot(course, game.title, lang)
    elif kind == "prices":
        svg = price_plot(course, game.title, colors, lang)
    else:
        svg = revenue_plot(course, game.title, colors, lang)
    _write(svg, output, scale)


PICTURE_COMMANDS = (
    map_command, market_command, charters_command, players_command, tiles_command, plot_command
)  # fmt: skip
