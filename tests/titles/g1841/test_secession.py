"""The Ferdinandea Secession (rules/1841.md 2.4.1; seed 000 items 1.15, 1.16, 2.12, 2.24,
2.25, 3.3; seed 003 H5): positions built with core functions, and the three 18xx.games
games' secessions replayed from their traces (action by action the same state)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from stellwerk.core.entities import Corporation, Train, move_share
from stellwerk.core.errors import IllegalAction
from stellwerk.titles.g1841 import frozen, secession
from stellwerk.titles.g1841.decisions import Decisions
from stellwerk.titles.g1841.game import Game1841

sys.path.insert(0, str(Path(__file__).parent))
from setup_helpers import answer, asked, new_game, operating, players, start
from trace_state import (
    FIXTURES,
    differences,
    fixture,
    live_actions,
    state_before,
    trace_lines,
)

DECLINE = {"share_offer": "no", "offer_again": "n", "pick_exchange_corp": "a", "buy_tokens": 0}

needs_fixtures = pytest.mark.skipif(not FIXTURES.exists(), reason="../shared fixtures absent")


def buy_first_four(game: Game1841, corp: Corporation) -> None:
    """``corp`` buys the first 4-train from the depot (phase 3 -> 4, 2s rust, events)."""
    while game.phases.name != "3":
        game.phases.advance()
    train = next(t for t in game.depot.upcoming if t.name == "4")
    corp.cash += train.price
    game.bank.cash -= train.price
    game.buy_train(corp, train, train.price)


def irsff_position(
    options: list[str] | None = None, pres_extra: int = 30, others: tuple[int, int] = (20, 10)
) -> Game1841:
    """IRSFF at 100 with p1 president (20 % + ``pres_extra``), p2 and p3 holding ``others``;
    SFTG operating first (price 144) so IRSFF has not operated."""
    game = new_game(3, options)
    p1, p2, p3 = players(game)
    holdings = {p1: pres_extra, p2: others[0], p3: others[1]}
    start(game, "IRSFF", "100,3,5", p1, {h: v for h, v in holdings.items() if v}, cash=215)
    start(game, "SFTG", "144,2,8", p2, {p3: 30}, cash=0)
    game.corporation("IRSFF").num_tokens = 4
    operating(game, game.corporation("SFTG"))
    return game


# -- the 18xx.games games -----------------------------------------------------------------
@needs_fixtures
@pytest.mark.parametrize(
    ("name", "buy", "last", "runs"),
    [
        ("1841_game_end_bank", 187, 195, False),
        ("1841_game_end_offboards", 218, 232, True),
        ("1841_game_end_bankrupt", 191, 198, True),
    ],
)
def test_fixture_secessions_match_the_trace(name: str, buy: int, last: int, runs: bool) -> None:
    """rules/1841.md 2.4.1, 5.5 item 6: each secession of the three games, from the 4-train
    purchase to its last decision, leaves the trace's state (cash, shares, presidents,
    prices, trains, tokens, bank) and asks whom the trace names; SB/SFL run in that OR only
    if IRSFF had not operated (seed 000 item 2.24)."""
    path = fixture(name)
    game, action = state_before(path, buy)
    lines = trace_lines(path)
    corp = game.corporation(str(action["entity"]))
    train = next(t for t in game.depot.upcoming if t.id == action["train"])
    game.buy_train(corp, train, int(action["price"]))
    step = game.round.step_of(Decisions)

    def check(action_id: int) -> None:
        assert differences(game, lines[action_id]) == [], action_id
        ids = [getattr(e, "id", getattr(e, "sym", None)) for e in step.active_entities()]
        if ids:
            assert ids == lines[action_id]["active"], action_id

    check(buy)
    for later in live_actions(path):
        if buy < int(later["id"]) <= last:
            step.process(later, game.entity(later))
            check(int(later["id"]))
    syms = [c.sym for c in game.round.entities]
    if name != "1841_game_end_bankrupt":  # its last token choice follows the Tuscan merge
        assert secession.under_way(game) is None
        assert ("SB" in syms and "SFL" in syms) is runs


# -- the automatic part -------------------------------------------------------------------
def test_faq_1_15_new_markers_take_irsffs_place_in_its_stack() -> None:
    """seed 000 item 1.15: SB and SFL go where IRSFF's marker was in its stack, even when not
    at the bottom (rules/1841.md 2.4.1)."""
    game = new_game(3)
    p1, p2, _ = players(game)
    start(game, "SFTN", "100,3,5", p2)
    start(game, "IRSFF", "100,3,5", p1, {p1: 30})
    start(game, "SFTG", "100,3,5", p2)
    operating(game)
    buy_first_four(game, game.corporation("SFTN"))
    cell = game.market.cell_by_id("100,3,5")
    assert cell is not None and cell.corporations == ["SFTN", "SB", "SFL", "SFTG"]
    assert game.corporation("SB").share_price is cell


def test_first_edition_minors_go_to_column_10() -> None:
    """rules/1841.md 2.4.1 (first edition): IRSFF right of column 10 -> SFV and SFL at column
    10 of the same row, appended to its stack; at most 2 tokens each."""
    game = new_game(3, ["version_1"])
    p1, p2, _ = players(game)
    start(game, "IRSFF", "216,1,11", p1, {p1: 30})
    start(game, "SFTG", "100,3,5", p2)
    game.corporation("IRSFF").num_tokens = 5
    operating(game)
    buy_first_four(game, game.corporation("SFTG"))
    cell = game.market.cell((1, 10))
    assert cell is not None and cell.corporations[-2:] == ["SFV", "SFL"]
    assert game.corporation("SFV").share_price is cell
    assert game.corporation("SFV").num_tokens == 2 and game.corporation("SFL").num_tokens == 2
    assert "IRSFF" not in game.market.cell((1, 11)).corporations  # type: ignore[union-attr]


def test_tokens_trains_cash_and_treasury_are_split() -> None:
    """rules/1841.md 2.4.1: Veneto tokens to SB, others to SFL, unplaced ones alternate (each
    at least 2); trains by name descending alternately SB, SFL; SFL floor(cash/10), SB the
    rest; treasury shares by price descending alternately, presidency moving along."""
    game = irsff_position()
    irsff = game.corporation("IRSFF")
    irsff.num_tokens = 5  # F8, F16 placed; three unplaced: SB, SFL, SB
    trains = [t for t in game.depot.upcoming if t.name in ("3",)][:2]
    for t in trains:
        game.depot.remove(t)
        t.owner = irsff
        irsff.trains.append(t)
    p1, _, _ = players(game)
    cgtf = start(game, "CGTF", "68,4,2", irsff, {irsff: 10, p1: 20})
    buy_first_four(game, game.corporation("SFTG"))
    sb, sfl = game.corporation("SB"), game.corporation("SFL")
    board = game.map.board
    assert board.token_hexes("SB") == ["F16"] and board.token_hexes("SFL") == ["F8"]
    assert (sb.num_tokens, sfl.num_tokens) == (3, 2)
    assert [t.name for t in sb.trains] == ["3"] and [t.name for t in sfl.trains] == ["3"]
    assert (sb.cash, sfl.cash) == (194, 21)
    # the president's certificate (worth most) goes to SB; p1 ties with SB at 20 % and, seated
    # first, takes the presidency, swapping his two shares with SB
    assert sb.percent_of("CGTF") == 20 and sfl.percent_of("CGTF") == 10
    assert cgtf.owner is p1 and cgtf.presidents_share in p1.shares_of("CGTF")


def test_treasury_shares_of_equal_value_split_in_reverse_definition_order() -> None:
    """rules/1841.md 2.4.1 (treasury shares by price descending, alternately SB, SFL) and
    1.2 (definition order): shares of equal value are dealt in the reverse of their
    corporations' definition order, whatever order IRSFF bought them in (18xx.games sorts
    its by-corporation list by value and reverses it; selfplay seed 505)."""
    game = new_game(3)
    p1, p2, _ = players(game)
    irsff = game.corporation("IRSFF")
    sb, sfl = game.corporation("SB"), game.corporation("SFL")
    ctda = start(game, "CTDA", "100,3,5", p1)
    cfcc = start(game, "CFCC", "100,3,5", p2)
    sflp = start(game, "SFLP", "144,2,8", p1)
    for corp in (sflp, ctda, cfcc):  # bought in this order; CFCC is defined before CTDA
        move_share(next(s for s in corp.treasury_shares() if not s.president), irsff)
    secession.split_treasury(game, irsff, sb, sfl)
    assert sb.percent_of("SFLP") == 20 and sb.percent_of("CFCC") == 10
    assert sfl.percent_of("CTDA") == 10 and sb.percent_of("CTDA") == 0


def test_treasury_split_leaves_other_holders_their_shares() -> None:
    """rules/1841.md 2.4.1 (IRSFF's treasury shares, by price descending, alternately to SB
    and SFL; the presidency moves along): only IRSFF's shares are dealt, every other holder
    keeps its percentage.  CGTF's president's certificate to SB ties SB with p2 at 20 %;
    p2, seated first, takes the presidency (swapping with SB); CGTF's 10 % later makes SB
    president again and p2 gets two ordinary shares back for the certificate (18xx.games
    swaps with the receiver only when the president's certificate itself moves; selfplay
    seed 607)."""
    game = new_game(3)
    _, p2, p3 = players(game)
    irsff = game.corporation("IRSFF")
    sb, sfl = game.corporation("SB"), game.corporation("SFL")
    cgtf = start(game, "CGTF", "100,3,5", irsff, {irsff: 10, p2: 20})
    ctda = start(game, "CTDA", "68,4,2", irsff, {irsff: 10, p3: 20})
    secession.split_treasury(game, irsff, sb, sfl)
    assert (p2.percent_of("CGTF"), sb.percent_of("CGTF")) == (20, 30)
    assert (p3.percent_of("CTDA"), sfl.percent_of("CTDA")) == (20, 30)
    assert cgtf.owner is sb and ctda.owner is sfl
    assert cgtf.presidents_share in sb.shares_of("CGTF")


def test_trains_alternate_by_name_descending() -> None:
    """rules/1841.md 2.4.1: trains sorted by name, largest first, alternately SB, SFL."""
    game = new_game(3)
    irsff = game.corporation("IRSFF")
    sb, sfl = game.corporation("SB"), game.corporation("SFL")
    for name, index in (("2", 0), ("5", 0), ("3", 0)):
        irsff.trains.append(Train(name, index, int(name), 0))
    secession.split_trains(irsff, sb, sfl)
    assert [t.name for t in sb.trains] == ["5", "2"] and [t.name for t in sfl.trains] == ["3"]


def test_skipped_when_irsff_has_not_floated() -> None:
    """rules/1841.md 2.4.1: without a floated IRSFF the secession does not happen; SB and SFL
    close."""
    game = new_game(3)
    p1, _, _ = players(game)
    start(game, "SFTG", "100,3,5", p1)
    operating(game)
    buy_first_four(game, game.corporation("SFTG"))
    assert game.corporation("SB").closed and game.corporation("SFL").closed
    assert game.procedures == []


# -- presidents and pairs -----------------------------------------------------------------
def test_president_with_40_percent_takes_both_presidencies() -> None:
    """rules/1841.md 2.4.1: IRSFF's president holding 40 % gives his president's certificate
    and two shares for both president's certificates."""
    game = irsff_position(pres_extra=30, others=(10, 10))
    p1, _, _ = players(game)
    buy_first_four(game, game.corporation("SFTG"))
    sb, sfl = game.corporation("SB"), game.corporation("SFL")
    assert sb.owner is p1 and sfl.owner is p1
    assert p1.percent_of("SB") == 20 and p1.percent_of("SFL") == 20
    question = asked(game)
    assert question is not None and question[:2] == (p1, "pick_exchange_corp")


