"""Corporate share trading (rules/1841.md 2.3.8; seed 000 items 1.7, 1.18, 2.8, 2.11, 3.1,
3.5, 4.3; seed 003 H2, H10, H13) on positions built with core functions."""

from __future__ import annotations

import copy

import pytest
from tests.titles.g1841.setup_helpers import new_game, players, start

from stellwerk.core.entities import Corporation, move_share
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.core.shares import Bundle
from stellwerk.titles.g1841 import emergency
from stellwerk.titles.g1841.corporate import CorporateShares
from stellwerk.titles.g1841.decisions import Decisions
from stellwerk.titles.g1841.game import Game1841
from stellwerk.titles.g1841.start import CorporationStart


def set_phase(game: Game1841, name: str) -> None:
    game.phases.index = next(i for i, p in enumerate(game.phases.all) if p.name == name)
    game.map.set_phase(name)


def turn_of(game: Game1841, corp: Corporation) -> CorporateShares:
    """An operating round in which ``corp`` is at its share step."""
    rnd = OperatingRound(game, [Decisions, CorporateShares], 1)
    rnd.entity_index = rnd.entities.index(corp)
    rnd.current_operator = corp
    game.round = rnd
    step = rnd.step_of(CorporateShares)
    assert isinstance(step, CorporateShares)
    return step


def share_action(corp: Corporation, kind: str, shares: list[str], percent: int) -> Action:
    return {
        "type": kind,
        "entity": corp.sym,
        "entity_type": "corporation",
        "shares": shares,
        "percent": percent,
    }


def ipo_ids(corp: Corporation, count: int) -> list[str]:
    return [s.id for s in corp.treasury_shares() if not s.president][:count]


def position() -> tuple[Game1841, Corporation, Corporation]:
    """SFTG (president p1, 60 % IPO, L.500, operated) and SFTC (president p2, 40 % IPO,
    operated), phase 3."""
    game = new_game()
    p1, p2, _ = players(game)
    set_phase(game, "3")
    sftg = start(game, "SFTG", "100,3,5", p1, {p1: 20}, cash=500)
    sftc = start(game, "SFTC", "144,2,8", p2, {p2: 40}, cash=100)
    game.operated_corps |= {"SFTG", "SFTC"}
    return game, sftg, sftc


def snapshot(game: Game1841) -> tuple[object, ...]:
    return (
        [
            (c.sym, c.cash, c.share_price, c.owner, {k: len(v) for k, v in c.shares.items()})
            for c in game.corporations
        ],
        [(p.name, p.cash) for p in game.players],
        {k: len(v) for k, v in game.pool.shares.items()},
        game.bank.cash,
    )


def test_2_3_8_sale_of_own_ipo_shares_pays_the_corporation_and_drops_the_price() -> None:
    """rules/1841.md 2.3.8: a corporation sells its own IPO shares, money to itself, the price
    one row down per share."""
    game, sftg, _ = position()
    step = turn_of(game, sftg)
    assert "sell_shares" in step.actions(sftg)
    before = sftg.share_price
    assert before is not None
    cash = sftg.cash
    step.process(share_action(sftg, "sell_shares", ipo_ids(sftg, 2), 20), sftg)
    assert sftg.cash == cash + 2 * before.price
    assert game.pool.percent_of("SFTG") == 20
    after = sftg.share_price
    assert after is not None and after.row == before.row + 2


def test_2_3_8_faq_2_1_no_sale_before_the_corporation_has_operated() -> None:
    """rules/1841.md 2.3.8 (FAQ 2.1): own IPO shares only once it has operated; the refusal
    names the rule and changes nothing."""
    game, sftg, _ = position()
    game.operated_corps.discard("SFTG")
    step = turn_of(game, sftg)
    assert "sell_shares" not in step.actions(sftg)
    before = snapshot(game)
    with pytest.raises(IllegalAction) as refused:
        step.process(share_action(sftg, "sell_shares", ipo_ids(sftg, 1), 10), sftg)
    assert "2.3.8" in refused.value.rule
    assert snapshot(game) == before


