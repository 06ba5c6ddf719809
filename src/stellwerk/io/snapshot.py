"""The game state in the trace format of shared/fixtures/README.md."""

from __future__ import annotations

from typing import Any

from stellwerk.core.entities import Company, Corporation, Holder, Player, SharePool
from stellwerk.core.game import Game

POOL_ID = "SharePool"
"""How the trace names the pool as a president (18xx.games' class name; fixtures README)."""


def _id(entity: Holder) -> int | str:
    """How the trace names a holder: a player by id, the pool by ``POOL_ID``, a corporation
    or company by symbol, anyone else by name."""
    if isinstance(entity, Player):
        return entity.id
    if isinstance(entity, SharePool):
        return POOL_ID
    if isinstance(entity, Corporation | Company):
        return entity.sym or entity.name
    return entity.name


def _president(owner: Holder | None) -> int | str | None:
    """The president as the trace format names it: a player id, a corporation symbol, or
    ``SharePool`` when the president's certificate lies in the pool (1841's frozen
    corporations; 18xx.games' traces name the pool by its class)."""
    if owner is None:
        return None
    if isinstance(owner, SharePool):
        return "SharePool"
    return _id(owner)


def _shares(holder: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for corp, shares in holder.shares.items():
        pct = sum(s.percent for s in shares)
        if pct:
            out[corp] = pct
    return out


def _corporation(game: Game, corp: Corporation) -> dict[str, Any] | None:
    if not corp.ipoed and not corp.cash and not corp.trains:
        return None
    cell = corp.share_price
    owner = corp.owner
    data: dict[str, Any] = {
        "id": corp.sym,
        "cash": corp.cash,
        "floated": corp.floated,
        "ipoed": corp.ipoed,
        "price": cell.price if cell else None,
        "price_cell": [cell.row, cell.column] if cell else None,
        "president": _president(owner),
        "trains": [t.name for t in corp.trains],
        "tokens": game.token_hexes(corp),
        "companies": [c.sym for c in corp.companies],
        "shares": _shares(corp),
        "pool_percent": game.pool.percent_of(corp.sym),
    }
    return data


def round_name(game: Game) -> str:
    return game.round.name


def snapshot(game: Game, with_tiles: bool = True) -> dict[str, Any]:
    """One trace line (without ``action_id``/``action_type``)."""
    rnd = game.round
    out: dict[str, Any] = {
        "round": rnd.name,
        "turn": game.turn,
        "round_num": rnd.round_num,
        "phase": game.phases.name,
        "active": [_id(e) for e in rnd.active_entities()],
        "bank": game.bank.cash,
        "players": [
            {
                "id": p.id,
                "cash": p.cash,
                "shares": _shares(p),
                "companies": [c.sym for c in p.companies],
            }
            for p in game.all_players
        ],
        "corporations": [c for c in (_corporation(game, corp) for corp in game.corporations) if c],
        "depot": game.depot.counts(),
    }
    if with_tiles:
        out["tiles"] = game.trace_tiles()
    return out
