"""The one place the web app talks to the engine: through the game store (issue 11).

``GameService`` owns one ``GameStore`` (SQLite by default; any ``open_store`` spec) and runs
**every** store call on one worker thread of its own.  Why one thread: an SQLite connection
belongs to the thread that opened it, the store keeps one live engine per game (so one append
costs one ``process``, docs/architecture.md "store/"), and engine work holds the GIL anyway; one
thread keeps that engine warm and needs no lock.  Writes of other processes are still safe:
the store checks the action count under the database's lock and rebuilds an engine another
process moved on.  The asynchronous methods (``create``, ``read``, ``act``, ...) hand their
work to that thread and are what the routes await; ``run`` does that for any function taking
the store, for the pages (``web.pages``) to add their own reads.

Who may act (issue 11, "a player acts only through their own link"): a request carries a
token; the token is looked up among the seats of *this* game only (``seats``); a spectator may
not act; a player may send an action whose ``entity`` is himself or an entity he decides for
(a corporation he presides, directly or through a chain of control, a company or minor he
owns — ``stellwerk.gm.understand.player_of``), judged at the state the action is based on.
Whether it is that entity's turn and whether the action is legal is the engine's to say
(422 with the rule).  Corporations nobody controls (receivership, a loop of control) cannot
be moved by anyone here.

Live updates: ``wait_for_change`` returns when the game's action count differs from a given
one.  It is woken at once by an action of this process (``Notifier``) and otherwise polls the
store's count every ``POLL_SECONDS``, which sees other processes' writes too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from stellwerk.core.errors import GameFileError, IllegalAction
from stellwerk.store import GameMovedOn, GameStore, SqliteStore, StoredGame, StoreError, open_store
from stellwerk.store.log import EngineClass
from stellwerk.web.errors import BadRequest, Forbidden, NoToken
from stellwerk.web.seats import ANNEX, Access, deal, lookup

LOG = logging.getLogger("stellwerk.web")

POLL_SECONDS = 0.3
"""How often a live feed looks at the store's action count (other processes' writes)."""

MAX_NAME = 40
"""Longest player name accepted."""

MAX_PLAYERS = 8

T = TypeVar("T")


def seat_link(key: str, token: str) -> str:
    """The page a player's (or the spectators') secret link opens (the pages' route)."""
    return f"/games/{key}?token={token}"


@dataclass(frozen=True)
class Created:
    """A game just created or imported: its key and the links, shown only now."""

    key: str
    title: str
    players: list[tuple[Any, str, str]]
    """(player id, name, token) in seat order."""
    spectator: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.key,
            "title": self.title,
            "players": [
                {"id": pid, "name": name, "token": token, "link": seat_link(self.key, token)}
                for pid, name, token in self.players
            ],
            "spectator": {"token": self.spectator, "link": seat_link(self.key, self.spectator)},
        }


class Notifier:
    """In-process wake-ups per game: ``notify(key)`` wakes every ``wait(key)`` at once."""

    def __init__(self) -> None:
        self._events: dict[str, asyncio.Event] = {}

    def notify(self, key: str) -> None:
        event = self._events.pop(key, None)
        if event is not None:
            event.set()

    async def wait(self, key: str, timeout: float) -> None:
        """Until ``notify(key)`` or ``timeout`` seconds."""
        event = self._events.setdefault(key, asyncio.Event())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)


def _open(spec: str | None, engine: EngineClass | None) -> GameStore:
    """The store of ``spec``: None an in-memory SQLite database (tests, demonstrations)."""
    if spec is None:
        return SqliteStore(":memory:", engine)
    try:
        return open_store(spec, engine)
    except StoreError as error:
        if spec.startswith(("postgresql://", "postgres://")):
            raise StoreError(f"this stellwerk cannot open PostgreSQL yet: {error}") from error
        raise


def player_names(value: Any) -> list[str]:
    """The ``players`` of a new-game request: 1 to ``MAX_PLAYERS`` distinct non-empty names
    (the title's own player counts are the engine's to check)."""
    if not isinstance(value, list) or not value:
        raise BadRequest("'players' must be a list of player names")
    names = []
    for item in value:
        if not isinstance(item, str) or not item.strip():
            raise BadRequest("every player name must be a non-empty string")
        name = item.strip()
        if len(name) > MAX_NAME:
            raise BadRequest(f"player names have at most {MAX_NAME} characters")
        names.append(name)
    if len(names) > MAX_PLAYERS:
        raise BadRequest(f"at most {MAX_PLAYERS} players")
    if len(set(names)) != len(names):
        raise BadRequest("player names must differ")
    return names


