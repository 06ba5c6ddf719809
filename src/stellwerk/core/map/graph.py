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

import itertools
from collections.abc import Container
from dataclasses import dataclass, field
from typing import Protocol

from mypy_extensions import mypyc_attr

from stellwerk.core.map.board import Board
from stellwerk.core.map.state import HexState
from stellwerk.core.map.tiles import Gauge, RotatedTile
from stellwerk.core.native import fields_state, set_fields_state, set_state, state_of

DUAL = Gauge.DUAL

NodeKey = tuple[str, int]
PathKey = tuple[str, int]
EdgeKey = tuple[str, int]
"""(hex, edge 0..5): one side of a hex edge."""


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(frozen=True, slots=True)
class WalkLimits:
    """Title limits on a network walk (none by default).

    ``uncrossable``: hex edges the walk may not cross, each side listed (a title's political
    borders in force): a path with an exit on one of them is not walked at all, and a lay may
    not connect across one.  ``inert_tokens``: hexes whose tokens do not start a walk (tokens
    that are not bases, e.g. on mountain passes); they are still reached and still count for
    the corporation where they lie."""

    uncrossable: frozenset[EdgeKey] = frozenset()
    inert_tokens: frozenset[str] = frozenset()

    def __getstate__(self) -> list[object]:
        """Pickle and copy, as ``dataclasses`` does for a slotted class (``core.native``)."""
        return fields_state(self)

    def __setstate__(self, state: list[object]) -> None:
        set_fields_state(self, state)


NO_LIMITS = WalkLimits()


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(slots=True)
class Network:
    """What one corporation reaches on the current board."""

    nodes: set[NodeKey] = field(default_factory=set)
    paths: set[PathKey] = field(default_factory=set)
    hexes: dict[str, set[int]] = field(default_factory=dict)
    route_available: bool = False
    route_train_purchase: bool = False
    border_met: bool = False
    """A walk met a path it did not enter for an uncrossable edge (``WalkLimits``): without
    one, the walks were those of any limits whose uncrossable edges no path of the network
    has (:func:`same_walks`)."""


