"""1841's stock round (rules/1841.md 2.2): who may start which corporation at which prices,
the extra IPO purchases after a major's start, the home tokens of historical corporations,
the start token purchase and the end of the round."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stellwerk.core.entities import Corporation, Player
from stellwerk.core.flow.base import Round
from stellwerk.core.flow.rounds import StockRound
from stellwerk.core.flow.stock import BuySellParShares
from stellwerk.core.market import Cell

if TYPE_CHECKING:
    from stellwerk.titles.g1841.game import Game1841


def new_stock_round(game: Game1841) -> Round:
    """The stock round's steps (rules/1841.md 2.2, 18xx.games order)."""
    return StockRound(game, [BuySellParShares])


def concession_owner(game: Game1841, corp: Corporation) -> Player | None:
    """The player holding the concession that entitles him to start ``corp`` (1.2)."""
    spec = game.specs[corp.sym]
    if spec.concession is None:
        return None
    company = next(c for c in game.data.companies if c.number == spec.concession)
    owner = game.company(company.sym).owner
    return owner if isinstance(owner, Player) else None


def can_par(game: Game1841, corp: Corporation) -> bool:
    """Historical corporations start only with their concession before phase 4 (2.2.1)."""
    if corp.ipoed:
        return False
    spec = game.specs[corp.sym]
    return spec.startable and spec.historical and concession_owner(game, corp) is not None


def par_cells(game: Game1841) -> list[Cell]:
    """Par prices: 68, 100, 144 for all, 216 and 340 for majors only (1.2 "Stock market")."""
    return game.market.cells_with_type({"p", "x"})


def after_par(game: Game1841, corp: Corporation) -> None:
    """A started historical corporation places its home tokens on its printed homes
    (2.2.3)."""
    spec = game.specs[corp.sym]
    if spec.historical:
        for hid, city in spec.homes:
            game.map.board.place_token_at(hid, max(city, 0), corp.sym)
