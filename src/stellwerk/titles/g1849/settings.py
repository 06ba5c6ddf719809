"""1849's rule settings: the hooks and data the game is built with (1849 rules §7, §10).

The defaults are 18xx.games' rules without variants; the title's options (``options.py``)
change fields through the one core function :func:`stellwerk.core.options.apply_options`.
Rule code reads these fields, never an option.  Hook values are module-level functions, so
that engine checkpoints pickle them by reference.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from stellwerk.core.entities import Company, Corporation
from stellwerk.core.routes.model import RouteWalk, RunContext, TrainSpec
from stellwerk.titles.g1849.rules.routes import check_route

BOND_PENALTY = 100
"""Score lost per share of a corporation with its bond out (1849 rules §8)."""


def private_from_one(company: Company) -> int:
    """Corporations buy privates from players for L.1 to double face value (18xx.games)."""
    return 1


def private_from_half(company: Company) -> int:
    """Half face value, rounded up, to double (seed 001 items 10, 33)."""
    return company.value // 2 + company.value % 2


def full_bond_penalty(corp: Corporation) -> int:
    """L.100 per share, even below the share price (1849 rules §8, 18xx.games)."""
    return BOND_PENALTY


def bond_penalty_floored(corp: Corporation) -> int:
    """L.100 per share, but a share is never worth less than 0 (seed 001 item 70)."""
    if corp.share_price is None:
        return BOND_PENALTY
    return min(BOND_PENALTY, corp.share_price.price)


@dataclass(frozen=True, slots=True)
class Settings1849:
    """What 1849's variants and seed 001's deviations change.

    ``ift_out_of_first_three``: IFT may not be among the first three corporations of the
    random order (1849 rules §1.3, §7.1).
    ``five_corporations_at_four_players``: four players play with five corporations: one
    removed, cert limit 9, fewer 6H/8H/16H (§1.1, §7.2).
    ``station_token_buying``: corporations may buy placed station tokens of others from the
    first 6H (§7.3).
    ``corporation_bonds``: each corporation has one L.500 bond from the first 8H (§7.4).
    ``e_tokens``: E-tokens are sold from the first 12H (§7.5).
    ``extra_trains``: the trains ``data/game.toml`` marks ``extra`` that are in play (§7.5:
    the E-trains).
    ``bank_cash``: the bank, if not the L.7760 of the data (§1.1; seed 001 item 7).
    ``private_min_price``: the least a corporation pays a player for a private (§1.4; seed
    001 items 10, 33).
    ``route_check``: the route restrictions hook (§4.3; seed 001 item 41).
    ``e_trains_per_corporation``: at most this many E-trains per corporation, ``None`` no limit
    (§7.5; seed 001 item 52).
    ``game_ends_after_current_or``: a broken bank or price 377 ends the game after the current
    OR instead of after the OR set / the corporation's turn (§8; seed 001 items 67-68).
    ``bond_penalty``: score lost per share of a corporation with its bond out (§8; seed 001
    item 70)."""

    ift_out_of_first_three: bool = False
    five_corporations_at_four_players: bool = False
    station_token_buying: bool = False
    corporation_bonds: bool = False
    e_tokens: bool = False
    extra_trains: tuple[str, ...] = ()
    bank_cash: int | None = None
    private_min_price: Callable[[Company], int] = private_from_one
    route_check: Callable[[RunContext, RouteWalk, TrainSpec], None] = check_route
    e_trains_per_corporation: int | None = None
    game_ends_after_current_or: bool = False
    bond_penalty: Callable[[Corporation], int] = full_bond_penalty