def token_nodes(board: Board, corp: str, limits: WalkLimits = NO_LIMITS) -> list[NodeKey]:
    """(hex, node) of every city holding a token of ``corp`` (but those on ``limits``'
    inert hexes)."""
    out = []
    inert = limits.inert_tokens
    hexes = board.hexes
    placed = board.tokens_by_corporation().get(corp, ())  # board order, a hex per token
    for hid in dict.fromkeys(placed):
        if inert and hid in inert:
            continue
        state = hexes[hid]
        for index, city in enumerate(state.cities):
            if corp in city.tokens:
                out.append((hid, state.tile.city_nodes[index]))
    return out


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class _Walker:
    """A depth-first walk from one token, in the reference engine's order (Node#walk and
    Path#walk of 18xx.games): each path is walked once per token; a path is not entered while
    one of its edges is being crossed further up the walk; nodes are entered once; cities
    that block the corporation and offboards are reached but not passed.  The order matters:
    a path first met in a dead end is not walked again, exactly as in the reference engine,
    so connectivity tests agree with it on every board.

    The board does not change during a walk, so hex links are looked up once per board
    (``Board.link_table``) and blocking nodes once per walk (``blocked``, shared by the walks
    of one network).  The walk recurses (a path calls itself for the paths across its edges):
    the walks of these maps are a few dozen paths deep, and a call costs less than a stack
    kept by hand.  The edges being crossed are kept in ``crossing`` (hex -> bit mask of its
    edges), and only hexes with an uncrossable edge look for one."""

    def __init__(
        self,
        board: Board,
        corp: str | None,
        visited_nodes: set[NodeKey],
        stop_at: Container[PathKey] | None = None,
        links: dict[tuple[str, int], str | None] | None = None,
        blocked: dict[NodeKey, bool] | None = None,
        uncrossable: frozenset[EdgeKey] = frozenset(),
    ) -> None:
        self.board = board
        self.uncrossable = uncrossable
        self.border_hexes = _hexes_of(uncrossable)
        self.hexes = board.hexes
        self.corp = corp
        self.stop_at = stop_at
        self.visited_nodes = visited_nodes
        self.visited_paths: set[PathKey] = set()
        self.crossing: dict[str, int] = {}
        self.order: list[PathKey] = []
        self.links = board.link_table() if links is None else links
        self.blocked = {} if blocked is None else blocked
        self.border_met = False
        """A path was not entered for an uncrossable edge."""

    def link(self, hid: str, edge: int) -> str | None:
        """``board.neighbor``, remembered for the walk."""
        key = (hid, edge)
        try:
            return self.links[key]
        except KeyError:
            found = self.links[key] = self.board.neighbor(hid, edge)
            return found

    def node(self, key: NodeKey, converging_path: bool = False) -> None:
        if key in self.visited_nodes:
            return
        self.visited_nodes.add(key)
        hid, n = key
        placed = self.hexes[hid].placed
        for p in placed.node_paths[n]:
            self.path(hid, placed, p, None, key, converging_path, converging_path)
        if converging_path:
            self.visited_nodes.discard(key)

    def path(
        self,
        hid: str,
        placed: RotatedTile,
        p: int,
        skip: int | None,
        origin: NodeKey,
        converging: bool,
        node_conv: bool,
    ) -> None:
        """Walk path ``p`` of the tile ``placed`` on ``hid``.  Leaving a tile through an edge
        that several of its paths use ("converging") makes the rest of that walk forget what
        it visited once it returns, so that track behind a fork can be reached again from
        another side.  The edges being crossed are kept per hex as a bit mask (``crossing``):
        each crossing sets its bit and puts back the mask it found, so a mask holds exactly
        the edges of the hex crossed further up the walk."""
        key = (hid, p)
        visited = self.visited_paths
        if key in visited:
            return
        path = placed.paths[p]
        crossing = self.crossing
        held = crossing.get(hid, 0)
        if held & path.edge_mask:
            return
        if hid in self.border_hexes:
            uncrossable = self.uncrossable
            for e in path.edges:
                if (hid, e) in uncrossable:
                    self.border_met = True
                    return  # a path at an uncrossable edge is not walked (18xx.games skip_paths)
        visited.add(key)
        self.order.append(key)
        stop_at = self.stop_at
        if stop_at is not None and key in stop_at:
            raise _Reached
        hexes = self.hexes
        if not path.terminal:
            blocked = self.blocked
            visited_nodes = self.visited_nodes
            for n in path.nodes:
                nxt = (hid, n)
                if nxt == origin or nxt in visited_nodes:
                    continue
                blocks = blocked.get(nxt)
                if blocks is None:
                    blocks = blocked[nxt] = hexes[hid].node_blocks(n, self.corp)
                if not blocks:
                    self.node(nxt, node_conv or converging)
        gauge = path.gauge
        any_gauge = gauge is DUAL  # Gauge.connects, inlined: the walk's innermost test
        links = self.links
        crossed = False
        for e, bit, back, multi in path.crossings:
            if e == skip:
                continue
            edge = (hid, e)
            try:  # one look-up where most links are known (a try costs nothing)
                nb = links[edge]
            except KeyError:
                nb = self.link(hid, e)
            if nb is None:
                continue
            crossing[hid] = held | bit
            crossed = True
            nb_tile = hexes[nb].placed
            conv = converging or multi
            nb_paths = nb_tile.paths
            for q in nb_tile.paths_at_edge[back]:
                other = nb_paths[q].gauge
                if any_gauge or other is gauge or other is DUAL:
                    self.path(nb, nb_tile, q, back, origin, conv, node_conv)
        if crossed:
            crossing[hid] = held
        if converging:
            visited.discard(key)


_BORDER_HEXES: dict[frozenset[EdgeKey], frozenset[str]] = {}
"""The hexes of each set of uncrossable edges walked (a title has a few, one per phase)."""


def _hexes_of(uncrossable: frozenset[EdgeKey]) -> frozenset[str]:
    """The hexes with an edge in ``uncrossable``."""
    found = _BORDER_HEXES.get(uncrossable)
    if found is None:
        if len(_BORDER_HEXES) > 64:
            _BORDER_HEXES.clear()
        found = _BORDER_HEXES[uncrossable] = frozenset(h for h, _ in uncrossable)
    return found


class _Reached(Exception):
    """Internal: a walk of :func:`reaches_any_path` met one of its targets."""


