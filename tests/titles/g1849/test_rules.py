"""1849 rules, one test each, citing rules/1849.md."""

from __future__ import annotations

import pytest

from stellwerk.api import Game
from stellwerk.core.errors import IllegalAction
from stellwerk.titles.g1849.entities import c49
from stellwerk.titles.g1849.game import Game1849

PLAYERS3 = [(1, "A"), (2, "B"), (3, "C")]


def new(options: list[str] | None = None, seed: int = 27939, players: int = 3) -> Game1849:
    ps = [(i, f"P{i}") for i in range(1, players + 1)]
    return Game1849(ps, options or [], seed)


def test_corporation_order_seed_27939() -> None:
    """§1.3: one draw per corporation in definition order, sorted; 3 players drop the last."""
    game = new(seed=27939)
    assert [c.sym for c in game.corporations] == ["SFA", "IFT", "ATA", "CTL", "AFG"]


def test_corporation_order_delay_ift() -> None:
    """§1.3 / §7.1: delay_ift swaps IFT out of the first three places."""
    assert [c.sym for c in new(["delay_ift"], seed=814263386).corporations] == [
        "RCS",
        "ATA",
        "SFA",
        "IFT",
        "AFG",
    ]
    assert [c.sym for c in new(seed=814263386, players=5).corporations] == [
        "RCS",
        "IFT",
        "SFA",
        "ATA",
        "AFG",
        "CTL",
    ]


def test_reduced_corporations_at_four_players() -> None:
    """§7.2: four players with five corporations: cert limit 9, fewer 6H/8H/16H."""
    game = new(["reduced_4p_corps"], players=4)
    assert len(game.corporations) == 5
    assert game.cert_limit() == 9
    assert game.depot.counts()["6H"] == 3
    assert new(players=4).cert_limit() == 11


def test_starting_cash_and_bank() -> None:
    """§1.1: L.500 each at three players, paid from the L.7760 bank; bank_8040 option."""
    game = new()
    assert [p.cash for p in game.players] == [500, 500, 500]
    assert game.bank.cash == 7760 - 1500
    assert new(["bank_8040"]).bank.cash == 8040 - 1500


def test_electric_dreams_needs_bonds_and_tokens() -> None:
    """§7.5: electric_dreams requires bonds and acquiring_station_tokens."""
    with pytest.raises(IllegalAction):
        new(["electric_dreams"])
    game = new(["bonds", "acquiring_station_tokens", "electric_dreams"])
    assert game.depot.counts()["E"] == 6


def test_blue_zone_right_move_goes_up_before_16h() -> None:
    """§4.8: before 16H a right move from 218 becomes an up move (to 240)."""
    game = new()
    cell = next(c for row in game.market.rows for c in row if c and c.price == 218)
    target = game.market.cell(game.market.right(cell.coordinates))
    assert target is not None and target.price == 240


def test_up_move_from_230_blocked_before_16h() -> None:
    """§4.8: an up move from 230 is blocked before 16H."""
    game = new()
    cell = next(c for row in game.market.rows for c in row if c and c.price == 230)
    assert game.market.up(cell.coordinates) == cell.coordinates


def test_first_to_bid_on_cheapest_buys_it() -> None:
    """§1.5: the cheapest private is bought at its price."""
    g = Game.create("1849", PLAYERS3, [], 27939)
    g.process({"type": "bid", "entity": 1, "entity_type": "player", "company": "SCE", "price": 20})
    assert g.engine.company("SCE").owner is g.engine.players[0]
    assert g.engine.players[0].cash == 480


def test_bid_below_minimum_is_refused_and_changes_nothing() -> None:
    """§1.5: a bid on another private must be at least face value + 5; refusal leaves state."""
    g = Game.create("1849", PLAYERS3, [], 27939)
    before = g.snapshot()
    with pytest.raises(IllegalAction) as err:
        g.process(
            {"type": "bid", "entity": 1, "entity_type": "player", "company": "SMS", "price": 110}
        )
    assert "minimum" in err.value.reason
    assert g.snapshot() == before
    assert g.actions == []