class GameService:
    """Games in a store, seats and tokens, acting on behalf of a token (module docstring)."""

    def __init__(self, store_spec: str | None = None, engine: EngineClass | None = None) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stellwerk-store")
        self._store: GameStore = self._pool.submit(_open, store_spec, engine).result()
        self.store_spec = store_spec
        self.notifier = Notifier()

    # -- plumbing ---------------------------------------------------------------------------
    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(store, *args)`` on the store's thread."""
        future = self._pool.submit(function, self._store, *args)
        return await asyncio.wrap_future(future)

    def close(self) -> None:
        """Close the store (on its thread) and stop the thread."""
        self._pool.submit(self._store.close).result()
        self._pool.shutdown(wait=True)

    # -- the public, asynchronous part ------------------------------------------------------
    async def create(
        self, title: str, names: list[str], options: list[str], seed: int | None
    ) -> Created:
        """A new game of ``title`` (refused for titles still being built, like ``stellwerk
        new``) with a seat per name; ``IllegalAction`` for a wrong title, player count or
        option."""
        return await self.run(_create, title, names, options, seed)

    async def import_file(self, data: dict[str, Any]) -> Created:
        """Store an 18xx.games game file (it must load) with a seat per player of the file."""
        return await self.run(_import_file, data)

    async def import_rails(self, text: str) -> Created:
        """Store the game of a Rails 1835 report (up to its first divergence, if any)."""
        return await self.run(_import_rails, text)

    async def access(self, key: str, token: str | None) -> Access:
        """Whose ``token`` is for game ``key``: ``GameNotFound``, ``NoToken``, ``Forbidden``."""
        return await self.run(_access, key, token)

    async def read(self, key: str, token: str | None, hex_id: str | None = None) -> dict[str, Any]:
        """The game as the API shows it (docs/web.md); ``hex_id`` adds that hex's tile lays."""
        return await self.run(_read, key, token, hex_id)

    async def act(self, key: str, token: str | None, action: Any, base: Any) -> int:
        """Apply ``action`` for the token's player, based on ``base`` actions; the new count.
        ``Forbidden`` (not his), ``GameMovedOn``, ``IllegalAction`` (refused: nothing
        written), ``GameNotFound``, ``BadRequest``."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise BadRequest("'action' must be an object with a 'type'")
        if not isinstance(base, int) or isinstance(base, bool) or base < 0:
            raise BadRequest("'base' must be the action count the action is based on")
        count = await self.run(_act, key, token, action, base)
        self.notifier.notify(key)
        return count

    async def export(self, key: str, token: str | None) -> dict[str, Any]:
        """The 18xx.games game file (any token of the game)."""
        return await self.run(_export, key, token)

    async def count(self, key: str) -> int:
        """The stored action count (``GameNotFound``)."""
        return await self.run(_count, key)

    async def games(self) -> list[dict[str, Any]]:
        """Every game of the web app: id, title, player names, action count, finished."""
        return await self.run(_games)

    async def wait_for_change(self, key: str, seen: int, timeout: float) -> int:
        """The action count once it differs from ``seen``, or after ``timeout`` seconds
        whatever it is (module docstring, "Live updates")."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            count = await self.count(key)
            left = end - loop.time()
            if count != seen or left <= 0:
                return count
            await self.notifier.wait(key, min(POLL_SECONDS, left))


# -- the store thread's work ----------------------------------------------------------------
def _new_key(store: GameStore) -> str:
    """A fresh, unguessable game id (URL-safe)."""
    while True:
        key = secrets.token_urlsafe(9)
        try:
            store.count(key)
        except Exception:
            return key


def _seat(store: GameStore, key: str, data: dict[str, Any]) -> Created:
    players = [(p.get("id"), str(p.get("name"))) for p in data.get("players", [])]
    dealt = deal(players)
    store.annex_put(key, ANNEX, dealt.record)
    return Created(key, str(data.get("title")), dealt.players, dealt.spectator)


def _create(
    store: GameStore, title: str, names: list[str], options: list[str], seed: int | None
) -> Created:
    from stellwerk.api import Game
    from stellwerk.titles.registry import check_playable

    check_playable(title)
    chosen = seed if seed is not None else random.SystemRandom().randrange(1, 2**31)
    players: list[tuple[int | str, str]] = [(i, n) for i, n in enumerate(names, start=1)]
    game = Game.create(title, players=players, options=options, seed=chosen)
    key = _new_key(store)
    data = game.to_file()
    data["id"] = key
    store.create(key, data)
    return _seat(store, key, data)