def test_seed_003_h5_first_pair_takes_the_other_directorship() -> None:
    """seed 003 H5, rules/1841.md 2.4.1: IRSFF's president below 40 % chooses his president's
    certificate (asked of IRSFF's direct owner); the first holder with a pair (in order from
    him) takes the other one without being asked; a further pair -> one share of each."""
    game = irsff_position(pres_extra=10, others=(20, 20))
    p1, p2, p3 = players(game)
    buy_first_four(game, game.corporation("SFTG"))
    assert asked(game) == (p1, "pick_exchange_pres", ["a", "b"])
    with pytest.raises(IllegalAction):
        answer(game, p2, "a")
    answer(game, p1, "b")
    sb, sfl = game.corporation("SB"), game.corporation("SFL")
    assert sfl.owner is p1 and sb.owner is p2 and p2.percent_of("SB") == 20
    assert p3.percent_of("SB") == 10 and p3.percent_of("SFL") == 10


def test_faq_1_14_presidency_changes_at_concession_close_before_the_split() -> None:
    """seed 000 item 1.14, rules/1841.md 2.4 item 1: when the concessions close, IRSFF's
    presidency goes at once to the player holding most (p2, 40 %), so the split gives him
    both president's certificates; the old president's shares are exchanged as a pair and a
    single."""
    game = irsff_position(pres_extra=10, others=(40, 0))
    p1, p2, _ = players(game)
    game.company("IRSFF").owner = p1
    p1.companies.append(game.company("IRSFF"))
    buy_first_four(game, game.corporation("SFTG"))
    assert game.company("IRSFF").closed and p1.companies == []
    sb, sfl = game.corporation("SB"), game.corporation("SFL")
    assert sb.owner is p2 and sfl.owner is p2
    # p2 (40 % after the swap) gives all for both certificates; p1 (30 %): a pair, a single
    assert p2.percent_of("SB") == 20 and p2.percent_of("SFL") == 20
    assert p1.percent_of("SB") == 10 and p1.percent_of("SFL") == 10
    assert asked(game) == (p1, "pick_exchange_corp", ["a", "b"])


