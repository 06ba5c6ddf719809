"""The game master's mail transport (issue 10 item 5): configuration, Maildir, IMAP, SMTP,
outbox, and who may send orders for whom.

Nothing leaves the machine: a real SMTP server (aiosmtpd) on a free localhost port, a Maildir
in a temporary folder, a tiny IMAP server on localhost that speaks what ``imaplib`` asks.
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import logging
import shutil
import smtplib
import socket
import socketserver
import ssl
import subprocess
import threading
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from stellwerk.api import Game
from stellwerk.gm.mail import (
    ConfigError,
    GMConfig,
    IncomingMail,
    MailRefused,
    deliver_maildir,
    game_of,
    identify,
    parse_mail,
    read_imap,
    read_maildir,
    send,
    write_outbox,
)
from stellwerk.gm.report import build_report, to_email
from stellwerk.selfplay import play

NAMES = [(1, "Alice"), (2, "Bob"), (3, "Jürgen")]
ADDRESSES = {"Alice": "alice@example.org", "Bob": "bob@example.org", "Jürgen": "jm@example.de"}
SUBJECT = "Züge für die Gesellschaft: Änderung"
BODY = "ATA: kaufe zug 4H\nbiete 120 auf SCE # Grüße, Jürgen\nÄÖÜ äöü ß\n"


def config_text(incoming: str, outgoing: str) -> str:
    return f"""
[gm]
address = "Spielleitung <gm@example.org>"

[incoming]
{incoming}

[outgoing]
{outgoing}

[games.g1]
lang = "de"

[games.g1.players]
Alice = {{ address = "Alice Adler <ALICE@example.org>", lang = "en" }}
Bob = ["bob@example.org", "bob@work.example.net"]
"Jürgen" = "jm@example.de"
"""


def write_config(folder: Path, incoming: str, outgoing: str) -> GMConfig:
    path = folder / "gm.toml"
    path.write_text(config_text(incoming, outgoing), encoding="utf-8")
    return GMConfig.load(path)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def order_mail(
    sender: str, subject: str = SUBJECT, body: str = BODY, cte: str = ""
) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "gm@example.org"
    message["Subject"] = subject
    message["Message-ID"] = f"<{abs(hash((sender, subject, body, cte)))}@example.org>"
    if cte:
        message.set_content(body, cte=cte)
    else:
        message.set_content(body)
    return message


def mail_of(sender: str, body: str = "pass\n", subject: str = "orders") -> IncomingMail:
    return IncomingMail(sender, subject, body, "<m1@example.org>")


# -- configuration ---------------------------------------------------------------------------
def test_config_loads_servers_players_and_languages(tmp_path: Path) -> None:
    """Issue 10 item 5: servers, addresses and the player-to-address map in a TOML file;
    folders relative to it; an address compared in lower case without display name."""
    config = write_config(
        tmp_path,
        'kind = "maildir"\npath = "mail/in"',
        'kind = "smtp"\nhost = "localhost"\nport = 2525\nsecurity = "plain"\nuser = "gm"',
    )
    assert config.incoming.path == tmp_path / "mail" / "in"
    assert (config.outgoing.host, config.outgoing.port) == ("localhost", 2525)
    assert (config.outgoing.security, config.outgoing.user) == ("plain", "gm")
    players = config.players("g1")
    assert players["Alice"].addresses == ("alice@example.org",)
    assert players["Bob"].addresses == ("bob@example.org", "bob@work.example.net")
    assert config.lang_of("g1", "Alice") == "en"
    assert config.lang_of("g1", "juergen") == "de"  # the game's language, umlauts folded
    assert config.address_of("g1", "Bob") == "bob@example.org"
    imap = write_config(
        tmp_path, 'kind = "imap"\nhost = "imap.example.org"', 'kind = "outbox"\nfolder = "out"'
    )
    assert (imap.incoming.port, imap.incoming.security, imap.incoming.folder) == (
        993,
        "ssl",
        "INBOX",
    )
    assert imap.outgoing.path == tmp_path / "out"


@pytest.mark.parametrize(
    ("incoming", "outgoing", "message"),
    [
        ('kind = "pigeon"', 'kind = "outbox"\nfolder = "o"', "incoming.kind"),
        ('kind = "maildir"', 'kind = "outbox"\nfolder = "o"', "incoming.path"),
        ('kind = "maildir"\npath = "m"', 'kind = "smtp"', "outgoing.host"),
        (
            'kind = "maildir"\npath = "m"',
            'kind = "smtp"\nhost = "h"\nsecurity = "tls"',
            "outgoing.security",
        ),
        ('kind = "maildir"\npath = "m"', 'kind = "smtp"\nhost = "h"\nport = 0', "outgoing.port"),
        (
            'kind = "maildir"\npath = "m"',
            'kind = "smtp"\nhost = "h"\npassword_env = "STELLWERK_NO_SUCH_VARIABLE"',
            "password_env",
        ),
    ],
)
def test_config_errors_name_the_key(
    tmp_path: Path, incoming: str, outgoing: str, message: str
) -> None:
    """A wrong configuration is a clear error naming the key."""
    with pytest.raises(ConfigError, match=message):
        write_config(tmp_path, incoming, outgoing)


def test_config_refuses_an_address_of_two_players(tmp_path: Path) -> None:
    """One address belongs to one player: otherwise the GM could not tell who wrote."""
    text = config_text('kind = "maildir"\npath = "m"', 'kind = "outbox"\nfolder = "o"')
    text = text.replace('"jm@example.de"', '"bob@example.org"')
    (tmp_path / "gm.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match="also Bob's address"):
        GMConfig.load(tmp_path / "gm.toml")
    (tmp_path / "bad.toml").write_text("[gm\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        GMConfig.load(tmp_path / "bad.toml")
    with pytest.raises(ConfigError, match="cannot read"):
        GMConfig.load(tmp_path / "missing.toml")


def test_password_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A password may come from an environment variable, so the file holds no secret."""
    monkeypatch.setenv("STELLWERK_TEST_SMTP_PASSWORD", "geheim")
    config = write_config(
        tmp_path,
        'kind = "maildir"\npath = "m"',
        'kind = "smtp"\nhost = "h"\nuser = "gm"\npassword_env = "STELLWERK_TEST_SMTP_PASSWORD"',
    )
    assert config.outgoing.password == "geheim"
    assert config.outgoing.port == 587  # starttls by default


