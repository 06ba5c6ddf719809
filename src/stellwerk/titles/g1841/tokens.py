"""1841 station tokens in the operating round (rules/1841.md 2.3.4, 2.5).

* Tokens were bought at the corporation's start (its charter holds ``num_tokens``); placing
  one costs nothing.  One per turn, in a city reached on the region graph (never across a
  political border in force), at most one token of a corporation per tile.  A pass may be
  tokened, but a token there is no base.
* Second edition, not lite: nobody but SFMA tokens Firenze until SFMA has floated or phase 4
  (``Settings1841`` names the reserved hex; rules/1841.md 2.3.4, 4.1).
* Token acquisition (2.5): once per turn, after dividends, a corporation with an unplaced token
  may buy another corporation's token in a city it reaches on the region graph, if that one
  has a player at the end of its chain and keeps a placed token that is not on a pass (unless
  the bought one is on a pass), and the buyer has no token on that tile; any price from L.1 to
  its cash, paid to the seller, whose token returns to its charter.
"""

from __future__ import annotations

from typing import Protocol

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Holder, Player, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.policy import Policy
from stellwerk.titles.g1841.ports import Board, Charters


class TokenGame(Charters, Board, Protocol):
    """The table with the rules and the board, the checks that run and who controls whom:
    what this module uses of the game (rules/1841.md 2.3.4, 2.5)."""

    @property
    def policy(self) -> Policy: ...

    def controller(self, entity: Holder | None) -> Player | None: ...


RULE = "rules/1841.md 2.3.4"
RULE_BUY = "rules/1841.md 2.5"


def reserve_homes(game: TokenGame) -> None:
    """Every corporation with a printed home city has its slot there reserved from the start
    (18xx.games reserves the cities of every corporation's coordinates): nobody else tokens
    it (rules/1841.md 1.2 "Historical corporations").  A home whose city is chosen (SFMA of
    the second edition) is not reserved: Firenze is blocked by :func:`firenze_blocked`."""
    board = game.map.board
    for spec in game.data.corporations:
        for hid, city in spec.homes:
            if city >= 0 and hid in board.hexes:
                board.reserve(hid, city, spec.sym)


def firenze_blocked(game: TokenGame, corp: Corporation, hex_id: str) -> bool:
    """Whether ``hex_id`` is reserved for another corporation: Firenze for SFMA in the second
    edition, not lite, until SFMA has floated or phase 4 (rules/1841.md 2.3.4)."""
    if not game.settings.firenze_reserved_for_sfma:
        return False
    owner = str(game.data.raw["home_reserved_until_floated"])
    if corp.sym == owner or owner not in game.specs:
        return False
    if hex_id not in (h for h, _ in game.specs[owner].homes):
        return False
    holder = game.corporation_or_none(owner)
    if holder is not None and holder.floated:
        return False
    return int(game.phases.current.name) < 4


def choices(game: TokenGame, corp: Corporation) -> list[tuple[str, int]]:
    """(city id, slot) of every city where the corporation may place its token now: the
    port's token spots (``MapPort.token_spots``) less a city held for SFMA."""
    port = game.map
    if port.unplaced_tokens(corp) <= 0:
        return []
    board = port.board
    out = []
    for hid, index in port.token_spots(corp):
        if firenze_blocked(game, corp, hid):
            continue
        slot = board.hexes[hid].cities[index].get_slot(corp.sym)
        out.append((board.city_id(hid, index), slot or 0))
    return out


def place(game: TokenGame, corp: Corporation, action: moves.PlaceToken) -> None:
    """Place the token ``action`` names by the port (``MapPort.place_token``), unless its
    city is held for SFMA (rules/1841.md 2.3.4)."""
    hex_id, _ = game.map.board.resolve_city(action.city)
    if firenze_blocked(game, corp, hex_id):
        raise IllegalAction(f"{hex_id} is reserved for SFMA", RULE)
    game.map.place_token(corp, action)


# -- token acquisition (rules/1841.md 2.5) -----------------------------------------------------


def _reached_cities(game: TokenGame, corp: Corporation) -> list[tuple[str, int]]:
    board = game.map.board
    out = []
    for hid, node in sorted(game.map.region_graph.network(corp.sym).nodes):
        index = board.hexes[hid].city_index(node)
        if index is not None:
            out.append((hid, index))
    return out


def may_sell(game: TokenGame, seller: Corporation) -> bool:
    """The seller keeps more than one placed token (18xx.games ``can_sell_token?``)."""
    return len(game.map.token_hexes(seller.sym)) > 1


def any_buyable(game: TokenGame, corp: Corporation) -> bool:
    """Another corporation's token with more than one placed in a city the buyer reaches on
    the region graph (what decides the automatic pass, 18xx.games)."""
    board = game.map.board
    for hid, index in _reached_cities(game, corp):
        for holder in board.hexes[hid].cities[index].tokens:
            if holder is None or holder == corp.sym:
                continue
            seller = game.corporation_or_none(holder)
            if seller is not None and may_sell(game, seller):
                return True
    return False


def can_replace(game: TokenGame, buyer: Corporation, hex_id: str, index: int, slot: int) -> bool:
    """Whether ``buyer`` may buy the token in ``slot`` of that city (rules/1841.md 2.5)."""
    board = game.map.board
    city = board.hexes[hex_id].cities[index]
    holder = city.tokens[slot] if slot < len(city.tokens) else None
    if holder is None or holder == buyer.sym:
        return False
    seller = game.corporation_or_none(holder)
    if seller is None or not isinstance(game.controller(seller), Player):
        return False
    if board.hexes[hex_id].has_token(buyer.sym):
        return False
    on_pass = game.map.is_pass(hex_id)
    kept = [h for h in game.map.token_hexes(seller.sym) if not game.map.is_pass(h)]
    if not on_pass and len(kept) <= 1:
        return False
    return (hex_id, index) in _reached_cities(game, buyer)


def buy_choices(game: TokenGame, corp: Corporation) -> list[tuple[str, int]]:
    """(city id, slot) of every token the corporation may buy now."""
    if game.map.unplaced_tokens(corp) <= 0:
        return []
    board = game.map.board
    out = []
    for hid, index in _reached_cities(game, corp):
        for slot, _ in enumerate(board.hexes[hid].cities[index].tokens):
            if can_replace(game, corp, hid, index, slot):
                out.append((board.city_id(hid, index), slot))
    return out


def buy(game: TokenGame, corp: Corporation, action: moves.BuyToken) -> None:
    """Replace the seller's token by one of the buyer's for the price, paid to the seller
    (rules/1841.md 2.5)."""
    board = game.map.board
    hex_id, index = board.resolve_city(action.city)
    slot = action.slot
    price = action.price
    city = board.hexes[hex_id].cities[index]
    holder = city.tokens[slot] if 0 <= slot < len(city.tokens) else None
    if holder is None:
        raise IllegalAction("no token there", RULE_BUY)
    if game.map.unplaced_tokens(corp) <= 0:
        raise IllegalAction(f"{corp.sym} has no token to place", RULE_BUY)
    if game.policy.token_reach and not can_replace(game, corp, hex_id, index, slot):
        raise IllegalAction("this token cannot be bought", RULE_BUY)
    if not 1 <= price <= corp.cash:
        raise IllegalAction(f"price must be between 1 and {corp.cash}", RULE_BUY)
    seller = game.corporation(holder)
    board.replace_token(action.city, slot, corp.sym)
    transfer(corp, seller, price, RULE_BUY)
    game.map.region_graph.clear()
    game.map.graph.clear_for(seller.sym)
