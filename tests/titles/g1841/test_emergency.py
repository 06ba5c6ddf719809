"""Emergency money (rules/1841.md 2.3.7; seed 000 items 1.13, 2.21, 2.22, 5.6; seed 003 H8,
H11; token EMR 2.3.12, seed 000 item 2.5): the 18xx.games games' EMR turns replayed from
their traced positions, action by action the same state and the same offers, and each rule
and option on those positions."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from emr_position import play, position
from setup_helpers import new_game, players, start
from trace_state import FIXTURES, snapshot

from stellwerk.core.entities import Corporation, Player
from stellwerk.core.errors import IllegalAction
from stellwerk.core.legal import legal_actions
from stellwerk.core.live import check_live
from stellwerk.titles.g1841 import emergency
from stellwerk.titles.g1841.game import Game1841
from stellwerk.titles.g1841.trains import BuyTrain1841

needs_fixtures = pytest.mark.skipif(not FIXTURES.exists(), reason="../shared fixtures absent")

BANK = "1841_game_end_bank"
BANKRUPT = "1841_game_end_bankrupt"


def sales(game: object, entity: object) -> list[tuple[str, int, object]]:
    """(corporation, percent, share_price) of the listed sales of ``entity``."""
    return [
        (a["shares"][0].rsplit("_", 1)[0], a["percent"], a["share_price"])
        for a in legal_actions(game)
        if a["type"] == "sell_shares" and a["entity"] == entity
    ]


# -- the fixtures ----------------------------------------------------------------------------
@needs_fixtures
@pytest.mark.parametrize(
    ("name", "first", "last", "operator", "unoperated"),
    [
        (BANK, 246, 250, "SB", ("SB",)),  # formed in the secession, its first OR
        (BANKRUPT, 330, 333, "SFLi", ()),
        ("1841_game_end_offboards", 400, 402, "CGTF", ()),
    ],
)
def test_fixture_emr_turns_match_the_trace(
    name: str, first: int, last: int, operator: str, unoperated: tuple[str, ...]
) -> None:
    """rules/1841.md 2.3.7 (reviewed EMR details): the corporation sells others' shares,
    then its own IPO shares, then the president sells; half price rounded up; the sweeps
    (e.g. L.34 from Player 4 to SB); the cheapest depot train; each action offered and each
    state equal to the trace, also after the turn ends."""
    game, path = position(name, first, operator, unoperated=unoperated)
    assert play(game, path, first, last) == []


@needs_fixtures
def test_2_3_7_treasury_shares_of_others_before_own_ipo_and_no_player_yet() -> None:
    """rules/1841.md 2.3.7: SB holds SFTC and its own IPO shares: only the SFTC share is
    offered, the president Player 4 is offered nothing, SB may not pass."""
    game, _ = position(BANK, 246, "SB")
    assert sales(game, "SB") == [("SFTC", 10, 34.5)]
    assert sales(game, 8229) == []
    assert not any(a["type"] == "pass" for a in legal_actions(game))


@needs_fixtures
def test_2_3_7_no_overselling_of_the_corporations_bundles() -> None:
    """rules/1841.md 2.3.7 "No overselling": SB's IPO shares bring L.50 each; with L.120
    missing all three may go (the third is needed), with L.100 missing only two (the third
    would not be needed)."""
    game, _ = position(BANK, 247, "SB")
    sb = game.corporation("SB")
    for cash, percents in ((680, [10, 20, 30]), (700, [10, 20])):
        sb.cash = cash
        game.changing()
        assert [p for c, p, _ in sales(game, "SB") if c == "SB"] == percents


@needs_fixtures
def test_2_3_7_live_gate_takes_the_listed_sale_and_refuses_an_oversale() -> None:
    """rules/1841.md 2.3.7 "No overselling", live: with L.100 missing SB's 20 % of its IPO
    passes the gate (as 18xx.games writes it, ``share_price`` 50), its 30 % is refused."""
    game, _ = position(BANK, 247, "SB")
    game.corporation("SB").cash = 700
    game.changing()
    ipo = [s.id for s in game.corporation("SB").shares_of("SB")]
    sale = {"type": "sell_shares", "entity": "SB", "entity_type": "corporation"}
    check_live(game, {**sale, "shares": ipo[:2], "percent": 20, "share_price": 50})
    with pytest.raises(IllegalAction):
        check_live(game, {**sale, "shares": ipo[:3], "percent": 30, "share_price": 50})


@needs_fixtures
def test_seed_000_1_13_president_keeps_the_buyers_presidency_but_may_sell_others() -> None:
    """seed 000 item 1.13 / rules/1841.md 2.3.7 (emr_can_sell?): Player 4, president of
    SB (the buyer), keeps his president's certificate and as much as the next holder; but
    SFL's president's certificate (outside SB's chain, phase 5) may go to the pool."""
    game, _ = position(BANK, 248, "SB")
    offered_sales = sales(game, 8229)
    assert ("SFL", 20, 55.5) in offered_sales
    assert max(p for c, p, _ in offered_sales if c == "SB") == 30
    player = game.player_by_id(8229)
    sb = game.corporation("SB")
    assert all(
        b.presidents_share is None
        for b in emergency.player_bundles(game, player, sb)
        if b.corporation is sb
    )


@needs_fixtures
def test_2_3_7_the_player_may_not_sell_first_live() -> None:
    """rules/1841.md 2.3.7 ("Which seller acts"): live, Player 4 may not sell before SB has
    sold what it can; the refusal changes nothing.  (A file's early sale replays: 18xx.games'
    engine takes a president's sale whenever the corporation must buy.)"""
    game, _ = position(BANK, 246, "SB")
    before = snapshot(game)
    share = game.player_by_id(8229).shares_of("SFTG")[0]
    sale = {"type": "sell_shares", "entity": 8229, "entity_type": "player"}
    with pytest.raises(IllegalAction):
        check_live(game, {**sale, "shares": [share.id], "percent": 10, "share_price": 34.5})
    assert snapshot(game) == before


@needs_fixtures
def test_seed_003_h11_after_emr_only_the_cheapest_depot_train() -> None:
    """seed 003 H11 / rules/1841.md 2.3.7: once EMR started (a sale), no train from another
    corporation: only the cheapest depot train is offered and another is refused."""
    game, path = position(BANK, 246, "SB")
    trains_before = {a["train"] for a in legal_actions(game) if a["type"] == "buy_train"}
    assert any(not t.startswith("6") for t in trains_before)  # others' trains at first
    play(game, path, 246, 246)
    listed = [a for a in legal_actions(game) if a["type"] == "buy_train"]
    assert listed == []  # L.452 of L.800: the cheapest needs the sales first
    play(game, path, 247, 249)
    listed = [a["train"] for a in legal_actions(game) if a["type"] == "buy_train"]
    assert listed == ["6-1"]
    other = next(t for t in game.corporation("SFTG").trains)
    step = game.round.step_of(BuyTrain1841)
    with pytest.raises(IllegalAction, match="H11"):
        step.process(
            {"type": "buy_train", "entity": "SB", "train": other.id, "price": 1},
            game.corporation("SB"),
        )


@needs_fixtures
def test_faq_2_22_further_trains_after_the_emr_train() -> None:
    """seed 000 item 2.22: after the EMR train a corporation with money left may buy more,
    also from other corporations (18xx.games resets its EMR flag after the purchase)."""
    game, path = position(BANK, 246, "SB")
    play(game, path, 246, 249)
    sb = game.corporation("SB")
    step = game.round.step_of(BuyTrain1841)
    step.process({"type": "buy_train", "entity": "SB", "train": "6-1", "price": 800}, sb)
    assert step.emr_triggered is False
    game.bank.cash -= 500
    sb.cash += 500
    game.changing()
    others = [t for t in step.buyable_trains(sb) if t.owner is not game.depot]
    assert others


@needs_fixtures
def test_seed_000_2_21_half_price_total_rounded_down() -> None:
    """seed 000 item 2.21 (``emr_round_down``): SB's SFTC share at L.69 brings L.34, not the
    L.35 of 18xx.games' rounding up."""
    for options, paid in (((), 35), (("emr_round_down",), 34)):
        game, path = position(BANK, 246, "SB", options=options)
        cash = game.corporation("SB").cash
        play(game, path, 246, 246)
        assert game.corporation("SB").cash - cash == paid


@needs_fixtures
def test_seed_003_h2_emergency_sale_of_another_corporations_share_moves_no_price() -> None:
    """seed 003 H2 (``corp_foreign_sale_no_drop``, part of the zugzwang house rules): "Wenn
    Firmen Fremdaktien verkaufen, so sinkt der Kurs nicht" -- with no exception for
    emergency money.  SB's emergency sale of its SFTC share leaves SFTC's price where it was;
    by default (18xx.games) it drops a row.  SB's sale of its own IPO shares still drops SB's
    price (H2: "Wenn Firmen eigene Aktien verkaufen sinkt der Kurs sehr wohl")."""
    for options, drops in (((), 1), (("corp_foreign_sale_no_drop",), 0), (("zugzwang",), 0)):
        game, path = position(BANK, 246, "SB", options=options)
        sftc = game.corporation("SFTC")
        before = sftc.share_price
        assert before is not None
        play(game, path, 246, 246)
        after = sftc.share_price
        assert after is not None and after.row - before.row == drops, options
    game, path = position(BANK, 246, "SB", options=("corp_foreign_sale_no_drop",))
    sb = game.corporation("SB")
    play(game, path, 246, 246)
    own = [(c, p) for c, p, _ in sales(game, "SB") if c == "SB"]
    assert own, "SB offers its own IPO shares next"
    price = sb.share_price
    assert price is not None
    share = next(s for s in sb.treasury_shares() if not s.president)
    game.process_action(
        {
            "type": "sell_shares",
            "entity": "SB",
            "entity_type": "corporation",
            "shares": [share.id],
            "percent": own[0][1],
            "share_price": next(p for c, _, p in sales(game, "SB") if c == "SB"),
        }
    )
    moved = sb.share_price
    assert moved is not None and moved.row > price.row


@needs_fixtures
def test_2_3_7_recorded_sale_without_share_price_pays_the_market_price() -> None:
    """rules/1841.md 2.3.7 (half price) as 18xx.games replays it: a recorded sale naming
    its ``share_price`` (34.5) pays SB L.35 for its SFTC share at L.69; the same sale
    recorded without ``share_price`` is paid the full L.69 (18xx.games' bundle price falls
    back to the market price); live, that sale is refused (the field is missing) and changes
    nothing."""
    for extra, paid in (({"share_price": 34.5}, 35), ({}, 69)):
        game, _ = position(BANK, 246, "SB")
        sb = game.corporation("SB")
        cash, bank = sb.cash, game.bank.cash
        share = next(s for s in sb.shares_of("SFTC"))
        sale = {"type": "sell_shares", "entity": "SB", "entity_type": "corporation"}
        action = {**sale, "shares": [share.id], "percent": 10, **extra}
        if not extra:
            before = snapshot(game)
            with pytest.raises(IllegalAction):
                check_live(game, action)
            assert snapshot(game) == before
        game.process_action(action)
        assert (sb.cash - cash, bank - game.bank.cash) == (paid, paid)


@needs_fixtures
def test_seed_000_5_6_no_emr_sales_in_a_corporations_first_or() -> None:
    """seed 000 item 5.6 (``emr_respect_first_or``): SB in its first operating round may not
    sell its own IPO shares; 18xx.games (default) lets it."""
    for options, allowed in (((), True), (("emr_respect_first_or",), False)):
        game, _ = position(BANK, 247, "SB", options=options)
        game.operated_corps.discard("SB")
        game.changing()
        assert any(c == "SB" for c, _, _ in sales(game, "SB")) is allowed


@needs_fixtures
def test_seed_003_h8_no_director_certificate_into_the_pool() -> None:
    """seed 003 H8 (``emr_no_president_to_pool``): Player 4 may not sell SFL's president's
    certificate into the pool (nobody could take it); by default he may."""
    for options, allowed in (((), True), (("emr_no_president_to_pool",), False)):
        game, _ = position(BANK, 248, "SB", options=options)
        assert (("SFL", 20, 55.5) in sales(game, 8229)) is allowed


@needs_fixtures
def test_2_3_7_sweep_stops_at_the_seller_and_the_purchase_sweeps_to_the_player() -> None:
    """rules/1841.md 2.3.7 (automatic cash sweeps): after the player's sale his cash up to
    the missing amount moves to SB; the rest stays with him (L.1 after the SFTG sale)."""
    game, path = position(BANK, 248, "SB")
    play(game, path, 248, 249)
    assert game.corporation("SB").cash == 800
    assert game.player_by_id(8229).cash == 1


@needs_fixtures
def test_2_3_12_token_emr_sweeps_the_chain() -> None:
    """rules/1841.md 2.3.12 (Token EMR; seed 000 item 2.5): a corporation short of its L.50
    token gets the missing cash from its owners, the president last."""
    game, _ = position(BANK, 246, "SB")
    sb = game.corporation("SB")
    player = game.player_by_id(8229)
    game.bank.cash += sb.cash - 20
    sb.cash = 20
    cash = player.cash
    emergency.token_emergency_money(game, sb, 50)
    assert sb.cash == 50 and player.cash == cash - 30


@needs_fixtures
def test_2_3_7_corporation_sells_a_whole_presidents_certificate_as_issued() -> None:
    """rules/1841.md 2.3.7 with 18xx.games' corporate sale buttons (no percentage sent):
    CTS (L.60 short) is offered AFI's 20 % president's certificate whole at half price
    L.115 a share -- the button of its 10 % half sells the whole certificate -- and the live
    gate takes the file's action 385; the sale pays L.230 and the certificate goes to the
    pool."""
    game, _ = position("1841_game_end_offboards", 385, "CTS")
    assert ("AFI", 20, 115) in sales(game, "CTS")
    assert ("AFI", 10, 115) not in sales(game, "CTS")
    sale = {"type": "sell_shares", "entity": "CTS", "entity_type": "corporation"}
    action = {**sale, "shares": ["AFI_0"], "percent": 20, "share_price": 115}
    check_live(game, action)
    cts = game.corporation("CTS")
    cash = cts.cash
    game.process_action(action)
    assert cts.cash - cash == 230
    assert game.share_by_id("AFI_0").owner is game.pool


def _sftg_held_by_a_corporation(others: int) -> tuple[Game1841, Player, Corporation, Corporation]:
    """p1 presides over SFTG (historical) with 30 %, CTS holds ``others`` % of SFTG; SFLP,
    p1's too and outside SFTG's chain, is the buyer; phase 2."""
    game = new_game(3)
    p1, _, _ = players(game)
    cts = start(game, "CTS", "100,3,5", p1, {}, cash=0)
    sftg = start(game, "SFTG", "144,2,8", p1, {p1: 10, cts: others}, cash=0)
    sflp = start(game, "SFLP", "100,3,5", p1, {}, cash=0)
    return game, p1, sftg, sflp


def test_2_3_7_a_corporation_holder_counts_for_what_the_president_keeps() -> None:
    """rules/1841.md 2.3.7 with 2.3.8 (a corporation may preside over another) and seed 000
    item 1.13: a president selling in an emergency shares of a historical corporation before
    phase 4 keeps as much as the next-largest holder, and a corporation is such a holder --
    with CTS holding 30 % of SFTG, p1 (30 %) may sell none of SFTG; without CTS's shares he
    may sell his ordinary 10 % and keep the presidency (18xx.games counts corporations
    among ``player_share_holders`` here; our selfplay game sfli_run_variant, 4 players, seed
    75003: Player 3's bankruptcy at action 876 sold none of SFTG, CTS holding 30 %)."""
    game, p1, sftg, sflp = _sftg_held_by_a_corporation(30)
    assert emergency.valid_bundles(game, p1, sftg, sflp) == []
    assert emergency.minimum_to_retain(game, p1, sftg, sflp) == 30
    game, p1, sftg, sflp = _sftg_held_by_a_corporation(0)
    sellable = emergency.valid_bundles(game, p1, sftg, sflp)
    assert [b.percent for b in sellable] == [10]
    assert all(b.presidents_share is None for b in sellable)
