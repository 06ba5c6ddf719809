"""The secret that signs the pages' form tokens, shared by every server process of one site
(docs/web.md, "Security").

Several ``stellwerk serve`` processes on one database behind one address must accept each
other's forms: a page fetched from one process may be posted to another.  So the secret is
not made per process.  Where it comes from, first found wins:

1. ``--secret-file PATH`` of ``stellwerk serve``: the file's content (surrounding white space
   stripped);
2. the environment variable ``STELLWERK_SECRET``;
3. the store: made once (32 random bytes) and kept in the store's site table under
   ``SITE_NAME`` (``GameStore.site_setdefault``, atomic, so of several processes starting at
   once on one database all take the first one's).

A given secret must have at least ``MIN_LENGTH`` bytes (a short one is refused, not padded).
The secret is never written to a game file, a log or an answer: the store keeps it beside the
games, and the messages here name where it came from, never what it is.
"""

from __future__ import annotations

import secrets
import stat
from collections.abc import Mapping
from pathlib import Path

from stellwerk.store import GameStore, StoreError

ENV = "STELLWERK_SECRET"
"""The environment variable an operator may give the secret in."""

SITE_NAME = "web-secret"
"""Under this name the store keeps the secret it made (hex text)."""

MIN_LENGTH = 16
"""Fewest bytes of a given secret."""


class SecretError(ValueError):
    """A given secret that cannot be used (the message says where it came from and why)."""


def _checked(value: bytes, source: str) -> bytes:
    value = value.strip()
    if len(value) < MIN_LENGTH:
        raise SecretError(f"{source}: the secret must have at least {MIN_LENGTH} bytes")
    return value


def given_secret(environ: Mapping[str, str], secret_file: Path | None = None) -> bytes | None:
    """The operator's secret: ``secret_file``'s content, else ``environ[ENV]``, else None
    (the store's then, ``stored_secret``).  ``SecretError`` for an unreadable file or a
    secret shorter than ``MIN_LENGTH``."""
    if secret_file is not None:
        try:
            raw = secret_file.read_bytes()
        except OSError as error:
            raise SecretError(f"{secret_file}: {error.strerror or error}") from error
        return _checked(raw, str(secret_file))
    value = environ.get(ENV)
    if value is None or value == "":
        return None
    return _checked(value.encode("utf-8"), ENV)


def readable_by_others(path: Path) -> bool:
    """Whether a secret file may be read by its group or anyone (the server warns)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return bool(mode & (stat.S_IRGRP | stat.S_IROTH))


def stored_secret(store: GameStore) -> bytes:
    """The store's secret, made now (32 random bytes) if it has none
    (``GameStore.site_setdefault``: all processes on one database agree).  ``StoreError``
    for a store that keeps nothing beside its games (the JSON files)."""
    kept = store.site_setdefault(SITE_NAME, secrets.token_hex(32))
    if not isinstance(kept, str):
        raise StoreError(f"the store's {SITE_NAME!r} is not a secret")
    try:
        return bytes.fromhex(kept)
    except ValueError as error:
        raise StoreError(f"the store's {SITE_NAME!r} is not a secret") from error