def test_nobody_with_a_pair_puts_the_other_presidency_in_the_pool() -> None:
    """rules/1841.md 2.4.1: with no pair the other president's certificate goes to the pool;
    that corporation then has no player at the end of its chain (frozen, 2.3.10)."""
    game = irsff_position(pres_extra=10, others=(10, 10))
    p1, _, _ = players(game)
    buy_first_four(game, game.corporation("SFTG"))
    answer(game, p1, "a")
    sfl = game.corporation("SFL")
    assert game.pool.percent_of("SFL") == 20 and sfl.owner is game.pool
    assert game.controller(sfl) is None  # frozen (rules/1841.md 2.3.9)


@pytest.mark.parametrize(
    ("options", "order"), [([], ["SFTG", "SFTC"]), (["exchange_order_by_value"], ["SFTC", "SFTG"])]
)
def test_seed_000_item_2_25_frozen_irsff_holders_exchange_in_value_order(
    options: list[str], order: list[str]
) -> None:
    """seed 000 item 2.25 ("im Falle von mehreren eingefrorenen Gesellschaften in
    Reihenfolge ihres Kurswertes"): frozen holders of IRSFF exchange after the pool, in
    definition order by default (18xx.games: SFTG at L.68 before SFTC at L.144), by share
    value with ``exchange_order_by_value``."""
    game = new_game(3, options)
    p1, p2, _ = players(game)
    irsff = start(game, "IRSFF", "100,3,5", p2, {p1: 10})
    frozen_ones = [
        start(game, "SFTG", "68,4,2", game.pool),
        start(game, "SFTC", "144,2,8", game.pool),
    ]
    for holder in [game.pool, *frozen_ones]:
        secession.move_share(next(s for s in irsff.treasury_shares() if not s.president), holder)
    frozen.update(game)
    assert all(frozen.is_frozen(game, c) for c in frozen_ones)
    keys = secession.exchange_holders(game, p2, irsff, 10)
    after_pool = keys[keys.index(secession.key_of(game.pool)) + 1 :]
    assert after_pool == [secession.key_of(game.corporation(sym)) for sym in order]


