"""Mail transport of the game master: order mails in, reports out.

Orders come from a Maildir (``read_maildir``) or an IMAP mailbox (``read_imap``); reports go
out by SMTP (``send``) or into an outbox folder, one ``.eml`` file each (``write_outbox``).
Servers, the GM's address and which address belongs to which player of which game live in
the GM configuration (TOML, :meth:`GMConfig.load`), never in the game file: game files are
handed to every player.

A mail is for the game its subject's tag names (``[1849 #KEY]``, which every report's subject
carries) or the one game its sender plays in (:func:`game_of`), and accepted from a player's
own address only (:func:`identify`).  An unknown sender,
or a mail whose ``player:`` (``spieler:``) line names another player than its sender, is
refused with :class:`MailRefused`; every refusal is logged (logger ``stellwerk.gm.mail``,
level WARNING).  A sender's address is compared without regard to case and display name.

The configuration::

    [gm]
    address = "Spielleitung <gm@example.org>"

    [incoming]                  # where order mails arrive
    kind = "maildir"            # or "imap"
    path = "mail/in"            # maildir: relative to the configuration file
    # host, port (993 with ssl, else 143), user, password or password_env (the name of an
    # environment variable holding it), folder = "INBOX", security = "ssl" | "starttls" |
    # "plain" (default "ssl"), ca_file (the certificate authority of a server with its own
    # certificate, relative to the configuration file; default: the system's)

    [outgoing]                  # where reports go
    kind = "smtp"               # or "outbox"
    host = "localhost"          # smtp: host, port (465 with ssl, 587 with starttls, else 25),
    security = "plain"          # "ssl" | "starttls" | "plain" (default "starttls"),
                                # user, password or password_env, ca_file
    # folder = "out"            # outbox: relative to the configuration file

    [games.G1.players]          # per game key: player name -> address(es)
    Alice = "alice@example.org"
    "Jürgen" = { address = ["juergen@example.org", "jm@example.net"], lang = "de" }

    [games.G1]
    lang = "de"                 # the report language of players who do not name one
"""

from __future__ import annotations

import contextlib
import email
import email.parser
import email.policy
import hashlib
import imaplib
import logging
import os
import re
import smtplib
import ssl
import time
import tomllib
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from email.utils import parseaddr
from html.parser import HTMLParser
from pathlib import Path
from typing import NoReturn, Protocol

LOG = logging.getLogger("stellwerk.gm.mail")

SECURITY = ("ssl", "starttls", "plain")
"""How a connection is secured: TLS from the start, STARTTLS after the greeting, or not."""

LANGS = ("en", "de")


class ConfigError(ValueError):
    """The GM configuration is missing, unreadable or wrong; the message names the key."""


class MailRefused(Exception):
    """A mail the GM does not take: ``reason`` says why, ``mail`` is the mail."""

    def __init__(self, reason: str, mail: IncomingMail) -> None:
        super().__init__(reason)
        self.reason = reason
        self.mail = mail


@dataclass(frozen=True)
class IncomingMail:
    """An order mail: the sender's bare address (lower case), the decoded subject and plain
    text body (line ends ``\\n``), and its Message-ID (made from its content when missing)."""

    sender: str
    subject: str
    body: str
    message_id: str
    authentication_results: tuple[str, ...] = ()
    """The values of the mail's ``Authentication-Results`` headers, topmost first."""
    size: int = 0
    """The mail's size in bytes as it arrived (0: not known)."""
    by_gm: bool = False
    """Orders the GM enters himself for the player (``gm orders --player``, a plain order
    file): no mail, so the sender checks (``[checks]``) do not apply."""

    @property
    def own_text(self) -> str:
        """The body as the player wrote it: without quoted lines (``>``, a reply quoting
        the report), without the line a mail client writes above a quote (``On Mon, Dec 1,
        2026 at 10:00 AM GM <gm@x> wrote:``, ``Am 01.12.2026 um 10:00 schrieb Spielleitung
        <gm@example.org>:``, also when wrapped over two lines), and without what follows a
        signature line (``-- ``) or a forwarded or quoted original (``-----Original
        Message-----``, ``-----Ursprüngliche Nachricht-----``, or a ``From:``/``Von:`` line
        followed by ``Sent:``/``Gesendet:``, as Outlook quotes)."""
        raw = self.body.splitlines()
        lines: list[str] = []
        index = 0
        while index < len(raw):
            line = raw[index]
            if line.rstrip() == "--" or ORIGINAL.match(line):
                break
            following = raw[index + 1 : index + 3]
            if HEADER_FROM.match(line) and any(HEADER_SENT.match(x) for x in following):
                break  # an original quoted Outlook's way: its header block, then its text
            if ATTRIBUTION.match(line.strip()):
                index += 1
                continue
            if index + 1 < len(raw) and ATTRIBUTION.match(
                f"{line.strip()} {raw[index + 1].strip()}"
            ):
                index += 2
                continue
            if not line.lstrip().startswith(">") and not RULE.match(line):
                lines.append(line)
            index += 1
        return "\n".join(lines).strip("\n") + "\n" if any(s.strip() for s in lines) else ""