def test_rsa_buyer_pars_first_corporation() -> None:
    """§1.4: RSA carries the first corporation's president's certificate; the bank pays the
    corporation twice the par, which pays its token fee."""
    g = Game.create("1849", PLAYERS3, [], 27939)
    eng = g.engine
    for sym, price in [("SCE", 20), ("SIGI", 45), ("CNM", 75), ("SMS", 110), ("RSA", 150)]:
        entity = g.active_entities()[0]
        g.process(
            {
                "type": "bid",
                "entity": entity,
                "entity_type": "player",
                "company": sym,
                "price": price,
            }
        )
    buyer = eng.company("RSA").owner
    assert buyer is not None
    g.process(
        {
            "type": "par",
            "entity": buyer.id,
            "entity_type": "player",
            "corporation": "SFA",
            "share_price": "100,3,5",
        }
    )
    sfa = eng.corporation("SFA")
    assert sfa.floated and sfa.owner is buyer
    assert sfa.cash == 200 - 40


def test_withheld_dividend_moves_left() -> None:
    """§4.4: withheld or zero: left; paid at least the price: right; below: no move."""
    game = new()
    corp = game.corporations[0]
    cell = game.market.cell_by_id("100,3,5")
    assert cell is not None
    game.set_par(corp, cell)
    game.dividend_price_move(corp, 0)
    assert corp.share_price is not None and corp.share_price.price == 90
    game.dividend_price_move(corp, 50)
    assert corp.share_price.price == 90
    game.dividend_price_move(corp, 90)
    assert corp.share_price.price == 100


def test_private_price_half_to_double_option() -> None:
    """Seed 001 items 10/33: corporations pay half to double face value (18xx.games: 1)."""
    assert new().company("SMS").min_price == 1
    half = new(["private_price_half_to_double"])
    assert half.company("SMS").min_price == 55
    assert half.company("SCE").min_price == 10
    assert half.company("SMS").max_price() == 220


def test_bond_penalty_and_floor_option() -> None:
    """§8 / seed 001 item 70: L.100 less per share of a corporation with a bond out; with
    bond_penalty_floor_zero a share is never worth less than 0."""
    cases = ((["bonds"], 68 - 100), (["bonds", "bond_penalty_floor_zero"], 0))
    for options, expected_per_share in cases:
        game = new(options)
        corp = game.corporations[0]
        cell = game.market.cell_by_id("68,4,2")
        assert cell is not None
        game.set_par(corp, cell)
        corp.ipoed = True
        player = game.players[0]
        from stellwerk.core.shares import Bundle

        share = corp.treasury_shares()[1]
        game.transfer_shares(Bundle.of([share], corp), player)
        base = game.player_value(player)
        c49(corp).bond = True
        assert game.player_value(player) - base == expected_per_share - 68


def test_one_e_train_per_corporation_option() -> None:
    """Seed 001 item 52: at most one E-train per corporation (option)."""
    opts = ["bonds", "acquiring_station_tokens", "electric_dreams"]
    for extra, allowed in (([], True), (["one_e_train_per_corporation"], False)):
        game = new([*opts, *extra])
        while game.phases.name != "12H":
            game.phases.advance()
        corp = game.corporations[0]
        c49(corp).e_token = True
        e_train = next(t for t in game.depot.trains if t.name == "E")
        game.depot.remove(e_train)
        corp.trains.append(e_train)
        e_train.owner = corp
        assert any(t.name == "E" for t in game.depot_trains_for(corp)) is allowed


def test_end_after_current_or_option() -> None:
    """Seed 001 items 67-68: the game ends after the current OR, not the OR set."""
    for options, ends in (([], False), (["end_after_current_or"], True)):
        game = new(options)
        game.round = game.new_operating_round(1)
        game.operating_rounds = 3
        assert game.end_now("full_or") is ends


def test_gauge_change_cities_only_option_binds_the_hook() -> None:
    """Seed 001 item 41: with the option the route check refuses gauge changes at towns."""
    from stellwerk.titles.g1849.rules.routes import check_route, check_route_cities_only

    assert new().route_rules.check is check_route
    assert new(["gauge_change_cities_only"]).route_rules.check is check_route_cities_only


def test_manual_end_game_action() -> None:
    """Common rules §4.2: an ``end_game`` action ends the game as manually_ended."""
    g = Game.create("1849", PLAYERS3, [], 27939)
    g.process({"type": "end_game", "entity": 1, "entity_type": "player"})
    assert g.finished and g.game_end_reason == "manually_ended"
    assert set(g.result) == {"1", "2", "3"}
