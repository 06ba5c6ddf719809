"""Plots of a game's course (``stellwerk.history``) as SVG: the players' worth and the share
prices after every round, and each corporation's revenue in every operating round.

Each plot is a line chart over the rounds with a legend; the x axis names the rounds as the
log does, in English or German (``SR 2``/``AR 2``, ``OR 2.1``/``BR 2.1``).  A plot with no
data (a game still in its auction, no corporation started, no route run) says so instead of
drawing empty axes.  Colours: the corporations' own (passed in, as the map and market draw
them), the players' from the train palette.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from stellwerk.history import History, RoundPoint
from stellwerk.pictures.style import TRAIN_COLORS, CorpColors, money
from stellwerk.pictures.svg import new_svg, num, sub, text, to_string

WIDTH = 720.0
HEIGHT = 340.0
LEFT, RIGHT, TOP, BOTTOM = 64.0, 130.0, 36.0, 46.0
"""Margins around the plotting area: the value axis left, the legend right."""

WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {"worth": "Players' worth after each round", "prices": "Share prices after each round",
           "revenues": "Revenue in each operating round", "auction": "Auction", "stock": "SR",
           "operating": "OR", "none": "Nothing to show yet", "now": "now"},
    "de": {"worth": "Vermögen der Spieler nach jeder Runde",
           "prices": "Aktienkurse nach jeder Runde",
           "revenues": "Einnahmen in jeder Betriebsrunde", "auction": "Auktion", "stock": "AR",
           "operating": "BR", "none": "Noch nichts zu zeigen", "now": "jetzt"},
}  # fmt: skip


def round_label(point: RoundPoint, lang: str) -> str:
    """The short name of a round on the x axis: ``SR 3``, ``OR 3.2``, ``Auction``."""
    words = WORDS.get(lang, WORDS["en"])
    if point.kind == "operating":
        return f"{words['operating']} {point.turn}.{point.number}"
    if point.kind == "stock":
        return f"{words['stock']} {point.turn}"
    return words.get(point.kind, point.kind.capitalize())


@dataclass(frozen=True)
class Series:
    name: str
    color: str
    values: tuple[int | None, ...]
    """One value per x position; None where the series has none (not started yet)."""


def _chart(title: str, labels: Sequence[str], series: Sequence[Series], money_of: str,
           lang: str) -> str:  # fmt: skip
    """A line chart of ``series`` over ``labels``; values written in the title's money."""
    root = new_svg(WIDTH, HEIGHT, title)
    text(root, LEFT, 16, title, 14, anchor="start", weight="bold")
    values = [v for s in series for v in s.values if v is not None]
    if not values or not labels:
        text(root, WIDTH / 2, HEIGHT / 2, WORDS.get(lang, WORDS["en"])["none"], 13, fill="#555")
        return to_string(root)
    bottom = min(0, min(values))
    top = _nice(max(values))
    span = top - bottom or 1.0
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / max(1, len(labels) - 1)

    def x(index: int) -> float:
        return LEFT + (index * step if len(labels) > 1 else plot_w / 2)

    def y(value: float) -> float:
        return TOP + plot_h * (1 - (value - bottom) / span)

    for tick in range(5):  # value grid
        value = bottom + span * tick / 4
        sub(root, "line", x1=LEFT, x2=LEFT + plot_w, y1=y(value), y2=y(value), stroke="#ddd",
            stroke_width=1)  # fmt: skip
        text(root, LEFT - 6, y(value), money(money_of, round(value)), 10, anchor="end",
             fill="#444")  # fmt: skip
    every = max(1, round(len(labels) / 12))  # at most about 12 round names
    for index, label in enumerate(labels):
        if index % every == 0 or index == len(labels) - 1:
            sub(root, "line", x1=x(index), x2=x(index), y1=TOP + plot_h, y2=TOP + plot_h + 4,
                stroke="#666", stroke_width=1)  # fmt: skip
            element = text(root, x(index), TOP + plot_h + 16, label, 10, fill="#444")
            element.set("transform", f"rotate(-30 {num(x(index))} {num(TOP + plot_h + 16)})")
    sub(root, "line", x1=LEFT, x2=LEFT, y1=TOP, y2=TOP + plot_h, stroke="#666", stroke_width=1)
    sub(root, "line", x1=LEFT, x2=LEFT + plot_w, y1=TOP + plot_h, y2=TOP + plot_h,
        stroke="#666", stroke_width=1)  # fmt: skip
    for n, line in enumerate(series):
        group = sub(root, "g", class_="series")
        ET.SubElement(group, "title").text = line.name
        runs = _runs(line.values)
        for run in runs:
            points = " ".join(f"{num(x(i))},{num(y(v))}" for i, v in run)
            if len(run) > 1:
                sub(group, "polyline", points=points, fill="none", stroke=line.color,
                    stroke_width=2, stroke_linejoin="round")  # fmt: skip
            for i, v in run:
                dot = sub(group, "circle", cx=x(i), cy=y(v), r=2.5, fill=line.color)
                ET.SubElement(dot, "title").text = f"{line.name} {labels[i]}: {money(money_of, v)}"
        legend_y = TOP + 6 + n * 16
        if legend_y < HEIGHT - 10:
            sub(root, "rect", x=WIDTH - RIGHT + 12, y=legend_y - 5, width=14, height=10,
                fill=line.color, stroke="#333", stroke_width=0.5)  # fmt: skip
            text(root, WIDTH - RIGHT + 32, legend_y, line.name[:16], 11, anchor="start")
    return to_string(root)


