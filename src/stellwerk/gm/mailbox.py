"""The GM's mailbox read in two steps, for a game master that runs unattended.

``stellwerk gm fetch`` reads a mail and marks it read at once (``mail.read_maildir``,
``mail.read_imap``).  A long-running game master (``stellwerk gm run``) must survive being
killed at any point, so it reads in two steps:

1. ``Mailbox.peek()``: the unread mails, left unread (a Maildir's ``new/`` files stay where
   they are; IMAP fetches ``BODY.PEEK[]``, which leaves the ``\\Seen`` flag alone);
2. the orders are applied and saved, each mail's Message-ID with them in one transaction
   (``GameMaster.save``);
3. ``Mailbox.done(mails)``: only then are the mails marked read (moved to ``cur/`` with the
   flag ``S``; IMAP ``STORE +FLAGS (\\Seen)`` by UID).

Killed between 2 and 3, the next run reads the mails again; their Message-IDs are known, so
they are passed over silently (``master.READ_BEFORE``) and marked read then.  Killed before
2 ends, nothing of them was saved, and they are applied on the next run.  No order is lost
or applied twice.
"""

from __future__ import annotations

import contextlib
import dataclasses
import imaplib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from stellwerk.gm.mail import ConfigError, GMConfig, IncomingMail, Server, open_imap, parse_mail

MAX_READ = 200
"""The most mails one peek returns (the oldest first); the rest wait for the next run."""


@dataclass(frozen=True)
class Unread:
    """A mail read but not yet marked read: the mail and where it lies (a Maildir file
    name in ``new/``, or an IMAP UID)."""

    mail: IncomingMail
    handle: str


class Mailbox(Protocol):
    """Where the order mails arrive (module docstring)."""

    def peek(self) -> list[Unread]:
        """The unread mails, oldest first, left unread."""
        ...

    def done(self, mails: Sequence[Unread]) -> None:
        """Mark ``mails`` read; a mail already marked or gone is passed over."""
        ...


class MaildirBox:
    """A Maildir (``new/``, ``cur/``, ``tmp/``): unread mails are the files of ``new/``; a
    mail above ``max_size`` bytes is read for its headers only (``mail.parse_mail``)."""

    def __init__(self, path: str | Path, max_size: int | None = None) -> None:
        self.root = Path(path)
        self.max_size = max_size
        if not all((self.root / sub).is_dir() for sub in ("new", "cur", "tmp")):
            raise ConfigError(f"{self.root}: not a Maildir (needs new/, cur/ and tmp/)")

    def peek(self) -> list[Unread]:
        files = [e for e in os.scandir(self.root / "new") if e.is_file()]
        entries = sorted(
            (e for e in files if not e.name.startswith(".")),
            key=lambda e: (e.stat().st_mtime, e.name),
        )[:MAX_READ]
        out = []
        for entry in entries:
            try:
                raw = Path(entry.path).read_bytes()
            except FileNotFoundError:  # taken by another reader meanwhile
                continue
            out.append(Unread(parse_mail(raw, self.max_size), entry.name))
        return out

    def done(self, mails: Sequence[Unread]) -> None:
        for unread in mails:
            base = unread.handle.split(":", 1)[0]
            with contextlib.suppress(FileNotFoundError):
                os.replace(self.root / "new" / unread.handle, self.root / "cur" / f"{base}:2,S")


class _Imap(Protocol):
    """What ``ImapBox`` uses of ``imaplib.IMAP4``."""

    def login(self, user: str, password: str) -> object: ...
    def select(self, mailbox: str = ...) -> tuple[str, object]: ...
    def uid(self, command: str, *args: str) -> tuple[str, Sequence[object]]: ...
    def logout(self) -> object: ...


class ImapBox:
    """An IMAP folder: unread mails are those without ``\\Seen``; one connection per call.
    A mail above ``max_size`` bytes (its ``RFC822.SIZE``) is fetched for its headers only."""

    def __init__(self, server: Server, max_size: int | None = None) -> None:
        if server.kind != "imap":
            raise ConfigError(f"incoming.kind is {server.kind!r}, not imap")
        self.server = server
        self.max_size = max_size

    def _open(self) -> imaplib.IMAP4:
        server = self.server
        connection = open_imap(server)
        if server.user is not None:
            connection.login(server.user, server.password or "")
        status, _ = connection.select(server.folder)
        if status != "OK":
            raise imaplib.IMAP4.error(f"cannot select the folder {server.folder!r}")
        return connection

    def peek(self) -> list[Unread]:
        connection = self._open()
        try:
            return peek_unseen(connection, self.max_size)
        finally:
            with contextlib.suppress(imaplib.IMAP4.error, OSError):
                connection.logout()

    def done(self, mails: Sequence[Unread]) -> None:
        if not mails:
            return
        connection = self._open()
        try:
            uids = ",".join(unread.handle for unread in mails)
            status, _ = connection.uid("STORE", uids, "+FLAGS.SILENT", "(\\Seen)")
            if status != "OK":
                raise imaplib.IMAP4.error(f"cannot mark the mails {uids} read")
        finally:
            with contextlib.suppress(imaplib.IMAP4.error, OSError):
                connection.logout()


def peek_unseen(connection: _Imap, max_size: int | None = None) -> list[Unread]:
    """The unseen mails of the selected folder, fetched with ``BODY.PEEK[]`` (they stay
    unseen), oldest (lowest UID) first; a mail above ``max_size`` bytes only with
    ``BODY.PEEK[HEADER]`` (it is refused unread, and answered from its headers)."""
    status, found = connection.uid("SEARCH", "UNSEEN")
    if status != "OK":
        raise imaplib.IMAP4.error("the search for unseen mails failed")
    uids = b" ".join(line for line in found if isinstance(line, bytes)).split()
    out = []
    for uid in sorted(uids, key=int)[:MAX_READ]:
        part, size = "BODY.PEEK[]", 0
        if max_size is not None:
            status, sized = connection.uid("FETCH", uid.decode(), "(RFC822.SIZE)")
            said = re.search(rb"RFC822\.SIZE (\d+)", b" ".join(
                x if isinstance(x, bytes) else b"" for x in sized))  # fmt: skip
            if status == "OK" and said and int(said.group(1)) > max_size:
                part, size = "BODY.PEEK[HEADER]", int(said.group(1))
        status, data = connection.uid("FETCH", uid.decode(), f"({part})")
        if status != "OK":
            raise imaplib.IMAP4.error(f"cannot fetch mail {uid.decode()}")
        for item in data:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
                mail = parse_mail(item[1], max_size)
                if size:  # headers only: too large, refused unread (its size says so)
                    mail = dataclasses.replace(mail, body="", size=size)
                out.append(Unread(mail, uid.decode()))
    return out


def mailbox_of(config: GMConfig) -> Mailbox:
    """The configured incoming mailbox (``[incoming]``: a Maildir or IMAP)."""
    incoming = config.incoming
    limit = config.checks.max_size
    if incoming.kind == "imap":
        return ImapBox(incoming, limit)
    if incoming.path is None:
        raise ConfigError("the incoming maildir needs a path")
    return MaildirBox(incoming.path, limit)
