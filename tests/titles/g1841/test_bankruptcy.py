"""Bankruptcy (rules/1841.md 2.6, 1.4; seed 003 H9): the three bankruptcies of the
18xx.games games replayed from their traced positions (same state after each action, the
game's end and result), when it is offered, and both options and the zugzwang variant."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from emr_position import play, position
from trace_state import FIXTURES, fixture, read_game_file, snapshot

from stellwerk.core.errors import IllegalAction
from stellwerk.core.legal import legal_actions
from stellwerk.titles.g1841 import bankruptcy
from stellwerk.titles.g1841.bankruptcy import Bankrupt1841

needs_fixtures = pytest.mark.skipif(not FIXTURES.exists(), reason="../shared fixtures absent")

BANK = "1841_game_end_bank"
BANKRUPT = "1841_game_end_bankrupt"
OFFBOARDS = "1841_game_end_offboards"
BANKRUPT_CGTF = {"type": "bankrupt", "entity": "CGTF", "entity_type": "corporation"}


def bankrupt_offers(game: object) -> list[object]:
    return [a.get("option") for a in legal_actions(game) if a["type"] == "bankrupt"]  # type: ignore[arg-type]


@needs_fixtures
def test_fixture_first_bankruptcy_player_resigns() -> None:
    """rules/1841.md 2.6 (option 0): SFLi sells its last SFTC share, then its president
    Player 3464 goes bankrupt: his shares sold at half price, SFTC's presidency to the pool
    (frozen: it operates next, as in the trace), he is out."""
    game, path = position(BANKRUPT, 579, "SFLi")
    assert play(game, path, 579, 580) == []
    assert game.player_by_id(3464).bankrupt


@needs_fixtures
def test_fixture_second_bankruptcy_ends_the_game() -> None:
    """rules/1841.md 2.6, 1.4: Player 17475 sells what he may for SFL, goes bankrupt, and
    with two of three players out the game ends at once, after the frozen AFI's turn, with
    the site's result.  (Position: Player 3464 resigned at action 580, CTS was formed this
    round, the frozen SFTC has had its turn.)"""
    game, path = position(BANKRUPT, 591, "SFL", done=("CTS",), operated_before=("SFTC",))
    game.player_by_id(3464).bankrupt = True
    assert play(game, path, 591, 597) == []
    data = read_game_file(fixture(BANKRUPT))
    assert game.finished and game.game_end_reason == "bankrupt"
    assert game.result() == {str(k): v for k, v in data["result"].items()}


@needs_fixtures
def test_fixture_offboards_bankruptcy() -> None:
    """rules/1841.md 2.6: CGTF's EMR (its ATFA share, its IPO, Player 873's sales) and the
    bankruptcy that follows, as the trace has it; the next corporation operates."""
    game, path = position(OFFBOARDS, 400, "CGTF")
    assert play(game, path, 400, 407) == []


@needs_fixtures
def test_2_6_offered_only_once_the_chain_has_nothing_to_sell() -> None:
    """rules/1841.md 2.6: CGTF cannot be saved, but while it still has shares to sell the
    site offers no bankruptcy; after its sales, both options."""
    game, path = position(OFFBOARDS, 400, "CGTF")
    assert bankruptcy.may_go_bankrupt(game, game.corporation("CGTF"))
    assert bankrupt_offers(game) == []
    play(game, path, 400, 401)
    assert bankrupt_offers(game) == [0, 1]


@needs_fixtures
def test_2_6_refused_while_the_buying_power_suffices() -> None:
    """rules/1841.md 2.6: SB and Player 4 can raise the L.800: no bankruptcy offered, and one
    sent is refused without changing anything."""
    game, _ = position(BANK, 248, "SB")
    assert bankrupt_offers(game) == []
    before = snapshot(game)
    step = game.round.step_of(Bankrupt1841)
    with pytest.raises(IllegalAction, match=r"2\.6"):
        step.process({"type": "bankrupt", "entity": "SB", "option": 0}, game.corporation("SB"))
    assert snapshot(game) == before


@needs_fixtures
def test_2_6_option_1_loan_keeps_the_player_in() -> None:
    """rules/1841.md 2.6 option 1 (1.4): Player 873 sells out, his cash goes to CGTF, he
    borrows L.500 (subtracted from his value) and stays; CGTF's turn ends without a train."""
    game, path = position(OFFBOARDS, 400, "CGTF")
    play(game, path, 400, 406)
    player = game.player_by_id(873)
    game.process_action(BANKRUPT_CGTF | {"option": 1})
    assert not player.bankrupt
    assert player.cash == 500 and player.penalty == 500
    assert not any(player.shares_of(c.sym) for c in game.corporations)
    assert not player.companies
    assert "CGTF" in game.done_this_round and not game.corporation("CGTF").trains
    assert game.round.current_operator is not game.corporation("CGTF")