# -- who wrote it ----------------------------------------------------------------------------
@pytest.fixture
def config(tmp_path: Path) -> GMConfig:
    return write_config(tmp_path, 'kind = "maildir"\npath = "in"', 'kind = "outbox"\nfolder = "o"')


def test_identify_by_address(config: GMConfig) -> None:
    """Issue 10 item 5: the sender's address names the player (any of their addresses)."""
    assert identify(config, "g1", mail_of("alice@example.org")) == "Alice"
    assert identify(config, "g1", mail_of("bob@work.example.net")) == "Bob"
    assert identify(config, "g1", mail_of("jm@example.de", "spieler: Juergen\npasse\n")) == "Jürgen"
    assert identify(config, "g1", mail_of("jm@example.de", "Player: JÜRGEN\npass\n")) == "Jürgen"


def test_unknown_address_refused_and_logged(
    config: GMConfig, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 10 item 5: a mail from an unknown address is refused and logged."""
    mail = mail_of("mallory@example.com")
    with (
        caplog.at_level(logging.WARNING, logger="stellwerk.gm.mail"),
        pytest.raises(
            MailRefused, match=r"mallory@example\.com is no player's in game g1"
        ) as refused,
    ):
        identify(config, "g1", mail)
    assert refused.value.mail == mail
    assert "mallory@example.com" in caplog.text and "refused" in caplog.text


def test_mail_for_another_player_refused_and_logged(
    config: GMConfig, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 10 item 5: a mail naming another player (a ``player:`` line) is refused."""
    for body, subject in (("player: Bob\npass\n", "orders"), ("pass\n", "Spieler: Alice")):
        with (
            caplog.at_level(logging.WARNING, logger="stellwerk.gm.mail"),
            pytest.raises(MailRefused, match="claims to be for player"),
        ):
            identify(config, "g1", mail_of("jm@example.de", body, subject))
    assert caplog.text.count("refused") == 2


def test_mail_for_an_unknown_game_refused(config: GMConfig) -> None:
    with pytest.raises(MailRefused, match="no game 'g9'"):
        identify(config, "g9", mail_of("alice@example.org"))


# -- reading ---------------------------------------------------------------------------------
def test_maildir_reads_new_mails_once_with_umlauts(tmp_path: Path) -> None:
    """Issue 10 item 5: orders read from a Maildir: new mails, moved to cur/ once read;
    quoted-printable and base64 bodies, encoded subjects: umlauts survive."""
    box = tmp_path / "in"
    sent = [
        order_mail("Jürgen M <jm@example.de>", cte="quoted-printable"),
        order_mail("alice@example.org", "Befehle", "passe\n", cte="base64"),
    ]
    deliver_maildir(box, sent)
    mails = read_maildir(box)
    assert [m.sender for m in mails] == ["jm@example.de", "alice@example.org"]
    assert mails[0].subject == SUBJECT
    assert mails[0].body == BODY
    assert mails[1].body == "passe\n"
    assert mails[0].message_id == sent[0]["Message-ID"]
    assert read_maildir(box) == []
    assert not list((box / "new").iterdir())
    assert sorted(p.name.endswith(":2,S") for p in (box / "cur").iterdir()) == [True, True]
    with pytest.raises(ConfigError, match="not a Maildir"):
        read_maildir(tmp_path / "nothing")


def test_text_part_of_multipart_and_latin1(tmp_path: Path) -> None:
    """A multipart mail gives its plain text part (not the HTML, not an attachment); a body
    in ISO-8859-1 is decoded by its charset; an HTML-only mail gives its text."""
    both = order_mail("alice@example.org", "Befehle", "kaufe ATA aus pool\n")
    both.add_alternative("<p>HTML <b>nicht</b> lesen</p>", subtype="html")
    both.add_attachment(b"x" * 10, maintype="application", subtype="octet-stream", filename="a")
    latin = (
        b"From: jm@example.de\r\nTo: gm@example.org\r\nSubject: =?iso-8859-1?q?Gr=FC=DFe?=\r\n"
        b"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=iso-8859-1\r\n"
        b"Content-Transfer-Encoding: 8bit\r\n\r\nkaufe Zug f\xfcr \xc4nderung\r\n"
    )
    html_only = order_mail("bob@example.org", "o", "x")
    html_only.set_content("<div>passe</div><div>ATA: fahre optimal</div>", subtype="html")
    box = tmp_path / "in"
    deliver_maildir(box, [both])
    (box / "new" / "latin").write_bytes(latin)
    mails = {m.sender: m for m in read_maildir(box)}
    assert mails["alice@example.org"].body == "kaufe ATA aus pool\n"
    assert mails["jm@example.de"].subject == "Grüße"
    assert mails["jm@example.de"].body == "kaufe Zug für Änderung\n"
    assert mails["jm@example.de"].message_id.endswith("@stellwerk.invalid>")
    assert parse_mail(html_only.as_bytes()).body == "passe\nATA: fahre optimal"


# -- a tiny IMAP server ----------------------------------------------------------------------
class FakeImap(socketserver.StreamRequestHandler):
    """Just enough IMAP4rev1 for imaplib: CAPABILITY, LOGIN, SELECT, SEARCH UNSEEN,
    FETCH n (BODY[]) setting \\Seen, LOGOUT."""

    store: list[list[Any]]  # [raw bytes, seen]
    logins: list[tuple[str, str]]

    def send(self, line: str) -> None:
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self) -> None:
        self.send("* OK fake IMAP ready")
        while line := self.rfile.readline().decode().strip():
            tag, command, *args = line.split(" ")
            command = command.upper()
            if command == "CAPABILITY":
                self.send("* CAPABILITY IMAP4rev1 AUTH=PLAIN")
            elif command == "LOGIN":
                self.logins.append((args[0].strip('"'), args[1].strip('"')))
            elif command == "SELECT":
                self.send(f"* {len(self.store)} EXISTS")
            elif command == "SEARCH":
                unseen = [str(i + 1) for i, (_, seen) in enumerate(self.store) if not seen]
                self.send("* SEARCH " + " ".join(unseen))
            elif command == "FETCH":
                number = int(args[0])
                raw = self.store[number - 1][0]
                self.store[number - 1][1] = True
                self.wfile.write(f"* {number} FETCH (BODY[] {{{len(raw)}}}\r\n".encode())
                self.wfile.write(raw + b")\r\n")
            elif command == "LOGOUT":
                self.send("* BYE")
                self.send(f"{tag} OK LOGOUT completed")
                return
            else:
                self.send(f"{tag} BAD unknown command")
                continue
            self.send(f"{tag} OK {command} completed")


