"""Countries: the parts of the map the political borders in force separate (rules/1841.md
1.2 "Borders by phase"), for seed 000 item 4.3: a corporation may not buy shares of a
corporation that has tokens on the other side of an existing border.

We read the item as: all placed tokens of buyer and target must lie in one country (so, in
the seed's example, IRSFF with tokens in Lombardy and Veneto may never buy, nor be bought, while
the Austrian border stands).  A country is a set of hexes joined across hex edges that carry
no border in force (impassable map borders count too, as the board's neighbours know them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stellwerk.core.entities import Corporation

if TYPE_CHECKING:
    from stellwerk.titles.g1841.ports import Board


def country_of(game: Board, hex_id: str) -> frozenset[str]:
    """The hexes reachable from ``hex_id`` without crossing a political border in force."""
    board = game.map.board
    borders = game.map.political_borders()
    seen = {hex_id}
    todo = [hex_id]
    while todo:
        hid = todo.pop()
        for edge in range(6):
            if (hid, edge) in borders:
                continue
            other = board.neighbor(hid, edge)
            if other is not None and other not in seen:
                seen.add(other)
                todo.append(other)
    return frozenset(seen)


def across_border(game: Board, buyer: Corporation, target: Corporation) -> bool:
    """Whether the tokens of ``buyer`` and ``target`` are not all in one country (seed 000
    item 4.3)."""
    board = game.map.board
    hexes = sorted(set(board.token_hexes(buyer.sym)) | set(board.token_hexes(target.sym)))
    if not hexes:
        return False
    country = country_of(game, hexes[0])
    return any(h not in country for h in hexes[1:])
