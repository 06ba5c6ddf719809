"""Typed actions: one frozen dataclass per 18xx.games action type (common rules §3.2-3.3).

The action vocabulary stays 18xx.games' JSON (``stellwerk.core.actions`` checks its shape); this
module is its typed form.  :func:`parse` reads one action object once, at the edge (the API and
the file readers), after :func:`~stellwerk.core.actions.check_shape` has refused a malformed
one, and rule code reads the fields of the result (``move.hex``, ``move.price``) instead of
string keys.  :meth:`Move.to_json` writes the action back: the same keys in the same order with
the same values, fields the engine does not read (``created_at``, ``user``, a site's own
additions) kept as they came, so a file read and written again is the same JSON, byte for byte
(``tests/unit/core/test_moves.py`` checks it on every recorded action there is).

Field names are the JSON keys; JSON lists are tuples here (a move is immutable), objects of a
``run_routes`` are :class:`Route`.  ``auto_actions`` (the automatic actions 18xx.games recorded
after an action, common rules §3.5) are moves too.  A type this module does not know by name
loads as :class:`Move` itself with every field in ``rest`` -- only the ``program_*`` standing
orders get there, since ``check_shape`` refuses other unknown types.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import MISSING, dataclass, fields, replace
from types import MappingProxyType
from typing import ClassVar, Generic, Self, TypeVar

from stellwerk.core.actions import (
    ENTITY_TYPES,
    FIELDS,
    LIST,
    NUMBER,
    OPTIONAL_OF,
    TEXT,
    check_shape,
)
from stellwerk.core.jsondata import JSONObject, JSONValue

Rest = tuple[tuple[str, JSONValue], ...]
"""Keys no field reads, with their values, as they came (pairs: a move pickles and copies)."""

_R = TypeVar("_R", bound="Move | Route")
"""A move or route class."""

COMMON = ("type", "entity", "entity_type", "id", "auto_actions")
"""Keys every move has a field for (``type`` is the class's ``TYPE`` unless ``Move`` itself)."""


def _freeze(value: JSONValue) -> object:
    """JSON lists as tuples, recursively (objects stay as they are)."""
    if type(value) is list:
        return tuple([_freeze(v) if type(v) is list else v for v in value])
    return value


def _thaw(value: object) -> JSONValue:
    """Tuples back to JSON lists, routes and moves back to objects."""
    if type(value) is tuple:
        return [v if type(v) is str else _thaw(v) for v in value]
    if isinstance(value, (Route, Move)):
        return value.to_json()
    if value is None or isinstance(value, (bool, int, float, str, dict)):
        return value  # a leaf or an object as it came
    raise TypeError(f"not JSON: {value!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Route:
    """One train's run of a ``run_routes`` (common rules §6.1): the train, the revenue the
    file claims, the hexes, nodes and connections visited; other keys are kept in ``rest``."""

    train: str
    revenue: int | None = None
    hexes: tuple[str, ...] | None = None
    nodes: tuple[str, ...] | None = None
    connections: tuple[tuple[str, ...], ...] | None = None
    order: tuple[str, ...] = ()
    rest: Rest = ()

    @classmethod
    def from_json(cls, data: JSONObject) -> Route:
        reader = _ROUTE_READER
        made = reader.made()
        fields_of = reader.kinds
        rest: list[tuple[str, JSONValue]] = []
        for key, value in data.items():
            put = fields_of.get(key)
            if put is None:
                rest.append((key, value))
            else:
                put[0](made, _freeze(value))
        return reader.finished(made, data, rest)

    def to_json(self) -> JSONObject:
        return _write(self, self.order, self.rest)


class RouteJSON(Mapping[str, JSONValue]):
    """A route's JSON object (:meth:`Route.to_json`: the same keys in the same order, the same
    values) read key by key, each value made when first read: a run's revenue is all a replay
    reads of its routes, the route checks of live play read each field once or twice."""

    __slots__ = ("_keys", "_read", "_route")

    def __init__(self, route: Route) -> None:
        self._route = route
        self._keys = _keys(route, route.order)
        self._read: dict[str, JSONValue] = {}

    def __getitem__(self, key: str) -> JSONValue:
        read = self._read
        if key in read:
            return read[key]
        if key not in self._keys:
            raise KeyError(key)
        route = self._route
        typed = key in _names(Route)[1]
        value = _thaw(getattr(route, key)) if typed else dict(route.rest)[key]
        read[key] = value
        return value

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def route_views(routes: Sequence[Route]) -> list[RouteJSON]:
    """The JSON objects of the routes of a run, read key by key (:class:`RouteJSON`)."""
    return [RouteJSON(route) for route in routes]


@dataclass(frozen=True, slots=True, kw_only=True)
class Move:
    """An action: who acts (``entity`` and its ``entity_type``), its number in the game's
    record (``id``, None until the game numbers it) and the automatic actions recorded after
    it.  ``order`` is the order of the keys as they came, ``rest`` the keys no field reads."""

    TYPE: ClassVar[str] = ""

    entity: int | str
    entity_type: str = "player"
    id: int | None = None
    auto_actions: tuple[Move, ...] | None = None
    order: tuple[str, ...] = ()
    rest: Rest = ()

    @property
    def type(self) -> str:
        """The 18xx.games type name (``rest["type"]`` for a type without a class)."""
        return self.TYPE or str(dict(self.rest).get("type", ""))

    def __init_subclass__(cls, **kwargs: object) -> None:
        """A class of one type answers :attr:`type` with a plain class attribute, its
        ``TYPE`` (the routing and the handlers ask it several times per action; a property
        is a call)."""
        # (``Move`` by name: the slots dataclass is a new class, a bare super() names the old)
        super(Move, cls).__init_subclass__(**kwargs)
        if cls.TYPE:
            setattr(cls, "type", cls.TYPE)  # noqa: B010 (a property of the base shadowed)

    def to_json(self) -> JSONObject:
        """The action as 18xx.games JSON (keys in the order they came)."""
        return _write(self, self.order, self.rest)

    def numbered(self, number: int) -> Self:
        """This move with the id the game's record gives it."""
        return replace(self, id=number, order=_with_key(self.order, "id"))

    def with_autos(self, autos: tuple[Move, ...] | None) -> Self:
        """This move with the automatic actions recorded after it (None: none)."""
        if autos is None:
            order = tuple(key for key in self.order if key != "auto_actions")
        else:
            order = _with_key(self.order, "auto_actions")
        return replace(self, auto_actions=autos, order=order)


_NAMES: dict[type, tuple[tuple[str, ...], frozenset[str]]] = {}


def _names(cls: type[_R]) -> tuple[tuple[str, ...], frozenset[str]]:
    """The JSON fields of a move or route class, in declaration order and as a set."""
    found = _NAMES.get(cls)
    if found is None:
        names = tuple(f.name for f in fields(cls) if f.name not in ("order", "rest"))
        found = _NAMES[cls] = (names, frozenset(names))
    return found


def _with_key(order: tuple[str, ...], key: str) -> tuple[str, ...]:
    return order if key in order else (*order, key)


def _keys(obj: Move | Route, order: tuple[str, ...]) -> tuple[str, ...]:
    """The keys of the JSON object of a move or route: ``order``, the keys as they came; for
    one made in the program rather than read (no ``order``) its type, then its fields that
    are set, in declaration order."""
    if order:
        return order
    names = _names(type(obj))[1]
    head = ("type",) if isinstance(obj, Move) else ()
    declared = _names(type(obj))[0]
    order = (*head, *(n for n in declared if n != "auto_actions"), "auto_actions")
    return tuple(k for k in order if k == "type" or (k in names and getattr(obj, k) is not None))


def _write(obj: Move | Route, order: tuple[str, ...], rest: Rest) -> JSONObject:
    """The JSON object of a move or route: every key of :func:`_keys` (typed fields from the
    object, the rest from ``rest``)."""
    names = _names(type(obj))[1]
    order = _keys(obj, order)
    unread = dict(rest)
    out: JSONObject = {}
    for key in order:
        if key == "type" and isinstance(obj, Move):
            out[key] = obj.type
        elif key in names:
            out[key] = _thaw(getattr(obj, key))
        else:
            out[key] = unread[key]
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Bid(Move):
    """A bid in an auction: on a company, a corporation or a minor."""

    TYPE: ClassVar[str] = "bid"
    price: int = 0
    company: str | None = None
    corporation: str | None = None
    minor: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BlindBid(Move):
    """Sealed bids: one amount per item of the auction, in item order (0: no bid)."""

    TYPE: ClassVar[str] = "blind_bid"
    bids: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass(Move):
    """Pass: no (further) move in this step."""

    TYPE: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True, kw_only=True)
class Par(Move):
    """Start a corporation at a par price (``share_price``: the market cell's id)."""

    TYPE: ClassVar[str] = "par"
    corporation: str = ""
    share_price: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class BuyShares(Move):
    """Buy certificates (ids ``CORP_INDEX``) of one corporation."""

    TYPE: ClassVar[str] = "buy_shares"
    shares: tuple[str, ...] = ()
    percent: int | float | None = None
    share_price: int | None = None
    total_price: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SellShares(Move):
    """Sell certificates of one corporation to the pool."""

    TYPE: ClassVar[str] = "sell_shares"
    shares: tuple[str, ...] = ()
    percent: int | float | None = None
    share_price: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BuyCompany(Move):
    """Buy a private company at a price."""

    TYPE: ClassVar[str] = "buy_company"
    company: str = ""
    price: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class LayTile(Move):
    """Lay or upgrade a tile on a hex, turned ``rotation`` sixths."""

    TYPE: ClassVar[str] = "lay_tile"
    hex: str = ""
    tile: str = ""
    rotation: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceToken(Move):
    """Place a station token in a city (``slot``: which one; ``tokener``: the corporation
    whose token it is when a company places it)."""

    TYPE: ClassVar[str] = "place_token"
    city: str = ""
    slot: int | None = None
    tokener: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoveToken(Move):
    """Take a station token off a city slot."""

    TYPE: ClassVar[str] = "remove_token"
    city: str = ""
    slot: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class BuyToken(Move):
    """Buy another corporation's station token in a city slot at a price."""

    TYPE: ClassVar[str] = "buy_token"
    city: str = ""
    slot: int = 0
    price: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class RunRoutes(Move):
    """Run the trains: one :class:`Route` per train (``revenue``: the total alone, as games
    imported from reports that record no routes claim it)."""

    TYPE: ClassVar[str] = "run_routes"
    routes: tuple[Route, ...] = ()
    extra_revenue: int | None = None
    subsidy: int | None = None
    revenue: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Dividend(Move):
    """Pay out, withhold or split (``kind``: ``payout``, ``withhold``, ``half``)."""

    TYPE: ClassVar[str] = "dividend"
    kind: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class BuyTrain(Move):
    """Buy a train at a price (``variant``: which of a train's variants)."""

    TYPE: ClassVar[str] = "buy_train"
    train: str = ""
    price: int = 0
    variant: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DiscardTrain(Move):
    """Discard a train over the limit."""

    TYPE: ClassVar[str] = "discard_train"
    train: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Choose(Move):
    """Choose one of the answers a step lists (``corporation``: the one the choice is about,
    where a step asks it of several, as a report's price drops)."""

    TYPE: ClassVar[str] = "choose"
    choice: int | str = ""
    corporation: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Merge(Move):
    """Propose or agree to a merger (``corporation``: the other party)."""

    TYPE: ClassVar[str] = "merge"
    corporation: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Assign(Move):
    """Assign a company's ability to a target."""

    TYPE: ClassVar[str] = "assign"
    target: str = ""
    target_type: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Bankrupt(Move):
    """Declare bankruptcy."""

    TYPE: ClassVar[str] = "bankrupt"
    option: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Message(Move):
    """A chat line (no effect on the game)."""

    TYPE: ClassVar[str] = "message"
    message: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Log(Move):
    """A log line some steps write (no effect on the game)."""

    TYPE: ClassVar[str] = "log"
    message: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Undo(Move):
    """Undo the last action (or back to ``action_id``), resolved before replay."""

    TYPE: ClassVar[str] = "undo"
    action_id: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Redo(Move):
    """Redo an undone action, resolved before replay."""

    TYPE: ClassVar[str] = "redo"


@dataclass(frozen=True, slots=True, kw_only=True)
class EndGame(Move):
    """End the game by hand."""

    TYPE: ClassVar[str] = "end_game"


@dataclass(frozen=True, slots=True, kw_only=True)
class TakeLoan(Move):
    """Take a loan."""

    TYPE: ClassVar[str] = "take_loan"


@dataclass(frozen=True, slots=True, kw_only=True)
class PayoffLoan(Move):
    """Pay off a loan."""

    TYPE: ClassVar[str] = "payoff_loan"


@dataclass(frozen=True, slots=True, kw_only=True)
class PayoffDebt(Move):
    """Pay off a debt."""

    TYPE: ClassVar[str] = "payoff_debt"


@dataclass(frozen=True, slots=True, kw_only=True)
class DestinationConnection(Move):
    """A destination reached (written by some titles' engines; no effect here)."""

    TYPE: ClassVar[str] = "destination_connection"
    hexes: tuple[str, ...] | None = None


CLASSES: Mapping[str, type[Move]] = MappingProxyType(
    {
        cls.TYPE: cls
        for cls in (
            Bid, BlindBid, Pass, Par, BuyShares, SellShares, BuyCompany, LayTile, PlaceToken,
            RemoveToken, BuyToken, RunRoutes, Dividend, BuyTrain, DiscardTrain, Choose, Merge,
            Assign, Bankrupt, Message, Log, Undo, Redo, EndGame, TakeLoan, PayoffLoan,
            PayoffDebt, DestinationConnection,
        )
    }
)  # fmt: skip
"""The class of each type by name; ``program_*`` types load as :class:`Move`."""

M = TypeVar("M", bound=Move)


def parse(action: object) -> Move:
    """The typed move of an 18xx.games action object, refused (``IllegalAction`` naming the
    field) when it is malformed; the object is not changed.

    A replay parses every action of a game, so an action of a known type is first read by
    its type's fast reader (:func:`_fast_reader`: the checks of ``check_shape`` and the
    building of :func:`_build` in one straight pass).  It answers only when it is sure;
    anything it doubts -- a malformed action, an unusual but valid one -- takes the slow
    path, ``check_shape`` (which words the refusal) and :func:`_build`, so what is refused,
    and how, and what is built are the same either way."""
    if type(action) is dict:
        kind = action.get("type")
        if type(kind) is str:
            fast = _FAST.get(kind) or _first_fast(kind)
            if fast is not None:
                move = fast(action)
                if move is not None:
                    return move
    check_shape(action)
    assert isinstance(action, dict)  # check_shape refuses anything else
    return _build(action)


def _build(action: JSONObject) -> Move:
    reader = _READERS.get(str(action["type"]), _MOVE_READER)
    made = reader.made()
    fields_of = reader.kinds
    rest: list[tuple[str, JSONValue]] = []
    for key, value in action.items():
        put = fields_of.get(key)
        if put is None:
            rest.append((key, value))
        elif type(value) is not list:
            put[0](made, value)  # a type check_shape has checked
        elif put[1] is _AUTOS:
            put[0](made, tuple([parse(a) for a in value]))
        elif put[1] is _ROUTES:
            put[0](made, tuple([Route.from_json(r) for r in value if type(r) is dict]))
        else:
            put[0](made, _freeze(value))
    return reader.finished(made, action, rest)


_FREEZE, _AUTOS, _ROUTES = "freeze", "autos", "routes"
"""How :func:`_build` reads a field's JSON list: as a tuple, as moves, as routes."""

Setter = Callable[[object, object], None]
"""The ``__set__`` of a slot: what a frozen dataclass's ``__init__`` does for one field."""


class _Reader(Generic[_R]):
    """How a move or route class is read from its JSON object, worked out once per class:
    the setter of each field's slot and how its JSON list is read (``kinds``, by key: every
    field but ``order`` and ``rest``, and for a class of one type not ``type``, its TYPE),
    the defaults a new object starts with, and the fields without one (``entity``, a
    route's ``train``: check_shape made sure of them)."""

    __slots__ = ("cls", "defaults", "kinds", "order", "required", "rest")

    def __init__(self, cls: type[_R]) -> None:
        self.cls = cls
        setters: dict[str, Setter] = {}
        defaults: list[tuple[Setter, object]] = []
        required: list[str] = []
        for f in fields(cls):
            slot = next(k.__dict__[f.name] for k in cls.__mro__ if f.name in k.__dict__)
            setters[f.name] = slot.__set__
            if f.default is MISSING:
                required.append(f.name)
            elif f.name not in ("order", "rest"):  # set by :meth:`finished`
                defaults.append((slot.__set__, f.default))
        self.kinds: dict[str, tuple[Setter, str]] = {
            name: (setters[name], {"auto_actions": _AUTOS, "routes": _ROUTES}.get(name, _FREEZE))
            for name in _names(cls)[0]
        }
        if cls is not Move and issubclass(cls, Move):
            self.kinds["type"] = (_ignore, _FREEZE)  # a class's type is its TYPE
        self.defaults = tuple(defaults)
        self.required = tuple(required)
        self.order = setters["order"]
        self.rest = setters["rest"]

    def made(self) -> _R:
        """A new object, each field with a default set to it (``cls(**{})`` without the
        keyword call, asked for every action read)."""
        made: _R = _new(self.cls)
        for put, default in self.defaults:
            put(made, default)
        return made

    def finished(self, made: _R, data: JSONObject, rest: list[tuple[str, JSONValue]]) -> _R:
        """``made`` with the order of the keys of ``data`` and the keys no field reads; a
        field without a default must have been given."""
        for name in self.required:
            if name not in data:
                raise TypeError(f"{self.cls.__name__} needs the field {name!r}")
        self.order(made, tuple(data))
        self.rest(made, tuple(rest))
        return made


def _ignore(made: object, value: object) -> None:
    """The setter of a key read by no field (a class's ``type``)."""


_new = object.__new__

_READERS: dict[str, _Reader[Move]] = {cls.TYPE: _Reader[Move](cls) for cls in CLASSES.values()}
"""The reader of each type by name."""

_MOVE_READER = _Reader(Move)
"""The reader of a type without a class (the ``program_*`` standing orders)."""

_ROUTE_READER = _Reader(Route)

# The fast path of :func:`parse`.  Its readers may be stricter than ``check_shape`` (exact
# types: ``type(v) is int`` where the check says ``isinstance(v, int) and not bool``) but
# never more lenient: whatever they accept, ``check_shape`` accepts, and they build what
# :func:`_build` builds from it (``tests/unit/core/test_move_parse_refusals.py`` compares
# the two paths on malformed, odd and all recorded actions).

FastReader = Callable[[JSONObject], "Move | None"]
"""Reads an action of one type into its move, or None when unsure (then the slow path)."""

Shape = tuple[tuple[str, ...], bool]
"""What the keys of an action (or route) in their order say, worked out once per order of
keys: the keys no field reads, in that order, and whether any of the optional fields
``check_shape`` checks but no field reads is among them."""

_SHAPES_KEPT = 256
"""How many orders of keys each reader remembers (a file has a few dozen; a stream of odd
actions must not fill the memory)."""


def _shape(
    order: tuple[str, ...],
    known: frozenset[str],
    others: frozenset[str],
    shapes: dict[tuple[str, ...], Shape],
) -> Shape:
    """The :data:`Shape` of an order of keys, remembered in ``shapes``."""
    shape = (tuple([k for k in order if k not in known]), not others.isdisjoint(order))
    if len(shapes) < _SHAPES_KEPT:
        shapes[order] = shape
    return shape


def _rest(data: JSONObject, extra: tuple[str, ...]) -> Rest:
    """The keys ``extra`` of ``data`` with their values (the ``rest`` of a move or route)."""
    if not extra:
        return ()
    if len(extra) == 1:
        key = extra[0]
        return ((key, data[key]),)
    return tuple([(k, data[k]) for k in extra])


_ONLY_STR = frozenset({str})
_ONLY_INT = frozenset({int})

_ROUTE_KEYS = frozenset(_names(Route)[0])
_ROUTE_SHAPES: dict[tuple[str, ...], Shape] = {}
_ROUTE_PUT = {name: put for name, (put, _) in _ROUTE_READER.kinds.items()}


def _read_routes(routes: list[JSONValue]) -> tuple[Route, ...] | None:
    """The routes of a ``run_routes`` (as :meth:`Route.from_json` reads them), each checked
    as ``check_shape`` checks it (exact types); None if any is in doubt."""
    put_train, put_revenue = _ROUTE_PUT["train"], _ROUTE_PUT["revenue"]
    put_hexes, put_nodes = _ROUTE_PUT["hexes"], _ROUTE_PUT["nodes"]
    put_connections = _ROUTE_PUT["connections"]
    put_order, put_rest = _ROUTE_READER.order, _ROUTE_READER.rest
    read: list[Route] = []
    for data in routes:
        if type(data) is not dict:
            return None
        get = data.get
        train = get("train")
        revenue = get("revenue")
        hexes: object = get("hexes")
        nodes: object = get("nodes")
        connections: object = get("connections")
        if type(train) is not str or (revenue is not None and type(revenue) is not int):
            return None
        if hexes is not None:
            if type(hexes) is not list or not _ONLY_STR.issuperset(map(type, hexes)):
                return None
            hexes = tuple(hexes)
        if nodes is not None:
            if type(nodes) is not list or not _ONLY_STR.issuperset(map(type, nodes)):
                return None
            nodes = tuple(nodes)
        if connections is not None:
            if type(connections) is not list:
                return None
            for hop in connections:
                if type(hop) is not list or not _ONLY_STR.issuperset(map(type, hop)):
                    return None
            connections = tuple(map(tuple, connections))
        made: Route = _new(Route)
        put_train(made, train)
        put_revenue(made, revenue)
        put_hexes(made, hexes)
        put_nodes(made, nodes)
        put_connections(made, connections)
        order = tuple(data)
        shape = _ROUTE_SHAPES.get(order)
        if shape is None:
            shape = _shape(order, _ROUTE_KEYS, frozenset(), _ROUTE_SHAPES)
        put_order(made, order)
        put_rest(made, _rest(data, shape[0]))
        read.append(made)
    return tuple(read)


def _others_fit(action: JSONObject, others: Mapping[str, tuple[type, ...]]) -> bool:
    """Whether the optional fields ``check_shape`` checks that no field of the class reads
    (as a standing order's ``corporation``) have their exact types where they are given."""
    for key, types in others.items():
        value = action.get(key)
        if value is not None and type(value) not in types:
            return False
    return True


def _exactly(var: str, types: tuple[type, ...]) -> str:
    """Source: whether ``var`` is not exactly of one of ``types``."""
    return " and ".join(f"type({var}) is not {t.__name__}" for t in types)


def _fast_source(kind: str, cls: type[Move]) -> str:
    """The source of the fast reader of ``kind``: every check of ``check_shape`` for the
    type (returning None where it fails or is in doubt), then the fields set as
    :func:`_build` sets them.  Generated once per type so that a read is one straight pass
    (no loop over the keys, no setter call per default overwritten)."""
    required = FIELDS[kind]
    optional = OPTIONAL_OF[kind]
    names = _names(cls)[0]
    defaults = {f.name: f.default for f in fields(cls)}
    assert set(required) <= set(names), kind
    code = [
        "def read(action):",
        "    get = action.get",
        "    v_entity = get('entity')",
        "    if v_entity is None:",
        "        return None",
        "    v_entity_type = get('entity_type', 'player')",
        "    if v_entity_type not in ENTITY_TYPES:",
        "        return None",
        "    order = tuple(action)",
        "    shape = SHAPES.get(order)",
        "    if shape is None:",
        "        shape = _shape(order, KNOWN, OTHER_KEYS, SHAPES)",
    ]
    for name, types in required.items():
        assert types in (NUMBER, TEXT, LIST, (int, str)), (kind, name)
        code += [
            f"    v_{name} = get({name!r})",
            f"    if {_exactly(f'v_{name}', types)}:",
            "        return None",
        ]
        if types is LIST:
            inside = {"shares": "_ONLY_STR", "bids": "_ONLY_INT"}.get(name)
            if inside is not None:  # a list of ids or of whole numbers: as a tuple
                code += [
                    f"    if not {inside}.issuperset(map(type, v_{name})):",
                    "        return None",
                    f"    v_{name} = tuple(v_{name})",
                ]
            else:
                assert name == "routes", (kind, name)
                code += [
                    f"    v_{name} = _read_routes(v_{name})",
                    f"    if v_{name} is None:",
                    "        return None",
                ]
    for name, types in optional.items():
        if name in names:  # the field is None where the key is missing or null
            assert defaults[name] is None, (kind, name)
            code += [
                f"    v_{name} = get({name!r})",
                f"    if v_{name} is not None and {_exactly(f'v_{name}', types)}:",
                "        return None",
            ]
    others = {name: types for name, types in optional.items() if name not in names}
    if others:
        code += [
            "    if shape[1] and not _others_fit(action, OTHERS):",
            "        return None",
        ]
    for name in names:
        if name in ("entity", "entity_type", "auto_actions") or name in required:
            continue
        if name not in optional:  # unchecked: as it came, a list as a tuple
            code += [
                f"    v_{name} = get({name!r}, D_{name})",
                f"    if type(v_{name}) is list:",
                f"        v_{name} = _freeze(v_{name})",
            ]
    code += [
        "    if type(v_entity) is list:",
        "        v_entity = _freeze(v_entity)",
        "    v_auto_actions = get('auto_actions')",  # last: parsing them may refuse one
        "    if type(v_auto_actions) is list:",
        "        v_auto_actions = tuple([parse(a) for a in v_auto_actions])",
        "    made = _new(CLS)",
        *(f"    P_{name}(made, v_{name})" for name in names),
        "    P_order(made, order)",
        "    P_rest(made, _rest(action, shape[0]))",
        "    return made",
    ]
    return "\n".join(code) + "\n"


def _fast_reader(kind: str) -> FastReader:
    """The fast reader of an action type (:func:`_fast_source`), compiled."""
    cls = CLASSES.get(kind, Move)
    reader = _READERS.get(kind, _MOVE_READER)
    names = _names(cls)[0]
    optional = OPTIONAL_OF[kind]
    others = {name: types for name, types in optional.items() if name not in names}
    scope: dict[str, object] = {
        "ENTITY_TYPES": ENTITY_TYPES,
        "CLS": cls,
        "KNOWN": frozenset(reader.kinds),
        "OTHERS": others,
        "OTHER_KEYS": frozenset(others),
        "_ONLY_STR": _ONLY_STR,
        "_ONLY_INT": _ONLY_INT,
        "_read_routes": _read_routes,
        "_others_fit": _others_fit,
        "_rest": _rest,
        "_shape": _shape,
        "SHAPES": {},
        "_freeze": _freeze,
        "_new": _new,
        "parse": parse,
        "P_order": reader.order,
        "P_rest": reader.rest,
        **{f"P_{name}": put for name, (put, _) in reader.kinds.items() if name != "type"},
        **{f"D_{f.name}": f.default for f in fields(cls)},
    }
    exec(_fast_source(kind, cls), scope)  # our own source, made from our tables
    read: FastReader = scope["read"]  # type: ignore[assignment]
    return read


_FAST: dict[str, FastReader] = {}
"""The fast reader of each type read so far: made when the first action of the type is read
(compiling all of them would add some 10 ms to every start; a game uses half of them)."""


def _first_fast(kind: str) -> FastReader | None:
    """The fast reader of a type ``check_shape`` knows by name (``program_*`` ones too),
    made and kept in :data:`_FAST`; None for any other type (the slow path refuses it, or
    loads an unknown ``program_*`` type as :class:`Move`)."""
    if kind not in FIELDS:
        return None
    fast = _FAST[kind] = _fast_reader(kind)
    return fast


def as_move(action: Move | JSONObject) -> Move:
    """A move as it is, an action object parsed (:func:`parse`)."""
    return action if isinstance(action, Move) else parse(action)


def acting(action: Move | Mapping[str, object]) -> tuple[object, object]:
    """(entity, entity_type) of a move, or of an action object not parsed yet (the live gate
    asks who acts before it parses; a missing type is a player, common rules §3.2)."""
    if isinstance(action, Move):
        return action.entity, action.entity_type
    return action.get("entity"), action.get("entity_type", "player")


def choice_of(move: Move) -> int | str | None:
    """The answer a ``choose`` move picks; None for a move of any other type (a procedure
    whose question takes several types of answer reads it so)."""
    return move.choice if isinstance(move, Choose) else None


def city_of(move: Move) -> str | None:
    """The city a token move names (place, remove, buy); None for any other move."""
    if isinstance(move, (PlaceToken, RemoveToken, BuyToken)):
        return move.city
    return None


def expect(move: Move, cls: type[M]) -> M:
    """``move`` as a ``cls`` (a step's handler for one type gets only that type; anything
    else is an engine defect, a ``TypeError``)."""
    if not isinstance(move, cls):
        raise TypeError(f"expected {cls.TYPE}, got {move.type}")
    return move
