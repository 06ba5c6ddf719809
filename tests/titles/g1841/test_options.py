"""1841's option declarations (rules/1841.md sections 4 and 6): each option changes its rule
knob of the settings, the zugzwang preset implies exactly seed 003's house rules, player
counts and conflicts are refused, no option id of the rulebook is forgotten, and settings.py
names no option.

1841 is not in the registry yet (it is not playable), so these tests import its declarations
directly; once it is registered, tests/unit/core/test_option_declarations.py covers it too.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import itertools
import json
import re
from pathlib import Path
from types import ModuleType

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.core.options import Data, Option
from stellwerk.titles.g1841 import options as options_module
from stellwerk.titles.g1841.options import DECLARED, OPTIONS, ZUGZWANG
from stellwerk.titles.g1841.settings import Settings1841

REPO = Path(__file__).resolve().parents[3]
RULES = REPO / ".." / "shared" / "rules" / "1841.md"
FIXTURES = REPO / ".." / "shared" / "fixtures" / "18xx.games" / "1841"
PACKAGE = Path(options_module.__file__).parent

EIGHTEEN_XX = ("p2p_purchases", "lite", "version_1", "sfli_run_variant")
"""18xx.games' optional rules for 1841 (meta.rb OPTIONAL_RULES)."""

SAME_AS = {"sfli_runs_in_formation_or": "sfli_run_variant"}
"""Ids the rulebook proposes for a rule 18xx.games already names (rules/1841.md §6.1 item
1.17: "= 18xx sfli_run_variant"); game files store 18xx.games' symbol."""

SWITCHED_OFF_BY = {"forbid_circular_control": "allow_circular_control"}
"""Rules the tables mark "(on)" (on by default, rules/1841.md §6.3 item 3.1) and the option
that switches each off: options are chosen, never unchosen, so the switch is an option of its
own whose source names the rule."""