def test_2_3_8_buys_another_corporations_ipo_share_never_its_own_nor_a_players() -> None:
    """rules/1841.md 2.3.8: IPO of another corporation or the pool; not its own, not a
    player's certificate."""
    game, sftg, sftc = position()
    step = turn_of(game, sftg)
    bought = [a for a in step.choices(sftg) if a["type"] == "buy_shares"]
    targets = {game.share_by_id(a["shares"][0]).corporation for a in bought}
    assert targets == {"SFTC"}
    p2 = players(game)[1]
    player_share = next(s for s in p2.shares_of("SFTC") if not s.president)
    with pytest.raises(IllegalAction):
        step.process(share_action(sftg, "buy_shares", [player_share.id], 10), sftg)
    cash = sftg.cash
    price = sftc.share_price.price if sftc.share_price else 0
    step.process(share_action(sftg, "buy_shares", ipo_ids(sftc, 1), 10), sftg)
    assert sftg.percent_of("SFTC") == 10 and sftg.cash == cash - price
    assert sftc.cash == 100 + price  # IPO money goes to the corporation sold (2.2.1)


def test_2_3_8_sell_then_one_buy() -> None:
    """rules/1841.md 2.3.8: sell first, then one purchase; after it no sale and no second
    purchase."""
    game, sftg, sftc = position()
    step = turn_of(game, sftg)
    step.process(share_action(sftg, "buy_shares", ipo_ids(sftc, 1), 10), sftg)
    assert step.actions(sftg) == []


def test_seed_003_h13_no_purchase_of_a_controller_and_forced_sale_of_its_shares() -> None:
    """seed 003 H13 / rules/1841.md 2.3.8: a corporation may not buy shares of a corporation
    in its chain of control, and must sell those it holds."""
    game, sftg, sftc = position()
    _, p2, _ = players(game)
    # SFTG becomes SFTC's president: SFTC is controlled by p1 through SFTG
    pres = sftc.presidents_share
    assert pres is not None
    move_share(pres, sftg)
    sftc.owner = sftg
    for share in list(p2.shares_of("SFTC")):
        move_share(share, game.pool)
    step = turn_of(game, sftc)
    assert not any(
        game.share_by_id(a["shares"][0]).corporation == "SFTG"
        for a in step.choices(sftc)
        if a["type"] == "buy_shares"
    )
    refused = pytest.raises(IllegalAction)
    with refused as info:
        step.process(share_action(sftc, "buy_shares", ipo_ids(sftg, 1), 10), sftc)
    assert "H13" in info.value.rule
    # SFTC holding a share of its controller SFTG must sell first
    move_share(next(s for s in sftg.treasury_shares() if not s.president), sftc)
    assert step.actions(sftc) == ["sell_shares"]


def test_1_2_corporate_certificate_limit_five() -> None:
    """rules/1841.md 1.2, 2.3.8: a corporation holds at most five certificates of others;
    with six it must sell."""
    game, sftg, sftc = position()
    step = turn_of(game, sftg)
    for share in [s for s in sftc.treasury_shares() if not s.president][:4]:
        move_share(share, sftg)
    p2 = players(game)[1]
    move_share(next(s for s in p2.shares_of("SFTC") if not s.president), sftg)
    assert game.num_certs(sftg) == 5
    assert not step.can_buy_any(sftg)
    move_share(next(s for s in p2.shares_of("SFTC") if not s.president), sftg)
    assert step.actions(sftg) == ["sell_shares"]


def test_1_2_sixty_percent_counted_for_the_controlling_player() -> None:
    """rules/1841.md 1.2, 2.3.8: the 60 % limit counts the controlling player's own shares
    and all his corporations' holdings."""
    game, sftg, sftc = position()
    p1, p2, _ = players(game)
    for share in list(p2.shares_of("SFTC")):
        if not share.president:
            move_share(share, p1)  # p1 holds 40 % of SFTC
    step = turn_of(game, sftg)
    one = ipo_ids(sftc, 1)
    step.process(share_action(sftg, "buy_shares", one, 10), sftg)  # 50 %
    step.setup()
    step.turn = []
    step.process(share_action(sftg, "buy_shares", ipo_ids(sftc, 1), 10), sftg)  # 60 %
    step.setup()
    with pytest.raises(IllegalAction) as info:
        step.process(share_action(sftg, "buy_shares", ipo_ids(sftc, 1), 10), sftg)
    assert "60" in info.value.rule


