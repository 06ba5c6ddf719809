"""The stock round as a table of corporations: one row per
corporation with its price, par, treasury (IPO) and pool shares, who holds what (players and,
where a title lets them, corporations), its president and chain of control
(``SFTG ← IRSFF ← Anna``), and the player's share moves about it (buys, sales, the par
prices to choose) in its row.

Read from the API's views only (``api.Game.view.corporations()``, ``stellwerk.views``) and
the page's choices (``web.choices``); nothing here reads the engine or changes the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from stellwerk.views import CorporationView
from stellwerk.web.choices import Choice, Choices
from stellwerk.words.catalog import percent

MARKS: dict[str, dict[str, str]] = {
    "en": {"president": "P", "circular": "circular control", "chain": " ← "},
    "de": {"president": "D", "circular": "zirkuläre Kontrolle", "chain": " ← "},
}
"""The table's own marks per language: the president's certificate, a circular chain."""


@dataclass(frozen=True)
class Holding:
    """One holder's part of a corporation as its row shows it: ``Anna 30% (P)``."""

    name: str
    kind: str
    percent: int
    text: str
    president: bool


@dataclass(frozen=True)
class StockRow:
    """One corporation's row of the stock table."""

    sym: str
    name: str
    par: int | None
    price: int | None
    cash: int
    ipo_percent: int
    pool_percent: int
    holdings: tuple[Holding, ...]
    president: str | None
    control: str | None
    """The chain of control when it goes through corporations (``SFTG ← IRSFF ← Anna``),
    else None (the president is a player: ``president`` says who)."""
    circular: bool
    floated: bool
    trains: tuple[str, ...]
    moves: tuple[Choice, ...]
    """The player's buys and sales of its shares (``web.choices``' row labels)."""
    pars: tuple[Choice, ...]
    """The par prices the player may start it at (one button each)."""


@dataclass(frozen=True)
class StockTable:
    """The table: rows of the corporations started or startable now, and the symbols of the
    others (not yet started, nothing to do with them now)."""

    rows: tuple[StockRow, ...]
    waiting: tuple[str, ...]


def _holdings(corp: CorporationView, lang: str) -> tuple[Holding, ...]:
    """Who holds its shares apart from its treasury and the pool, largest first."""
    marks = MARKS.get(lang, MARKS["en"])
    out: list[Holding] = []
    for holding in corp.holders:
        holder = holding.holder
        if holder.kind == "pool" or (holder.kind == "corporation" and holder.key == corp.sym):
            continue
        text = f"{holder.name} {percent(holding.percent, lang)}"
        if holding.president:
            text += f" ({marks['president']})"
        out.append(Holding(holder.name, holder.kind, holding.percent, text, holding.president))
    out.sort(key=lambda h: (not h.president, -h.percent))
    return tuple(out)


def _control(corp: CorporationView, lang: str) -> str | None:
    """``SFTG ← IRSFF ← Anna`` when a corporation presides (None when a player does)."""
    if len(corp.chain) < 2 and not corp.circular:
        return None
    marks = MARKS.get(lang, MARKS["en"])
    text = marks["chain"].join([corp.sym, *(link.name for link in corp.chain)])
    if corp.circular:
        text += f" ({marks['circular']})"
    return text


def stock_table(
    corporations: tuple[CorporationView, ...], choices: Choices, lang: str = "en"
) -> StockTable:
    """The rows of ``corporations`` (the view's, in the game's order) with ``choices``' share
    moves: a corporation is a row when it has started or the player may act on it now."""
    rows: list[StockRow] = []
    waiting: list[str] = []
    for corp in corporations:
        if corp.closed:
            continue
        mine = choices.about(corp.sym)
        if not (corp.started or corp.floated or mine):
            waiting.append(corp.sym)
            continue
        rows.append(
            StockRow(
                sym=corp.sym,
                name=corp.name,
                par=corp.par,
                price=corp.price,
                cash=corp.cash,
                ipo_percent=corp.ipo_percent,
                pool_percent=corp.pool_percent,
                holdings=_holdings(corp, lang),
                president=corp.president.name if corp.president is not None else None,
                control=_control(corp, lang),
                circular=corp.circular,
                floated=corp.floated,
                trains=corp.trains,
                moves=tuple(c for c in mine if c.kind != "par"),
                pars=tuple(c for c in mine if c.kind == "par"),
            )
        )
    return StockTable(tuple(rows), tuple(waiting))
