"""A throwaway PostgreSQL server for the tests (the ``postgres_server`` fixture in
tests/conftest.py): Debian's binaries, a data folder in /tmp, trust authentication, TCP on
127.0.0.1 at a free port and the Unix socket in the same folder.

PostgreSQL refuses to run as root; then ``initdb`` and ``pg_ctl`` run as the ``postgres`` user
(which Debian's package makes) through ``runuser``.  ``fsync`` is off: the tests kill clients,
never this server, and it is thrown away afterwards.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SUPERUSER = "postgres"
"""The database superuser (trust authentication, no password)."""


def find_bindir() -> Path | None:
    """The folder of ``initdb``/``pg_ctl``: ``$STELLWERK_PG_BIN``, Debian's newest
    ``/usr/lib/postgresql/N/bin``, or ``PATH``; ``None`` when there is none."""
    given = os.environ.get("STELLWERK_PG_BIN")
    if given:
        return Path(given) if (Path(given) / "initdb").exists() else None
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda path: (
            int(Path(path).parent.parent.name) if Path(path).parent.parent.name.isdigit() else 0
        ),
    )
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class PostgresServer:
    """One server: ``start()``, ``url(db)``, ``new_database()``, ``stop()``."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.folder = Path(tempfile.mkdtemp(prefix="stellwerk-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self._databases = 0
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")  # KeyError: no such user (Debian's package has it)
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self._as_user = ["runuser", "-u", "postgres", "--"]

    def _run(self, tool: str, *args: str) -> None:
        command = [*self._as_user, str(self.bindir / tool), *args]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}{tail}")

    def start(self) -> None:
        self._run(
            "initdb", "-D", str(self.data), "--auth=trust", "-U", SUPERUSER,
            "-E", "UTF8", "--locale=C.UTF-8", "-N",
        )  # fmt: skip
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} "
            "-c fsync=off -c shared_buffers=16MB -c max_connections=60"
        )
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"),
            "-w", "-t", "60", "-o", options, "start",
        )  # fmt: skip

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """The URL of a new, empty database of its own: a schema of the server's database
        that the URL sets as the search path (a schema is made in milliseconds, a database
        in seconds; the store sees no other tables)."""
        import psycopg

        self._databases += 1
        name = f"t{os.getpid()}_{self._databases}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f'CREATE SCHEMA "{name}"')
        return f"{self.url()}?options=-csearch_path%3D{name}"

    def drop_database(self, url: str) -> None:
        """Drop what ``new_database`` made."""
        import psycopg

        name = url.rsplit("%3D", 1)[1]
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
