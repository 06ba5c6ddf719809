"""The game master: games in the SQLite store, mails in, orders applied, reports out.

``GameMaster(db_path)`` opens the store (``stellwerk.store.SqliteStore``, the game's record)
and the GM tables beside it (``stellwerk.gm.gmstore``).  Each processing loads the game and
the GM state, runs a :class:`stellwerk.gm.session.Session`, and writes both back: the game's
new actions in one store write based on the action count read (``GameStore.extend``; a game
that moved on meanwhile is refused with ``GameMovedOn`` and nothing is written), the GM state
in the same go.

Mails: the GM's address and the player-to-address map come from the GM configuration
(``stellwerk.gm.mail.GMConfig``, a TOML file), never from the game file.  The game a mail is
for is the one its subject's tag names (``[1849 #KEY]``), else the only game its sender plays
(``mail.game_of``); the player is the one whose address sent it (``mail.identify``).  A mail
from an unknown address, or one whose ``player:``/``spieler:`` line names another player, is
refused and logged (the mail module's logger, and the game's GM log when the game is known),
and changes nothing.  A mail is read once (by its Message-ID).  The orders are the mail's own
text (``IncomingMail.own_text``: no quoted report lines, no signature).  The group's sender
checks (``[checks]`` of the configuration, ``mail.Checks``) refuse a mail above the size
limit, one the trusted receiving server found forged, and (when chosen) one without the
player's secret word, which his first report gives him.  Every mail from a configured
address is answered in the same run (:meth:`GameMaster.replies`); a stranger's never.

Reports: ``reports`` builds each player's report (``stellwerk.gm.report``), ``send_reports``
turns them into mails (``report.to_email``) and sends them as configured (``mail.send``: by
SMTP or into the outbox folder).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime
from email.message import EmailMessage
from email.utils import make_msgid, parseaddr
from pathlib import Path
from typing import TypedDict

from stellwerk.api import Game
from stellwerk.core.entities import PlayerId
from stellwerk.core.jsondata import JSONObject, JSONValue, as_object
from stellwerk.gm import mail as m
from stellwerk.gm import orders as o
from stellwerk.gm.gmstore import GMTables
from stellwerk.gm.mail import GMConfig, IncomingMail, MailRefused
from stellwerk.gm.offers import Offer
from stellwerk.gm.refusals import in_language
from stellwerk.gm.report import Report, ReportOrder, build_report, to_email
from stellwerk.gm.session import Event, Outcome, Pending, Session
from stellwerk.gm.standing import Standing
from stellwerk.store import SqliteStore
from stellwerk.store.errors import StoreError

READ_BEFORE = "this mail was read before"
SECRET_MISSING = "the mail lacks your secret word"
SECRET_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
GM_ONLY = ("mail_gm",)
"""GM log kinds no player's report shows (a refused mail of an unknown sender)."""


class ReportsUnsent(Exception):
    """Some reports could not be sent (``failed``: per player name the server's reason); the
    others were sent and marked; ``reports`` and ``written`` as ``send_reports`` returns."""

    def __init__(
        self, key: str, failed: dict[str, str], reports: dict[str, Report], written: list[Path]
    ) -> None:
        names = ", ".join(f"{name} ({reason})" for name, reason in failed.items())
        super().__init__(f"{key}: reports not sent to {names}; send them with gm resend {key}")
        self.key = key
        self.failed = failed
        self.reports = reports
        self.written = written


class GMStatus(TypedDict):
    """Where a GM game stands (``gm status --json``)."""

    key: str
    title: str
    actions: int
    round: str
    turn: int
    round_num: int
    round_seq: int
    """The round's place in the game's sequence of rounds (``api.RoundView.seq``)."""
    finished: bool
    waiting_for: list[PlayerId | str]
    deadline: str | None
    pending: list[str]
    offers: list[str]
    """The open trade offers (``stellwerk.gm.offers``)."""
    standing: list[str]
    unsent: dict[str, str]
    gm_log: list[str]


