"""1835's options: the start variants and Rails' GameOptions (rules/1835.md section 11).

Each option is declared once, as data: id, label, source, the Rails option it corresponds to,
allowed player counts, conflicts and what it changes (hook replacements or data overrides,
named, not yet bound: the 1835 rules code is still to come).  :func:`settings` turns a list of
option ids into the values the rules will read, so rule code never asks "is option X on?".

A Rails report does not name its options (rails-report-format.md 3.3); :data:`RAILS_NAMES` maps
the option names and values of a Rails save file to our ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache

from stellwerk.core.options import check_setup

ALL_PLAYERS: tuple[int, ...] = (3, 4, 5, 6, 7)


@dataclass(frozen=True, slots=True)
class Change:
    """One effect of an option: ``kind`` "hook" (a rule replaced) or "data" (a value changed),
    ``target`` the hook or data key, ``value`` the replacement's name or the new value."""

    kind: str
    target: str
    value: str | int | bool


@dataclass(frozen=True, slots=True)
class Option:
    """A declared 1835 option (style guide §8)."""

    id: str
    label: str
    source: str
    rails: str
    changes: tuple[Change, ...]
    players: tuple[int, ...] = ALL_PLAYERS
    conflicts: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    note: str = ""


_VARIANTS = ("standard", "snake", "clemens")


def _variant(oid: str, label: str, rails_value: str, extra: tuple[Change, ...]) -> Option:
    return Option(
        id=oid,
        label=label,
        source="rules/1835.md 3.2, 3.3, 11; Rails GameOptions Variant",
        rails=f"Variant={rails_value}",
        changes=(Change("data", "start_order", oid), *extra),
        conflicts=tuple(v for v in _VARIANTS if v != oid),
    )


OPTIONS: dict[str, Option] = {
    o.id: o
    for o in (
        _variant("standard", "Standard start packet order (clockwise)", "Standard", ()),
        _variant(
            "snake", "Snake order in the first start round (1-2-3-4-4-3-2-1-1-2-...)", "Snake", ()
        ),
        _variant(
            "clemens",
            "Clemens variant: reversed first cycle, all items available, minors wait for BY",
            "Clemens",
            (
                Change("hook", "start_item_availability", "all_items"),
                Change("hook", "minors_may_operate", "after_by_floated"),
            ),
        ),
        Option(
            id="sell_restriction_first_stock_round",
            label="No selling throughout stock round 1",
            source="rules/1835.md 5.3, 11",
            rails="FirstRoundSellRestriction=First Stock Round",
            changes=(Change("hook", "may_sell_in_first_stock_round", "never"),),
            note="default (Rails First Round): no sales in SR 1 if the packet sold in one go",
        ),
        Option(
            id="by_floats_at_20",
            label="BY floats at 20%",
            source="rules/1835.md 3.1, 11",
            rails="BYFloatsAt=20%",
            changes=(Change("data", "corporations.BY.float_percent", 20),),
        ),
        Option(
            id="ld_income_30",
            label="Leipzig-Dresdner Bahn earns 30M",
            source="rules/1835.md 6, 11",
            rails="LDIncome=30",
            changes=(Change("data", "companies.LD.revenue", 30),),
        ),
        Option(
            id="minors_require_floated_by",
            label="Minors do not operate before BY has floated",
            source="rules/1835.md 2, 7, 11",
            rails="MinorsRequireFloatedBY=yes",
            changes=(Change("hook", "minors_may_operate", "after_by_floated"),),
            note="implied by clemens; ORs before SR 1 with nothing to run are Rails 'short ORs'",
        ),
        Option(
            id="prussian_reserved_ignored",
            label="PR sold-out rise ignores unexchanged reserved shares",
            source="rules/1835.md 5.1, 11",
            rails="PrussianReservedIgnored=yes",
            changes=(Change("hook", "sold_out", "ignore_reserved_pr_shares"),),
            note="current Rails always behaves so (kept for old saves); set it to replay reports",
        ),
        Option(
            id="nf_pfb_token_only_in_token_step",
            label="NF and PfB free tokens only in the token step (Westermann ruling)",
            source="rules/1835.md 6, 11",
            rails="NF_PfB_Westermann=yes",
            changes=(
                Change("data", "companies.NF.abilities.token.steps", "token"),
                Change("data", "companies.PfB.abilities.token.steps", "token"),
            ),
        ),
        Option(
            id="separate_sales_at_lower_price",
            label="Each separate sale of one company in a turn at the then current price",
            source="rules/1835.md 5.3, 8.8, 11",
            rails="SeparateSalesAtSamePrice=no",
            changes=(Change("hook", "repeated_sale_price", "current_price"),),
            note="default (Rails yes): later sales at the price before the first sale",
        ),
        Option(
            id="unlimited_tiles",
            label="Unlimited tile supply (test aid)",
            source="rules/1835.md 11 (UI-only options); report 1835_SellDoubleShare",
            rails="UnlimitedTiles=Yes",
            changes=(Change("data", "tiles.count", "unlimited"),),
            conflicts=("unlimited_yellow_plain_tiles",),
        ),
        Option(
            id="unlimited_yellow_plain_tiles",
            label="Unlimited plain yellow track tiles (test aid)",
            source="rules/1835.md 11 (UI-only options)",
            rails="UnlimitedTiles=Yellow Plain",
            changes=(Change("data", "tiles.count.yellow_plain", "unlimited"),),
            conflicts=("unlimited_tiles",),
        ),
    )
}

