"""A Game1841 set to the state an 18xx.games trace records before an action, and the same
state read back for comparison (tests only; the operating round is not needed).

The board comes from :func:`positions1841.position_before` (tools/); cash, shares,
presidents, prices, trains and the phase from the trace line (../shared/fixtures README).
Certificate ids and train copies are not in the trace: president's certificates go to the
presidents, ordinary ones in index order; trains are taken from the depot by name.  The
order of a market cell's stack is not in the trace either: definition order.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from positions1841 import position_before, read_trace, trace_path

from stellwerk.core.entities import Corporation, Holder, move_share
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.titles.g1841 import frozen
from stellwerk.titles.g1841.decisions import Decisions
from stellwerk.titles.g1841.game import Game1841

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "18xx.games" / "1841"


def fixture(name: str) -> Path:
    return FIXTURES / f"{name}.json"


def live_actions(path: Path) -> list[dict[str, Any]]:
    return list(load_game_file(read_game_file(path)).live)


def trace_lines(path: Path) -> dict[int, dict[str, Any]]:
    """Trace states by the id of the action after which they hold."""
    return {
        int(s["action_id"]): s
        for s in read_trace(trace_path(path))
        if isinstance(s.get("action_id"), int)
    }


def state_before(
    path: Path, action_id: int, operator_sym: str | None = None
) -> tuple[Game1841, dict[str, Any]]:
    """The game as the trace has it just before live action ``action_id`` (an operating
    round with the action's corporation, or ``operator_sym``, operating), and that action."""
    data = read_game_file(path)
    options = list(data.get("settings", {}).get("optional_rules") or [])
    players = [(p["id"], p["name"]) for p in data["players"]]
    game = Game1841(players, options, int(data.get("settings", {}).get("seed") or 1))
    action, position = position_before(path, action_id)
    lines = read_trace(trace_path(path))
    index = next(i for i, s in enumerate(lines) if s.get("action_id") == action["id"])
    state = lines[index - 1]
    game.map.board = position.port.board
    apply_state(game, state, live_actions(path), int(action["id"]))
    operator = game.corporation(operator_sym or str(action["entity"]))
    rnd = OperatingRound(game, [Decisions], int(state["round_num"]))
    rnd.entity_index = rnd.entities.index(operator)
    rnd.current_operator = operator
    game.round = rnd
    return game, action


def holder(game: Game1841, key: Any) -> Holder:
    if key == "SharePool":
        return game.pool
    if isinstance(key, str) and not key.isdigit():
        return game.corporation(key)
    return game.player_by_id(key)


def apply_state(
    game: Game1841, state: dict[str, Any], actions: list[dict[str, Any]], before: int
) -> None:
    order = [game.player_by_id(p["id"]) for p in state["players"]]
    game.players = order
    game.bank.cash = int(state["bank"])
    while game.phases.name != str(state["phase"]):
        game.phases.advance()
    game.map.phase = game.phases.name
    for p in state["players"]:
        player = game.player_by_id(p["id"])
        player.cash = int(p["cash"])
        for sym in p["companies"]:
            company = game.company(sym)
            company.owner = player
            player.companies.append(company)
    for c in state["corporations"]:
        corp = game.corporation(c["id"])
        corp.cash = int(c["cash"])
        corp.ipoed, corp.floated = bool(c["ipoed"]), bool(c["floated"])
        if c.get("price_cell") is not None:
            cell = game.market.cell(tuple(c["price_cell"]))
            assert cell is not None
            cell.corporations.append(corp.sym)
            corp.share_price = corp.par_price = cell
    holdings: dict[str, list[tuple[Holder, int]]] = {}
    for p in state["players"]:
        for sym, pct in p["shares"].items():
            holdings.setdefault(sym, []).append((game.player_by_id(p["id"]), int(pct)))
    for c in state["corporations"]:
        for sym, pct in c.get("shares", {}).items():
            if sym != c["id"]:
                holdings.setdefault(sym, []).append((game.corporation(c["id"]), int(pct)))
        if c.get("pool_percent"):
            holdings.setdefault(c["id"], []).append((game.pool, int(c["pool_percent"])))
    for c in state["corporations"]:
        corp = game.corporation(c["id"])
        pres = corp.presidents_share
        president = holder(game, c["president"]) if c.get("president") is not None else None
        if president is not None and pres is not None:
            move_share(pres, president)
            corp.owner = president
        for who, pct in holdings.get(corp.sym, []):
            pct -= pres.percent if pres is not None and pres.owner is who else 0
            while pct > 0:
                share = next(s for s in corp.treasury_shares() if not s.president)
                move_share(share, who)
                pct -= share.percent
    depot = game.depot
    for name in {t.name for t in depot.trains}:
        copies = [t for t in depot.trains if t.name == name]
        left = int(state["depot"].get(name, 0))
        gone = copies[: len(copies) - left]
        owners = [
            game.corporation(c["id"])
            for c in state["corporations"]
            for t in c["trains"]
            if t == name
        ]
        for train in gone:
            depot.remove(train)
            if owners:
                corp = owners.pop(0)
                train.owner = corp
                corp.trains.append(train)
            else:
                train.owner = None
                train.rusted = True
    game.types_bought = {
        name
        for name in {t.name for t in depot.trains}
        if state["depot"].get(name, 0) < sum(t.name == name for t in depot.trains)
    }
    frozen.update(game)
    for c in state["corporations"]:
        corp = game.corporation(c["id"])
        bought = [
            a
            for a in actions
            if int(a["id"]) < before and a["type"] == "choose" and a.get("entity") == c["id"]
        ]
        if bought and isinstance(bought[0].get("choice"), int):
            corp.num_tokens = int(bought[0]["choice"])
        corp.num_tokens = max(corp.num_tokens, len(c.get("tokens", ())))


def holder_id(h: Holder | None) -> Any:
    if h is None:
        return None
    if isinstance(h, Corporation):
        return h.sym
    if h is h and h.kind == "pool":
        return "SharePool"
    return getattr(h, "id", h.name)


def snapshot(game: Game1841) -> dict[str, Any]:
    """Our state in the trace's terms (what the secession changes)."""
    out: dict[str, Any] = {"bank": game.bank.cash}
    for p in game.players:
        shares = {s: pct for s in p.shares if (pct := p.percent_of(s))}
        out[f"P{p.id}"] = (p.cash, shares, [c.sym for c in p.companies])
    for corp in game.corporations:
        if corp.closed or not (corp.ipoed or corp.cash or corp.trains):
            continue
        cell = corp.share_price
        out[f"C{corp.sym}"] = {
            "cash": corp.cash,
            "price": cell.price if cell is not None else None,
            "president": holder_id(corp.owner),
            "trains": sorted(t.name for t in corp.trains),
            "tokens": game.map.board.token_hexes(corp.sym),
            "shares": {s: pct for s in corp.shares if (pct := corp.percent_of(s))},
            "pool_percent": game.pool.percent_of(corp.sym),
        }
    return out


def expected(state: dict[str, Any]) -> dict[str, Any]:
    """The trace line in the terms of :func:`snapshot`."""
    out: dict[str, Any] = {"bank": state["bank"]}
    for p in state["players"]:
        out[f"P{p['id']}"] = (p["cash"], dict(p["shares"]), list(p["companies"]))
    for c in state["corporations"]:
        out[f"C{c['id']}"] = {
            "cash": c["cash"],
            "price": c["price"],
            "president": c["president"],
            "trains": sorted(c["trains"]),
            "tokens": sorted(c["tokens"]),
            "shares": dict(c.get("shares", {})),
            "pool_percent": c.get("pool_percent", 0),
        }
    return out


def differences(game: Game1841, state: dict[str, Any]) -> list[str]:
    ours, theirs = snapshot(game), expected(state)
    out = []
    for key in sorted(set(ours) | set(theirs)):
        if ours.get(key) != theirs.get(key):
            out.append(f"{key}: ours {ours.get(key)} != trace {theirs.get(key)}")
    return out


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))