@needs_fixtures
def test_seed_003_h9_zugzwang_removes_the_bankrupts_corporations() -> None:
    """seed 003 H9 (``bankruptcy_zugzwang``): every corporation Player 873 controls leaves
    the game with its cash and trains; he goes on with exactly L.500 lent by the bank and
    keeps his other shares; no train is bought, so no phase changes."""
    game, path = position(OFFBOARDS, 400, "CGTF", options=("bankruptcy_zugzwang",))
    play(game, path, 400, 406)
    player = game.player_by_id(873)
    controlled = [c for c in game.corporations if game.controller(c) is player]
    assert game.corporation("CGTF") in controlled
    phase = game.phases.name
    game.process_action(BANKRUPT_CGTF | {"option": 0})
    assert all(c.closed and not c.trains and c.cash == 0 for c in controlled)
    others = [h for h in game.holders() if h not in controlled]
    assert not any(h.shares_of(c.sym) for c in controlled for h in others)
    assert player.cash == 500 and player.penalty == 500 and not player.bankrupt
    assert game.phases.name == phase


def _prices(game: object) -> dict[str, int | None]:
    return {
        c.sym: c.share_price.price if c.share_price else None
        for c in game.corporations  # type: ignore[attr-defined]
    }


@needs_fixtures
def test_2_6_sell_out_outside_the_train_step_moves_no_price() -> None:
    """rules/1841.md 2.6 as 18xx.games plays a bankruptcy declared while another step blocks
    the turn (a replay: a merger partner chosen): it asks that step for the sellable bundles,
    gets none, so the sell-out has no emergency sales with price drops -- everything goes at
    half price and no price moves.  In the train step the emergency sales drop prices."""
    game, _ = position(OFFBOARDS, 400, "CGTF")
    player = game.player_by_id(873)
    cgtf = game.corporation("CGTF")
    before = _prices(game)
    bankruptcy.sell_out(game, player, cgtf, emergency_sales=False)
    assert _prices(game) == before
    assert not any(player.shares_of(c.sym) for c in game.corporations)
    game, _ = position(OFFBOARDS, 400, "CGTF")
    bankruptcy.sell_out(game, game.player_by_id(873), game.corporation("CGTF"))
    assert _prices(game) != before


def _receivership_position(phase: str) -> tuple[object, object, object, object]:
    """Phase ``phase``: SFLP (historical minor) presided by the pool, which holds its 40 %
    president's certificate; SSFL holds 40 % of it (two 20 % certificates), p2 20 %; p2
    presides SFMA, the train buyer."""
    from setup_helpers import new_game, start

    game = new_game(3)
    game.phases.index = next(i for i, p in enumerate(game.phases.all) if p.name == phase)
    _p1, p2, p3 = game.players
    ssfl = start(game, "SSFL", "100,3,5", p3)
    sfma = start(game, "SFMA", "100,3,5", p2)
    sflp = start(game, "SFLP", "100,3,5", game.pool, {ssfl: 40, p2: 20})
    game.operated_corps.update({"SFLP", "SSFL", "SFMA"})
    assert sflp.owner is game.pool and sflp.presidents_share.owner is game.pool
    return game, p2, sfma, sflp


def test_2_6_sell_out_first_part_settles_the_presidency_even_of_a_historical_one() -> None:
    """rules/1841.md 2.6 "Process" as 18xx.games plays it: the first part of the sell-out
    sells the largest bundle an emergency sale allows and settles the presidency as after
    any sale -- even a historical corporation's before phase 4 (unlike an ordinary emergency
    sale, rules/1841.md 2.3.7).  p2 sells his 20 % of SFLP (presided by the pool) and SSFL,
    holding 40 %, becomes SFLP's president with the president's certificate (selfplay
    p2p_purchases 3 players seed 402, action 894)."""
    game, p2, sfma, sflp = _receivership_position("3")
    ssfl = game.corporation("SSFL")
    bankruptcy.sell_out(game, p2, sfma)
    assert not p2.shares_of("SFLP")
    assert sflp.owner is ssfl
    assert sflp.presidents_share.owner is ssfl and ssfl.percent_of("SFLP") == 40
    assert game.pool.percent_of("SFLP") == 60


def test_2_3_7_ordinary_emergency_sale_keeps_a_historical_presidency() -> None:
    """rules/1841.md 2.3.7, 2.2.1: the same sale as an ordinary emergency sale (not a
    bankruptcy) leaves SFLP's presidency with the pool before phase 4."""
    from stellwerk.core.shares import Bundle
    from stellwerk.titles.g1841 import emergency

    game, p2, _sfma, sflp = _receivership_position("3")
    emergency.sell(game, Bundle.of(list(p2.shares_of("SFLP")), sflp))
    assert sflp.owner is game.pool and sflp.presidents_share.owner is game.pool