@contextlib.contextmanager
def running_imap(context: ssl.SSLContext | None = None) -> Iterator[tuple[int, type[FakeImap]]]:
    """The fake IMAP server on a free localhost port (over TLS with ``context``)."""
    handler = type("Handler", (FakeImap,), {"store": [], "logins": []})
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    if context is not None:
        server.socket = context.wrap_socket(server.socket, server_side=True)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], handler
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def imap_server() -> Iterator[tuple[int, type[FakeImap]]]:
    with running_imap() as running:
        yield running


def test_read_imap_fetches_unseen_mails_once(
    tmp_path: Path, imap_server: tuple[int, type[FakeImap]]
) -> None:
    """Issue 10 item 5: orders read from IMAP: the unseen mails, marked seen once read."""
    port, handler = imap_server
    handler.store.extend(
        [
            [order_mail("jm@example.de", cte="base64").as_bytes(), False],
            [order_mail("bob@example.org", "alt", "pass\n").as_bytes(), True],
            [order_mail("alice@example.org", "neu", "passe\n").as_bytes(), False],
        ]
    )
    config = write_config(
        tmp_path,
        f'kind = "imap"\nhost = "127.0.0.1"\nport = {port}\nsecurity = "plain"\n'
        'user = "gm"\npassword = "pw"',
        'kind = "outbox"\nfolder = "o"',
    )
    mails = read_imap(config)
    assert [(m.sender, m.subject, m.body) for m in mails] == [
        ("jm@example.de", SUBJECT, BODY),
        ("alice@example.org", "neu", "passe\n"),
    ]
    assert handler.logins == [("gm", "pw")]
    assert read_imap(config) == []


