"""Load 1849's data files (``data/*.toml``) once per process into typed, frozen facts.

game.toml's common facts (players, bank, starting cash, certificate limits, market rows,
phases, trains, the corporations' common fields with ``[corporation_defaults]``) are read by
the core schema (``core.schema.game_tables``); 1849's own facts are a layer on top: the
certificate limit with five corporations at four players, the market's blocked moves, a
train's counts with five and with six corporations and whether it is optional (``extra``), the
private companies, a corporation's token fee, the corporation order, the home choices, the
SMS and port hexes, Messina and the IFT buffer.  Options act on the game built from these.
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
    text,
    texts,
)
from stellwerk.core.schema import CorporationDef, TrainDef, game_tables
from stellwerk.core.trains import PhaseDef
from stellwerk.titles.datafiles import read_table

DATA = Path(__file__).parent / "data"

SIZES = 2
"""A train's counts are given for two game sizes: five and six corporations (1849 rules §1.1)."""


@cache
def game_data() -> dict[str, Any]:
    """The facts of ``data/game.toml`` (bank, market, phases, trains, companies, corporations)."""
    return read_table(DATA, "game.toml")


@dataclass(frozen=True, slots=True)
class TrainType:
    """A train type (1849 rules §1.2, §7.5): ``counts`` the copies with five and with six
    corporations; an ``optional`` train (``extra`` in the table) is in play only if the settings
    name it."""

    name: str
    distance: int
    price: int
    counts: tuple[int, ...]
    rusts_on: str | None
    available_on: str | None
    events: tuple[str, ...]
    optional: bool


@dataclass(frozen=True, slots=True)
class Private:
    """A private company (1849 rules §1.4): ``blocks_hexes`` it keeps others from building on."""

    sym: str
    name: str
    value: int
    revenue: int
    blocks_hexes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CorporationSpec:
    """A corporation (1849 rules §1.3, §4.1): the core fields and the fee of a token placed
    away from home (``home`` None: it chooses one, AFG)."""

    sym: str
    name: str
    home: str | None
    tokens: int
    shares: tuple[int, ...]
    float_percent: int
    token_fee: int


@dataclass(frozen=True, slots=True)
class TitleData:
    """All of game.toml, typed."""

    bank: int
    players: tuple[int, ...]
    starting_cash: Mapping[int, int]
    cert_limit: Mapping[int, int]
    cert_limit_four_players_five_corporations: int
    market: tuple[tuple[str, ...], ...]
    blocked_right_prices: tuple[int, ...]
    """Before phase 16H a right move from these prices becomes an up move (§4.4)."""
    blocked_up_prices: tuple[int, ...]
    """Before phase 16H no up move from these prices (§4.4)."""
    phases: tuple[PhaseDef, ...]
    trains: tuple[TrainType, ...]
    companies: tuple[Private, ...]
    corporations: tuple[CorporationSpec, ...]
    corporation_order: tuple[str, ...]
    """The corporations in the order of the draws that shuffle them (§1.3)."""
    chooses_home: str
    home_choices: tuple[str, ...]
    sms_hexes: tuple[str, ...]
    port_hexes: tuple[str, ...]
    messina: str
    ift_buffer: int
    """IFT kept out of the first three swaps places with this position (§7.1)."""
    raw: Mapping[str, Any]

    def corporation(self, sym: str) -> CorporationSpec:
        """The corporation with this symbol."""
        return next(c for c in self.corporations if c.sym == sym)


