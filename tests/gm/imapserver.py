"""A throwaway IMAP server for the tests: Debian's dovecot (``dovecot-imapd``), started with a
configuration of its own in a temporary folder on a free localhost port, one mailbox per user
name, any user with the password ``secret``; stopped at the end.  Nothing leaves the machine."""

from __future__ import annotations

import contextlib
import imaplib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

DOVECOT = "/usr/sbin/dovecot"
PASSWORD = "secret"
NOBODY = 65534
"""The mail files' owner: dovecot refuses to serve mail as root."""


@dataclass(frozen=True)
class ImapServer:
    host: str
    port: int
    password: str = PASSWORD

    def client(self, user: str) -> imaplib.IMAP4:
        connection = imaplib.IMAP4(self.host, self.port, timeout=30)
        connection.login(user, self.password)
        return connection

    def append(self, user: str, raw: bytes) -> None:
        """Deliver one mail into ``user``'s INBOX, as a mail server would."""
        connection = self.client(user)
        try:
            status, _ = connection.append("INBOX", None, None, raw)
            assert status == "OK"
        finally:
            connection.logout()

    def unseen(self, user: str) -> int:
        connection = self.client(user)
        try:
            connection.select("INBOX")
            _, found = connection.uid("SEARCH", "UNSEEN")
            return len(b" ".join(x for x in found if isinstance(x, bytes)).split())
        finally:
            connection.logout()


def available() -> bool:
    return os.access(DOVECOT, os.X_OK) and os.geteuid() == 0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def imap_server(folder: Path) -> Iterator[ImapServer]:
    """Dovecot serving IMAP (no TLS) on 127.0.0.1 from ``folder`` until the block ends."""
    folder.mkdir(parents=True, exist_ok=True)
    # a short path of its own: dovecot's sockets need short names, and the mail files belong
    # to nobody, who must reach them (not below pytest's private folder)
    root = Path(tempfile.mkdtemp(prefix="swimap-"))
    os.chmod(root, 0o755)
    for sub in ("run", "state", "home"):
        (root / sub).mkdir()
    home = root / "home"
    os.chmod(home, 0o777)
    port = _free_port()
    config = folder / "dovecot.conf"
    config.write_text(
        f"""protocols = imap
listen = 127.0.0.1
base_dir = {root}/run
state_dir = {root}/state
log_path = {folder}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:{home}/%u/Maildir
passdb {{
  driver = static
  args = password={PASSWORD}
}}
userdb {{
  driver = static
  args = uid={NOBODY} gid={NOBODY} home={home}/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
""",
        encoding="utf-8",
    )
    process = subprocess.Popen([DOVECOT, "-F", "-c", str(config)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.STDOUT)  # fmt: skip
    server = ImapServer("127.0.0.1", port)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                server.client("probe").logout()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    log = folder / "dovecot.log"
                    text = log.read_text(errors="replace") if log.exists() else ""
                    raise RuntimeError(f"dovecot did not start: {text[-2000:]}") from None
                time.sleep(0.1)
        yield server
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(root, ignore_errors=True)
