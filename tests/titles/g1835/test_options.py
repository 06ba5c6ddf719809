"""1835 options (rules/1835.md section 11): declared once, checked, resolved to settings."""

from __future__ import annotations

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.titles.g1835 import options as opt
from stellwerk.titles.g1835.game import Game1835
from stellwerk.titles.g1835.settings import (
    Settings1835,
    minors_after_by_floated,
    minors_always_operate,
    no_sales,
    sales_unless_packet_sold_in_one_go,
)

PLAYERS4 = [(i, f"P{i}") for i in range(1, 5)]


def settings(options: list[str], players: int = 4) -> Settings1835:
    return opt.DECLARED.settings(options, players)


def check_options(options: list[str], players: int) -> None:
    opt.DECLARED.check(options, players)


def test_every_rulebook_option_is_declared() -> None:
    """Each Rails GameOption of the rulebook table has an id for its non-default values."""
    rails_names = {name for name, _ in opt.RAILS_NAMES}
    assert rails_names >= {
        "Variant",
        "FirstRoundSellRestriction",
        "BYFloatsAt",
        "LDIncome",
        "MinorsRequireFloatedBY",
        "PrussianReservedIgnored",
        "NF_PfB_Westermann",
        "SeparateSalesAtSamePrice",
    }
    assert set(opt.RAILS_NAMES.values()) == set(opt.OPTIONS)
    assert opt.RAILS_NAMES[("Variant", "Snake")] == "snake"
    assert opt.RAILS_NAMES[("UnlimitedTiles", "Yellow Plain")] == "unlimited_yellow_plain_tiles"
    for o in opt.OPTIONS.values():
        assert o.label and o.source and o.aliases and o.effects, o.id
        assert o.players is None
        for other in o.conflicts:
            assert o.id in opt.OPTIONS[other].conflicts, (o.id, other)


def test_variants_exclude_each_other() -> None:
    """1835 rules §3.3: one start variant."""
    check_options(["clemens"], 4)
    with pytest.raises(IllegalAction):
        check_options(["snake", "clemens"], 4)


def test_unknown_option_refused() -> None:
    with pytest.raises(IllegalAction):
        check_options(["bonds"], 4)


def test_defaults_are_rails_defaults() -> None:
    """rails-report-format §4: the printed start order, BY and LD as printed (50%, 20), separate
    sales at the same price, no sales in SR 1 only if the packet sold in one go."""
    s = settings([])
    assert s == Settings1835()
    assert (s.start_order, s.by_float_percent, s.ld_revenue) == (None, None, None)
    assert s.repeated_sale_at_first_price
    assert s.sales_in_first_stock_round is sales_unless_packet_sold_in_one_go
    assert s.minors_may_operate is minors_always_operate
    assert not s.sold_out_ignores_reserved_pr


def test_settings_of_a_clemens_report() -> None:
    """1835_Forced_Selling_PR_5_Shares: Clemens (which implies MinorsRequireFloatedBY),
    PrussianReservedIgnored."""
    s = settings(["clemens", "prussian_reserved_ignored"])
    assert s.start_order == "clemens" and s.minors_may_operate is minors_after_by_floated
    assert s.sold_out_ignores_reserved_pr
    assert s == settings(["clemens", "minors_require_floated_by", "prussian_reserved_ignored"])
    s = settings(["by_floats_at_20", "ld_income_30", "nf_pfb_token_only_in_token_step"])
    assert (s.by_float_percent, s.ld_revenue, s.free_token_steps) == (20, 30, ("token",))
    assert settings(["sell_restriction_first_stock_round"]).sales_in_first_stock_round is no_sales


def test_the_clemens_game_starts_with_the_last_player() -> None:
    """rules/1835.md 3.2, 3.3: Clemens: the last player has priority, every item is available
    and minors wait for BY; Standard: the first player, the top row only."""
    clemens = Game1835(PLAYERS4, ["clemens"], 1)
    standard = Game1835(PLAYERS4, [], 1)
    assert clemens.priority is clemens.players[-1] and standard.priority is standard.players[0]
    assert clemens.start_order().all_items_available
    assert not standard.start_order().all_items_available
    assert not clemens.minors_may_operate() and standard.minors_may_operate()
