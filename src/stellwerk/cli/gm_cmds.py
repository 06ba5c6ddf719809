"""``stellwerk gm ...``: the game master for play by mail (issue 10 item 6).

Every command works on the SQLite database ``--db`` (games in the store, GM data beside them,
``stellwerk.gm.gmstore``).  Reports are written as files to ``--out`` (``.eml`` plus text,
HTML, map and market pictures and the game file).  Exit statuses as ``cli/common.py``: a
refused order is answered in the output and is not an error; a bad file or argument is 2; a
game that moved on while processing is 3.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from stellwerk.cli.common import EXIT_MOVED_ON, describe_illegal, fail, parse_action
from stellwerk.core.errors import GameFileError, IllegalAction

DB = click.option("--db", "db", required=True, type=click.Path(dir_okay=False, path_type=Path),
                  help="The GM's SQLite database (created when missing).")  # fmt: skip
OUT = click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path),
                   help="Write the reports to this folder.")  # fmt: skip


def _master(db: Path) -> Any:
    from stellwerk.gm.master import GameMaster
    from stellwerk.store.errors import StoreError

    try:
        return GameMaster(db)
    except StoreError as error:
        fail(str(error))


def _known(gm: Any, key: str) -> None:
    if not gm.has(key):
        fail(f"no GM game {key!r} in {gm.path} (games: {', '.join(gm.tables.games()) or 'none'})")


def _when(text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        fail(f"--deadline: {text!r} is not a date and time like 2026-12-01T20:00")


def _echo_answers(answers: list[Any], names: dict[Any, str]) -> None:
    for answer in answers:
        who = names.get(answer.player, str(answer.player))
        mark = " [default]" if answer.default else (" [standing]" if answer.standing else "")
        if answer.refused is not None:
            click.echo(f"{who}{mark}: {answer.text!r} refused: {answer.refused}")
        else:
            click.echo(f"{who}{mark}: {answer.text!r} understood as: {answer.understood}")


def _names(gm: Any, key: str) -> dict[Any, str]:
    return {p["player"]: p["name"] for p in gm.tables.players(key)}


def _write_reports(gm: Any, key: str, out: Path | None) -> None:
    if out is None:
        return
    from stellwerk.gm.inbox import write_outbox

    number = int(gm.tables.part(key, "report_number", 0)) + 1
    reports = gm.reports(key)
    written = write_outbox(out, key, reports, gm.addresses(key), number)
    gm.tables.set_part(key, "report_number", number)
    for path in written:
        click.echo(f"report: {path}")


def _moved_on(run: Any) -> Any:
    from stellwerk.store.errors import GameMovedOn

    try:
        return run()
    except GameMovedOn as error:
        fail(str(error), EXIT_MOVED_ON)
    except IllegalAction as error:
        fail(describe_illegal(error), 1)
    except GameFileError as error:
        fail(str(error))


@click.group("gm")
def gm() -> None:
    """The game master for play by e-mail: orders in, reports out (SQLite store)."""


@gm.command("new")
@click.argument("key")
@DB
@click.option("--title", required=True, help="1849 or 1835.")
@click.option("--player", "players", multiple=True, required=True,
              help="NAME:ADDRESS[:LANG] per player in seat order (LANG en or de).")
@click.option("--option", "options", multiple=True, help="An option id (repeatable).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--deadline", help="The first deadline, e.g. 2026-12-01T20:00.")
@OUT
def new_command(key: str, db: Path, title: str, players: tuple[str, ...],
                options: tuple[str, ...], seed: int, deadline: str | None,
                out: Path | None) -> None:  # fmt: skip
    """Start game KEY with its players' addresses and languages."""
    from stellwerk.store.errors import GameExists

    parsed = []
    for spec in players:
        parts = spec.split(":")
        if len(parts) not in (2, 3) or not parts[0] or "@" not in parts[1]:
            fail(f"--player {spec!r}: write NAME:ADDRESS[:LANG]")
        lang = parts[2] if len(parts) == 3 else "en"
        if lang not in ("en", "de"):
            fail(f"--player {spec!r}: the language is en or de")
        parsed.append((parts[0], parts[1], lang))
    gm_ = _master(db)
    try:
        gm_.new(key, title, parsed, options=list(options), seed=seed, deadline=_when(deadline))
    except GameExists:
        fail(f"a game {key!r} exists in {db}")
    except IllegalAction as error:
        fail(describe_illegal(error))
    click.echo(f"{key}: {title} for {', '.join(p[0] for p in parsed)} in {db}")
    _write_reports(gm_, key, out)


