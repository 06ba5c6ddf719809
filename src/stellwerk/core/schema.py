"""The core schema of a title's game table: the facts every 18xx title states the same way.

A title's ``data/game.toml`` (parsed with ``tomllib``) read into typed objects once, with
every fact checked for its shape (a wrong shape raises ValueError naming it):

* ``[players]`` ``min`` and ``max``: the player counts (:func:`player_counts`);
* ``bank``: the bank's cash; ``[starting_cash]`` and ``[cert_limit]``: by player count;
* ``[market]`` ``rows``: the share price grid, cells as ``core.market`` writes them
  (``100p`` a par price, ``0c`` the closing cell, an empty string no cell); ``markers``
  (optional): the type letters the title's cells carry, when given a cell with another
  letter is refused (a mistyped cell is found when the table is read);
* ``[[phases]]``: ``name``, ``tiles`` (colours), ``operating_rounds``, ``train_limit``
  (one limit for every corporation, or a table by corporation type such as
  ``{ minor = 2, major = 4 }``), ``status`` (flags), ``on`` (the train that starts it);
* ``[[trains]]``: ``name``, ``distance`` (stops), ``price``, ``count``, ``rusts_on``,
  ``available_on``, ``events``; ``count`` is one number, or a list of numbers: the counts for
  the game sizes the title names (such as ``[4, 5]`` with five and with six corporations), of
  which the title takes one (the common count is then the largest, :attr:`TrainDef.counts`);
* ``[[corporations]]``: ``sym``, ``name``, ``home`` (hex), ``tokens``, and the shares
  (``shares``, percentages, the president's first), ``float_percent``, ``color`` and
  ``text_color`` (defaults in ``[corporation_defaults]``);
* ``token_prices``: the price of each token after the home token.

The map and tile supply have their schema in ``core.map.spec``; a title's own facts stay in
its own tables beside these.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from stellwerk.core.jsondata import (
    JSONObject,
    as_list,
    as_object,
    integer,
    objects_at,
    optional_integer,
    optional_text,
    text,
    texts,
)
from stellwerk.core.trains import PhaseDef


def _integers(value: object, what: str) -> tuple[int, ...]:
    items = as_list(value, what, ValueError)
    if not all(isinstance(item, int) and not isinstance(item, bool) for item in items):
        raise ValueError(f"{what} must be a list of integers, not {value!r}")
    return tuple(int(str(item)) for item in items)


def _by_count(data: JSONObject, key: str) -> Mapping[int, int]:
    """A table keyed by player count (``3 = 500``); other keys are the title's own."""
    table = as_object(data.get(key), key, ValueError)
    return {int(k): integer(table, k, ValueError) for k in table if k.isdigit()}


def player_counts(data: JSONObject) -> tuple[int, ...]:
    """The player counts of ``[players]``: every count from ``min`` to ``max``."""
    players = as_object(data.get("players"), "players", ValueError)
    fewest = integer(players, "min", ValueError)
    return tuple(range(fewest, integer(players, "max", ValueError) + 1))


def train_limits(phase: JSONObject) -> Mapping[str, int]:
    """A phase's train limits by corporation type when its ``train_limit`` is a table
    (``{ minor = 2, major = 4 }``); empty when it is one limit for every corporation."""
    limit = phase.get("train_limit")
    if not isinstance(limit, dict):
        integer(phase, "train_limit", ValueError)
        return {}
    if not limit:
        raise ValueError("'train_limit' must not be an empty table")
    return {kind: integer(limit, kind, ValueError) for kind in limit}


def _train_limit(phase: JSONObject) -> int:
    """The most trains any corporation may hold in the phase: the one limit, or the largest
    of the limits by type (a title with limits by type checks each corporation's own)."""
    by_type = train_limits(phase)
    return max(by_type.values()) if by_type else integer(phase, "train_limit", ValueError)


def phase_defs(data: JSONObject) -> list[PhaseDef]:
    """The phases of ``[[phases]]`` in order (the first is current at the start)."""
    return [
        PhaseDef(
            text(p, "name", ValueError),
            texts(p, "tiles", ValueError),
            integer(p, "operating_rounds", ValueError),
            _train_limit(p),
            texts(p, "status", ValueError) if "status" in p else [],
            optional_text(p, "on", ValueError),
        )
        for p in objects_at(data, "phases", ValueError)
    ]


@dataclass(frozen=True, slots=True)
class TrainDef:
    """One train type: ``count`` copies ``NAME-0`` ... in the depot, sold in data order."""

    name: str
    distance: int
    price: int
    count: int
    rusts_on: str | None = None
    available_on: str | None = None
    events: tuple[str, ...] = ()
    counts: tuple[int, ...] = ()
    """The counts by game size when the table gives a list (the title names the sizes and
    takes one; :attr:`count` is then the largest); empty for one count (:func:`train_counts`)."""


