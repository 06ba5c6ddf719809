"""The ``stellwerk`` command: a thin click front end over ``stellwerk.api``."""

from __future__ import annotations

import click

from stellwerk import __version__, build
from stellwerk.cli.common import EXIT_INTERNAL
from stellwerk.cli.gm_cmds import gm
from stellwerk.cli.info_cmds import options, titles
from stellwerk.cli.pictures_cmd import PICTURE_COMMANDS
from stellwerk.cli.play_cmds import act, export_command, import_command, new, redo, undo
from stellwerk.cli.replay_cmd import replay_command
from stellwerk.cli.routes_cmd import routes
from stellwerk.cli.selfplay_cmd import selfplay
from stellwerk.cli.serve_cmd import serve
from stellwerk.cli.words_cmds import log, show
from stellwerk.core.errors import EngineError
from stellwerk.titles.registry import known_titles


class Stellwerk(click.Group):
    """The command group; an unexpected error ends a command with one line, never a traceback.
    Its help names the titles registered when it is shown (:func:`help_text`)."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self.help = help_text()
        super().format_help_text(ctx, formatter)

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except BrokenPipeError:  # the reader went away (`| head`): click ends quietly
            raise
        except EngineError as error:
            click.echo(f"error: {error}", err=True)
            raise SystemExit(EXIT_INTERNAL) from error
        except Exception as error:  # the last line of defence of the CLI
            click.echo(f"error: internal error: {type(error).__name__}: {error}", err=True)
            raise SystemExit(EXIT_INTERNAL) from error


HELP = """stellwerk: an 18xx engine ({titles}) - replay, play and test games.

Exit statuses: 0 ok, 1 refused action or replay mismatch, 2 usage error or bad file,
3 the game moved on since your base action count, 4 internal error.
"""
"""The ``stellwerk --help`` text; ``{titles}`` is filled when the help is shown."""


def help_text() -> str:
    """:data:`HELP` naming the titles registered now (``registry.TITLES``, read at call time)."""
    return HELP.format(titles=known_titles())


@click.group(cls=Stellwerk, help=HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(f"{__version__} ({build()})", prog_name="stellwerk")
def main() -> None:
    """The command group (its help is :data:`HELP`)."""


COMMANDS = (titles, options, new, show, log, act, undo, redo, selfplay, replay_command, routes)
for command in (*COMMANDS, import_command, export_command, *PICTURE_COMMANDS, gm, serve):
    main.add_command(command)
