"""``stellwerk show`` and ``stellwerk log``: the game as a player reads it.

``show`` names players and corporations, gives the round and step, who is to act, standing
bids, the priority deal, IPO and pool shares, par prices, the tail of the log and the legal
actions as ready JSON (tile lays grouped by hex); ``--json`` prints the same as one object.
``log`` tells the whole game in English or German.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, TypeGuard

import click

from stellwerk.cli.game_source import format_of, format_option
from stellwerk.cli.show import render
from stellwerk.cli.store_access import db_option, opened, store_outcomes
from stellwerk.store import players_of
from stellwerk.words import LANGUAGES, story
from stellwerk.words import render as render_lines

if TYPE_CHECKING:
    from stellwerk.api import Game
    from stellwerk.words.view import GameView

ACT_EXAMPLES = """\b
Examples of ACTION, one per action type (entity: a player id, a corporation or company
symbol with entity_type; `stellwerk show GAME` lists the ones legal now, ready to send):
  bid             {"type":"bid","entity":1,"company":"SCE","price":20}
  blind_bid       {"type":"blind_bid","entity":1,"bids":[0,40,0]}
  pass            {"type":"pass","entity":1}
  par             {"type":"par","entity":1,"corporation":"ATA","share_price":"100,0,4"}
  buy_shares      {"type":"buy_shares","entity":1,"shares":["ATA_1"],"percent":10}
  sell_shares     {"type":"sell_shares","entity":1,"shares":["ATA_1"],"percent":10}
  buy_company     {"type":"buy_company","entity":"ATA","entity_type":"corporation",
                   "company":"SCE","price":40}
  lay_tile        {"type":"lay_tile","entity":"ATA","entity_type":"corporation",
                   "hex":"E11","tile":"9-0","rotation":1}
  place_token     {"type":"place_token","entity":"ATA","entity_type":"corporation",
                   "city":"E11-0-0","slot":0}
  remove_token    {"type":"remove_token","entity":"ATA","entity_type":"corporation",
                   "city":"E11-0-0","slot":0}
  buy_token       {"type":"buy_token","entity":"ATA","entity_type":"corporation",
                   "city":"E11-0-0","slot":1,"price":40}
  run_routes      {"type":"run_routes","entity":"ATA","entity_type":"corporation",
                   "routes":[{"train":"4H-0","connections":[["E11","E13"]]}]}
  dividend        {"type":"dividend","entity":"ATA","entity_type":"corporation",
                   "kind":"payout"}
  buy_train       {"type":"buy_train","entity":"ATA","entity_type":"corporation",
                   "train":"4H-0","price":100}
  discard_train   {"type":"discard_train","entity":"ATA","entity_type":"corporation",
                   "train":"4H-0"}
  choose          {"type":"choose","entity":1,"choice":"Leave game"}
  assign          {"type":"assign","entity":"SMS","entity_type":"company","target":"E11"}
  bankrupt        {"type":"bankrupt","entity":"ATA","entity_type":"corporation"}
  take_loan       {"type":"take_loan","entity":"ATA","entity_type":"corporation"}
  payoff_loan     {"type":"payoff_loan","entity":"ATA","entity_type":"corporation"}
  merge           {"type":"merge","entity":"ATA","entity_type":"corporation"}
  message         {"type":"message","entity":1,"message":"good game"}
  end_game        {"type":"end_game","entity":1}
"""
"""The ``act`` help's examples (an example for every action type)."""


def _real(game: object) -> TypeGuard[Game]:
    """Whether ``game`` offers the API's views (tests drive toy engines in place of the API,
    ``tests/io/fakegame.py``, which have none and keep no log)."""
    from stellwerk.reading import Reader

    return isinstance(getattr(game, "view", None), Reader)


@click.command("show")
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print the view as one JSON object.")
@click.option("--log", "log_lines", type=int, default=10, show_default=True,
              help="How many lines of the log to show (0: none).")  # fmt: skip
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True,
              help="Language of the log.")  # fmt: skip
@db_option
@format_option
def show(
    game: str, as_json: bool, log_lines: int, lang: str, db: str | None, file_format: str
) -> None:
    """Show GAME as a player reads it: round and step, who is to act, standing bids, the
    priority deal, players, corporations (IPO and pool shares, par and current prices), the
    last lines of the log and the legal actions as JSON ready for `stellwerk act`, tile lays
    grouped by hex.

    \b
    Example:  stellwerk show game.json --log 20 --lang de
              stellwerk show game.json --json | jq '.legal.lays'
    """
    from stellwerk.words.view import player_view

    if db is None and format_of(Path(game), file_format) == "rails-report":
        from stellwerk.cli.game_source import game_data, replay

        loaded = replay(*game_data(game, None, file_format), None)
        note = loaded.note()
        if note is not None:
            click.echo(note, err=True)
        if not _real(loaded.game):
            raise click.ClickException("this engine keeps no log")
        _show(player_view(loaded.game, lang, max(log_lines, 0)), as_json)
        return
    with opened(db) as store, store_outcomes():
        stored = store.load(game)
        engine_game = stored.game
        if _real(engine_game):
            _show(player_view(engine_game, lang, max(log_lines, 0)), as_json)
            return
        plain = stored.view()  # an engine without the core (tests' toy engines)
    if as_json:
        click.echo(json.dumps(plain, ensure_ascii=False))
        return
    names = {str(p.get("id")): str(p.get("name", "")) for p in players_of(stored.data)}
    for line in render(plain["snapshot"], names, plain["active"], plain["legal"]):
        click.echo(line)
    if plain["finished"]:
        click.echo(f"Game over ({plain['game_end_reason']}): {plain['result']}")


def _show(view: GameView, as_json: bool) -> None:
    from stellwerk.words.view import render_view

    if as_json:
        click.echo(json.dumps(view, ensure_ascii=False))
    else:
        for line in render_view(view):
            click.echo(line)


@click.command("log")
@click.argument("game")
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True,
              help="Language: en or de.")  # fmt: skip
@click.option("--no-skips", is_flag=True, help="Leave out the steps skipped automatically.")
@db_option
@format_option
def log(game: str, lang: str, no_skips: bool, db: str | None, file_format: str) -> None:
    """Tell GAME in sentences: every action and what it caused (prices, presidents, phases,
    rusting, closings, dividends, skipped steps, bankruptcies, the end).  GAME is a game file,
    a Rails 1835 .report or (with --db) a stored game's key; a game the engine cannot replay
    to the end yet (1841) is told up to the first action it refuses, with a note on stderr.

    \b
    Example:  stellwerk log game.json --lang de
    """
    from stellwerk.cli.game_source import game_data, replay

    data, path = game_data(game, db, file_format)
    loaded = replay(data, path, None)
    if not _real(loaded.game):
        raise click.ClickException("this engine keeps no log")
    lines = story(loaded.game, lang, skipped_steps=not no_skips)
    for line in render_lines(lines):
        click.echo(line)
    note = loaded.note()
    if note is not None:
        click.echo(note.replace("shown is the state before it", "the log stops there"), err=True)
