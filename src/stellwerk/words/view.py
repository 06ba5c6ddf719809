"""What a player needs to see of a game, with names: ``stellwerk show``.

``player_view(game)`` is JSON-ready: the round and its step, who is to act (by name), standing
bids, the priority deal, players, corporations (IPO and pool shares, par and current price),
the tail of the log, and the legal actions as ready JSON, tile lays grouped by hex.
"""

from __future__ import annotations

import json
from typing import NotRequired, TypedDict

from stellwerk import views
from stellwerk.api import Game
from stellwerk.core.entities import PlayerId
from stellwerk.core.jsondata import JSONObject
from stellwerk.words.catalog import money
from stellwerk.words.narrate import render, story


class BidView(TypedDict):
    """A standing bid: on what, by whom, how much (and as money text)."""

    item: str
    player: str
    price: int
    text: str


class CorporationView(TypedDict):
    sym: str
    name: str
    president: str | None
    cash: int
    floated: bool
    par: int | None
    price: int | None
    ipo_percent: int
    pool_percent: int
    trains: list[str]
    tokens: list[str]
    companies: list[str]


class PlayerView(TypedDict):
    id: PlayerId
    name: str
    cash: int
    shares: dict[str, int]
    companies: list[str]
    certificates: int
    certificate_limit: int
    bankrupt: bool


class CompanyView(TypedDict):
    sym: str
    name: str
    owner: str | None


class LegalView(TypedDict):
    """The legal actions: tile lays grouped by hex, the others in ``actions``."""

    actions: list[JSONObject]
    lays: dict[str, list[JSONObject]]


class GameView(TypedDict):
    """What ``stellwerk show`` prints (``player_view``); ``legal`` may be left out."""

    title: str
    round: str
    turn: int
    round_num: int
    step: str | None
    phase: str
    bank: int
    acting: list[str]
    priority: str | None
    bids: list[BidView]
    players: list[PlayerView]
    corporations: list[CorporationView]
    companies: list[CompanyView]
    depot: dict[str, int]
    log: list[str]
    finished: bool
    game_end_reason: str | None
    result: dict[str, int]
    legal: NotRequired[LegalView]


def _bids(title: str, bids: tuple[views.BidView, ...]) -> list[BidView]:
    """Standing bids of the round's auction steps, with the amount as money text."""
    return [
        {
            "item": bid.item.name,
            "player": bid.bidder.name,
            "price": bid.price,
            "text": money(title, bid.price),
        }
        for bid in bids
    ]


def _corporation(corp: views.CorporationView) -> CorporationView:
    return {
        "sym": corp.sym,
        "name": corp.name,
        "president": corp.president.name if corp.president is not None else None,
        "cash": corp.cash,
        "floated": corp.floated,
        "par": corp.par,
        "price": corp.price,
        "ipo_percent": corp.ipo_percent,
        "pool_percent": corp.pool_percent,
        "trains": list(corp.trains),
        "tokens": list(corp.tokens),
        "companies": [c.name for c in corp.companies],
    }


def _player(player: views.PlayerView) -> PlayerView:
    return {
        "id": player.id,
        "name": player.name,
        "cash": player.cash,
        "shares": dict(player.shares),
        "companies": [c.name for c in player.companies],
        "certificates": player.certificates,
        "certificate_limit": player.certificate_limit,
        "bankrupt": player.bankrupt,
    }


def legal_grouped(game: Game) -> LegalView:
    """The legal actions: ``actions`` (every kind but tile lays) and ``lays`` (hex ->
    the lay_tile actions on it), each ready to send with ``stellwerk act``."""
    listed = game.legal_actions()
    lays: dict[str, list[JSONObject]] = {}
    hexes = game.lay_hexes()
    for hex_id in hexes:
        found = [a for a in game.legal_actions(hex_id) if a["type"] == "lay_tile"]
        if found:
            lays[hex_id] = found
    return {"actions": [a for a in listed if a["type"] != "lay_tile"], "lays": lays}


