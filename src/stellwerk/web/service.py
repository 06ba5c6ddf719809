"""The one place the web app talks to the engine: through the game store.

``GameService`` owns one ``GameStore`` (SQLite by default; any ``open_store`` spec) and runs
**every** store call on one worker thread of its own.  Why one thread: an SQLite connection
belongs to the thread that opened it, the store keeps one live engine per game (so one append
costs one ``process``, docs/architecture.md "store/"), and engine work holds the GIL anyway; one
thread keeps that engine warm and needs no lock.  Writes of other processes are still safe:
the store checks the action count under the database's lock and rebuilds an engine another
process moved on.  The asynchronous methods (``create``, ``read``, ``act``, ...) hand their
work to that thread and are what the routes await; ``run`` does that for any function taking
the store, for the pages (``web.pages``) to add their own reads.

Who may act ("a player acts only through their own link"): a request carries a
token; the token is looked up among the seats of *this* game only (``seats``); a spectator may
not act; a player may send an action whose ``entity`` is himself or an entity he decides for
(a corporation he presides, directly or through a chain of control, a company or minor he
owns — ``stellwerk.gm.understand.player_of``), judged at the state the action is based on.
Whether it is that entity's turn and whether the action is legal is the engine's to say
(422 with the rule).  Corporations nobody controls (receivership, a loop of control) cannot
be moved by anyone here.

Live updates: ``wait_for_change`` returns when the game's action count differs from a given
one, ``wait_for_news`` also when its open trade offers (``web.offers``, kept in the store's
annex) do.  The feeds of one game share one ``Watch``, whose poller reads the store's count
and the offers' ``stamp`` every ``POLL_SECONDS`` (which sees other processes' writes too) and
at once after an action, an offer or an answer to one of this process (``Notifier``): one
count query and one annex read per game and interval however many watch.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import secrets
import tempfile
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, TypeVar, TypeVarTuple

from stellwerk.core.entities import PlayerId
from stellwerk.core.errors import GameFileError, IllegalAction
from stellwerk.core.jsondata import JSONObject, JSONValue, is_int, optional_number
from stellwerk.io.engine import EngineGame
from stellwerk.io.undo import MESSAGE, REDO, UNDO, live_mask, next_id
from stellwerk.store import (
    GameMovedOn,
    GameNotFound,
    GameStore,
    SqliteStore,
    StoredGame,
    StoreError,
    game_view,
    open_store,
)
from stellwerk.store.base import View
from stellwerk.store.log import EngineClass, action_count, actions_of, players_of
from stellwerk.web import offers, standing
from stellwerk.web.deadlines import USER as DEADLINE_USER
from stellwerk.web.deadlines import Settled, default_for, due_at
from stellwerk.web.errors import BadRequest, Forbidden, NoToken
from stellwerk.web.seats import ANNEX, Access, deal, lookup
from stellwerk.web.secret import stored_secret

if TYPE_CHECKING:
    from stellwerk.api import Game
    from stellwerk.io.engine import EngineGame

LOG = logging.getLogger("stellwerk.web")

POLL_SECONDS = 0.3
"""How often a live feed looks at the store's action count (other processes' writes)."""

MAX_NAME = 40
"""Longest player name accepted."""

MAX_PLAYERS = 8

NOT_OVER_THE_WEB = {
    "end_game": "one player cannot end the game for all: end_game is not taken over the web",
    "log": "log lines are the game's own; players write messages",
}
"""Site actions a single player's link may not send (403), with the reason."""

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


def seat_link(key: str, token: str) -> str:
    """The page a player's (the table's, the spectators') secret link opens (the pages'
    route)."""
    return f"/games/{key}?token={token}"