@cache
def title_data() -> TitleData:
    """game.toml as a :class:`TitleData`: the common facts read by ``core.schema``, 1849's
    own beside them; raises ValueError if it is inconsistent."""
    g = game_data()
    core = game_tables(g)
    market = as_object(g.get("market"), "market", ValueError)
    data = TitleData(
        bank=core.bank,
        players=core.players,
        starting_cash=core.starting_cash,
        cert_limit=core.cert_limit,
        cert_limit_four_players_five_corporations=integer(
            as_object(g.get("cert_limit"), "cert_limit", ValueError),
            "four_players_five_corporations",
            ValueError,
        ),
        market=core.market,
        blocked_right_prices=_integers(market, "blocked_right_prices"),
        blocked_up_prices=_integers(market, "blocked_up_prices"),
        phases=core.phases,
        trains=tuple(
            _train(t, entry)
            for t, entry in zip(core.trains, objects_at(g, "trains", ValueError), strict=True)
        ),
        companies=tuple(_private(c) for c in objects_at(g, "companies", ValueError)),
        corporations=tuple(
            _corporation(c, entry)
            for c, entry in zip(
                core.corporations, objects_at(g, "corporations", ValueError), strict=True
            )
        ),
        corporation_order=tuple(texts(g, "corporation_order", ValueError)),
        chooses_home=text(g, "chooses_home", ValueError),
        home_choices=tuple(texts(g, "home_choices", ValueError)),
        sms_hexes=tuple(texts(g, "sms_hexes", ValueError)),
        port_hexes=tuple(texts(g, "port_hexes", ValueError)),
        messina=text(g, "messina", ValueError),
        ift_buffer=integer(g, "ift_buffer", ValueError),
        raw=g,
    )
    _validate(data)
    return data


def _integers(table: JSONObject, key: str) -> tuple[int, ...]:
    values = table.get(key)
    if not isinstance(values, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        raise ValueError(f"'{key}' must be a list of integers, not {values!r}")
    return tuple(int(str(v)) for v in values)


def _train(core: TrainDef, entry: JSONObject) -> TrainType:
    """A core train type with its counts by size (five, six corporations), optional or not."""
    if len(core.counts) != SIZES:
        raise ValueError(f"train {core.name}: counts with five and six corporations expected")
    extra = entry.get("extra", False)
    if not isinstance(extra, bool):
        raise ValueError(f"train {core.name}: 'extra' must be true or false, not {extra!r}")
    return TrainType(
        name=core.name,
        distance=core.distance,
        price=core.price,
        counts=core.counts,
        rusts_on=core.rusts_on,
        available_on=core.available_on,
        events=core.events,
        optional=extra,
    )


def _private(entry: JSONObject) -> Private:
    """A private company: all of it 1849's own."""
    return Private(
        sym=text(entry, "sym", ValueError),
        name=text(entry, "name", ValueError),
        value=integer(entry, "value", ValueError),
        revenue=integer(entry, "revenue", ValueError),
        blocks_hexes=tuple(texts(entry, "blocks_hexes", ValueError))
        if "blocks_hexes" in entry
        else (),
    )


def _corporation(core: CorporationDef, entry: JSONObject) -> CorporationSpec:
    """A core corporation with 1849's token fee."""
    return CorporationSpec(
        sym=core.sym,
        name=core.name,
        home=core.home,
        tokens=core.tokens,
        shares=core.shares,
        float_percent=core.float_percent,
        token_fee=integer(entry, "token_fee", ValueError),
    )


def _validate(d: TitleData) -> None:
    """Cross-checks: shares total 100%, the order names every corporation once, the one that
    chooses its home has none printed, trains rust and arrive on known phases."""
    syms = [c.sym for c in d.corporations]
    for c in d.corporations:
        if sum(c.shares) != 100:
            raise ValueError(f"{c.sym}: shares total {sum(c.shares)}%")
    if sorted(d.corporation_order) != sorted(syms) or len(set(syms)) != len(syms):
        raise ValueError("corporation_order must name every corporation once")
    if d.chooses_home not in syms or d.corporation(d.chooses_home).home is not None:
        raise ValueError(f"{d.chooses_home} chooses its home: a corporation with none printed")
    names = {p.name for p in d.phases}
    for t in d.trains:
        for phase in (t.rusts_on, t.available_on):
            if phase is not None and phase not in names:
                raise ValueError(f"train {t.name}: unknown phase {phase}")