def _runs(values: Sequence[int | None]) -> list[list[tuple[int, int]]]:
    """The stretches of consecutive values (a corporation closed and started again is two)."""
    runs: list[list[tuple[int, int]]] = []
    current: list[tuple[int, int]] = []
    for index, value in enumerate(values):
        if value is None:
            if current:
                runs.append(current)
            current = []
        else:
            current.append((index, value))
    if current:
        runs.append(current)
    return runs


def _nice(value: float) -> float:
    """``value`` rounded up to 1, 2 or 5 times a power of ten (a readable top of the axis)."""
    if value <= 0:
        return 1.0
    power = 10 ** (len(str(int(value))) - 1)
    for factor in (1, 2, 2.5, 5, 10):
        if value <= factor * power:
            return float(factor * power)
    return float(10 * power)


def _labels(points: Sequence[RoundPoint], lang: str) -> list[str]:
    now = WORDS.get(lang, WORDS["en"])["now"]
    return [round_label(p, lang) + (f" ({now})" if p.current else "") for p in points]


def worth_plot(history: History, title: str, lang: str = "en") -> str:
    """The players' worth after every round."""
    points = history.rounds
    series = [
        Series(name, TRAIN_COLORS[n % len(TRAIN_COLORS)],
               tuple(p.worth.get(pid) for p in points))
        for n, (pid, name) in enumerate(history.players)
    ]  # fmt: skip
    return _chart(WORDS.get(lang, WORDS["en"])["worth"], _labels(points, lang), series, title,
                  lang)  # fmt: skip


def price_plot(history: History, title: str, colors: Mapping[str, CorpColors],
               lang: str = "en") -> str:  # fmt: skip
    """Each started corporation's share price after every round."""
    points = [p for p in history.rounds if p.prices]
    series = [
        Series(sym, _color(colors, sym, n), tuple(p.prices.get(sym) for p in points))
        for n, sym in enumerate(history.corporations)
    ]
    return _chart(WORDS.get(lang, WORDS["en"])["prices"], _labels(points, lang), series, title,
                  lang)  # fmt: skip


def revenue_plot(history: History, title: str, colors: Mapping[str, CorpColors],
                 lang: str = "en") -> str:  # fmt: skip
    """Each corporation's revenue in every operating round (no point where it did not run),
    minors included."""
    points = [p for p in history.rounds if p.kind == "operating"]
    ran = [s for s in history.corporations if any(s in p.revenues for p in points)]
    for point in points:  # minors and others without a share price (1835's), as they ran
        ran += [sym for sym in point.revenues if sym not in ran]
    series = [
        Series(sym, _color(colors, sym, n), tuple(p.revenues.get(sym) for p in points))
        for n, sym in enumerate(ran)
    ]
    return _chart(WORDS.get(lang, WORDS["en"])["revenues"], _labels(points, lang), series,
                  title, lang)  # fmt: skip


def _color(colors: Mapping[str, CorpColors], sym: str, n: int) -> str:
    found = colors.get(sym)
    fill = found.fill if found is not None else TRAIN_COLORS[n % len(TRAIN_COLORS)]
    return "#999999" if fill.lower() in ("#fff", "#ffffff") else fill