# -- sending ---------------------------------------------------------------------------------
class Collect:
    """An aiosmtpd handler keeping what it receives."""

    def __init__(self) -> None:
        self.received: list[tuple[list[str], bytes]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received.append((list(envelope.rcpt_tos), bytes(envelope.content)))
        return "250 OK"


@pytest.fixture
def smtp_server() -> Iterator[tuple[int, Collect]]:
    handler = Collect()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield port, handler
    finally:
        controller.stop()


@pytest.fixture(scope="module")
def game() -> Game:
    game = Game.create("1849", NAMES, [], seed=2)
    play(game, 2, max_actions=70)
    return game


def test_reports_sent_by_smtp_with_the_map(
    tmp_path: Path, smtp_server: tuple[int, Collect], game: Game
) -> None:
    """Issue 10 items 4, 5: every player receives one report, in their language, by SMTP
    from the GM, with the map PNG attached; umlauts of subject and body survive."""
    port, handler = smtp_server
    config = write_config(
        tmp_path,
        'kind = "maildir"\npath = "in"',
        f'kind = "smtp"\nhost = "127.0.0.1"\nport = {port}\nsecurity = "plain"',
    )
    reports = {}
    messages = []
    for _pid, name in game.players:
        report = build_report(
            game,
            player=name,
            lang=config.lang_of("g1", name),
            since_action=0,
            orders=[],
            deadline=None,
        )
        reports[config.address_of("g1", name)] = report
        messages.append(to_email(report, config.address, config.address_of("g1", name)))
    assert send(config, messages) == []
    assert sorted(rcpt for rcpts, _ in handler.received for rcpt in rcpts) == sorted(reports)
    for rcpts, raw in handler.received:
        message = email.message_from_bytes(raw, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        report = reports[rcpts[0]]
        assert str(message["Subject"]) == report.subject
        body = message.get_body(preferencelist=("plain",))
        # SMTP carries lines ending CRLF
        assert body is not None and body.get_content().replace("\r\n", "\n") == report.text
        maps = [p for p in message.iter_attachments() if str(p.get_filename()).endswith("map.png")]
        assert len(maps) == 1
        assert maps[0].get_content_type() == "image/png"
        assert maps[0].get_content().startswith(b"\x89PNG")
    jm = email.message_from_bytes(
        next(raw for rcpts, raw in handler.received if rcpts == ["jm@example.de"]),
        policy=email.policy.default,
    )
    assert "Auswertung für Jürgen" in jm.get_body(preferencelist=("plain",)).get_content()


def test_starttls_is_required_when_configured(
    tmp_path: Path, smtp_server: tuple[int, Collect]
) -> None:
    """``security = "starttls"`` never falls back to plain text: a server without STARTTLS
    is an error and nothing is sent."""
    port, handler = smtp_server
    config = write_config(
        tmp_path,
        'kind = "maildir"\npath = "in"',
        f'kind = "smtp"\nhost = "127.0.0.1"\nport = {port}\nsecurity = "starttls"',
    )
    with pytest.raises(smtplib.SMTPNotSupportedError):
        send(config, [order_mail("gm@example.org")])
    assert handler.received == []


def test_outbox_one_eml_per_report(tmp_path: Path, config: GMConfig) -> None:
    """Issue 10 items 5, 7: without a mail server the reports go to an outbox folder, one
    .eml file each, never replacing an earlier one; a message whose Message-ID is there
    already (a report built again after a crash) is not written twice."""
    first = send(config, [order_mail("gm@example.org"), order_mail("gm@example.org", "zwei")])
    again = order_mail("gm@example.org")
    assert write_outbox(config.outgoing.path or tmp_path, [again]) == []
    del again["Message-ID"]
    again["Message-ID"] = "<another@example.org>"
    second = write_outbox(config.outgoing.path or tmp_path, [again])
    files = sorted((tmp_path / "o").iterdir())
    assert files == sorted([*first, *second])
    assert len(files) == 3 and all(f.suffix == ".eml" for f in files)
    assert [parse_mail(f.read_bytes()).subject for f in first] == [SUBJECT, "zwei"]
    assert parse_mail(first[0].read_bytes()).body == BODY


def test_own_text_leaves_out_quotes_and_signature() -> None:
    """A reply to a report quotes it: the quoted lines and the signature are no orders."""
    body = "passe\n> > pass\n>Report for Alice\nATA: fahre optimal\n-- \nJürgen\npass\n"
    assert mail_of("jm@example.de", body).own_text == "passe\nATA: fahre optimal\n"
    assert mail_of("jm@example.de", "> nur Zitat\n").own_text == ""
    assert mail_of("jm@example.de", BODY).own_text == BODY


def test_example_configuration_loads() -> None:
    """The documented example configuration is valid (docs/gm.example.toml)."""
    path = Path(__file__).resolve().parents[2] / "docs" / "gm.example.toml"
    config = GMConfig.load(path)
    assert config.incoming.kind == "maildir" and config.outgoing.kind == "outbox"
    assert config.address_of("demo", "Jürgen") == "juergen@example.de"
    assert config.lang_of("demo", "Alice") == "en" and config.lang_of("demo", "Bob") == "de"


# -- TLS with a certificate of the group's own authority --------------------------------------
@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ssl.SSLContext]:
    """A self-signed certificate for 127.0.0.1 (made with openssl) and a server context."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a test certificate")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return cert, context


def authenticator(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> Any:
    from aiosmtpd.smtp import AuthResult

    return AuthResult(success=(data.login, data.password) == (b"gm", b"geheim"))


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
@pytest.mark.parametrize("security", ["starttls", "ssl"])
def test_smtp_over_tls_with_login(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    certificate: tuple[Path, ssl.SSLContext],
    security: str,
) -> None:
    """Issue 10 item 5: SMTP with STARTTLS or TLS from the start, logging in with the
    password from the environment; the server's certificate is checked against the
    configured authority (``ca_file``), and without it nothing is sent."""
    cert, context = certificate
    shutil.copy(cert, tmp_path / "ca.pem")
    monkeypatch.setenv("STELLWERK_TEST_SMTP_PASSWORD", "geheim")
    handler = Collect()
    port = free_port()
    tls: dict[str, Any] = {"tls_context": context, "require_starttls": True}
    if security == "ssl":  # TLS from the start: aiosmtpd does not know it, AUTH is safe
        tls = {"ssl_context": context, "auth_require_tls": False}
    controller = Controller(
        handler,
        hostname="127.0.0.1",
        port=port,
        auth_required=True,
        authenticator=authenticator,
        **tls,
    )
    controller.start()
    try:
        outgoing = (
            f'kind = "smtp"\nhost = "127.0.0.1"\nport = {port}\nsecurity = "{security}"\n'
            'user = "gm"\npassword_env = "STELLWERK_TEST_SMTP_PASSWORD"'
        )
        untrusted = write_config(tmp_path, 'kind = "maildir"\npath = "in"', outgoing)
        with pytest.raises(ssl.SSLCertVerificationError):
            send(untrusted, [order_mail("gm@example.org")])
        assert handler.received == []
        trusted = write_config(
            tmp_path, 'kind = "maildir"\npath = "in"', outgoing + '\nca_file = "ca.pem"'
        )
        send(trusted, [order_mail("gm@example.org")])
        assert len(handler.received) == 1
        assert parse_mail(handler.received[0][1]).subject == SUBJECT
    finally:
        controller.stop()


def test_imap_over_tls(tmp_path: Path, certificate: tuple[Path, ssl.SSLContext]) -> None:
    """IMAP over TLS (the default, port 993 style), the certificate checked against
    ``ca_file``: without it nothing is read."""
    cert, context = certificate
    shutil.copy(cert, tmp_path / "ca.pem")
    with running_imap(context) as (port, handler):
        handler.store.append([order_mail("jm@example.de").as_bytes(), False])
        incoming = f'kind = "imap"\nhost = "127.0.0.1"\nport = {port}\nuser = "gm"'
        untrusted = write_config(tmp_path, incoming, 'kind = "outbox"\nfolder = "o"')
        with pytest.raises(ssl.SSLCertVerificationError):
            read_imap(untrusted)
        trusted = write_config(
            tmp_path, incoming + '\nca_file = "ca.pem"', 'kind = "outbox"\nfolder = "o"'
        )
        assert [m.body for m in read_imap(trusted)] == [BODY]


def test_game_of_a_mail(tmp_path: Path) -> None:
    """The game a mail is for: the tag of a report's subject its reply keeps, else the one
    game of the sender; unclear or unknown: refused."""
    text = config_text('kind = "maildir"\npath = "m"', 'kind = "outbox"\nfolder = "o"')
    text += '\n[games.g2.players]\nAlice = "alice@example.org"\nDora = "dora@example.org"\n'
    (tmp_path / "gm.toml").write_text(text, encoding="utf-8")
    config = GMConfig.load(tmp_path / "gm.toml")
    reply = "Re: [1849 #g2] Report after action 57: Stock round 3 (your turn)"
    assert game_of(config, mail_of("alice@example.org", subject=reply)) == "g2"
    assert game_of(config, mail_of("jm@example.de")) == "g1"
    assert game_of(config, mail_of("dora@example.org")) == "g2"
    with pytest.raises(MailRefused, match="plays in the games g1, g2"):
        game_of(config, mail_of("alice@example.org"))
    with pytest.raises(MailRefused, match="names the game g7"):
        game_of(config, mail_of("alice@example.org", subject="[1849 #g7] Befehle"))
    with pytest.raises(MailRefused, match="no player's in any game"):
        game_of(config, mail_of("mallory@example.com"))


def test_reply_to_a_report_finds_its_game(config: GMConfig, game: Game) -> None:
    """The tag a report's subject carries leads a reply back to its game."""
    report = build_report(
        game, player="Bob", lang="en", since_action=0, orders=[], deadline=None, key="g1"
    )
    assert game_of(config, mail_of("bob@example.org", subject=f"Re: {report.subject}")) == "g1"


def test_gm_fetch_reads_imap_and_writes_the_outbox(
    tmp_path: Path, imap_server: tuple[int, type[FakeImap]]
) -> None:
    """Issue 10 items 5, 6: ``gm fetch`` reads the mailbox the configuration names (here
    IMAP), applies the orders and sends every player a report (here into the outbox)."""
    import json

    from click.testing import CliRunner

    from stellwerk.cli.main import main

    port, handler = imap_server
    write_config(
        tmp_path,
        f'kind = "imap"\nhost = "127.0.0.1"\nport = {port}\nsecurity = "plain"\n'
        'user = "gm"\npassword = "pw"',
        'kind = "outbox"\nfolder = "o"',
    )
    args = ["--db", str(tmp_path / "gm.db"), "--config", str(tmp_path / "gm.toml")]
    runner = CliRunner()
    result = runner.invoke(main, ["gm", "new", "g1", *args, "--title", "1849", "--seed", "2"])
    assert result.exit_code == 0, result.output
    status = runner.invoke(main, ["gm", "status", "g1", "--db", str(tmp_path / "gm.db"), "--json"])
    first = json.loads(status.output)["waiting_for"][0]
    handler.store.append([order_mail(ADDRESSES[first], "[1849 #g1] Züge", "passe\n").as_bytes(),
                          False])  # fmt: skip
    result = runner.invoke(main, ["gm", "fetch", *args])
    assert result.exit_code == 0, result.output
    assert f"{first}: 'passe' understood as: pass" in result.output
    assert handler.logins == [("gm", "pw")]
    sent = sorted((tmp_path / "o").glob("*.eml"))
    assert all(parse_mail(p.read_bytes()).sender == "gm@example.org" for p in sent)
    recipients = sorted(
        str(email.message_from_bytes(p.read_bytes(), policy=email.policy.default)["To"])
        for p in sent
    )
    assert recipients == sorted(ADDRESSES.values())
