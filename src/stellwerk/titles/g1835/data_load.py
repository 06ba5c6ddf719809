"""Load 1835's data files (``data/*.toml``) once per process into typed, validated objects.

The facts themselves live in the TOML files (game.toml, map.toml, tiles.toml); this module only
reads them (``titles.datafiles.read_table``), checks their internal consistency and offers small
lookups: market cells by Rails name, the Rails-to-18xx.games tile rotation, the Rails upgrade table.
game.toml's common facts (players, bank, starting cash, certificate limits, market rows, phases,
trains, the majors' common fields) are read by the core schema (``core.schema.game_tables``);
1835's own facts are a layer on top: a phase's printed number, off-board colour and events, the
towns of an N+N train, a major's home city, start price and cell, group and reserved
certificates, and the privates, minors, start packet, release rules and start orders.
No option changes the data: the options act on the game built from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from stellwerk.core.jsondata import (
    JSONObject,
    as_object,
    integer,
    objects_at,
    optional_integer,
    text,
    texts,
)
from stellwerk.core.map.spec import MapSpec, SupplyEntry, load_map, load_supply
from stellwerk.core.schema import CorporationDef, TrainDef, game_tables
from stellwerk.core.trains import PhaseDef
from stellwerk.titles.datafiles import read_table

DATA = Path(__file__).parent / "data"

RAILS_ORIENTATIONS: tuple[str, ...] = ("SW", "W", "NW", "NE", "E", "SE")
"""Rails orientation names of a pointy (EW) map by index (Rails MapOrientation)."""


def _read(name: str) -> dict[str, Any]:
    return read_table(DATA, name)


@cache
def game_data() -> dict[str, Any]:
    """The raw facts of ``data/game.toml``."""
    return _read("game.toml")


@cache
def map_data() -> dict[str, Any]:
    """The raw ``data/map.toml`` (hexes in the map subsystem's format)."""
    return _read("map.toml")


@cache
def tiles_data() -> dict[str, Any]:
    """The raw ``data/tiles.toml`` (tile supply in the map subsystem's format)."""
    return _read("tiles.toml")


@cache
def map_spec() -> MapSpec:
    """1835's map, built by the core loader (pointy layout, letter = row)."""
    return load_map(map_data())


@cache
def supply() -> tuple[SupplyEntry, ...]:
    """1835's tile supply in 18xx.games order (rules/1835.md 8.3: supply is limited)."""
    return tuple(load_supply(tiles_data()))


# --- typed views -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Phase:
    """A phase (rules/1835.md section 9): Rails id, printed number, tile colours, ORs, limits."""

    name: str
    printed: str
    tiles: tuple[str, ...]
    operating_rounds: int
    train_limit: Mapping[str, int]
    offboard_color: str
    status: tuple[str, ...]
    events: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TrainType:
    """A train type (rules/1835.md 8.5, 8.7): ``towns`` > 0 for N+N trains."""

    name: str
    distance: int
    towns: int
    price: int
    count: int
    rusts_on: str | None
    events: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Private:
    """A private company (rules/1835.md section 6); abilities stay plain data tables."""

    sym: str
    x18_sym: str
    name: str
    value: int
    revenue: int
    closes_on_phase: str | None
    abilities: tuple[Mapping[str, Any], ...]
    extra_share: Mapping[str, Any] | None
    prussian_exchange_percent: int | None


@dataclass(frozen=True, slots=True)
class Minor:
    """A pre-Prussian minor (rules/1835.md section 7)."""

    sym: str
    x18_sym: str
    name: str
    price: int
    home: str
    city: int
    exchange_percent: int
    exchange_president: bool


@dataclass(frozen=True, slots=True)
class Major:
    """A major company (rules/1835.md 1, 5.2, 8.4): share order, first = director's certificate."""

    sym: str
    name: str
    home: str
    city: int
    start_price: int
    start_cell: str
    tokens: int
    shares: tuple[int, ...]
    float_percent: int
    group: int
    reserved: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Included:
    """The certificate that comes with a start-packet item (rules/1835.md 3.1): a share of
    ``company`` of ``percent``, the president's certificate if ``president``."""

    company: str
    percent: int
    president: bool = False


def _included(value: object) -> Included | None:
    """A start item's ``includes`` table, or None; another shape raises ValueError."""
    if value is None:
        return None
    table = as_object(value, "includes", ValueError)
    president = table.get("president", False)
    if not isinstance(president, bool):
        raise ValueError(f"includes.president must be true or false, not {president!r}")
    return Included(
        text(table, "company", ValueError), integer(table, "percent", ValueError), president
    )


@dataclass(frozen=True, slots=True)
class StartItem:
    """An item of the start packet (rules/1835.md 3.1)."""

    item: str
    row: int
    price: int
    includes: Included | None


@dataclass(frozen=True, slots=True)
class ReleaseRule:
    """When ``companies`` have each sold ``sold_percent`` (out of the IPO), ``release`` becomes
    available (seed 004 items 2.3-2.6; rules/1835.md section 4)."""

    companies: tuple[str, ...]
    sold_percent: int
    company: str
    shares: str
    source: str


@dataclass(frozen=True, slots=True)
class StartOrder:
    """Player order in start round 1 (rules/1835.md 3.3)."""

    cycles: tuple[str, ...]
    then: str
    all_items_available: bool


@dataclass(frozen=True, slots=True)
class TitleData:
    """All of game.toml, typed."""

    bank: int
    players: tuple[int, int]
    starting_cash: Mapping[int, int]
    cert_limit: Mapping[int, int]
    market: tuple[tuple[str, ...], ...]
    phases: tuple[Phase, ...]
    trains: tuple[TrainType, ...]
    privates: tuple[Private, ...]
    minors: tuple[Minor, ...]
    majors: tuple[Major, ...]
    start_packet: tuple[StartItem, ...]
    release_rules: tuple[ReleaseRule, ...]
    share_groups: tuple[tuple[str, ...], ...]
    start_orders: Mapping[str, StartOrder]
    start_order: str
    raw: Mapping[str, Any]

    def major(self, sym: str) -> Major:
        """The major with this symbol."""
        return next(m for m in self.majors if m.sym == sym)

    def minor(self, sym: str) -> Minor:
        """The minor with this symbol."""
        return next(m for m in self.minors if m.sym == sym)

    def private(self, sym: str) -> Private:
        """The private company with this symbol."""
        return next(p for p in self.privates if p.sym == sym)


@cache
def title_data() -> TitleData:
    """game.toml as a :class:`TitleData`: the common facts read by ``core.schema`` (players,
    bank, starting cash, certificate limits, market, phases, trains, the majors' common
    fields), 1835's own beside them; raises ValueError if it is inconsistent."""
    g = game_data()
    core = game_tables(g)
    phases = tuple(
        _phase(d, limits, p)
        for d, limits, p in zip(
            core.phases, core.train_limits, objects_at(g, "phases", ValueError), strict=True
        )
    )
    trains = tuple(
        _train(t, entry)
        for t, entry in zip(core.trains, objects_at(g, "trains", ValueError), strict=True)
    )
    privates = tuple(
        Private(
            sym=c["sym"],
            x18_sym=c.get("x18_sym", c["sym"]),
            name=c["name"],
            value=int(c["value"]),
            revenue=int(c["revenue"]),
            closes_on_phase=c.get("closes_on_phase"),
            abilities=tuple(c.get("abilities", ())),
            extra_share=c.get("extra_share"),
            prussian_exchange_percent=(
                int(c["prussian_exchange"]["percent"]) if "prussian_exchange" in c else None
            ),
        )
        for c in g["companies"]
    )
    minors = tuple(
        Minor(
            sym=m["sym"],
            x18_sym=m["x18_sym"],
            name=m["name"],
            price=int(m["price"]),
            home=m["home"],
            city=int(m["city"]),
            exchange_percent=int(m["prussian_exchange"]["percent"]),
            exchange_president=bool(m["prussian_exchange"].get("president", False)),
        )
        for m in g["minors"]
    )
    majors = tuple(
        _major(c, entry)
        for c, entry in zip(
            core.corporations, objects_at(g, "corporations", ValueError), strict=True
        )
    )
    packet = tuple(
        StartItem(
            item=s["item"],
            row=int(s["row"]),
            price=int(s["price"]),
            includes=_included(s.get("includes")),
        )
        for s in g["start_packet"]
    )
    rules = tuple(
        ReleaseRule(
            companies=tuple(r["when"]["companies"]),
            sold_percent=int(r["when"]["sold_percent"]),
            company=r["release"]["company"],
            shares=r["release"]["shares"],
            source=r["source"],
        )
        for r in g["release_rules"]
    )
    orders = {
        name: StartOrder(
            cycles=tuple(o["cycles"]),
            then=o["then"],
            all_items_available=bool(o["all_items_available"]),
        )
        for name, o in g["start_orders"].items()
    }
    data = TitleData(
        bank=core.bank,
        players=(core.players[0], core.players[-1]),
        starting_cash=core.starting_cash,
        cert_limit=core.cert_limit,
        market=core.market,
        phases=phases,
        trains=trains,
        privates=privates,
        minors=minors,
        majors=majors,
        start_packet=packet,
        release_rules=rules,
        share_groups=tuple(tuple(grp) for grp in g["share_release"]["groups"]),
        start_orders=orders,
        start_order=str(g["start_order"]),
        raw=g,
    )
    _validate(data)
    return data


def _phase(core: PhaseDef, limits: Mapping[str, int], entry: JSONObject) -> Phase:
    """A core phase with 1835's own: the printed number, the off-board colour, the events;
    its train limits are by company kind (``minor``, ``major``, ``PR``)."""
    if not limits:
        raise ValueError(f"phase {core.name}: train limits by company kind expected")
    return Phase(
        name=core.name,
        printed=text(entry, "printed", ValueError),
        tiles=tuple(core.tiles),
        operating_rounds=core.operating_rounds,
        train_limit=limits,
        offboard_color=text(entry, "offboard_color", ValueError),
        status=tuple(core.status),
        events=tuple(texts(entry, "events", ValueError)) if "events" in entry else (),
    )


def _train(core: TrainDef, entry: JSONObject) -> TrainType:
    """A core train type with 1835's towns of an N+N train (0 for a plain train)."""
    towns = optional_integer(entry, "towns", ValueError)
    return TrainType(
        name=core.name,
        distance=core.distance,
        towns=0 if towns is None else towns,
        price=core.price,
        count=core.count,
        rusts_on=core.rusts_on,
        events=core.events,
    )


def _major(core: CorporationDef, entry: JSONObject) -> Major:
    """A core corporation with 1835's own: the home city, the start price and its market
    cell, the release group and the reserved certificates (PR's, for the exchanges)."""
    if core.home is None:
        raise ValueError(f"{core.sym}: no home")
    return Major(
        sym=core.sym,
        name=core.name,
        home=core.home,
        city=integer(entry, "city", ValueError),
        start_price=integer(entry, "start_price", ValueError),
        start_cell=text(entry, "start_cell", ValueError),
        tokens=core.tokens,
        shares=core.shares,
        float_percent=core.float_percent,
        group=integer(entry, "group", ValueError),
        reserved=tuple(texts(entry, "reserved", ValueError)) if "reserved" in entry else (),
    )


def _validate(d: TitleData) -> None:
    """Internal cross-checks: shares total 100%, start cells hold the start price, homes exist."""
    hexes = map_spec().hexes
    for m in d.majors:
        if sum(m.shares) != 100:
            raise ValueError(f"{m.sym}: shares total {sum(m.shares)}%")
        if market_price(m.start_cell) != m.start_price:
            raise ValueError(f"{m.sym}: start cell {m.start_cell} is not {m.start_price}")
        if m.home not in hexes:
            raise ValueError(f"{m.sym}: home {m.home} not on the map")
        if m.reserved and len(m.reserved) != len(m.shares):
            raise ValueError(f"{m.sym}: reserved list does not match the shares")
    for n in d.minors:
        if n.home not in hexes or n.city >= len(hexes[n.home].preprinted.city_nodes):
            raise ValueError(f"{n.sym}: home {n.home} city {n.city} not on the map")
    phase_names = {p.name for p in d.phases}
    for t in d.trains:
        if t.rusts_on is not None and t.rusts_on not in phase_names:
            raise ValueError(f"train {t.name}: rusts on unknown phase {t.rusts_on}")
    items = [s.item for s in d.start_packet]
    if len(set(items)) != len(items):
        raise ValueError("start packet items repeat")


# --- market ------------------------------------------------------------------------------


def cell_position(cell: str) -> tuple[int, int]:
    """(row, column), 0-based, of a Rails market cell name: column letter + row number ("C3")."""
    return int(cell[1:]) - 1, ord(cell[0]) - ord("A")


def cell_name(row: int, column: int) -> str:
    """Rails market cell name of a 0-based (row, column)."""
    return f"{chr(ord('A') + column)}{row + 1}"


def market_price(cell: str) -> int | None:
    """Price in a Rails market cell (None if there is no such cell)."""
    row, col = cell_position(cell)
    rows = game_data()["market"]["rows"]
    if not 0 <= row < len(rows) or not 0 <= col < len(rows[row]) or rows[row][col] == "":
        return None
    return int(str(rows[row][col]).rstrip("p"))


# --- tiles -------------------------------------------------------------------------------


@cache
def rails_offsets() -> dict[str, tuple[int, ...]]:
    """Per supply tile, the offsets that turn a Rails orientation into an 18xx.games rotation
    (rails-report-format.md 3.2); several values when the tile is symmetric."""
    return {
        name: tuple(int(x) for x in t["rails_offset"]) for name, t in tiles_data()["tiles"].items()
    }


def rails_rotation(tile: str, orientation: str) -> int:
    """18xx.games rotation of a Rails tile lay: (Rails index + rails_offset[tile]) mod 6
    (rails-report-format.md 3.2).  Raises KeyError/ValueError for unknown tiles or names."""
    index = RAILS_ORIENTATIONS.index(orientation)
    return (index + rails_offsets()[tile][0]) % 6


@cache
def upgrade_table() -> dict[str, tuple[str, ...]]:
    """Rails TileSet.xml: which tiles may replace a supply tile (by tile name) or a preprinted hex
    (by hex id); blank white hexes take ``blank_upgrades`` (rules/1835.md 8.3)."""
    table = {name: tuple(t.get("upgrades", ())) for name, t in tiles_data()["tiles"].items()}
    blank = tuple(map_data()["blank_upgrades"])
    for hid, h in map_data()["hexes"].items():
        if "upgrades" in h:
            table[hid] = tuple(h["upgrades"])
        elif h["color"] == "white" and not h.get("cities") and not h.get("towns"):
            table[hid] = blank
    return table
