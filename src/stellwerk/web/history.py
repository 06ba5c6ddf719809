"""A game's history on the pages: the whole log, searchable, and the game as it was after any
action of it (map, market, charters, players), with the way back and forth.

``/play|table|watch/{game}/{token}/log[?q=WORDS]`` lists every sentence of the log (the words of
``stellwerk log``, in the page's language); a search keeps the lines that contain every word
given (case ignored), without JavaScript (a plain GET form).  Each line of an action links
to ``/play|table|watch/{game}/{token}/at/{action_id}``: the game rebuilt from the game file's
actions up to and including that one (undos in it resolved as always), drawn as the game
page draws it, read-only, with the previous and the next action a click away and a link back
to the game as it is.  Both pages only look: nothing here changes a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from stellwerk.core.jsondata import JSONObject, objects_at, optional_integer
from stellwerk.store import StoredGame
from stellwerk.web.errors import BadRequest, Forbidden, NotFound
from stellwerk.web.seats import Access

if TYPE_CHECKING:
    from stellwerk.api import Game

MAX_QUERY = 200
"""The longest search accepted (characters)."""

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "whole_log": "Whole log", "search": "Search", "search_hint": "words in the line",
        "found": "{shown} of {total} lines", "after": "After action {id}",
        "previous": "Previous action", "next": "Next action", "now": "Back to the game now",
        "this_action": "This action", "players": "Players", "log_link": "The whole log",
    },
    "de": {
        "whole_log": "Ganzes Protokoll", "search": "Suchen", "search_hint": "Wörter der Zeile",
        "found": "{shown} von {total} Zeilen", "after": "Nach Aktion {id}",
        "previous": "Vorige Aktion", "next": "Nächste Aktion", "now": "Zurück zum Spiel",
        "this_action": "Diese Aktion", "players": "Spieler", "log_link": "Das ganze Protokoll",
    },
}  # fmt: skip
"""The history pages' own words; the game's are ``stellwerk.words``'."""


@dataclass(frozen=True)
class Entry:
    """One sentence of the log: the action it belongs to (None: before any action) and
    whether it is a consequence (told indented)."""

    action_id: int | None
    text: str
    auto: bool


@dataclass(frozen=True)
class LogPage:
    """The log of a game, filtered by ``query`` (empty: every line)."""

    title: str
    access: Access
    entries: tuple[Entry, ...]
    total: int
    query: str


@dataclass(frozen=True)
class PastPage:
    """The game after action ``action_id``: its pictures, the log lines of that action and
    the neighbouring action ids."""

    title: str
    access: Access
    action_id: int
    previous: int | None
    next: int | None
    round_text: str
    lines: tuple[Entry, ...]
    map_svg: str
    market_svg: str
    charters_svg: str
    players_svg: str


def _api_game(stored: StoredGame) -> Game:
    from stellwerk.api import Game

    game = stored.game
    if not isinstance(game, Game):  # a stand-in engine of the API's tests has no pages
        raise BadRequest("this game has no pages")
    return game


def _story(stored: StoredGame, lang: str) -> list[Entry]:
    from stellwerk.words import story

    game = _api_game(stored)
    return game.kept(
        f"web.story.{lang}",
        lambda: [Entry(line.action_id, line.text, line.auto) for line in story(game, lang)],
    )


def matches(text: str, query: str) -> bool:
    """Whether ``text`` contains every word of ``query`` (case ignored)."""
    folded = text.casefold()
    return all(word in folded for word in query.casefold().split())


def log_page(stored: StoredGame, access: Access, lang: str, query: str) -> LogPage:
    """The whole log in ``lang``, the lines that match ``query``."""
    entries = _story(stored, lang)
    shown = tuple(e for e in entries if matches(e.text, query)) if query else tuple(entries)
    return LogPage(str(stored.data.get("title")), access, shown, len(entries), query)


def past_page(stored: StoredGame, access: Access, lang: str, action_id: int) -> PastPage:
    """The game as it was right after action ``action_id`` of the game file."""
    from stellwerk.api import Game
    from stellwerk.pictures.charters import render_charters, render_players
    from stellwerk.pictures.mapview import render_map
    from stellwerk.pictures.market import render_market
    from stellwerk.pictures.scene import map_scene
    from stellwerk.web.pages import round_text
    from stellwerk.words.view import player_view

    _api_game(stored)
    actions = objects_at(stored.data, "actions")
    ids = [optional_integer(a, "id") for a in actions]
    if action_id not in ids:
        raise NotFound(f"this game has no action {action_id}")
    at = ids.index(action_id)
    kept: list[JSONObject] = actions[: at + 1]
    data = {k: v for k, v in stored.data.items() if k not in ("result", "game_end_reason")}
    game = Game.from_file({**data, "actions": [*kept]})
    look = game.view
    lines = tuple(e for e in _story(stored, lang) if e.action_id == action_id)
    previous = ids[at - 1] if at > 0 else None
    following = ids[at + 1] if at + 1 < len(ids) else None
    return PastPage(
        title=str(stored.data.get("title")),
        access=access,
        action_id=action_id,
        previous=previous,
        next=following,
        round_text=round_text(player_view(game, lang, 0), lang),
        lines=lines,
        map_svg=render_map(map_scene(look, lang=lang)),
        market_svg=render_market(look, lang),
        charters_svg=render_charters(look, game.actions, lang),
        players_svg=render_players(look, lang),
    )


def _where(request: Request, access: Access) -> tuple[str, str, str]:
    """The game's key, the seat's token and the page's base URL; a player's link on the
    spectators' path (or the other way round) is refused as on the game page."""
    key = request.path_params["id"]
    token = request.path_params["token"]
    if request.url.path.split("/")[1] != access.kind:
        raise Forbidden("this link is not for this page")
    return key, token, f"/{access.kind}/{key}/{token}"


async def log(request: Request) -> Response:
    """``GET .../log[?q=]``: the whole log, searchable."""
    from stellwerk.web.pages import language, render, service_of

    query = request.query_params.get("q", "").strip()[:MAX_QUERY]
    lang = language(request)
    page = await service_of(request).with_game(
        request.path_params["id"], request.path_params["token"], log_page, lang, query
    )
    _, _, base = _where(request, page.access)
    context = {"page": page, "words": WORDS[lang], "base_url": base}
    return render(request, "log.html", context)


async def past(request: Request) -> Response:
    """``GET .../at/{action}``: the game after that action."""
    from stellwerk.web.pages import language, render, service_of

    lang = language(request)
    page = await service_of(request).with_game(
        request.path_params["id"],
        request.path_params["token"],
        past_page,
        lang,
        int(request.path_params["action"]),
    )
    _, _, base = _where(request, page.access)
    context = {"page": page, "words": WORDS[lang], "base_url": base}
    return render(request, "past.html", context)


def routes() -> list[BaseRoute]:
    """The history pages' routes, for a player's link and the spectators'."""
    out: list[BaseRoute] = []
    for kind in ("play", "table", "watch"):
        out.append(Route(f"/{kind}/{{id}}/{{token}}/log", log, methods=["GET"]))
        out.append(Route(f"/{kind}/{{id}}/{{token}}/at/{{action:int}}", past, methods=["GET"]))
    return out
