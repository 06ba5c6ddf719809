"""1835's options: the start variants and Rails' GameOptions (rules/1835.md 11), each declared
once with its effects on :class:`Settings1835`.

This is the only 1835 module that names an option; the game is built with
``DECLARED.settings(options, players)`` (core :func:`~stellwerk.core.options.apply_options`).
A Rails report does not name its options (rails-report-format.md 3.3); each option's
``aliases`` give its Rails save-file name and value, collected in :data:`RAILS_NAMES`.
"""

from __future__ import annotations

from functools import cache

from stellwerk.core.options import Data, Declared, Hook, Option, declare
from stellwerk.titles.g1835.settings import Settings1835, minors_after_by_floated, no_sales

_VARIANTS = ("standard", "snake", "clemens")


def _variant(oid: str, label: str, rails_value: str, implies: tuple[str, ...] = ()) -> Option:
    """A start variant: start round 1's player order and available items (3.2, 3.3)."""
    return Option(
        oid,
        label,
        "rules/1835.md 3.2, 3.3, 11; Rails GameOptions Variant",
        (Data("start_order", oid),),
        conflicts=tuple(v for v in _VARIANTS if v != oid),
        implies=implies,
        aliases=(f"Rails:Variant={rails_value}",),
    )


OPTIONS: dict[str, Option] = declare(
    _variant("standard", "Standard start packet order (clockwise)", "Standard"),
    _variant("snake", "Snake order in the first start round (1-2-3-4-4-3-2-1-1-2-...)", "Snake"),
    _variant(
        "clemens",
        "Clemens variant: reversed first cycle, all items available, minors wait for BY",
        "Clemens",
        implies=("minors_require_floated_by",),
    ),
    Option(
        "sell_restriction_first_stock_round",
        "No selling throughout stock round 1",
        "rules/1835.md 5.3, 11",
        (Hook("sales_in_first_stock_round", no_sales),),
        note="default (Rails First Round): no sales in SR 1 if the packet sold in one go",
        aliases=("Rails:FirstRoundSellRestriction=First Stock Round",),
    ),
    Option(
        "by_floats_at_20",
        "BY floats at 20%",
        "rules/1835.md 3.1, 11",
        (Data("by_float_percent", 20),),
        aliases=("Rails:BYFloatsAt=20%",),
    ),
    Option(
        "ld_income_30",
        "Leipzig-Dresdner Bahn earns 30M",
        "rules/1835.md 6, 11",
        (Data("ld_revenue", 30),),
        aliases=("Rails:LDIncome=30",),
    ),
    Option(
        "minors_require_floated_by",
        "Minors do not operate before BY has floated",
        "rules/1835.md 2, 7, 11",
        (Hook("minors_may_operate", minors_after_by_floated),),
        note="implied by clemens; ORs before SR 1 with nothing to run are Rails 'short ORs'",
        aliases=("Rails:MinorsRequireFloatedBY=yes",),
    ),
    Option(
        "prussian_reserved_ignored",
        "PR sold-out rise ignores unexchanged reserved shares",
        "rules/1835.md 5.1, 11",
        (Data("sold_out_ignores_reserved_pr", True),),
        note="current Rails always behaves so (kept for old saves); set it to replay reports",
        aliases=("Rails:PrussianReservedIgnored=yes",),
    ),
    Option(
        "nf_pfb_token_only_in_token_step",
        "NF and PfB free tokens only in the token step (Westermann ruling)",
        "rules/1835.md 6, 11",
        (Data("free_token_steps", ("token",)),),
        aliases=("Rails:NF_PfB_Westermann=yes",),
    ),
    Option(
        "separate_sales_at_lower_price",
        "Each separate sale of one company in a turn at the then current price",
        "rules/1835.md 5.3, 8.8, 11",
        (Data("repeated_sale_at_first_price", False),),
        note="default (Rails yes): later sales at the price before the first sale",
        aliases=("Rails:SeparateSalesAtSamePrice=no",),
    ),
    Option(
        "unlimited_tiles",
        "Unlimited tile supply (test aid)",
        "rules/1835.md 11 (UI-only options); report 1835_SellDoubleShare",
        (Data("tile_supply", "all"),),
        conflicts=("unlimited_yellow_plain_tiles",),
        aliases=("Rails:UnlimitedTiles=Yes",),
    ),
    Option(
        "unlimited_yellow_plain_tiles",
        "Unlimited plain yellow track tiles (test aid)",
        "rules/1835.md 11 (UI-only options)",
        (Data("tile_supply", "yellow_plain"),),
        conflicts=("unlimited_tiles",),
        aliases=("Rails:UnlimitedTiles=Yellow Plain",),
    ),
)

RAILS_NAMES: dict[tuple[str, str], str] = {
    (name, value): option.id
    for option in OPTIONS.values()
    for alias in option.aliases
    if alias.startswith("Rails:")
    for name, _, value in [alias.removeprefix("Rails:").partition("=")]
}
"""Rails save-file option (name, value) -> our option id; default values map to nothing."""


@cache
def player_counts() -> tuple[int, ...]:
    """The player counts 1835 allows: ``[players]`` of data/game.toml (rules/1835.md 1)."""
    from stellwerk.core.schema import player_counts as counts_of
    from stellwerk.titles.g1835.data_load import game_data

    return counts_of(game_data())


DECLARED: Declared[Settings1835] = Declared(
    "1835", OPTIONS, Settings1835(), player_counts, "1835 rules §1", "1835 rules §11"
)
"""1835's options, player counts and the settings of the printed rules."""
