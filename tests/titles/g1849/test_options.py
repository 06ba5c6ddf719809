"""1849's options (1849 rules §7, seed 001 in §10): each changes the settings the game is built
with, and so the game."""

from __future__ import annotations

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.titles.g1849 import settings as s49
from stellwerk.titles.g1849.game import Game1849
from stellwerk.titles.g1849.options import DECLARED
from stellwerk.titles.g1849.rules.routes import check_route, check_route_cities_only
from stellwerk.titles.g1849.steps import Bond, BuyEToken, BuyToken

ELECTRIC = ["bonds", "acquiring_station_tokens", "electric_dreams"]


def new(options: list[str], players: int = 3) -> Game1849:
    return Game1849([(i, f"P{i}") for i in range(1, players + 1)], options, 27939)


def test_the_printed_rules_are_the_default_settings() -> None:
    """No option: 18xx.games' 1849 without variants."""
    settings = DECLARED.settings([], 3)
    assert settings == s49.Settings1849()
    assert settings.route_check is check_route
    assert settings.private_min_price is s49.private_from_one
    assert settings.bond_penalty is s49.full_bond_penalty
    assert settings.extra_trains == () and settings.e_trains_per_corporation is None


@pytest.mark.parametrize(
    ("options", "field", "value"),
    [
        (["delay_ift"], "ift_out_of_first_three", True),
        (["reduced_4p_corps"], "five_corporations_at_four_players", True),
        (["acquiring_station_tokens"], "station_token_buying", True),
        (["bonds"], "corporation_bonds", True),
        (ELECTRIC, "e_tokens", True),
        (ELECTRIC, "extra_trains", ("E",)),
        (["bank_8040"], "bank_cash", 8040),
        (["private_price_half_to_double"], "private_min_price", s49.private_from_half),
        (["gauge_change_cities_only"], "route_check", check_route_cities_only),
        ([*ELECTRIC, "one_e_train_per_corporation"], "e_trains_per_corporation", 1),
        (["end_after_current_or"], "game_ends_after_current_or", True),
        (["bonds", "bond_penalty_floor_zero"], "bond_penalty", s49.bond_penalty_floored),
    ],
)
def test_each_option_sets_its_rule(options: list[str], field: str, value: object) -> None:
    assert getattr(DECLARED.settings(options, 4), field) == value
    assert getattr(s49.Settings1849(), field) != value


def test_electric_dreams_puts_the_e_trains_in_the_depot() -> None:
    """§7.5: six E-trains (L.550) from 12H with the option; none without."""
    assert "E" not in new([]).depot.counts()
    game = new(ELECTRIC)
    assert game.depot.counts()["E"] == 6
    assert {t.price for t in game.depot.trains if t.name == "E"} == {550}


def test_variants_open_their_steps_only_when_chosen() -> None:
    """§7.3-§7.5: the first 6H/8H/12H open token buying, bonds and E-tokens; the steps offer
    them only in a game with the variant."""
    plain, electric = new([]), new(ELECTRIC)
    for game in (plain, electric):
        game.event_buy_tokens()
        game.event_bonds()
        game.event_e_tokens()
    corp = electric.corporations[0]
    corp.cash = 2000
    def offered(game: Game1849, kind: type) -> bool:
        step = kind(game, game.round)
        step.setup()
        step.current_entity = lambda: game.corporations[0]  # type: ignore[method-assign]
        return bool(step.actions(game.corporations[0]))

    plain.corporations[0].cash = 2000
    for kind in (Bond, BuyEToken, BuyToken):
        assert offered(electric, kind), kind
        assert not offered(plain, kind), kind


def test_the_bond_penalty_hook() -> None:
    """§8: L.100 per share; seed 001 item 70: never more than the share price."""
    game = new(["bonds"])
    corp = game.corporations[0]
    cell = game.market.cell_by_id("68,4,2")
    assert cell is not None
    corp.share_price = cell
    assert s49.full_bond_penalty(corp) == 100
    assert s49.bond_penalty_floored(corp) == 68


def test_reduced_corporations_only_at_four_players_changes_the_game() -> None:
    """§7.2: four players with five corporations."""
    assert len(new(["reduced_4p_corps"], players=4).corporations) == 5
    assert len(new([], players=4).corporations) == 6


def test_requirements_are_checked_before_the_game_is_built() -> None:
    with pytest.raises(IllegalAction, match="option electric_dreams needs bonds"):
        new(["electric_dreams"])