@gm.command("orders")
@click.argument("key")
@click.argument("source", type=click.Path(exists=True, path_type=Path))
@DB
@click.option("--player", help="The sender of a plain order file (name or address).")
@OUT
def orders_command(key: str, source: Path, db: Path, player: str | None,
                   out: Path | None) -> None:  # fmt: skip
    """Read orders for KEY from SOURCE (a mail file, a Maildir or a plain order file)."""
    from stellwerk.gm.inbox import read_orders

    gm_ = _master(db)
    _known(gm_, key)
    sender = None
    if player is not None:
        sender = next((p["address"] for p in gm_.tables.players(key)
                       if player in (p["name"], p["address"])), None)  # fmt: skip
        if sender is None:
            fail(f"--player {player!r} does not play {key}")
    try:
        mails = read_orders(source, sender)
    except (ValueError, OSError) as error:
        fail(str(error))
    results = _moved_on(lambda: gm_.take_mails(mails, key))
    names = _names(gm_, key)
    for result in results:
        if result.refused is not None:
            click.echo(f"mail from {result.mail.sender} refused: {result.refused}")
        _echo_answers(result.answers, names)
    _echo_answers(gm_.advanced.get(key, []), names)
    _write_reports(gm_, key, out)


@gm.command("fetch")
@DB
@click.option("--maildir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="The mailbox (Maildir) to read.")
@OUT
def fetch_command(db: Path, maildir: Path, out: Path | None) -> None:
    """Read the mailbox, apply every game's orders, write the reports."""
    from stellwerk.gm.inbox import read_maildir

    gm_ = _master(db)
    try:
        mails = read_maildir(maildir)
    except (OSError, Exception) as error:  # a folder that is no Maildir
        fail(f"{maildir}: cannot read the Maildir: {error}")
    results = _moved_on(lambda: gm_.take_mails(mails))
    keys = []
    for result in results:
        if result.refused is not None:
            click.echo(f"mail from {result.mail.sender} refused: {result.refused}")
        if result.key is not None:
            _echo_answers(result.answers, _names(gm_, result.key))
            if result.key not in keys and result.refused is None:
                keys.append(result.key)
    for key in keys:
        _echo_answers(gm_.advanced.get(key, []), _names(gm_, key))
    for key in keys:
        _write_reports(gm_, key, out)


@gm.command("deadline")
@click.argument("key")
@DB
@click.option("--next", "next_deadline", help="The next deadline, e.g. 2026-12-08T20:00.")
@OUT
def deadline_command(key: str, db: Path, next_deadline: str | None, out: Path | None) -> None:
    """The deadline of KEY has passed: default orders for all who missed it, then reports."""
    gm_ = _master(db)
    _known(gm_, key)
    answers = _moved_on(lambda: gm_.deadline(key, _when(next_deadline)))
    _echo_answers(answers, _names(gm_, key))
    _write_reports(gm_, key, out)


@gm.command("report")
@click.argument("key")
@DB
@click.option("--out", "out", required=True, type=click.Path(file_okay=False, path_type=Path))
def report_command(key: str, db: Path, out: Path) -> None:
    """Write every player's report of KEY (what happened since his last one)."""
    gm_ = _master(db)
    _known(gm_, key)
    _write_reports(gm_, key, out)


@gm.command("correct")
@click.argument("key")
@DB
@click.option("--reason", required=True, help="Why: every report shows it.")
@click.option("--undo-to", type=int, help="Take back every action after this action id.")
@click.option("--action", "action_text", help="An action (JSON) to apply as the GM.")
def correct_command(key: str, db: Path, reason: str, undo_to: int | None,
                    action_text: str | None) -> None:  # fmt: skip
    """A logged correction of the state of KEY by the GM."""
    gm_ = _master(db)
    _known(gm_, key)
    action = parse_action(action_text) if action_text is not None else None
    click.echo(_moved_on(lambda: gm_.correct(key, reason, undo_to=undo_to, action=action)))


@gm.command("status")
@click.argument("key")
@DB
@click.option("--json", "as_json", is_flag=True)
def status_command(key: str, db: Path, as_json: bool) -> None:
    """Where KEY stands: round, who must act, pending and standing orders, deadline."""
    gm_ = _master(db)
    _known(gm_, key)
    status = gm_.status(key)
    if as_json:
        click.echo(json.dumps(status, ensure_ascii=False))
        return
    for name, value in status.items():
        if isinstance(value, list):
            click.echo(f"{name}: " + ("; ".join(map(str, value)) or "-"))
        else:
            click.echo(f"{name}: {value}")
