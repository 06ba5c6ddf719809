"""Charters and the players' table.

A charter per corporation (its colours and symbol, name, president, share price and par,
treasury, trains, tokens left, IPO and pool shares, private companies, last revenue), and a
table of the players (cash, certificates against the limit, shares, companies, worth: common
rules §4.1).  Last revenues come from the game's run_routes actions when they are given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from stellwerk.core.entities import Corporation, Player, Share, SharePool
from stellwerk.core.jsondata import JSONValue
from stellwerk.pictures.hexdraw import token
from stellwerk.pictures.scene import board_of, caption_of, title_of
from stellwerk.pictures.style import CorpColors, corporation_colors, money
from stellwerk.pictures.svg import new_svg, sub, text, to_string

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

    from stellwerk.core.game import Game
    from stellwerk.core.map.board import Board

CHARTER_W = 300.0
CHARTER_H = 196.0


def _currency(game: object) -> str | None:
    data = getattr(game, "data", None)
    if isinstance(data, Mapping):
        fmt = data.get("currency")
        return str(fmt) if fmt else None
    return None


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


def _percent(shares: Sequence[Share]) -> int:
    return sum(int(s.percent) for s in shares)


def render_charters(game: Game, actions: Sequence[Mapping[str, JSONValue]] | None = None) -> str:
    """One charter per corporation that is or was in play (unstarted ones dimmed)."""
    title = title_of(game)
    fmt = _currency(game)
    corps: list[Corporation] = [c for c in game.corporations]
    raw = getattr(game, "data", None)  # a title's data table, where it has one
    data = raw if isinstance(raw, Mapping) else None
    colors = corporation_colors(title, [c.sym for c in corps], data)
    board = board_of(game)
    revenues = last_revenues(actions)
    pool: SharePool | None = getattr(game, "pool", None)
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
        f"Charters - {caption_of(game)}",
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
        _charter(
            g,
            game,
            corp,
            colors.get(corp.sym, CorpColors("#ccc", "#000")),
            fmt,
            title,
            board,
            revenues,
            pool,
        )
    return to_string(root)


def _charter(
    g: Element,
    game: object,
    corp: Corporation,
    colors: CorpColors,
    fmt: str | None,
    title: str,
    board: Board,
    revenues: Mapping[str, str],
    pool: SharePool | None,
) -> None:
    started = bool(corp.ipoed or corp.floated)
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
    name = corp.full_name if len(corp.full_name) <= 34 else corp.full_name[:33] + "…"
    text(g, 40, 17, name, 12, anchor="start", fill=colors.text, weight="bold")

    def m(value: int) -> str:
        return money(title, value, fmt)

    president = corp.owner.name if isinstance(corp.owner, Player) else "-"
    price = corp.share_price.price if corp.share_price is not None else None
    par = corp.par_price.price if corp.par_price is not None else None
    placed = len(board.token_hexes(corp.sym))
    left = max(corp.num_tokens - placed, 0)
    ipo = _percent(corp.treasury_shares())
    pool_pct = corp.market_percent() if pool is not None else 0
    trains = ", ".join(t.name for t in corp.trains) or "none"
    companies = ", ".join(getattr(c, "sym", "?") for c in corp.companies) or "-"
    status = (
        "closed"
        if corp.closed
        else ("floated" if corp.floated else ("started" if started else "not started"))
    )
    lines = [
        ("President", president),
        (
            "Share price",
            "-" if price is None else m(price) + ("" if par is None else f"  (par {m(par)})"),
        ),
        ("Treasury", m(corp.cash)),
        ("Trains", trains),
        ("Tokens left", f"{left} of {corp.num_tokens}"),
        ("IPO / pool", f"{ipo}% / {pool_pct}%"),
        ("Companies", companies),
        ("Last revenue", revenues.get(corp.sym, "-")),
        ("Status", status),
    ]
    y = 50.0
    for label, value in lines:
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
            class_=label.lower().replace(" ", "-").replace("/", ""),
        )
        y += 16


def render_players(game: Game) -> str:
    """The players' table: cash, certificates / limit, shares per corporation, companies,
    worth (cash + share values + companies, common rules §4.1)."""
    title = title_of(game)
    fmt = _currency(game)
    players: list[Player] = list(game.players)
    corps = [c for c in game.corporations if c.ipoed or any(p.shares.get(c.sym) for p in players)]
    columns = ["Player", "Cash", "Certs", *[c.sym for c in corps], "Companies", "Worth"]
    widths = [130.0, 80.0, 60.0, *[48.0] * len(corps), 120.0, 90.0]
    margin = 16.0
    row_h = 24.0
    width = margin * 2 + sum(widths)
    height = margin * 2 + 30 + row_h * (len(players) + 1)
    root = new_svg(width, height, f"{title} players")
    text(
        root, margin, margin + 8, f"Players - {caption_of(game)}", 16, anchor="start", weight="bold"
    )
    table = sub(root, "g", id="players", transform=f"translate({margin} {margin + 30})")
    x = 0.0
    for label, w in zip(columns, widths, strict=True):
        sub(table, "rect", x=x, y=0, width=w, height=row_h, fill="#ddd", stroke="#888")
        text(table, x + w / 2, row_h / 2, label, 12, weight="bold")
        x += w
    try:
        limit: int | None = int(game.cert_limit())
    except Exception:
        limit = None
    for i, player in enumerate(players):
        y = row_h * (i + 1)
        try:
            certs = int(game.num_certs(player))
        except Exception:
            certs = sum(len(v) for v in player.shares.values())
        try:
            worth = money(title, int(game.player_value(player)), fmt)
        except Exception:
            worth = "-"
        over = limit is not None and certs > limit
        values = [
            player.name,
            money(title, player.cash, fmt),
            f"{certs}/{limit}" if limit is not None else str(certs),
            *[
                f"{sum(s.percent for s in player.shares.get(c.sym, ()))}%"
                if player.shares.get(c.sym)
                else ""
                for c in corps
            ],
            ", ".join(c.sym for c in player.companies) or "-",
            worth,
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
