"""``stellwerk titles`` and ``stellwerk options TITLE``: what can be played, and how.

Both read the title registry (``stellwerk.titles.registry``), so they list exactly what
``new``, ``selfplay`` and game files accept: player counts from each title's data, options as
each title declares them (id, label, source, player counts, prerequisites and conflicts).
"""

from __future__ import annotations

import json

import click

from stellwerk.cli.common import describe_illegal, fail
from stellwerk.core.errors import IllegalAction
from stellwerk.titles.registry import TITLES, OptionInfo, describe_counts, title_info


@click.command("titles")
@click.option("--json", "as_json", is_flag=True, help="Print the titles as a JSON list.")
def titles(as_json: bool) -> None:
    """List the titles with their player counts and a short description."""
    infos = [title_info(title) for title in TITLES]
    if as_json:
        summary = [{**info.to_dict(), "options": [o.id for o in info.options]} for info in infos]
        click.echo(json.dumps(summary))
        return
    for info in infos:
        click.echo(
            f"{info.id}  {describe_counts(info.players)} players, "
            f"{len(info.options)} options  {info.description}"
        )


def _option_lines(option: OptionInfo) -> list[str]:
    lines = [f"{option.id}: {option.label}", f"    source: {option.source}"]
    lines.append(f"    players: {describe_counts(option.players)}")
    if option.requires:
        lines.append(f"    requires: {', '.join(option.requires)}")
    if option.conflicts:
        lines.append(f"    conflicts with: {', '.join(option.conflicts)}")
    if option.implies:
        lines.append(f"    implies: {', '.join(option.implies)}")
    if option.note:
        lines.append(f"    note: {option.note}")
    return lines


@click.command("options")
@click.argument("title")
@click.option("--json", "as_json", is_flag=True, help="Print the title and options as JSON.")
def options(title: str, as_json: bool) -> None:
    """List TITLE's options: id, label, source, player counts, prerequisites, conflicts."""
    try:
        info = title_info(title)
    except IllegalAction as error:
        fail(describe_illegal(error))
    if as_json:
        click.echo(json.dumps(info.to_dict()))
        return
    click.echo(f"{info.id}: {info.description}; {describe_counts(info.players)} players")
    for option in info.options:
        for line in _option_lines(option):
            click.echo(line)