@dataclass(frozen=True, slots=True)
class CorporationDef:
    """One corporation: symbol, name, home hex (its first city), tokens, the percentages
    of its certificates (the president's first), its float percentage and its colours."""

    sym: str
    name: str
    home: str | None
    tokens: int
    shares: tuple[int, ...]
    float_percent: int
    color: str | None = None
    text_color: str | None = None


@dataclass(frozen=True, slots=True)
class GameTables:
    """The common facts of a game table (the module's list)."""

    players: tuple[int, ...]
    bank: int
    starting_cash: Mapping[int, int]
    cert_limit: Mapping[int, int]
    market: tuple[tuple[str, ...], ...]
    phases: tuple[PhaseDef, ...]
    trains: tuple[TrainDef, ...]
    corporations: tuple[CorporationDef, ...]
    token_prices: tuple[int, ...] = ()
    train_limits: tuple[Mapping[str, int], ...] = ()
    """By phase, in the order of :attr:`phases`: the limits by corporation type (empty for a
    phase with one limit for all, :func:`train_limits`)."""
    market_markers: tuple[str, ...] = ()
    """The type letters the market's cells carry, when the table names them
    (:func:`market_markers`)."""


def train_counts(train: JSONObject) -> tuple[int, ...]:
    """A train's counts by game size when its ``count`` is a list (``[4, 5]``), in the order
    the title names the sizes; empty when it is one count.  Every count is a number of at
    least 0 and a list is not empty (ValueError naming the train)."""
    value = train.get("count")
    if not isinstance(value, list):
        if integer(train, "count", ValueError) < 0:
            raise ValueError(f"train {train.get('name')!r}: a negative count")
        return ()
    counts = _integers(value, "count")
    if not counts or min(counts) < 0:
        raise ValueError(f"train {train.get('name')!r}: counts must be numbers of 0 or more")
    return counts


def _train(t: JSONObject) -> TrainDef:
    counts = train_counts(t)
    return TrainDef(
        name=text(t, "name", ValueError),
        distance=integer(t, "distance", ValueError),
        price=integer(t, "price", ValueError),
        count=max(counts) if counts else integer(t, "count", ValueError),
        rusts_on=optional_text(t, "rusts_on", ValueError),
        available_on=optional_text(t, "available_on", ValueError),
        events=tuple(texts(t, "events", ValueError)) if "events" in t else (),
        counts=counts,
    )


def _corporation(c: JSONObject, defaults: JSONObject) -> CorporationDef:
    entry = {**defaults, **c}
    tokens = optional_integer(entry, "tokens", ValueError)
    float_percent = optional_integer(entry, "float_percent", ValueError)
    return CorporationDef(
        sym=text(entry, "sym", ValueError),
        name=text(entry, "name", ValueError),
        home=optional_text(entry, "home", ValueError),
        tokens=1 if tokens is None else tokens,
        shares=_integers(entry.get("shares", [20, *[10] * 8]), "shares"),
        float_percent=60 if float_percent is None else float_percent,
        color=optional_text(entry, "color", ValueError),
        text_color=optional_text(entry, "text_color", ValueError),
    )


def market_markers(market: JSONObject, rows: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
    """The type letters of ``[market]`` ``markers`` (empty when not given); each a single
    letter, and every cell's letters among them (ValueError naming the cell)."""
    markers = tuple(texts(market, "markers", ValueError))
    if any(len(m) != 1 or not m.isalpha() for m in markers) or len(set(markers)) < len(markers):
        raise ValueError(f"market markers must be distinct single letters, not {markers!r}")
    if markers:
        for row in rows:
            for cell in row:
                if any(ch.isalpha() and ch not in markers for ch in cell):
                    raise ValueError(f"market cell {cell!r}: a letter not in {markers!r}")
    return markers


def game_tables(data: JSONObject) -> GameTables:
    """The common facts of a parsed ``data/game.toml`` (the module's list)."""
    market = as_object(data.get("market"), "market", ValueError)
    rows = tuple(
        tuple(str(cell) for cell in as_list(row, "market row", ValueError))
        for row in as_list(market.get("rows"), "market rows", ValueError)
    )
    defaults = as_object(data.get("corporation_defaults", {}), "corporation_defaults", ValueError)
    return GameTables(
        players=player_counts(data),
        bank=integer(data, "bank", ValueError),
        starting_cash=_by_count(data, "starting_cash"),
        cert_limit=_by_count(data, "cert_limit"),
        market=rows,
        market_markers=market_markers(market, rows),
        phases=tuple(phase_defs(data)),
        trains=tuple(_train(t) for t in objects_at(data, "trains", ValueError)),
        corporations=tuple(
            _corporation(c, defaults) for c in objects_at(data, "corporations", ValueError)
        ),
        token_prices=_integers(data.get("token_prices", []), "token_prices"),
        train_limits=tuple(train_limits(p) for p in objects_at(data, "phases", ValueError)),
    )
