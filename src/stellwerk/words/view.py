"""What a player needs to see of a game, with names (issue 9 item 4): ``stellwerk show``.

``player_view(game)`` is JSON-ready: the round and its step, who is to act (by name), standing
bids, the priority deal, players, corporations (IPO and pool shares, par and current price),
the tail of the log, and the legal actions as ready JSON, tile lays grouped by hex.
"""

from __future__ import annotations

import json
from typing import NotRequired, TypedDict

from stellwerk.api import Game
from stellwerk.core.entities import Company, Corporation, Player, PlayerId
from stellwerk.core.game import Game as CoreGame
from stellwerk.core.jsondata import JSONObject
from stellwerk.core.map.board import Board
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


def _name(entity: object) -> str:
    if isinstance(entity, Player):
        return entity.name
    if isinstance(entity, Company):
        return entity.name
    return str(getattr(entity, "sym", None) or getattr(entity, "name", entity))


def _bids(engine: CoreGame) -> list[BidView]:
    """Standing bids of the auction steps of the round (each step's ``bids``: per item a
    list of (player, price) or a mapping player -> price)."""
    out: list[BidView] = []
    for step in engine.round.steps:
        bids = getattr(step, "bids", None)
        if not isinstance(bids, dict):
            continue
        for item, standing in bids.items():
            pairs = standing.items() if isinstance(standing, dict) else standing
            for player, price in pairs:
                if price is None:
                    continue
                out.append(
                    {
                        "item": _name(item),
                        "player": _name(player),
                        "price": price,
                        "text": money(engine.title, price),
                    }
                )
    return out


def _priority(engine: CoreGame) -> str | None:
    """The holder of the priority deal: the title's ``priority`` or the first in seat order."""
    holder = getattr(engine, "priority", None)
    if isinstance(holder, Player):
        return holder.name
    active = [p for p in engine.players if not p.bankrupt]
    return active[0].name if active else None


def _tokens(engine: CoreGame, corp: Corporation) -> list[str]:
    """The hexes of ``corp``'s placed tokens, read from the board (every title has one; the
    engine's ``token_hexes`` hook is bound only where a trace format needs it)."""
    board = getattr(getattr(engine, "map", None), "board", None)
    if isinstance(board, Board):
        return board.token_hexes(corp.sym)
    return engine.token_hexes(corp)


def _corporation(engine: CoreGame, corp: Corporation) -> CorporationView:
    cell = corp.share_price
    par = corp.par_price
    president = corp.owner
    return {
        "sym": corp.sym,
        "name": corp.name,
        "president": _name(president) if president is not None else None,
        "cash": corp.cash,
        "floated": corp.floated,
        "par": par.price if par is not None else None,
        "price": cell.price if cell is not None else None,
        "ipo_percent": corp.percent_of(corp.sym),
        "pool_percent": engine.pool.percent_of(corp.sym),
        "trains": [t.name for t in corp.trains],
        "tokens": _tokens(engine, corp),
        "companies": [c.name for c in corp.companies],
    }


def _player(engine: CoreGame, player: Player) -> PlayerView:
    shares = {sym: sum(s.percent for s in certs) for sym, certs in player.shares.items() if certs}
    return {
        "id": player.id,
        "name": player.name,
        "cash": player.cash,
        "shares": shares,
        "companies": [c.name for c in player.companies],
        "certificates": engine.num_certs(player),
        "certificate_limit": engine.cert_limit(player),
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


def player_view(game: Game, lang: str = "en", log: int = 10) -> GameView:
    """The state with names, who acts, the log's last ``log`` lines and the legal actions."""
    engine = game.engine
    rnd = engine.round
    with engine.remembering():
        step = rnd.active_step()
        acting = [_name(e) for e in rnd.active_entities()]
    lines = render(story(engine, lang)) if log else []
    view: GameView = {
        "title": engine.title,
        "round": rnd.name.removeprefix("Round::"),
        "turn": engine.turn,
        "round_num": rnd.round_num,
        "step": step.description if step is not None else None,
        "phase": engine.phases.name,
        "bank": engine.bank.cash,
        "acting": acting,
        "priority": _priority(engine),
        "bids": _bids(engine),
        "players": [_player(engine, p) for p in engine.all_players],
        "corporations": [_corporation(engine, c) for c in engine.corporations],
        "companies": [
            {"sym": c.sym, "name": c.name, "owner": _name(c.owner) if c.owner else None}
            for c in engine.companies
            if not c.closed
        ],
        "depot": engine.depot.counts(),
        "log": lines[-log:] if log else [],
        "finished": engine.finished,
        "game_end_reason": engine.game_end_reason,
        "result": {
            p.name: value
            for p in engine.all_players
            for pid, value in game.result.items()
            if str(p.id) == pid
        },
    }
    view["legal"] = legal_grouped(game) if not engine.finished else {"actions": [], "lays": {}}
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
