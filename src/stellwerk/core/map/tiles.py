"""Tile model: typed, validated tile definitions and their rotated views (common rules §1.3, §2).

A :class:`TileDef` is the unrotated definition of a tile (supply tile or preprinted hex).  Nodes
(cities, towns, offboards) carry their ``part`` index, the position of the node in the reference
engine's tile definition string, used in city ids (``"644-0-0"``) and node signatures
(``"C1-1"``).  A :class:`RotatedTile` lists the paths with board edges for one rotation:
definition edge e lies on board edge (e + r) mod 6.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from mypy_extensions import mypyc_attr

from stellwerk.core.jsondata import (
    JSONObject,
    JSONValue,
    integer,
    is_int,
    objects,
    optional_integer,
    text,
    texts,
)
from stellwerk.core.native import fields_state, set_fields_state

COLORS: tuple[str, ...] = ("white", "yellow", "green", "brown", "gray")
"""Upgrade order (common rules §6.3.1); red and blue tiles never upgrade."""
ALL_COLORS = frozenset((*COLORS, "red", "blue"))
IMPASSABLE_COLORS = frozenset(("gray", "red", "blue"))
"""Hex colours that link to a neighbour only where their own track points to it (§1.2)."""

NODE_BASE = 10
"""Path ends are encoded as ints: 0..5 = board edge, NODE_BASE + i = node i of the tile."""


class Gauge(Enum):
    """Track gauge of a path; titles without gauges use broad everywhere."""

    BROAD = "broad"
    NARROW = "narrow"
    DUAL = "dual"

    def connects(self, other: Gauge) -> bool:
        """Track across an edge joins unless one side is broad and the other narrow."""
        return self is other or Gauge.DUAL in (self, other)

    def kept_by(self, new: Gauge) -> bool:
        """An old path is kept by a new one of the same gauge, or by dual (common rules §6.3.2)."""
        return new is self or new is Gauge.DUAL


class NodeKind(Enum):
    """Revenue locations a path may end at."""

    CITY = "city"
    TOWN = "town"
    OFFBOARD = "offboard"


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(frozen=True, slots=True)
class NodeDef:
    """A city, town or offboard of a tile.

    ``revenue`` is the fixed value; ``phase_revenue`` maps tile colours (``white``/``gray``/…) to a
    value for phase-dependent stops.  ``optional`` marks stops that do not make a route on their
    own (18xx.games ``route:optional``); ``never`` marks stops that do not count at all when
    the graph asks whether a route exists (18xx.games ``route:never``, e.g. ports).
    """

    kind: NodeKind
    part: int
    revenue: int = 0
    phase_revenue: tuple[tuple[str, int], ...] = ()
    slots: int = 0
    optional: bool = False
    groups: tuple[str, ...] = ()
    never: bool = False

    @property
    def max_revenue(self) -> int:
        """Highest value this stop can have (used to compare revenue changes)."""
        return max((v for _, v in self.phase_revenue), default=self.revenue)

    def __getstate__(self) -> list[object]:
        """Pickle and copy, as ``dataclasses`` does for a slotted class (``core.native``)."""
        return fields_state(self)

    def __setstate__(self, state: list[object]) -> None:
        set_fields_state(self, state)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(frozen=True, slots=True)
class PathDef:
    """A piece of track between two ends (edge of the unrotated tile, or node index)."""

    a: int
    b: int
    gauge: Gauge = Gauge.BROAD
    terminal: bool = False

    def __getstate__(self) -> list[object]:
        """Pickle and copy, as ``dataclasses`` does for a slotted class (``core.native``)."""
        return fields_state(self)

    def __setstate__(self, state: list[object]) -> None:
        set_fields_state(self, state)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(frozen=True, slots=True)
class TileDef:
    """An unrotated tile.  ``cost`` is a terrain cost printed on the tile itself."""

    name: str
    color: str
    nodes: tuple[NodeDef, ...] = ()
    paths: tuple[PathDef, ...] = ()
    label: str | None = None
    cost: int = 0
    city_nodes: tuple[int, ...] = field(default=(), compare=False)
    rotations: dict[int, RotatedTile] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    """The six rotations, built on first use (hashing a whole tile to look them up in a shared
    cache cost more than building them)."""

    def __post_init__(self) -> None:
        if self.color not in ALL_COLORS:
            raise ValueError(f"tile {self.name}: unknown colour {self.color!r}")
        for path in self.paths:
            for end in (path.a, path.b):
                if end < NODE_BASE and not 0 <= end <= 5:
                    raise ValueError(f"tile {self.name}: bad edge {end}")
                if end >= NODE_BASE and end - NODE_BASE >= len(self.nodes):
                    raise ValueError(f"tile {self.name}: path to missing node")
        parts = [n.part for n in self.nodes]
        if len(set(parts)) != len(parts):
            raise ValueError(f"tile {self.name}: duplicate part index")
        cities = tuple(i for i, n in enumerate(self.nodes) if n.kind is NodeKind.CITY)
        object.__setattr__(self, "city_nodes", cities)

    @property
    def towns(self) -> int:
        """Number of towns."""
        return sum(1 for n in self.nodes if n.kind is NodeKind.TOWN)

    def node_by_part(self, part: int) -> int | None:
        """Node index of the node with the given part index, if any."""
        for i, node in enumerate(self.nodes):
            if node.part == part:
                return i
        return None

    def rotated(self, rotation: int) -> RotatedTile:
        """The tile as laid with ``rotation`` (cached on the tile)."""
        rotation %= 6
        found = self.rotations.get(rotation)
        if found is None:
            found = self.rotations[rotation] = _rotated(self, rotation)
        return found

    def __getstate__(self) -> list[object]:
        """Pickle and copy, as ``dataclasses`` does for a slotted class (``core.native``)."""
        return fields_state(self)

    def __setstate__(self, state: list[object]) -> None:
        set_fields_state(self, state)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(frozen=True, slots=True)
class RPath:
    """A path of a rotated tile: ``ends`` as board edges / ``NODE_BASE + node``."""

    index: int
    ends: tuple[int, int]
    edges: tuple[int, ...]
    nodes: tuple[int, ...]
    gauge: Gauge
    terminal: bool
    edge_mask: int = field(default=0, compare=False, repr=False)
    """The edges as a bit mask (bit ``e`` for edge ``e``): the network walk tests them against
    the edges being crossed in one operation (``graph._Walker``)."""
    crossings: tuple[tuple[int, int, int, bool], ...] = field(default=(), compare=False, repr=False)
    """Per edge, what the network walk needs to cross it: (edge, its bit, the edge opposite,
    whether other paths of the tile leave by it too - the walk "converges" there).  Derived
    from the tile, so kept with it instead of worked out at every step of every walk."""

    def other_end(self, end: int) -> int:
        """The end opposite ``end``."""
        return self.ends[1] if self.ends[0] == end else self.ends[0]

    def __getstate__(self) -> list[object]:
        """Pickle and copy, as ``dataclasses`` does for a slotted class (``core.native``)."""
        return fields_state(self)

    def __setstate__(self, state: list[object]) -> None:
        set_fields_state(self, state)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(frozen=True, slots=True)
class RotatedTile:
    """A tile definition in one rotation, with lookup tables for walking track."""

    tile: TileDef
    rotation: int
    paths: tuple[RPath, ...]
    paths_at_edge: tuple[tuple[int, ...], ...]
    node_paths: tuple[tuple[int, ...], ...]
    node_exits: tuple[frozenset[int], ...]
    exits: frozenset[int]

    def ct_edges(self) -> list[frozenset[int]]:
        """Exit sets of the cities/towns that have track (18xx.games city_town_edges)."""
        out = []
        for i, node in enumerate(self.tile.nodes):
            if node.kind is not NodeKind.OFFBOARD and self.node_paths[i]:
                out.append(self.node_exits[i])
        return out

    def __getstate__(self) -> list[object]:
        """Pickle and copy, as ``dataclasses`` does for a slotted class (``core.native``)."""
        return fields_state(self)

    def __setstate__(self, state: list[object]) -> None:
        set_fields_state(self, state)


def _rotated(tile: TileDef, rotation: int) -> RotatedTile:
    paths = []
    at_edge: list[list[int]] = [[] for _ in range(6)]
    node_paths: list[list[int]] = [[] for _ in tile.nodes]
    node_exits: list[set[int]] = [set() for _ in tile.nodes]
    shapes = []
    for index, p in enumerate(tile.paths):
        ends = tuple(e if e >= NODE_BASE else (e + rotation) % 6 for e in (p.a, p.b))
        edges = tuple(e for e in ends if e < NODE_BASE)
        nodes = tuple(e - NODE_BASE for e in ends if e >= NODE_BASE)
        shapes.append((ends, edges, nodes))
        for e in edges:
            at_edge[e].append(index)
        for n in nodes:
            node_paths[n].append(index)
            node_exits[n].update(edges)
    for index, (p, (ends, edges, nodes)) in enumerate(zip(tile.paths, shapes, strict=True)):
        crossings = tuple((e, 1 << e, (e + 3) % 6, len(at_edge[e]) > 1) for e in edges)
        mask = sum(1 << e for e in set(edges))
        rpath = RPath(index, (ends[0], ends[1]), edges, nodes, p.gauge, p.terminal, mask, crossings)
        paths.append(rpath)
    return RotatedTile(
        tile=tile,
        rotation=rotation,
        paths=tuple(paths),
        paths_at_edge=tuple(tuple(x) for x in at_edge),
        node_paths=tuple(tuple(x) for x in node_paths),
        node_exits=tuple(frozenset(x) for x in node_exits),
        exits=frozenset(e for p in paths for e in p.edges),
    )


_KIND_KEYS: tuple[tuple[str, NodeKind, str], ...] = (
    ("cities", NodeKind.CITY, "c"),
    ("towns", NodeKind.TOWN, "t"),
    ("offboards", NodeKind.OFFBOARD, "o"),
)


def _amount(value: JSONValue, what: str) -> int:
    """An integer of the data (not a bool); another value raises ValueError."""
    if not is_int(value):
        raise ValueError(f"{what} must be an integer, not {value!r}")
    return value


def _revenue(value: JSONValue, tile: str) -> tuple[int, tuple[tuple[str, int], ...]]:
    """A stop's revenue: an integer, or a table of values by phase colour."""
    if isinstance(value, dict):
        return 0, tuple((str(k), _amount(v, f"tile {tile}: a revenue")) for k, v in value.items())
    return _amount(value, f"tile {tile}: a revenue"), ()


