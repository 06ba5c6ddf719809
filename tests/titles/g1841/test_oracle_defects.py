"""The selfplay driver steers clear of 18xx.games' defects (docs/architecture.md), positions
18xx.games' engine cannot go on from or plays on against the rules: for example it does not
transform a one-token minor whose chain cannot pay the required L.50 token (B, rules/1841.md
2.3.12, Token EMR), does not buy the first 4-train while the Tuscan merge would transform a
corporation no player controls (D, 2.4.2) or while IRSFF, as the concessions' closing leaves
it, has no controlling player (A, 2.4 item 1, 2.4.1), and makes no transformation that changes
a corporation's frozen state (I, 2.3.10).  The positions are reached by the random driver
itself (3 players), then the one thing that matters is set on either side: the cash of the
minor's chain, the Tuscan corporations floated and SFMA's president, the holders of IRSFF or
of a pool-presided corporation."""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Callable

import oracle_defects_1841 as oracle_defects  # tools/: differential tooling
import pytest

from stellwerk.api import Game
from stellwerk.core.entities import Corporation, Player, controller, move_share, transfer
from stellwerk.core.policy import LIVE, RECORDED
from stellwerk.core.shares import Bundle
from stellwerk.selfplay import Action, choose_action, choose_clear, lay_picker, offered
from stellwerk.titles.g1841 import decisions, emergency, frozen, ownership, token_emr
from stellwerk.titles.g1841.game import Game1841
from stellwerk.titles.g1841.merging_steps import MergeStep, TransformStep
from stellwerk.titles.g1841.secession import Secession
from stellwerk.titles.g1841.stock import Shares1841
from stellwerk.titles.g1841.transform import REQUIRED_TOKEN_PRICE

from .setup_helpers import start
from .test_stock_rounds import game_in_sr

VETO = oracle_defects.veto


def transforms(game: Game, legal: list[Action]) -> list[Action]:
    engine = game.engine
    return [
        a
        for a in legal
        if a.get("type") == "merge"
        and isinstance(engine.round.step_for_entity(engine.entity(a)), TransformStep)
    ]


def played_until(
    options: list[str], wanted: Callable[[Game, list[Action]], bool], first_seed: int = 1
) -> tuple[Game, list[Action]]:
    """A selfplay game (3 players) played until ``wanted`` holds for the offered actions."""
    for seed in range(first_seed, first_seed + 11):
        game = Game.create("1841", [(i, f"Player {i}") for i in (1, 2, 3)], options, seed)
        rng = random.Random(seed)
        for played in range(2000):
            legal = offered(game, played)
            if wanted(game, legal):
                return game, legal
            lay = lay_picker(game, rng, played)
            if not legal and lay is not None and (only := lay()) is not None:
                legal = [only]
            if not legal or game.finished:
                break
            game.process(choose_action(legal, rng, lay))
    pytest.fail("no selfplay game reached the position")


def one_token_transform_offered(options: tuple[str, ...] = ()) -> tuple[Game, list[Action]]:
    """A lite game (with ``options`` besides) where a one-token minor may transform."""

    def wanted(game: Game, legal: list[Action]) -> bool:
        found = transforms(game, legal)
        return bool(found) and game.engine.entity(found[0]).num_tokens == 1  # type: ignore[union-attr]

    return played_until(["lite", *options], wanted)


def set_chain_cash(engine: Game1841, minor_sym: str, minor_cash: int) -> None:
    """The minor holds ``minor_cash``, its owners up to the controlling player nothing."""
    minor = engine.corporation(minor_sym)
    for owner in emergency.owners(minor):
        transfer(owner, engine.bank, owner.cash, "test")
    transfer(minor, engine.bank, minor.cash, "test")
    transfer(engine.bank, minor, minor_cash, "test")
    engine.changing()


def after_transform(game: Game, action: Action) -> Game1841:
    """A copy with ``action`` played and every share offer declined: at the token question."""
    trial = copy.deepcopy(game)
    trial.process(action)
    while True:
        legal = trial.legal_actions()
        offers = [a for a in legal if a.get("type") == "choose" and a.get("choice") == "no"]
        if not offers:
            return trial.engine  # type: ignore[return-value]
        trial.process(offers[0])


def test_defect_b_transform_short_of_token_is_avoided_rules_2_3_12() -> None:
    """Minor with one token, chain cash below L.50: the check names B, the driver never
    picks the transformation (it counts what it put aside), and the transformation would
    indeed reach the position 18xx.games cannot go on from (token EMR with the question
    open: the sweep cannot pay the required token)."""
    game, legal = one_token_transform_offered()
    xf = transforms(game, legal)
    minor = str(xf[0]["entity"])
    set_chain_cash(game.engine, minor, REQUIRED_TOKEN_PRICE - 10)  # type: ignore[arg-type]
    assert all(oracle_defects.veto(game, a) == "B" for a in xf)
    assert all(oracle_defects.veto(game, a) is None for a in legal if a not in xf)
    avoided: dict[str, int] = {}
    for seed in range(60):
        picked = choose_clear(game, legal, random.Random(seed), None, avoided, VETO)
        assert picked not in xf
    assert avoided.get("B", 0) > 0
    engine = after_transform(game, xf[0])
    assert token_emr.question_open(engine) and not token_emr.required_payable(engine)


def test_defect_b_not_avoided_when_chain_pays_the_token_rules_2_3_12() -> None:
    """The same position with L.50 in the minor's treasury: no defect, the driver may
    transform, and after the transformation the required token can be paid."""
    game, legal = one_token_transform_offered()
    xf = transforms(game, legal)
    minor = str(xf[0]["entity"])
    set_chain_cash(game.engine, minor, REQUIRED_TOKEN_PRICE)  # type: ignore[arg-type]
    assert all(oracle_defects.veto(game, a) is None for a in legal)
    assert oracle_defects.leads_to_defect(game.engine, xf[0]) is None  # type: ignore[arg-type]
    engine = after_transform(game, xf[0])
    assert token_emr.question_open(engine) and token_emr.required_payable(engine)


