"""The fixtures' stock rounds after the first, played from the state their traces record
(rules/1841.md 2.2): until the operating round runs, the position at the start of each such
stock round is set up from the trace (cash, certificates, prices, presidents, concessions,
the board rebuilt by :mod:`positions1841` (tools/)), then every action of the
round is processed and the state after it compared with the trace line (cash, holdings,
prices, presidents, pool, tokens, who acts; after the last one the end-of-round moves).

Certificates are not named in the trace: those the round's actions name start where the
actions find them, the president's certificate with the president, the rest in id order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from positions1841 import positions

from stellwerk.core.entities import Corporation, Holder, Share, move_share
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.titles.g1841.game import Game1841

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "18xx.games" / "1841"
NAMES = ["1841_game_end_bank", "1841_game_end_bankrupt", "1841_game_end_offboards"]


class Held(OperatingRound):
    """An operating round that never starts (the operating round is another module's)."""

    def setup(self) -> None:
        pass

    def finished(self) -> bool:
        return False


def stock_rounds(lines: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """(index of the line the round starts after, index of its last action's line) of every
    stock round after the first, as indexes into ``lines`` (trace steps only)."""
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line["round"] == "Round::Stock" and line["turn"] >= 2:
            j = i + 1
            while j < len(lines) and lines[j]["round"] == "Round::Stock":
                j += 1
            if j < len(lines):
                out.append((i, j))
            i = j
        i += 1
    return out


OPERATING = ("lay_tile", "run_routes", "dividend", "buy_train", "buy_token")
"""Actions only an operating corporation takes."""


def operated_before(
    lines: list[dict[str, Any]], start: int, actions: dict[int, dict[str, Any]]
) -> set[str]:
    """Corporations started when the last operating round before ``start`` began (they
    operated in it; the line of the action that began it holds the state then), and those
    formed during it that took an operating action in it; not those a merger or
    transformation in it (re)started afterwards (rules/1841.md 2.3.9)."""
    k = start - 1
    last = lines[k]["round_num"]
    while (
        k > 0 and lines[k - 1]["round"] == "Round::Operating" and lines[k - 1]["round_num"] == last
    ):
        k -= 1
    out = {c["id"] for c in lines[k]["corporations"] if c["ipoed"]}
    for line in lines[k + 1 : start]:
        action = actions[line["action_id"]]
        if action.get("entity_type") != "corporation":
            continue
        if action["type"] in OPERATING:
            out.add(str(action["entity"]))
        elif action["type"] == "merge":
            out -= {str(action["entity"]), str(action["corporation"])}
    return out


def certificate_sources(
    actions: list[dict[str, Any]], lines: list[dict[str, Any]], start: dict[str, Any]
) -> dict[str, Any]:
    """Where each certificate the round's actions name starts: a seller, the pool or the
    IPO (a purchase that lowers the pool's percentage came from the pool)."""
    where: dict[str, Any] = {}
    before = start
    for action, line in zip(actions, lines, strict=True):
        for act in [action, *(action.get("auto_actions") or [])]:
            for sid in act.get("shares") or []:
                if sid in where:
                    continue
                corp = sid.rpartition("_")[0]
                if act["type"] == "sell_shares":
                    where[sid] = act["entity"]
                elif act["type"] == "buy_shares":
                    pool_before = _pool(before, corp)
                    pool_after = _pool(line, corp)
                    where[sid] = "pool" if pool_after < pool_before else "ipo"
        before = line
    return where


def _pool(line: dict[str, Any], corp: str) -> int:
    found = next((c for c in line["corporations"] if c["id"] == corp), None)
    return int(found["pool_percent"]) if found else 0


def inject(game: Game1841, state: dict[str, Any], where: dict[str, Any]) -> None:
    """Set ``game`` to the trace state ``state`` (see the module docstring)."""
    players = {p.id: p for p in game.all_players}
    game.players = [players[p["id"]] for p in state["players"]]
    game.bank.cash = state["bank"]
    phase = state["phase"]
    while game.phases.current.name != phase:
        game.phases.advance()
    game.turn = state["turn"]
    for company in game.companies:
        company.owner = None
        company.closed = int(phase) >= 4
    for entry in state["players"]:
        player = players[entry["id"]]
        player.cash = entry["cash"]
        player.companies = []
        for sym in entry["companies"]:
            company = game.company(sym)
            company.owner = player
            company.closed = False
            player.companies.append(company)
    by_id = {c["id"]: c for c in state["corporations"]}

    def holder_of(ref: Any) -> Holder:
        if ref == "pool" or ref == "SharePool":
            return game.pool
        if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit()):
            return players[int(ref)]
        return game.corporation(str(ref))

    for corp in game.corporations:
        entry = by_id.get(corp.sym)
        if entry is None:
            corp.closed = int(phase) >= 4 and game.specs[corp.sym].historical
            continue
        corp.cash = entry["cash"]
        corp.ipoed = entry["ipoed"]
        corp.floated = entry["floated"]
        if corp.ipoed and entry["price_cell"] is None:  # closed (18xx.games hides its price)
            corp.closed, corp.floated = True, False
        if entry["price_cell"] is not None:
            row, column = entry["price_cell"]
            cell = game.market.cell((row, column))
            assert cell is not None
            cell.corporations.append(corp.sym)
            corp.share_price = cell
            corp.par_price = cell
        corp.owner = holder_of(entry["president"]) if entry["president"] is not None else None
    for corp in game.corporations:
        if by_id.get(corp.sym) is None:
            continue
        want: dict[int, int] = {}
        for entry in state["players"]:
            if entry["shares"].get(corp.sym):
                want[id(players[entry["id"]])] = entry["shares"][corp.sym]
        holders: dict[int, Holder] = {id(p): p for p in game.all_players}
        for other in game.corporations:
            holders[id(other)] = other
            pct = by_id.get(other.sym, {}).get("shares", {}).get(corp.sym)
            if pct and other is not corp:
                want[id(other)] = pct
        holders[id(game.pool)] = game.pool
        pool_pct = by_id[corp.sym]["pool_percent"]
        if pool_pct:
            want[id(game.pool)] = pool_pct
        placed: dict[int, int] = {}

        def put(share: Share, holder: Holder, placed: dict[int, int] = placed) -> None:
            move_share(share, holder)
            placed[id(holder)] = placed.get(id(holder), 0) + share.percent

        pres = corp.presidents_share
        if pres is not None and corp.owner is not None and corp.ipoed:
            put(pres, corp.owner)
        for share in list(corp.certificates):
            ref = where.get(share.id)
            if ref is None or share.owner is not corp:
                continue
            if ref == "ipo":
                continue
            put(share, holder_of(ref))
        for key, pct in want.items():
            while placed.get(key, 0) < pct:
                free = [s for s in corp.treasury_shares() if not s.president and s.id not in where]
                if not free:
                    free = [s for s in corp.treasury_shares() if not s.president]
                put(free[0], holders[key])


def sr_lines(path: Path) -> list[dict[str, Any]]:
    with path.with_suffix(".trace.jsonl").open() as fh:
        return [json.loads(line) for line in fh][2:-1]


def compare(game: Game1841, line: dict[str, Any], check_active: bool) -> list[str]:
    """Differences of the fields stock rounds change."""
    out: list[str] = []
    ours_players = {p.id: p for p in game.all_players}
    for entry in line["players"]:
        player = ours_players[entry["id"]]
        shares = {k: sum(s.percent for s in v) for k, v in player.shares.items() if v}
        if player.cash != entry["cash"]:
            out.append(f"player {player.id} cash {player.cash} != {entry['cash']}")
        if shares != entry["shares"]:
            out.append(f"player {player.id} shares {shares} != {entry['shares']}")
        companies = sorted(c.sym for c in player.companies)
        if companies != sorted(entry["companies"]):
            out.append(f"player {player.id} companies {companies} != {entry['companies']}")
    for entry in line["corporations"]:
        corp: Corporation = game.corporation(entry["id"])
        cell = corp.share_price
        owner = corp.owner
        president = getattr(owner, "id", None) or getattr(owner, "sym", None)
        if owner is game.pool:
            president = "SharePool"
        shares = {k: sum(s.percent for s in v) for k, v in corp.shares.items() if v}
        ours = {
            "cash": corp.cash,
            "price_cell": [cell.row, cell.column] if cell else None,
            "president": president,
            "pool_percent": game.pool.percent_of(corp.sym),
            "shares": shares,
            "tokens": game.token_hexes(corp),
            "ipoed": corp.ipoed,
        }
        for key, value in ours.items():
            if value != entry[key]:
                out.append(f"{corp.sym} {key} {value} != {entry[key]}")
    if check_active:
        active = [
            getattr(e, "id", None) if hasattr(e, "companies") and not hasattr(e, "sym") else e.sym
            for e in game.round.active_entities()
        ]
        if active != line["active"]:
            out.append(f"active {active} != {line['active']}")
    return out


def play_stock_round(path: Path, begin: int, end: int) -> list[str]:
    """Play the stock round whose actions are trace lines ``begin + 1 .. end``; the
    differences after each action (empty: the round matches)."""
    data = read_game_file(path)
    game_file = load_game_file(data)
    lines = sr_lines(path)
    actions = {a["id"]: a for a in game_file.live}
    start_id = lines[begin]["action_id"]
    board = None
    for action, position in positions(path):
        if action["id"] > start_id:
            board = position.port
            break
    assert board is not None
    game = Game1841(
        [(p["id"], p["name"]) for p in data["players"]], list(game_file.optional_rules), 1
    )
    game.map = board
    game.new_operating_round = lambda num: Held(game, [], num)  # type: ignore[method-assign]
    round_actions = [actions[line["action_id"]] for line in lines[begin + 1 : end + 1]]
    where = certificate_sources(round_actions, lines[begin + 1 : end + 1], lines[begin])
    inject(game, lines[begin], where)
    game.operated_corps = operated_before(lines, begin, actions)
    game.round = game.new_stock_round()
    game.round.setup()
    problems = compare(game, lines[begin], True)
    if problems:
        return [f"start after {start_id}: {p}" for p in problems]
    for action, line in zip(round_actions, lines[begin + 1 : end + 1], strict=True):
        try:
            game.process_action(action)
        except Exception as error:  # reported as a difference
            return [f"{action['id']} {action['type']}: {type(error).__name__}: {error}"]
        problems = compare(game, line, line["round"] == "Round::Stock")
        if problems:
            return [f"{action['id']} {action['type']}: {p}" for p in problems]
    return []


def cases() -> list[Any]:
    out = []
    for name in NAMES:
        path = FIXTURES / f"{name}.json"
        if not path.exists():
            continue
        for begin, end in stock_rounds(sr_lines(path)):
            out.append(pytest.param(path, begin, end, id=f"{name}-{begin}"))
    return out


@pytest.mark.skipif(not FIXTURES.is_dir(), reason="no 1841 fixtures")
@pytest.mark.parametrize(("path", "begin", "end"), cases())
def test_stock_round_matches_the_trace(path: Path, begin: int, end: int) -> None:
    """rules/1841.md 2.2: every later stock round of the fixtures, played from its recorded
    start, gives the recorded state after every action and after the round's end."""
    problems = play_stock_round(path, begin, end)
    assert not problems, problems