def test_faq_1_16_and_2_12_holders_decide_from_the_president_in_seat_order() -> None:
    """seed 000 items 1.16, 2.12; rules/1841.md 5.4: singles are decided from IRSFF's
    president clockwise, each player followed by his corporations (definition order; with
    ``exchange_order_by_value`` by share value = operating order), then the pool."""
    for options, order in (([], ["AFI", "CGTF"]), (["exchange_order_by_value"], ["CGTF", "AFI"])):
        game = new_game(3, options)
        p1, p2, p3 = players(game)
        irsff = start(game, "IRSFF", "100,3,5", p2, {p2: 30})
        start(game, "CGTF", "144,2,8", p3)
        start(game, "AFI", "68,4,2", p3)
        for sym in ("CGTF", "AFI"):
            game.corporation(sym).cash = 0
        holders = [p3, game.corporation("CGTF"), game.corporation("AFI"), p1]
        for holder in holders:
            secession.move_share(
                next(s for s in irsff.treasury_shares() if not s.president), holder
            )
        secession.move_share(irsff.treasury_shares()[-1], game.pool)
        operating(game)
        buy_first_four(game, game.corporation("AFI"))
        seen = []
        while (question := asked(game)) is not None and question[1] == "pick_exchange_corp":
            entity = question[0]
            seen.append(getattr(entity, "sym", getattr(entity, "id", None)))
            answer(game, entity, "a")
        # p2 (president, 50 %: both certificates and a single), p3 and his corporations, p1,
        # then the pool (decided by p2)
        assert seen == [2, 3, *order, 1, 2], options


