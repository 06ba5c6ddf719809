"""Load 1841's data files (``data/*.toml``) once per process into typed, frozen specifications.

The facts live in the TOML files (game.toml, map.toml, tiles.toml); this module reads them with
``titles.datafiles.read_table``, applies the overrides of the chosen variants and offers typed
views.

A *variant* is a tuple of the data variants the settings select, in the order their
overrides apply (:func:`variant_of`): ``first_edition`` (``edition`` 1: Cuneo, Firenze,
O3/N4/O5, tile 608 instead of 612, SFTC/SFL minors, SFV instead of SB) and ``short_game``
(1841lite: no Tuscany, the Roma off-board on P12/Q11/Q13/R14, a smaller roster).  The short
game applies last, so with both its Roma off-board replaces the first-edition Firenze
(rules/1841.md section 4).  Every function takes the variant as a parameter; nothing here
tests an option.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from stellwerk.core.jsondata import (
    JSONObject,
    as_list,
    as_object,
    integer,
    is_int,
    list_at,
    objects_at,
    optional_integer,
    optional_text,
    text,
    texts,
)
from stellwerk.core.map.spec import MapSpec, SupplyEntry, load_map, load_supply
from stellwerk.core.schema import CorporationDef, TrainDef, game_tables
from stellwerk.core.trains import PhaseDef
from stellwerk.titles.datafiles import read_table
from stellwerk.titles.g1841.settings import Settings1841

DATA = Path(__file__).parent / "data"

VARIANTS: tuple[str, ...] = ("first_edition", "short_game")
"""The data variants, in the order their overrides apply."""

Variant = tuple[str, ...]
Edge = tuple[str, int]
"""(hex, edge 0..5): one side of a hex edge."""


def variant_of(settings: Settings1841) -> Variant:
    """The data variants the settings select, in application order: the first edition's
    data for ``edition`` 1, the 1841lite data for ``short_game`` (rules/1841.md 4.1, 4.2;
    no other setting changes data)."""
    chosen = {"first_edition": settings.edition == 1, "short_game": settings.short_game}
    return tuple(v for v in VARIANTS if chosen[v])


def _read(name: str) -> dict[str, Any]:
    return read_table(DATA, name)


@cache
def _raw(name: str) -> dict[str, Any]:
    return _read(name)


# --- map ---------------------------------------------------------------------------------------


@cache
def map_data(variant: Variant = ()) -> dict[str, Any]:
    """``data/map.toml`` with the variants' overrides applied: hexes removed, whole hex entries
    replaced, political border sets replaced (the result has no ``variants`` table)."""
    raw = _raw("map.toml")
    hexes = dict(raw["hexes"])
    borders = dict(raw["political_borders"])
    for name in variant:
        over = raw["variants"][name]
        for hid in over.get("remove", ()):
            del hexes[hid]
        hexes.update(over.get("hexes", {}))
        borders.update(over.get("political_borders", {}))
    out = {k: v for k, v in raw.items() if k != "variants"}
    out["hexes"] = hexes
    out["political_borders"] = borders
    return out


@cache
def tiles_data(variant: Variant = ()) -> dict[str, Any]:
    """``data/tiles.toml`` with the variants' tiles removed and added (supply order kept)."""
    raw = _raw("tiles.toml")
    tiles = dict(raw["tiles"])
    for name in variant:
        over = raw.get("variants", {}).get(name, {})
        for tile in over.get("remove", ()):
            del tiles[tile]
        tiles.update(over.get("tiles", {}))
    return {"tiles": tiles}


@cache
def map_spec(variant: Variant = ()) -> MapSpec:
    """The 1841 map of a variant, built by the core loader (flat layout, letter = row)."""
    return load_map(map_data(variant))


@cache
def supply(variant: Variant = ()) -> tuple[SupplyEntry, ...]:
    """The tile supply of a variant, in 18xx.games order (tile ids NAME-copy)."""
    return tuple(load_supply(tiles_data(variant)))


@cache
def pass_tiles(variant: Variant = ()) -> frozenset[str]:
    """Names of the tiles whose city is a mountain pass: the pass supply tiles and the printed
    pass hexes (a printed tile is named after its hex).  Pass tiles go only on pass hexes, so a
    city is a pass exactly when its tile is one of these (rules/1841.md 1.2, reference passes)."""
    names = {
        name
        for name, t in tiles_data(variant)["tiles"].items()
        if any(c.get("pass") for c in t.get("cities", ()))
    }
    names.update(
        hid
        for hid, h in map_data(variant)["hexes"].items()
        if any(c.get("pass") for c in h.get("cities", ()))
    )
    return frozenset(names)


