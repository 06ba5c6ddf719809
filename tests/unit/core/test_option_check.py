"""Common rules §3.1: a game is set up with a player count and options its title declares;
the core checks any title's declarations the same way and applies the chosen options' effects
in one place (here a made-up title)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.core.options import (
    Data,
    Declared,
    Hook,
    Option,
    apply_options,
    check_setup,
    declare,
    expand,
)


def two(n: int) -> int:
    return 2 * n


def three(n: int) -> int:
    return 3 * n


def once(n: int) -> int:
    return n


@dataclass(frozen=True, slots=True)
class Rules:
    """A made-up title's settings: defaults are its printed rules."""

    bank: int = 100
    extra_trains: tuple[str, ...] = ()
    payout: object = once
    loans: bool = False


DECLARED = declare(
    Option("a", "A", "rules §1"),
    Option("b", "B", "rules §2", requires=("a",)),
    Option("c", "C", "rules §3", conflicts=("a",)),
    Option("four", "Four players only", "rules §4", players=(4,)),
    Option("bank", "Bigger bank", "rules §5", (Data("bank", 150),)),
    Option("double", "Double payout", "rules §6", (Hook("payout", two),)),
    Option("triple", "Triple payout", "rules §6", (Hook("payout", three),)),
    Option("electric", "E-trains", "rules §7", (Data("extra_trains", ("E",)),)),
    Option("loans", "Loans", "rules §8", (Data("loans", True),)),
    Option("house", "House rules (a preset)", "seed 003", implies=("bank", "loans")),
    Option("duo", "Two players", "rules §9", players=(2, 3)),
)


def check(players: int, chosen: list[str]) -> tuple[str, ...]:
    return check_setup("18XX", players, (3, 4), "count rule", chosen, DECLARED, "option rule")


@pytest.mark.parametrize(
    ("players", "chosen", "message", "rule"),
    [
        (5, [], "18XX is for 3 to 4 players, not 5", "count rule"),
        (3, ["z"], "unknown 18XX option 'z'; the options are: a, b, c, four, bank, double, "
         "triple, electric, loans, house, duo", "option rule"),
        (3, ["four"], "option four is for 4 players, not 3", "option rule"),
        (3, ["b"], "option b needs a", "option rule"),
        (3, ["c", "a"], "options c and a exclude each other", "option rule"),
        (3, ["a", "c"], "options c and a exclude each other", "option rule"),
        (2, ["a"], "18XX is for 3 to 4 players, not 2", "count rule"),
        (4, ["duo"], "option duo is for 2, 3 players, not 4", "option rule"),
    ],
)  # fmt: skip
def test_refusals_name_the_allowed_values(
    players: int, chosen: list[str], message: str, rule: str
) -> None:
    with pytest.raises(IllegalAction) as refused:
        check(players, chosen)
    assert (refused.value.reason, refused.value.rule) == (message, rule)


def test_a_declared_set_passes() -> None:
    assert check(4, ["a", "b", "four"]) == ("a", "b", "four")


def test_an_option_may_admit_a_player_count_the_title_does_not() -> None:
    """Option-dependent player counts: a variant for two players is allowed at 2."""
    assert check(2, ["duo"]) == ("duo",)


def test_a_preset_chooses_the_options_it_implies() -> None:
    assert expand(DECLARED, ["house"]) == ("house", "bank", "loans")
    assert expand(DECLARED, ["loans", "house"]) == ("loans", "house", "bank")
    assert check(3, ["house"]) == ("house", "bank", "loans")


def test_effects_change_data_and_replace_hooks() -> None:
    base = Rules()
    assert apply_options(DECLARED, [], base) is base
    rules = apply_options(DECLARED, ["bank", "double", "electric"], base)
    assert rules == Rules(bank=150, extra_trains=("E",), payout=two)
    assert apply_options(DECLARED, ["house"], base) == Rules(bank=150, loans=True)


def test_two_options_changing_one_field_differently_exclude_each_other() -> None:
    with pytest.raises(IllegalAction) as refused:
        apply_options(DECLARED, ["double", "triple"], Rules(), "option rule")
    assert (
        refused.value.reason == "options double and triple exclude each other (both change payout)"
    )
    assert refused.value.rule == "option rule"
    assert apply_options(DECLARED, ["bank", "house"], Rules()).bank == 150


@pytest.mark.parametrize(
    ("effect", "message"),
    [
        (Data("cash", 1), "option x: Rules has no field cash"),
        (Data("bank", "150"), "option x: bank is a int, not a str"),
        (Data("payout", 3), "option x: payout is a hook, not a datum"),
        (Hook("bank", two), "option x: bank is not a hook"),
    ],
)
def test_an_effect_on_the_wrong_field_is_a_declaration_defect(
    effect: Data | Hook, message: str
) -> None:
    declared = declare(Option("x", "X", "nowhere", (effect,)))
    with pytest.raises(ValueError, match=message):
        apply_options(declared, ["x"], Rules())


def test_declaring_an_option_twice_or_naming_an_unknown_one_is_refused() -> None:
    with pytest.raises(ValueError, match="option a is declared twice"):
        declare(Option("a", "A", "s"), Option("a", "A again", "s"))
    with pytest.raises(ValueError, match="option p names the undeclared option q"):
        declare(Option("p", "P", "s", implies=("q",)))


def test_declared_checks_then_applies() -> None:
    decl = Declared("18XX", DECLARED, Rules(), lambda: (3, 4), "count rule", "option rule")
    assert decl.settings(["house", "double"], 3) == Rules(bank=150, loans=True, payout=two)
    assert decl.players_of(DECLARED["a"]) == (3, 4)
    assert decl.players_of(DECLARED["four"]) == (4,)
    with pytest.raises(IllegalAction):
        decl.settings(["b"], 3)