def _scan() -> ModuleType:
    """The option-id scan of tests/unit/core/test_option_declarations.py."""
    path = REPO / "tests" / "unit" / "core" / "test_option_declarations.py"
    spec = importlib.util.spec_from_file_location("_option_id_scan_1841", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCAN = _scan()


def settings(options: list[str], players: int = 4) -> Settings1841:
    return DECLARED.settings(options, players)


# --- the default and each option's knob -----------------------------------------------------


def test_no_option_gives_18xx_games_second_edition() -> None:
    base = settings([])
    assert base == Settings1841()
    assert base.edition == 2 and not base.short_game
    assert base.auction == "open" and base.sfli_runs_when_formed
    assert base.emr_half_price_rounding == "up"
    assert base.game_end_timing == "current_turn"
    assert base.bankruptcy_procedure == "sell_out"
    assert base.missing_orders == "wait"
    assert not base.round_waits_for_decisions and not base.transformation_updates_frozen


EFFECTS: dict[str, list[tuple[str, object]]] = {
    "p2p_purchases": [("player_to_player_purchases", True)],
    "lite": [("short_game", True), ("firenze_reserved_for_sfma", False)],
    "version_1": [
        ("edition", 1),
        ("firenze_reserved_for_sfma", False),
        ("secession_token_purchase", False),
    ],
    "sfli_run_variant": [("sfli_formation_or_run", True)],
    "v1_tie_farthest_from_priority": [("sealed_bid_ties", "farthest_from_priority")],
    "exchange_order_by_value": [("holder_corporation_order", "share_value")],
    "sale_drops_reverse_order": [("sale_drop_order", "reverse_operating_order")],
    "emr_round_down": [("emr_half_price_rounding", "down")],
    "allow_circular_control": [("circular_control_forbidden", False)],
    "forbid_circular_control": [("circular_control_forbidden", True)],
    "merger_table_above_250": [("merger_keeps_prices_above_250", False)],
    "end_at_once_top_or_offboards": [("game_end_timing", "immediate")],
    "upgrade_reachable_city": [("reachable_city_upgrade_without_new_track", True)],
    "secession_payout_unmatched": [("secession_pays_unmatched_holders", True)],
    "corp_no_rebuy_after_sale": [("emr_sales_block_corporate_rebuy", True)],
    "open_concession_auction": [("concession_auction", "open")],
    "corp_buy_same_country_only": [("corporate_buys_within_borders", True)],
    "emr_respect_first_or": [("emr_sales_need_operated", True)],
    "priority_tie_by_lot": [("auction_order_ties", "lot")],
    "corp_foreign_sale_no_drop": [("corporate_sales_of_others_drop_price", False)],
    "end_finish_current_or": [("game_end_timing", "current_or")],
    "emr_no_president_to_pool": [("emr_president_cert_to_pool", False)],
    "bankruptcy_zugzwang": [("bankruptcy_procedure", "dissolve")],
    "grandchild_no_par": [("grandchildren_may_par", False)],
    "default_orders_zugzwang": [("missing_orders", "cash_no_tokens")],
    "or_waits_for_last_decisions": [("round_waits_for_decisions", True)],
    "transform_refreshes_frozen": [("transformation_updates_frozen", True)],
    "closed_shares_worthless": [("closed_corporation_shares_count", False)],
    "circular_frozen_sells": [("circular_frozen_sales", True)],
}
"""Each option (the preset aside) and the fields it sets."""


def test_every_option_but_the_preset_and_the_alias_is_in_the_table_of_effects() -> None:
    assert set(EFFECTS) == set(OPTIONS) - {"zugzwang"} - set(SAME_AS)
    assert len(OPTIONS) == 31


def test_seed_000_items_1_17_and_4_2_the_rulebook_id_is_an_alias_of_sfli_run_variant() -> None:
    """seed 000 items 1.17, 4.2 and seed 003 H3 (rules/1841.md §6.1, §6.4, §6.7): the id the
    rulebook proposes, ``sfli_runs_in_formation_or``, is accepted at creation and plays
    18xx.games' ``sfli_run_variant``: the same settings, alone and with the first edition,
    and both ids together are no conflict."""
    for oid, same in SAME_AS.items():
        alias = OPTIONS[oid]
        assert alias.effects == () and alias.implies == (same,)
        assert DECLARED.check([oid], 4) == (oid, same)
        for edition in ([], ["version_1"]):
            assert settings([*edition, oid]) == settings([*edition, same])
            assert settings([*edition, oid, same]) == settings([*edition, same])
        assert not settings(["version_1"]).sfli_runs_when_formed
        assert settings(["version_1", oid]).sfli_runs_when_formed


def with_requirements(oid: str) -> list[str]:
    return SCAN.with_requirements(DECLARED, oid)  # type: ignore[no-any-return]


@pytest.mark.parametrize("oid", list(EFFECTS))
def test_each_option_sets_exactly_its_fields(oid: str) -> None:
    """The option, with what it requires, changes its fields, to the declared values, and
    no other field than its requirements alone."""
    chosen = with_requirements(oid)
    others = [o for o in chosen if o != oid]
    players = DECLARED.players_of(OPTIONS[oid])[0]
    with_it, without = settings(chosen, players), settings(others, players)
    changed = {
        f.name: getattr(with_it, f.name)
        for f in dataclasses.fields(Settings1841)
        if getattr(with_it, f.name) != getattr(without, f.name)
    }
    # a default option restates the default: it changes nothing
    assert changed == ({} if OPTIONS[oid].default else dict(EFFECTS[oid]))
    assert OPTIONS[oid].effects == tuple(Data(k, v) for k, v in EFFECTS[oid])


def test_each_option_is_declared_once_with_label_source_and_german_note() -> None:
    path = PACKAGE / "options.py"
    for oid, option in OPTIONS.items():
        assert SCAN.declaring_calls(path, oid) == 1, oid
        assert option.label and option.source, oid
        assert option.effects or option.implies, oid
        assert option.note.startswith("de: "), oid


def test_the_edition_resolves_the_auction_and_the_sfli_run() -> None:
    """§4.1, §4.4: the first edition has the sealed concession round and SFLi waits; seed 000
    item 4.1 and 18xx.games' SFLi run variant set either back."""
    v1 = settings(["version_1"])
    assert v1.auction == "sealed" and not v1.sfli_runs_when_formed
    both = settings(["version_1", "open_concession_auction", "sfli_run_variant"])
    assert both.auction == "open" and both.sfli_runs_when_formed
    assert settings(["sfli_run_variant"]).sfli_runs_when_formed


# --- player counts and combinations ---------------------------------------------------------


def test_1841_is_for_3_to_8_players() -> None:
    assert DECLARED.counts() == (3, 4, 5, 6, 7, 8)
    for players in (2, 9):
        with pytest.raises(IllegalAction, match="3 to 8"):
            DECLARED.check([], players)


@pytest.mark.parametrize("players", [7, 8])
def test_lite_refuses_7_and_8_players(players: int) -> None:
    with pytest.raises(IllegalAction, match="lite is for 3, 4, 5, 6 players"):
        DECLARED.check(["lite"], players)


def test_18xx_games_allows_every_combination_of_its_options() -> None:
    """meta.rb has no check_options: any subset, at every count its options allow."""
    for size in range(len(EIGHTEEN_XX) + 1):
        for combo in itertools.combinations(EIGHTEEN_XX, size):
            top = 6 if "lite" in combo else 8
            for players in range(3, top + 1):
                assert DECLARED.check(list(combo), players) == combo


def test_the_18xx_games_fixtures_options_are_accepted() -> None:
    files = sorted(FIXTURES.glob("*.json")) if FIXTURES.is_dir() else []
    if not files:
        pytest.skip(f"no 1841 fixtures at {FIXTURES}")
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        rules = data.get("settings", {}).get("optional_rules") or []
        DECLARED.check(rules, len(data["players"]))


@pytest.mark.parametrize(
    ("chosen", "message"),
    [
        (["v1_tie_farthest_from_priority"], "needs version_1"),
        (["version_1", "v1_tie_farthest_from_priority", "open_concession_auction"], "exclude"),
        (["zugzwang", "p2p_purchases"], "exclude"),
        (["version_1", "v1_tie_farthest_from_priority", "zugzwang"], "exclude"),
        (["nonsense"], "unknown 1841 option"),
    ],
)
def test_refused_combinations(chosen: list[str], message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        DECLARED.check(chosen, 4)


# --- the zugzwang preset --------------------------------------------------------------------


def test_the_zugzwang_preset_implies_the_house_rules() -> None:
    preset = OPTIONS["zugzwang"]
    assert preset.effects == ()
    assert preset.implies == ZUGZWANG
    assert DECLARED.check(["zugzwang"], 5) == ("zugzwang", *ZUGZWANG)
    chosen = settings(["zugzwang"])
    assert chosen == settings(list(ZUGZWANG))
    assert chosen.auction_order_ties == "lot"
    assert not chosen.corporate_sales_of_others_drop_price
    assert chosen.game_end_timing == "current_or"
    assert not chosen.emr_president_cert_to_pool
    assert chosen.bankruptcy_procedure == "dissolve"
    assert chosen.missing_orders == "cash_no_tokens"
    assert chosen.grandchildren_may_par  # H10 is a proposal
    assert not chosen.player_to_player_purchases


def test_the_house_rules_combine_with_the_first_edition() -> None:
    """The group plays the first edition; H1 and H3 then give the open auction and SFLi's
    run in its formation round."""
    chosen = settings(["version_1", "zugzwang"])
    assert chosen.edition == 1 and chosen.auction == "open" and chosen.sfli_runs_when_formed


# --- the rulebook's option ids --------------------------------------------------------------


def rulebook() -> str:
    if not RULES.is_file():
        pytest.skip(f"rulebook not found at {RULES}")
    return RULES.read_text(encoding="utf-8")


def section(text: str, number: int) -> str:
    start = text.index(f"\n## {number}.")
    end = text.find(f"\n## {number + 1}.", start)
    return text[start : end if end >= 0 else len(text)]


def table_rows(text: str) -> list[tuple[str, str, str]]:
    """(item, rule, option id cell) of every table row of section 6 with an Option id
    column."""
    rows: list[tuple[str, str, str]] = []
    header: list[str] = []
    for line in section(text, 6).splitlines():
        if not line.startswith("|"):
            header = []
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not header:
            header = cells
            continue
        if "Option id" in header and not set(cells[0]) <= {"-"}:
            rows.append((cells[0], cells[1], cells[header.index("Option id")]))
    return rows


def ids_in(cell: str) -> list[tuple[str, str]]:
    """(id, mark) for each id a cell names before any parenthesis: mark "on" for a rule that
    is on by default, "off" for an option the row keeps off, else ""."""
    head = cell
    on = re.match(r"`(\w+)` \(on\)", cell)
    if on:
        return [(on.group(1), "on")]
    head = cell.split("(", 1)[0]
    mark = "off" if head.rstrip().endswith(" off") else ""
    return [(oid, mark) for oid in re.findall(r"`(\w+)`", head)]


PRINTED_RULES = {
    "or_waits_for_last_decisions": ("§2.3.11", "§2.3.12", "defect H"),
    "transform_refreshes_frozen": ("§2.3.9", "§2.3.12", "defect I"),
    "closed_shares_worthless": ("§1.4", "defect K"),
    "circular_frozen_sells": ("§2.3.10", "defect L"),
}
"""Options that restore the printed rules where 18xx.games differs and its behaviour is the
default (issue 8 item 3; docs/architecture.md, defects H and I): no table of the rulebook
names them, their sources cite the rules and the defect."""


SEED_RULES = {
    "merger_table_above_250": "seed 000 conversion table",
    "end_at_once_top_or_offboards": "seed 000 item 2.27",
}
"""Options for seed rules where rules/1841.md section 6 proposes no id (its Option column
says "—" or there is none): their sources cite the seed item."""


def test_the_seed_options_without_a_rulebook_id_cite_their_item() -> None:
    for oid, cited in SEED_RULES.items():
        assert cited in OPTIONS[oid].source, (oid, OPTIONS[oid].source)


def test_the_printed_rules_options_cite_the_rules_and_the_defect() -> None:
    for oid, cited in PRINTED_RULES.items():
        source = OPTIONS[oid].source
        assert all(c in source for c in cited), (oid, source)
        assert "18xx.games" in source


def declared_as(oid: str) -> str:
    return SAME_AS.get(oid, oid)


def test_every_option_id_of_the_rulebook_is_declared() -> None:
    """Section 4's 18xx.games options, every Option id of the section 6 tables and every
    "Proposed option" of the text: declared (one marked "(on)" as a default option, with
    the option that switches it off)."""
    text = rulebook()
    section4 = re.findall(r"^### 4\.\d [^\n]*?`(\w+)`", section(text, 4), re.M)
    assert section4 == ["version_1", "lite", "p2p_purchases", "sfli_run_variant"]
    wanted = set(section4)
    defaults: set[str] = set()
    rows = table_rows(text)
    assert len(rows) > 60
    for _item, _rule, cell in rows:
        for oid, mark in ids_in(cell):
            (defaults if mark == "on" else wanted).add(oid)
    wanted |= set(re.findall(r"[Pp]roposed option:? `(\w+)`", text))
    missing = sorted(oid for oid in wanted if declared_as(oid) not in OPTIONS)
    assert not missing, f"rulebook option ids not declared: {missing}"
    assert defaults == set(SWITCHED_OFF_BY)
    for rule, switch in SWITCHED_OFF_BY.items():
        assert rule in OPTIONS[switch].source and "on by default" in OPTIONS[switch].source
        # the default rule is declared too, restating the default (core Option.default)
        assert OPTIONS[rule].default and switch in OPTIONS[rule].conflicts
    unlisted = (
        set(OPTIONS)
        - {declared_as(o) for o in wanted}
        - {"zugzwang"}
        - set(PRINTED_RULES)
        - set(SWITCHED_OFF_BY.values())
        - set(SWITCHED_OFF_BY)
        - set(SAME_AS)
        - set(SEED_RULES)
    )
    assert not unlisted, f"declared but not in the rulebook: {sorted(unlisted)}"


def test_the_preset_is_the_house_rule_rows_with_an_option_id() -> None:
    """Seed 003 (§6.7): the rows H1-H15 naming an option, but the ones kept off (H6, H7 forbid
    player-to-player trading: the preset excludes it) and the proposal (H10)."""
    implied: list[str] = []
    kept_off: set[str] = set()
    for item, rule, cell in table_rows(rulebook()):
        if not item.startswith("H"):
            continue
        for oid, mark in ids_in(cell):
            if mark == "off":
                kept_off.add(oid)
            elif not rule.startswith("Proposal") and declared_as(oid) not in implied:
                implied.append(declared_as(oid))
    assert tuple(implied) == OPTIONS["zugzwang"].implies
    assert kept_off == set(OPTIONS["zugzwang"].conflicts) == {"p2p_purchases"}


# --- settings.py names no option ------------------------------------------------------------


def test_the_settings_name_no_option() -> None:
    """Rule code reads the settings' fields, never an option id (style guide §8): the
    settings name rules, not options.  (Once 1841 is registered, the core test scans every
    module of the package.)"""
    found = SCAN.names_in(PACKAGE / "settings.py", set(OPTIONS))
    assert not found, "option ids in settings.py:\n" + "\n".join(found)


def test_the_settings_fields_are_typed_data() -> None:
    """Every knob is a datum (no hooks yet) and each option's value has its field's type."""
    base = Settings1841()
    option: Option
    for option in OPTIONS.values():
        for effect in option.effects:
            assert isinstance(effect, Data)
            current = getattr(base, effect.key)
            assert not callable(current)
            assert current is None or type(current) is type(effect.value), effect
