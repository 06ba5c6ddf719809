"""``stellwerk gm run``: a game master a group can leave running.

Every ``every`` seconds one pass (:func:`run_once`):

1. the mailbox is read in two steps (``stellwerk.gm.mailbox``): the orders of the unread
   mails are applied and saved with the mails' Message-IDs in one transaction, and only then
   are the mails marked read;
2. every game with something its players have not been sent yet gets its reports (each
   player's report is marked sent right after the server took it, one by one), so reports
   that a crash kept from being sent go out on the next pass;
3. a reminder goes to the players the game waits for once a deadline is ``remind_before``
   away (once per deadline);
4. a deadline that has passed is applied (``GameMaster.deadline``: the orders, then default
   orders for the decisions due, never into the next round) with the next deadline
   ``deadline_every`` later when the group set one, and the reports are sent.

All state is in the GM's database, so a game master killed at any point (``kill -9``) and
started again picks up where it was: no order is lost or applied twice.  Only a report the
mail server had taken in the instant before the kill, not yet marked sent, is sent once more
(a mail server gives no way to ask whether it has a mail); the outbox folder is exact.

The log (standard error, or ``--log FILE``) has one line per thing done, for the group's
organiser: mails read, orders applied or refused, reports sent, reminders, deadlines.
"""

from __future__ import annotations

import logging
import signal
import smtplib
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid

from stellwerk.gm.mail import ConfigError, send_each
from stellwerk.gm.mailbox import Mailbox, mailbox_of
from stellwerk.gm.master import GM_ONLY, READ_BEFORE, GameMaster, ReportsUnsent

LOG = logging.getLogger("stellwerk.gm.run")


@dataclass(frozen=True)
class RunSettings:
    """How the game master runs: seconds between passes, how long before a deadline the
    reminder goes out (None: no reminders), and the time from one deadline to the next
    (None: the group sets each deadline with ``gm deadline --next``)."""

    every: float = 300.0
    remind_before: timedelta | None = timedelta(hours=12)
    deadline_every: timedelta | None = None


@dataclass
class Pass:
    """What one pass did, for the log and the tests."""

    mails: int = 0
    refused: int = 0
    reports: dict[str, list[str]] = field(default_factory=dict)
    """Per game the players whose report was sent."""
    unsent: dict[str, list[str]] = field(default_factory=dict)
    reminded: dict[str, list[str]] = field(default_factory=dict)
    deadlines: list[str] = field(default_factory=list)
    notes: int = 0
    """Short answers sent to refused mails of no game."""


def _deadline_of(text: str | None) -> datetime | None:
    """A stored deadline (ISO 8601, with or without a zone)."""
    if not text:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        LOG.warning("a stored deadline %r is not a date and time; it is ignored", text)
        return None


def _now_like(when: datetime, now: datetime) -> datetime:
    """``now`` comparable with ``when``: aware when it is, else the local wall clock."""
    if when.tzinfo is None:
        return now.astimezone().replace(tzinfo=None) if now.tzinfo is not None else now
    return now if now.tzinfo is not None else now.astimezone()


def due_reports(gm: GameMaster, key: str) -> list[str]:
    """The players of ``key`` with something their last report did not cover: no report yet,
    actions since the last one it covered, answers to their orders, lines of the GM log that
    reports show (not the GM's own, such as a stranger's refused mail), or a report the
    server refused before."""
    session, _ = gm.session(key)
    last = session.game.next_id() - 1
    outcomes = gm.tables.counts(key, "reported_outcomes")
    events = gm.tables.counts(key, "reported_events")
    unsent = gm.unsent(key)
    out = []
    for info in gm.tables.players(key):
        pid = info["player"]
        start = outcomes.get(str(pid), 0)
        first = events.get(str(pid), 0)
        if (
            str(pid) not in outcomes  # never sent one: the first report, with the game's start
            or info["reported"] < last
            or any(x.player == pid for x in session.outcomes[start:])
            or any(
                e.player in (None, pid) and e.kind not in GM_ONLY for e in session.events[first:]
            )
            or info["name"] in unsent
        ):
            out.append(info["name"])
    return out


def send_due(gm: GameMaster, key: str, done: Pass, replies: dict[str, str] | None = None) -> None:
    """Send the reports due in ``key``, one player at a time (each marked sent as soon as the
    server took it); a refused one stays due and is logged."""
    for name in due_reports(gm, key):
        try:
            gm.send_reports(key, name, replies={name: replies[name]} if replies and name in
                            replies else None)  # fmt: skip
        except ReportsUnsent as error:
            for who, reason in error.failed.items():
                LOG.warning("%s: the report to %s was not sent: %s", key, who, reason)
                done.unsent.setdefault(key, []).append(who)
            continue
        except (smtplib.SMTPException, OSError) as error:
            LOG.warning("%s: the report to %s was not sent: %s", key, name, error)
            done.unsent.setdefault(key, []).append(name)
            continue
        LOG.info("%s: report sent to %s", key, name)
        done.reports.setdefault(key, []).append(name)


REMINDER = {
    "en": ("[{title} #{key}] Reminder: deadline {deadline}",
           "The game {key} waits for your orders. The deadline is {deadline}; after it the "
           "game master gives the default orders for your decisions.\n"),
    "de": ("[{title} #{key}] Erinnerung: Abgabetermin {deadline}",
           "Die Partie {key} wartet auf deine Befehle. Abgabetermin ist {deadline}; danach "
           "gibt die Spielleitung für deine Entscheidungen die Vorgabebefehle.\n"),
}  # fmt: skip
"""The reminder's subject and text in each language (the subject carries the game's tag, so
a reply to it reaches the game)."""


