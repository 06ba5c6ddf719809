"""The web app: ``create_app`` builds the Starlette application (docs/web.md).

The JSON API is here; the HTML pages come from ``stellwerk.web.pages`` when that module
exists: its ``routes(service, app_state)`` returns Starlette routes that are added after the
API's.  Both reach games only through ``app.state.service`` (``web.service.GameService``).

Errors: a refusal is answered with its status and a readable sentence — JSON under ``/api/``
(``{"error": ..., "rule": ...}``), a short text page elsewhere (the pages may render their own
first).  Anything unexpected is logged with its traceback to the ``stellwerk.web`` logger and
answered with a bare 500: no traceback or exception text ever reaches a user (``Guard``).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.datastructures import State
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from stellwerk.core.errors import EngineError, GameFileError, IllegalAction
from stellwerk.core.jsondata import JSONObject
from stellwerk.store import GameMovedOn, GameNotFound, StoreError
from stellwerk.store.log import EngineClass
from stellwerk.web.deadlines import deadline_seconds
from stellwerk.web.errors import BadRequest, WebError
from stellwerk.web.offers import OfferMade
from stellwerk.web.ratelimit import DEFAULT as DEFAULT_CREATE_LIMIT
from stellwerk.web.ratelimit import Buckets, CreateLimit, ErrorPage, RateLimit
from stellwerk.web.security import (
    BodyLimit,
    Csrf,
    Message,
    Receive,
    Scope,
    SecurityHeaders,
    Send,
)
from stellwerk.web.service import LOG, GameService, player_names

DEADLINE_INTERVAL = 60.0
"""How often the server looks for decisions whose deadline passed."""

KEEPALIVE_SECONDS = 15.0
"""A live feed sends a comment line this often when nothing happened (proxies keep it open)."""

Handler = Callable[[Request], Awaitable[Response]]


# -- reading requests --------------------------------------------------------------------------
def bearer(request: Request) -> str | None:
    """The request's token: ``Authorization: Bearer TOKEN``, else the ``token`` query
    parameter (links and ``EventSource``, which cannot set headers)."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return request.query_params.get("token") or None


async def json_body(request: Request) -> JSONObject:
    """The request's JSON object (``BadRequest`` for anything else)."""
    raw = await request.body()
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError) as error:
        raise BadRequest(f"the body is not JSON: {error}") from error
    if not isinstance(value, dict):
        raise BadRequest("the body must be a JSON object")
    return value


