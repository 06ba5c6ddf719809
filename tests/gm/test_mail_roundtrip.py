"""Issue 10, "How it will be checked": scripted games of 1849 and 1835 played entirely
through order mails reach the same state as the same games played by actions, and every
player receives one report per processing with the map attached.

Nothing leaves the machine.  A real SMTP server (aiosmtpd) on a free localhost port plays the
group's mail server: a mail to the GM's address is delivered into the GM's Maildir, a mail to
a player is kept as that player's mailbox.  The players send their orders by SMTP (alternating
English and German, several decisions ahead per mail, ``gm_scripted.script``); ``stellwerk gm
fetch`` reads the Maildir, applies the orders and sends the reports back by SMTP.  1841 is in
``test_mail_roundtrip_1841.py``.
"""

from __future__ import annotations

import email
import email.policy
import smtplib
import socket
from collections import Counter
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from click.testing import CliRunner
from gm_scripted import script

from stellwerk.cli.main import main
from stellwerk.gm.mail import GMConfig, deliver_maildir
from stellwerk.gm.master import GameMaster

GM = "gm@example.org"
KEY = "bymail"


class Server:
    """An aiosmtpd handler: mail to the GM into the Maildir, mail to players kept."""

    def __init__(self, maildir: Path) -> None:
        self.maildir = maildir
        self.inboxes: dict[str, list[EmailMessage]] = {}

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(bytes(envelope.content), policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        for rcpt in envelope.rcpt_tos:
            if rcpt.lower() == GM:
                deliver_maildir(self.maildir, [message])
            else:
                self.inboxes.setdefault(rcpt.lower(), []).append(message)
        return "250 OK"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def mail_server(tmp_path: Path) -> Iterator[tuple[int, Server]]:
    handler = Server(tmp_path / "maildir")
    for sub in ("new", "cur", "tmp"):
        (handler.maildir / sub).mkdir(parents=True)
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield port, handler
    finally:
        controller.stop()


def address(player: Any) -> str:
    return f"p{player}@example.org"


def write_config(folder: Path, port: int, players: int) -> Path:
    lines = [
        "[gm]", f'address = "Spielleitung <{GM}>"',
        "[incoming]", 'kind = "maildir"', 'path = "maildir"',
        "[outgoing]", 'kind = "smtp"', 'host = "127.0.0.1"', f"port = {port}",
        'security = "plain"',
        f"[games.{KEY}.players]",
        *(f'P{i} = {{ address = "{address(i)}", lang = "{"de" if i % 2 else "en"}" }}'
          for i in range(1, players + 1)),
    ]  # fmt: skip
    path = folder / "gm.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def order_mail(title: str, sender: str, body: str, number: int) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = GM
    message["Subject"] = f"[{title} #{KEY}] " + ("Züge" if number % 2 else "orders")
    message["Message-ID"] = f"<{number}.{sender}>"
    message.set_content(body)
    return message


def gm(*args: str) -> str:
    result = CliRunner().invoke(main, ["gm", *args])
    assert result.exit_code == 0, result.output
    return result.output


def agree(
    title: str, db: str, config: str, port: int, number: int,
    address_of: Callable[[Any], str] = lambda player: address(player),
) -> int:  # fmt: skip
    """While a trade waits for the seller's consent (``stellwerk.gm.offers``), the seller
    mails that he agrees and the GM fetches it; the last mail's number."""
    while True:
        master = GameMaster(db, GMConfig.load(config))
        offers = master.session(KEY)[0].offers
        master.close()
        if not offers:
            return number
        number += 1
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            body = f"accept offer {offers[0].number}\n"
            smtp.send_message(order_mail(title, address_of(offers[0].seller), body, number))
        gm("fetch", "--db", db, "--config", config)


CASES = [
    ("1849", 3, 3, 400),
    pytest.param("1835", 3, 2, 400, marks=pytest.mark.slow),  # 2 minutes: with --slow
    ("1835", 4, 6, 300),
]


@pytest.mark.long_run
@pytest.mark.parametrize(("title", "players", "seed", "actions"), CASES)
def test_issue10_a_game_by_mail_over_smtp_equals_the_game_by_actions(
    tmp_path: Path,
    mail_server: tuple[int, Server],
    title: str,
    players: int,
    seed: int,
    actions: int,
) -> None:
    port, server = mail_server
    config = str(write_config(tmp_path, port, players))
    db = str(tmp_path / "gm.db")
    reference, lines = script(title, players, seed, actions)
    assert len(lines) == len(reference.actions) > 250
    gm("new", KEY, "--db", db, "--config", config, "--title", title, "--seed", str(seed))
    batch = 60
    processings = 0
    number = 0
    for start in range(0, len(lines), batch):
        chunk = lines[start : start + batch]
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            for player in dict.fromkeys(p for p, _ in chunk):
                number += 1
                body = "\n".join(t for p, t in chunk if p == player)
                if number % 3 == 0:  # the player names himself, and signs: no orders
                    body = f"Spieler: P{player}\n{body}\n-- \nP{player}\n"
                smtp.send_message(order_mail(title, address(player), body, number))
            if processings == 1:  # a stranger: refused and logged, the game unchanged
                smtp.send_message(order_mail(title, "eve@example.org", "pass\n", 0))
        before = Counter({a: len(m) for a, m in server.inboxes.items()})
        output = gm("fetch", "--db", db, "--config", config)
        processings += 1
        assert "refused" not in output.replace("eve@example.org refused", "")
        after = Counter({a: len(m) for a, m in server.inboxes.items()})
        assert after - before == Counter({address(i): 1 for i in range(1, players + 1)})
        for i in range(1, players + 1):
            report = server.inboxes[address(i)][-1]
            names = [str(part.get_filename()) for part in report.iter_attachments()]
            text = report.get_body(preferencelist=("plain",)).get_content()
            unchanged = next((line for line in text.splitlines() if "(not attached)" in line
                              or "(nicht angehängt)" in line), "")  # fmt: skip
            assert sum(n.endswith("_map.png") for n in names) + ("Map" in unchanged
                       or "Karte" in unchanged) == 1, names  # fmt: skip
            assert f"#{KEY}]" in str(report["Subject"])
        number = agree(title, db, config, port, number)
    assert processings >= 5
    assert "eve@example.org" not in str(list(server.inboxes))
    master = GameMaster(db, GMConfig.load(config))
    session, _ = master.session(KEY)
    assert session.pending == []
    assert any("eve@example.org" in e.text for e in session.events)
    assert session.game.snapshot() == reference.snapshot()
    played = [{k: v for k, v in a.items() if k != "auto_actions"} for a in session.game.actions]
    wanted = [{k: v for k, v in a.items() if k != "auto_actions"} for a in reference.actions]
    assert played == wanted
    master.close()
