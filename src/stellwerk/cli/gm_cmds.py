"""``stellwerk gm ...``: the game master for play by mail.

Every command works on the SQLite database ``--db`` (games in the store, GM data beside them,
``stellwerk.gm.gmstore``).  The GM configuration ``--config`` (TOML, ``stellwerk.gm.mail``,
docs/gm.md) holds the GM's address, the mailbox the orders come from (Maildir or IMAP), where
reports go (SMTP or an outbox folder of ``.eml`` files) and each game's players with their
addresses and languages; the game file never holds an address.  Exit statuses as
``cli/common.py``: a refused order is answered in the output and is not an error; a bad file,
argument or configuration is 2; a game that moved on while processing is 3; a mail server
that cannot be reached or refuses is 2 (the processing itself is saved; the reports not sent
stay unmarked, for ``gm resend``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from stellwerk.cli.common import EXIT_MOVED_ON, describe_illegal, fail, parse_action
from stellwerk.core.entities import PlayerId
from stellwerk.core.errors import GameFileError, IllegalAction

if TYPE_CHECKING:
    from email.message import EmailMessage

    from stellwerk.gm.mail import IncomingMail
    from stellwerk.gm.master import GameMaster
    from stellwerk.gm.session import Outcome

T = TypeVar("T")

DB = click.option("--db", "db", required=True, type=click.Path(dir_okay=False, path_type=Path),
                  help="The GM's SQLite database (created when missing).")  # fmt: skip
CONFIG = click.option("--config", "config", required=True,
                      type=click.Path(dir_okay=False, path_type=Path),
                      help="The GM configuration (TOML): addresses, mailboxes.")  # fmt: skip


def _master(db: Path, config: Path | None = None) -> GameMaster:
    from stellwerk.gm.mail import ConfigError, GMConfig
    from stellwerk.gm.master import GameMaster
    from stellwerk.store.errors import StoreError

    try:
        loaded = GMConfig.load(config) if config is not None else None
        return GameMaster(db, loaded)
    except (StoreError, ConfigError) as error:
        fail(str(error))


def _known(gm: GameMaster, key: str) -> None:
    if not gm.has(key):
        fail(f"no GM game {key!r} in {gm.path} (games: {', '.join(gm.tables.games()) or 'none'})")


def _when(text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        fail(f"--deadline: {text!r} is not a date and time like 2026-12-01T20:00")


def _echo_answers(answers: list[Outcome], names: dict[PlayerId, str]) -> None:
    for answer in answers:
        who = names.get(answer.player, str(answer.player))
        mark = " [default]" if answer.default else (" [standing]" if answer.standing else "")
        if answer.refused is not None:
            click.echo(f"{who}{mark}: {answer.text!r} refused: {answer.refused}")
        else:
            click.echo(f"{who}{mark}: {answer.text!r} understood as: {answer.understood}")


def _names(gm: GameMaster, key: str) -> dict[PlayerId, str]:
    return {p["player"]: p["name"] for p in gm.tables.players(key)}


def _send_reports(gm: GameMaster, key: str, replies: dict[str, str] | None = None,
                  player: str | None = None, resend: bool = False,
                  keep_going: bool = False) -> bool:  # fmt: skip
    """Every player's report since his last (or ``player``'s), sent as the configuration
    says; ``resend``: the reports that could not be sent before (``GameMaster.resend``).
    Reports the server refused are not marked sent: the command names them and exits 2, or
    (``keep_going``: more games' reports follow) says so and returns False."""
    import smtplib

    from stellwerk.gm.mail import ConfigError
    from stellwerk.gm.master import ReportsUnsent

    failed: dict[str, str] = {}
    try:
        if resend:
            reports, written = gm.resend(key, player)
        else:
            reports, written = gm.send_reports(key, player, replies=replies)
    except ConfigError as error:
        fail(str(error))
    except ReportsUnsent as error:
        reports, written, failed = error.reports, error.written, error.failed
    except (smtplib.SMTPException, OSError) as error:
        if keep_going:
            click.echo(f"error: {key}: the reports could not be sent: {error}", err=True)
            return False
        fail(f"{key}: the reports could not be sent: {error}")
    for path in written:
        click.echo(f"report: {path}")
    if not written:
        for name in reports:
            if name not in failed:
                click.echo(f"report to {name}: {gm.needs_config().address_of(key, name)}")
    if resend and not reports:
        click.echo(f"{key}: no unsent reports")
    if failed:
        for name, reason in failed.items():
            click.echo(f"report to {name} not sent: {reason}")
        message = (f"{key}: {len(failed)} reports not sent (marked unsent); send them with "
                   f"stellwerk gm resend {key}")  # fmt: skip
        if keep_going:
            click.echo(f"error: {message}", err=True)
            return False
        fail(message)
    return True


def _moved_on(run: Callable[[], T]) -> T:
    from stellwerk.gm.mail import ConfigError
    from stellwerk.store.errors import GameMovedOn

    try:
        return run()
    except GameMovedOn as error:
        fail(str(error), EXIT_MOVED_ON)
    except IllegalAction as error:
        fail(describe_illegal(error), 1)
    except GameFileError as error:
        fail(str(error))
    except ConfigError as error:
        fail(str(error))


@click.group("gm")
def gm() -> None:
    """The game master for play by e-mail: orders in, reports out (SQLite store)."""


@gm.command("new")
@click.argument("key")
@DB
@CONFIG
@click.option("--title", required=True, help="A registered title (stellwerk titles).")
@click.option("--option", "options", multiple=True, help="An option id (repeatable).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--deadline", help="The first deadline, e.g. 2026-12-01T20:00.")
@click.option("--send", is_flag=True, help="Send every player the first report.")
@click.option(
    "--from",
    "start",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="Go on from this game file (same title and players, in seat order).",
)
def new_command(key: str, db: Path, config: Path, title: str, options: tuple[str, ...],
                seed: int, deadline: str | None, send: bool,
                start: Path | None) -> None:  # fmt: skip
    """Start game KEY for the players the configuration lists for it (seats in its order);
    with --from, go on from a game begun elsewhere (its options and seed)."""
    from stellwerk.gm.mail import ConfigError
    from stellwerk.io.gamefile import read_game_file
    from stellwerk.store.errors import GameExists

    gm_ = _master(db, config)
    try:
        data = read_game_file(start) if start is not None else None
        gm_.new_from_config(key, title, options=list(options), seed=seed, deadline=_when(deadline),
                            start=data)  # fmt: skip
    except GameExists:
        fail(f"a game {key!r} exists in {db}")
    except IllegalAction as error:
        fail(describe_illegal(error))
    except (ConfigError, GameFileError) as error:
        fail(str(error))
    names = [p["name"] for p in gm_.tables.players(key)]
    click.echo(f"{key}: {title} for {', '.join(names)} in {db}")
    if send:
        _send_reports(gm_, key)


def _read_source(gm: GameMaster, key: str, source: Path, player: str | None) -> list[IncomingMail]:
    """The mails in SOURCE: a Maildir, a mail file, or a plain order file of ``player``."""
    from stellwerk.gm.mail import ConfigError, IncomingMail, parse_mail, read_maildir

    if source.is_dir():
        return list(read_maildir(source))
    raw = source.read_bytes()
    if player is None:
        return [parse_mail(raw)]
    try:
        sender = gm.needs_config().address_of(key, player)
    except ConfigError as error:
        fail(f"--player {player!r}: {error}")
    return [IncomingMail(sender, source.name, raw.decode("utf-8"), "", by_gm=True)]


@gm.command("orders")
@click.argument("key")
@click.argument("source", type=click.Path(exists=True, path_type=Path))
@DB
@CONFIG
@click.option("--player", help="The player (by name) whose plain order file SOURCE is.")
@click.option("--send", is_flag=True, help="Send every player the report afterwards.")
def orders_command(key: str, source: Path, db: Path, config: Path, player: str | None,
                   send: bool) -> None:  # fmt: skip
    """Read orders for KEY from SOURCE (a mail file, a Maildir or a plain order file)."""
    from stellwerk.gm.mail import ConfigError

    gm_ = _master(db, config)
    _known(gm_, key)
    try:
        mails = _read_source(gm_, key, source, player)
    except (ValueError, OSError, ConfigError) as error:
        fail(str(error))
    results = _moved_on(lambda: gm_.take_mails(mails, key))
    names = _names(gm_, key)
    for result in results:
        if result.refused is not None:
            click.echo(f"mail from {result.mail.sender} refused: {result.refused}")
        _echo_answers(result.answers, names)
    _echo_answers(gm_.advanced.get(key, []), names)
    if send:
        _send_reports(gm_, key)


@gm.command("fetch")
@DB
@CONFIG
def fetch_command(db: Path, config: Path) -> None:
    """Read the configured mailbox (Maildir or IMAP), apply every game's orders, and send
    the reports of each game that had mail as configured (SMTP or the outbox)."""
    import imaplib

    from stellwerk.gm.mail import ConfigError, read_imap, read_maildir

    gm_ = _master(db, config)
    try:
        settings = gm_.needs_config()
        incoming = settings.incoming
        if incoming.kind == "imap":
            mails = read_imap(settings)
        elif incoming.path is None:
            raise ConfigError("the incoming maildir needs a path")
        else:
            mails = read_maildir(incoming.path)
    except ConfigError as error:
        fail(str(error))
    except (imaplib.IMAP4.error, OSError) as error:
        fail(f"the mailbox cannot be read: {error}")
    results = _moved_on(lambda: gm_.take_mails(mails))
    for result in results:
        if result.refused is not None:
            click.echo(f"mail from {result.mail.sender} refused: {result.refused}")
        if result.key is not None and result.refused is None and result.player is not None:
            _echo_answers(result.answers, _names(gm_, result.key))
    replies = gm_.replies(results)
    for key in replies.everyone:
        _echo_answers(gm_.advanced.get(key, []), _names(gm_, key))
    sent = _send_notes(gm_, replies.notes)
    for key, players in replies.reports.items():  # one game's fault does not stop the others
        if key in replies.everyone:
            sent = _send_reports(gm_, key, players, keep_going=True) and sent
        else:  # only refused mails: their senders' reports answer them
            for name in players:
                sent = _send_reports(gm_, key, players, player=name, keep_going=True) and sent
    if not sent:
        fail("some answers could not be sent (see above); the mails were processed")


def _send_notes(gm: GameMaster, notes: list[EmailMessage]) -> bool:
    """Send the short answers to refused mails of no game (``GameMaster.replies``); False
    when one could not be sent (it is not sent again: the mail it answers was read)."""
    from stellwerk.gm.mail import send_each

    written, failed = send_each(gm.needs_config(), notes)
    for path in written:
        click.echo(f"answer: {path}")
    for index, note in enumerate(notes):
        if index in failed:
            click.echo(f"answer to {note['To']} not sent: {failed[index]}")
        elif not written:
            click.echo(f"answer to {note['To']}")
    return not failed


def _hours(text: str | None, name: str) -> timedelta | None:
    """``--remind-before`` / ``--deadline-every``: hours (``12``, ``1.5``) or ``off``."""
    if text is None or text.strip().lower() in ("off", "none", "0"):
        return None
    try:
        hours = float(text)
    except ValueError:
        fail(f"{name}: {text!r} is not a number of hours (or 'off')")
    if not 0 < hours < 24 * 366:
        fail(f"{name}: {text!r} hours is out of range")
    return timedelta(hours=hours)


@gm.command("run")
@DB
@CONFIG
@click.option(
    "--every",
    "every",
    type=click.FloatRange(min=0.001),
    default=5.0,
    show_default=True,
    help="Minutes between two passes over the mailbox.",
)
@click.option(
    "--remind-before",
    "remind_before",
    default="12",
    show_default=True,
    help="Hours before a deadline that the reminder goes out ('off': none).",
)
@click.option(
    "--deadline-every",
    "deadline_every",
    default=None,
    help="Hours from one deadline to the next, set when one passes (default: "
    "none; set each with gm deadline --next).",
)
@click.option("--once", is_flag=True, help="One pass, then stop (for cron or a timer unit).")
@click.option(
    "--log",
    "log_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Append the log to this file (default: standard error).",
)
def run_command(
    db: Path,
    config: Path,
    every: float,
    remind_before: str,
    deadline_every: str | None,
    once: bool,
    log_file: Path | None,
) -> None:
    """Run the game master: every --every minutes read the mailbox, apply the orders, send
    the reports, remind before a deadline and apply a deadline when it is due.  Killed at
    any point and started again, it picks up where it was (all state in --db).  Stops on
    SIGTERM or Ctrl-C after the pass under way (docs/gm.md, docs/stellwerk-gm.service)."""
    import logging

    from stellwerk.gm.mail import ConfigError
    from stellwerk.gm.runner import RunSettings, run

    settings = RunSettings(every=every * 60.0,
                           remind_before=_hours(remind_before, "--remind-before"),
                           deadline_every=_hours(deadline_every, "--deadline-every"))  # fmt: skip
    handler: logging.Handler = (logging.FileHandler(log_file, encoding="utf-8")
                                if log_file is not None else logging.StreamHandler())  # fmt: skip
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s",
                                           "%Y-%m-%d %H:%M:%S"))  # fmt: skip
    for name in ("stellwerk.gm.run", "stellwerk.gm.mail"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    gm_ = _master(db, config)
    try:
        run(gm_, settings, once=once)
    except ConfigError as error:
        fail(str(error))
    finally:
        gm_.close()


@gm.command("deadline")
@click.argument("key")
@DB
@CONFIG
@click.option("--next", "next_deadline", help="The next deadline, e.g. 2026-12-08T20:00.")
def deadline_command(key: str, db: Path, config: Path, next_deadline: str | None) -> None:
    """The deadline of KEY has passed: default orders for all who missed it, then the
    reports, sent as configured."""
    gm_ = _master(db, config)
    _known(gm_, key)
    answers = _moved_on(lambda: gm_.deadline(key, _when(next_deadline)))
    _echo_answers(answers, _names(gm_, key))
    _send_reports(gm_, key)


@gm.command("report")
@click.argument("key")
@DB
@CONFIG
def report_command(key: str, db: Path, config: Path) -> None:
    """Send every player's report of KEY (what happened since his last one) as configured."""
    gm_ = _master(db, config)
    _known(gm_, key)
    _send_reports(gm_, key)


@gm.command("resend")
@click.argument("key")
@DB
@CONFIG
@click.option("--player", help="Only this player's report (also when it was sent).")
def resend_command(key: str, db: Path, config: Path, player: str | None) -> None:
    """Send again the reports of KEY that could not be sent (the server refused them or
    could not be reached), or PLAYER's; each covers everything since the player's last
    report that was sent."""
    gm_ = _master(db, config)
    _known(gm_, key)
    _send_reports(gm_, key, player=player, resend=True)


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
