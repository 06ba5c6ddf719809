"""A corporation's track network: what it reaches from its tokens (common rules §1.2, §6.3, §6.4).

Track is walked from every city holding one of the corporation's tokens, following paths across
linked hex edges where the gauges join (broad–narrow never joins) and through cities and towns
that do not block the corporation; offboards and full cities of other corporations end a walk
(they are reached, not passed).  The walk never turns back on a path, like the reference engine.

Results (cached per board version):

* ``nodes``: (hex, node) reached - a city here is a candidate for a token;
* ``paths``: (hex, path index) reached;
* ``hexes``: hex -> edges from which the corporation can build (token hexes: every linked edge);
* ``route_available`` / ``route_train_purchase``: the reference engine's test whether a route
  exists (some token's network holds two stops, or one stop and an optional stop such as a
  port) and whether a train must be bought (two non-optional stops).  It does not depend on the
  train, as in 18xx.games (Graph#compute).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stellwerk.core.map.board import Board
from stellwerk.core.map.geometry import opposite
from stellwerk.core.map.tiles import NODE_BASE

NodeKey = tuple[str, int]
PathKey = tuple[str, int]


@dataclass(slots=True)
class Network:
    """What one corporation reaches on the current board."""

    nodes: set[NodeKey] = field(default_factory=set)
    paths: set[PathKey] = field(default_factory=set)
    hexes: dict[str, set[int]] = field(default_factory=dict)
    route_available: bool = False
    route_train_purchase: bool = False


def token_nodes(board: Board, corp: str) -> list[NodeKey]:
    """(hex, node) of every city holding a token of ``corp``."""
    out = []
    for hid, state in board.hexes.items():
        for index, city in enumerate(state.cities):
            if corp in city.tokens:
                out.append((hid, state.tile.city_nodes[index]))
    return out


def _walk(board: Board, corp: str | None, start: NodeKey, net: Network) -> set[NodeKey]:
    """Walk from one start node; adds to ``net`` and returns the nodes reached."""
    hexes = board.hexes
    reached: set[NodeKey] = {start}
    seen: set[tuple[str, int, int]] = set()
    hid0, node0 = start
    stack: list[tuple[str, int, int]] = [
        (hid0, p, NODE_BASE + node0) for p in hexes[hid0].placed.node_paths[node0]
    ]
    while stack:
        key = stack.pop()
        if key in seen:
            continue
        seen.add(key)
        hid, pidx, entry = key
        state = hexes[hid]
        path = state.placed.paths[pidx]
        net.paths.add((hid, pidx))
        edges = net.hexes.setdefault(hid, set())
        for e in path.edges:
            edges.add(e)
            nb = board.neighbor(hid, e)
            if nb is not None:
                net.hexes.setdefault(nb, set()).add(opposite(e))
        for n in path.nodes:
            reached.add((hid, n))
        if path.terminal:
            continue
        out = path.other_end(entry)
        if out < NODE_BASE:
            nb = board.neighbor(hid, out)
            if nb is None:
                continue
            back = opposite(out)
            nb_tile = hexes[nb].placed
            for q in nb_tile.paths_at_edge[back]:
                if path.gauge.connects(nb_tile.paths[q].gauge):
                    stack.append((nb, q, back))
        else:
            node = out - NODE_BASE
            if (hid, node) == start or state.node_blocks(node, corp):
                continue
            for q in state.placed.node_paths[node]:
                if q != pidx:
                    stack.append((hid, q, out))
    return reached


def compute_network(board: Board, corp: str, starts: list[NodeKey] | None = None) -> Network:
    """The network of ``corp`` from its tokens (or from ``starts``, e.g. a teleport city)."""
    net = Network()
    for start in token_nodes(board, corp) if starts is None else starts:
        hid, _ = start
        edges = net.hexes.setdefault(hid, set())
        edges.update(e for e in range(6) if board.neighbor(hid, e) is not None)
        net.nodes.add(start)
        reached = _walk(board, corp, start, net)
        net.nodes |= reached
        mandatory = optional = 0
        for h, n in reached:
            node = board.hexes[h].tile.nodes[n]
            if not board.hexes[h].placed.node_paths[n]:
                continue
            if node.optional:
                optional += 1
            else:
                mandatory += 1
        if mandatory > 1:
            net.route_available = net.route_train_purchase = True
        elif mandatory == 1 and optional > 0:
            net.route_available = True
    return net


class GraphCache:
    """Networks per corporation, recomputed when the board changes."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self._version = -1
        self._nets: dict[str, Network] = {}

    def network(self, corp: str) -> Network:
        """The (cached) network of ``corp``."""
        if self._version != self.board.version:
            self._nets.clear()
            self._version = self.board.version
        net = self._nets.get(corp)
        if net is None:
            net = self._nets[corp] = compute_network(self.board, corp)
        return net

    def tokenable_cities(self, corp: str) -> list[tuple[str, int]]:
        """(hex, city index) of reachable cities where ``corp`` may place a token: a free,
        unreserved slot and no token of ``corp`` on the hex (common rules §6.4)."""
        board = self.board
        out = []
        for hid, node in sorted(self.network(corp).nodes):
            state = board.hexes[hid]
            index = state.city_index(node)
            if index is not None and board.can_place_token(hid, index, corp):
                out.append((hid, index))
        return out

    def has_route(self, corp: str) -> bool:
        """Does a route exist for ``corp`` (skip the route step otherwise)?  18xx.games
        ``can_run_route?``: a token's network holds two stops, or one stop and a port."""
        return self.network(corp).route_available

    def must_buy_train(self, corp: str) -> bool:
        """Network test of the reference engine's ``must_buy_train?`` (MUST_BUY_TRAIN = route):
        a token's network holds two non-optional stops.  The caller checks train ownership."""
        return self.network(corp).route_train_purchase