def remind(gm: GameMaster, key: str, deadline: datetime, done: Pass) -> None:
    """The reminder to every player the game waits for, once per deadline (noted in the GM
    state after the server took them)."""
    stamp = deadline.isoformat(timespec="minutes")
    if gm.tables.part(key, "reminded") == stamp:
        return
    session, _ = gm.session(key)
    config = gm.needs_config()
    names = {p["player"]: p for p in gm.tables.players(key)}
    messages = []
    waiting = [names[p] for p in session.waiting_for() if p in names]
    for info in waiting:
        subject, text = REMINDER.get(info["lang"], REMINDER["en"])
        values = {"title": session.game.title, "key": key,
                  "deadline": deadline.strftime("%Y-%m-%d %H:%M")}  # fmt: skip
        message = EmailMessage()
        message["From"] = config.address
        message["To"] = config.address_of(key, info["name"])
        message["Subject"] = subject.format(**values)
        message["Message-ID"] = make_msgid(domain="stellwerk.invalid")
        message.set_content(text.format(**values))
        messages.append(message)
    _, failed = send_each(config, messages)
    for index, info in enumerate(waiting):
        if index in failed:
            LOG.warning("%s: the reminder to %s was not sent: %s", key, info["name"],
                        failed[index])  # fmt: skip
        else:
            LOG.info("%s: reminder of the deadline %s sent to %s", key, stamp, info["name"])
            done.reminded.setdefault(key, []).append(info["name"])
    gm.tables.set_part(key, "reminded", stamp)


def _send_notes(gm: GameMaster, notes: list[EmailMessage], done: Pass) -> None:
    """The short answers to refused mails that belong to no game of their sender
    (``GameMaster.replies``): sent once (the mail they answer is marked read), logged."""
    if not notes:
        return
    _, failed = send_each(gm.needs_config(), notes)
    for index, note in enumerate(notes):
        if index in failed:
            LOG.warning("the answer to %s was not sent: %s", note["To"], failed[index])
        else:
            LOG.info("answer sent to %s", note["To"])
            done.notes += 1


def run_once(
    gm: GameMaster, box: Mailbox, settings: RunSettings, now: datetime | None = None
) -> Pass:
    """One pass of the game master (module docstring)."""
    now = now if now is not None else datetime.now().astimezone()
    done = Pass()
    unread = box.peek()
    replies: dict[str, dict[str, str]] = {}
    if unread:
        results = gm.take_mails([u.mail for u in unread])
        box.done(unread)
        answers = gm.replies(results)  # who is answered: every configured sender
        replies = answers.reports
        _send_notes(gm, answers.notes, done)
        names: dict[str, dict[object, str]] = {}
        for result in results:
            if result.refused == READ_BEFORE:
                continue
            done.mails += 1
            if result.refused is not None:
                done.refused += 1
                LOG.info("mail from %s refused: %s", result.mail.sender, result.refused)
                continue
            if result.key is None or result.player is None:
                continue
            table = names.setdefault(
                result.key, {p["player"]: p["name"] for p in gm.tables.players(result.key)}
            )
            name = table.get(result.player, str(result.player))
            for answer in result.answers:
                if answer.refused is not None:
                    LOG.info("%s: %s: %r refused: %s", result.key, name, answer.text,
                             answer.refused)  # fmt: skip
                else:
                    LOG.info("%s: %s: %r understood as %s", result.key, name, answer.text,
                             answer.understood)  # fmt: skip
    for key in gm.tables.games():
        try:
            _pass_game(gm, key, settings, now, done, replies.get(key))
        except ConfigError as error:
            LOG.error("%s: %s", key, error)
    return done


def _pass_game(
    gm: GameMaster, key: str, settings: RunSettings, now: datetime, done: Pass,
    replies: dict[str, str] | None,
) -> None:  # fmt: skip
    """Reports, reminder and deadline of one game."""
    send_due(gm, key, done, replies)
    session, _ = gm.session(key)
    if session.game.finished:
        return
    text, _ = gm.tables.game(key)
    deadline = _deadline_of(text)
    if deadline is None:
        return
    current = _now_like(deadline, now)
    if current >= deadline:
        following = None
        if settings.deadline_every is not None:
            following = deadline + settings.deadline_every
            while following <= current:
                following += settings.deadline_every
        answers = gm.deadline(key, following)
        defaults = sum(1 for a in answers if a.default)
        LOG.info("%s: deadline %s passed: %d orders applied, %d default orders; next %s", key,
                 text, len(answers) - defaults, defaults,
                 following.isoformat(timespec="minutes") if following else "not set")  # fmt: skip
        done.deadlines.append(key)
        send_due(gm, key, done)
    elif settings.remind_before is not None and deadline - current <= settings.remind_before:
        remind(gm, key, deadline, done)


def run(
    gm: GameMaster, settings: RunSettings, *, once: bool = False,
    stop: threading.Event | None = None,
) -> None:  # fmt: skip
    """Passes every ``settings.every`` seconds until ``stop`` is set (SIGTERM and SIGINT set
    it when this runs in the main thread) or after one pass (``once``).  A pass that fails
    (the mail server away, a broken mail) is logged; the next pass tries again."""
    stop = stop if stop is not None else threading.Event()
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
    box = mailbox_of(gm.needs_config())
    LOG.info("game master running: %d games, a pass every %g s", len(gm.tables.games()),
             settings.every)  # fmt: skip
    while not stop.is_set():
        try:
            done = run_once(gm, box, settings)
            if done.mails:
                LOG.info("pass: %d mails read, %d refused", done.mails, done.refused)
        except Exception:  # one bad pass must not stop a game master left running
            LOG.exception("the pass failed; the next one tries again")
        if once:
            break
        stop.wait(settings.every)
    LOG.info("game master stopped")
