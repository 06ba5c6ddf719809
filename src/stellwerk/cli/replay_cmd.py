"""``stellwerk replay``: replay a game file, optionally against a state trace."""

from __future__ import annotations

import json
from pathlib import Path

import click

from stellwerk.cli.common import EXIT_MISMATCH, engine_class, fail, game_factory
from stellwerk.core.errors import GameFileError
from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.io.replay import ReplayReport, replay
from stellwerk.io.trace import Trace, read_trace

FORMATS = ("18xx", "rails-report")


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
@click.option(
    "--format",
    "file_format",
    type=click.Choice(FORMATS),
    default="18xx",
    show_default=True,
    help="Format of FILE.",
)
def replay_command(file: Path, trace_path: Path | None, as_json: bool, file_format: str) -> None:
    """Replay FILE (an 18xx.games game file) and compare the result with the recorded one.

    Exit status 0 only when the result matches and no divergence was found.
    """
    if file_format == "rails-report":
        fail("--format rails-report is not supported yet")
    try:
        game_file = load_game_file(read_game_file(file))
        trace: Trace | None = read_trace(trace_path) if trace_path else None
    except GameFileError as error:
        fail(str(error))
    engine_class()  # fail early and clearly when the engine API is missing
    report = replay(game_file, game_factory, trace=trace, source=str(file))
    if report.error_traceback:
        click.echo(report.error_traceback, err=True)
    if as_json:
        click.echo(json.dumps(report.to_dict()))
    else:
        for line in _describe(report, len(game_file.live)):
            click.echo(line)
    if not report.ok:
        raise SystemExit(EXIT_MISMATCH)
