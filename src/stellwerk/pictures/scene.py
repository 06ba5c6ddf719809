"""Scenes from games: what a picture needs, read from a title game's public objects.

A title game (``api.Game.engine``) has ``title``, ``map`` (its map port, with ``board``),
``corporations``, ``players``, ``market``, ``phases`` and ``data``.  A map port alone (1841
positions rebuilt from a trace) is enough for the map.  Nothing here changes the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from stellwerk.core.jsondata import JSONValue
from stellwerk.core.map.board import Board
from stellwerk.core.map.tiles import NodeKind
from stellwerk.core.routes.model import RouteView
from stellwerk.core.routes.parse import parse_routes
from stellwerk.pictures.mapview import MapScene, RouteLine
from stellwerk.pictures.style import CorpColors, corporation_colors


def title_of(game: object) -> str:
    """The title name (``"1849"``) of a title game or a map port."""
    title = getattr(game, "title", None)
    if isinstance(title, str):
        return title
    data = getattr(game, "data", None)
    module = type(game).__module__
    for name in ("1849", "1835", "1841"):
        if f"g{name}" in module:
            return name
    return str(getattr(data, "title", "") or "")


def board_of(game: object) -> Board:
    """The board of a title game or of a map port."""
    if isinstance(game, Board):
        return game
    port = getattr(game, "map", None)
    board = getattr(port, "board", None) or getattr(game, "board", None)
    if not isinstance(board, Board):
        raise TypeError(f"{type(game).__name__} has no board")
    return board


def colors_of(game: object, board: Board) -> dict[str, CorpColors]:
    """Colours of every corporation of the game, and of any symbol on the board."""
    symbols = [c.sym for c in getattr(game, "corporations", ()) or ()]
    data = getattr(game, "data", None)
    mapping = data if isinstance(data, Mapping) else None
    if mapping is not None:
        for key in ("minors", "corporations"):
            symbols += [str(e["sym"]) for e in mapping.get(key, ()) or () if "sym" in e]
    port_data = getattr(getattr(game, "map", game), "data", None)
    corps = getattr(port_data, "corporations", None)
    if corps:
        symbols += [str(getattr(c, "sym", "")) for c in corps]
    for state in board.hexes.values():
        for city in state.cities:
            symbols += [s for s in (*city.tokens, *city.reservations) if s is not None]
    return corporation_colors(title_of(game), symbols, mapping)


def political_of(game: object) -> frozenset[tuple[str, int]]:
    """Political borders in force (1841's map port), else none."""
    port = getattr(game, "map", game)
    borders = getattr(port, "political_borders", None)
    if callable(borders):
        found = borders()
        return frozenset((str(h), int(e)) for h, e in found)
    return frozenset()


def homes_of(game: object, board: Board) -> dict[str, list[tuple[str, int]]]:
    """Home stations of corporations not on the board yet and without a reservation."""
    placed: set[str] = set()
    for state in board.hexes.values():
        for city in state.cities:
            placed.update(s for s in (*city.tokens, *city.reservations) if s is not None)
    out: dict[str, list[tuple[str, int]]] = {}
    for corp in getattr(game, "corporations", ()) or ():
        home = getattr(corp, "home", None)
        if getattr(corp, "closed", False) or corp.sym in placed or not isinstance(home, str):
            continue
        home_state = board.hexes.get(home)
        if home_state is None or not home_state.cities:
            continue
        index = getattr(corp, "city", 0)
        index = index if isinstance(index, int) and 0 <= index < len(home_state.cities) else 0
        out.setdefault(home, []).append((str(corp.sym), index))
    return out


def phase_name(game: object) -> str | None:
    phases = getattr(game, "phases", None)
    name = getattr(phases, "name", None)
    if isinstance(name, str):
        return name
    port = getattr(game, "map", game)
    phase = getattr(port, "phase", None)
    return str(phase) if phase is not None else None


def active_column(game: object, board: Board) -> str | None:
    """The column of phase revenues that pays now: the one whose value the title's route rules
    give an off-board (None when that cannot be told)."""
    port = getattr(game, "map", game)
    rules = getattr(game, "route_rules", None) or getattr(port, "route_rules", None)
    run_context = getattr(port, "run_context", None)
    corps = list(getattr(game, "corporations", ()) or ())
    if rules is None or run_context is None:
        return None
    from stellwerk.core.routes.model import TrainSpec

    try:
        ctx = run_context(corps[0] if corps else "")
    except Exception:  # a title whose run context needs more than a corporation
        return None
    train = TrainSpec("2-0", "2", 2)
    for hid, state in board.hexes.items():
        for i, node in enumerate(state.tile.nodes):
            if node.kind is not NodeKind.OFFBOARD or not node.phase_revenue:
                continue
            try:
                value = rules.stop_value(ctx, (hid, i), train)
            except Exception:
                return None
            columns = [c for c, v in node.phase_revenue if v == value]
            if len(columns) == 1:
                return columns[0]
    return None


def caption_of(game: object, extra: str = "") -> str:
    parts = [title_of(game)]
    phase = phase_name(game)
    if phase:
        parts.append(f"phase {phase}")
    turn = getattr(game, "turn", None)
    if isinstance(turn, int):
        parts.append(f"turn {turn}")
    if extra:
        parts.append(extra)
    return " - ".join(parts)


def map_scene(
    game: object, routes: Sequence[RouteLine] = (), routes_of: str | None = None, best: bool = False
) -> MapScene:
    """The scene of a title game's (or map port's) board as it is now; ``best`` says the
    routes are the optimiser's, not a recorded run."""
    board = board_of(game)
    extra = f"{'best ' if best else ''}routes of {routes_of}" if routes_of else ""
    return MapScene(
        title=title_of(game),
        board=board,
        colors=colors_of(game, board),
        caption=caption_of(game, extra),
        political=political_of(game),
        active_column=active_column(game, board),
        homes=homes_of(game, board),
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