def player_view(game: Game, lang: str = "en", log: int = 10, legal: bool = True) -> GameView:
    """The state with names, who acts, the log's last ``log`` lines and (``legal``) the legal
    actions, tile lays grouped by hex (listing them asks every hex: a front end that lists
    them its own way leaves them out)."""
    look = game.view
    table = look.table()
    rnd = game.round
    step = look.step()
    companies = look.companies()
    players = look.players()
    lines = render(story(game, lang)) if log else []
    view: GameView = {
        "title": table.title,
        "round": rnd.name.removeprefix("Round::"),
        "turn": table.turn,
        "round_num": rnd.number,
        "step": step.description,
        "phase": table.phase,
        "bank": table.bank,
        "acting": [e.name for e in step.acting],
        "priority": table.priority.name if table.priority is not None else None,
        "bids": _bids(table.title, step.bids),
        "players": [_player(p) for p in players],
        "corporations": [_corporation(c) for c in look.corporations()],
        "companies": [
            {"sym": c.sym, "name": c.name, "owner": c.owner.name if c.owner else None}
            for c in companies
            if not c.closed
        ],
        "depot": dict(table.depot),
        "log": lines[-log:] if log else [],
        "finished": table.finished,
        "game_end_reason": table.game_end_reason,
        "result": {
            p.name: value for p in players for pid, value in game.result.items() if str(p.id) == pid
        },
    }
    listed = legal and not table.finished
    view["legal"] = legal_grouped(game) if listed else {"actions": [], "lays": {}}
    return view


def render_view(view: GameView) -> list[str]:
    """The view as text for a terminal."""
    title = view["title"]

    def cash(amount: int) -> str:
        return money(title, amount)

    where = f"{view['round']} {view['turn']}"
    if view["round"] == "Operating":
        where += f".{view['round_num']}"
    lines = [
        f"{title}: {where}, step: {view['step'] or '-'}, phase {view['phase']}, "
        f"bank {cash(view['bank'])}",
        f"To act: {', '.join(view['acting']) or 'nobody'}; priority deal: {view['priority']}",
    ]
    if view["bids"]:
        lines.append("Standing bids:")
        lines += [f"  {b['player']}: {b['text']} for {b['item']}" for b in view["bids"]]
    lines.append("Players:")
    for p in view["players"]:
        shares = ", ".join(f"{sym} {pct}%" for sym, pct in p["shares"].items()) or "-"
        gone = " (bankrupt)" if p["bankrupt"] else ""
        lines.append(
            f"  {p['name']}{gone}: {cash(p['cash'])}, certificates "
            f"{p['certificates']}/{p['certificate_limit']}, shares {shares}, "
            f"companies {', '.join(p['companies']) or '-'}"
        )
    started = [c for c in view["corporations"] if c["par"] is not None or c["floated"]]
    lines.append("Corporations:" if started else "Corporations: none started")
    for c in started:
        lines.append(
            f"  {c['sym']} ({c['name']}): president {c['president'] or '-'}, "
            f"{cash(c['cash'])}, par {cash(c['par']) if c['par'] else '-'}, "
            f"price {cash(c['price']) if c['price'] else '-'}, IPO {c['ipo_percent']}%, "
            f"pool {c['pool_percent']}%, trains {', '.join(c['trains']) or '-'}, "
            f"tokens {', '.join(c['tokens']) or '-'}"
        )
    unstarted = [c["sym"] for c in view["corporations"] if c not in started]
    if unstarted:
        lines.append(f"  not started: {', '.join(unstarted)}")
    companies = [f"{c['name']} ({c['owner'] or 'bank'})" for c in view["companies"]]
    if companies:
        lines.append(f"Companies: {'; '.join(companies)}")
    depot = ", ".join(f"{n} x{k}" for n, k in view["depot"].items()) or "-"
    lines.append(f"Depot: {depot}")
    if view["log"]:
        lines.append("Log:")
        lines += [f"  {line}" for line in view["log"]]
    if view["finished"]:
        lines.append(f"Game over ({view['game_end_reason']}): {view['result']}")
        return lines
    legal = view.get("legal", LegalView(actions=[], lays={}))
    lines.append("Legal actions (send one with: stellwerk act GAME 'JSON'):")
    lines += [f"  {json.dumps(a)}" for a in legal["actions"]]
    for hex_id, lays in legal["lays"].items():
        lines.append(f"  tile lays on {hex_id}:")
        lines += [f"    {json.dumps(a)}" for a in lays]
    return lines