@dataclass
class MailResult:
    """What became of one mail: the game and player it was taken for, or why not."""

    mail: IncomingMail
    key: str | None = None
    player: PlayerId | None = None
    refused: str | None = None
    answers: list[Outcome] = field(default_factory=list)
    sender: PlayerId | None = None
    """The player of ``key`` whose configured address sent a refused mail (None: no player
    of that game): his report answers the refusal."""


@dataclass
class Replies:
    """Who is answered after a processing (:meth:`GameMaster.replies`): every mail from a
    configured address gets an answer in the same run, a stranger's none.

    ``reports``: per game, per player name, the Message-ID of the mail his report answers;
    ``everyone``: the games whose every player gets a report (orders were taken);
    ``notes``: short refusals of mails that belong to no game of theirs (a player of two
    games whose mail names neither, a game this GM does not run), each to the configured
    address that sent the mail."""

    reports: dict[str, dict[str, str]] = field(default_factory=dict)
    everyone: list[str] = field(default_factory=list)
    notes: list[EmailMessage] = field(default_factory=list)


class GameMaster:
    """The GM's games in one database file."""

    def __init__(self, db_path: str | Path, config: GMConfig | None = None) -> None:
        """``config``: the GM configuration (addresses, servers); needed to take mails and
        to send reports, not to look at a game."""
        self.path = Path(db_path)
        self.config = config
        self.store = SqliteStore(self.path)
        self.tables = GMTables(self.store.connection)
        self._kept: dict[str, tuple[Session, int]] = {}
        self._marks: dict[str, list[tuple[str, str, str]]] = {}
        """Per game the mails read by the processing under way (Message-ID, sender,
        status), written by ``save`` with the game's actions."""
        """The session of each game as last saved, with its action count: the next
        processing starts from it instead of replaying the game (while the count holds)."""
        self.advanced: dict[str, list[Outcome]] = {}
        """The answers of the last ``take_mails`` processing per game (orders applied)."""

    def close(self) -> None:
        self.store.close()
        self.tables.close()

    # -- setting up ---------------------------------------------------------------------------
    def new(
        self,
        key: str,
        title: str,
        players: list[tuple[str, str, str]],
        *,
        options: list[str] | None = None,
        seed: int = 0,
        deadline: datetime | None = None,
        start: JSONObject | None = None,
    ) -> Game:
        """A new game ``key`` for players (name, address, language), seats in this order.
        ``start``: a game file to go on from (a game begun elsewhere, or a stored position):
        its title must be ``title`` and its players these, by name, in this order; its
        options and seed are the game's (``options``, ``seed`` are then not used)."""
        ids: list[tuple[int | str, str]] = [
            (number, name) for number, (name, _, _) in enumerate(players, start=1)
        ]
        if start is not None:
            game = Game.from_file(start)
            named = [m.fold(str(name)) for _, name in game.players]
            if game.title != title or named != [m.fold(name) for name, _, _ in players]:
                raise m.ConfigError(
                    f"the game file is {game.title} for {', '.join(n for _, n in game.players)};"
                    f" the configuration lists {title} for {', '.join(p[0] for p in players)}"
                )
            ids = [(pid, name) for pid, name in game.players]
        else:
            game = Game.create(title, ids, options or [], seed)
        data = game.to_file()
        data["id"] = key
        self.store.create(key, data)
        self.tables.add_game(key, {"title": title}, _iso(deadline))
        for (number, _), (name, address, lang) in zip(ids, players, strict=True):
            self.tables.add_player(key, number, name, address.lower(), lang)
        return game

    # -- loading and saving a processing --------------------------------------------------------
    def session(self, key: str, change: bool = False) -> tuple[Session, int]:
        """The GM state of ``key`` with its game, and the action count it is based on.
        ``change``: the caller will change it (and save it, or drop it on failure)."""
        kept = self._kept.pop(key, None) if change else self._kept.get(key)
        saved = self.tables.number(key, "count")
        if kept is not None and kept[1] == self.store.count(key) == saved:
            return kept
        stored = self.store.load(key)
        if saved is not None and saved != stored.count:
            raise StoreError(
                f"{key}: the game has {stored.count} actions but the GM state belongs to "
                f"{saved}: it was changed outside the GM, or a processing broke off"
            )
        game: Game = stored.game  # type: ignore[assignment]
        players = self.tables.players(key)
        session = Session(game, langs={p["player"]: p["lang"] for p in players})
        for item in self.tables.records(key, "pending"):
            pending = Pending.from_json(item)
            if pending is not None:
                session.pending.append(pending)
        session.next_order_id = self.tables.number(key, "next_order_id") or 1
        found = [Offer.from_json(x) for x in self.tables.records(key, "offers")]
        session.offers = [x for x in found if x is not None]
        session.next_offer = self.tables.number(key, "next_offer") or 1
        session.standing = [Standing.from_json(s) for s in self.tables.records(key, "standing")]
        session.outcomes = [Outcome.from_json(x) for x in self.tables.records(key, "outcomes")]
        session.events = [Event.from_json(x) for x in self.tables.records(key, "events")]
        requested = set(self.tables.texts(key, "file_requests"))
        session.file_requests = {p["player"] for p in players if str(p["player"]) in requested}
        return session, stored.count

    def save(
        self, key: str, session: Session, base: int, also: Callable[[], None] | None = None
    ) -> None:
        """Write the game's new actions (based on ``base``), the GM state with the action
        count it belongs to, and the marks of the mails this processing read, in one
        transaction of the database: a processing broken off at any point (a crash, a
        ``kill -9``) leaves either all of it or none of it, so its mails, still unmarked, are
        read and applied again, never twice.  ``also()``: more GM writes of the same
        processing, in the same transaction (a deadline's next deadline)."""
        marks = self._marks.pop(key, [])

        def write_state(count: int) -> None:
            self.tables.set_part(key, "count", count)
            pending: list[JSONValue] = [p.to_json() for p in session.pending]
            self.tables.set_part(key, "pending", pending)
            self.tables.set_part(key, "next_order_id", session.next_order_id)
            offers: list[JSONValue] = [x.to_json() for x in session.offers]
            self.tables.set_part(key, "offers", offers)
            self.tables.set_part(key, "next_offer", session.next_offer)
            standing: list[JSONValue] = [s.to_json() for s in session.standing]
            self.tables.set_part(key, "standing", standing)
            outcomes: list[JSONValue] = [asdict(x) for x in session.outcomes]
            self.tables.set_part(key, "outcomes", outcomes)
            events: list[JSONValue] = [asdict(x) for x in session.events]
            self.tables.set_part(key, "events", events)
            requests: list[JSONValue] = [str(p) for p in sorted(session.file_requests, key=str)]
            self.tables.set_part(key, "file_requests", requests)
            for message_id, sender, status in marks:
                self.tables.mark_mail(key, message_id, sender, status)
            if also is not None:
                also()

        stored = self.store.extend(key, session.game, base, also=write_state)
        self._kept[key] = (session, stored.count)

    # -- orders -----------------------------------------------------------------------------------
    def needs_config(self) -> GMConfig:
        """The GM configuration, or a ConfigError saying that it is needed."""
        if self.config is None:
            raise m.ConfigError("the GM configuration (--config) is needed to read or send mail")
        return self.config

    def new_from_config(
        self,
        key: str,
        title: str,
        *,
        options: list[str] | None = None,
        seed: int = 0,
        deadline: datetime | None = None,
        start: JSONObject | None = None,
    ) -> Game:
        """A new game ``key`` for the players the configuration lists for it, seated in the
        configuration's order, each with their first address and language (``start``: a
        game file to go on from, see :meth:`new`)."""
        players = self.needs_config().players(key)
        listed = [(p.name, p.addresses[0], p.lang) for p in players.values()]
        return self.new(key, title, listed, options=options, seed=seed, deadline=deadline,
                        start=start)  # fmt: skip

    def take_mails(self, mails: list[IncomingMail], key: str | None = None) -> list[MailResult]:
        """Read order mails (for ``key``, or the game each names) and advance the games."""
        self._marks = {}
        try:
            return self._take_mails(mails, key)
        finally:
            self._marks = {}

    def _take_mails(self, mails: list[IncomingMail], key: str | None) -> list[MailResult]:
        results: list[MailResult] = []
        sessions: dict[str, tuple[Session, int]] = {}
        for mail in mails:
            result = self._route(mail, key)
            results.append(result)
            if result.key is None or result.refused == READ_BEFORE:
                continue
            if result.key not in sessions:
                sessions[result.key] = self.session(result.key, change=True)
            session = sessions[result.key][0]
            if result.refused is not None:  # logged in the game's GM log, saved below
                if mail.message_id:
                    self._marks.setdefault(result.key, []).append(
                        (mail.message_id, mail.sender, "refused")
                    )
                sender = self._sender(result.key, mail)
                result.sender = sender
                lang = session.lang(sender) if sender is not None else "en"
                german = in_language(result.refused, "de")
                session.events.append(
                    Event(len(session.game.raw_actions), sender,
                          "mail" if sender is not None else "mail_gm",
                          f"mail from {mail.sender} refused: {result.refused}",
                          f"Mail von {mail.sender} abgelehnt: {german}" if lang == "de" else "")
                )  # fmt: skip
                if sender is not None and result.refused.startswith(SECRET_MISSING):
                    self._untell_secret(result.key, sender)
                continue
            assert result.player is not None  # a mail taken for a game names its player
            correction = o.is_correction(mail.subject, mail.body)
            result.answers = session.receive(
                result.player,
                m.without_secret(mail.own_text),
                correction=correction,
                mail=mail.message_id,
            )
            if mail.message_id:
                self._marks.setdefault(result.key, []).append(
                    (mail.message_id, mail.sender, "read")
                )
        self.advanced = {}
        for game_key, (session, base) in sessions.items():
            self.advanced[game_key] = session.advance()
            self.save(game_key, session, base)
        return results

    def _route(self, mail: IncomingMail, key: str | None) -> MailResult:
        """The game and player of ``mail`` by the configuration, or why it is refused."""
        config = self.needs_config()
        try:
            game_key = key if key is not None else m.game_of(config, mail)
        except MailRefused as error:
            return MailResult(mail, refused=error.reason)
        if not self.tables.has_game(game_key):
            return MailResult(mail, refused=f"the game {game_key} has not been started")
        batch = self._marks.get(game_key, [])
        if mail.message_id and (
            self.tables.seen(game_key, mail.message_id)
            or any(mark[0] == mail.message_id for mark in batch)
        ):  # answered once: a mail read again (refused or not) is not
            return MailResult(mail, key=game_key, refused=READ_BEFORE)
        try:
            name = m.identify(config, game_key, mail)
        except MailRefused as error:
            return MailResult(mail, key=game_key, refused=error.reason)
        player = next(
            (p for p in self.tables.players(game_key) if m.fold(p["name"]) == m.fold(name)), None
        )
        if player is None:
            return MailResult(
                mail, key=game_key, refused=f"{name} does not play in the game {game_key}"
            )
        refused = (
            None
            if mail.by_gm
            else (
                m.size_refusal(config.checks, mail) or m.authentication_refusal(config.checks, mail)
            )
        )
        if (
            refused is None
            and not mail.by_gm
            and config.checks.secret_word
            and self.secret(game_key, player["player"]) not in m.secret_words(mail)
        ):
            refused = f"{SECRET_MISSING} (a line secret: WORD; your report gave it)"
        if refused is not None:
            m.LOG.warning("mail %s from %s refused: %s", mail.message_id, mail.sender, refused)
            return MailResult(mail, key=game_key, refused=refused)
        return MailResult(mail, key=game_key, player=player["player"])

    # -- answering every mail -------------------------------------------------------------------
    def replies(self, results: list[MailResult]) -> Replies:
        """The answers to a processing's mails (:class:`Replies`).  A game that took orders
        gets every player's report; a refused mail of a player of its game is answered by
        his report (which shows the refusal); a refused mail from a configured address that
        belongs to no game of its sender gets a short note to that address, in the
        sender's language, not echoing the mail.  A stranger (an address the configuration
        does not list) gets nothing; a mail read before was answered then."""
        config = self.needs_config()
        out = Replies()
        for result in results:
            if result.refused == READ_BEFORE:
                continue
            if result.key is not None and result.refused is None and result.player is not None:
                if result.key not in out.everyone:
                    out.everyone.append(result.key)
                name = self._name(result.key, result.player)
                out.reports.setdefault(result.key, {})[name] = result.mail.message_id
            elif result.key is not None and result.sender is not None:
                name = self._name(result.key, result.sender)
                out.reports.setdefault(result.key, {}).setdefault(name, result.mail.message_id)
            elif result.refused is not None:
                known = config.known_sender(result.mail.sender)
                if known:
                    out.notes.append(
                        refusal_note(config, result.mail, result.refused, known[0][1].lang)
                    )
        return out

    def _name(self, key: str, player: PlayerId) -> str:
        return next(p["name"] for p in self.tables.players(key) if p["player"] == player)

    # -- the secret word ------------------------------------------------------------------------
    def secret(self, key: str, player: PlayerId) -> str:
        """``player``'s secret word in game ``key``, made (and kept) the first time it is
        asked for: eight letters and digits without look-alikes (no 0/o, 1/l/i)."""
        words = self.tables.notes(key, "secrets")
        word = words.get(str(player))
        if word is None:
            word = "".join(secrets.choice(SECRET_ALPHABET) for _ in range(8))
            self.tables.set_part(key, "secrets", {**words, str(player): word})
        return word

    def _untell_secret(self, key: str, player: PlayerId) -> None:
        """``player``'s next report gives his secret word again."""
        told = [p for p in self.tables.texts(key, "secrets_told") if p != str(player)]
        self.tables.set_part(key, "secrets_told", list[JSONValue](told))

    def _sender(self, key: str, mail: IncomingMail) -> PlayerId | None:
        """The player of ``key`` whose configured address sent ``mail``, or None (a
        stranger): a refused mail is logged for him alone and the GM."""
        config = self.needs_config()
        try:
            listed = config.players(key)
        except m.ConfigError:
            return None
        for name, entry in listed.items():
            if mail.sender in {a.lower() for a in entry.addresses}:
                found = next((p["player"] for p in self.tables.players(key)
                              if m.fold(p["name"]) == m.fold(name)), None)  # fmt: skip
                if found is not None:
                    return found
        return None

    def gm_log(self, key: str) -> list[str]:
        """The whole GM log of ``key``, with what no player's report shows (``gm status``)."""
        session, _ = self.session(key)
        return [e.text for e in session.events]

    def deadline(self, key: str, next_deadline: datetime | None = None) -> list[Outcome]:
        """The deadline has passed: apply the orders, then the defaults for everyone who
        missed it, until the round ends (``Session.advance(defaults=True)``)."""
        session, base = self.session(key, change=True)
        answers = session.advance()
        answers += session.advance(defaults=True)
        self.save(key, session, base,
                  also=lambda: self.tables.set_deadline(key, _iso(next_deadline)))  # fmt: skip
        return answers

    def correct(
        self,
        key: str,
        reason: str,
        *,
        undo_to: int | None = None,
        action: JSONObject | None = None,
    ) -> str:
        """A logged correction by the GM: take back the actions after ``undo_to`` and/or
        apply ``action`` on the GM's authority; every report shows it."""
        session, base = self.session(key, change=True)
        game = session.game
        done = []
        if undo_to is not None:
            stored = self.store.undo(key, base, action_id=undo_to)
            base = stored.count
            session.game = stored.game  # type: ignore[assignment]
            done.append(f"actions after {undo_to} taken back")
            game = session.game
        if action is not None:
            game.process(action)
            done.append(f"action applied: {action.get('type')}")
        text = f"GM correction: {reason}" + (f" ({'; '.join(done)})" if done else "")
        session.events.append(Event(len(game.raw_actions), None, "correction", text))
        session.void_stale()  # a correction is another move: open trade offers are void
        corrections: list[JSONValue] = [*self.tables.texts(key, "corrections"), text]
        self.tables.set_part(key, "corrections", corrections)
        self.save(key, session, base)
        return text

    # -- reports --------------------------------------------------------------------------------
    def reports(
        self, key: str, player: str | None = None, *, mark: bool = True
    ) -> dict[str, Report]:
        """The report of each player (or of one, by name) since his last report; ``mark``:
        mark them reported now (``send_reports`` marks only those that were sent)."""
        session, _ = self.session(key)
        deadline, _ = self.tables.game(key)
        seen = self.tables.counts(key, "reported_outcomes")
        seen_events = self.tables.counts(key, "reported_events")
        rounds = self.tables.counts(key, "reported_rounds")
        had_pictures = as_object(self.tables.part(key, "reported_pictures", {}) or {},
                                 "the GM part 'reported_pictures'", StoreError)  # fmt: skip
        corrections = self.tables.texts(key, "corrections")
        told = set(self.tables.texts(key, "secrets_told"))
        now_round = session.game.round.seq
        out: dict[str, Report] = {}
        for info in self.tables.players(key):
            if player is not None and info["name"] != player:
                continue
            pid = info["player"]
            start = seen.get(str(pid), 0)
            mine = [x for x in session.outcomes[start:] if x.player == pid]
            first = seen_events.get(str(pid), 0)  # the GM log since his last report
            gm_log = [e.in_language(info["lang"]) for e in session.events[first:]
                      if e.player in (None, pid) and e.kind not in GM_ONLY
                      and e.text not in corrections]  # fmt: skip
            standing = [s.text for s in session.standing if s.active and s.player == pid]
            waiting = [f"{p.text} ({p.waits_for(info['lang'])})"
                       for p in session.pending if p.player == pid]  # fmt: skip
            secret = (self.secret(key, pid) if self.config is not None
                      and self.config.checks.secret_word and str(pid) not in told
                      else None)  # fmt: skip
            shown = [correction_in_language(c, info["lang"]) for c in corrections]
            out[info["name"]] = build_report(
                session.game, player=info["name"], lang=info["lang"],
                since_action=info["reported"], orders=[report_order(x) for x in mine],
                deadline=datetime.fromisoformat(deadline) if deadline else None,
                corrections=shown, gm_log=gm_log, key=key, standing=standing,
                waiting=waiting, offers=session.offer_lines(pid, info["lang"]),
                to_answer=any(x.seller == pid for x in session.offers),
                sent_pictures=_texts(had_pictures.get(str(pid))),
                with_game_file=(session.game.finished or rounds.get(str(pid)) != now_round
                                or pid in session.file_requests), secret=secret,
            )  # fmt: skip
        if mark:
            self.mark_reported(key, list(out), out)
        return out

    def mark_reported(
        self, key: str, names: list[str], reports: Mapping[str, Report] | None = None
    ) -> None:
        """The players ``names`` have their reports up to now: the next report starts here,
        they leave the list of unsent reports, and (from ``reports``) the pictures they now
        have and the round of their game file are noted (the next report attaches only what
        changed)."""
        session, _ = self.session(key)
        self.tables.begin()  # all marks of a report at once, or none (a crash in between)
        try:
            self._mark_reported(key, session, names, reports)
        except BaseException:
            self.tables.rollback()
            raise
        self.tables.commit()

    def _mark_reported(
        self, key: str, session: Session, names: list[str], reports: Mapping[str, Report] | None
    ) -> None:
        seen: JSONObject = {**self.tables.counts(key, "reported_outcomes")}
        seen_events: JSONObject = {**self.tables.counts(key, "reported_events")}
        rounds: JSONObject = {**self.tables.counts(key, "reported_rounds")}
        pictures = {**as_object(self.tables.part(key, "reported_pictures", {}) or {},
                                "the GM part 'reported_pictures'", StoreError)}  # fmt: skip
        unsent: JSONObject = {**self.tables.notes(key, "unsent")}
        told: list[JSONValue] = [*self.tables.texts(key, "secrets_told")]
        for info in self.tables.players(key):
            if info["name"] in names:
                pid = str(info["player"])
                seen[pid] = len(session.outcomes)
                seen_events[pid] = len(session.events)
                self.tables.set_reported(key, info["player"], session.game.next_id() - 1)
                unsent.pop(info["name"], None)
                report = (reports or {}).get(info["name"])
                if report is not None:
                    if report.secret and pid not in told:
                        told.append(pid)
                    pictures[pid] = {**report.pictures}
                    if report.has_game_file:
                        rounds[pid] = session.game.round.seq
                        session.file_requests.discard(info["player"])
        self.tables.set_part(key, "reported_outcomes", seen)
        self.tables.set_part(key, "reported_events", seen_events)
        self.tables.set_part(key, "reported_rounds", rounds)
        self.tables.set_part(key, "reported_pictures", pictures)
        requests: list[JSONValue] = [str(p) for p in sorted(session.file_requests, key=str)]
        self.tables.set_part(key, "file_requests", requests)
        self.tables.set_part(key, "unsent", unsent)
        self.tables.set_part(key, "secrets_told", told)

    def unsent(self, key: str) -> dict[str, str]:
        """The players whose last report could not be sent, with the server's reason."""
        return self.tables.notes(key, "unsent")

    def send_reports(
        self, key: str, player: str | None = None, replies: dict[str, str] | None = None
    ) -> tuple[dict[str, Report], list[Path]]:
        """Build every player's report (or one's) and send them as the configuration says
        (SMTP or the outbox folder), each to the player's first configured address;
        ``replies``: per player the Message-ID of the mail the report answers.  Returns the
        reports and the outbox files written (none by SMTP).

        Only a report that was sent is marked reported; one the server
        refused, or all when it cannot be reached, stay unmarked and are listed as unsent
        with the reason (:meth:`unsent`): the next report of that player, or ``gm resend``,
        covers everything since the last one he received.  Raises :class:`ReportsUnsent`
        after marking the others."""
        config = self.needs_config()
        reports = self.reports(key, player, mark=False)
        names = list(reports)
        messages = [
            to_email(reports[name], config.address, config.address_of(key, name),
                     in_reply_to=(replies or {}).get(name))
            for name in names
        ]  # fmt: skip
        session, _ = self.session(key)
        for name, message in zip(names, messages, strict=True):
            del message["Message-ID"]
            message["Message-ID"] = self._report_id(key, name, session)
        written, failed = m.send_each(config, messages)
        sent = [name for index, name in enumerate(names) if index not in failed]
        self.mark_reported(key, sent, reports)
        if failed:
            unsent: JSONObject = {**self.tables.notes(key, "unsent")}
            for index, reason in failed.items():
                unsent[names[index]] = reason
            self.tables.set_part(key, "unsent", unsent)
            raise ReportsUnsent(key, {names[i]: r for i, r in failed.items()}, reports, written)
        return reports, written

    def _report_id(self, key: str, name: str, session: Session) -> str:
        """The Message-ID of ``name``'s report now: made from what it covers (the game, the
        player, the last action, the GM's answers and log lines so far), so a report built
        again after a crash has the same one and the outbox writes it once
        (``mail.write_outbox``)."""
        config = self.needs_config()
        domain = parseaddr(config.address)[1].rpartition("@")[2] or "stellwerk.invalid"
        last = session.game.next_id() - 1
        what = f"{key}\n{name}\n{last}\n{len(session.outcomes)}\n{len(session.events)}"
        digest = hashlib.sha256(what.encode("utf-8")).hexdigest()[:24]
        return f"<report.{digest}@{domain}>"

    def resend(self, key: str, player: str | None = None) -> tuple[dict[str, Report], list[Path]]:
        """Send again the reports that could not be sent (``gm resend``): to every player
        listed as unsent, or to ``player`` (by name) whether listed or not; each report
        covers everything since the last one the player received."""
        if player is not None:
            if player not in {p["name"] for p in self.tables.players(key)}:
                raise m.ConfigError(f"{player} does not play in the game {key}")
            names = [player]
        else:
            names = list(self.unsent(key))
        out: dict[str, Report] = {}
        files: list[Path] = []
        for name in names:
            reports, written = self.send_reports(key, name)
            out.update(reports)
            files.extend(written)
        return out, files

    def status(self, key: str) -> GMStatus:
        """Where the game stands: round, who must act, pending and standing orders."""
        session, count = self.session(key)
        deadline, _ = self.tables.game(key)
        names = {p["player"]: p["name"] for p in self.tables.players(key)}
        snap = session.game.snapshot()
        return {
            "key": key,
            "title": session.game.title,
            "actions": count,
            "round": snap["round"],
            "turn": snap["turn"],
            "round_num": snap["round_num"],
            "round_seq": session.game.round.seq,
            "finished": session.game.finished,
            "waiting_for": [names.get(p, p) for p in session.waiting_for()],
            "deadline": deadline,
            "pending": [
                f"{names.get(p.player, p.player)}: {p.text} ({p.waits_for('en')})"
                for p in session.pending
            ],
            "offers": [
                f"{names.get(x.buyer, x.buyer)} to {names.get(x.seller, x.seller)}: "
                f"offer {x.number}: {session.offer_text(x, 'en')}"
                for x in session.offers
            ],
            "standing": [
                f"{names.get(s.player, s.player)}: {s.text}" for s in session.standing if s.active
            ],
            "unsent": self.unsent(key),
            "gm_log": [e.text for e in session.events if e.kind in GM_ONLY],
        }

    def has(self, key: str) -> bool:
        return self.tables.has_game(key)


