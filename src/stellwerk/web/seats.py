"""Seats: the secret link of each player, the table's and the spectators' link of a game.

There are no accounts.  Creating or importing a game deals one secret token per player, one
for the table (one shared screen at a table: it acts for whoever is to act, hotseat) and one
for spectators (``secrets.token_urlsafe(24)``, 192 random bits).  Only a SHA-256 of each
token is kept, in the game store's annex under ``"web"`` beside the game (never in the game
file, so an exported 18xx.games file carries no secret): whoever reads the database learns no
link.  A token is looked up **per game**: the seats of game A are never consulted for a request
on game B, so a token of A opens nothing of B.  Hashes are compared with
``hmac.compare_digest``; every seat is compared, so the time taken does not tell which one
matched.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from stellwerk.core.entities import PlayerId
from stellwerk.core.jsondata import JSONObject, JSONValue, is_int

ANNEX = "web"
"""The store annex name of the web app's data about a game."""

PLAYER = "player"
TABLE = "table"
SPECTATOR = "spectator"


def new_token() -> str:
    """A fresh secret token: 24 random bytes, URL-safe (32 characters)."""
    return secrets.token_urlsafe(24)


def digest(token: str) -> str:
    """What is stored of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Access:
    """Who a valid token is for: a player's seat (``player`` is the player id of the game
    file, ``name`` the player's name), the table (every player, on one screen) or the
    spectators (``player`` None for both)."""

    role: str
    player: PlayerId | None = None
    name: str | None = None

    @property
    def is_player(self) -> bool:
        return self.role == PLAYER

    @property
    def is_table(self) -> bool:
        return self.role == TABLE

    @property
    def may_act(self) -> bool:
        """A player's seat or the table: it may send moves (for whom: :meth:`acts_for`)."""
        return self.role in (PLAYER, TABLE)

    def acts_for(self, player: PlayerId | None) -> bool:
        """Whether this link may decide for ``player`` (the one who decides a move): a seat
        for its own player, the table for every player, the spectators for nobody."""
        if player is None:
            return False
        if self.role == TABLE:
            return True
        return self.role == PLAYER and player == self.player

    @property
    def kind(self) -> str:
        """The pages' path of this link: ``play``, ``table`` or ``watch``."""
        return {PLAYER: "play", TABLE: "table"}.get(self.role, "watch")

    def to_json(self) -> JSONObject:
        return {"role": self.role, "player": self.player, "name": self.name}


@dataclass(frozen=True)
class Dealt:
    """The tokens dealt for a new game (shown once, at creation) and the annex record."""

    players: list[tuple[JSONValue, str, str]]
    """(player id, name, token) in seat order."""
    spectator: str
    record: JSONObject
    table: str = ""
    """The table's token (hotseat play on one screen)."""


def deal(players: list[tuple[JSONValue, str]]) -> Dealt:
    """Tokens for ``players`` ((id, name) in seat order), the table and the spectators."""
    dealt = [(pid, name, new_token()) for pid, name in players]
    spectator = new_token()
    table = new_token()
    record: JSONObject = {
        "version": 1,
        "seats": [{"player": pid, "name": name, "hash": digest(t)} for pid, name, t in dealt],
        "spectator": digest(spectator),
        "table": digest(table),
    }
    return Dealt(dealt, spectator, record, table)


def lookup(record: JSONValue, token: str | None) -> Access | None:
    """The access ``token`` gives to the game whose annex record is ``record``; None for a
    missing or wrong token (or a game without seats, e.g. one stored by another front end;
    a seat whose player is no player id -- ``deal`` writes the game file's -- gives none)."""
    if not token or not isinstance(record, dict):
        return None
    wanted = digest(token)
    found: Access | None = None
    seats = record.get("seats", [])
    for seat in seats if isinstance(seats, list) else []:
        if not isinstance(seat, dict):
            continue
        player, name = seat.get("player"), seat.get("name")
        if not (isinstance(player, str) or is_int(player)):
            continue
        if hmac.compare_digest(str(seat.get("hash", "")), wanted) and found is None:
            found = Access(PLAYER, player, name if isinstance(name, str) else None)
    if hmac.compare_digest(str(record.get("table", "")), wanted) and found is None:
        found = Access(TABLE)  # a game seated before tables has no "table": "" never matches
    if hmac.compare_digest(str(record.get("spectator", "")), wanted) and found is None:
        found = Access(SPECTATOR)
    return found
