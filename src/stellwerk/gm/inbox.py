"""Mails in and report files out, without a mail server (stand-in for ``stellwerk.gm.mail``).

``InMail`` has the fields of the mail module's ``IncomingMail`` (sender, subject, body,
message_id), so the lead can swap the readers.  Reading uses the standard library only
(``mailbox.Maildir``, ``email``): the plain-text part of a mail is its body.  A *plain order
file* is a text file of orders; its sender is given on the command line or by a first line
``From: address``.  ``write_outbox`` writes each report as an ``.eml`` message (text and HTML
alternatives, attachments) plus its text, HTML and attachments as files, for a GM to look at.
"""

from __future__ import annotations

import email
import email.policy
import mailbox
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

from stellwerk.gm.plainreport import Report


@dataclass(frozen=True)
class InMail:
    sender: str
    subject: str
    body: str
    message_id: str


def parse_mail(raw: bytes) -> InMail:
    """A mail from its bytes (RFC 5322)."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    part = message.get_body(preferencelist=("plain",))
    body = part.get_content() if part is not None else ""
    return InMail(
        str(message.get("From", "")), str(message.get("Subject", "")), str(body),
        str(message.get("Message-ID", "")),
    )  # fmt: skip


def read_maildir(path: Path, *, move: bool = True, seen: bool = False) -> list[InMail]:
    """The unread mails of a Maildir (its ``new`` folder; with ``seen`` those in ``cur``
    too) in the order received (by file name, which Maildir delivery makes time-ordered);
    with ``move`` the new mails go to ``cur`` (read)."""
    box = mailbox.Maildir(str(path), factory=None, create=False)
    out: list[tuple[str, InMail]] = []
    for key in box.iterkeys():
        message = box.get_message(key)
        if message.get_subdir() != "new" and not seen:
            continue
        out.append((key, parse_mail(message.as_bytes())))
        if move and message.get_subdir() == "new":
            message.set_subdir("cur")
            box[key] = message
    out.sort(key=lambda pair: pair[0])
    return [mail for _, mail in out]


def read_orders(path: Path, sender: str | None = None) -> list[InMail]:
    """The mails in ``path``: a Maildir (a folder with ``cur``/``new``), a mail file (with
    a ``From:`` header) or a plain order file (sender given, or a first line ``From: ...``)."""
    if path.is_dir():
        return read_maildir(path)
    raw = path.read_bytes()
    text = raw.decode("utf-8")
    head = text.splitlines()[0] if text else ""
    if sender is None and head.lower().startswith("from:") and "\n\n" in text.replace("\r", ""):
        return [parse_mail(raw)]
    if sender is None:
        if not head.lower().startswith("from:"):
            raise ValueError(f"{path}: a plain order file needs --player or a 'From:' first line")
        sender = head.split(":", 1)[1].strip()
        text = "\n".join(text.splitlines()[1:])
    return [InMail(sender, path.name, text, "")]


def write_outbox(
    folder: Path, key: str, reports: dict[str, Report], addresses: dict[str, str], number: int
) -> list[Path]:
    """Write each player's report as ``<key>-<number>-<player>.eml`` and its parts."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name, report in reports.items():
        stem = f"{key}-{number:03d}-{_safe(name)}"
        message = EmailMessage()
        message["To"] = addresses.get(name, "")
        message["From"] = "gm@localhost"
        message["Subject"] = report.subject
        message.set_content(report.text)
        message.add_alternative(report.html, subtype="html")
        for filename, mime, data in report.attachments:
            main, _, sub = mime.partition("/")
            message.add_attachment(data, maintype=main, subtype=sub, filename=filename)
        eml = folder / f"{stem}.eml"
        eml.write_bytes(bytes(message))
        (folder / f"{stem}.txt").write_text(report.text, encoding="utf-8")
        (folder / f"{stem}.html").write_text(report.html, encoding="utf-8")
        for filename, _, data in report.attachments:
            (folder / f"{stem}.{filename}").write_bytes(data)
        written.append(eml)
    return written


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)
