"""A Game1841 set to the state an 18xx.games trace records before an action (tests only).

Until the operating round runs, merger, transformation and Tuscan-merge tests start from the
fixtures' recorded positions: the board from :mod:`positions1841` (tools/), and
cash, prices, presidents, holdings, trains and pool from the trace line before the action.
Certificates are dealt by percentage (the president's to the president); the trace has no
certificate ids and no token counts, so tests set token counts where they matter.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from positions1841 import position_before, read_trace, trace_path

from stellwerk.core.entities import Corporation, Holder, Player, Train, move_share
from stellwerk.titles.g1841.game import Game1841

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "18xx.games" / "1841"


def fixture(name: str) -> Path:
    path = FIXTURES / f"{name}.json"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return path


def trace_lines(path: Path) -> dict[int, dict[str, Any]]:
    """Trace state after each action id; key 0 is the state before any action."""
    out: dict[int, dict[str, Any]] = {}
    previous = 0
    for line in read_trace(trace_path(path))[1:]:
        if "action_id" not in line:
            continue
        aid = line["action_id"]
        out[previous if aid is None else int(aid)] = line
        if aid is not None:
            previous = int(aid)
    return out


def actions(path: Path) -> dict[int, dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        data = json.load(fh)
    return {int(a["id"]): a for a in data["actions"]}


def state_before(path: Path, action_id: int) -> dict[str, Any]:
    """The trace line of the last live action before ``action_id``."""
    lines = trace_lines(path)
    earlier = [k for k in lines if k < action_id]
    return lines[max(earlier)]


def game_before(name: str, action_id: int) -> Game1841:
    """A Game1841 in the recorded state just before ``action_id`` of fixture ``name``."""
    path = fixture(name)
    with path.open(encoding="utf-8") as fh:
        data = json.load(fh)
    options = list(data.get("settings", {}).get("optional_rules") or [])
    players = [(p["id"], p["name"]) for p in data["players"]]
    game = Game1841(players, options, 1)
    _, position = position_before(path, action_id)
    game.map = position.port
    state = state_before(path, action_id)
    set_state(game, state)
    return game


def set_state(game: Game1841, state: dict[str, Any]) -> None:
    phase = str(state["phase"])
    game.phases.index = next(i for i, p in enumerate(game.phases.all) if p.name == phase)
    game.map.phase = phase
    game.bank.cash = int(state["bank"])
    by_id = {str(p.id): p for p in game.all_players}
    order = [by_id[str(p["id"])] for p in state["players"]]
    game.players = order
    for record in state["players"]:
        player = by_id[str(record["id"])]
        player.cash = int(record["cash"])
    corps = {c["id"]: c for c in state["corporations"]}
    for corp in game.corporations:
        record = corps.get(corp.sym)
        if record is None:
            continue
        corp.cash = int(record["cash"])
        corp.ipoed = bool(record["ipoed"])
        corp.floated = bool(record["floated"])
        if record.get("price_cell") is not None:
            row, col = record["price_cell"]
            cell = game.market.cell((row, col))
            assert cell is not None
            cell.corporations.append(corp.sym)
            corp.share_price = cell
            corp.par_price = cell
        corp.trains = []
        for i, name in enumerate(record.get("trains", ())):
            train = Train(name, 90 + i, int(name) if name.isdigit() else 2, 0)
            train.owner = corp
            corp.trains.append(train)
        if corp.floated:
            corp.operating_history.append((1, 0))
            game.operated_corps.add(corp.sym)
    for corp in game.corporations:
        record = corps.get(corp.sym)
        if record is None or not record["ipoed"]:
            continue
        holdings: list[tuple[Holder, int]] = []
        for p in state["players"]:
            pct = p["shares"].get(corp.sym, 0)
            if pct:
                holdings.append((by_id[str(p["id"])], pct))
        for other in state["corporations"]:
            pct = other.get("shares", {}).get(corp.sym, 0)
            if pct and other["id"] != corp.sym:
                holdings.append((game.corporation(other["id"]), pct))
        if record.get("pool_percent"):
            holdings.append((game.pool, int(record["pool_percent"])))
        president = record.get("president")
        pres_holder: Holder | None = None
        for holder, _ in holdings:
            if isinstance(holder, Player) and str(holder.id) == str(president):
                pres_holder = holder
            if isinstance(holder, Corporation) and holder.sym == president:
                pres_holder = holder
        if pres_holder is None and president is not None and holdings:
            pres_holder = game.pool if str(president) == "SharePool" else None
        deal(corp, holdings, pres_holder)
        corp.owner = pres_holder


def deal(corp: Corporation, holdings: list[tuple[Holder, int]], president: Holder | None) -> None:
    """Move certificates from the treasury: the president's certificate to the president,
    ordinary ones to everyone for the rest of his percentage."""
    treasury = list(corp.treasury_shares())
    pres = next(s for s in treasury if s.president)
    normal = [s for s in treasury if not s.president]
    for holder, pct in holdings:
        if holder is president:
            move_share(pres, holder)
            pct -= pres.percent
        while pct > 0:
            share = normal.pop(0)
            move_share(share, holder)
            pct -= share.percent


def holdings(game: Game1841) -> dict[str, dict[str, int]]:
    """Percent held per holder (players by id, corporations by symbol, ``pool``) per
    corporation, as the trace lists them."""
    out: dict[str, dict[str, int]] = {}
    for player in game.all_players:
        out[str(player.id)] = {k: sum(s.percent for s in v) for k, v in player.shares.items() if v}
    for corp in game.corporations:
        if corp.ipoed or corp.cash:
            out[corp.sym] = {k: sum(s.percent for s in v) for k, v in corp.shares.items() if v}
    return out


def traced_holdings(state: dict[str, Any]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for p in state["players"]:
        out[str(p["id"])] = {k: v for k, v in p["shares"].items() if v}
    for c in state["corporations"]:
        if c["ipoed"] or c["cash"]:
            out[c["id"]] = {k: v for k, v in c.get("shares", {}).items() if v}
    return out


def president_name(corp: Corporation) -> Any:
    owner = corp.owner
    if isinstance(owner, Player):
        return owner.id
    if isinstance(owner, Corporation):
        return owner.sym
    return None if owner is None else owner.name


def differences(game: Game1841, state: dict[str, Any]) -> list[str]:
    """What differs between the game and a trace line: cash, holdings, pool, prices,
    presidents, trains and placed tokens of the listed corporations, the bank."""
    out: list[str] = []
    if game.bank.cash != state["bank"]:
        out.append(f"bank {game.bank.cash} != {state['bank']}")
    by_id = {str(p.id): p for p in game.all_players}
    for record in state["players"]:
        player = by_id[str(record["id"])]
        if player.cash != record["cash"]:
            out.append(f"player {player.id} cash {player.cash} != {record['cash']}")
    ours, theirs = holdings(game), traced_holdings(state)
    for key in sorted(set(ours) | set(theirs)):
        if ours.get(key, {}) != theirs.get(key, {}):
            out.append(f"holdings of {key} {ours.get(key)} != {theirs.get(key)}")
    listed = {c["id"] for c in state["corporations"]}
    for corp in game.corporations:
        if (corp.ipoed or corp.cash or corp.trains) and corp.sym not in listed:
            out.append(f"{corp.sym} is listed by us only")
    for record in state["corporations"]:
        corp = game.corporation(record["id"])
        price = corp.share_price.price if corp.share_price else None
        mine = {
            "cash": corp.cash,
            "price": price,
            "president": president_name(corp),
            "pool_percent": corp.market_percent(),
            "trains": sorted(t.name for t in corp.trains),
            "tokens": game.map.board.token_hexes(corp.sym),
        }
        for key, value in mine.items():
            want = record.get(key)
            if key == "trains":
                want = sorted(want or [])
            if key == "president" and want is not None:
                want = want if not isinstance(want, str) or want != "SharePool" else "Market"
            if value != want and not (key == "pool_percent" and not value and not want):
                out.append(f"{corp.sym} {key} {value} != {want}")
    return out