def _import_file(store: GameStore, data: dict[str, Any]) -> Created:
    key = _new_key(store)
    stored = store.create(key, data)  # GameFileError when it does not load
    return _seat(store, key, stored.data)


def _import_rails(store: GameStore, text: str) -> Created:
    from stellwerk.io.from_rails_report import import_report
    from stellwerk.io.rails_report import ReportError, parse_text

    try:
        parsed = parse_text(text)
    except (ReportError, ValueError) as error:
        raise BadRequest(f"not a Rails 1835 report: {error}") from error
    if not parsed.players or not any(e.__class__.__name__ == "GameIs" for e in parsed.events):
        raise BadRequest("not a Rails 1835 report (no GameIs/PlayerIs lines)")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.report"
        path.write_text(text, encoding="utf-8")
        report = import_report(path)
    if report.game is None:
        raise BadRequest("the report could not be replayed")
    return _import_file(store, report.game.to_file())


def _access(store: GameStore, key: str, token: str | None) -> Access:
    store.count(key)  # GameNotFound first: an unknown game is 404 whatever the token
    if not token:
        raise NoToken("this needs the game's link (a token)")
    found = lookup(store.annex_get(key, ANNEX), token)
    if found is None:
        raise Forbidden("this token is not for this game")
    return found


def decider(game: Any, entity: Any) -> Any:
    """The player id who decides for ``entity`` in ``game`` (None: nobody)."""
    from stellwerk.api import Game
    from stellwerk.gm.understand import player_of

    if isinstance(game, Game):
        return player_of(game, entity)
    return entity  # a stand-in engine of the tests: players act for themselves


def _read(store: GameStore, key: str, token: str | None, hex_id: str | None) -> dict[str, Any]:
    access = _access(store, key, token)
    stored = store.load(key)
    view = stored.view()
    game = stored.game
    out: dict[str, Any] = {
        "id": key,
        "title": stored.data.get("title"),
        "players": [{"id": p.get("id"), "name": p.get("name")} for p in stored.data["players"]],
        "action_count": stored.count,
        "active": view["active"],
        "legal_actions": view["legal"],
        "finished": view["finished"],
        "result": view["result"],
        "game_end_reason": view["game_end_reason"],
        "you": access.to_json(),
    }
    if access.is_player:
        out["yours"] = [e for e in view["active"] if decider(game, e) == access.player]
    lay_hexes = getattr(game, "lay_hexes", None)
    if not view["finished"] and lay_hexes is not None:
        out["lay_hexes"] = lay_hexes()
    if hex_id is not None:
        out["hex"] = hex_id
        out["hex_lays"] = [a for a in game.legal_actions(hex_id) if a.get("type") == "lay_tile"]
    return out


def _act(store: GameStore, key: str, token: str | None, action: dict[str, Any], base: int) -> int:
    access = _access(store, key, token)
    if not access.is_player:
        raise Forbidden("spectators cannot act")
    stored = store.load(key)
    if stored.count != base:
        raise GameMovedOn(key, base, stored.count)
    _check_playable(stored)
    entity = action.get("entity")
    if entity is None or decider(stored.game, entity) != access.player:
        raise Forbidden(f"{access.name} may not act for {entity!r}")
    if "user" in action and action["user"] != access.player:
        action = {k: v for k, v in action.items() if k != "user"}
    after: StoredGame = store.append(key, action, base)
    return after.count


def _check_playable(stored: StoredGame) -> None:
    """Live play is refused for a title still being built (its imported games can be
    watched)."""
    from stellwerk.titles.registry import check_playable

    title = stored.data.get("title")
    if isinstance(title, str):
        check_playable(title)


def _export(store: GameStore, key: str, token: str | None) -> dict[str, Any]:
    _access(store, key, token)
    return store.export(key)


def _count(store: GameStore, key: str) -> int:
    return store.count(key)


def _games(store: GameStore) -> list[dict[str, Any]]:
    out = []
    keys = store.keys()
    for key in keys:
        try:
            if store.annex_get(key, ANNEX) is None:
                continue  # stored by another front end: not the web app's
            data = store.load(key).data
        except (GameFileError, IllegalAction):
            continue
        out.append(
            {
                "id": key,
                "title": data.get("title"),
                "players": [p.get("name") for p in data.get("players", [])],
                "action_count": len(data.get("actions", [])),
                "finished": data.get("status") == "finished",
            }
        )
    return out