def test_2_3_8_par_non_historical_paid_from_the_treasury_then_started() -> None:
    """rules/1841.md 2.3.8, 2.2.3: a corporation starts a non-historical major from its
    treasury, becomes its president, may buy IPO shares below 40 %, then the new one starts
    (home token, token purchase)."""
    game, sftg, _ = position()
    sftg.cash = 700
    step = turn_of(game, sftg)
    assert "par" in step.actions(sftg)
    pars = [a for a in step.choices(sftg) if a["type"] == "par" and a["corporation"] == "AFI"]
    prices = {int(str(a["share_price"]).split(",")[0]) for a in pars}
    assert prices == {68, 100, 144, 216, 340}  # 2 x 340 <= L.700
    action = next(a for a in pars if a["share_price"].startswith("216"))
    step.process(action, sftg)
    afi = game.corporation("AFI")
    assert afi.owner is sftg and afi.cash == 432 and sftg.cash == 700 - 432
    assert step.actions(sftg) == ["buy_shares", "pass"]  # 20 % < 40 %
    step.process(share_action(sftg, "buy_shares", ipo_ids(afi, 1), 10), sftg)
    assert sftg.percent_of("AFI") == 30
    # L.52 left buys nothing more: the turn's trading ends by itself and AFI starts
    assert step.passed
    assert any(isinstance(p, CorporationStart) and p.corp == "AFI" for p in game.procedures)


def test_2_3_8_historical_par_only_from_phase_4() -> None:
    """rules/1841.md 2.3.8: before phase 4 a corporation cannot start a historical one (it
    needs the concession); from phase 4 it can."""
    game, sftg, _ = position()
    sftg.cash = 900
    step = turn_of(game, sftg)
    started = {a["corporation"] for a in step.choices(sftg) if a["type"] == "par"}
    assert "SFTN" not in started and "AFI" in started
    set_phase(game, "4")
    started = {a["corporation"] for a in step.choices(sftg) if a["type"] == "par"}
    assert "SFTN" in started


def test_seed_003_h2_option_corporate_sale_of_others_moves_no_price() -> None:
    """seed 003 H2 (``corp_foreign_sale_no_drop``): a corporation's sale of another
    corporation's shares moves no price; by default it drops a row."""
    for options, drops in (([], 1), (["corp_foreign_sale_no_drop"], 0)):
        game, sftg, sftc = position()
        if options:
            game = _with_options(options)
            p1, p2, _ = players(game)
            set_phase(game, "3")
            sftg = start(game, "SFTG", "100,3,5", p1, {p1: 20}, cash=500)
            sftc = start(game, "SFTC", "144,2,8", p2, {p2: 40}, cash=100)
            game.operated_corps |= {"SFTG", "SFTC"}
        move_share(next(s for s in sftc.treasury_shares() if not s.president), sftg)
        step = turn_of(game, sftg)
        before = sftc.share_price
        assert before is not None
        share = sftg.shares_of("SFTC")[0]
        step.process(share_action(sftg, "sell_shares", [share.id], 10), sftg)
        after = sftc.share_price
        assert after is not None and after.row - before.row == drops


def _with_options(options: list[str]) -> Game1841:
    return Game1841([(i, f"p{i}") for i in range(1, 4)], options, 1)


def test_seed_003_h10_option_grandchildren_may_not_par() -> None:
    """seed 003 H10 (``grandchild_no_par``): a corporation whose president is a corporation
    may not start one; by default it may."""
    for options, may in (([], True), (["grandchild_no_par"], False)):
        game = _with_options(options)
        p1, _, _ = players(game)
        set_phase(game, "3")
        sftg = start(game, "SFTG", "100,3,5", p1, {p1: 20}, cash=500)
        sftc = start(game, "SFTC", "144,2,8", sftg, {}, cash=700)
        game.operated_corps |= {"SFTG", "SFTC"}
        step = turn_of(game, sftc)
        assert ("par" in step.actions(sftc)) is may


