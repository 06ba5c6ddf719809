"""The stock market picture: the price grid with its zones coloured and each corporation's
marker on its cell, in the order the markers arrived (the first one operates first among equal
prices, common rules §6.2; drawn leftmost).  A one-row market is drawn as one row.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from stellwerk.pictures.hexdraw import token
from stellwerk.pictures.scene import caption_of, reader
from stellwerk.pictures.style import CorpColors, corporation_colors, title_presentation
from stellwerk.pictures.svg import new_svg, sub, text, to_string
from stellwerk.pictures.wording import word

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

    from stellwerk.pictures.scene import Shown

ZONES: Mapping[str, str] = {
    "p": "#f4a6a6",
    "x": "#b9e3b0",
    "z": "#a9c8ec",
    "m": "#fdd0a2",
    "n": "#d9c8ef",
    "u": "#fff1a8",
    "y": "#fde900",
    "o": "#f7a541",
    "b": "#cb7745",
    "e": "#8a8a8a",
    "c": "#333333",
}
"""Cell colour per market type letter (common rules §6.5); the legend says what a letter
means in the title (:func:`zone_label`)."""


def zone_label(title: str, zone: str, lang: str = "en") -> str:
    """What market letter ``zone`` means in ``title``, in ``lang``: the title's sentence
    ``market.<letter>``, else (English) its ``market_labels``, else the generic meaning."""
    presentation = title_presentation(title)
    own = presentation.sentences.get(lang, {}).get(f"market.{zone}")
    if own:
        return own
    if lang == "en" and zone in presentation.market_labels:
        return presentation.market_labels[zone]
    return word(f"zone.{zone}", lang)


CELL_W = 58.0
CELL_H = 46.0


def render_market(game: Shown, lang: str = "en") -> str:
    """The market of a game as SVG text, its words in ``lang``."""
    look = reader(game)
    market = look.market()
    title = look.title
    symbols = look.symbols()
    colors = corporation_colors(title, symbols, look.declared_colors())
    rows = market.rows
    width_cells = max(len(r) for r in rows)
    margin = 20.0
    width = margin * 2 + width_cells * CELL_W
    used = {z for row in rows for cell in row if cell is not None and (z := _zone(cell.types))}
    labels = {zone: zone_label(title, zone, lang) for zone in used}
    places = _legend_places(margin, width - margin, used, labels)
    legend_h = 30.0 + LEGEND_ROW_H * max((y for _, y in places.values()), default=0.0)
    height = margin * 2 + 30 + len(rows) * CELL_H + legend_h
    root = new_svg(width, height, f"{title} stock market")
    text(
        root,
        margin,
        margin + 8,
        f"{word('market', lang)} - {caption_of(game, lang=lang)}",
        16,
        anchor="start",
        weight="bold",
    )
    grid = sub(root, "g", id="market", transform=f"translate({margin} {margin + 30})")
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell is None:
                continue
            x, y = c * CELL_W, r * CELL_H
            zone = _zone(cell.types)
            fill, ink = "#ffffff", "#000"
            if zone is not None:
                fill = ZONES[zone]
                ink = "#fff" if zone in ("c", "e") else "#000"
            g = sub(grid, "g", id=f"cell-{r}-{c}", class_="cell", data_price=cell.price)
            sub(
                g,
                "rect",
                x=x,
                y=y,
                width=CELL_W,
                height=CELL_H,
                fill=fill,
                stroke="#555",
                stroke_width=1,
            )
            text(g, x + 4, y + 9, str(cell.price), 11, anchor="start", fill=ink, weight="bold")
            _markers(g, x, y, cell.corporations, colors)
    _legend(root, margin + 30 + len(rows) * CELL_H + 16, places, labels)
    return to_string(root)


def _markers(
    g: Element, x: float, y: float, corps: Sequence[str], colors: Mapping[str, CorpColors]
) -> None:
    n = len(corps)
    if not n:
        return
    per_row = 3 if n <= 6 else 4
    r = 9.0 if n <= 3 else 7.0
    for i, sym in enumerate(corps):
        row, col = divmod(i, per_row)
        cx = x + 10 + col * (2 * r + 1) + r - 6 + 4
        cy = y + 22 + row * (2 * r + 1)
        token(g, (cx, cy), r, sym, colors.get(sym, CorpColors("#ccc", "#000")))


LEGEND_ROW_H = 18.0


def _zone(types: Iterable[str]) -> str | None:
    """The letter of a cell that colours it (the first known one)."""
    return next((t for t in sorted(types) if t in ZONES), None)


def _legend_places(
    left: float, right: float, used: set[str], labels: Mapping[str, str]
) -> dict[str, tuple[float, float]]:
    """Where each legend entry goes: (x, row), rows filled left to right up to ``right``."""
    places: dict[str, tuple[float, float]] = {}
    x, row = left, 0.0
    for zone in sorted(used):
        needed = 24 + 6.5 * len(labels[zone])
        if x > left and x + needed > right:
            x, row = left, row + 1
        places[zone] = (x, row)
        x += needed
    return places


def _legend(
    root: Element, y: float, places: Mapping[str, tuple[float, float]], labels: Mapping[str, str]
) -> None:
    g = sub(root, "g", id="market-legend")
    for zone, (x, row) in places.items():
        top = y + row * LEGEND_ROW_H
        sub(g, "rect", x=x, y=top - 7, width=14, height=14, fill=ZONES[zone], stroke="#555")
        text(g, x + 18, top, labels[zone], 11, anchor="start")
