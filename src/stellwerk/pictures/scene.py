"""Scenes from games: what a picture needs, read from the API's views of a game.

A picture is drawn from an API game (``stellwerk.api.Game``: its board and
``Game.view``) or from a :class:`MapSource`, a board with its facts (``views.MapFacts``; a
board rebuilt without a game, as 1841's positions from a state trace, gets its facts from
``stellwerk.reading.port_map_facts``).  The game master still hands over the title game
itself; :func:`stellwerk.reading.reader_of` reads it the same way until it moves onto the
views.  Nothing here changes the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from stellwerk.core.jsondata import JSONValue
from stellwerk.core.map.board import Board
from stellwerk.core.routes.model import RouteView
from stellwerk.core.routes.parse import parse_routes
from stellwerk.pictures.mapview import MapScene, RouteLine
from stellwerk.pictures.style import CorpColors, corporation_colors
from stellwerk.pictures.wording import word
from stellwerk.reading import Reader, reader_of
from stellwerk.views import MapFacts

if TYPE_CHECKING:
    from typing import TypeAlias

    from stellwerk.api import Game
    from stellwerk.core.game import Game as CoreGame

    Shown: TypeAlias = Game | Reader | CoreGame
    """What the pictures are drawn from: an API game or its reader (``Game.view``: one
    reader for several pictures reads the game once), or -- from the game master, until it
    moves onto the views -- a title game."""


@dataclass(frozen=True)
class MapSource:
    """What a map or a tile sheet is drawn from: the ``board`` (read only) and its
    ``facts``."""

    board: Board
    facts: MapFacts


def reader(game: Shown) -> Reader:
    """The views of what is shown."""
    return reader_of(game)


def map_source(game: Shown | MapSource) -> MapSource:
    """The board and its facts of a game, or the map source itself."""
    if isinstance(game, MapSource):
        return game
    look = reader(game)
    return MapSource(look.board(), look.map_facts())


def title_of(game: Shown | MapSource) -> str:
    """The title name (``"1849"``) of what is pictured."""
    if isinstance(game, MapSource):
        return game.facts.title
    return reader(game).title


def board_of(game: Shown | MapSource | Board) -> Board:
    """The board of what is pictured."""
    if isinstance(game, Board):
        return game
    if isinstance(game, MapSource):
        return game.board
    return reader(game).board()


def colors_of(facts: MapFacts) -> dict[str, CorpColors]:
    """Colours of every corporation of the game, and of any symbol on the board."""
    return corporation_colors(facts.title, facts.symbols, facts.declared_colors)


def political_of(game: Shown | MapSource) -> frozenset[tuple[str, int]]:
    """Political borders in force (hex, edge; 1841), else none."""
    return map_source(game).facts.political


def caption(
    title: str, phase: str | None, turn: int | None, extra: str = "", lang: str = "en"
) -> str:
    """A picture's caption in ``lang``: title, phase, turn and what else it shows."""
    parts = [title]
    if phase:
        parts.append(word("phase", lang).format(phase=phase))
    if isinstance(turn, int):
        parts.append(word("turn", lang).format(turn=turn))
    if extra:
        parts.append(extra)
    return " - ".join(parts)


def caption_of(game: Shown | MapSource, extra: str = "", lang: str = "en") -> str:
    """The caption of what is pictured (title, phase, turn, ``extra``) in ``lang``."""
    if isinstance(game, MapSource):
        facts = game.facts
        return caption(facts.title, facts.phase, facts.turn, extra, lang)
    table = reader(game).table()
    return caption(table.title, table.phase, table.turn, extra, lang)


def map_scene(
    game: Shown | MapSource,
    routes: Sequence[RouteLine] = (),
    routes_of: str | None = None,
    best: bool = False,
    lang: str = "en",
) -> MapScene:
    """The scene of a game's (or map source's) board as it is now, its caption in ``lang``;
    ``best`` says the routes are the optimiser's, not a recorded run."""
    source = map_source(game)
    facts = source.facts
    routes_word = word("best_routes_of" if best else "routes_of", lang)
    extra = routes_word.format(corp=routes_of) if routes_of else ""
    return MapScene(
        title=facts.title,
        board=source.board,
        colors=colors_of(facts),
        caption=caption(facts.title, facts.phase, facts.turn, extra, lang),
        political=facts.political,
        active_column=facts.active_column,
        homes=facts.homes,
        routes=routes,
        routes_of=routes_of,
    )


def route_lines(board: Board, corp: str, routes: Sequence[RouteView]) -> list[RouteLine]:
    """Route lines of a run_routes action's ``routes`` (the track each train used)."""
    walks = parse_routes(board, corp, routes)
    out = []
    for walk, data in zip(walks, routes, strict=False):
        paths = tuple(p for leg in walk.legs for p in leg.paths)
        revenue = data.get("revenue")
        out.append(
            RouteLine(
                str(data.get("train", walk.train)),
                paths,
                tuple(walk.stops),
                int(revenue) if isinstance(revenue, int) else None,
            )
        )
    return out


def last_run(actions: Sequence[Mapping[str, JSONValue]], corp: str) -> list[RouteView] | None:
    """The routes of ``corp``'s last run_routes action among ``actions`` (None: it never ran;
    entries that are not objects are no routes)."""
    for action in reversed(actions):
        if action.get("type") == "run_routes" and action.get("entity") == corp:
            routes = action.get("routes")
            found = routes if isinstance(routes, list) else []
            return [route for route in found if isinstance(route, dict)]
    return None