def service_of(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


# -- errors ---------------------------------------------------------------------------------
def refusal(error: Exception) -> tuple[int, JSONObject] | None:
    """The status and JSON body of an expected refusal; None for anything else."""
    if isinstance(error, WebError):
        return error.status, {"error": error.message}
    if isinstance(error, IllegalAction):
        return 422, {"error": error.reason, "rule": error.rule}
    if isinstance(error, GameMovedOn):
        return 409, {"error": str(error), "action_count": error.actual, "base": error.base}
    if isinstance(error, GameNotFound):
        return 404, {"error": "no such game"}
    if isinstance(error, GameFileError):
        return 422, {"error": f"the game file does not load: {error}", "rule": "game file"}
    if isinstance(error, StoreError):
        return 400, {"error": str(error)}
    return None


async def on_refusal(request: Request, error: Exception) -> Response:
    """Exception handler of the expected refusals (module docstring)."""
    found = refusal(error)
    if found is None:  # pragma: no cover - only registered for refusal types
        raise error
    status, body = found
    if request.url.path.startswith("/api/"):
        return JSONResponse(body, status_code=status)
    text = str(body["error"]) + (f" ({body['rule']})" if body.get("rule") else "")
    return PlainTextResponse(text, status_code=status)


REFUSALS: tuple[type[Exception], ...] = (
    WebError,
    IllegalAction,
    GameMovedOn,
    GameNotFound,
    GameFileError,
    StoreError,
)


class Guard:
    """The last line: an unexpected exception (an ``EngineError`` too) is logged with its
    traceback and answered with a generic 500 (JSON under ``/api/``), nothing of it shown."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as error:
            kind = "engine defect" if isinstance(error, EngineError) else "unexpected error"
            LOG.error("%s on %s %s", kind, scope.get("method"), scope.get("path"), exc_info=error)
            if started:
                return
            api = str(scope.get("path", "")).startswith("/api/")
            response: Response
            if api:
                response = JSONResponse({"error": "internal error"}, status_code=500)
            else:
                response = PlainTextResponse("internal error", status_code=500)
            await response(scope, receive, send)


# -- the API ----------------------------------------------------------------------------------
async def new_game(request: Request) -> Response:
    """``POST /api/games`` ``{"title", "players": [names], "options": [ids], "seed"}``."""
    body = await json_body(request)
    title = body.get("title")
    if not isinstance(title, str) or not title:
        raise BadRequest("'title' must be a title, e.g. \"1849\"")
    names = player_names(body.get("players"))
    listed = body.get("options", [])
    if not isinstance(listed, list) or not all(isinstance(o, str) for o in listed):
        raise BadRequest("'options' must be a list of option ids")
    options = [str(o) for o in listed]
    seed = body.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise BadRequest("'seed' must be an integer")
    try:
        deadline = deadline_seconds(body.get("deadline_hours"))
    except ValueError as error:
        raise BadRequest(str(error)) from error
    created = await service_of(request).create(title, names, options, seed, deadline)
    return JSONResponse(created.to_json(), status_code=201)


async def list_games(request: Request) -> Response:
    """``GET /api/games``: the games (no tokens)."""
    return JSONResponse({"games": await service_of(request).games()})


async def import_game(request: Request) -> Response:
    """``POST /api/games/import``: an 18xx.games game file (JSON), or a Rails 1835 report
    (``?format=rails-report`` or a ``text/plain`` body)."""
    kind = request.query_params.get("format")
    plain = request.headers.get("content-type", "").startswith("text/plain")
    service = service_of(request)
    if kind == "rails-report" or (kind is None and plain):
        raw = await request.body()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise BadRequest("a Rails report must be UTF-8 text") from error
        created = await service.import_rails(text)
    elif kind in (None, "18xx"):
        created = await service.import_file(await json_body(request))
    else:
        raise BadRequest("format must be 18xx or rails-report")
    return JSONResponse(created.to_json(), status_code=201)


async def show_game(request: Request) -> Response:
    """``GET /api/games/{id}`` (any token of the game; ``?hex=H12`` adds its tile lays)."""
    key = request.path_params["id"]
    view = await service_of(request).read(key, bearer(request), request.query_params.get("hex"))
    return JSONResponse(view)


async def take_action(request: Request) -> Response:
    """``POST /api/games/{id}/actions`` ``{"action": {...}, "base": N}`` with the player's
    token: 200 ``{"action_count"}``; 409, 422, 403, 404 (docs/web.md)."""
    key = request.path_params["id"]
    token = bearer(request)
    service = service_of(request)
    await service.access(key, token)  # 404/401/403 before reading what is sent
    body = await json_body(request)
    try:
        position, count = await service.act(key, token, body.get("action"), body.get("base"))
    except OfferMade as made:  # a trade that needs the seller's consent (web.offers)
        return JSONResponse({"offer": made.offer.to_json(), "message": made.message}, 202)
    return JSONResponse({"action_count": count, "position": position})


async def answer_offer(request: Request) -> Response:
    """``POST /api/games/{id}/offers`` ``{"offer": ID, "accept": true|false}``: the seller's
    player accepts or declines an open trade offer, its buyer withdraws it (``false``);
    200 ``{"action_count"}``; 410 no longer open, 403, 422 (docs/web.md)."""
    key = request.path_params["id"]
    token = bearer(request)
    service = service_of(request)
    await service.access(key, token)
    body = await json_body(request)
    offer, accept = body.get("offer"), body.get("accept")
    if not isinstance(offer, str) or not isinstance(accept, bool):
        raise BadRequest("'offer' must be an offer's id and 'accept' true or false")
    count = await service.answer_offer(key, token, offer, accept)
    return JSONResponse({"action_count": count})


async def game_file(request: Request) -> Response:
    """``GET /api/games/{id}/file``: the 18xx.games game file, as a download."""
    key = request.path_params["id"]
    data = await service_of(request).export(key, bearer(request))
    return JSONResponse(data, headers={"content-disposition": f'attachment; filename="{key}.json"'})


async def events(request: Request) -> Response:
    """``GET /api/games/{id}/events``: server-sent events, one ``count`` event (data
    ``{"action_count": N}``, id N) now and whenever the count changes (``Last-Event-ID`` or
    ``?after=N`` skips the first while the count is N); an ``offers`` event (data
    ``{"action_count": N, "offers": STAMP}``, id N) whenever the open trade offers change
    while the count does not (an offer made, declined or withdrawn: ``web.offers.stamp``;
    ``?offers=STAMP`` names those the client shows, else those open when it connects); a
    comment every ``KEEPALIVE_SECONDS`` otherwise."""
    key = request.path_params["id"]
    service = service_of(request)
    await service.access(key, bearer(request))
    seen: int | None = None
    after = request.headers.get("last-event-id") or request.query_params.get("after")
    if after is not None and after.isdigit():
        seen = int(after)
    shown = request.query_params.get("offers")
    if shown is None:
        shown = (await service.news(key))[1]

    async def stream() -> AsyncIterator[str]:
        last, offers = seen, shown
        while True:
            count, stamp = await service.wait_for_news(
                key, -1 if last is None else last, offers, KEEPALIVE_SECONDS
            )
            if count != last:
                last, offers = count, stamp
                yield f"event: count\nid: {count}\ndata: {json.dumps({'action_count': count})}\n\n"
            elif stamp != offers:
                offers = stamp
                data = json.dumps({"action_count": count, "offers": stamp})
                yield f"event: offers\nid: {count}\ndata: {data}\n\n"
            else:
                yield ": keepalive\n\n"

    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"cache-control": "no-store", "x-accel-buffering": "no"},
    )


async def deadline(request: Request) -> Response:
    """``POST /api/games/{id}/deadline`` (a player's token): the open decision's default
    order once its deadline passed (``web.deadlines``); 422 (rule ``deadline``) before."""
    key = request.path_params["id"]
    return JSONResponse(await service_of(request).settle(key, bearer(request)))


async def health(request: Request) -> Response:
    """``GET /healthz``: the server answers."""
    return JSONResponse({"ok": True})


async def home(request: Request) -> Response:
    """``/`` while there are no pages: where the API is."""
    return PlainTextResponse("stellwerk web app: the JSON API is under /api/games (docs/web.md)")


API_ROUTES: list[BaseRoute] = [
    Route("/healthz", health),
    Route("/api/games", new_game, methods=["POST"]),
    Route("/api/games", list_games, methods=["GET"]),
    Route("/api/games/import", import_game, methods=["POST"]),
    Route("/api/games/{id}", show_game, methods=["GET"]),
    Route("/api/games/{id}/actions", take_action, methods=["POST"]),
    Route("/api/games/{id}/offers", answer_offer, methods=["POST"]),
    Route("/api/games/{id}/file", game_file, methods=["GET"]),
    Route("/api/games/{id}/events", events, methods=["GET"]),
    Route("/api/games/{id}/deadline", deadline, methods=["POST"]),
]


def page_routes(service: GameService, state: State) -> list[BaseRoute]:
    """The pages' routes (``stellwerk.web.pages.routes``), or a placeholder home page."""
    try:
        pages = importlib.import_module("stellwerk.web.pages")
    except ModuleNotFoundError as error:
        if error.name != "stellwerk.web.pages":
            raise
        return [Route("/", home)]
    routes: list[BaseRoute] = pages.routes(service, state)
    return routes


def error_page() -> ErrorPage | None:
    """The pages' error page (``stellwerk.web.pages.error_page``) for refusals answered
    before routing (the create limit's 429), or None when the app has no pages."""
    try:
        pages = importlib.import_module("stellwerk.web.pages")
    except ModuleNotFoundError as error:
        if error.name != "stellwerk.web.pages":
            raise
        return None
    page: ErrorPage = pages.error_page
    return page


async def tick(service: GameService, interval: float) -> None:
    """The deadline ticker: settle what is due every ``interval`` seconds; an unexpected
    error is logged and the ticker goes on."""
    while True:
        await asyncio.sleep(interval)
        try:
            await service.settle_due()
        except Exception:
            LOG.exception("the deadline ticker failed")


def _store_secret(service: GameService) -> bytes:
    """The store's shared secret (``web.secret``); for a store that keeps nothing beside its
    games, one made for this process (logged: its forms are then its own)."""
    try:
        return service.shared_secret()
    except StoreError as error:
        LOG.warning("form tokens signed with a secret of this process only: %s", error)
        return secrets.token_bytes(32)


def create_app(
    store_spec: str | None = None,
    *,
    engine: EngineClass | None = None,
    secret: bytes | None = None,
    service: GameService | None = None,
    deadline_interval: float = DEADLINE_INTERVAL,
    create_limit: RateLimit | None = DEFAULT_CREATE_LIMIT,
) -> Starlette:
    """The web app on the store ``store_spec`` (``open_store`` spec; None: an in-memory SQLite
    database).  ``secret`` signs the pages' form tokens; by default the store's
    (``web.secret.stored_secret``: made once per database, so several processes on one
    database behind one address accept each other's forms).  ``engine`` stands in an
    engine class (tests).  Every ``deadline_interval`` seconds (0: never) the server
    settles the decisions whose deadline passed (``web.deadlines``).  ``create_limit``: how
    many games one client may make (``web.ratelimit``; None: no limit)."""
    owned = service is None
    the_service = service if service is not None else GameService(store_spec, engine)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        ticker = None
        if deadline_interval > 0:
            ticker = asyncio.create_task(tick(the_service, deadline_interval))
        yield
        if ticker is not None:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
        if owned:
            the_service.close()

    middleware = [Middleware(Guard), Middleware(SecurityHeaders)]
    buckets = None if create_limit is None else Buckets(create_limit)
    if buckets is not None:
        middleware.append(Middleware(CreateLimit, buckets=buckets, page=error_page()))
    middleware.append(Middleware(BodyLimit))
    app = Starlette(
        routes=list(API_ROUTES),
        middleware=middleware,
        exception_handlers={kind: on_refusal for kind in REFUSALS},
        lifespan=lifespan,
    )
    app.state.service = the_service
    app.state.buckets = buckets
    app.state.secret = secret if secret is not None else _store_secret(the_service)
    app.state.csrf = Csrf(app.state.secret)
    app.router.routes.extend(page_routes(the_service, app.state))
    logging.getLogger("stellwerk.web").debug("web app on %s", store_spec or "memory")
    return app