RAILS_NAMES: dict[tuple[str, str], str] = {
    ("Variant", "Standard"): "standard",
    ("Variant", "Snake"): "snake",
    ("Variant", "Clemens"): "clemens",
    ("FirstRoundSellRestriction", "First Stock Round"): "sell_restriction_first_stock_round",
    ("BYFloatsAt", "20%"): "by_floats_at_20",
    ("LDIncome", "30"): "ld_income_30",
    ("MinorsRequireFloatedBY", "yes"): "minors_require_floated_by",
    ("PrussianReservedIgnored", "yes"): "prussian_reserved_ignored",
    ("NF_PfB_Westermann", "yes"): "nf_pfb_token_only_in_token_step",
    ("SeparateSalesAtSamePrice", "no"): "separate_sales_at_lower_price",
    ("UnlimitedTiles", "Yes"): "unlimited_tiles",
    ("UnlimitedTiles", "Yellow Plain"): "unlimited_yellow_plain_tiles",
}
"""Rails save-file option (name, value) -> our option id; default values map to nothing."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The rule values an option set selects; defaults are the printed rules as Rails plays them."""

    start_order: str = "standard"
    all_start_items_available: bool = False
    minors_wait_for_by_float: bool = False
    sell_restriction: str = "first_round"
    by_float_percent: int = 50
    ld_revenue: int = 20
    sold_out_ignores_reserved_pr: bool = False
    free_token_steps: tuple[str, ...] = ("track", "token")
    repeated_sale_at_first_price: bool = True
    tile_supply: str = "limited"
    options: tuple[str, ...] = field(default=())


@cache
def player_counts() -> tuple[int, ...]:
    """The player counts 1835 allows: ``[players]`` of data/game.toml (rules/1835.md 1)."""
    from stellwerk.titles.g1835.data_load import game_data

    players = game_data()["players"]
    return tuple(range(int(players["min"]), int(players["max"]) + 1))


def check_options(options: Iterable[str], players: int) -> None:
    """Refuse a player count 1835 does not allow (rules/1835.md 1), then unknown options,
    options for other player counts and conflicting pairs (rules/1835.md 11)."""
    chosen = list(options)
    check_setup(
        "1835", players, player_counts(), "1835 rules §1", chosen, OPTIONS, "1835 rules §11"
    )


def settings(options: Iterable[str], players: int = 4) -> Settings:
    """The :class:`Settings` of an option list (checked first)."""
    chosen = tuple(options)
    check_options(chosen, players)
    s = Settings(options=chosen)
    values: Mapping[str, Mapping[str, object]] = {
        "snake": {"start_order": "snake"},
        "clemens": {
            "start_order": "clemens",
            "all_start_items_available": True,
            "minors_wait_for_by_float": True,
        },
        "sell_restriction_first_stock_round": {"sell_restriction": "first_stock_round"},
        "by_floats_at_20": {"by_float_percent": 20},
        "ld_income_30": {"ld_revenue": 30},
        "minors_require_floated_by": {"minors_wait_for_by_float": True},
        "prussian_reserved_ignored": {"sold_out_ignores_reserved_pr": True},
        "nf_pfb_token_only_in_token_step": {"free_token_steps": ("token",)},
        "separate_sales_at_lower_price": {"repeated_sale_at_first_price": False},
        "unlimited_tiles": {"tile_supply": "all"},
        "unlimited_yellow_plain_tiles": {"tile_supply": "yellow_plain"},
    }
    for oid in chosen:
        s = replace(s, **values.get(oid, {}))  # type: ignore[arg-type]
    return s
