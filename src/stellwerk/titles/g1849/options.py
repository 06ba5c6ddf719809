"""1849's named options (variants of 18xx.games and seed 001 deviations).

Each option is declared once with its source and applied once when a game is built, by
setting the game's hook values.  Rule code reads the hooks, never the option names
(1849 rules §7 and §10).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from stellwerk.core.options import check_setup


@dataclass(frozen=True)
class Option:
    id: str
    label: str
    source: str
    apply: Callable[[Any], None]
    players: tuple[int, ...] = (3, 4, 5)
    requires: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()


def _delay_ift(game: Any) -> None:
    game.hooks.delay_ift = True


def _reduced(game: Any) -> None:
    game.hooks.reduced_corporations = True


def _tokens(game: Any) -> None:
    game.hooks.token_buying = True


def _bonds(game: Any) -> None:
    game.hooks.bonds = True


def _electric(game: Any) -> None:
    game.hooks.electric = True


def _bank_8040(game: Any) -> None:
    game.hooks.bank_cash = 8040


def _half_double(game: Any) -> None:
    game.hooks.private_min_price = "half"


def _gauge_cities(game: Any) -> None:
    game.hooks.gauge_change_cities_only = True


def _one_e(game: Any) -> None:
    game.hooks.one_e_train_per_corporation = True


def _end_current_or(game: Any) -> None:
    game.hooks.end_after_current_or = True


def _bond_floor(game: Any) -> None:
    game.hooks.bond_penalty_floor_zero = True


OPTIONS: dict[str, Option] = {
    o.id: o
    for o in [
        Option(
            "delay_ift",
            "IFT not among the first three corporations",
            "18xx.games; 1849 rules §7.1",
            _delay_ift,
        ),
        Option(
            "reduced_4p_corps",
            "Five corporations at four players (no effect at 3 or 5, as in 18xx.games)",
            "18xx.games; seed 001 item 5; 1849 rules §7.2",
            _reduced,
        ),
        Option(
            "acquiring_station_tokens",
            "Corporations may buy station tokens",
            "18xx.games; seed 001 item 37; 1849 rules §7.3",
            _tokens,
        ),
        Option(
            "bonds",
            "One L.500 bond per corporation",
            "18xx.games; seed 001 items 64-66; 1849 rules §7.4",
            _bonds,
        ),
        Option(
            "electric_dreams",
            "E-trains and E-tokens",
            "18xx.games; seed 001 items 52-57; 1849 rules §7.5",
            _electric,
            requires=("bonds", "acquiring_station_tokens"),
        ),
        Option("bank_8040", "Bank of L.8040", "seed 001 item 7", _bank_8040),
        Option(
            "private_price_half_to_double",
            "Corporations pay half to double face value for privates",
            "seed 001 items 10, 33",
            _half_double,
        ),
        Option(
            "gauge_change_cities_only",
            "Gauge may change only in cities",
            "seed 001 item 41",
            _gauge_cities,
        ),
        Option(
            "one_e_train_per_corporation",
            "At most one E-train per corporation",
            "seed 001 item 52",
            _one_e,
            requires=("electric_dreams",),
        ),
        Option(
            "end_after_current_or",
            "Game ends after the current OR (bank broken or 377)",
            "seed 001 items 67-68",
            _end_current_or,
        ),
        Option(
            "bond_penalty_floor_zero",
            "Bond penalty never takes a share below 0",
            "seed 001 item 70",
            _bond_floor,
            requires=("bonds",),
        ),
    ]
}


@dataclass
class Hooks:
    """The switches options set.  Defaults are 18xx.games' behaviour."""

    delay_ift: bool = False
    reduced_corporations: bool = False
    token_buying: bool = False
    bonds: bool = False
    electric: bool = False
    bank_cash: int | None = None
    private_min_price: str = "one"
    gauge_change_cities_only: bool = False
    one_e_train_per_corporation: bool = False
    end_after_current_or: bool = False
    bond_penalty_floor_zero: bool = False


@cache
def player_counts() -> tuple[int, ...]:
    """The player counts 1849 allows: ``[players]`` of data/game.toml (1849 rules §1.1)."""
    from stellwerk.titles.g1849.data_load import game_data

    players = game_data()["players"]
    return tuple(range(int(players["min"]), int(players["max"]) + 1))


def check_options(options: list[str], players: int) -> None:
    """Refuse a player count 1849 does not allow (1849 rules §1.1), then unknown options,
    options for other player counts and missing prerequisites (1849 rules §7)."""
    check_setup(
        "1849", players, player_counts(), "1849 rules §1.1", options, OPTIONS, "1849 rules §7"
    )
