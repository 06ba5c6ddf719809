"""Price moves, the operating order, the train obligation and frozen corporations' turns
(rules/1841.md 1.2, 2.3.1, 2.3.6, 2.3.7, 2.3.10; seed 000 items 1.6, 2.13, 2.20, 2.23, 5.7)
on positions built with core functions."""

from __future__ import annotations

import pytest

from stellwerk.core.entities import Corporation, move_share
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.titles.g1841 import frozen, trains
from stellwerk.titles.g1841.corporate import CorporateShares
from stellwerk.titles.g1841.decisions import Decisions
from stellwerk.titles.g1841.game import Game1841

from .setup_helpers import new_game, start


def set_phase(game: Game1841, name: str) -> None:
    game.phases.index = next(i for i, p in enumerate(game.phases.all) if p.name == name)
    game.map.set_phase(name)


def at(corp: Corporation) -> str:
    assert corp.share_price is not None
    return corp.share_price.id


# -- price moves (rules/1841.md 2.3.6) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("phase", "cell", "after"),
    [
        ("3", "328,1,15", "377,0,15"),  # an n cell before the first 8-train: up instead
        ("7", "284,3,15", "298,2,15"),
        ("3", "377,0,15", "377,0,15"),  # top row: up is not possible, no move
        ("8", "328,1,15", "365,1,16"),  # with the 8-train (phase 8) right again
    ],
)
def test_seed_000_item_1_6_no_right_move_off_an_n_cell_before_the_8_train(
    phase: str, cell: str, after: str
) -> None:
    """seed 000 item 1.6, rules/1841.md 2.3.6: where the price cannot move right because no
    8-train has been bought (the ``n`` cells of column 15), it moves up if possible."""
    game = new_game()
    set_phase(game, phase)
    corp = start(game, "SFTG", cell, game.players[0])
    game.dividend_price_move(corp, 1000)
    assert at(corp) == after


@pytest.mark.parametrize(
    ("paid", "after"),
    [(0, "90,3,4"), (99, "100,3,5"), (100, "100,3,5"), (101, "111,3,6"), (500, "111,3,6")],
)
def test_seed_000_item_5_7_the_price_rises_only_if_the_payout_exceeds_it(
    paid: int, after: str
) -> None:
    """seed 000 item 5.7 (common mistake), rules/1841.md 2.3.6: a payout above the share
    price moves it one column right; a payout up to the price leaves it; nothing paid (or
    withheld) moves it left."""
    game = new_game()
    set_phase(game, "3")
    corp = start(game, "SFTG", "100,3,5", game.players[0])
    game.dividend_price_move(corp, paid)
    assert at(corp) == after


# -- the operating order (rules/1841.md 2.3.1) ----------------------------------------------


def test_seed_000_item_2_13_share_sales_change_the_order_during_the_round() -> None:
    """seed 000 item 2.13, rules/1841.md 2.3.1, 2.3.8: SFTG (L.144) operates first and sells
    its 20 % of SFTC (L.111 -> two rows down, L.96); SFTC now comes after AFI (L.105), which
    was behind it when the round began."""
    game = new_game()
    p1, p2, p3 = game.players
    set_phase(game, "3")
    sftg = start(game, "SFTG", "144,2,8", p1, cash=100)
    sftc = start(game, "SFTC", "111,3,6", p2, {sftg: 20})
    afi = start(game, "AFI", "105,2,5", p3)
    game.operated_corps |= {"SFTG", "SFTC", "AFI"}
    rnd = OperatingRound(game, [Decisions, CorporateShares], 1)
    game.round = rnd
    assert rnd.entities == [sftg, sftc, afi]
    rnd.current_operator = sftg
    step = rnd.step_of(CorporateShares)
    assert isinstance(step, CorporateShares)
    shares = [s.id for s in sftg.shares_of("SFTC")]
    step.process(
        {"type": "sell_shares", "entity": "SFTG", "entity_type": "corporation",
         "shares": shares, "percent": 20},
        sftg,
    )  # fmt: skip
    step.settle()
    assert at(sftc) == "96,5,6"
    assert rnd.entities == [sftg, afi, sftc]


# -- the train obligation (rules/1841.md 1.2, 2.3.7) ----------------------------------------


def test_seed_000_item_2_20_seven_8_trains_then_no_train_obligation() -> None:
    """seed 000 item 2.20, rules/1841.md 1.2, 2.3.7: there are exactly seven 8-trains; a
    corporation with a route and no train must buy one while the depot has trains, and is
    free of the obligation once all are sold."""
    game = new_game()
    assert [t.name for t in game.depot.upcoming].count("8") == 7
    set_phase(game, "3")
    afi = start(game, "AFI", "100,3,5", game.players[0])
    board = game.map.board
    board.place_token_at("M7", 0, "AFI")
    board.lay_tile("M7", "612-0", 0)
    board.lay_tile("N6", "4-0", 1)  # Savona, a town: Genova has a route
    game.map.clear_graphs()
    assert not afi.trains and trains.must_buy(game, afi)
    for train in list(game.depot.upcoming):
        game.depot.remove(train)
    assert not game.depot.depot_trains(game.phases)
    assert not trains.must_buy(game, afi)