ATTRIBUTION = re.compile(
    r"^(?:On|Am|Le|El|Il|Op)\s.{4,300}\s(?:wrote|schrieb|a écrit|escribió|ha scritto|schreef)"
    r"(?:\s.{0,120})?\s*:$",
    re.IGNORECASE,
)
"""The line (or two joined lines) a mail client writes above the text it quotes: ``On ...
wrote:``, ``Am ... schrieb ...:`` (a few other languages' forms too).  It is no order."""

ORIGINAL = re.compile(
    r"^\s*-{2,}\s*(?:Original Message|Ursprüngliche Nachricht|Forwarded message|"
    r"Weitergeleitete Nachricht)\s*-{2,}\s*$",
    re.IGNORECASE,
)
"""The line above a quoted or forwarded original written without ``>``: what follows is no
order."""

RULE = re.compile(r"^\s*_{5,}\s*$")
"""A line of underscores, which mail clients write above a quoted original: no order."""

HEADER_FROM = re.compile(r"^\s*\**(?:From|Von)\s*:\**\s+\S", re.IGNORECASE)
HEADER_SENT = re.compile(r"^\s*\**(?:Sent|Gesendet|Date|Datum)\s*:\**\s+\S", re.IGNORECASE)
"""The first lines of the header block some mail clients (Outlook) write above the text they
quote without ``>``: ``From: ...`` / ``Von: ...`` followed by ``Sent:`` / ``Gesendet:``."""


@dataclass(frozen=True)
class PlayerAddress:
    """A player of a game in the configuration: name, addresses (lower case), language."""

    name: str
    addresses: tuple[str, ...]
    lang: str


@dataclass(frozen=True)
class Server:
    """An IMAP or SMTP server, or a folder (``kind`` "maildir"/"outbox")."""

    kind: str
    host: str = ""
    port: int = 0
    security: str = "plain"
    user: str | None = None
    password: str | None = None
    folder: str = "INBOX"
    path: Path | None = None
    ca_file: Path | None = None

    def tls(self) -> ssl.SSLContext:
        """The TLS context: the system's certificate authorities, or only ``ca_file``'s
        (a server with a certificate of the group's own authority); names are checked."""
        return ssl.create_default_context(cafile=self.ca_file)


MAX_MAIL_SIZE = 256 * 1024
"""The default size limit of an incoming mail in bytes (``[checks] max_size``)."""


@dataclass(frozen=True)
class Checks:
    """The checks of who sent a mail, as the group chose them (``[checks]``, docs/gm.md).

    ``authserv_id``: trust the ``Authentication-Results`` headers of the receiving server
    with this authserv-id, and only those (:func:`authentication_refusal`); None: no such
    check.  ``require_pass``: besides, a mail needs a pass that vouches for its From domain
    (DMARC, or DKIM or SPF of that domain).  ``secret_word``: every mail must carry the
    player's secret word (``secret: WORD`` / ``geheim: WORT``), issued in his first report.
    ``max_size``: mails above this many bytes are refused unread."""

    authserv_id: str | None = None
    require_pass: bool = False
    secret_word: bool = False
    max_size: int = MAX_MAIL_SIZE


