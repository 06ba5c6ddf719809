"""Colours of the pictures: tile colours, corporation colours per title, train colours, money.

A corporation's colours come from its title data when the data gives them (``color`` and
``text_color`` of the corporation entry); otherwise from the title's fixed palette below, in
the order of the title's corporations (so the same corporation always has the same colours).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

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


_PALETTES: Mapping[str, Mapping[str, tuple[str, str]]] = {
    "1849": {
        "AFG": ("#d0262d", "#fff"),
        "ATA": ("#1f8a3b", "#fff"),
        "CTL": ("#f5c400", "#000"),
        "IFT": ("#1c5fb4", "#fff"),
        "RCS": ("#f07f14", "#000"),
        "SFA": ("#e56aa6", "#000"),
    },
    "1835": {
        "BY": ("#1e4fa8", "#fff"),
        "SX": ("#d02b2b", "#fff"),
        "BA": ("#8b5a2b", "#fff"),
        "WT": ("#f2c500", "#000"),
        "HE": ("#2f8f3a", "#fff"),
        "MS": ("#7a3fa0", "#fff"),
        "OL": ("#8e8e8e", "#000"),
        "PR": ("#111111", "#fff"),
        "M1": ("#3b3b3b", "#fff"),
        "M2": ("#3b3b3b", "#fff"),
        "M3": ("#3b3b3b", "#fff"),
        "M4": ("#3b3b3b", "#fff"),
        "M5": ("#3b3b3b", "#fff"),
        "M6": ("#3b3b3b", "#fff"),
    },
}
"""Fixed colours of titles whose data names none."""

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
"""Colours handed out in data order to corporations of titles without a fixed palette."""


def corporation_colors(
    title: str, symbols: Iterable[str], declared: Mapping[str, tuple[str, str]] | None = None
) -> dict[str, CorpColors]:
    """Colours of every corporation symbol: those the title's data declares (symbol ->
    (fill, text); ``Reader.declared_colors``), then the title's palette, then the cycle."""
    declared = declared or {}
    fixed = _PALETTES.get(title, {})
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


def money(title: str, amount: int) -> str:
    """An amount in the title's currency format, exactly as the log writes it
    (``stellwerk.words.money``: ``L.5,432``, ``1,000 M``, ``-L.750``), so a picture and the
    log sent with it agree."""
    from stellwerk.words.catalog import money as words_money

    return words_money(title, amount, "en")
