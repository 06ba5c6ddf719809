"""``stellwerk routes``: the best routes of a corporation, proven optimal (common rules §6.1).

The game is replayed up to, not including, ``--before-action`` (replay mode, as when loading a
game file); ``--trains`` replaces the corporation's trains for a what-if.  The search uses the
title's route hooks (``engine.route_rules``, the map port's ``run_context``/``train_specs``) and,
when the title has a ``routefind`` module with ``leg_costs()``, its additive distance.
"""

from __future__ import annotations

import importlib
import json
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click

from stellwerk.cli.common import describe_illegal, engine_class, fail
from stellwerk.core.errors import GameFileError, IllegalAction
from stellwerk.core.routes.model import TrainSpec
from stellwerk.core.routes.optimize import BestRun, LegCosts, best_routes
from stellwerk.io.gamefile import action_id, load_game_file, read_game_file


def load_before(path: Path, before_action: int | None) -> Any:
    """The title game (``Game.engine``) after every live action with an id below
    ``before_action`` (all live actions when None)."""
    try:
        data = read_game_file(path)
        live = load_game_file(data).live
    except GameFileError as error:
        fail(f"{path}: {error}")
    actions = []
    for action in live:
        if before_action is not None and action_id(action) >= before_action:
            break
        actions.append(action)
    try:
        game = engine_class().from_file({**data, "actions": [*actions]})
    except GameFileError as error:
        fail(f"{path}: {error}")
    except IllegalAction as error:  # before any action: title, players or options
        fail(f"{path}: cannot set up this game: {describe_illegal(error)}")
    return game.engine


def what_if_trains(engine: Any, names: str) -> list[Any]:
    """Train objects of the game, one per name in ``names`` ("8H,8H,R6H"), distinct copies."""
    pool: dict[str, list[Any]] = {}
    for train in engine.depot.trains:
        pool.setdefault(train.name, []).append(train)
    out = []
    for name in (n.strip() for n in names.split(",")):
        copies = pool.get(name)
        if not copies:
            known = ", ".join(sorted(pool))
            fail(f"--trains: no train type {name!r} in this game (types: {known})")
        out.append(copies.pop(0))
    return out


def title_costs(engine: Any) -> LegCosts | None:
    """The title's additive distance (``titles/<title>/routefind.leg_costs``), if it has one."""
    package = type(engine).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.routefind")
    except ImportError:
        return None
    factory = getattr(module, "leg_costs", None)
    return None if factory is None else factory()


def find_best(engine: Any, symbol: str, trains: str | None) -> tuple[BestRun, float]:
    """The best run of corporation ``symbol`` and the seconds the search took."""
    try:
        corp = engine.corporation(symbol)
    except IllegalAction as error:
        fail(describe_illegal(error))
    port: Any = getattr(engine, "map", None)
    if not all(hasattr(x, a) for x, a in ((port, "run_context"), (engine, "route_rules"))):
        fail(f"routes: {type(engine).__name__} does not provide route hooks yet")
    owned = SimpleNamespace(trains=what_if_trains(engine, trains)) if trains else corp
    specs: dict[str, TrainSpec] = port.train_specs(owned)
    ctx = port.run_context(corp)
    costs = title_costs(engine)
    start = time.perf_counter()
    result = best_routes(ctx, specs, engine.route_rules, costs=costs)
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
def routes(
    game_file: Path,
    corporation: str,
    before_action: int | None,
    trains: str | None,
    as_json: bool,
) -> None:
    """Find the best routes of CORPORATION in GAME_FILE, proven optimal.

    JSON output: {"corporation", "revenue", "routes", "seconds", "optimal"}; routes are in the
    run_routes format.
    """
    engine = load_before(game_file, before_action)
    result, seconds = find_best(engine, corporation, trains)
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