@dataclass(frozen=True)
class Created:
    """A game just created or imported: its key and the links, shown only now."""

    key: str
    title: str
    players: list[tuple[JSONValue, str, str]]
    """(player id, name, token) in seat order."""
    spectator: str
    table: str = ""
    """The table's token: one screen that acts for whoever is to act."""

    def to_json(self) -> JSONObject:
        return {
            "id": self.key,
            "title": self.title,
            "players": [
                {"id": pid, "name": name, "token": token, "link": seat_link(self.key, token)}
                for pid, name, token in self.players
            ],
            "spectator": {"token": self.spectator, "link": seat_link(self.key, self.spectator)},
            "table": {"token": self.table, "link": seat_link(self.key, self.table)},
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


@dataclass
class Watch:
    """The action count and the open offers' stamp (``web.offers.stamp``) of a game some
    live feeds watch; ``changed`` is set (and replaced) whenever either changes."""

    count: int = -1
    """-1 until ``ready``."""
    offers: str = ""
    users: int = 0
    ready: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    changed: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


def _open(spec: str | None, engine: EngineClass | None) -> GameStore:
    """The store of ``spec``: None an in-memory SQLite database (tests, demonstrations)."""
    if spec is None:
        return SqliteStore(":memory:", engine)
    return open_store(spec, engine)


class GameEntry(TypedDict):
    """A game in the web app's list (``GET /api/games``)."""

    id: str
    title: JSONValue
    players: list[JSONValue]
    action_count: int
    finished: bool
    to_act: list[JSONValue]
    """The names of the players who decide now (none when the game is over)."""


def player_names(value: JSONValue) -> list[str]:
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


KEPT_GAMES = 64
"""How many games' engines a process keeps in memory (the most recently read ones); an older
game is loaded again from the store when asked for."""


class Desk:
    """The store thread's own state: the store, the seats of each game read so far (they never
    change once dealt) and the last ``StoredGame`` seen of each game.  That one is reused
    while the stored action count is the same (the log only grows, so an equal count is the
    same game): reading a game then costs one count query, not the whole log, and its view
    is computed once per count.  At most ``kept`` games are held (least recently read
    goes first, with its view and last mover), so a server with many games keeps a bounded
    memory."""

    def __init__(
        self, store: GameStore, clock: Callable[[], float] = time.time, kept: int = KEPT_GAMES
    ) -> None:
        self.store = store
        self.clock = clock
        self.kept = kept
        self.seats: dict[str, JSONValue] = {}
        """Each game's seats: its annex record (``web.seats``), once read."""
        self.games: OrderedDict[str, StoredGame] = OrderedDict()
        self.views: dict[str, View] = {}
        self.movers: dict[str, tuple[int, JSONValue]] = {}

    def stored(self, key: str) -> StoredGame:
        """The stored game ``key`` at its current count (``GameNotFound``)."""
        kept = self.games.get(key)
        if kept is not None and kept.count == self.store.count(key):
            self.games.move_to_end(key)
            return kept
        stored = self.games[key] = self.store.load(key)
        self.games.move_to_end(key)
        while len(self.games) > self.kept:
            old, _ = self.games.popitem(last=False)
            self.views.pop(old, None)
            self.movers.pop(old, None)
        return stored

    def view(self, key: str, stored: StoredGame) -> View:
        """``game_view`` of ``stored``, computed once per count.  Not through
        ``StoredGame.view``: that also writes the view to the store's cache (one more
        committed write per action), which the web app never reads back — it needs the
        engine itself for the players' choices anyway."""
        kept = self.views.get(key)
        if kept is None or kept.get("count") != stored.count:
            kept = self.views[key] = game_view(stored.game, stored.count)
        return kept

    def mover(self, key: str, stored: StoredGame) -> JSONValue:
        """``last_mover`` of ``stored``, computed once per count (it walks the whole log)."""
        kept = self.movers.get(key)
        if kept is None or kept[0] != stored.count:
            kept = self.movers[key] = (stored.count, last_mover(stored))
        return kept[1]

    def seats_of(self, key: str) -> JSONValue:
        """The seats record of game ``key`` (``web.seats.deal``), None for a game the web
        app did not seat."""
        if key not in self.seats:
            record = self.store.annex_get(key, ANNEX)
            if record is None:
                return None
            self.seats[key] = record
        return self.seats[key]


class GameService:
    """Games in a store, seats and tokens, acting on behalf of a token (module docstring)."""

    def __init__(
        self,
        store_spec: str | None = None,
        engine: EngineClass | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.clock = clock
        """Seconds since the epoch: the ``created_at`` of actions and deadlines."""
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stellwerk-store")
        self._store: GameStore = self._pool.submit(_open, store_spec, engine).result()
        self._desk = Desk(self._store, clock)
        self.store_spec = store_spec
        self.notifier = Notifier()
        self._watches: dict[str, Watch] = {}

    # -- plumbing ---------------------------------------------------------------------------
    async def run(self, function: Callable[[GameStore, *Ts], T], *args: *Ts) -> T:
        """``function(store, *args)`` on the store's thread."""
        future = self._pool.submit(function, self._store, *args)
        return await asyncio.wrap_future(future)

    async def with_game(
        self,
        key: str,
        token: str | None,
        function: Callable[[StoredGame, Access, *Ts], T],
        *args: *Ts,
    ) -> T:
        """``function(stored, access, *args)`` on the store's thread, after checking the
        token for game ``key`` (``GameNotFound``, ``NoToken``, ``Forbidden``): ``stored`` is
        the ``StoredGame`` at the current count (``stored.game`` the engine), ``access``
        whose token it is.  For the pages' pictures and words: look, never change (change a
        game with ``act``)."""
        return await self._work(_with_game, key, token, function, *args)

    async def _work(self, function: Callable[[Desk, *Ts], T], *args: *Ts) -> T:
        """``function(desk, *args)`` on the store's thread."""
        future = self._pool.submit(function, self._desk, *args)
        return await asyncio.wrap_future(future)

    def shared_secret(self) -> bytes:
        """The store's secret for the pages' form tokens (``web.secret.stored_secret``: made
        once per database, so every process on it agrees); waits for the store's thread.
        ``StoreError`` for a store that keeps nothing beside its games."""
        return self._pool.submit(stored_secret, self._store).result()

    def close(self) -> None:
        """Close the store (on its thread) and stop the thread."""
        self._pool.submit(self._store.close).result()
        self._pool.shutdown(wait=True)

    # -- the public, asynchronous part ------------------------------------------------------
    async def create(
        self,
        title: str,
        names: list[str],
        options: list[str],
        seed: int | None,
        deadline: int | None = None,
    ) -> Created:
        """A new game of ``title`` with a seat per name; ``IllegalAction`` for a wrong title,
        player count or option.  ``deadline``: seconds per decision (``web.deadlines``)."""
        return await self._work(_create, title, names, options, seed, deadline)

    async def answer_offer(self, key: str, token: str | None, offer: str, accept: bool) -> int:
        """Accept, decline or withdraw an open trade offer (``web.offers``); the count after.
        ``OfferGone`` (410), ``Forbidden``, ``IllegalAction`` (the purchase is refused now:
        nothing written), ``GameNotFound``."""
        count = await self._work(_answer, key, token, offer, accept)
        self.notifier.notify(key)
        return count

    async def open_offers(self, key: str) -> list[offers.Offer]:
        """The open trade offers of game ``key``."""
        return await self._work(_offers, key)

    async def settle(self, key: str, token: str | None) -> JSONObject:
        """The open decision's default order once its deadline passed (``web.deadlines``),
        triggered by a player of the game."""
        settled = await self._work(_settle, key, token)
        self.notifier.notify(key)
        return settled.to_json()

    async def settle_due(self) -> list[str]:
        """Settle every decision whose deadline passed, in every game (the server's ticker);
        the keys of the games that moved."""
        moved = await self._work(_settle_due)
        for key in moved:
            self.notifier.notify(key)
        return moved

    async def import_file(self, data: JSONObject) -> Created:
        """Store an 18xx.games game file (it must load) with a seat per player of the file."""
        return await self._work(_import_file, data)

    async def import_rails(self, text: str) -> Created:
        """Store the game of a Rails 1835 report (up to its first divergence, if any)."""
        return await self._work(_import_rails, text)

    async def access(self, key: str, token: str | None) -> Access:
        """Whose ``token`` is for game ``key``: ``GameNotFound``, ``NoToken``, ``Forbidden``."""
        return await self._work(_access, key, token)

    async def read(self, key: str, token: str | None, hex_id: str | None = None) -> JSONObject:
        """The game as the API shows it (docs/web.md); ``hex_id`` adds that hex's tile lays."""
        return await self._work(_read, key, token, hex_id)

    async def act(
        self, key: str, token: str | None, action: JSONValue, base: JSONValue
    ) -> tuple[int, int]:
        """Apply ``action`` for the token's player, based on ``base`` actions: the count
        right after it (its position) and the count after the standing orders it woke
        (``web.standing``; the same when none acted).
        ``Forbidden`` (not his), ``GameMovedOn``, ``IllegalAction`` (refused: nothing
        written), ``GameNotFound``, ``BadRequest``; ``OfferMade`` when the purchase needs
        the seller's consent (``web.offers``: offered, not made)."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise BadRequest("'action' must be an object with a 'type'")
        if not is_int(base) or base < 0:
            raise BadRequest("'base' must be the action count the action is based on")
        try:
            counts = await self._work(_act, key, token, action, base)
        finally:  # an offer (``OfferMade``) changes what the feeds watch too
            self.notifier.notify(key)
        return counts

    async def export(self, key: str, token: str | None) -> JSONObject:
        """The 18xx.games game file (any token of the game)."""
        return await self._work(_export, key, token)

    async def count(self, key: str) -> int:
        """The stored action count (``GameNotFound``)."""
        return await self._work(_count, key)

    async def games(self) -> list[GameEntry]:
        """Every game of the web app: id, title, player names, action count, finished, who
        is to act."""
        return await self._work(_games)

    async def news(self, key: str) -> tuple[int, str]:
        """The stored action count and the open offers' stamp (``web.offers.stamp``) of
        game ``key`` (``GameNotFound``)."""
        return await self._work(_news, key)

    async def wait_for_change(self, key: str, seen: int, timeout: float) -> int:
        """The action count once it differs from ``seen``, or after ``timeout`` seconds
        whatever it is (module docstring, "Live updates").  All the waiters of one game
        share one ``Watch``: one count query per ``POLL_SECONDS`` however many watch."""
        count, _ = await self._wait(key, seen, None, timeout)
        return count

    async def wait_for_news(
        self, key: str, seen: int, seen_offers: str, timeout: float
    ) -> tuple[int, str]:
        """The action count and the open offers' stamp once either differs from ``seen``
        and ``seen_offers``, or after ``timeout`` seconds whatever they are; on the same
        ``Watch`` as ``wait_for_change``."""
        return await self._wait(key, seen, seen_offers, timeout)

    async def _wait(
        self, key: str, seen: int, seen_offers: str | None, timeout: float
    ) -> tuple[int, str]:
        """Until the count differs from ``seen`` or (unless None) the offers' stamp from
        ``seen_offers``, or ``timeout`` seconds passed."""
        watch = self._watches.get(key)
        if watch is None:
            watch = self._watches[key] = Watch()
            watch.task = asyncio.create_task(self._poll(key, watch))
        watch.users += 1
        try:
            await watch.ready.wait()
            loop = asyncio.get_running_loop()
            end = loop.time() + timeout
            while (
                watch.count == seen
                and seen_offers in (None, watch.offers)
                and (left := end - loop.time()) > 0
            ):
                changed = watch.changed
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), left)
            return watch.count, watch.offers
        finally:
            watch.users -= 1
            if watch.users == 0 and self._watches.get(key) is watch:
                del self._watches[key]
                if watch.task is not None:
                    watch.task.cancel()

    async def _poll(self, key: str, watch: Watch) -> None:
        """A watched game's count and open offers: looked at every ``POLL_SECONDS`` and at
        once after an action, offer or answer of this process."""
        while True:
            try:
                count, stamp = await self.news(key)
            except Exception:
                LOG.exception("%s: the live feed cannot read the action count", key)
                count, stamp = watch.count, watch.offers
            if (count, stamp) != (watch.count, watch.offers):
                watch.count, watch.offers = count, stamp
                watch.changed.set()
                watch.changed = asyncio.Event()
            watch.ready.set()
            await self.notifier.wait(key, POLL_SECONDS)


# -- the store thread's work ----------------------------------------------------------------
def _new_key(store: GameStore) -> str:
    """A fresh, unguessable game id (URL-safe)."""
    while True:
        key = secrets.token_urlsafe(9)
        try:
            store.count(key)
        except GameNotFound:
            return key


def _seat(desk: Desk, key: str, data: JSONObject, deadline: int | None = None) -> Created:
    players = [(p.get("id"), str(p.get("name"))) for p in players_of(data)]
    dealt = deal(players)
    dealt.record["created_at"] = int(desk.clock())
    if deadline is not None:
        dealt.record["deadline_seconds"] = deadline
    desk.store.annex_put(key, ANNEX, dealt.record)
    desk.seats[key] = dealt.record
    return Created(key, str(data.get("title")), dealt.players, dealt.spectator, dealt.table)


def _create(
    desk: Desk,
    title: str,
    names: list[str],
    options: list[str],
    seed: int | None,
    deadline: int | None,
) -> Created:
    from stellwerk.api import Game

    chosen = seed if seed is not None else random.SystemRandom().randrange(1, 2**31)
    players: list[tuple[int | str, str]] = [(i, n) for i, n in enumerate(names, start=1)]
    game = Game.create(title, players=players, options=options, seed=chosen)
    key = _new_key(desk.store)
    data = game.to_file()
    data["id"] = key
    desk.games[key] = desk.store.create(key, data)
    return _seat(desk, key, data, deadline)


def _import_file(desk: Desk, data: JSONObject) -> Created:
    """An imported file's players pass the checks of a new game's (``player_names``): a
    name from a file is shown on every page and in every link list like a typed one."""
    players = data.get("players")
    if not isinstance(players, list):
        raise BadRequest("the game file has no list of players")
    names: list[JSONValue] = [p.get("name") if isinstance(p, dict) else None for p in players]
    player_names(names)
    key = _new_key(desk.store)
    stored = desk.games[key] = desk.store.create(key, data)  # GameFileError: does not load
    return _seat(desk, key, stored.data)


def _import_rails(desk: Desk, text: str) -> Created:
    from stellwerk.importers.rails import import_report
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
    return _import_file(desk, report.game.to_file())


def _access(desk: Desk, key: str, token: str | None) -> Access:
    desk.store.count(key)  # GameNotFound first: an unknown game is 404 whatever the token
    if not token:
        raise NoToken("this needs the game's link (a token)")
    found = lookup(desk.seats_of(key), token)
    if found is None:
        raise Forbidden("this token is not for this game")
    return found


def _with_game(
    desk: Desk,
    key: str,
    token: str | None,
    function: Callable[[StoredGame, Access, *Ts], T],
    *args: *Ts,
) -> T:
    access = _access(desk, key, token)
    return function(desk.stored(key), access, *args)


def decider(game: EngineGame, entity: JSONValue) -> PlayerId | None:
    """The player id who decides for ``entity`` in ``game`` (None: nobody, or no entity)."""
    from stellwerk.api import Game
    from stellwerk.gm.understand import player_of

    if not (isinstance(entity, str) or is_int(entity)):
        return None
    if isinstance(game, Game):
        return player_of(game, entity)
    return entity  # a stand-in engine of the tests: players act for themselves


def _read(desk: Desk, key: str, token: str | None, hex_id: str | None) -> JSONObject:
    access = _access(desk, key, token)
    stored = desk.stored(key)
    view = desk.view(key, stored)
    game = stored.game
    out: JSONObject = {
        "id": key,
        "title": stored.data.get("title"),
        "players": [{"id": p.get("id"), "name": p.get("name")} for p in players_of(stored.data)],
        "action_count": stored.count,
        "active": [*view["active"]],
        "legal_actions": [*view["legal"]],
        "finished": view["finished"],
        "result": {**view["result"]},
        "game_end_reason": view["game_end_reason"],
        "you": access.to_json(),
    }
    seats = desk.seats_of(key)
    due = due_at(stored, seats)
    if due is not None and not view["finished"] and isinstance(seats, dict):
        out["deadline"] = {"due": due, "seconds": optional_number(seats, "deadline_seconds")}
    if access.may_act:
        out["yours"] = [e for e in view["active"] if access.acts_for(decider(game, e))]
        out["may_undo"] = may_undo(access, desk.mover(key, stored))
    out["offers"] = [o.to_json() for o in offers.offers(desk.store, key, stored.count)]
    lay_hexes = getattr(game, "lay_hexes", None)
    if not view["finished"] and lay_hexes is not None:
        hexes: list[str] = lay_hexes()
        out["lay_hexes"] = [*hexes]
    if hex_id is not None:
        out["hex"] = hex_id
        lays: list[JSONValue] = [
            a for a in game.legal_actions(hex_id) if a.get("type") == "lay_tile"
        ]
        out["hex_lays"] = lays
    return out


def _act(desk: Desk, key: str, token: str | None, action: JSONObject, base: int) -> tuple[int, int]:
    access = _access(desk, key, token)
    if not access.may_act:
        raise Forbidden("spectators cannot act")
    stored = desk.stored(key)
    if stored.count != base:
        raise GameMovedOn(key, base, stored.count)
    if action["type"] in NOT_OVER_THE_WEB:
        raise Forbidden(NOT_OVER_THE_WEB[action["type"]])
    entity = action.get("entity")
    who = decider(stored.game, entity)
    if entity is None or not access.acts_for(who):
        raise Forbidden(f"{access.name or access.kind} may not act for {entity!r}")
    if action["type"] in (UNDO, REDO):
        check_own_moves(stored, action, access)
    user = access.player if access.is_player else who  # the table: the player who decides
    if access.is_player and user is not None:  # at the table everybody agrees in person
        seller = offers.consent_of(_api_game(stored), action, user)
        if seller is not None:
            _api_game(stored).verify(action)  # a refused purchase is refused, not offered
            offer = offers.make(desk.store, key, action, base, user, seller)
            raise offers.OfferMade(offer, "offered: the seller's player decides")
    action = {**action, "user": user, "created_at": int(desk.clock())}
    after = desk.games[key] = desk.store.append(key, action, base)
    return after.count, standing.after_action(desk, key, action, after.count)


def _api_game(stored: StoredGame) -> Game:
    from stellwerk.api import Game

    game = stored.game
    if not isinstance(game, Game):
        raise BadRequest("this game has no trades to offer")
    return game


def _answer(desk: Desk, key: str, token: str | None, offer_id: str, accept: bool) -> int:
    """The seller's player accepts (the purchase is made as the buyer's move) or declines
    an open offer; its buyer may withdraw it (``accept`` False).  The count afterwards."""
    access = _access(desk, key, token)
    stored = desk.stored(key)
    open_offers = offers.offers(desk.store, key, stored.count)
    offer = next((o for o in open_offers if o.id == offer_id), None)
    if offer is None:
        raise offers.OfferGone("this offer is no longer open (the game moved on, or it was "
                               "answered or withdrawn)")  # fmt: skip
    may_answer = access.is_player and access.player == offer.seller
    may_withdraw = access.is_player and access.player == offer.buyer and not accept
    if not (may_answer or may_withdraw):
        raise Forbidden("only the seller's player answers an offer, its buyer withdraws it")
    offers.save(desk.store, key, [o for o in open_offers if o.id != offer_id])
    if not accept:
        return stored.count
    action = {**offer.action, "user": offer.buyer, "created_at": int(desk.clock())}
    after = desk.games[key] = desk.store.append(key, action, offer.base)
    return standing.after_action(desk, key, action, after.count)


def check_own_moves(stored: StoredGame, control: JSONObject, access: Access) -> None:
    """An ``undo`` or ``redo`` takes back or restores only the player's own moves: every
    action whose liveness it changes (common rules §3.4) must have been sent by him (its
    ``user``, which the web app records on every action; for an action without one, e.g.
    of an imported file, the player deciding for its entity now).  Otherwise 403: taking
    back another player's move is acting for him.  The table acts for every player, so it
    may take back any move.  Whether there is anything to undo or redo is the engine's to
    say (422)."""
    if access.is_table:
        return
    actions = actions_of(stored.data)
    before = live_mask(actions)
    try:
        after = live_mask([*actions, {**control, "id": next_id(actions)}])
    except GameFileError:
        return  # not a valid undo/redo at all: the engine refuses it with the rule
    for action, was, now in zip(actions, before, after, strict=False):
        if was == now or action.get("type") == MESSAGE:
            continue
        user = action.get("user")
        mover = user if user is not None else decider(stored.game, action.get("entity"))
        if mover != access.player:
            raise Forbidden(f"{access.name} may not {control['type']} another player's move")


def undo_of(access: Access, mover: JSONValue = None) -> JSONObject:
    """The ``undo`` a player sends to take back his last move (common rules §3.4: without
    ``action_id``, the last live action that is not a message); the table sends it for the
    player who made the last move, ``mover``."""
    entity = access.player if access.is_player else mover
    return {"type": UNDO, "entity": entity, "entity_type": "player"}


def last_mover(stored: StoredGame) -> JSONValue:
    """Who made the game's last live move that is not a message (the one an ``undo`` without
    ``action_id`` takes back, common rules §3.4): its ``user``, or for an action without one
    (an imported file) the player deciding for its entity now; None when there is none."""
    actions = actions_of(stored.data)
    try:
        live = live_mask(actions)
    except GameFileError:
        return None
    for action, on in zip(reversed(actions), reversed(live), strict=True):
        if on and action.get("type") != MESSAGE:
            user = action.get("user")
            return user if user is not None else decider(stored.game, action.get("entity"))
    return None


def may_undo(access: Access, mover: JSONValue) -> bool:
    """Whether the player may take back the game's last move now, ``mover``'s
    (``last_mover``): it is his own, sent by him -- so nobody else acted since, neither
    another player nor a deadline's default order.  What ``check_own_moves`` allows of an
    ``undo`` without ``action_id``, which takes back just that move.  Why no more: a link
    acts only for its player, and taking back another's move would be acting for that one;
    the engine has no consent of the other players to ask for, so undo stops at their
    moves.  The game page offers exactly this (and the API's ``may_undo`` says it); the
    undo itself is still judged when it is sent.  The table, acting for everybody, may
    take back the last move whoever made it."""
    if access.is_table:
        return mover is not None
    return access.is_player and mover is not None and mover == access.player


def _export(desk: Desk, key: str, token: str | None) -> JSONObject:
    _access(desk, key, token)
    return desk.store.export(key)


def _offers(desk: Desk, key: str) -> list[offers.Offer]:
    return offers.offers(desk.store, key, desk.store.count(key))


def _count(desk: Desk, key: str) -> int:
    return desk.store.count(key)


def _news(desk: Desk, key: str) -> tuple[int, str]:
    count = desk.store.count(key)
    try:
        return count, offers.stamp(offers.offers(desk.store, key, count))
    except StoreError:  # a store that keeps nothing beside its games has no offers
        return count, ""


def _games(desk: Desk) -> list[GameEntry]:
    store = desk.store
    out: list[GameEntry] = []
    keys = store.keys()
    for key in keys:
        try:
            if desk.seats_of(key) is None:
                continue  # stored by another front end: not the web app's
            stored = desk.stored(key)
            data = stored.data
            view = stored.view()  # the store's cached view when it has one for this count
        except (GameFileError, IllegalAction):
            continue
        names = {p.get("id"): p.get("name") for p in players_of(data)}
        to_act = [] if view["finished"] else [names.get(d) for d in view["deciders"]]
        out.append(
            {
                "id": key,
                "title": data.get("title"),
                "players": [p.get("name") for p in players_of(data)],
                "action_count": action_count(data),
                "finished": view["finished"],
                "to_act": list(dict.fromkeys(n for n in to_act if n is not None)),
            }
        )
    return out


def _settle(desk: Desk, key: str, token: str | None) -> Settled:
    access = _access(desk, key, token)
    if not access.may_act:
        raise Forbidden("spectators cannot trigger a deadline")
    return settle_one(desk, key)


def settle_one(desk: Desk, key: str) -> Settled:
    """Apply the default order of game ``key``'s open decision if it is due (``IllegalAction``
    with rule ``deadline`` otherwise), then the message that tells of it."""
    stored = desk.stored(key)
    entity, player, found = default_for(stored, desk.seats_of(key), desk.clock())
    now = int(desk.clock())
    action = {**found.action, "user": DEADLINE_USER, "created_at": now}
    base = stored.count
    after = desk.games[key] = desk.store.append(key, action, base)
    name = next((p.get("name") for p in players_of(after.data) if p.get("id") == player), player)
    message: JSONObject = {
        "type": "message",
        "entity": player,
        "entity_type": "player",
        "message": f"deadline passed: default order for {name} ({entity}): {found.note}",
        "user": DEADLINE_USER,
        "created_at": now,
    }
    try:
        after = desk.games[key] = desk.store.append(key, message, after.count)
    except (GameMovedOn, IllegalAction):  # someone moved meanwhile: the default stands
        LOG.warning("%s: the deadline message was not stored", key)
    count = standing.after_action(desk, key, message, after.count)
    return Settled(count, entity, player, action, found.note)


def _settle_due(desk: Desk) -> list[str]:
    moved = []
    now = desk.clock()
    keys = desk.store.keys()
    for key in keys:
        try:
            record = desk.seats_of(key)
            if not isinstance(record, dict) or not record.get("deadline_seconds"):
                continue
            stored = desk.stored(key)
            due = due_at(stored, record)
            if due is None or due > now or stored.game.finished:
                continue
            settle_one(desk, key)
            moved.append(key)
        except (IllegalAction, GameMovedOn, GameFileError) as error:
            LOG.info("%s: no default order now: %s", key, error)
    return moved