def tuscan_trains(game: Game, legal: list[Action]) -> list[Action]:
    depot = {t.id: t for t in game.engine.depot.trains}
    return [
        a
        for a in legal
        if a.get("type") == "buy_train"
        and oracle_defects.TUSCAN_MERGE_EVENT
        in getattr(depot.get(str(a.get("train"))), "events", [])
    ]


def floated_with_price(engine: Game1841, corp: Corporation) -> None:
    """``corp`` floated, as the position needs whatever the game reached: parred at L.100
    and presided by the first player if it had no price (a floated corporation has both)."""
    corp.floated = True
    if corp.share_price is None:
        cell = engine.market.cell_by_id("100,3,5")
        assert cell is not None
        engine.set_par(corp, cell)
        engine.set_president(corp, engine.players[0])


def tuscan_sfma_transform(game: Game, sfma_president_pool: bool) -> Game1841:
    """Only SFMA and SSFL floated (the merge transforms SFMA); SFMA presided by the pool or
    by a player."""
    engine: Game1841 = game.engine  # type: ignore[assignment]
    sflp, sfma, ssfl = (engine.corporation(s) for s in ("SFLP", "SFMA", "SSFL"))
    sflp.floated = False
    for corp in (sfma, ssfl):
        floated_with_price(engine, corp)
    engine.set_president(sfma, engine.pool if sfma_president_pool else engine.players[0])
    engine.corporation("IRSFF").floated = False  # no secession (defect A) in the way
    engine.changing()
    return engine


def test_defect_a_first_4_train_not_bought_while_irsff_uncontrolled_2_4_1() -> None:
    """The first 4-train starts the secession; with IRSFF floated and no player controlling
    it 18xx.games may find no decider: the check names A for that purchase only, and not
    once a player controls IRSFF."""
    game, legal = played_until([], lambda g, legal: bool(tuscan_trains(g, legal)))
    buys = tuscan_trains(game, legal)
    engine: Game1841 = game.engine  # type: ignore[assignment]
    for sym in ("SFLP", "SFMA", "SSFL"):  # no Tuscan transformation (defect D) in the way
        engine.corporation(sym).floated = False
    irsff = engine.corporation("IRSFF")
    irsff.floated = True
    engine.set_president(irsff, engine.pool)
    engine.changing()
    assert all(oracle_defects.veto(game, a) == "A" for a in buys)
    assert all(oracle_defects.veto(game, a) is None for a in legal if a not in buys)
    avoided: dict[str, int] = {}
    for seed in range(20):
        assert choose_clear(game, legal, random.Random(seed), None, avoided, VETO) not in buys
    engine.set_president(irsff, engine.players[0])
    engine.changing()
    assert all(oracle_defects.veto(game, a) is None for a in legal)


def test_defect_d_first_4_train_not_bought_for_uncontrolled_tuscan_transform_2_4_2() -> None:
    """The first 4-train starts the Tuscan merge; with only SFMA and SSFL floated it
    transforms SFMA, which 18xx.games cannot do while no player controls SFMA: the check
    names D for that purchase only, and the driver picks something else."""
    game, legal = played_until([], lambda g, legal: bool(tuscan_trains(g, legal)))
    buys = tuscan_trains(game, legal)
    tuscan_sfma_transform(game, sfma_president_pool=True)
    assert all(oracle_defects.veto(game, a) == "D" for a in buys)
    assert all(oracle_defects.veto(game, a) is None for a in legal if a not in buys)
    avoided: dict[str, int] = {}
    assert len(buys) < len(legal)  # something else is offered (a pass at least)
    for seed in range(40):
        assert choose_clear(game, legal, random.Random(seed), None, avoided, VETO) not in buys
    assert avoided.get("D", 0) > 0
    tuscan_sfma_transform(game, sfma_president_pool=False)
    assert all(oracle_defects.veto(game, a) is None for a in legal)


def secession_tokens_asked(game: Game, legal: list[Action]) -> bool:
    asked = decisions.current(game.engine)  # type: ignore[arg-type]
    return asked is not None and isinstance(asked[0], Secession) and asked[1].topic == "buy_tokens"


def test_defect_f_decider_buys_no_secession_tokens_2_4_1() -> None:
    """The secession's token question for a new corporation no player controls is answered
    by the decider; 18xx.games cannot take any count but 0 then: the check names F for
    those counts only, and nothing when a player controls the corporation (it answers for
    itself)."""
    game, _ = played_until(["lite"], secession_tokens_asked, first_seed=2)
    engine: Game1841 = game.engine  # type: ignore[assignment]
    asked = decisions.current(engine)
    assert asked is not None and isinstance(asked[0], Secession)
    corp = engine.corporation(asked[0].tokens_corp)
    engine.set_president(corp, engine.pool)
    engine.changing()
    legal = game.legal_actions()
    counts = [a for a in legal if a.get("type") == "choose"]
    assert all(a.get("entity_type") == "player" for a in counts) and len(counts) > 1
    for action in counts:
        expected = None if str(action["choice"]) == "0" else "F"
        assert oracle_defects.veto(game, action) == expected
    avoided: dict[str, int] = {}
    for seed in range(30):
        picked = choose_clear(game, counts, random.Random(seed), None, avoided, VETO)
        assert str(picked["choice"]) == "0"
    engine.set_president(corp, engine.players[0])
    engine.changing()
    assert all(oracle_defects.veto(game, a) is None for a in game.legal_actions())


