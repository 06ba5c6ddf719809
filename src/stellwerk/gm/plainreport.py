"""A plain stand-in for the reports (issue 10 item 4) until ``stellwerk.gm.report`` lands.

It keeps the interface the report module will offer -- ``build_report(game, *, player, lang,
since_action, orders, deadline) -> Report`` with ``ReportOrder`` -- so the GM commands can
switch to it by import (``stellwerk.gm.master.report_builder``).  It writes: the log since the
player's last report (``stellwerk.words``), the player's orders as understood (defaults and
standing orders marked), the GM's log lines (standing orders fired and cancelled, draws,
corrections), the players' table, who must act next and the deadline; the map and the market
as SVG inline in the HTML and as PNG attachments (when cairosvg is installed), and the
18xx.games game file.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from stellwerk.api import Game


@dataclass(frozen=True)
class ReportOrder:
    """One answered order line: what was written and what became of it."""

    text: str
    understood: str | None
    refused: str | None
    default: bool
    standing: bool


@dataclass
class Report:
    subject: str
    text: str
    html: str
    attachments: list[tuple[str, str, bytes]] = field(default_factory=list)


LABELS = {
    "en": {
        "report": "Report", "log": "What happened", "orders": "Your orders",
        "understood": "understood as", "refused": "refused", "default": "DEFAULT",
        "standing": "standing order", "gm": "Game master's log", "players": "Players",
        "next": "Next to act", "deadline": "Deadline", "none": "nobody (game over)",
        "cash": "cash", "shares": "shares", "finished": "The game is over",
    },
    "de": {
        "report": "Auswertung", "log": "Was geschah", "orders": "Deine Züge",
        "understood": "verstanden als", "refused": "abgelehnt", "default": "VORGABE",
        "standing": "Dauerauftrag", "gm": "Protokoll der Spielleitung", "players": "Spieler",
        "next": "Am Zug", "deadline": "ZAT", "none": "niemand (Spiel beendet)",
        "cash": "Geld", "shares": "Aktien", "finished": "Das Spiel ist beendet",
    },
}  # fmt: skip


def build_report(
    game: Game,
    *,
    player: str,
    lang: str,
    since_action: int,
    orders: list[ReportOrder],
    deadline: datetime | None,
    gm_log: list[str] | None = None,
    key: str = "",
) -> Report:
    """The report for ``player`` (a name) after a processing."""
    words = LABELS.get(lang, LABELS["en"])
    from stellwerk.words import story

    log = [
        line.text if not line.auto else "  " + line.text
        for line in story(game.engine, lang, skipped_steps=False)
        if line.action_id is None or line.action_id > since_action
    ]
    names = dict(game.players)
    acting = [names.get(e, str(e)) for e in game.active_entities()]
    snap = game.snapshot()
    lines = [f"{key} {game.title} - {words['report']} {player}".strip(), ""]
    lines += [f"== {words['orders']}"]
    for order in orders:
        lines.append("  " + _order_line(order, words))
    lines += ["", f"== {words['log']}", *(f"  {t}" for t in log)]
    if gm_log:
        lines += ["", f"== {words['gm']}", *(f"  {t}" for t in gm_log)]
    lines += ["", f"== {words['players']}"]
    for p in snap["players"]:
        shares = ", ".join(f"{c} {v}%" for c, v in p["shares"].items() if v)
        lines.append(f"  {names.get(p['id'], p['id'])}: {words['cash']} {p['cash']}; {shares}")
    lines += [""]
    if game.finished:
        lines.append(f"{words['finished']}: {json.dumps(game.result)}")
    else:
        who = ", ".join(str(a) for a in acting) or words["none"]
        lines.append(f"{words['next']}: {who}")
        if deadline is not None:
            lines.append(f"{words['deadline']}: {deadline.isoformat(timespec='minutes')}")
    text = "\n".join(lines) + "\n"
    svgs, attachments = _pictures_once(game)
    attachments = list(attachments)
    game_file = json.dumps(game.to_file(), ensure_ascii=False, indent=1).encode()
    attachments.append((f"{key or 'game'}.json", "application/json", game_file))
    inline = "".join(f"<div class='{n}'>{svg}</div>" for n, svg in svgs.items())
    page = f"<html><body><pre>{html.escape(text)}</pre>{inline}</body></html>"
    subject = f"{key} {game.title} {words['report']} {snap.get('round')} {snap.get('turn')}"
    return Report(subject.strip(), text, page, attachments)


def _order_line(order: ReportOrder, words: dict[str, str]) -> str:
    mark = f"[{words['default']}] " if order.default else (
        f"[{words['standing']}] " if order.standing else "")
    if order.refused is not None:
        return f"{mark}{order.text} -> {words['refused']}: {order.refused}"
    return f"{mark}{order.text} -> {words['understood']}: {order.understood}"


_DRAWN: list[tuple[Game, int, dict[str, str], list[tuple[str, str, bytes]]]] = []


def _pictures_once(game: Game) -> tuple[dict[str, str], list[tuple[str, str, bytes]]]:
    """The pictures and their PNG attachments, drawn once per position (every player's
    report of one processing shows the same map)."""
    for drawn_game, length, drawn, drawn_files in _DRAWN:
        if drawn_game is game and length == len(game.raw_actions):
            return drawn, drawn_files
    svgs = pictures(game)
    files: list[tuple[str, str, bytes]] = []
    for name, svg in svgs.items():
        png = _png(svg)
        if png is not None:
            files.append((f"{name}.png", "image/png", png))
        else:
            files.append((f"{name}.svg", "image/svg+xml", svg.encode()))
    _DRAWN[:] = [(game, len(game.raw_actions), svgs, files)]
    return svgs, files


def pictures(game: Game) -> dict[str, str]:
    """The map and the market as SVG text."""
    from stellwerk.pictures.mapview import render_map
    from stellwerk.pictures.market import render_market
    from stellwerk.pictures.scene import map_scene

    engine = game.engine
    return {"map": render_map(map_scene(engine, [], None, False)), "market": render_market(engine)}


def _png(svg: str) -> bytes | None:
    try:
        from stellwerk.pictures.svg import to_png

        return to_png(svg)
    except Exception:  # cairosvg missing: the SVG is attached instead
        return None


def report_order(outcome: Any) -> ReportOrder:
    """A ``ReportOrder`` of a session ``Outcome``."""
    return ReportOrder(outcome.text, outcome.understood, outcome.refused, outcome.default,
                       outcome.standing)  # fmt: skip
