"""1835 options (rules/1835.md section 11): declared once, checked, resolved to settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.titles.g1835 import options as opt

SRC = Path(__file__).resolve().parents[3] / "src" / "stellwerk"


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
    assert set(opt.RAILS_NAMES.values()) <= set(opt.OPTIONS)
    for o in opt.OPTIONS.values():
        assert o.label and o.source and o.rails and o.changes, o.id
        assert set(o.players) <= {3, 4, 5, 6, 7}
        for other in o.conflicts:
            assert o.id in opt.OPTIONS[other].conflicts, (o.id, other)


def test_variants_exclude_each_other() -> None:
    """1835 rules §3.3: one start variant."""
    opt.check_options(["clemens"], 4)
    with pytest.raises(IllegalAction):
        opt.check_options(["snake", "clemens"], 4)


def test_unknown_option_refused() -> None:
    with pytest.raises(IllegalAction):
        opt.check_options(["bonds"], 4)


def test_defaults_are_rails_defaults() -> None:
    """rails-report-format §4: BY 50%, LD 20, separate sales at the same price, first_round."""
    s = opt.settings([])
    assert (s.start_order, s.by_float_percent, s.ld_revenue) == ("standard", 50, 20)
    assert s.repeated_sale_at_first_price and s.sell_restriction == "first_round"
    assert not s.minors_wait_for_by_float and not s.sold_out_ignores_reserved_pr


def test_settings_of_a_clemens_report() -> None:
    """1835_Forced_Selling_PR_5_Shares: Clemens, MinorsRequireFloatedBY, PrussianReservedIgnored."""
    s = opt.settings(["clemens", "minors_require_floated_by", "prussian_reserved_ignored"])
    assert s.start_order == "clemens" and s.all_start_items_available
    assert s.minors_wait_for_by_float and s.sold_out_ignores_reserved_pr
    s = opt.settings(["by_floats_at_20", "ld_income_30", "nf_pfb_token_only_in_token_step"])
    assert (s.by_float_percent, s.ld_revenue, s.free_token_steps) == (20, 30, ("token",))


def test_option_ids_only_in_options_files() -> None:
    """Style §8: rule code never names an option; only options.py files do."""
    ids = [oid for oid in opt.OPTIONS if oid not in ("standard", "snake", "clemens")]
    for path in (SRC / "titles" / "g1835").rglob("*.py"):
        if path.name == "options.py":
            continue
        text = path.read_text(encoding="utf-8")
        for oid in ids:
            assert oid not in text, (path, oid)