def test_defect_g_first_4_train_not_bought_with_uncontrolled_tuscan_decider_2_4_2() -> None:
    """All three Tuscan corporations floated: the merge's decider is the president of the
    best-priced one; with no player controlling it 18xx.games takes the round's acting
    entity, which can be missing: the check names G for the first 4-train only, and not
    once a player controls that corporation."""
    game, legal = played_until([], lambda g, legal: bool(tuscan_trains(g, legal)))
    buys = tuscan_trains(game, legal)
    engine: Game1841 = game.engine  # type: ignore[assignment]
    engine.corporation("IRSFF").floated = False  # no secession (defect A) in the way
    olds = [engine.corporation(sym) for sym in ("SFLP", "SFMA", "SSFL")]
    for corp in olds:
        floated_with_price(engine, corp)
        engine.set_president(corp, engine.players[0])
    best = min(olds, key=lambda c: c.sort_key())
    engine.set_president(best, engine.pool)
    engine.changing()
    assert all(oracle_defects.veto(game, a) == "G" for a in buys)
    assert all(oracle_defects.veto(game, a) is None for a in legal if a not in buys)
    engine.set_president(best, engine.players[1])
    engine.changing()
    assert all(oracle_defects.veto(game, a) is None for a in legal)


def test_defect_h_last_operator_does_not_transform_rules_2_3_12() -> None:
    """A transformation asks its share offers and token purchase in the operator's turn
    (rules/1841.md 2.3.12), which 18xx.games forgets when nobody is left to operate after it
    (defect H).  With every later corporation done for the round the check names H and the
    driver never picks the transformation; with one left to operate it names nothing."""
    game, legal = one_token_transform_offered()
    xf = transforms(game, legal)
    minor = str(xf[0]["entity"])
    set_chain_cash(game.engine, minor, REQUIRED_TOKEN_PRICE)  # type: ignore[arg-type]
    engine = game.engine
    assert isinstance(engine, Game1841)
    rnd = engine.round
    later = rnd.entities[rnd.entity_index + 1 :]  # type: ignore[attr-defined]
    for corp in later:
        engine.done_this_round.add(corp.sym)
    engine.changing()
    assert all(oracle_defects.veto(game, a) == "H" for a in xf)
    avoided: dict[str, int] = {}
    for seed in range(30):
        assert choose_clear(game, legal, random.Random(seed), None, avoided, VETO) not in xf
    assert avoided.get("H", 0) > 0
    if later:
        engine.done_this_round.discard(later[-1].sym)
        engine.changing()
        assert all(oracle_defects.veto(game, a) is None for a in xf)


def held_by_pool(engine: Game1841, corp: Corporation) -> None:
    """Every certificate of ``corp`` outside its treasury to the pool, which presides it
    (frozen: no player at the end of its chain, rules/1841.md 2.3.10)."""
    for holder in engine.holders():
        if holder is not engine.pool and holder is not corp:
            for share in list(holder.shares_of(corp.sym)):
                move_share(share, engine.pool)
    engine.set_president(corp, engine.pool)


PRINTED_FROZEN_UPDATE = ("transform_refreshes_frozen",)
"""The option of the printed rules' frozen update after a transformation (2.3.9); the default
follows 18xx.games (defect I), so only with it is there anything for the driver to avoid."""


def minor_holds_pool_presided(
    cash_for_token: int, player_tens: int, options: tuple[str, ...] = PRINTED_FROZEN_UPDATE
) -> tuple[Game, list[Action]]:
    """A one-token minor may transform (its chain can pay the token); a floated corporation X
    is presided by the pool (frozen), the minor's controlling player holds ``player_tens`` of
    its 10 % certificates and the minor one."""
    game, legal = one_token_transform_offered(options)
    engine: Game1841 = game.engine  # type: ignore[assignment]
    minor = engine.corporation(str(transforms(game, legal)[0]["entity"]))
    set_chain_cash(engine, minor.sym, cash_for_token)
    player = controller(minor)
    assert player is not None
    x = next(
        c
        for c in engine.corporations
        if c.floated
        and c is not minor
        and c.presidents_share is not None
        and c.presidents_share.owner is not minor
        and c.share_unit == 10
    )
    held_by_pool(engine, x)
    tens = [s for s in engine.pool.shares_of(x.sym) if not s.president]
    for share in tens[:player_tens]:
        move_share(share, player)
    move_share(tens[player_tens], minor)
    frozen.update(engine)
    engine.changing()
    assert frozen.is_frozen(engine, x)
    return game, legal


def test_defect_i_transform_that_thaws_another_corporation_is_avoided_rules_2_3_10() -> None:
    """The minor's 10 % of a pool-presided corporation passes to the major in the
    transformation, and the presidency check of that move gives the corporation to the
    player holding 20 % (rules/1841.md 2.3.9): no longer frozen (2.3.10), which 18xx.games
    does not bring up to date after a transformation (defect I).  The check names I for the
    transformations only, the driver never picks one, and the copy shows the thaw."""
    game, legal = minor_holds_pool_presided(REQUIRED_TOKEN_PRICE, player_tens=2)
    xf = transforms(game, legal)
    assert all(oracle_defects.veto(game, a) == "I" for a in xf)
    assert all(oracle_defects.veto(game, a) is None for a in legal if a not in xf)
    avoided: dict[str, int] = {}
    for seed in range(30):
        assert choose_clear(game, legal, random.Random(seed), None, avoided, VETO) not in xf
    assert avoided.get("I", 0) > 0
    engine: Game1841 = game.engine  # type: ignore[assignment]
    before = {c.sym for c in engine.corporations if frozen.is_frozen(engine, c)}
    trial = copy.deepcopy(game)
    trial.process(xf[0])
    after_engine: Game1841 = trial.engine  # type: ignore[assignment]
    after = {c.sym for c in after_engine.corporations if frozen.is_frozen(after_engine, c)}
    assert before - after


def test_defect_i_not_named_when_no_frozen_state_changes_rules_2_3_10() -> None:
    """The same position with the player at 10 %: the minor's share moving to the major
    settles no presidency (nobody reaches the president's 20 %), every frozen state stays,
    and the check names nothing (the transformation is tried on a copy all the same)."""
    game, legal = minor_holds_pool_presided(REQUIRED_TOKEN_PRICE, player_tens=1)
    xf = transforms(game, legal)
    assert all(oracle_defects.veto(game, a) is None for a in legal)
    engine: Game1841 = game.engine  # type: ignore[assignment]
    assert oracle_defects.transform_changes_frozen(engine, xf[0]) is False