NOTE = {
    "en": ("[stellwerk] Your mail was not read",
           "Your mail was not read: {reason}.\nNothing was changed.\n"),
    "de": ("[stellwerk] Deine Mail wurde nicht gelesen",
           "Deine Mail wurde nicht gelesen: {reason}.\nEs wurde nichts geändert.\n"),
}  # fmt: skip
"""The short answer to a refused mail that no report answers: subject and text."""


def refusal_note(config: GMConfig, mail: IncomingMail, reason: str, lang: str) -> EmailMessage:
    """The short answer to ``mail``, refused for ``reason``, in ``lang``: to the address
    that sent it (the caller makes sure it is a configured one), in reply to it; it does not
    quote the mail."""
    subject, text = NOTE[lang if lang in NOTE else "en"]
    message = EmailMessage()
    message["From"] = config.address
    message["To"] = mail.sender
    message["Subject"] = subject
    domain = config.address.rpartition("@")[2].strip(" >") or "stellwerk.invalid"
    message["Message-ID"] = make_msgid(domain=domain)
    if mail.message_id:
        message["In-Reply-To"] = mail.message_id
        message["References"] = mail.message_id
    message.set_content(text.format(reason=in_language(reason, lang)))
    return message


CORRECTION_DE = (
    (re.compile(r"^GM correction: "), "Korrektur der Spielleitung: "),
    (re.compile(r"actions after (\d+) taken back"), r"Aktionen nach \1 zurückgenommen"),
    (re.compile(r"action applied: (\S+)"), r"Aktion angewandt: \1"),
)


def correction_in_language(text: str, lang: str) -> str:
    """A GM correction as logged (:meth:`GameMaster.correct`) in ``lang``: the GM's own
    words (the reason) as he wrote them, the rest in the player's language."""
    if lang != "de":
        return text
    for pattern, german in CORRECTION_DE:
        text = pattern.sub(german, text)
    return text


def report_order(outcome: Outcome) -> ReportOrder:
    """The report's line of a session ``Outcome``."""
    return ReportOrder(outcome.text, outcome.understood, outcome.refused, outcome.default,
                       outcome.standing)  # fmt: skip


def _texts(value: JSONValue) -> dict[str, str]:
    """A stored mapping of names to texts (a player's picture digests); {} for none."""
    if not isinstance(value, dict):
        return {}
    return {str(k): str(v) for k, v in value.items()}


def _iso(when: datetime | None) -> str | None:
    return when.isoformat(timespec="minutes") if when is not None else None


__all__ = ["GameMaster", "MailResult", "Replies", "ReportsUnsent", "StoreError", "refusal_note"]