def tile_from_dict(name: str, data: JSONObject, color: str | None = None) -> TileDef:
    """Build a tile from our TOML form: ``cities``/``towns``/``offboards`` lists of tables with
    ``part``, ``revenue`` (int or {colour: value}), ``slots``; ``paths`` tables with ``a``/``b``
    (``eN``, ``cN``, ``tN``, ``oN``), optional ``track`` and ``terminal``.  Raises ValueError."""
    nodes: list[NodeDef] = []
    refs: dict[str, int] = {}
    for key, kind, prefix in _KIND_KEYS:
        for number, item in enumerate(objects(data.get(key) or [], f"{name}: {key}", ValueError)):
            revenue, phase_revenue = _revenue(item.get("revenue", 0), name)
            slots = optional_integer(item, "slots", ValueError)
            node = NodeDef(
                kind=kind,
                part=integer(item, "part", ValueError),
                revenue=revenue,
                phase_revenue=phase_revenue,
                slots=(1 if kind is NodeKind.CITY else 0) if slots is None else slots,
                optional=bool(item.get("optional", False)),
                groups=tuple(texts(item, "groups", ValueError)),
                never=item.get("route") == "never",
            )
            refs[f"{prefix}{number}"] = len(nodes)
            nodes.append(node)
    order = sorted(range(len(nodes)), key=lambda i: nodes[i].part)
    position = {old: new for new, old in enumerate(order)}
    refs = {k: position[v] for k, v in refs.items()}

    def end(token: str) -> int:
        if token.startswith("e") and token[1:].isdigit():
            return int(token[1:])
        if token in refs:
            return NODE_BASE + refs[token]
        raise ValueError(f"tile {name}: unknown path end {token!r}")

    paths = tuple(
        PathDef(
            a=end(text(p, "a", ValueError)),
            b=end(text(p, "b", ValueError)),
            gauge=Gauge(p.get("track", "broad")),
            terminal=bool(p.get("terminal", False)),
        )
        for p in objects(data.get("paths") or [], f"{name}: paths", ValueError)
    )
    label = data.get("label")
    return TileDef(
        name=name,
        color=str(data.get("color", color or "")),
        nodes=tuple(nodes[i] for i in order),
        paths=paths,
        label=str(label) if label is not None else None,
        cost=optional_integer(data, "cost", ValueError) or 0,
    )
