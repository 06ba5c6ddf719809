"""Charters and the players' table.

A charter per corporation (its colours and symbol, name, president, share price and par,
treasury, trains, tokens left, IPO and pool shares, private companies, last revenue), and a
table of the players (cash, certificates against the limit, shares, companies, worth: common
rules §4.1).  Last revenues come from the game's run_routes actions when they are given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from stellwerk.core.jsondata import JSONValue
from stellwerk.pictures.hexdraw import token
from stellwerk.pictures.scene import caption_of, reader
from stellwerk.pictures.style import CorpColors, corporation_colors, money, percent
from stellwerk.pictures.svg import new_svg, sub, text, to_string
from stellwerk.pictures.wording import word
from stellwerk.views import CorporationView

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

    from stellwerk.pictures.scene import Shown

CHARTER_W = 300.0
CHARTER_H = 196.0


def last_revenues(actions: Sequence[Mapping[str, JSONValue]] | None) -> dict[str, str]:
    """Per corporation, the revenue of its last run and what it did with it."""
    out: dict[str, str] = {}
    pending: dict[str, int] = {}
    for action in actions or ():
        kind = action.get("type")
        entity = str(action.get("entity"))
        if kind == "run_routes":
            revenue = action.get("revenue")
            if isinstance(revenue, int):  # imported Rails reports: no routes
                total = int(revenue)
            else:
                routes = action.get("routes", ()) or ()
                total = sum(
                    _number(r.get("revenue", 0))
                    for r in (routes if isinstance(routes, list) else ())
                    if isinstance(r, dict)
                )
                total += _number(action.get("extra_revenue", 0) or 0)
            pending[entity] = total
            out[entity] = str(total)
        elif kind == "dividend" and entity in pending:
            out[entity] = f"{pending.pop(entity)} ({action.get('kind', '')})"
    return out


def _number(value: JSONValue) -> int:
    """A recorded amount as an integer (a number or its digits; anything else counts 0)."""
    if isinstance(value, bool | int | float):
        return int(value)
    if isinstance(value, str):
        return int(value)
    return 0


def render_charters(
    game: Shown, actions: Sequence[Mapping[str, JSONValue]] | None = None, lang: str = "en"
) -> str:
    """One charter per corporation that is or was in play (unstarted ones dimmed), its words
    in ``lang``."""
    look = reader(game)
    title = look.title
    corps = look.corporations()
    colors = corporation_colors(title, [c.sym for c in corps], look.declared_colors())
    revenues = last_revenues(actions)
    per_row = 4
    rows = (len(corps) + per_row - 1) // per_row
    margin = 16.0
    width = margin * 2 + per_row * (CHARTER_W + 10)
    height = margin * 2 + 30 + rows * (CHARTER_H + 10)
    root = new_svg(width, height, f"{title} charters")
    text(
        root,
        margin,
        margin + 8,
        f"{word('charters', lang)} - {caption_of(game, lang=lang)}",
        16,
        anchor="start",
        weight="bold",
    )
    for i, corp in enumerate(corps):
        row, col = divmod(i, per_row)
        x = margin + col * (CHARTER_W + 10)
        y = margin + 30 + row * (CHARTER_H + 10)
        g = sub(
            root, "g", id=f"charter-{corp.sym}", transform=f"translate({x} {y})", class_="charter"
        )
        _charter(g, corp, colors.get(corp.sym, CorpColors("#ccc", "#000")), title, revenues, lang)
    return to_string(root)


def president_text(corp: CorporationView) -> str:
    """Who presides, as a charter says it: the player; a presiding corporation with the
    chain of control up to the player (``IRSFF ← Anna``; 1841: corporations hold shares of
    others), marked when it loops or ends at the pool (a frozen corporation); "-" for
    nobody."""
    if corp.president is None:
        return "-"
    if corp.president.kind == "player":
        return corp.president.name
    text = " ← ".join(link.name for link in corp.chain) or corp.president.name
    if corp.circular:
        return f"{text} (circular)"
    return text


def _charter(
    g: Element,
    corp: CorporationView,
    colors: CorpColors,
    title: str,
    revenues: Mapping[str, str],
    lang: str,
) -> None:
    started = bool(corp.started or corp.floated)
    opacity = "1" if started and not corp.closed else "0.45"
    sub(
        g,
        "rect",
        x=0,
        y=0,
        width=CHARTER_W,
        height=CHARTER_H,
        rx=8,
        fill="#fff",
        stroke="#333",
        stroke_width=1.5,
        opacity=opacity,
    )
    sub(
        g,
        "rect",
        x=0,
        y=0,
        width=CHARTER_W,
        height=34,
        rx=8,
        fill=colors.fill,
        stroke="#333",
        stroke_width=1.5,
        opacity=opacity,
    )
    token(g, (20, 17), 14, corp.sym, colors)
    name = corp.name if len(corp.name) <= 34 else corp.name[:33] + "…"
    text(g, 40, 17, name, 12, anchor="start", fill=colors.text, weight="bold")

    def m(value: int) -> str:
        return money(title, value, lang)

    president = president_text(corp)
    price, par = corp.price, corp.par
    left = max(corp.token_count - len(corp.tokens), 0)
    trains = ", ".join(corp.trains) or word("no_trains", lang)
    companies = ", ".join(str(c.key) for c in corp.companies) or "-"
    status = (
        "closed"
        if corp.closed
        else ("floated" if corp.floated else ("started" if started else "not_started"))
    )
    par_text = "" if par is None else "  (" + word("par", lang).format(price=m(par)) + ")"
    lines = [  # (key: the value's class and the label's word, value)
        ("president", president),
        ("share-price", "-" if price is None else m(price) + par_text),
        ("treasury", m(corp.cash)),
        ("trains", trains),
        ("tokens-left", word("tokens_of", lang).format(left=left, count=corp.token_count)),
        ("ipo-pool", f"{percent(corp.ipo_percent, lang)} / {percent(corp.pool_percent, lang)}"),
        ("companies", companies),
        ("last-revenue", revenues.get(corp.sym, "-")),
        ("status", word(status, lang)),
    ]
    y = 50.0
    for key, value in lines:
        label = word(key, lang)
        text(g, 10, y, label, 11, anchor="start", fill="#555", opacity=opacity)
        text(
            g,
            100,
            y,
            value,
            11,
            anchor="start",
            weight="bold",
            opacity=opacity,
            class_=key,
        )
        y += 16


def render_players(game: Shown, lang: str = "en") -> str:
    """The players' table: cash, certificates / limit, shares per corporation, companies,
    worth (cash + share values + companies, common rules §4.1); its words in ``lang``."""
    look = reader(game)
    title = look.title
    players = look.seating()
    corps = [
        c for c in look.corporations() if c.started or any(p.shares.get(c.sym) for p in players)
    ]
    columns = [
        word("player", lang),
        word("cash", lang),
        word("certs", lang),
        *[c.sym for c in corps],
        word("companies", lang),
        word("worth", lang),
    ]
    widths = [130.0, 80.0, 60.0, *[48.0] * len(corps), 120.0, 90.0]
    margin = 16.0
    row_h = 24.0
    width = margin * 2 + sum(widths)
    height = margin * 2 + 30 + row_h * (len(players) + 1)
    root = new_svg(width, height, f"{title} players")
    text(
        root,
        margin,
        margin + 8,
        f"{word('players', lang)} - {caption_of(game, lang=lang)}",
        16,
        anchor="start",
        weight="bold",
    )
    table = sub(root, "g", id="players", transform=f"translate({margin} {margin + 30})")
    x = 0.0
    for label, w in zip(columns, widths, strict=True):
        sub(table, "rect", x=x, y=0, width=w, height=row_h, fill="#ddd", stroke="#888")
        text(table, x + w / 2, row_h / 2, label, 12, weight="bold")
        x += w
    limit = look.certificate_limit()
    for i, player in enumerate(players):
        y = row_h * (i + 1)
        certs = player.certificates
        over = certs > limit
        values = [
            player.name,
            money(title, player.cash, lang),
            f"{certs}/{limit}",
            *[percent(held, lang) if (held := player.shares.get(c.sym)) else "" for c in corps],
            ", ".join(str(c.key) for c in player.companies) or "-",
            money(title, player.worth, lang),
        ]
        row = sub(table, "g", id=f"player-{player.id}", class_="player")
        x = 0.0
        for j, (value, w) in enumerate(zip(values, widths, strict=True)):
            fill = "#fff" if i % 2 == 0 else "#f4f4f4"
            if j == 2 and over:
                fill = "#f8c0c0"
            sub(row, "rect", x=x, y=y, width=w, height=row_h, fill=fill, stroke="#bbb")
            text(row, x + w / 2, y + row_h / 2, value, 12, weight="bold" if j == 0 else None)
            x += w
        if player.bankrupt:
            text(row, 4, y + row_h / 2, "✗", 12, anchor="start", fill="#c00")
    return to_string(root)