def test_seed_000_4_3_option_no_purchase_across_a_border() -> None:
    """seed 000 item 4.3 (``corp_buy_same_country_only``): no purchase of a corporation
    with tokens beyond an existing border (Torino's SFTG and Milano/Venezia's IRSFF in
    phase 3); by default allowed."""
    for options, may in (([], True), (["corp_buy_same_country_only"], False)):
        game = _with_options(options)
        p1, p2, _ = players(game)
        set_phase(game, "3")
        sftg = start(game, "SFTG", "100,3,5", p1, {p1: 20}, cash=500)
        irsff = start(game, "IRSFF", "144,2,8", p2, {p2: 20}, cash=100)
        game.operated_corps |= {"SFTG", "IRSFF"}
        step = turn_of(game, sftg)
        bundle = next(b for b in step.buy_candidates() if b.corporation is irsff)
        assert step.can_buy(sftg, bundle) is may
        if not may:
            before = snapshot(game)
            with pytest.raises(IllegalAction) as info:
                step.process(share_action(sftg, "buy_shares", [bundle.shares[0].id], 10), sftg)
            assert "4.3" in info.value.rule
            assert snapshot(game) == before


def test_seed_000_3_5_option_emergency_sales_block_a_rebuy() -> None:
    """seed 000 item 3.5 (``corp_no_rebuy_after_sale``): an emergency sale blocks buying the
    corporation back in the same operating round; by default (18xx.games) it does not."""
    for options, may in (([], True), (["corp_no_rebuy_after_sale"], False)):
        game = _with_options(options)
        p1, p2, _ = players(game)
        set_phase(game, "3")
        sftg = start(game, "SFTG", "100,3,5", p1, {p1: 20}, cash=500)
        sftc = start(game, "SFTC", "144,2,8", p2, {p2: 40}, cash=100)
        game.operated_corps |= {"SFTG", "SFTC"}
        held = next(s for s in sftc.treasury_shares() if not s.president)
        move_share(held, sftg)
        step = turn_of(game, sftg)
        emergency.sell(game, Bundle.of([held], sftc))  # an emergency sale this round (2.3.7)
        bundle = next(b for b in step.buy_candidates() if b.corporation is sftc)
        assert step.can_buy(sftg, bundle) is may


def test_2_3_8_a_sale_this_round_blocks_the_rebuy() -> None:
    """rules/1841.md 2.3.8 (FAQ 3.5 in 18xx.games' reading): a corporation sold in the share
    step may not be bought back in the same operating round."""
    game, sftg, sftc = position()
    move_share(next(s for s in sftc.treasury_shares() if not s.president), sftg)
    step = turn_of(game, sftg)
    step.process(share_action(sftg, "sell_shares", [sftg.shares_of("SFTC")[0].id], 10), sftg)
    assert all(b.corporation is not sftc for b in step.buy_candidates() if step.can_buy(sftg, b))


def test_2_3_8_every_offered_action_is_accepted() -> None:
    """What the step offers it accepts (the live gate accepts only listed actions)."""
    game, sftg, sftc = position()
    sftg.cash = 800
    move_share(next(s for s in sftc.treasury_shares() if not s.president), sftg)
    step = turn_of(game, sftg)
    offered = step.choices(sftg)
    assert {a["type"] for a in offered} == {"sell_shares", "buy_shares", "par", "pass"}
    for action in offered:
        trial = copy.deepcopy(game)
        trial_corp = trial.corporation("SFTG")
        trial_step = trial.round.step_of(CorporateShares)
        trial_step.process(action, trial_corp)