def test_faq_2_25_frozen_holder_takes_sb_and_the_pool_pair_takes_an_open_presidency() -> None:
    """seed 000 item 2.25: a frozen corporation's single IRSFF share becomes an SB share
    without a question; an IRSFF pair in the pool takes an open president's certificate, which
    then lies in the pool (rules/1841.md 2.4.1)."""
    game = new_game(3)
    p1, p2, _ = players(game)
    irsff = start(game, "IRSFF", "100,3,5", p1, {p1: 10, game.pool: 20})
    icy = start(game, "CGTF", "68,4,2", game.pool)
    secession.move_share(next(s for s in irsff.treasury_shares() if not s.president), icy)
    start(game, "SFTG", "144,2,8", p2)
    frozen.update(game)
    operating(game, game.corporation("SFTG"))
    buy_first_four(game, game.corporation("SFTG"))
    answer(game, p1, "a")  # p1 (30 %) picks SB's presidency
    sfl = game.corporation("SFL")
    assert sfl.owner is game.pool and game.pool.percent_of("SFL") == 20
    # p1's single is asked; the frozen corporation's is automatic
    assert asked(game) == (p1, "pick_exchange_corp", ["a", "b"])
    answer(game, p1, "b")
    assert icy.percent_of("SB") == 10 and icy.percent_of("IRSFF") == 0


def test_faq_3_3_unmatched_holders_are_paid_out() -> None:
    """seed 000 item 3.3 (``secession_payout_unmatched``): holders left with a single IRSFF
    share are paid IRSFF's value by the bank instead of exchanging it; no question."""
    game = irsff_position(["secession_payout_unmatched"], pres_extra=30, others=(10, 10))
    _, p2, p3 = players(game)
    cash = (p2.cash, p3.cash)
    bank = game.bank.cash
    buy_first_four(game, game.corporation("SFTG"))
    assert (p2.cash, p3.cash) == (cash[0] + 100, cash[1] + 100)
    assert game.bank.cash == bank - 300  # p1 has a single too; the 4 came from the bank
    assert p2.percent_of("SB") == p2.percent_of("SFL") == 0
    question = asked(game)
    assert question is None or question[1] != "pick_exchange_corp"


# -- offers, tokens, the end --------------------------------------------------------------
def test_offers_offer_again_and_tokens() -> None:
    """rules/1841.md 2.4.1: one offer round for SB, one for SFL (``yes`` buys an IPO share at
    the market price), then the corporations are asked for further rounds while someone can
    buy; then SB and SFL may buy tokens at L.50 up to 5 (second edition)."""
    game = irsff_position(pres_extra=20, others=(0, 0))
    p1, _, _ = players(game)
    p1.cash = 250
    buy_first_four(game, game.corporation("SFTG"))
    sb, sfl = game.corporation("SB"), game.corporation("SFL")
    assert asked(game) == (p1, "share_offer", ["yes", "no"])
    answer(game, p1, "yes")
    assert p1.cash == 150 and sb.cash == 194 + 100
    assert asked(game) == (p1, "share_offer", ["yes", "no"])  # SFL's round
    answer(game, p1, "no")
    assert asked(game) == (sb, "offer_again", ["y", "n"])
    answer(game, sb, "n")
    assert asked(game) == (sfl, "offer_again", ["y", "n"])
    answer(game, sfl, "y")
    answer(game, p1, "yes")
    assert p1.cash == 50
    # nobody can buy any more: SB's tokens (2 now, cash 294 -> at most 3 more)
    assert asked(game) == (sb, "buy_tokens", [0, 1, 2, 3])
    with pytest.raises(IllegalAction):
        answer(game, sb, 4)
    answer(game, sb, 2)
    assert sb.num_tokens == 4 and sb.cash == 194
    assert asked(game) == (sfl, "buy_tokens", [0, 1, 2])
    answer(game, sfl, 0)
    assert asked(game) is None and game.corporation("IRSFF").closed


