"""1849's options: the variants of 18xx.games (1849 rules §7) and seed 001's deviations
(1849 rules §10), each declared once with its effects on :class:`Settings1849`.

This is the only 1849 module that names an option; the game is built with
``DECLARED.settings(options, players)`` (core :func:`~stellwerk.core.options.apply_options`).
"""

from __future__ import annotations

from functools import cache

from stellwerk.core.options import Data, Declared, Hook, Option, declare
from stellwerk.titles.g1849.rules.routes import check_route_cities_only
from stellwerk.titles.g1849.settings import Settings1849, bond_penalty_floored, private_from_half

OPTIONS: dict[str, Option] = declare(
    Option(
        "delay_ift",
        "IFT not among the first three corporations",
        "18xx.games; 1849 rules §1.3, §7.1",
        (Data("ift_out_of_first_three", True),),
    ),
    Option(
        "reduced_4p_corps",
        "Five corporations at four players (no effect at 3 or 5, as in 18xx.games)",
        "18xx.games; seed 001 item 5; 1849 rules §1.1, §7.2",
        (Data("five_corporations_at_four_players", True),),
    ),
    Option(
        "acquiring_station_tokens",
        "Corporations may buy station tokens",
        "18xx.games; seed 001 item 37; 1849 rules §7.3",
        (Data("station_token_buying", True),),
    ),
    Option(
        "bonds",
        "One L.500 bond per corporation",
        "18xx.games; seed 001 items 64-66; 1849 rules §7.4",
        (Data("corporation_bonds", True),),
    ),
    Option(
        "electric_dreams",
        "E-trains and E-tokens",
        "18xx.games; seed 001 items 52-57; 1849 rules §7.5",
        (Data("e_tokens", True), Data("extra_trains", ("E",))),
        requires=("bonds", "acquiring_station_tokens"),
    ),
    Option(
        "bank_8040",
        "Bank of L.8040",
        "seed 001 item 7; 1849 rules §1.1",
        (Data("bank_cash", 8040),),
    ),
    Option(
        "private_price_half_to_double",
        "Corporations pay half to double face value for privates",
        "seed 001 items 10, 33; 1849 rules §1.4",
        (Hook("private_min_price", private_from_half),),
    ),
    Option(
        "gauge_change_cities_only",
        "Gauge may change only in cities",
        "seed 001 item 41; 1849 rules §4.3",
        (Hook("route_check", check_route_cities_only),),
    ),
    Option(
        "one_e_train_per_corporation",
        "At most one E-train per corporation",
        "seed 001 item 52; 1849 rules §7.5",
        (Data("e_trains_per_corporation", 1),),
        requires=("electric_dreams",),
    ),
    Option(
        "end_after_current_or",
        "Game ends after the current OR (bank broken or 377)",
        "seed 001 items 67-68; 1849 rules §8",
        (Data("game_ends_after_current_or", True),),
    ),
    Option(
        "bond_penalty_floor_zero",
        "Bond penalty never takes a share below 0",
        "seed 001 item 70; 1849 rules §8",
        (Hook("bond_penalty", bond_penalty_floored),),
        requires=("bonds",),
    ),
)


@cache
def player_counts() -> tuple[int, ...]:
    """The player counts 1849 allows: ``[players]`` of data/game.toml (1849 rules §1.1)."""
    from stellwerk.core.schema import player_counts as counts_of
    from stellwerk.titles.g1849.data_load import game_data

    return counts_of(game_data())


DECLARED: Declared[Settings1849] = Declared(
    "1849", OPTIONS, Settings1849(), player_counts, "1849 rules §1.1", "1849 rules §7"
)
"""1849's options, player counts and the settings of the printed rules."""
