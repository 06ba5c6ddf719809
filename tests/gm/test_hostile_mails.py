"""Hostile mails in one pass of the game master left running (``gm run``): a forged From
that the trusted server failed (DMARC), orders for another player's corporation, a 5 MB
mail, odd and unknown charsets, broken MIME, bytes that are no mail, a mail without From.
Nothing they should not change changes, every mail from a configured address is answered
in the same pass, a stranger's is not, and no pass raises."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage
from pathlib import Path

from stellwerk.gm.mail import GMConfig
from stellwerk.gm.mailbox import MaildirBox
from stellwerk.gm.master import GameMaster
from stellwerk.gm.runner import RunSettings, run_once

from .test_master import PLAYERS, write_config

KEY = "g1"
TRUSTED = "mx.example.org"
SETTINGS = RunSettings(every=0.0, remind_before=None, deadline_every=None)


def raw_mail(sender: str, body: bytes, charset: str = "utf-8", number: int = 1,
             extra: bytes = b"") -> bytes:  # fmt: skip
    head = (f"From: {sender}\r\nTo: gm@example.org\r\nSubject: [1849 #{KEY}] Befehle\r\n"
            f"Message-ID: <{number}@mail.example.org>\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: text/plain; charset={charset}\r\n").encode()  # fmt: skip
    return head + extra + b"\r\n" + body


def recipients(folder: Path) -> list[str]:
    out = []
    for path in sorted(folder.glob("*.eml")):
        parsed = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        out.append(str(parsed["To"]))
    return out


def test_a_batch_of_hostile_mails_changes_nothing_and_each_is_answered(tmp_path: Path) -> None:
    config = write_config(tmp_path, (KEY,))
    config.write_text(config.read_text() + f'[checks]\nauthserv_id = "{TRUSTED}"\n'
                      "max_size = 1048576\n")  # fmt: skip
    gm = GameMaster(tmp_path / "gm.db", GMConfig.load(config))
    gm.new_from_config(KEY, "1849", seed=3)
    box = MaildirBox(tmp_path / "box")
    run_once(gm, box, SETTINGS)  # the first reports
    first = len(recipients(tmp_path / "out"))
    count = gm.store.count(KEY)
    waiting = gm.session(KEY)[0].waiting_for()[0]
    others = [p for p in range(1, 4) if p != waiting]
    _, active_address, _ = PLAYERS[int(waiting) - 1]
    _, other_address, _ = PLAYERS[others[0] - 1]
    _, third_address, _ = PLAYERS[others[1] - 1]
    passed = f"{TRUSTED}; dmarc=pass header.from=example.org".encode()
    mails = [
        # the active player's address, but the trusted server found it forged
        raw_mail(
            active_address,
            b"passe\n",
            number=1,
            extra=f"Authentication-Results: {TRUSTED}; dmarc=fail "
            "header.from=example.org\r\n".encode(),
        ),
        # another player orders for the active player's turn (nothing of his to decide)
        raw_mail(
            other_address,
            b"passe\nATA: kaufe zug 2\n",
            number=2,
            extra=b"Authentication-Results: " + passed + b"\r\n",
        ),
        # 5 MB of orders
        raw_mail(
            third_address,
            b"passe\n" * 900_000,
            number=3,
            extra=b"Authentication-Results: " + passed + b"\r\n",
        ),
        # an unknown charset and bytes that are no text in it
        raw_mail(
            other_address,
            b"\xff\xfe p\xe4sse \x00\x01\n",
            charset="x-klingon",
            number=4,
            extra=b"Authentication-Results: " + passed + b"\r\n",
        ),
        # a declared charset the bytes do not fit
        raw_mail(
            third_address,
            b"\xc3\x28 passe\n",
            charset="utf-8",
            number=5,
            extra=b"Authentication-Results: " + passed + b"\r\n",
        ),
        # broken MIME: a multipart without its boundary
        (
            f"From: {other_address}\r\nSubject: [1849 #{KEY}] x\r\nMessage-ID: <6@m>\r\n"
            "Authentication-Results: " + passed.decode() + "\r\nMIME-Version: 1.0\r\n"
            'Content-Type: multipart/mixed; boundary="nothere"\r\n\r\npasse\n'
        ).encode(),
        # no mail at all, and a mail without From
        b"\x00\x01\x02 garbage \xff\xfe",
        b"Subject: [1849 #g1] x\r\nMessage-ID: <8@m>\r\n\r\npasse\n",
        # a stranger
        raw_mail("mallory@example.net", b"passe\n", number=9),
    ]
    for number, raw in enumerate(mails):
        (tmp_path / "box" / "new" / f"{number:02d}.mail").write_bytes(raw)
    done = run_once(gm, box, SETTINGS)
    assert box.peek() == [], "every mail is marked read"
    assert gm.store.count(KEY) == count, "nothing applied"
    answered = recipients(tmp_path / "out")[first:]
    assert "mallory@example.net" not in answered
    assert set(answered) >= {active_address, other_address, third_address}
    assert done.mails == len(mails) and done.refused >= 5  # the forged, 5 MB, stranger, ...
    sent_before = len(recipients(tmp_path / "out"))
    assert run_once(gm, box, SETTINGS).mails == 0
    assert len(recipients(tmp_path / "out")) == sent_before, "nothing answered twice"
    gm.close()


def test_the_forged_mail_alone_changes_nothing_and_is_answered(tmp_path: Path) -> None:
    config = write_config(tmp_path, (KEY,))
    config.write_text(config.read_text() + f'[checks]\nauthserv_id = "{TRUSTED}"\n')
    gm = GameMaster(tmp_path / "gm.db", GMConfig.load(config))
    gm.new_from_config(KEY, "1849", seed=3)
    box = MaildirBox(tmp_path / "box")
    run_once(gm, box, SETTINGS)
    first = len(recipients(tmp_path / "out"))
    waiting = gm.session(KEY)[0].waiting_for()[0]
    _, address, _ = PLAYERS[int(waiting) - 1]
    count = gm.store.count(KEY)
    forged = EmailMessage()
    forged["Authentication-Results"] = f"{TRUSTED}; dmarc=fail header.from=example.org"
    forged["From"] = address
    forged["Subject"] = f"[1849 #{KEY}] Befehle"
    forged["Message-ID"] = "<f@m>"
    forged.set_content("passe\n")
    (tmp_path / "box" / "new" / "f.mail").write_bytes(bytes(forged))
    done = run_once(gm, box, SETTINGS)
    assert done.refused == 1 and gm.store.count(KEY) == count
    assert recipients(tmp_path / "out")[first:] == [address]
    gm.close()