@cache
def political_borders(variant: Variant = ()) -> Mapping[str, frozenset[Edge]]:
    """Each set of political borders (``phases_2_3``, ``phase_4``, ``phases_5_to_8``) as the
    hex edges it closes, both sides of every border (rules/1841.md 1.2, 2.3.3-2.3.4)."""
    out: dict[str, frozenset[Edge]] = {}
    for name, pairs in map_data(variant)["political_borders"].items():
        edges: set[Edge] = set()
        for pair in pairs:
            for side in pair.split("|"):
                hid, _, edge = side.partition(".")
                edges.add((hid, int(edge)))
        out[name] = frozenset(edges)
    return out


# --- game facts --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Phase:
    """A phase (rules/1841.md 2.4): tile colours, ORs per set, train limits by corporation
    type, the off-board revenue column (white/gray/black) and the political border set."""

    name: str
    on: str | None
    tiles: tuple[str, ...]
    operating_rounds: int
    train_limit: Mapping[str, int]
    offboard_revenue: str
    borders: str
    status: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TrainType:
    """A train type (rules/1841.md 1.2): ``distance`` counts the stops not in ``free`` (stop
    kinds ``town``/``pass``; ports are towns)."""

    name: str
    distance: int
    free: frozenset[str]
    price: int
    count: int
    rusts_on: str | None
    events: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Company:
    """A concession (rules/1841.md 1.2), in its fixed order."""

    number: int
    sym: str
    name: str
    value: int
    revenue: int
    corporation: str | None


@dataclass(frozen=True, slots=True)
class CorporationSpec:
    """A corporation's charter (rules/1841.md 1.2): ``homes`` = (hex, city index; -1 = the
    corporation chooses the city of a multi-city home)."""

    sym: str
    name: str
    type: str
    historical: bool
    concession: int | None
    homes: tuple[tuple[str, int], ...]
    shares: tuple[int, ...]
    float_percent: int
    min_tokens: int
    startable: bool
    color: str


@dataclass(frozen=True, slots=True)
class RouteData:
    """Route facts (rules/1841.md 2.3.5): hexes only one route may stop at while yellow, and
    how many stops that are neither a pass nor a port a route needs."""

    one_route_while_yellow: frozenset[str]
    required_stops: int


@dataclass(frozen=True, slots=True)
class _Index:
    """Lookups built once per title data (by identity), for questions asked after every
    action: phases by name, and the concessions by number, by symbol and by the
    corporation they start."""

    data: TitleData
    phases: dict[str, Phase]
    company_by_sym: dict[str, Company]
    concession_for: dict[str, Company]
    started_by: dict[str, tuple[str, ...]]


_INDEX: dict[int, _Index] = {}
"""Per title data (by identity): its :class:`_Index`."""


def _index(data: TitleData) -> _Index:
    known = _INDEX.get(id(data))
    if known is None or known.data is not data:
        if len(_INDEX) > 32:  # copies of the data (a game copied whole) come and go
            _INDEX.clear()
        by_number = {c.number: c for c in data.companies}
        concession_for = {
            spec.sym: by_number[spec.concession]
            for spec in data.corporations
            if spec.concession is not None and spec.concession in by_number
        }
        started_by: dict[str, tuple[str, ...]] = {}
        for corporation, company in concession_for.items():
            started_by[company.sym] = (*started_by.get(company.sym, ()), corporation)
        known = _INDEX[id(data)] = _Index(
            data,
            {p.name: p for p in data.phases},
            {c.sym: c for c in data.companies},
            concession_for,
            started_by,
        )
    return known


