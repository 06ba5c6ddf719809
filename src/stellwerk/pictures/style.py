"""Colours of the pictures: tile colours, corporation colours per title, train colours, money.

A corporation's colours come from its title data when the data gives them (``color`` and
``text_color`` of the corporation entry); otherwise from the title's own colours (its
``Presentation.colors``), else from the cycle below in the order of the title's corporations
(so the same corporation always has the same colours).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from stellwerk.titles.contract import Presentation

HEX_FILL: Mapping[str, str] = {
    "white": "#eae0c8",
    "yellow": "#fde900",
    "green": "#71bf44",
    "brown": "#cb7745",
    "gray": "#bcbdc0",
    "red": "#e84a3a",
    "blue": "#5cb5ea",
}
"""Fill of a hex by its tile colour (the printed map's beige for plain hexes)."""

REVENUE_BOX: Mapping[str, tuple[str, str]] = {
    "white": ("#ffffff", "#000"),
    "gray": ("#9a9a9a", "#000"),
    "black": ("#222222", "#fff"),
    "yellow": ("#fde900", "#000"),
    "green": ("#71bf44", "#000"),
    "brown": ("#cb7745", "#000"),
}
"""Fill and text colour of an off-board's revenue box per phase column."""

TRAIN_COLORS: tuple[str, ...] = (
    "#d7191c",
    "#2b83ba",
    "#1a9641",
    "#f28e2b",
    "#8e44ad",
    "#00a3a3",
    "#e377c2",
    "#7f7f7f",
)
"""One colour per train of a route overlay."""

IMPASSABLE = "#b22222"
POLITICAL = "#7b2cbf"


@dataclass(frozen=True, slots=True)
class CorpColors:
    fill: str
    text: str


_CYCLE: tuple[tuple[str, str], ...] = (
    ("#d0262d", "#fff"),
    ("#1c5fb4", "#fff"),
    ("#1f8a3b", "#fff"),
    ("#f5c400", "#000"),
    ("#7a3fa0", "#fff"),
    ("#f07f14", "#000"),
    ("#111111", "#fff"),
    ("#00a3a3", "#000"),
    ("#e56aa6", "#000"),
    ("#8b5a2b", "#fff"),
    ("#9ac93b", "#000"),
    ("#5a5a5a", "#fff"),
    ("#89c4f4", "#000"),
    ("#b03060", "#fff"),
    ("#ffffff", "#000"),
    ("#2e4a62", "#fff"),
)
"""Colours handed out in data order to corporations whose title names none (neither its data
nor its ``Presentation.colors``)."""


def corporation_colors(
    title: str, symbols: Iterable[str], declared: Mapping[str, tuple[str, str]] | None = None
) -> dict[str, CorpColors]:
    """Colours of every corporation symbol: those the title's data declares (symbol ->
    (fill, text); ``Reader.declared_colors``), then the title's ``Presentation.colors``,
    then the cycle."""
    declared = declared or {}
    fixed = title_presentation(title).colors
    out: dict[str, CorpColors] = {}
    n = 0
    for sym in symbols:
        if sym in out:
            continue
        colors = declared.get(sym) or fixed.get(sym)
        if colors is None:
            colors = _CYCLE[n % len(_CYCLE)]
            n += 1
        out[sym] = CorpColors(*colors)
    return out


def title_presentation(title: str) -> Presentation:
    """How the registered title ``title`` is shown (its ``Title.presentation``, read from the
    registry when asked); a title that is not registered has no colours or legend of its
    own (dollars)."""
    from stellwerk.titles.registry import TITLES

    entry = TITLES.get(title)
    return entry.presentation if entry is not None else Presentation(currency="${}")


def money(title: str, amount: int, lang: str = "en") -> str:
    """An amount in the title's currency format in ``lang``, exactly as the log writes it
    (``stellwerk.words.money``: ``L.5,432``, ``1,000 M``, ``-L.750``; German ``L.5.432``), so
    a picture and the log sent with it agree."""
    from stellwerk.words.catalog import money as words_money

    return words_money(title, amount, lang)


def percent(value: int, lang: str = "en") -> str:
    """``10%`` in English, ``10 %`` in German (``stellwerk.words``)."""
    from stellwerk.words.catalog import percent as words_percent

    return words_percent(value, lang)
