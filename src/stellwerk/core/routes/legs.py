"""Legs: track between two stops, the building blocks of routes (common rules §2.3, §6.1).

A leg starts at a node (city, town, offboard), follows one path of that node, crosses linked hex
edges onto paths whose gauge joins, and ends at the first node it meets; it never passes a node
and never reuses a path or an edge.  Each leg carries what the route rules need: the hexes of its
paths in walking order (an 18xx.games ``connections`` chain), the gauges used, the number of hex
edges crossed, and the pieces of track it occupies (for the no-reuse rule §6.1.7).

An optimiser can enumerate every leg once per board (:func:`enumerate_legs`) and search over
them: a route is a sequence of legs sharing end nodes with pairwise disjoint ``track``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

from stellwerk.core.map.board import Board
from stellwerk.core.map.geometry import opposite
from stellwerk.core.map.graph import NodeKey, PathKey
from stellwerk.core.map.tiles import NODE_BASE, Gauge

TrackKey = tuple[str, int]
"""(hex, edge 0..5) for track at a hex edge; (hex, 100 + path) for a path between two nodes."""
INTRA = 100


@dataclass(frozen=True, slots=True)
class Leg:
    """Track between two stops, walking from ``start`` to ``end``."""

    start: NodeKey
    end: NodeKey
    paths: tuple[PathKey, ...]
    hexes: tuple[str, ...]
    gauges: frozenset[Gauge]
    crossings: int
    track: frozenset[TrackKey]
    terminal: bool

    @property
    def nodes(self) -> frozenset[NodeKey]:
        """Both end nodes."""
        return frozenset((self.start, self.end))

    def reversed(self) -> Leg:
        """The same track walked the other way."""
        return Leg(
            self.end, self.start, self.paths[::-1], self.hexes[::-1], self.gauges,
            self.crossings, self.track, self.terminal,
        )  # fmt: skip


def _make_leg(board: Board, start: NodeKey, end: NodeKey, paths: list[PathKey]) -> Leg:
    track: set[TrackKey] = set()
    gauges: set[Gauge] = set()
    terminal = False
    for hid, p in paths:
        path = board.hexes[hid].placed.paths[p]
        gauges.add(path.gauge)
        terminal = terminal or path.terminal
        track.update((hid, e) for e in path.edges)
        if len(path.nodes) > 1:
            track.add((hid, INTRA + p))
    hexes = tuple(h for h, _ in paths)
    crossings = sum(1 for a, b in pairwise(hexes) if a != b)
    return Leg(
        start, end, tuple(paths), hexes, frozenset(gauges), crossings, frozenset(track), terminal
    )


def walk_legs(board: Board, start: NodeKey, hexes: Sequence[str] | None = None) -> Iterator[Leg]:
    """All legs from ``start``; if ``hexes`` is given, only those whose path hexes equal it."""
    hexes_state = board.hexes
    hid0, node0 = start
    if hexes is not None and (not hexes or hexes[0] != hid0):
        return
    tile0 = hexes_state[hid0].placed
    stack: list[tuple[str, int, int, list[PathKey], frozenset[tuple[str, int]]]] = [
        (hid0, p, NODE_BASE + node0, [(hid0, p)], frozenset()) for p in tile0.node_paths[node0]
    ]
    while stack:
        hid, pidx, entry, acc, edges_used = stack.pop()
        path = hexes_state[hid].placed.paths[pidx]
        out = path.other_end(entry)
        step = len(acc) - 1
        if out >= NODE_BASE:
            node = (hid, out - NODE_BASE)
            if node != start and (hexes is None or len(hexes) == step + 1):
                yield _make_leg(board, start, node, acc)
            continue
        if hexes is not None and step + 1 >= len(hexes):
            continue
        nb = board.neighbor(hid, out)
        if nb is None or (hexes is not None and hexes[step + 1] != nb):
            continue
        if (hid, out) in edges_used:
            continue
        back = opposite(out)
        used = edges_used | {(hid, out), (nb, back)}
        nb_tile = hexes_state[nb].placed
        for q in nb_tile.paths_at_edge[back]:
            if (nb, q) in acc or not path.gauge.connects(nb_tile.paths[q].gauge):
                continue
            stack.append((nb, q, back, [*acc, (nb, q)], used))


def enumerate_legs(board: Board) -> dict[NodeKey, list[Leg]]:
    """Every leg of the board, by start node (for route search)."""
    out: dict[NodeKey, list[Leg]] = {}
    for hid, state in board.hexes.items():
        for node in range(len(state.tile.nodes)):
            legs = list(walk_legs(board, (hid, node)))
            if legs:
                out[(hid, node)] = legs
    return out


def intra_legs(board: Board, hex_id: str, part_a: int, part_b: int) -> list[Leg]:
    """Legs inside one hex between the nodes with part indices ``part_a`` and ``part_b``
    (18xx.games chain id ``"<hex> a.b"``)."""
    tile = board.hex(hex_id).tile
    a, b = tile.node_by_part(part_a), tile.node_by_part(part_b)
    if a is None or b is None:
        return []
    return [leg for leg in walk_legs(board, (hex_id, a), [hex_id]) if leg.end == (hex_id, b)]
