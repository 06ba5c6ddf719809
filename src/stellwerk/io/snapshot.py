"""The game state in the trace format of shared/fixtures/README.md."""

from __future__ import annotations

from typing import TypedDict

from stellwerk.core.entities import Corporation, EntityId, Holder, Player, PlayerId, SharePool
from stellwerk.core.game import Game

POOL_ID = "SharePool"
"""How the trace names the pool as a president (18xx.games' class name; fixtures README)."""


class PlayerState(TypedDict):
    """A player in a trace line."""

    id: PlayerId
    cash: int
    shares: dict[str, int]
    companies: list[str]


class CorporationState(TypedDict):
    """A corporation in a trace line (only ones that have been started or hold something)."""

    id: str
    cash: int
    floated: bool
    ipoed: bool
    price: int | None
    price_cell: list[int] | None
    president: EntityId | None
    """A player id, a corporation symbol, or ``SharePool``."""
    trains: list[str]
    tokens: list[str]
    companies: list[str]
    shares: dict[str, int]
    pool_percent: int


class _Tiles(TypedDict, total=False):
    tiles: dict[str, str]


class Snapshot(_Tiles):
    """One state line of a trace (shared/fixtures/README.md), without ``action_id`` and
    ``action_type``; ``tiles`` is left out on request."""

    round: str
    turn: int
    round_num: int
    phase: str
    active: list[EntityId | None]
    bank: int
    players: list[PlayerState]
    corporations: list[CorporationState]
    depot: dict[str, int]


def _id(entity: object) -> EntityId | None:
    """A player's id, the pool's trace name, else the entity's symbol or name."""
    if isinstance(entity, Player):
        return entity.id
    if isinstance(entity, SharePool):
        return POOL_ID
    for attribute in ("sym", "name"):
        value = getattr(entity, attribute, None)
        if isinstance(value, str) and value:
            return value
    return None


def _president(owner: object) -> EntityId | None:
    """The president as the trace format names it: a player id, a corporation symbol, or
    ``SharePool`` when the president's certificate lies in the pool (1841's frozen
    corporations; 18xx.games' traces name the pool by its class)."""
    if owner is None:
        return None
    if isinstance(owner, SharePool):
        return "SharePool"
    return _id(owner)


def _shares(holder: Holder) -> dict[str, int]:
    out: dict[str, int] = {}
    for corp, shares in holder.shares.items():
        pct = sum(s.percent for s in shares)
        if pct:
            out[corp] = pct
    return out


def _corporation(game: Game, corp: Corporation) -> CorporationState | None:
    if not corp.ipoed and not corp.cash and not corp.trains:
        return None
    cell = corp.share_price
    owner = corp.owner
    data: CorporationState = {
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


def snapshot(game: Game, with_tiles: bool = True) -> Snapshot:
    """One trace line (without ``action_id``/``action_type``)."""
    rnd = game.round
    out: Snapshot = {
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