def test_2_6_sell_out_leaves_the_operating_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """rules/1841.md 2.6 as 18xx.games plays it: the bankrupt's sales drop prices but the
    operating order of the round is not recalculated (its bankruptcy sells outside the steps
    that recalculate it), while an ordinary emergency sale recalculates it (rules/1841.md
    2.3.7; selfplay lite+sfli 6 players seed 422, action 1379)."""
    from setup_helpers import operating

    from stellwerk.core.shares import Bundle
    from stellwerk.titles.g1841 import emergency

    game, p2, sfma, sflp = _receivership_position("3")
    rnd = operating(game, sfma)
    calls: list[int] = []
    monkeypatch.setattr(rnd, "recalculate_order", lambda: calls.append(1), raising=False)
    bankruptcy.sell_out(game, p2, sfma)
    assert not p2.shares_of("SFLP") and calls == []
    game, p2, sfma, sflp = _receivership_position("3")
    rnd = operating(game, sfma)
    monkeypatch.setattr(rnd, "recalculate_order", lambda: calls.append(1), raising=False)
    emergency.sell(game, Bundle.of(list(p2.shares_of("SFLP")), sflp))
    assert calls == [1]


@needs_fixtures
def test_2_6_buying_power_counts_shares_only_at_a_step_with_sales(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """rules/1841.md 2.6 as 18xx.games measures it: the player's shares add to the buying
    power only while the turn stands at a step with emergency sales (the train step); at a
    step without sales (a corporation without trains at the token purchase step) only his
    cash counts (18xx.games random game 1841 lite+p2p_purchases, 6 players, seed 313)."""
    game, _ = position(OFFBOARDS, 400, "CGTF")
    player = game.player_by_id(873)
    cgtf = game.corporation("CGTF")
    assert bankruptcy.sales_counted(game)
    at_train_step = bankruptcy.liquidity(game, player, cgtf)
    assert at_train_step > player.cash
    elsewhere = game.round.step_of(Bankrupt1841)
    monkeypatch.setattr(game.round, "active_step", lambda: elsewhere)
    assert not bankruptcy.sales_counted(game)
    assert bankruptcy.liquidity(game, player, cgtf) == player.cash


def _certificate_apart_position() -> tuple[object, object, object, object, object]:
    """Phase 3: CGTF (non-historical major) presided by p1 with 30 % in ordinary shares while
    p2 holds its 20 % president's certificate apart from the presidency (a player-to-player
    purchase of the certificate alone, rules/1841.md 4.3); p2 presides SFMA, the train
    buyer."""
    from setup_helpers import new_game, start

    game = new_game(3, ["p2p_purchases"])
    game.phases.index = next(i for i, p in enumerate(game.phases.all) if p.name == "3")
    p1, p2, _p3 = game.players
    sfma = start(game, "SFMA", "100,3,5", p2)
    cgtf = start(game, "CGTF", "100,3,5", p2, {p1: 30})
    game.set_president(cgtf, p1)
    game.operated_corps.update({"SFMA", "CGTF"})
    return game, p1, p2, sfma, cgtf


def test_2_6_sell_out_of_a_certificate_held_apart_keeps_the_president() -> None:
    """rules/1841.md 2.6 "Process", 2.2.1: the bankrupt p2 sells out CGTF's president's
    certificate, which he holds without presiding; p1, president with 30 %, still holds the
    most and stays president -- the corporation is not left to the pool, which presides only
    when nobody holds the president's percentage (18xx.games keeps p1 too: our selfplay
    lite+p2p_purchases, 6 players seed 76753 with the driver's veto P, action 924)."""
    game, p1, p2, sfma, cgtf = _certificate_apart_position()
    bankruptcy.sell_out(game, p2, sfma)
    assert not p2.shares_of("CGTF")
    assert cgtf.presidents_share.owner is game.pool
    assert cgtf.owner is p1


def test_2_3_7_emergency_sale_of_a_certificate_held_apart_keeps_the_president() -> None:
    """rules/1841.md 2.3.7, 2.2.1: the same certificate sold in an ordinary emergency sale
    leaves p1 president; a president's own certificate that nobody can take still leaves
    the corporation to the pool."""
    from stellwerk.core.shares import Bundle
    from stellwerk.titles.g1841 import emergency

    game, p1, p2, _sfma, cgtf = _certificate_apart_position()
    emergency.sell(game, Bundle.of(list(p2.shares_of("CGTF")), cgtf))
    assert cgtf.presidents_share.owner is game.pool
    assert cgtf.owner is p1
    from setup_helpers import start

    game, p1, p2, _sfma, _cgtf = _certificate_apart_position()
    icsf = start(game, "ICSF", "100,3,5", p2, {p1: 10})
    game.operated_corps.add("ICSF")
    emergency.sell(game, Bundle.of(list(p2.shares_of("ICSF")), icsf))
    assert icsf.owner is game.pool and icsf.presidents_share.owner is game.pool