def reaches_any_path(
    board: Board, corp: str, targets: Container[PathKey], limits: WalkLimits = NO_LIMITS
) -> bool:
    """Whether ``corp``'s network (:func:`compute_network` from its tokens) holds one of the
    ``targets`` paths.  The same walks, stopped at the first target met: a path is in the
    network as soon as a walk enters it."""
    tokens = token_nodes(board, corp, limits)
    links = board.link_table()
    blocked: dict[NodeKey, bool] = {}
    for start in tokens:
        others = {t for t in tokens if t != start}
        walker = _Walker(board, corp, others, targets, links, blocked, limits.uncrossable)
        try:
            walker.node(start)
        except _Reached:
            return True
    return False


def may_reach_any_path(
    board: Board, corp: str, targets: frozenset[PathKey], limits: WalkLimits = NO_LIMITS
) -> bool:
    """False only if no walk of ``corp`` can reach one of the ``targets`` paths: a plain
    search from its token cities under the walk's own rules of passage (linked edges,
    joining gauges, no passing through blocking or terminal stops) but without its order
    and visit bookkeeping, which can only stop a walk earlier.  Each path is looked at once,
    so this is much cheaper than the walk when the answer is no."""
    hexes = board.hexes
    links = board.link_table()
    uncrossable = limits.uncrossable
    nodes: list[NodeKey] = token_nodes(board, corp, limits)
    seen_nodes: set[NodeKey] = set(nodes)
    seen: set[PathKey] = set()
    paths: list[PathKey] = []
    while nodes or paths:
        while nodes:
            hid, n = nodes.pop()
            paths.extend((hid, p) for p in hexes[hid].placed.node_paths[n])
        if not paths:
            break
        key = paths.pop()
        if key in seen:
            continue
        if key in targets:
            return True
        seen.add(key)
        hid, p = key
        state = hexes[hid]
        path = state.placed.paths[p]
        if uncrossable and any((hid, e) in uncrossable for e in path.edges):
            continue
        if not path.terminal:
            for n in path.nodes:
                nxt = (hid, n)
                if nxt not in seen_nodes and not state.node_blocks(n, corp):
                    seen_nodes.add(nxt)
                    nodes.append(nxt)
        for e in path.edges:
            link = (hid, e)
            if link not in links:
                links[link] = board.neighbor(hid, e)
            nb = links[link]
            if nb is None:
                continue
            nb_tile = hexes[nb].placed
            for q in nb_tile.paths_at_edge[(e + 3) % 6]:
                if path.gauge.connects(nb_tile.paths[q].gauge):
                    paths.append((nb, q))
    return False


def compute_network(
    board: Board,
    corp: str,
    starts: list[NodeKey] | None = None,
    limits: WalkLimits = NO_LIMITS,
) -> Network:
    """The network of ``corp`` from its tokens (or from ``starts``, e.g. a teleport city or
    one token), as 18xx.games computes it (Graph#compute): one walk per token city, the
    other token cities counting as already visited; a route exists when one token's newly
    found track holds two stops (or one stop and an optional one).  ``limits``: uncrossable
    edges and tokens that start no walk (:class:`WalkLimits`)."""
    net = Network()
    uncrossable = limits.uncrossable
    tokens = token_nodes(board, corp, limits) if starts is None else list(starts)
    links = board.link_table()
    for start in tokens:
        hid, _ = start
        edges = net.hexes.setdefault(hid, set())
        for e in range(6):
            key = (hid, e)
            nb = links[key] if key in links else links.setdefault(key, board.neighbor(hid, e))
            if nb is not None:
                edges.add(e)
        net.nodes.add(start)
    blocked: dict[NodeKey, bool] = {}
    net_hexes = net.hexes
    net_nodes, net_paths, hexes = net.nodes, net.paths, board.hexes
    for start in tokens:
        others = {t for t in tokens if t != start}
        walker = _Walker(board, corp, others, links=links, blocked=blocked, uncrossable=uncrossable)
        walker.node(start)
        net.border_met = net.border_met or walker.border_met
        local: set[NodeKey] = set()
        for key in walker.order:  # a path walked again after a fork comes again: once each
            if key in net_paths:
                continue
            net_paths.add(key)
            hid, p = key
            path = hexes[hid].placed.paths[p]
            for n in path.nodes:
                node = (hid, n)
                net_nodes.add(node)
                local.add(node)
            hex_edges = net_hexes.get(hid)
            if hex_edges is None:
                hex_edges = net_hexes[hid] = set()
            for e, _bit, back, _multi in path.crossings:
                hex_edges.add(e)
                crossing = (hid, e)
                try:  # the walk crossed it, or met it at a dead end: mostly known
                    nb = links[crossing]
                except KeyError:
                    nb = walker.link(hid, e)
                if nb is not None and not (uncrossable and crossing in uncrossable):
                    across = net_hexes.get(nb)
                    if across is None:
                        across = net_hexes[nb] = set()
                    across.add(back)
        if net.route_train_purchase:
            continue
        mandatory = optional = 0
        for h, n in local:
            node_def = hexes[h].placed.tile.nodes[n]
            if node_def.never:
                continue
            if node_def.optional:
                optional += 1
            else:
                mandatory += 1
        if mandatory > 1:
            net.route_available = net.route_train_purchase = True
        elif mandatory == 1 and optional > 0:
            net.route_available = True
    return net


