"""1835's rule settings: the hooks and data the game is built with (rules/1835.md 11).

The defaults are the printed rules as Rails plays them with its default GameOptions; the
title's options (``options.py``) change fields through the one core function
:func:`stellwerk.core.options.apply_options`.  Rule code reads these fields, never an option.
A ``None`` datum means "as printed in data/game.toml".  Hook values are module-level
functions, so that engine checkpoints pickle them by reference.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from stellwerk.titles.g1835.game import Game1835


def minors_always_operate(game: Game1835) -> bool:
    """Minors operate from their first OR on (rules/1835.md 7)."""
    return True


def minors_after_by_floated(game: Game1835) -> bool:
    """No minor operates before BY has floated; ORs before that are Rails' "short ORs"
    (rules/1835.md 3.3 Clemens, 11 MinorsRequireFloatedBY)."""
    return game.corporation("BY").floated


def sales_unless_packet_sold_in_one_go(game: Game1835) -> bool:
    """Sales in stock round 1 only if ORs came before it: no sales if the start packet sold
    in one go (rules/1835.md 5.3, 11 FirstRoundSellRestriction=First Round, Rails' default)."""
    return not game.packet_sold_in_one_go


def no_sales(game: Game1835) -> bool:
    """No sales throughout stock round 1 (rules/1835.md 5.3, 11 First Stock Round)."""
    return False


@dataclass(frozen=True, slots=True)
class Settings1835:
    """What 1835's variants and Rails' GameOptions change.

    ``start_order``: the entry of ``[start_orders]`` in data/game.toml for start round 1
    (player cycles, which items are available), if not the printed ``start_order``
    (rules/1835.md 3.2, 3.3).
    ``sales_in_first_stock_round``: whether players may sell in stock round 1 (5.3, 11).
    ``by_float_percent``: the percentage of BY players must hold for it to float (3.1, 11).
    ``ld_revenue``: the LD private's revenue (6, 11).
    ``minors_may_operate``: whether minors operate now (2, 7, 11).
    ``sold_out_ignores_reserved_pr``: PR's unexchanged reserved shares do not prevent the
    sold-out rise (5.1, 11).
    ``free_token_steps``: the steps in which NF's and PfB's free tokens may be placed (6, 11).
    ``repeated_sale_at_first_price``: later sales of one company in a turn are at the price
    before the first (5.3, 8.8, 11).
    ``tile_supply``: ``limited`` (printed counts), ``all`` or ``yellow_plain`` unlimited
    (Rails' UnlimitedTiles test aid, 11)."""

    start_order: str | None = None
    sales_in_first_stock_round: Callable[[Game1835], bool] = sales_unless_packet_sold_in_one_go
    by_float_percent: int | None = None
    ld_revenue: int | None = None
    minors_may_operate: Callable[[Game1835], bool] = minors_always_operate
    sold_out_ignores_reserved_pr: bool = False
    free_token_steps: tuple[str, ...] | None = None
    repeated_sale_at_first_price: bool = True
    tile_supply: str = "limited"