@dataclass(frozen=True, slots=True)
class TitleData:
    """All of game.toml for one variant, typed."""

    variant: Variant
    bank: int
    players: tuple[int, int]
    starting_cash: Mapping[int, int]
    cert_limit: Mapping[int, int]
    market: tuple[tuple[str, ...], ...]
    market_markers: tuple[str, ...]
    phases: tuple[Phase, ...]
    trains: tuple[TrainType, ...]
    companies: tuple[Company, ...]
    corporations: tuple[CorporationSpec, ...]
    zones: Mapping[str, tuple[str, ...]]
    offboard_groups: Mapping[str, tuple[str, ...]]
    routes: RouteData
    raw: Mapping[str, Any]

    def phase(self, name: str) -> Phase:
        """The phase with this name (looked up by name: the train limit asks it often)."""
        found = _index(self).phases.get(name)
        return found if found is not None else next(p for p in self.phases if p.name == name)

    def company_by_sym(self, sym: str) -> Company | None:
        """The concession with this symbol (None for an unknown one)."""
        return _index(self).company_by_sym.get(sym)

    def concession_for(self, corporation: str) -> Company | None:
        """The concession that entitles its owner to start this corporation (rules/1841.md
        1.2; None for the non-historical ones and for a concession the variant removed)."""
        return _index(self).concession_for.get(corporation)

    def started_by(self, company: str) -> tuple[str, ...]:
        """The corporations whose concession this is (:meth:`concession_for` turned round)."""
        return _index(self).started_by.get(company, ())

    def train(self, name: str) -> TrainType:
        """The train type with this name."""
        return next(t for t in self.trains if t.name == name)

    def corporation(self, sym: str) -> CorporationSpec:
        """The corporation with this symbol."""
        return next(c for c in self.corporations if c.sym == sym)


def _corporations(g: Mapping[str, Any], variant: Variant) -> list[dict[str, Any]]:
    corps = [dict(c) for c in g["corporations"]]
    for name in variant:
        over = g["variants"][name]
        gone = set(over.get("remove_corporations", ()))
        corps = [c for c in corps if c["sym"] not in gone]
        for change in over.get("corporations", ()):
            change = dict(change)
            existing = next((c for c in corps if c["sym"] == change["sym"]), None)
            if existing is not None:
                existing.update(change)
                continue
            after = change.pop("after", None)
            at = next((i + 1 for i, c in enumerate(corps) if c["sym"] == after), len(corps))
            corps.insert(at, change)
    return corps


@cache
def game_data(variant: Variant = ()) -> dict[str, Any]:
    """``data/game.toml`` with the variants' overrides applied (no ``variants`` table)."""
    g = _raw("game.toml")
    out = {k: v for k, v in g.items() if k != "variants"}
    trains = [dict(t) for t in g["trains"]]
    companies = list(g["companies"])
    groups = dict(g["offboard_groups"])
    for name in variant:
        over = g["variants"][name]
        for key in ("bank", "players", "starting_cash"):
            if key in over:
                out[key] = over[key]
        for t in trains:
            t["count"] = over.get("train_counts", {}).get(t["name"], t["count"])
            t["events"] = over.get("train_events", {}).get(t["name"], t.get("events", []))
        gone = set(over.get("remove_companies", ()))
        companies = [c for c in companies if c["sym"] not in gone]
        groups.update(over.get("offboard_groups", {}))
    out["trains"] = trains
    out["companies"] = companies
    out["corporations"] = _corporations(g, variant)
    out["offboard_groups"] = groups
    return out


@cache
def title_data(variant: Variant = ()) -> TitleData:
    """game.toml of a variant as a :class:`TitleData`: the core facts read by ``core.schema``
    (players, bank, starting cash, certificate limits, market, phases, trains, the charters'
    common fields), 1841's own beside them; ValueError if it is inconsistent."""
    g = game_data(variant)
    core = game_tables(g)
    data = TitleData(
        variant=variant,
        bank=core.bank,
        players=(core.players[0], core.players[-1]),
        starting_cash=core.starting_cash,
        cert_limit=core.cert_limit,
        market=core.market,
        market_markers=core.market_markers,
        phases=tuple(
            _phase(d, limits, p)
            for d, limits, p in zip(
                core.phases, core.train_limits, objects_at(g, "phases", ValueError), strict=True
            )
        ),
        trains=tuple(
            _train(t, entry)
            for t, entry in zip(core.trains, objects_at(g, "trains", ValueError), strict=True)
        ),
        companies=tuple(_company(c) for c in objects_at(g, "companies", ValueError)),
        corporations=tuple(
            _charter(c, entry)
            for c, entry in zip(
                core.corporations, objects_at(g, "corporations", ValueError), strict=True
            )
        ),
        zones=_hex_lists(g, "zones"),
        offboard_groups=_hex_lists(g, "offboard_groups"),
        routes=_routes(as_object(g.get("routes"), "routes", ValueError)),
        raw=g,
    )
    _validate(data)
    return data