def same_walks(board: Board, net: Network, uncrossable: frozenset[EdgeKey]) -> bool:
    """Whether :func:`compute_network` with ``uncrossable`` (and the same starts and inert
    tokens) walks exactly the walks that made ``net`` on this board, so it gives ``net``.

    The uncrossable edges enter a walk only where it is about to enter a path (it does not
    enter one with such an edge) and where the network records the edges across its paths'
    edges.  Walks that never met a path they did not enter for such an edge
    (``net.border_met`` false) entered every path they came to; the same walks under
    ``uncrossable`` go the same way up to the first path they come to with an edge in it, so
    if no path of ``net`` has one, they never come to one: they are the same walks, and no
    path of the network has an edge whose far side is dropped."""
    if net.border_met:
        return False
    if not uncrossable:
        return True
    border = _hexes_of(uncrossable)
    hexes = board.hexes
    for hid, p in net.paths:
        if hid in border:
            for e in hexes[hid].placed.paths[p].edges:
                if (hid, e) in uncrossable:
                    return False
    return True


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class WalkedNetworks:
    """Networks walked on the board as it is now (its ``content``), by corporation, each
    with the limits it was walked under; forgotten when the board changes.  The caches of
    one board share it (:attr:`GraphCache.walked`): a network is a function of the board,
    the corporation and the limits, and one walked under other limits serves when
    :func:`same_walks` says the walks would be the same (a title's region graph and full
    graph mostly walk alike where no border is near)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self._content = board.content
        self._nets: dict[str, list[tuple[WalkLimits, Network]]] = {}

    def network(self, corp: str, limits: WalkLimits) -> Network:
        """``compute_network(board, corp, limits=limits)``, walked at most once per board
        content for limits whose walks are the same."""
        net = self.known(corp, limits)
        if net is None:
            net = compute_network(self.board, corp, limits=limits)
            self._nets[corp].append((limits, net))
        return net

    def known(self, corp: str, limits: WalkLimits) -> Network | None:
        """The network :meth:`network` gives without walking, if there is one."""
        if self._content != self.board.content:
            self._nets = {}
            self._content = self.board.content
        known = self._nets.setdefault(corp, [])
        for walked, net in known:
            if walked == limits:
                return net
        for walked, net in known:
            if walked.inert_tokens == limits.inert_tokens and same_walks(
                self.board, net, limits.uncrossable
            ):
                known.append((limits, net))
                return net
        return None


def tokenable_paths(board: Board, corp: str) -> frozenset[PathKey]:
    """The paths through a city where ``corp`` may place a token now (a free, unreserved slot
    and no token of its own on the hex, common rules §6.4): the network holds such a city
    exactly when it holds one of these paths (a node is reached with a path through it)."""
    out: list[PathKey] = []
    for hid, state in board.hexes.items():
        out.extend((hid, p) for p in _tokenable_in_hex(state, corp))
    return frozenset(out)


def _tokenable_in_hex(state: HexState, corp: str) -> frozenset[int]:
    """The paths of one hex that :func:`tokenable_paths` lists (``Board.can_place_token``
    for each of its cities, inlined)."""
    cities = state.cities
    if not cities or any(corp in city.tokens for city in cities):
        return frozenset()  # no city, or a token of its own on the hex
    city_nodes = state.tile.city_nodes
    node_paths = state.placed.node_paths
    out: set[int] = set()
    for index, city in enumerate(cities):
        if city.get_slot(corp) is not None:
            out.update(node_paths[city_nodes[index]])
    return frozenset(out)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class TokenablePaths:
    """:func:`tokenable_paths` as a container of path keys whose hexes are looked at when
    first asked: a walk that stops at the first of them (:func:`reaches_any_path`) mostly
    meets one after a few hexes, so the map's other cities are never looked at."""

    __slots__ = ("_board", "_corp", "_hexes")

    def __init__(self, board: Board, corp: str) -> None:
        self._board = board
        self._corp = corp
        self._hexes: dict[str, frozenset[int]] = {}

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, tuple):
            return False
        hid, p = key
        found = self._hexes.get(hid)
        if found is None:
            found = self._hexes[hid] = _tokenable_in_hex(self._board.hexes[hid], self._corp)
        return p in found