@dataclass(frozen=True)
class GMConfig:
    """The GM configuration: the GM's address, the incoming and outgoing servers (or
    folders), per game key its players' addresses and languages, and the sender checks."""

    address: str
    incoming: Server
    outgoing: Server
    games: Mapping[str, Mapping[str, PlayerAddress]] = field(default_factory=dict)
    checks: Checks = Checks()

    @classmethod
    def load(cls, path: str | Path) -> GMConfig:
        """Read the TOML configuration at ``path`` (module docstring); relative folders are
        taken relative to its directory.  Any fault: :class:`ConfigError`."""
        path = Path(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from error
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            raise ConfigError(f"{path}: not valid TOML: {error}") from error
        return cls.from_dict(data, path.parent)

    @classmethod
    def from_dict(cls, data: Mapping[str, object], base: Path = Path()) -> GMConfig:
        """The configuration from parsed TOML; folders relative to ``base``."""
        gm = _table(data, "gm")
        address = _string(gm, "address", "gm")
        if "@" not in parseaddr(address)[1]:
            raise ConfigError(f"gm.address: {address!r} is not a mail address")
        incoming = _server(_table(data, "incoming"), "incoming", ("maildir", "imap"), base)
        outgoing = _server(_table(data, "outgoing"), "outgoing", ("outbox", "smtp"), base)
        games_table = data.get("games", {})
        if not isinstance(games_table, Mapping):
            raise ConfigError("games: must be a table of games")
        games = {str(key): _players(game, f"games.{key}") for key, game in games_table.items()}
        return cls(address, incoming, outgoing, games, _checks(data.get("checks", {})))

    def players(self, game_key: str) -> Mapping[str, PlayerAddress]:
        """The players of ``game_key`` by name; an unknown game: ConfigError."""
        try:
            return self.games[str(game_key)]
        except KeyError:
            known = ", ".join(self.games) or "none"
            raise ConfigError(
                f"no game {game_key!r} in the configuration (games: {known})"
            ) from None

    def known_sender(self, address: str) -> list[tuple[str, PlayerAddress]]:
        """The (game key, player) entries whose configured addresses include ``address``."""
        address = address.lower()
        return [
            (key, player)
            for key, players in self.games.items()
            for player in players.values()
            if address in player.addresses
        ]

    def address_of(self, game_key: str, player: str) -> str:
        """The address reports to ``player`` go to: their first."""
        return self._player(game_key, player).addresses[0]

    def lang_of(self, game_key: str, player: str) -> str:
        """The language of ``player``'s reports."""
        return self._player(game_key, player).lang

    def _player(self, game_key: str, player: str) -> PlayerAddress:
        players = self.players(game_key)
        for name, entry in players.items():
            if fold(name) == fold(player):
                return entry
        raise ConfigError(f"games.{game_key}: no address for player {player!r}")


# -- configuration helpers ------------------------------------------------------------------
def _table(data: Mapping[str, object], key: str) -> Mapping[str, object]:
    value = data.get(key)
    if not isinstance(value, Mapping):
        raise ConfigError(f"[{key}]: missing (a table)")
    return value


def _string(table: Mapping[str, object], key: str, where: str) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{where}.{key}: missing (a string)")
    return value


def _optional_string(table: Mapping[str, object], key: str, where: str) -> str | None:
    value = table.get(key)
    if value is not None and not isinstance(value, str):
        raise ConfigError(f"{where}.{key}: must be a string")
    return value


def _server(table: Mapping[str, object], where: str, kinds: tuple[str, str], base: Path) -> Server:
    """An incoming (maildir/imap) or outgoing (outbox/smtp) server."""
    kind = _string(table, "kind", where)
    folder_kind = kinds[0]
    if kind not in kinds:
        raise ConfigError(f"{where}.kind: {kind!r} is not one of {', '.join(kinds)}")
    if kind == folder_kind:
        key = "path" if kind == "maildir" else "folder"
        return Server(kind, path=base / _string(table, key, where))
    default_security = "ssl" if kind == "imap" else "starttls"
    security = table.get("security", default_security)
    if security not in SECURITY:
        raise ConfigError(f"{where}.security: {security!r} is not one of {', '.join(SECURITY)}")
    ports = {"imap": {"ssl": 993}, "smtp": {"ssl": 465, "starttls": 587}}
    port = table.get("port", ports[kind].get(security, 143 if kind == "imap" else 25))
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise ConfigError(f"{where}.port: {port!r} is not a port number")
    env = table.get("password_env")
    if env is not None:
        if not isinstance(env, str) or env not in os.environ:
            raise ConfigError(f"{where}.password_env: the variable {env!r} is not set")
        password: str | None = os.environ[env]
    else:
        password = _optional_string(table, "password", where)
    user = _optional_string(table, "user", where)
    folder = _optional_string(table, "folder", where)
    folder = "INBOX" if folder is None else folder
    ca_file = _optional_string(table, "ca_file", where)
    if ca_file is not None and not (base / ca_file).is_file():
        raise ConfigError(f"{where}.ca_file: no file {base / ca_file}")
    return Server(
        kind,
        host=_string(table, "host", where),
        port=port,
        security=str(security),
        user=user,
        password=password,
        folder=str(folder),
        ca_file=base / ca_file if ca_file is not None else None,
    )


def _checks(table: object) -> Checks:
    """The ``[checks]`` table (all keys optional)."""
    if not isinstance(table, Mapping):
        raise ConfigError("checks: must be a table")
    unknown = sorted(set(table) - {"authserv_id", "require_pass", "secret_word", "max_size"})
    if unknown:
        raise ConfigError(f"checks.{unknown[0]}: unknown key (authserv_id, require_pass, "
                          "secret_word, max_size)")  # fmt: skip
    authserv_id = _optional_string(table, "authserv_id", "checks")
    if authserv_id is not None and not re.fullmatch(r"[^\s;()]+", authserv_id):
        raise ConfigError(f"checks.authserv_id: {authserv_id!r} is not a server's name")
    flags = {}
    for key in ("require_pass", "secret_word"):
        value = table.get(key, False)
        if not isinstance(value, bool):
            raise ConfigError(f"checks.{key}: must be true or false")
        flags[key] = value
    if flags["require_pass"] and authserv_id is None:
        raise ConfigError("checks.require_pass: needs checks.authserv_id")
    size = table.get("max_size", MAX_MAIL_SIZE)
    if not isinstance(size, int) or isinstance(size, bool) or size < 1024:
        raise ConfigError(f"checks.max_size: {size!r} is not a size in bytes (1024 or more)")
    return Checks(authserv_id, flags["require_pass"], flags["secret_word"], size)


def _players(game: object, where: str) -> dict[str, PlayerAddress]:
    """The players of one game; an address given to two players is refused."""
    if not isinstance(game, Mapping) or not isinstance(game.get("players"), Mapping):
        raise ConfigError(f"{where}.players: missing (a table name -> address)")
    default_lang = game.get("lang", "en")
    if default_lang not in LANGS:
        raise ConfigError(f"{where}.lang: {default_lang!r} is not one of {', '.join(LANGS)}")
    out: dict[str, PlayerAddress] = {}
    owner: dict[str, str] = {}
    for name, entry in game["players"].items():
        here = f"{where}.players.{name}"
        lang = default_lang
        if isinstance(entry, Mapping):
            raw = entry.get("address")
            lang = entry.get("lang", default_lang)
            if lang not in LANGS:
                raise ConfigError(f"{here}.lang: {lang!r} is not one of {', '.join(LANGS)}")
        else:
            raw = entry
        listed = [raw] if isinstance(raw, str) else raw
        if not (isinstance(listed, list) and listed and all(isinstance(a, str) for a in listed)):
            raise ConfigError(f"{here}: an address or a list of addresses")
        addresses = []
        for text in listed:
            address = parseaddr(text)[1].lower()
            if "@" not in address:
                raise ConfigError(f"{here}: {text!r} is not a mail address")
            if address in owner and owner[address] != name:
                raise ConfigError(f"{here}: {address} is also {owner[address]}'s address")
            owner[address] = name
            addresses.append(address)
        out[str(name)] = PlayerAddress(str(name), tuple(addresses), str(lang))
    return out


# -- reading mails --------------------------------------------------------------------------
class _TextOfHtml(HTMLParser):
    """The text of an HTML body, a line per block (for mails without a plain text part)."""

    BREAKS = frozenset({"br", "p", "div", "li", "tr", "h1", "h2", "h3", "pre"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script"):
            self.skip += 1
        elif tag in self.BREAKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script"):
            self.skip = max(0, self.skip - 1)
        elif tag in self.BREAKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)

    def text(self) -> str:
        lines = [line.strip() for line in "".join(self.parts).splitlines()]
        return "\n".join(line for line in lines if line)


def _content(part: Message) -> str:
    """A text part decoded: transfer encoding (quoted-printable, base64) and charset; an
    unknown or wrong charset is read as UTF-8, bad bytes replaced."""
    try:
        value = part.get_content() if isinstance(part, EmailMessage) else None
        if isinstance(value, str):
            return value
    except (LookupError, UnicodeError, KeyError, AssertionError):
        pass
    payload = part.get_payload(decode=True)
    if isinstance(payload, bytes):
        return payload.decode("utf-8", errors="replace")
    return str(part.get_payload())


def _body(message: EmailMessage) -> str:
    """The plain text of a mail: its text/plain part (of a multipart, the first one that
    is not an attachment), else its HTML part as text."""
    part = message.get_body(preferencelist=("plain",))
    if part is not None:
        return _content(part)
    part = message.get_body(preferencelist=("html",))
    if part is not None:
        parser = _TextOfHtml()
        parser.feed(_content(part))
        return parser.text()
    return ""


def parse_mail(raw: bytes, max_size: int | None = None) -> IncomingMail:
    """An order mail from its bytes (RFC 5322); headers with encoded words are decoded.
    A mail above ``max_size`` bytes is read for its headers only (its body left empty): it
    is refused unread (``IncomingMail.size``)."""
    too_big = max_size is not None and len(raw) > max_size
    if too_big:
        parsed = email.parser.BytesHeaderParser(policy=email.policy.default).parsebytes(raw)
    else:
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(parsed, EmailMessage)
    message = parsed
    sender = parseaddr(str(message.get("From", "")))[1].lower()
    subject = " ".join(str(message.get("Subject", "")).split())
    body = "" if too_big else _body(message).replace("\r\n", "\n").replace("\r", "\n")
    message_id = str(message.get("Message-ID", "")).strip()
    if not message_id:
        digest = hashlib.sha256(raw).hexdigest()[:32]
        message_id = f"<{digest}@stellwerk.invalid>"
    results = tuple(
        " ".join(str(value).split()) for value in message.get_all("Authentication-Results", [])
    )
    return IncomingMail(sender, subject, body, message_id, results, len(raw))


def read_maildir(path: str | Path, max_size: int | None = None) -> list[IncomingMail]:
    """The new mails of the Maildir at ``path`` (its ``new/``), oldest first; each is moved
    to ``cur/`` and flagged seen once read, so it is read once.  Not a Maildir (no ``new``,
    ``cur``, ``tmp``): ConfigError.  ``max_size``: as :func:`parse_mail`."""
    root = Path(path)
    new, cur = root / "new", root / "cur"
    if not all((root / sub).is_dir() for sub in ("new", "cur", "tmp")):
        raise ConfigError(f"{root}: not a Maildir (needs new/, cur/ and tmp/)")
    names = sorted(
        (entry for entry in os.scandir(new) if entry.is_file() and not entry.name.startswith(".")),
        key=lambda entry: (entry.stat().st_mtime, entry.name),
    )
    mails = []
    for entry in names:
        raw = Path(entry.path).read_bytes()
        mails.append(parse_mail(raw, max_size))
        base = entry.name.split(":", 1)[0]
        os.replace(entry.path, cur / f"{base}:2,S")
    return mails


def deliver_maildir(path: str | Path, messages: list[EmailMessage]) -> list[Path]:
    """Put ``messages`` into the Maildir at ``path`` as new mails (made when missing), as a
    mail server delivers: written to ``tmp/``, then moved to ``new/``.  For the demonstration
    and the tests: the players' order mails without a server."""
    root = Path(path)
    for sub in ("tmp", "new", "cur"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    out = []
    for message in messages:
        name = _unique_name()
        tmp = root / "tmp" / name
        tmp.write_bytes(message.as_bytes())
        os.replace(tmp, root / "new" / name)
        out.append(root / "new" / name)
    return out


_COUNTER = [0]


def _unique_name() -> str:
    """A Maildir file name: time, process, a counter (unique on this machine)."""
    _COUNTER[0] += 1
    return f"{time.time_ns()}.P{os.getpid()}Q{_COUNTER[0]}.stellwerk"


class _Imap(Protocol):
    """What ``read_imap`` uses of ``imaplib.IMAP4``: the status of each command and the
    response lines (bytes, or (header, body) pairs of a fetch), checked where they are read."""

    def login(self, user: str, password: str) -> object: ...
    def select(self, mailbox: str = ...) -> tuple[str, object]: ...
    def search(self, charset: str | None, *criteria: str) -> tuple[str, Sequence[object]]: ...
    def fetch(self, message_set: str, message_parts: str) -> tuple[str, Sequence[object]]: ...
    def logout(self) -> object: ...


def open_imap(server: Server) -> imaplib.IMAP4:
    """A connection to the IMAP server, secured as configured (``ssl``: TLS from the start;
    ``starttls`` never falling back to plain; ``plain``), not yet logged in.  A server fault:
    ``imaplib.IMAP4.error`` or ``OSError``."""
    if server.kind != "imap":
        raise ConfigError(f"incoming.kind is {server.kind!r}, not imap")
    if server.security == "ssl":
        return imaplib.IMAP4_SSL(server.host, server.port, ssl_context=server.tls(), timeout=60)
    connection = imaplib.IMAP4(server.host, server.port, timeout=60)
    if server.security == "starttls":
        connection.starttls(server.tls())
    return connection


def read_imap(config: GMConfig) -> list[IncomingMail]:
    """The unseen mails of the configured IMAP folder, oldest first; fetching marks them
    seen, so each is read once.  A server fault: ``imaplib.IMAP4.error`` or ``OSError``."""
    server = config.incoming
    connection = open_imap(server)
    try:
        return fetch_unseen(connection, server, config.checks.max_size)
    finally:
        with contextlib.suppress(imaplib.IMAP4.error, OSError):
            connection.logout()


def fetch_unseen(
    connection: _Imap, server: Server, max_size: int | None = None
) -> list[IncomingMail]:
    """Log in, select the folder and fetch its unseen mails (``BODY[]``, which sets the
    ``\\Seen`` flag) on an open IMAP connection; ``max_size``: as :func:`parse_mail`."""
    if server.user is not None:
        connection.login(server.user, server.password or "")
    status, _ = connection.select(server.folder)
    if status != "OK":
        raise imaplib.IMAP4.error(f"cannot select the folder {server.folder!r}")
    status, found = connection.search(None, "UNSEEN")
    if status != "OK":
        raise imaplib.IMAP4.error("the search for unseen mails failed")
    numbers = b" ".join(line for line in found if isinstance(line, bytes)).split()
    mails = []
    for number in numbers:
        status, data = connection.fetch(number.decode(), "(BODY[])")
        if status != "OK":
            raise imaplib.IMAP4.error(f"cannot fetch mail {number.decode()}")
        for item in data:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
                mails.append(parse_mail(item[1], max_size))
    return mails


# -- sending --------------------------------------------------------------------------------
def send_each(config: GMConfig, messages: list[EmailMessage]) -> tuple[list[Path], dict[int, str]]:
    """Send ``messages`` as :func:`send` does, each on its own: a message the server refuses
    (``smtplib.SMTPException``) does not stop the others.  Returns the outbox files written
    and, by the message's index, why each one that was not sent failed (all of them when
    the server cannot be reached or refuses the login)."""
    server = config.outgoing
    if server.kind == "outbox":
        try:
            return send(config, messages), {}
        except OSError as error:
            return [], {i: str(error) for i in range(len(messages))}
    failed: dict[int, str] = {}
    try:
        smtp = _connect(config)
        with smtp:
            for index, message in enumerate(messages):
                try:
                    smtp.send_message(message)
                except smtplib.SMTPServerDisconnected as error:
                    failed.update({i: str(error) for i in range(index, len(messages))})
                    break
                except smtplib.SMTPException as error:
                    failed[index] = str(error)
    except (smtplib.SMTPException, OSError) as error:
        reason = str(error) or type(error).__name__
        for index in range(len(messages)):
            failed.setdefault(index, reason)
    return [], failed


def _connect(config: GMConfig) -> smtplib.SMTP:
    """The SMTP connection of the configuration, secured and logged in as configured."""
    server = config.outgoing
    smtp: smtplib.SMTP
    if server.security == "ssl":
        smtp = smtplib.SMTP_SSL(server.host, server.port, timeout=60, context=server.tls())
    else:
        smtp = smtplib.SMTP(server.host, server.port, timeout=60)
    try:
        if server.security == "starttls":
            smtp.starttls(context=server.tls())
        if server.user is not None:
            smtp.login(server.user, server.password or "")
    except BaseException:
        smtp.close()
        raise
    return smtp


def send(config: GMConfig, messages: list[EmailMessage]) -> list[Path]:
    """Send ``messages`` as configured: by SMTP (``ssl``: TLS from the start, ``starttls``,
    or ``plain``; login when a user is set), or into the outbox folder.  Returns the files
    written (none for SMTP).  A server fault: ``smtplib.SMTPException`` or ``OSError``."""
    server = config.outgoing
    if server.kind == "outbox":
        assert server.path is not None
        return write_outbox(server.path, messages)
    with _connect(config) as smtp:
        for message in messages:
            smtp.send_message(message)
    return []


def write_outbox(folder: str | Path, messages: list[EmailMessage]) -> list[Path]:
    """Write each message to ``folder`` (made when missing) as one ``.eml`` file, named by
    a running number, the recipient, the subject and a digest of its Message-ID; an existing
    file is never replaced, and a message whose Message-ID is there already is not written
    again (a report built again after a crash: ``GameMaster.send_reports``).  The file is
    written under a temporary name and renamed, so a file in the outbox is always whole."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    out = []
    number = len(list(root.glob("*.eml")))
    for message in messages:
        tag = hashlib.sha256(str(message.get("Message-ID", "")).encode()).hexdigest()[:10]
        if message.get("Message-ID") and any(root.glob(f"*-{tag}.eml")):
            continue
        recipient = parseaddr(str(message.get("To", "")))[1] or "nobody"
        stem = _slug(f"{recipient} {message.get('Subject', '')}")[:80]
        while True:
            number += 1
            path = root / f"{number:04d}-{stem}-{tag}.eml"
            if not path.exists():
                break
        temporary = root / f".{path.name}.tmp"
        with temporary.open("wb") as handle:
            handle.write(message.as_bytes())
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
        out.append(path)
    return out


def _slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", fold(text)).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9@.]+", "-", ascii_text.lower()).strip("-.")


# -- who wrote it ---------------------------------------------------------------------------
UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}

PLAYER_LINE = re.compile(r"^\s*(?:player|spieler)\s*:\s*(?P<name>.+?)\s*$", re.IGNORECASE)
"""A line by which a mail names the player it is for: ``player: Alice``, ``Spieler: Jürgen``.
The order language (``stellwerk.gm``) reads such a line as no order."""


def fold(name: str) -> str:
    """A name as it is compared: without regard to case, accents or umlauts.  Accents are
    dropped (NFKD, combining marks removed: ``Chloé`` = ``Chloe``, ``Zoë`` = ``Zoe``), ``ß``
    is ``ss`` (case folding), and an umlaut matches both its spelling with ``e`` and its
    plain vowel (``Jürgen`` = ``Juergen`` = ``Jurgen``), for which ``ae``/``oe``/``ue`` fold
    to ``a``/``o``/``u`` -- so two names differing only in such an ``e`` (``Joel``, ``Jol``)
    are the same name too."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFC", name).casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = re.sub(r"([aou])e", r"\1", text)
    return " ".join(text.split())


def claimed_players(mail: IncomingMail) -> list[str]:
    """The players the mail names in ``player:`` lines (subject or body), as written."""
    lines = [mail.subject, *mail.body.splitlines()]
    return [match["name"] for line in lines if (match := PLAYER_LINE.match(line))]


def identify(config: GMConfig, game_key: str, mail: IncomingMail) -> str:
    """The player of ``game_key`` who sent ``mail``, by the sender's address.  Refused
    (:class:`MailRefused`, logged): a game the configuration does not know, an address
    that is no player's of the game, or a ``player:`` line naming another player."""
    try:
        players = config.players(game_key)
    except ConfigError as error:
        _refuse(str(error), mail)
    sender = mail.sender.lower()
    names = [p.name for p in players.values() if sender in p.addresses]
    if not names:
        _refuse(f"the address {sender or '(none)'} is no player's in game {game_key}", mail)
    name = names[0]
    for claimed in claimed_players(mail):
        if fold(claimed) != fold(name):
            _refuse(
                f"a mail from {name} ({sender}) claims to be for player {claimed}: "
                "each player sends their own orders",
                mail,
            )
    return name


# -- sender checks --------------------------------------------------------------------------
AUTH_METHODS = ("dmarc", "dkim", "spf")


@dataclass(frozen=True)
class AuthResult:
    """One result of an ``Authentication-Results`` header: method (``dkim``), result
    (``pass``) and properties (``header.d`` -> ``example.org``), lower case."""

    method: str
    result: str
    properties: Mapping[str, str]


def authentication_results(value: str) -> tuple[str, list[AuthResult]]:
    """An ``Authentication-Results`` header value (RFC 8601) read: its authserv-id (lower
    case) and its results; comments in parentheses are dropped."""
    text = value
    while True:
        stripped = re.sub(r"\([^()]*\)", " ", text)
        if stripped == text:
            break
        text = stripped
    parts = [part.strip() for part in text.split(";")]
    head = parts[0].split()
    authserv_id = head[0].lower() if head else ""
    results = []
    for part in parts[1:]:
        words = part.replace('"', "").split()
        if not words or "=" not in words[0]:
            continue
        method, result = words[0].split("=", 1)
        properties = {}
        for word in words[1:]:
            name, equals, setting = word.partition("=")
            if equals:
                properties[name.lower()] = setting.lower()
        results.append(AuthResult(method.split("/")[0].lower(), result.lower(), properties))
    return authserv_id, results


def _aligned(domain: str | None, from_domain: str) -> bool:
    """Whether ``domain`` vouches for the From domain: the same, or one a subdomain of the
    other (relaxed alignment, as DMARC's default); no domain given: taken as aligned."""
    if not domain:
        return True
    domain = domain.rpartition("@")[2].strip(".")
    return (
        domain == from_domain
        or from_domain.endswith("." + domain)
        or domain.endswith("." + from_domain)
    )


def authentication_refusal(checks: Checks, mail: IncomingMail) -> str | None:
    """Why the receiving server's verdict refuses ``mail``, or None (no such check, or it
    passes).  Only headers whose authserv-id is ``checks.authserv_id`` count: anybody can
    write such a header into his mail, and only the receiving server's own is trusted (it
    must remove headers of its own authserv-id from arriving mails, as RFC 8601 asks).

    Refused: a mail without such a header; ``dmarc=fail``; ``dkim=fail`` of a signature of
    the From domain (``header.d``); ``spf=fail`` of the From domain (``smtp.mailfrom``).
    With ``require_pass`` also a mail without ``dmarc=pass``, ``dkim=pass`` of the From
    domain or ``spf=pass`` of the From domain."""
    if checks.authserv_id is None:
        return None
    trusted = checks.authserv_id.lower()
    results = [
        result
        for value in mail.authentication_results
        for authserv_id, found in [authentication_results(value)]
        if authserv_id == trusted
        for result in found
        if result.method in AUTH_METHODS
    ]
    if not any(authentication_results(v)[0] == trusted for v in mail.authentication_results):
        return f"the mail carries no Authentication-Results of {checks.authserv_id}"
    from_domain = mail.sender.rpartition("@")[2]
    domain_of = {"dkim": "header.d", "spf": "smtp.mailfrom", "dmarc": "header.from"}
    for result in results:
        if result.result == "fail" and _aligned(
            result.properties.get(domain_of[result.method]), from_domain
        ):
            return f"{checks.authserv_id} found {result.method}=fail for {from_domain}"
    vouching = [
        result
        for result in results
        if result.result == "pass"  # a DKIM or SPF pass must name its domain
        and _aligned(result.properties.get(domain_of[result.method],
                                           "" if result.method == "dmarc" else "-"), from_domain)
    ]  # fmt: skip
    if checks.require_pass and not vouching:
        return f"{checks.authserv_id} found no DMARC, DKIM or SPF pass for {from_domain}"
    return None


def size_refusal(checks: Checks, mail: IncomingMail) -> str | None:
    """Why ``mail`` is too large to be read, or None."""
    if mail.size > checks.max_size:
        return f"the mail is larger than {checks.max_size // 1024} KB"
    return None


SECRET_LINE = re.compile(
    r"^\s*(?:secret|geheim|geheimwort)\s*[:=]\s*(?P<word>\S+)\s*$", re.IGNORECASE
)
"""A line carrying the player's secret word: ``secret: WORD``, ``geheim: WORT``."""

SECRET_IN_SUBJECT = re.compile(
    r"(?:^|[\s\[(])(?:secret|geheim|geheimwort)\s*[:=]\s*(?P<word>[^\s\])]+)", re.IGNORECASE
)
"""The secret word in a subject: ``[1849 #g1] orders secret: WORD``."""


def secret_words(mail: IncomingMail) -> list[str]:
    """The secret words a mail carries: in its subject, or in a line of its own text (not in
    a quoted line), lower case."""
    words = [m["word"].lower() for m in SECRET_IN_SUBJECT.finditer(mail.subject)]
    words += [
        m["word"].lower() for line in mail.own_text.splitlines() if (m := SECRET_LINE.match(line))
    ]
    return words


def without_secret(text: str) -> str:
    """``text`` without its secret word lines (they are no orders, and never echoed)."""
    return "".join(line for line in text.splitlines(keepends=True) if not SECRET_LINE.match(line))


GAME_TAG = re.compile(r"\[[^\]#]*#(?P<key>[^\]\s]+)\]")
"""The game's tag in a subject, as reports write it: ``[1849 #KEY]`` (a reply keeps it)."""


def game_of(config: GMConfig, mail: IncomingMail) -> str:
    """The key of the game a mail is for: the game its subject's tag names (``Re: [1849
    #KEY] ...``), else the one game its sender plays in.  Refused (:class:`MailRefused`,
    logged): a tag naming no configured game, a sender in no game, or in several games and
    no tag."""
    for match in GAME_TAG.finditer(mail.subject):
        key = match["key"]
        if key in config.games:
            return key
        _refuse(f"the subject names the game {key}, which this game master does not run", mail)
    sender = mail.sender.lower()
    keys = [
        key
        for key, players in config.games.items()
        if any(sender in p.addresses for p in players.values())
    ]
    if not keys:
        _refuse(f"the address {sender or '(none)'} is no player's in any game", mail)
    if len(keys) > 1:
        _refuse(
            f"{sender} plays in the games {', '.join(keys)}: name the game in the subject "
            f"as [#{keys[0]}]",
            mail,
        )
    return keys[0]


def _refuse(reason: str, mail: IncomingMail) -> NoReturn:
    LOG.warning("mail %s from %s refused: %s", mail.message_id, mail.sender or "-", reason)
    raise MailRefused(reason, mail)