def _stacked(options: list[str]) -> tuple[Game1841, Corporation, Corporation, Corporation]:
    """SFTC and SFTN in one market cell (SFTC on top), SFTG holding a share of each."""
    game = _with_options(options)
    p1, p2, p3 = players(game)
    set_phase(game, "3")
    sftg = start(game, "SFTG", "100,3,5", p1, {p1: 20}, cash=500)
    sftc = start(game, "SFTC", "144,2,8", p2, {p2: 20}, cash=100)
    sftn = start(game, "SFTN", "144,2,8", p3, {p3: 20}, cash=100)
    game.operated_corps |= {"SFTG", "SFTC", "SFTN"}
    for corp in (sftc, sftn):
        move_share(next(s for s in corp.treasury_shares() if not s.president), sftg)
    return game, sftg, sftc, sftn


def test_seed_000_2_2_option_drops_after_the_sales_in_reverse_operating_order() -> None:
    """seed 000 item 2.2 (``sale_drops_reverse_order``): the prices of the shares sold move
    down after the sales, in reverse operating order, so two markers of one stack swap;
    by default (18xx.games) each price moves at its sale and the stack keeps its order."""
    for options, expected in (
        ([], ["SFTC", "SFTN"]),
        (["sale_drops_reverse_order"], ["SFTN", "SFTC"]),
    ):
        game, sftg, sftc, sftn = _stacked(options)
        cell = sftc.share_price
        assert cell is not None and cell.corporations == ["SFTC", "SFTN"]
        step = turn_of(game, sftg)
        for corp in (sftc, sftn):
            share = sftg.shares_of(corp.sym)[0]
            step.process(share_action(sftg, "sell_shares", [share.id], 10), sftg)
        waiting = bool(options)
        assert (sftc.share_price is cell) is waiting
        step.process({"type": "pass", "entity": "SFTG"}, sftg)
        below = sftc.share_price
        assert below is not None and below is sftn.share_price and below is not cell
        assert below.corporations == expected


def test_trace_names_the_pool_president_share_pool() -> None:
    """fixtures README: a corporation presided over by the pool (rules/1841.md 2.3.9, frozen)
    shows ``SharePool`` as its president in the trace format."""
    from stellwerk.io.snapshot import snapshot

    game, sftg, _ = position()
    sftg.owner = game.pool
    record = next(c for c in snapshot(game, with_tiles=False)["corporations"] if c["id"] == "SFTG")
    assert record["president"] == "SharePool"


def test_seed_000_1_18_no_purchase_from_another_corporations_treasury() -> None:
    """seed 000 item 1.18: a corporation buys only from an IPO or the pool -- not a share
    that another corporation holds."""
    game, sftg, sftc = position()
    p3 = players(game)[2]
    sftn = start(game, "SFTN", "100,3,5", p3, {p3: 20}, cash=0)
    held = next(s for s in sftn.treasury_shares() if not s.president)
    move_share(held, sftc)
    step = turn_of(game, sftg)
    assert not step.can_buy(sftg, Bundle.of([held], sftn))
    before = snapshot(game)
    with pytest.raises(IllegalAction):
        step.process(share_action(sftg, "buy_shares", [held.id], 10), sftg)
    assert snapshot(game) == before


def test_seed_000_1_7_and_2_11_forced_sale_of_a_corporation_its_player_holds_over_60() -> None:
    """seed 000 items 1.7, 2.11: a player controlling more than 60 % of SFTC, acting for
    SFTG that holds SFTC directly, must sell SFTC at SFTG's share step (only sales offered);
    once SFTC has not operated nothing can be sold and nothing is forced."""
    game, sftg, sftc = position()
    p1, p2, _ = players(game)
    for share in list(p2.shares_of("SFTC")):
        if not share.president:
            move_share(share, p1)  # p1: 40 %
    for share in [s for s in sftc.treasury_shares() if not s.president][:3]:
        move_share(share, sftg)  # SFTG (p1's): 30 % -> p1 controls 70 %
    step = turn_of(game, sftg)
    assert step.actions(sftg) == ["sell_shares"]
    offered = step.choices(sftg)
    assert {a["type"] for a in offered} == {"sell_shares"}  # any sale (as 18xx.games)
    assert "SFTC" in {game.share_by_id(a["shares"][0]).corporation for a in offered}
    game.operated_corps.discard("SFTC")
    assert step.actions(sftg) != ["sell_shares"]