def test_faq_2_24_sb_and_sfl_operate_if_irsff_had_not() -> None:
    """seed 000 item 2.24: if IRSFF has not operated this OR, SB and SFL take its place (SB,
    then SFL); if it has (or bought the 4-train), they do not operate in it."""
    game = irsff_position(pres_extra=20, others=(0, 0))
    game.settings = type(game.settings)(secession_token_purchase=False)
    buy_first_four(game, game.corporation("SFTG"))
    while (question := asked(game)) is not None:
        answer(game, question[0], DECLINE[question[1]])
    assert [c.sym for c in game.round.entities] == ["SFTG", "SB", "SFL"]

    game = irsff_position(pres_extra=20, others=(0, 0))
    game.settings = type(game.settings)(secession_token_purchase=False)
    operating(game, game.corporation("IRSFF"))
    buy_first_four(game, game.corporation("IRSFF"))
    while (question := asked(game)) is not None:
        answer(game, question[0], DECLINE[question[1]])
    assert [c.sym for c in game.round.entities] == ["SFTG", "IRSFF"]
    assert game.corporation("IRSFF").closed


def test_first_edition_token_cap_keeps_the_first_tokens_in_charter_order() -> None:
    """rules/1841.md 2.4.1 (first edition): SFV and SFL take at most 2 of IRSFF's map tokens
    each, in IRSFF's charter order (18xx.games walks its tokens); a token beyond the cap stays
    IRSFF's, on the map also after IRSFF closes at the end of the secession (18xx.games'
    closing removes no token; random game 4 players seed 118 places beside it).  Milano,
    Venezia, then E9, D16, D8: SFL keeps F8 and E9, not D8 (which comes first on the
    board)."""
    game = new_game(4, ["version_1"])
    irsff = start(game, "IRSFF", "100,3,5", game.players[0])
    board = game.map.board
    for hid in ("E9", "D16", "D8"):
        board.place_token_at(hid, 0, "IRSFF")
    irsff.num_tokens = 5
    game.token_order["IRSFF"] = ["F8", "F16", "E9", "D16", "D8"]
    sfv, sfl = game.corporation("SFV"), game.corporation("SFL")
    secession.split_tokens(game, irsff, sfv, sfl)
    assert board.token_hexes("SFL") == ["E9", "F8"]
    assert board.token_hexes("SFV") == ["D16", "F16"]
    assert board.token_hexes("IRSFF") == ["D8"]
    assert game.token_order["SFL"] == ["F8", "E9"]
    secession.Seceding("IRSFF", "SFV", "SFL", "").finish(game)
    assert irsff.closed and board.token_hexes("IRSFF") == ["D8"]


def test_a_single_share_exchange_takes_the_first_certificate_left() -> None:
    """rules/1841.md 2.4.1 as 18xx.games exchanges: a holder's IRSFF share becomes the first
    certificate lying in the new corporation's treasury, whichever it is, so once its
    ordinary certificates are gone the president's certificate left there is given (and its
    presidency with it) -- the engine used to look only for an ordinary one and failed
    (selfplay seed 6 with ``version_1`` and ``lite``, action 529)."""
    game = new_game(3, ["version_1"])
    _, p2, _ = players(game)
    sfl = game.corporation("SFL")
    cell = game.market.cell_by_id("100,3,5")
    assert cell is not None
    game.set_par(sfl, cell)
    ordinary = [s for s in sfl.treasury_shares() if not s.president]
    for share in ordinary:
        move_share(share, game.pool)
    assert [s.president for s in sfl.treasury_shares()] == [True]
    secession.give_new(game, sfl, p2)
    assert not sfl.treasury_shares()
    assert sfl.presidents_share is not None and sfl.presidents_share.owner is p2
    assert sfl.owner is p2


def test_a_president_certificate_exchanged_into_the_pool_makes_the_pool_president() -> None:
    """rules/1841.md 2.4.1 as 18xx.games exchanges: the pool's single IRSFF share becomes
    the first certificate in SFL's treasury -- its president's certificate -- and with
    nobody holding as much SFL the pool is its president ("enters receivership"; frozen,
    2.3.9), not nobody (selfplay lite 5 players seed 415, action 1120).  A player given it
    the same way becomes president (the case above)."""
    game = new_game(5, ["lite"])
    sfl = game.corporation("SFL")
    cell = game.market.cell_by_id("100,3,5")
    assert cell is not None
    game.set_par(sfl, cell)
    assert sfl.treasury_shares()[0].president
    secession.give_new(game, sfl, game.pool)
    assert game.pool.percent_of("SFL") == 20
    assert sfl.presidents_share is not None and sfl.presidents_share.owner is game.pool
    assert sfl.owner is game.pool
    assert game.controller(sfl) is None
