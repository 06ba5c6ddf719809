"""Read the ``routes`` of a run_routes action into walks over the board (common rules §2.3).

Each ``connections`` chain lists the hexes of the track between two stops.  For every chain the
legs whose path hexes equal it are found (from any node of its first hex); consecutive chains
must share exactly one node.  When several combinations fit, the one that avoids track already
used by the corporation's earlier routes, then matches most recorded ``nodes`` signatures, then
uses fewest paths is taken (18xx.games Route#connection_data).
"""

from __future__ import annotations

from collections.abc import Sequence

from stellwerk.core.jsondata import JSONValue
from stellwerk.core.map.board import Board
from stellwerk.core.map.graph import NodeKey, PathKey
from stellwerk.core.routes.legs import Leg, intra_legs, walk_legs
from stellwerk.core.routes.model import RouteView, RouteWalk, fail

RULE = "common rules §2.3"


def chain_candidates(board: Board, chain: Sequence[str]) -> list[Leg]:
    """Legs matching one ``connections`` chain, fewest paths first."""
    if len(chain) == 1 and " " in chain[0]:
        hex_id, _, pair = chain[0].partition(" ")
        a, _, b = pair.partition(".")
        if not (a.isdigit() and b.isdigit()):
            raise fail(f"Bad chain {chain[0]!r}", RULE)
        return intra_legs(board, hex_id, int(a), int(b))
    first = chain[0]
    if first not in board.hexes or any(h not in board.hexes for h in chain):
        raise fail(f"Chain {chain} names a hex that is not on the map", RULE)
    legs: list[Leg] = []
    for node in range(len(board.hexes[first].tile.nodes)):
        legs.extend(walk_legs(board, (first, node), chain))
    legs.sort(key=lambda leg: len(leg.paths))
    return legs


def _signatures(board: Board, nodes: Sequence[NodeKey]) -> set[str]:
    return {board.node_signature(h, n) for h, n in nodes}


def _orient(legs: list[Leg]) -> list[Leg] | None:
    """Orient candidate legs into a walk: consecutive legs share exactly one node."""
    if len(legs) == 1:
        return list(legs)
    out: list[Leg] = []
    for i in range(len(legs) - 1):
        shared = legs[i].nodes & legs[i + 1].nodes
        if len(shared) != 1:
            return None
        (middle,) = shared
        leg = legs[i]
        if i == 0:
            leg = leg if leg.end == middle else leg.reversed()
        elif leg.start != out[-1].end or leg.end != middle:
            leg = leg.reversed()
            if leg.start != out[-1].end or leg.end != middle:
                return None
        out.append(leg)
    last = legs[-1]
    last = last if last.start == out[-1].end else last.reversed()
    if last.start != out[-1].end:
        return None
    out.append(last)
    return out


def _search(
    options: list[list[Leg]], avoid: set[PathKey], wanted: set[str], board: Board
) -> list[Leg] | None:
    best: tuple[tuple[int, int, int], list[Leg]] | None = None
    chosen: list[Leg] = []
    used: set[PathKey] = set()

    def visit(i: int) -> bool:
        nonlocal best
        if i == len(options):
            walk = _orient(chosen)
            if walk is None:
                return False
            clash = sum(1 for leg in walk for p in leg.paths if p in avoid)
            stops = [walk[0].start, *(leg.end for leg in walk)]
            hits = len(_signatures(board, stops) & wanted)
            score = (-clash, hits, -sum(len(leg.paths) for leg in walk))
            if best is None or score > best[0]:
                best = (score, walk)
            return clash == 0 and hits == len(wanted)
        for leg in options[i]:
            if used.intersection(leg.paths):
                continue
            if chosen and len(chosen[-1].nodes & leg.nodes) != 1:
                continue
            chosen.append(leg)
            used.update(leg.paths)
            done = visit(i + 1)
            chosen.pop()
            used.difference_update(leg.paths)
            if done:
                return True
        return False

    visit(0)
    return None if best is None else best[1]


def parse_route(
    board: Board, corp: str, data: RouteView, avoid: set[PathKey] | None = None
) -> RouteWalk:
    """One route object of a run_routes action as a :class:`RouteWalk`; IllegalAction if its
    chains do not describe connected track, or if a field has another shape (common rules
    §2.3: ``connections`` a list of hex chains, ``nodes`` a list of node signatures)."""
    chains = [_texts(chain, "a chain of connections") for chain in _list(data, "connections")]
    train = str(data.get("train", ""))
    if not chains:
        raise fail(f"Route of {train} has no track", RULE)
    options = [chain_candidates(board, chain) for chain in chains]
    for chain, legs in zip(chains, options, strict=True):
        if not legs:
            raise fail(f"No track of {corp} matches {'-'.join(chain)}", RULE)
    wanted = set(_texts(data.get("nodes"), "'nodes'"))
    if len(options) == 1:
        options = [_single_order(board, corp, options[0])]
    walk = _search(options, avoid or set(), wanted, board)
    if walk is None:
        raise fail(f"The chains of {train} do not join at stops", RULE)
    stops = (walk[0].start, *(leg.end for leg in walk))
    return RouteWalk(train, stops, tuple(walk))


def _single_order(board: Board, corp: str, legs: list[Leg]) -> list[Leg]:
    """A one-chain route prefers a leg touching a city of ``corp`` (18xx.games)."""

    def tokened(leg: Leg) -> bool:
        for hid, n in (leg.start, leg.end):
            city = board.hexes[hid].city_of_node(n)
            if city is not None and city.tokened_by(corp):
                return True
        return False

    return sorted(legs, key=lambda leg: not tokened(leg))


def _list(data: RouteView, key: str) -> list[JSONValue]:
    """The list at ``data[key]`` (missing, null or empty: empty); another value: refused."""
    value = data.get(key) or []
    if not isinstance(value, list):
        raise fail(f"'{key}' of a route must be a list, not {value!r}", RULE)
    return value


def _texts(value: JSONValue, what: str) -> list[str]:
    """``value`` as a list of strings (missing or null: empty); another value: refused."""
    value = value or []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise fail(f"{what} must be a list of strings, not {value!r}", RULE)
    return [item for item in value if isinstance(item, str)]


def parse_routes(board: Board, corp: str, routes: Sequence[RouteView]) -> list[RouteWalk]:
    """All routes of a run_routes action, each avoiding the track of the routes before it."""
    used: set[PathKey] = set()
    out = []
    for data in routes:
        walk = parse_route(board, corp, data, used)
        for leg in walk.legs:
            used.update(leg.paths)
        out.append(walk)
    return out