def test_defect_i_not_named_in_the_default_that_follows_18xx_games_rules_2_3_10() -> None:
    """The thawing position of the test above without the printed rules' update: the default
    holds the frozen states after a transformation as 18xx.games does (defect I,
    ``Game1841.frozen_held``), so both engines agree and nothing is set aside."""
    game, legal = minor_holds_pool_presided(REQUIRED_TOKEN_PRICE, player_tens=2, options=())
    xf = transforms(game, legal)
    assert xf
    assert all(oracle_defects.veto(game, a) is None for a in xf)


def first_4_train_with_irsff_held(president_pool: bool) -> tuple[Game, list[Action], Corporation]:
    """The first 4-train is offered, IRSFF's concession still open; IRSFF has floated,
    presided by the first player with its president's certificate (20 %), while another
    corporation Y holds 30 % of it.  Y is presided by the pool (frozen) or by the second
    player.  The Tuscan merge and other corporations' presidencies are kept out of the way."""
    game, _ = played_until([], lambda g, legal: bool(tuscan_trains(g, legal)))
    engine: Game1841 = game.engine  # type: ignore[assignment]
    for sym in ("SFLP", "SFMA", "SSFL"):  # no Tuscan transformation (defect D) in the way
        engine.corporation(sym).floated = False
    irsff = engine.corporation("IRSFF")
    floated_with_price(engine, irsff)
    held_by_pool(engine, irsff)
    y = next(
        c
        for c in engine.corporations
        if c.floated and c.sym not in ("IRSFF", "SFLP", "SFMA", "SSFL") and c.presidents_share
    )
    pres = irsff.presidents_share
    assert pres is not None
    if pres.owner is not engine.pool:
        move_share(pres, engine.pool)
    tens = [s for s in engine.pool.shares_of("IRSFF") if not s.president]
    move_share(pres, engine.players[0])
    for share in tens[:3]:
        move_share(share, y)
    engine.set_president(irsff, engine.players[0])
    held_by_pool(engine, y)
    if not president_pool:
        y_pres = y.presidents_share
        assert y_pres is not None
        move_share(y_pres, engine.players[1])
        engine.set_president(y, engine.players[1])
    company = next(c for c in engine.companies if c.sym == "IRSFF")
    company.closed = False
    frozen.update(engine)
    engine.changing()
    return game, tuscan_trains(game, game.legal_actions()), y


def test_defect_a_irsff_falls_to_uncontrolled_corporation_when_concessions_close_2_4() -> None:
    """The first 4-train closes the concessions before the secession, and IRSFF's
    presidency check then hands it to Y, its largest holder (rules/1841.md 2.4 item 1):
    with Y presided by the pool no player controls IRSFF at the secession, so the check
    names A for that purchase although a player controls IRSFF now; and the driver picks
    something else."""
    game, buys, y = first_4_train_with_irsff_held(president_pool=True)
    engine: Game1841 = game.engine  # type: ignore[assignment]
    assert buys and controller(engine.corporation("IRSFF")) is engine.players[0]
    closed = oracle_defects.after_concessions_close(engine)
    assert closed.corporation("IRSFF").owner is closed.corporation(y.sym)
    assert engine.corporation("IRSFF").owner is engine.players[0]  # the copy's own holders
    legal = game.legal_actions()
    assert all(oracle_defects.veto(game, a) == "A" for a in buys)
    assert all(oracle_defects.veto(game, a) is None for a in legal if a not in buys)
    avoided: dict[str, int] = {}
    for seed in range(20):
        assert choose_clear(game, legal, random.Random(seed), None, avoided, VETO) not in buys


def test_defect_a_not_named_when_irsff_falls_to_controlled_corporation_2_4() -> None:
    """The same with Y presided by the second player: IRSFF falls to Y at the presidency
    check, a player controls it through Y, and the check names nothing."""
    game, buys, y = first_4_train_with_irsff_held(president_pool=False)
    engine: Game1841 = game.engine  # type: ignore[assignment]
    closed = oracle_defects.after_concessions_close(engine)
    assert closed.corporation("IRSFF").owner is closed.corporation(y.sym)
    assert all(oracle_defects.veto(game, a) is None for a in buys)