class CacheLedger(Protocol):
    """Counts the questions asked of one or more graph caches and names their contents
    (``reads`` and ``stamp``, what remembered answers are kept under): a cache is its own,
    or several caches share one (:attr:`GraphCache.ledger`), which each tells of a new
    stamp (``restamp``)."""

    reads: int

    def restamp(self) -> None: ...


STAMPS = itertools.count(1)
"""Stamps of graph-cache contents: every change takes a new one, unique in the process."""

SavedCache = tuple[
    dict[str, Network], dict[str, list[tuple[str, int]]], dict[str, tuple[bool, bool]], int
]
"""What :meth:`GraphCache.save` returns: copies of the contents and their stamp."""


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class ClearedAfter:
    """A board change after which ``caches`` are cleared (:meth:`GraphCache.cleared_after`):
    on entry each drops the networks a token test put off, on exit each is cleared, the
    last first (as nested ``with`` blocks would).  A plain class: every tile lay and token
    enters one."""

    __slots__ = ("caches",)

    def __init__(self, caches: tuple[GraphCache, ...]) -> None:
        self.caches = caches

    def __enter__(self) -> None:
        for cache in self.caches:
            cache._deferred.clear()

    def __exit__(self, *exc: object) -> None:
        for cache in reversed(self.caches):
            cache.clear()


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class GraphCache:
    """Networks per corporation.

    By default the cache follows the board: any change recomputes.  A title that must
    reproduce 18xx.games exactly passes ``follow_board=False`` and calls :meth:`clear` where
    that engine clears its graph (after a tile lay or a token placed in the token step, not
    after home tokens or a closing corporation's tokens leave the board).  Route flags then
    behave like that engine's: once a corporation is known to need a train, that stays known
    until :meth:`clear_for` or :meth:`clear_all`.

    ``stamp`` names the contents: every change (a network or token list remembered, a clear)
    takes a new stamp, and :meth:`restore` brings back the saved one, so equal stamps mean
    equal contents.  Answers that asked the cache (``reads``) are remembered under it (who
    may act, ``stellwerk.core.flow.base.remembered``).
    """

    def __getstate__(self) -> dict[str, object]:
        """Pickle and copy: the attributes, also those of a compiled class (``core.native``)."""
        return state_of(self)

    def __setstate__(self, state: dict[str, object]) -> None:
        set_state(self, state)

    def __init__(
        self,
        board: Board,
        follow_board: bool = True,
        limits: WalkLimits = NO_LIMITS,
        walked: WalkedNetworks | None = None,
    ) -> None:
        self.board = board
        self.follow_board = follow_board
        self.limits = limits
        """What the walks may not cross or start from (:class:`WalkLimits`); a title may
        change it (its borders change), the networks cached stay until cleared."""
        self._version = board.version
        self._nets: dict[str, Network] = {}
        self._tokenable: dict[str, list[tuple[str, int]]] = {}
        self._routes: dict[str, tuple[bool, bool]] = {}
        self.walked = WalkedNetworks(board) if walked is None else walked
        """Networks walked on the board as it is now, whatever the cache above holds (a
        network is a function of the board: a look-ahead that walked one and then restored
        the cache spares the walk after it); the caches of one board may share it (not part
        of :meth:`save`/:meth:`restore`)."""
        self._deferred: dict[str, tuple[int, WalkLimits, bool]] = {}
        """Networks (and token spots) a token test put off (:meth:`has_tokenable_city`):
        corporation -> the board content and limits then, and the test's answer.  Each is as
        good as cached: it is walked under those limits (a cached network stays though the
        limits change) when first asked for, or before the board changes
        (``Board.before_change``), or dropped where a clear would drop it."""
        self.puts_off = True
        """Whether :meth:`has_tokenable_city` may put a network off; False walks it at once
        (the tests compare the two at every position of recorded games)."""
        self.stale = 0
        """Put-off networks computed on another board than the one they were put off on (an
        engine defect: the board changed without telling; the tests require none)."""
        board.before_change.append(self.settle)
        self.stamp = next(STAMPS)
        self.reads = 0
        """Counts the questions asked of the cache (networks, token spots, route flags): an
        answer computed without asking any does not depend on the cache."""
        self.ledger: CacheLedger = self
        """Where the questions are counted and a new stamp is told: the cache itself, or
        the one ledger of several caches that answer as one (a title's ``memo_cache``)."""

    def _check_version(self) -> None:
        if self.follow_board and self._version != self.board.version:
            self.clear_all()
            self._version = self.board.version

    def settle(self) -> None:
        """Compute the networks put off, on the board they were put off on (before it
        changes).  A cache that follows the board forgets them instead: it forgets
        everything once the board has changed."""
        if self.follow_board:
            self._deferred.clear()
            return
        for corp in list(self._deferred):
            self._settle(corp)

    def _settle(self, corp: str) -> None:
        """Compute the network of ``corp`` that a token test put off, as that test would have:
        the network, its route flags and the token spots (the contents do not change: no new
        stamp)."""
        when = self._deferred.pop(corp, None)
        if when is None:
            return
        if when[0] != self.board.content:
            self.stale += 1
        # under the limits of the test: a network walked then was walked under them, and
        # holds until a clear though the limits change (a new phase's borders)
        net = self._nets[corp] = self.walked.network(corp, when[1])
        old = self._routes.get(corp, (False, False))
        self._routes[corp] = (old[0] or net.route_available, old[1] or net.route_train_purchase)
        self._tokenable[corp] = self._token_spots(corp, net)

    def clear(self) -> None:
        """Forget networks and token spots; keep route flags that say a train is needed (a
        network put off belongs to a corporation known to need a train: it is dropped)."""
        self._bump()
        self._deferred.clear()
        self._nets.clear()
        self._tokenable.clear()
        self._routes = {c: f for c, f in self._routes.items() if f[1]}

    def cleared_after(self) -> ClearedAfter:
        """A board change after which the cache is cleared, nothing asked of it in between
        (a tile lay, a token placed): the networks put off are dropped at once, as that clear
        drops them, instead of being computed before the board changes."""
        return ClearedAfter((self,))

    def clear_for(self, corp: str) -> None:
        """:meth:`clear`, and forget the route flags of ``corp``."""
        self.clear()
        self._routes.pop(corp, None)

    def save(self) -> SavedCache:
        """The cache contents, to :meth:`restore` after a look-ahead that must leave no trace."""
        self.settle()
        return dict(self._nets), dict(self._tokenable), dict(self._routes), self.stamp

    def restore(self, saved: SavedCache) -> None:
        nets, tokenable, routes, stamp = saved
        if stamp == self.stamp:
            return  # nothing changed since the save
        self._deferred.clear()  # none at the save
        self._nets, self._tokenable, self._routes = dict(nets), dict(tokenable), dict(routes)
        self.stamp = stamp
        if self.ledger is not self:
            self.ledger.restamp()

    def _bump(self) -> None:
        """The contents are about to change: a new stamp."""
        self.stamp = next(STAMPS)
        if self.ledger is not self:
            self.ledger.restamp()

    def restamp(self) -> None:
        """The cache's own ledger: its stamp is the cache's."""

    def forget(self, corp: str) -> None:
        """Drop everything cached for ``corp`` (a closed corporation starts afresh)."""
        self._bump()
        self._deferred.pop(corp, None)
        self._nets.pop(corp, None)
        self._tokenable.pop(corp, None)
        self._routes.pop(corp, None)

    def clear_all(self) -> None:
        """Forget everything."""
        self._bump()
        self._deferred.clear()
        self._nets.clear()
        self._tokenable.clear()
        self._routes.clear()

    def network(self, corp: str) -> Network:
        """The (cached) network of ``corp``."""
        self.ledger.reads += 1
        self._check_version()
        if corp in self._deferred:
            self._settle(corp)
        net = self._nets.get(corp)
        if net is None:
            self._bump()
            net = self._nets[corp] = self._computed_network(corp)
            old = self._routes.get(corp, (False, False))
            self._routes[corp] = (
                old[0] or net.route_available,
                old[1] or net.route_train_purchase,
            )
        return net

    def _computed_network(self, corp: str) -> Network:
        """``compute_network`` on the board as it is, walked once per board content for
        limits whose walks are the same (:class:`WalkedNetworks`)."""
        return self.walked.network(corp, self.limits)

    def tokenable_cities(self, corp: str) -> list[tuple[str, int]]:
        """(hex, city index) of reachable cities where ``corp`` may place a token: a free,
        unreserved slot and no token of ``corp`` on the hex (common rules §6.4)."""
        self.ledger.reads += 1
        self._check_version()
        if corp in self._deferred:
            self._settle(corp)
        cached = self._tokenable.get(corp)
        if cached is not None:
            return cached
        out = self._token_spots(corp, self.network(corp))
        self._bump()
        self._tokenable[corp] = out
        return out

    def _token_spots(self, corp: str, net: Network) -> list[tuple[str, int]]:
        board = self.board
        out = []
        for hid, node in sorted(net.nodes):
            state = board.hexes[hid]
            index = state.city_index(node)
            if index is not None and board.can_place_token(hid, index, corp):
                out.append((hid, index))
        return out

    def has_tokenable_city(self, corp: str) -> bool:
        """``bool(tokenable_cities(corp))``, with the cache left as that leaves it.  When the
        network is not known yet and its route flags cannot change (a train is known to be
        needed), the walks stop at the first city with a free slot (:func:`reaches_any_path`
        over :class:`TokenablePaths`: the same walks as :func:`compute_network`), and the
        network is put off: computed when asked for, or before the board changes (the token
        step is asked after every tile lay, and most of them need only this answer)."""
        self.ledger.reads += 1
        self._check_version()
        put_off = self._deferred.get(corp)
        if put_off is not None:
            # the board is as it was then (a change walks it first), and the network walked
            # then would still be cached, under the limits then
            return put_off[2]
        if (
            corp in self._tokenable
            or not self.puts_off
            or corp in self._nets
            or self._routes.get(corp) != (True, True)
            or self.walked.known(corp, self.limits) is not None
        ):
            return bool(self.tokenable_cities(corp))
        targets = TokenablePaths(self.board, corp)
        found = reaches_any_path(self.board, corp, targets, self.limits)
        self._bump()
        self._deferred[corp] = (self.board.content, self.limits, found)
        return found

    def route_flags(self, corp: str) -> tuple[bool, bool]:
        """(a route exists, a train must be bought) - 18xx.games ``route_info``."""
        self.ledger.reads += 1
        self._check_version()
        flags = self._routes.get(corp)
        if flags is None:
            self.network(corp)
            flags = self._routes[corp]
        return flags

    def walk_for_flags(self, corp: str) -> None:
        """Walk ``corp``'s network now for the route flags the walk records (a rule of the
        reference engine walks it here, and the flag that a train must be bought outlives
        later clears); nothing to walk when that flag is recorded already (a walk only adds
        to the flags)."""
        flags = self._routes.get(corp)
        if flags is None or not flags[1]:
            self.network(corp)

    def has_route(self, corp: str) -> bool:
        """Does a route exist for ``corp`` (skip the route step otherwise)?  18xx.games
        ``can_run_route?``: a token's network holds two stops, or one stop and a port."""
        return self.route_flags(corp)[0]

    def must_buy_train(self, corp: str) -> bool:
        """Network test of the reference engine's ``must_buy_train?`` (MUST_BUY_TRAIN = route):
        a token's network holds two non-optional stops.  The caller checks train ownership."""
        return self.route_flags(corp)[1]