def _phase(core: PhaseDef, limits: Mapping[str, int], entry: JSONObject) -> Phase:
    """A core phase with 1841's own: limits by type, off-board column, border set."""
    if not limits:
        raise ValueError(f"phase {core.name}: train limits by corporation type expected")
    return Phase(
        name=core.name,
        on=core.on,
        tiles=tuple(core.tiles),
        operating_rounds=core.operating_rounds,
        train_limit=limits,
        offboard_revenue=text(entry, "offboard_revenue", ValueError),
        borders=text(entry, "borders", ValueError),
        status=tuple(core.status),
    )


def _train(core: TrainDef, entry: JSONObject) -> TrainType:
    """A core train type with 1841's stop kinds that do not count (``free``)."""
    return TrainType(
        name=core.name,
        distance=core.distance,
        free=frozenset(texts(entry, "free", ValueError)),
        price=core.price,
        count=core.count,
        rusts_on=core.rusts_on,
        events=core.events,
    )


def _company(entry: JSONObject) -> Company:
    """A concession: all of it 1841's own."""
    return Company(
        number=integer(entry, "number", ValueError),
        sym=text(entry, "sym", ValueError),
        name=text(entry, "name", ValueError),
        value=integer(entry, "value", ValueError),
        revenue=integer(entry, "revenue", ValueError),
        corporation=optional_text(entry, "corporation", ValueError),
    )


def _charter(core: CorporationDef, entry: JSONObject) -> CorporationSpec:
    """A core corporation with 1841's own: type, historical, concession, homes (hex and
    city), whether it may be started."""
    if core.color is None:
        raise ValueError(f"{core.sym}: no colour")
    homes = []
    for home in list_at(entry, "homes", ValueError):
        pair = as_list(home, f"{core.sym}: a home", ValueError)
        if len(pair) != 2 or not isinstance(pair[0], str) or not is_int(pair[1]):
            raise ValueError(f"{core.sym}: a home must be [hex, city], not {home!r}")
        homes.append((pair[0], pair[1]))
    return CorporationSpec(
        sym=core.sym,
        name=core.name,
        type=text(entry, "type", ValueError),
        historical=_flag(entry, "historical"),
        concession=optional_integer(entry, "concession", ValueError),
        homes=tuple(homes),
        shares=core.shares,
        float_percent=core.float_percent,
        min_tokens=core.tokens,
        startable=_flag(entry, "startable"),
        color=core.color,
    )


def _flag(entry: JSONObject, key: str) -> bool:
    value = entry.get(key)
    if not isinstance(value, bool):
        raise ValueError(f"'{key}' must be true or false, not {value!r}")
    return value


def _hex_lists(g: JSONObject, key: str) -> Mapping[str, tuple[str, ...]]:
    """A table of named hex lists (``[zones]``, ``[offboard_groups]``)."""
    table = as_object(g.get(key), key, ValueError)
    return {name: tuple(texts(table, name, ValueError)) for name in table}


def _routes(entry: JSONObject) -> RouteData:
    return RouteData(
        one_route_while_yellow=frozenset(texts(entry, "one_route_while_yellow", ValueError)),
        required_stops=integer(entry, "required_stops", ValueError),
    )


def _validate(d: TitleData) -> None:
    """Cross-checks: shares total 100%, homes and off-board groups lie on the variant's map,
    phases name known border sets, trains rust on known phases."""
    hexes = map_spec(d.variant).hexes
    for c in d.corporations:
        if sum(c.shares) != 100:
            raise ValueError(f"{c.sym}: shares total {sum(c.shares)}%")
        for hid, city in c.homes:
            if hid not in hexes or city >= len(hexes[hid].preprinted.city_nodes):
                raise ValueError(f"{c.sym}: home {hid} city {city} is not on the map")
    for name, members in d.offboard_groups.items():
        if not set(members) <= set(hexes):
            raise ValueError(f"off-board group {name} is not on the map")
    sets = political_borders(d.variant)
    names = {p.name for p in d.phases}
    for p in d.phases:
        if p.borders not in sets:
            raise ValueError(f"phase {p.name}: unknown border set {p.borders}")
    for t in d.trains:
        if t.rusts_on is not None and t.rusts_on not in names:
            raise ValueError(f"train {t.name}: rusts on unknown phase {t.rusts_on}")
