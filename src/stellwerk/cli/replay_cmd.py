"""``stellwerk replay``: replay a game file, optionally against a state trace."""

from __future__ import annotations

import json
from pathlib import Path

import click

from stellwerk.cli.common import (
    EXIT_INTERNAL,
    EXIT_MISMATCH,
    describe_illegal,
    engine_class,
    fail,
    game_factory,
)
from stellwerk.cli.game_source import check_rails_report, format_of, format_option
from stellwerk.core.errors import GameFileError, IllegalAction
from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.io.replay import ReplayReport, replay
from stellwerk.io.trace import Trace, read_trace


def _describe(report: ReplayReport, live: int) -> list[str]:
    options = ", ".join(report.options) or "no options"
    lines = [
        f"{report.file}: {report.title} ({options})",
        f"applied {report.actions}/{live} actions in {report.seconds:.3f} s of engine time",
        f"finished: {'yes' if report.finished else 'no'}"
        + (f" ({report.game_end_reason})" if report.game_end_reason else ""),
        f"result:   {json.dumps(report.result)}",
        f"expected: {json.dumps(report.expected_result)}",
    ]
    divergence = report.first_divergence
    if divergence is not None:
        lines.append(
            f"first divergence at action {divergence.action_id}, {divergence.field}: "
            f"ours {json.dumps(divergence.ours)}, expected {json.dumps(divergence.expected)}"
        )
    elif report.expected_result is None and report.trace_complete and not report.finished:
        lines.append("trace matched; the file's game is unfinished")
    lines.append("MATCH" if report.ok else "NO MATCH")
    return lines


@click.command("replay")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--trace",
    "trace_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A .trace.jsonl to compare with after every action; stops at the first difference.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@format_option
@click.option(
    "--check-routes",
    is_flag=True,
    help="rails-report: check with the route optimiser that each claimed revenue is reachable.",
)
@click.option(
    "--traceback",
    "show_traceback",
    is_flag=True,
    help="After an engine defect, also print its Python traceback (for developers).",
)
def replay_command(
    file: Path,
    trace_path: Path | None,
    as_json: bool,
    file_format: str,
    check_routes: bool,
    show_traceback: bool,
) -> None:
    """Replay FILE (an 18xx.games game file, or a Rails 1835 .report) and compare the result
    with the recorded one (a report: every cash, payout, price and train it records).

    Exit status 0 only when the result matches and no divergence was found, 1 on a difference
    or a refused action, 4 when the engine failed (an engine defect; the report still prints).
    """
    if format_of(file, file_format) == "rails-report":
        _replay_rails(file, as_json, check_routes, show_traceback)
        return
    try:
        game_file = load_game_file(read_game_file(file))
        trace: Trace | None = read_trace(trace_path) if trace_path else None
    except GameFileError as error:
        fail(f"{file}: {error}" if str(file) not in str(error) else str(error))
    engine_class()  # fail early and clearly when the engine API is missing
    try:  # title, player count and options: refused before the replay, as a usage error
        game_factory(game_file.title, game_file.players, game_file.optional_rules, game_file.seed)
    except IllegalAction as error:
        fail(f"{file}: cannot set up this game: {describe_illegal(error)}")
    report = replay(game_file, game_factory, trace=trace, source=str(file))
    if as_json:
        click.echo(json.dumps(report.to_dict()))
    else:
        for line in _describe(report, len(game_file.live)):
            click.echo(line)
    _finish(report.ok, report.error_traceback, show_traceback)


def _finish(ok: bool, error_traceback: str | None, show_traceback: bool) -> None:
    """Exit 4 after an engine defect (one line, the traceback only on request), 1 after a
    difference, else return (exit 0)."""
    if error_traceback:
        if show_traceback:
            click.echo(error_traceback.rstrip(), err=True)
        last = error_traceback.strip().splitlines()[-1]
        click.echo(f"error: internal engine error during the replay: {last}", err=True)
        raise SystemExit(EXIT_INTERNAL)
    if not ok:
        raise SystemExit(EXIT_MISMATCH)


def _replay_rails(file: Path, as_json: bool, check_routes: bool, show_traceback: bool) -> None:
    """Import a Rails 1835 report, replay it and check every checkpoint."""
    from stellwerk.importers.rails import import_report

    check_rails_report(file)
    report = import_report(file, check_routes=check_routes)
    data = report.to_dict()
    if as_json:
        click.echo(json.dumps(data))
    else:
        options = ", ".join(report.options) or "no options"
        click.echo(f"{file}: 1835 from a Rails report ({options})")
        click.echo(
            f"applied {report.actions} actions, {report.checkpoints} checkpoints "
            f"in {report.seconds:.3f} s"
        )
        click.echo(f"route checks: {report.route_checks}")
        d = report.first_divergence
        if d is not None:
            click.echo(
                f"first divergence at line {d.line}, {d.field}: "
                f"ours {json.dumps(d.ours)}, expected {json.dumps(d.expected)}"
            )
        click.echo("MATCH" if report.ok else "NO MATCH")
    _finish(report.ok, report.error_traceback, show_traceback)