def sfv_held(pool_share: bool = False, other_percent: int = 20) -> Game1841:
    """A first-edition game with SFV (a minor: 40 % president's certificate and three of
    20 %) dealt by hand: Player 1 the president's certificate, Player 2 ``other_percent``,
    the pool one 20 % certificate if ``pool_share``, the rest in SFV's treasury."""
    game = Game.create("1841", [(i, f"Player {i}") for i in (1, 2, 3)], ["version_1"], 1)
    engine = game.engine
    assert isinstance(engine, Game1841)
    sfv = engine.corporation("SFV")
    first, second = engine.players[0], engine.players[1]
    pres, *ordinary = list(sfv.treasury_shares())
    move_share(pres, first)
    for share in ordinary[: other_percent // 20]:
        move_share(share, second)
    if pool_share:
        move_share(sfv.treasury_shares()[-1], engine.pool)
    engine.set_president(sfv, first)
    return engine


def partial_sale(percent: int = 20) -> dict[str, object]:
    return {"type": "sell_shares", "entity": 1, "entity_type": "player",
            "shares": ["SFV_0"], "percent": percent}  # fmt: skip


def test_defect_m_partial_presidents_sale_into_empty_pool_is_named_rules_2_3_7() -> None:
    """Half of SFV's 40 % president's certificate sold in an emergency (rules/1841.md 2.3.7:
    part of a president's certificate may go while another player holds more than 10 %),
    nobody reaching 40 % after it and no SFV certificate in the pool to give the unsold half
    back: the check names M (18xx.games' random game, 5 players, seed 31010, action 341)."""
    engine = sfv_held()
    assert oracle_defects.partial_president_sale_unreturned(engine, partial_sale())
    assert oracle_defects.leads_to_defect(engine, partial_sale()) == "M"


def test_defect_m_not_named_when_the_pool_returns_the_part_or_the_sale_is_whole() -> None:
    """A 20 % certificate in the pool gives the unsold half back, a holder of 40 % takes the
    presidency and the certificate, and a sale of the whole certificate leaves no part: none
    is M (rules/1841.md 2.3.7)."""
    assert oracle_defects.leads_to_defect(sfv_held(pool_share=True), partial_sale()) is None
    assert oracle_defects.leads_to_defect(sfv_held(other_percent=40), partial_sale()) is None
    assert oracle_defects.leads_to_defect(sfv_held(), partial_sale(40)) is None


def cgtf_certificate_apart(president_percent: int = 30) -> Game1841:
    """A lite game with player-to-player purchases, CGTF dealt by hand as our selfplay game
    (6 players, seed 76753) had it before action 814: Player 2 holds the 20 % president's
    certificate (bought alone from the president, rules/1841.md 4.3), Player 3 presides with
    ``president_percent`` in 10 % shares, the pool holds 40 %, the rest stays in CGTF's
    treasury."""
    game = Game.create(
        "1841", [(i, f"Player {i}") for i in (1, 2, 3)], ["lite", "p2p_purchases"], 1
    )
    engine = game.engine
    assert isinstance(engine, Game1841)
    cgtf = engine.corporation("CGTF")
    second, third = engine.players[1], engine.players[2]
    pres, *ordinary = list(cgtf.treasury_shares())
    move_share(pres, second)
    for share in ordinary[: president_percent // 10]:
        move_share(share, third)
    for share in ordinary[president_percent // 10 : president_percent // 10 + 4]:
        move_share(share, engine.pool)
    engine.set_president(cgtf, third)
    return engine


def holder_sale(
    percent: int = 10, entity: int = 2, shares: tuple[str, ...] = ("CGTF_0",)
) -> Action:
    return {"type": "sell_shares", "entity": entity, "entity_type": "player",
            "shares": list(shares), "percent": percent}  # fmt: skip


def test_defect_p_partial_sale_of_a_certificate_held_apart_from_the_presidency_2_2_1() -> None:
    """Half of CGTF's president's certificate sold by Player 2, who holds it without
    presiding, while the president, Player 3, still holds the most: the presidency stays
    (rules/1841.md 2.2.1: it passes only to a holder with more), the unsold half is never
    given back and 18xx.games' percentage book keeps Player 2 at 10 % more than his
    certificates, so a later tie by certificates makes him president there (our selfplay
    lite+p2p_purchases, 6 players, seed 76753: the sale at action 814, the refusal at 1107).
    The check names P, also when the president holds just 20 %, as much as the certificate."""
    engine = cgtf_certificate_apart()
    assert oracle_defects.partial_president_sale_by_holder(engine, holder_sale())
    assert oracle_defects.leads_to_defect(engine, holder_sale()) == "P"
    assert oracle_defects.leads_to_defect(cgtf_certificate_apart(20), holder_sale()) == "P"


def test_defect_p_not_named_for_a_whole_certificate_or_the_presidents_own_sale_2_2_1() -> None:
    """The whole certificate sold leaves no part to give back, and a president selling his
    own 10 % share sells no certificate: neither is P (rules/1841.md 2.2.1).  Nor is the
    president's own partial sale (M's ground, rules/1841.md 2.3.7: the presidency moves or
    goes to the pool, and the part comes back)."""
    engine = cgtf_certificate_apart()
    assert oracle_defects.leads_to_defect(engine, holder_sale(percent=20)) is None
    ordinary = tuple(s.id for s in engine.players[2].shares_of("CGTF"))
    assert oracle_defects.leads_to_defect(engine, holder_sale(10, 3, ordinary[:1])) is None
    engine.set_president(engine.corporation("CGTF"), engine.players[1])
    assert not oracle_defects.partial_president_sale_by_holder(engine, holder_sale())


def merger_partner_offered() -> tuple[Game, Action]:
    """A game where a major may name a merger partner (rules/1841.md 2.3.11), and that
    action."""

    def wanted(game: Game, legal: list[Action]) -> bool:
        return any(merge_partner(game, a) for a in legal)

    game, legal = played_until([], wanted)
    return game, next(a for a in legal if merge_partner(game, a))


def merge_partner(game: Game, action: Action) -> bool:
    if action.get("type") != "merge":
        return False
    engine = game.engine
    step = engine.round.step_for_entity(engine.entity(action))
    return isinstance(step, MergeStep) and step.partner is None


def pairs_to_pool(engine: Game1841, syms: tuple[str, ...]) -> None:
    """Every ordinary certificate of the corporations ``syms`` to the pool (their treasuries'
    too): the pool holds 80 % of each, eight pairs, as many as the new corporation's ordinary
    certificates; the presidents' certificates stay where they are."""
    for holder in engine.holders():
        if holder is engine.pool:
            continue
        for sym in syms:
            for share in list(holder.shares_of(sym)):
                if not share.president:
                    move_share(share, engine.pool)
    engine.changing()


def test_defect_n_merger_with_pool_pairs_beyond_the_new_shares_is_avoided_rules_2_3_11() -> None:
    """The pool holds as many pairs of the two merging corporations as the new corporation
    has ordinary certificates, and a holder before it in the exchange takes one (rules/1841.md
    2.3.11: pairs are exchanged for new shares, and once they run out a holder gets the value
    from the bank, which the pool cannot take; 18xx.games fails there): the check names N for
    the partner, and the driver names another partner or passes.  With the pool holding
    nothing of them it names nothing."""
    game, partner = merger_partner_offered()
    engine = game.engine
    assert isinstance(engine, Game1841)
    syms = (str(partner["entity"]), str(partner["corporation"]))
    assert oracle_defects.veto(game, partner) is None
    pairs_to_pool(engine, syms)
    assert oracle_defects.veto(game, partner) == "N"
    legal = [a for a in game.legal_actions() if a.get("type") in ("merge", "pass")]
    avoided: dict[str, int] = {}
    for seed in range(6):
        assert choose_clear(game, legal, random.Random(seed), None, avoided, VETO) != partner


def test_defect_o_no_transformation_behind_a_stalled_token_purchase_rules_2_3_12() -> None:
    """A transformation's token purchase (rules/1841.md 2.3.12) queued behind a start's
    purchase 18xx.games never asks is never asked either, and the transformation never
    completes (defect O): while a purchase is stalled the check holds for every
    transformation offered and the driver picks none; with nothing stalled it does not hold."""
    game, legal = one_token_transform_offered()
    xf = transforms(game, legal)
    engine = game.engine
    assert isinstance(engine, Game1841)
    set_chain_cash(engine, str(xf[0]["entity"]), 4 * REQUIRED_TOKEN_PRICE)
    assert not any(oracle_defects.transform_behind_stalled_purchase(engine, a) for a in xf)
    closed = next(c for c in engine.corporations if not c.ipoed)
    engine.stalled_token_purchase = closed.sym
    assert all(oracle_defects.transform_behind_stalled_purchase(engine, a) for a in xf)
    assert all(oracle_defects.veto(game, a) is not None for a in xf)
    others = [a for a in legal if a not in xf and a.get("type") == "merge"]
    assert not any(oracle_defects.transform_behind_stalled_purchase(engine, a) for a in others)
    for seed in range(30):
        assert choose_clear(game, legal, random.Random(seed), None, {}, VETO) not in xf


def test_veto_keeps_the_remembered_answers() -> None:
    """The veto looks at the game without making it forget what it remembered about the
    position (``Game.engine_to_look_at``): the driver lists the same position again after a
    veto (the lays hex by hex), and its answers stay remembered.  Positions where nothing is
    remembered anyway (the concession auction's) are passed over."""
    game = Game.create("1841", [(n, f"P{n}") for n in range(1, 4)], [], 5)
    rng = random.Random(5)
    looked = 0
    for _ in range(1500):
        if game.finished or looked >= 5:
            break
        legal = game.legal_actions()
        watched = [a for a in legal if a.get("type") in oracle_defects.WATCHED_TYPES]
        with game.engine_to_look_at.remembering():
            remembered = game.engine_to_look_at.memo_key is not None
        if watched and remembered:
            VETO(game, watched[0])
            with game.engine_to_look_at.remembering():
                assert game.engine_to_look_at.memo_key is not None
            looked += 1
        game.process(choose_action(legal, rng))
    assert looked >= 5


def emergency_before_tuscan_train() -> tuple[Game, list[Action], Corporation]:
    """The first 4-train (with the Tuscan merge) the cheapest depot train, the operator with
    no train and L.100, its president L.400: short of it, its emergency sales are offered
    besides other corporations' trains; only SFMA and SSFL floated, SFMA presided by the pool."""
    game, legal = played_until([], lambda g, legal: bool(tuscan_trains(g, legal)))
    engine = tuscan_sfma_transform(game, sfma_president_pool=True)
    operator = engine.entity(tuscan_trains(game, legal)[0])
    assert isinstance(operator, Corporation)
    operator.trains.clear()
    for sym, held in list(operator.shares.items()):
        if sym != operator.sym:  # no shares of others: the operator sells its own
            for share in list(held):
                move_share(share, engine.pool)
    transfer(operator, engine.bank, operator.cash - 100, "test")
    president = operator.owner
    assert isinstance(president, Player)
    transfer(engine.bank, president, 400 - president.cash, "test")  # the chain pays the train
    engine.depot.discarded.clear()  # the 4-train is the cheapest depot train
    engine.changing()
    return game, game.legal_actions(), operator


def test_defect_d_emergency_sale_forcing_the_tuscan_train_is_avoided_2_3_7_2_4_2() -> None:
    """After an emergency sale the train must be the cheapest depot train (rules/1841.md
    2.3.7), here the first 4-train, whose Tuscan merge transforms SFMA, presided by the pool:
    the sale leads into D as surely as the purchase (our selfplay 5 players sfli_run_variant
    seed 76703: action 1199, a president's sale, left only the 4-train; 18xx.games raised at
    the merge after the secession's questions, action 1210).  The check names D for the
    sales, not for another corporation's train, and the driver picks one of those; not once
    a player controls SFMA."""
    game, legal, _ = emergency_before_tuscan_train()
    sales = [a for a in legal if a.get("type") == "sell_shares"]
    others = [a for a in legal if a.get("type") == "buy_train"]
    assert sales and others
    assert all(str(a["train"]) not in {t.id for t in game.engine.depot.upcoming} for a in others)
    assert all(oracle_defects.veto(game, a) == "D" for a in sales)
    assert all(oracle_defects.veto(game, a) is None for a in others)
    avoided: dict[str, int] = {}
    for seed in range(20):
        assert choose_clear(game, legal, random.Random(seed), None, avoided, VETO) in others
    assert avoided.get("D", 0) > 0
    engine: Game1841 = game.engine  # type: ignore[assignment]
    engine.set_president(engine.corporation("SFMA"), engine.players[0])
    engine.changing()
    assert all(oracle_defects.veto(game, a) is None for a in sales)


def test_defect_d_emergency_sale_towards_bankruptcy_is_not_named_2_3_7_2_6() -> None:
    """The same position with a president who cannot pay the rest: the sales end in
    bankruptcy (rules/1841.md 2.6), not in the 4-train, so they lead into no defect."""
    game, _, operator = emergency_before_tuscan_train()
    engine: Game1841 = game.engine  # type: ignore[assignment]
    president = operator.owner
    assert isinstance(president, Player)
    transfer(president, engine.bank, president.cash, "test")
    engine.changing()
    sales = [a for a in game.legal_actions() if a.get("type") == "sell_shares"]
    assert sales
    assert all(oracle_defects.veto(game, a) is None for a in sales)


def ctda_dump_only(circle: bool) -> tuple[Game1841, Player, Player]:
    """A stock round of the lite first edition in phase 4 (presidencies may move, rules/1841.md
    2.2.1), dealt as our selfplay game (3 players, seed 76807) had it before action 478: the
    player after the one to act presides CTDA with its 20 % president's certificate alone and
    has no cash, ATFA holds 20 % of CTDA and the pool 40 % (room for one 10 % share), both
    have operated; ATFA is presided by CTDA if ``circle``, else by the third player (no cash
    either).  That player's only trade is half of CTDA's certificate, which makes ATFA
    president of CTDA."""
    engine = game_in_sr(phase="4", options=["lite", "version_1"])
    mover = engine.round.current_entity()
    assert isinstance(mover, Player)
    at = engine.players.index(mover)
    after, third = engine.players[(at + 1) % 3], engine.players[(at + 2) % 3]
    ctda = start(engine, "CTDA", "100,3,5", after, {engine.pool: 40})
    start(engine, "ATFA", "100,3,5", ctda if circle else third, {})
    for share in [s for s in ctda.treasury_shares() if not s.president][:2]:
        move_share(share, engine.corporation("ATFA"))
    engine.operated_corps.update({"CTDA", "ATFA"})
    after.cash = third.cash = 0
    return engine, mover, after


def ctda_purchase(engine: Game1841, mover: Player) -> Action:
    share = engine.corporation("CTDA").treasury_shares()[-1]
    return {"type": "buy_shares", "entity": mover.id, "entity_type": "player",
            "shares": [share.id], "percent": 10}  # fmt: skip


def test_defect_q_purchase_handing_the_turn_past_a_circular_only_trade_seed_000_3_1() -> None:
    """Seed 000 item 3.1 (rules/1841.md 2.2.1): no sale after which corporations control each
    other.  The next player's only trade, half of CTDA's certificate, would make ATFA
    (presided by CTDA) president of CTDA: refused here, so after the mover's purchase that
    player is skipped and the mover acts again; 18xx.games, whose circular check never fires
    (defects L, Q), offers the sale and waits for him (our selfplay lite+version_1, 3 players,
    seed 76807: the purchase at action 478, the pass refused at 479 in the file written before
    live play wrote the skip as his pass).  The campaign's classification names Q; the veto
    no longer does (live play writes the skip into the file, test_live_skip_recorded.py)."""
    engine, mover, after = ctda_dump_only(circle=True)
    buy = ctda_purchase(engine, mover)
    here = oracle_defects.turn_after(engine, buy, circular_forbidden=True)
    there = oracle_defects.turn_after(engine, buy, circular_forbidden=False)
    assert here == ("StockRound1841", str(mover.id))
    assert there == ("StockRound1841", str(after.id))
    assert oracle_defects.turn_defect(engine, buy) == "Q"
    assert oracle_defects.leads_to_defect(engine, buy) is None


def test_defect_q_not_named_when_the_trade_makes_no_circle_seed_000_3_1() -> None:
    """With ATFA presided by a player the same sale makes no corporations control each other
    (seed 000 item 3.1): it is offered in both engines, the next player acts in both, and the
    check names nothing; nor with the rule switched off (option allow_circular_control, the
    first printed rules), where 18xx.games' play is ours."""
    engine, mover, after = ctda_dump_only(circle=False)
    buy = ctda_purchase(engine, mover)
    assert oracle_defects.turn_after(engine, buy, circular_forbidden=True) == (
        "StockRound1841",
        str(after.id),
    )
    assert oracle_defects.turn_defect(engine, buy) is None
    engine, mover, _ = ctda_dump_only(circle=True)
    engine.settings = dataclasses.replace(engine.settings, circular_control_forbidden=False)
    assert oracle_defects.turn_defect(engine, ctda_purchase(engine, mover)) is None


def ctda_dump_after_sale(circle: bool) -> tuple[Game1841, Player, Action]:
    """A stock round of the lite edition in phase 4 (presidencies may move, rules/1841.md
    2.2.1), dealt as our selfplay game (lite, 4 players, seed 76817) had it before action 922:
    the player to act, without cash, presides CTDA with its 20 % president's certificate alone
    (ATFA holds 20 % of CTDA, the pool 40 %: room for one 10 % share) and holds 10 % of CGTF
    at L.20, presided by the next player; the others have no cash, all three have operated.
    ATFA is presided by CTDA if ``circle``, else by the third player.  Returned with the
    mover's sale of his CGTF share, after which he cannot buy CGTF again, nor afford anything
    else, and his only trade left is half of CTDA's certificate, which makes ATFA president
    of CTDA."""
    engine = game_in_sr(phase="4", options=["lite"])
    mover = engine.round.current_entity()
    assert isinstance(mover, Player)
    at = engine.players.index(mover)
    after, third = engine.players[(at + 1) % 3], engine.players[(at + 2) % 3]
    ctda = start(engine, "CTDA", "100,3,5", mover, {engine.pool: 40})
    start(engine, "ATFA", "100,3,5", ctda if circle else third, {})
    for share in [s for s in ctda.treasury_shares() if not s.president][:2]:
        move_share(share, engine.corporation("ATFA"))
    start(engine, "CGTF", "20,10,2", after, {mover: 10})
    engine.operated_corps.update({"CTDA", "ATFA", "CGTF"})
    mover.cash = after.cash = third.cash = 0
    (held,) = mover.shares_of("CGTF")
    sale = {"type": "sell_shares", "entity": mover.id, "entity_type": "player",
            "shares": [held.id], "percent": 10}  # fmt: skip
    return engine, mover, sale


def test_defect_q_sale_ending_a_turn_before_a_circular_only_trade_seed_000_3_1() -> None:
    """Seed 000 item 3.1 (rules/1841.md 2.2.1): no sale after which corporations control each
    other.  After his CGTF sale the mover's only trade, half of CTDA's certificate, would make
    ATFA (presided by CTDA) president of CTDA: refused here, so his turn ends; 18xx.games,
    whose circular check never fires (defects L, Q), offers that sale and keeps him to act
    (our selfplay lite, 4 players, seed 76817: Player 3's sale at action 922, Player 1's sale
    refused at 923 in the file written before live play wrote the skip as his pass).  The
    campaign's classification names Q for the sale; the veto no longer does."""
    engine, mover, sale = ctda_dump_after_sale(circle=True)
    here = oracle_defects.turn_after(engine, sale, circular_forbidden=True)
    there = oracle_defects.turn_after(engine, sale, circular_forbidden=False)
    assert here is not None and str(mover.id) not in here[1:]
    assert there == ("StockRound1841", str(mover.id))
    assert oracle_defects.turn_defect(engine, sale) == "Q"
    assert oracle_defects.leads_to_defect(engine, sale) is None


def test_defect_q_not_named_for_a_sale_leaving_the_turn_alike_seed_000_3_1() -> None:
    """With ATFA presided by a player, half of CTDA's certificate makes no corporations
    control each other (seed 000 item 3.1): after the CGTF sale the mover acts on in both
    engines, and the check names nothing; nor with the rule switched off (option
    allow_circular_control), where 18xx.games' play is ours."""
    engine, mover, sale = ctda_dump_after_sale(circle=False)
    assert oracle_defects.turn_after(engine, sale, circular_forbidden=True) == (
        "StockRound1841",
        str(mover.id),
    )
    assert oracle_defects.turn_defect(engine, sale) is None
    engine, _, sale = ctda_dump_after_sale(circle=True)
    engine.settings = dataclasses.replace(engine.settings, circular_control_forbidden=False)
    assert oracle_defects.turn_defect(engine, sale) is None


def ctda_half_sale(engine: Game1841, seller: Player) -> Action:
    """``seller``'s sale of half of CTDA's 20 % president's certificate (10 %)."""
    (certificate,) = seller.shares_of("CTDA")
    return {"type": "sell_shares", "entity": seller.id, "entity_type": "player",
            "shares": [certificate.id], "percent": 10}  # fmt: skip


def test_live_play_refuses_the_circular_sale_seed_000_3_1() -> None:
    """Seed 000 item 3.1 (rules/1841.md 2.2.1), checked in live play (``LIVE``, policy field
    ``control_loops``): half of CTDA's certificate would make ATFA, presided by CTDA, president
    of CTDA, so the sale is not offered, and the next player is skipped after the mover's
    purchase (defect Q: our selfplay lite+version_1, 3 players, seed 76807, action 478)."""
    engine, mover, after = ctda_dump_only(circle=True)
    assert engine.policy is LIVE
    step = engine.round.active_step()
    (certificate,) = after.shares_of("CTDA")
    bundle = Bundle.of([certificate], engine.corporation("CTDA"), 10)
    assert isinstance(step, Shares1841)
    assert not step.can_sell(after, bundle)
    assert ownership.circle_refused(engine, bundle, engine.pool, True)
    engine.policy = RECORDED
    assert step.can_sell(after, bundle)
    engine.policy = LIVE
    engine.process_action(ctda_purchase(engine, mover))
    assert engine.round.current_entity() is mover


def test_a_replay_takes_the_circular_sale_as_18xx_games_does_seed_000_3_1() -> None:
    """A recorded file is replayed with ``RECORDED`` (policy field ``control_loops`` off):
    18xx.games' check of seed 000 item 3.1 never fires (docs/architecture.md, defects L and
    Q), so its files hold such trades and a replay takes them.  After the mover's purchase the
    next player is to act, as there, and his sale of half of CTDA's certificate makes ATFA
    (presided by CTDA) president of CTDA; the corporations of the loop are frozen (our
    selfplay lite+version_1, 3 players, seed 76807, actions 478-479)."""
    engine, mover, after = ctda_dump_only(circle=True)
    engine.policy = RECORDED
    engine.process_action(ctda_purchase(engine, mover))
    assert engine.round.current_entity() is after
    engine.process_action(ctda_half_sale(engine, after))
    ctda, atfa = engine.corporation("CTDA"), engine.corporation("ATFA")
    assert ctda.owner is atfa and atfa.owner is ctda
    assert controller(ctda) is None
    assert engine.round.current_entity() is after


def test_forced_sales_are_followed_one_way_a_bounded_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    """``sale_forces_defect_train`` follows a run of forced emergency sales (rules/1841.md
    2.3.7) one way, at most ``FORCED_SALES_FOLLOWED`` sales deep: trying every order of them
    multiplied the game copies by the sales offered at each depth (our selfplay 6 players
    p2p_purchases+version_1 seed 76809 spent 20 minutes in it).  Here the copies never get
    further (two sales are always offered, nothing else): one copy per sale followed, then
    no letter."""
    game, legal, _ = emergency_before_tuscan_train()
    engine = game.engine_to_look_at
    sales = [a for a in legal if a.get("type") == "sell_shares"][:2]
    assert len(sales) == 2

    class Stuck:
        """A copy on which the sale changes nothing: the same round, the same depot."""

        round = engine.round
        depot = engine.depot

        def resume(self) -> None:
            pass

        def process_action(self, action: Action) -> None:
            pass

    copies: list[Stuck] = []

    def copy(_: object) -> Stuck:
        copies.append(Stuck())
        assert len(copies) <= 100, "the sales are followed in every order"
        return copies[-1]

    monkeypatch.setattr(oracle_defects, "copy_engine", copy)
    monkeypatch.setattr("stellwerk.core.legal.legal_actions", lambda _: list(sales))
    assert oracle_defects.sale_forces_defect_train(engine, sales[0]) is None  # type: ignore[arg-type]
    assert len(copies) == oracle_defects.FORCED_SALES_FOLLOWED + 1