# -- frozen corporations (rules/1841.md 2.3.10) ---------------------------------------------


@pytest.mark.parametrize("printed", [True, False])
def test_seed_000_item_2_23_circular_corporations_are_frozen_and_sell_at_full_value(
    printed: bool,
) -> None:
    """seed 000 item 2.23, rules/1841.md 2.3.10 (option ``circular_frozen_sells``): SFTG
    presides SFTC and SFTC presides SFTG, so both are frozen.  At its turn SFTG moves two
    columns left and sells all it holds of its controlling chain -- SFTC's director's
    certificate, at full value (2 x L.100, not the emergency half) -- but keeps shares of
    corporations outside the chain (AFI).  By default, as 18xx.games (its defect L: it finds
    the share pool as a looping chain's controller, so it marks no corporation circular),
    SFTG only moves its price (random selfplay p2p 4 players seed 906, SFTC at action 1130)."""
    game = new_game(options=["circular_frozen_sells"] if printed else [])
    p1, p2, p3 = game.players
    set_phase(game, "3")
    sftg = start(game, "SFTG", "144,2,8", p1, {p2: 20}, cash=50)
    sftc = start(game, "SFTC", "100,3,5", sftg, {p3: 10})
    start(game, "AFI", "100,3,5", p3, {sftg: 10})
    pres = sftg.presidents_share
    assert pres is not None
    move_share(pres, sftc)
    game.set_president(sftg, sftc)
    frozen.update(game)
    assert frozen.is_frozen(game, sftg) and frozen.is_circular(game, sftg) is printed
    assert frozen.is_frozen(game, sftc) and frozen.is_circular(game, sftc) is printed
    frozen.frozen_operation(game, sftg)
    assert at(sftg) == "117,2,6"
    if not printed:
        assert sftg.cash == 50 and sftg.percent_of("SFTC") == 20
        return
    assert sftg.cash == 50 + 2 * 100
    assert sftg.percent_of("SFTC") == 0 and game.pool.percent_of("SFTC") == 20
    assert sftg.percent_of("AFI") == 10


@pytest.mark.parametrize(("options", "drops"), [([], 2), (["corp_foreign_sale_no_drop"], 0)])
def test_seed_003_h2_a_circular_corporations_sale_of_its_controller_moves_no_price(
    options: list[str], drops: int
) -> None:
    """seed 003 H2 ("Wenn Firmen Fremdaktien verkaufen, so sinkt der Kurs nicht"), seed 000
    item 2.23: the circular corporation's sale of its controller's certificate is a
    corporation's sale of another corporation's shares, so under the house rule SFTC's price
    stays; by default the 20 % certificate drops it two rows."""
    game = new_game(options=["circular_frozen_sells", *options])
    p1, p2, p3 = game.players
    set_phase(game, "3")
    sftg = start(game, "SFTG", "144,2,8", p1, {p2: 20}, cash=50)
    sftc = start(game, "SFTC", "100,3,5", sftg, {p3: 10})
    pres = sftg.presidents_share
    assert pres is not None
    move_share(pres, sftc)
    game.set_president(sftg, sftc)
    frozen.update(game)
    before = sftc.share_price
    assert before is not None
    frozen.frozen_operation(game, sftg)
    after = sftc.share_price
    assert after is not None and after.row - before.row == drops
    assert sftg.cash == 50 + 2 * 100 and game.pool.percent_of("SFTC") == 20


@pytest.mark.parametrize(("other", "president"), [(10, "pool"), (20, "p3")])
def test_seed_000_item_2_23_after_the_circular_sale_the_certificate_decides_the_president(
    other: int, president: str
) -> None:
    """seed 000 item 2.23, rules/1841.md 2.2.1, 2.3.10: once circular SFTG has sold SFTC's
    director's certificate to the pool, SFTG no longer presides SFTC.  If nobody holds 20 %
    of SFTC the certificate stays in the pool and so does the presidency (SFTC frozen, its
    chain ends in the pool; 18xx.games: receivership); a player holding 20 % takes it over."""
    game = new_game(options=["circular_frozen_sells"])
    p1, p2, p3 = game.players
    set_phase(game, "4")
    sftg = start(game, "SFTG", "144,2,8", p1, {p2: 20}, cash=50)
    sftc = start(game, "SFTC", "100,3,5", sftg, {p3: other})
    pres = sftg.presidents_share
    assert pres is not None
    move_share(pres, sftc)
    game.set_president(sftg, sftc)
    frozen.update(game)
    frozen.frozen_operation(game, sftg)
    expected = game.pool if president == "pool" else p3
    assert sftc.owner is expected
    assert sftc.presidents_share is not None and sftc.presidents_share.owner is expected
    assert frozen.is_frozen(game, sftc) is (president == "pool")
