"""The ``stellwerk`` command: a thin click front end over ``stellwerk.api``."""

from __future__ import annotations

import click

from stellwerk import __version__
from stellwerk.cli.play_cmds import act, new, show, undo
from stellwerk.cli.replay_cmd import replay_command
from stellwerk.cli.routes_cmd import routes
from stellwerk.cli.selfplay_cmd import selfplay


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="stellwerk")
def main() -> None:
    """stellwerk: an 18xx engine (1841, 1849, 1835) - replay, play and test games."""


for command in (replay_command, new, show, act, undo, selfplay, routes):
    main.add_command(command)
