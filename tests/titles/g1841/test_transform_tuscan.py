"""1841's transformation (rules/1841.md 2.3.12) and the Tuscan Merge (2.4.2), on the position
of 1841_game_end_bankrupt just before its Tuscan Merge (tests/titles/g1841/traced.py)."""

from __future__ import annotations

import dataclasses

import pytest

from stellwerk.core.entities import Corporation, move_share, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.core.moves import parse
from stellwerk.titles.g1841 import frozen, journal, merger, transform, tuscan
from stellwerk.titles.g1841.decisions import Decisions, queue
from stellwerk.titles.g1841.game import Game1841
from stellwerk.titles.g1841.merging_steps import TransformStep
from stellwerk.words import story

from .traced import actions, differences, fixture, game_before, trace_lines

NAME = "1841_game_end_bankrupt"


def before_tuscan_merge() -> tuple[Game1841, OperatingRound]:
    """The state after the Ferdinandea Secession of action 199 (SB's token bought, IRSFF
    closed), CTDA operating (it bought the first 4-train), as the events engineer's secession
    leaves it."""
    game = game_before(NAME, 199)
    transfer(game.corporation("SB"), game.bank, 50)
    irsff = game.corporation("IRSFF")
    for share in list(irsff.certificates):
        if share.owner is not irsff:
            merger.return_to_ipo(share, game)
    merger.restart_corporation(game, irsff)
    rnd = OperatingRound.__new__(OperatingRound)
    rnd.game = game
    rnd.entities = game.operating_order()
    rnd.entity_index = rnd.entities.index(game.corporation("CTDA"))
    game.round = rnd
    return game, rnd


def test_tuscan_merge_of_the_bankrupt_fixture() -> None:
    """rules/1841.md 2.4.2 and 5.5 item 8: SSFL never started, so SFLP and SFMA merge into
    SFLi directly (L.106); the minors exchange automatically; SFLi keeps Firenze and its
    president removes the Lucca token (``remove_token`` 15-0-0); SFLi gets 5 tokens and --
    second edition, none of the three has operated this round -- runs in this round, sorted
    in by price (seed 000 item 4.2, seed 003 H3)."""
    game, rnd = before_tuscan_merge()
    path = fixture(NAME)
    lines, recorded = trace_lines(path), actions(path)
    procedure = tuscan.start(game)
    assert procedure is not None
    assert differences(game, lines[199]) == []
    decisions = Decisions(game, rnd)
    asked = decisions.asked()
    assert asked is not None and asked.entity is game.corporation("SFLi")
    assert asked.cities == ["15-0-0"] and "pass" in asked.kinds
    decisions.process(recorded[200], asked.entity)
    assert differences(game, lines[200]) == []
    sfli = game.corporation("SFLi")
    assert sfli.num_tokens == merger.MAX_TOKENS
    assert sfli in rnd.entities and "SFLi" not in game.done_this_round
    assert game.corporation("SFLP").closed and game.corporation("SFMA").closed


def test_seed_000_item_1_17_sfli_does_not_run_in_the_first_edition_rule() -> None:
    """seed 000 item 1.17 (rules/1841.md 2.4.2, 4.4): when the settings say SFLi does not run
    in its formation round, it is done for this round."""
    game, rnd = before_tuscan_merge()
    game.settings = game.settings.__class__(edition=2, sfli_formation_or_run=False)
    tuscan.start(game)
    decisions = Decisions(game, rnd)
    asked = decisions.asked()
    assert asked is not None
    decisions.process({"type": "pass", "entity": 0}, asked.entity)
    assert "SFLi" in game.done_this_round


def test_seed_000_item_3_4_sfli_without_president_goes_frozen() -> None:
    """seed 000 item 3.4 (rules/1841.md 2.4.2): if nobody takes SFLi's presidency its
    president's certificate lies in the pool, SFLi is frozen and keeps tokens only in Pisa and
    Firenze -- removed by rule, nobody is asked."""
    game, _ = before_tuscan_merge()
    for sym in ("SFLP", "SFMA"):
        corp = game.corporation(sym)
        pres = corp.presidents_share
        assert pres is not None
        move_share(pres, game.pool)
        corp.owner = None
    # stays floated and mergeable for the event (the Tuscan merge ignores mergeability)
    tuscan.start(game)
    sfli = game.corporation("SFLi")
    assert not game.procedures
    assert sfli.owner is game.pool and merger.is_frozen(game, sfli)
    assert game.map.board.token_hexes("SFLi") == ["R14"]


def test_transformation_of_a_minor() -> None:
    """rules/1841.md 2.3.12: SFMA (historical, phase 4) transforms into ATFA: ATFA takes
    SFMA's cell at the end of its stack and its place in the order, the president's 40 %
    becomes ATFA's president's certificate and each 20 % one 10 % share, assets and tokens
    move; offers are skipped for who cannot buy; with one token ATFA must buy one (L.50) and
    may buy more (L.100 each); SFMA closes and both are done for this round."""
    game, rnd = before_tuscan_merge()
    sfma, atfa = game.corporation("SFMA"), game.corporation("ATFA")
    assert transform.transformable(game, sfma)
    cell = sfma.share_price
    assert cell is not None
    holders = {h: p for h, p in sfma.share_holders.items() if h is not sfma}
    president = sfma.owner
    trains = list(sfma.trains)
    transfer(game.bank, sfma, 300)
    cash = sfma.cash
    procedure = transform.start_transform(game, sfma, atfa)
    queue(game, procedure)
    assert atfa.share_price is cell and cell.corporations[-1] == "ATFA"
    assert atfa.owner is president and atfa.trains == trains
    for holder, pct in holders.items():
        assert holder.percent_of("ATFA") == pct // 2, holder.name
    assert game.map.board.token_hexes("ATFA") == ["R14"]
    decisions = Decisions(game, rnd)
    while (asked := decisions.asked()) is not None and asked.topic == "share_offer":
        decisions.process({"type": "choose", "entity": 0, "choice": "no"}, asked.entity)
    asked = decisions.asked()
    assert asked is not None and asked.topic == "buy_tokens" and asked.choices[0] == 1
    assert atfa.cash >= cash
    before = atfa.cash
    decisions.process({"type": "choose", "entity": 0, "choice": 1}, asked.entity)
    assert atfa.num_tokens == 2 and atfa.cash == before - transform.REQUIRED_TOKEN_PRICE
    assert sfma.closed and {"SFMA", "ATFA"} <= game.done_this_round
    assert not game.procedures


def test_seed_000_item_2_5_transform_token_paid_with_help() -> None:
    """seed 000 item 2.5 (rules/1841.md 2.3.12, Token EMR): a target that cannot pay the
    required L.50 token gets the rest from up its chain of control (the president helps)."""
    game, rnd = before_tuscan_merge()
    sfma, atfa = game.corporation("SFMA"), game.corporation("ATFA")
    queue(game, transform.start_transform(game, sfma, atfa))
    decisions = Decisions(game, rnd)
    while (asked := decisions.asked()) is not None and asked.topic == "share_offer":
        decisions.process({"type": "choose", "entity": 0, "choice": "no"}, asked.entity)
    assert asked is not None and asked.choices == [1]
    president = merger.controller(atfa)
    assert president is not None
    short = transform.REQUIRED_TOKEN_PRICE - atfa.cash
    assert short > 0
    cash = president.cash
    decisions.process({"type": "choose", "entity": 0, "choice": 1}, asked.entity)
    assert atfa.cash == 0 and president.cash == cash - short and atfa.num_tokens == 2


def test_transform_offers_skip_who_cannot_buy() -> None:
    """rules/1841.md 2.3.12: an offer goes only to who can buy (a share left, the cash, the
    certificate limit, the 60 % counted for the controlling player, not a controlled
    corporation)."""
    game, _ = before_tuscan_merge()
    atfa = game.corporation("ATFA")
    sfma = game.corporation("SFMA")
    transform.start_transform(game, sfma, atfa)
    broke = game.players[0]
    broke.cash = 0
    assert not transform.can_buy_offered(game, broke, atfa)
    assert not transform.can_buy_offered(game, atfa, atfa)
    rich = game.players[1]
    rich.cash = 10_000
    assert transform.can_buy_offered(game, rich, atfa) == (
        game.controlled_percent(rich, atfa) + 10 <= 60 and game.within_cert_limit(rich)
    )
    assert isinstance(atfa, Corporation)


def test_transform_step_protocol() -> None:
    """rules/1841.md 2.3.2 item 14, 5.3: the Transform step offers ``merge`` {target} and
    ``pass`` to a minor that may transform while a target exists, nothing to a major; the
    ``merge`` starts the transformation."""
    game, rnd = before_tuscan_merge()
    sfma = game.corporation("SFMA")
    rnd.entities, rnd.entity_index = [sfma], 0
    step = TransformStep(game, rnd)
    step.setup()
    assert step.actions(sfma) == ["merge", "pass"]
    assert {a.get("corporation") for a in step.choices(sfma)} >= {"ATFA"}
    step.process({"type": "merge", "entity": 0, "corporation": "ATFA"}, sfma)
    assert step.actions(sfma) == [] and game.corporation("ATFA").ipoed
    ctda = game.corporation("CTDA")
    rnd.entities = [ctda]
    assert TransformStep(game, rnd).actions(ctda) == []


def test_a_refused_transformation_names_what_it_may_form() -> None:
    """rules/1841.md 2.3.12: a transformation forms a non-historical major not yet started;
    naming a historical one (SFTG) or a started one is refused naming that rule (the step's
    reason for the live gate, and the procedure's own check), not the turn order; a listed
    target has no refusal."""
    game, rnd = before_tuscan_merge()
    sfma = game.corporation("SFMA")
    rnd.entities, rnd.entity_index = [sfma], 0
    step = TransformStep(game, rnd)
    step.setup()
    merge = {"type": "merge", "entity": "SFMA", "entity_type": "corporation"}
    assert step.why_refused(sfma, parse({**merge, "corporation": "ATFA"})) is None
    for sym in ("SFTG", "CTDA"):
        refusal = step.why_refused(sfma, parse({**merge, "corporation": sym}))
        assert refusal is not None and refusal.rule == transform.RULE_TARGET, sym
        with pytest.raises(IllegalAction) as raised:
            transform.start_transform(game, sfma, game.corporation(sym))
        assert raised.value.rule == transform.RULE_TARGET


def last_operator_transforms(rules: bool) -> tuple[Game1841, OperatingRound]:
    """SFMA, the operating round's last operator with every other corporation done, has begun
    its transformation into ATFA (its share offers asked first); ``rules``: the settings of
    the printed rules for the round's end (``or_waits_for_last_decisions``)."""
    from stellwerk.titles.g1841.operating import OperatingRound1841

    game, _ = before_tuscan_merge()
    if rules:
        game.settings = dataclasses.replace(game.settings, round_waits_for_decisions=True)
    sfma, atfa = game.corporation("SFMA"), game.corporation("ATFA")
    rnd = OperatingRound1841.__new__(OperatingRound1841)
    OperatingRound.__init__(rnd, game, [Decisions], 1)
    rnd.entity_index = rnd.entities.index(sfma)
    rnd.current_operator = sfma
    game.round = rnd
    transfer(game.bank, sfma, 300)
    queue(game, transform.start_transform(game, sfma, atfa))
    for corp in rnd.entities:
        game.done_this_round.add(corp.sym)
    assert not rnd.any_to_act()
    return game, rnd


def test_last_operators_transformation_keeps_the_round_open_rules_2_3_12() -> None:
    """rules/1841.md 2.3.12 (option ``or_waits_for_last_decisions``): a transformation's share
    offers and token purchase belong to the transforming corporation's turn.  When it is the
    round's last operator (nobody is left to operate) the round still does not end while the
    transformation asks; it ends once the last question is answered (18xx.games ends it at
    once and forgets the questions, the default: defect H, selfplay lite 5 players seed 604,
    action 1709)."""
    game, rnd = last_operator_transforms(rules=True)
    decisions = rnd.step_of(Decisions)
    assert decisions is not None
    topics = []
    while (asked := decisions.asked()) is not None:
        assert not rnd.finished()
        topics.append(asked.topic)
        choice = "no" if asked.topic == "share_offer" else asked.choices[0]
        decisions.process({"type": "choose", "entity": 0, "choice": choice}, asked.entity)
    assert topics[-1] == "buy_tokens" and "share_offer" in topics
    assert rnd.finished() and not game.procedures
    assert not game.corporation("SFMA").ipoed  # restarted (2.3.12)


def test_last_operators_transformation_questions_dropped_as_18xx_games() -> None:
    """The default follows 18xx.games (issue 8 item 3; docs/architecture.md, defect H; its
    selfplay game lite 5 players seed 604, action 1709, replays so to action 1741): the round
    is over while the share offers are still asked (rules/1841.md 2.3.1: nobody is left to
    operate), and the next round starts with no question open -- the offers and the token
    purchase are dropped, the transformation is never completed: SFMA is not restarted (it
    keeps its price and its certificates in its treasury)."""
    game, rnd = last_operator_transforms(rules=False)
    decisions = rnd.step_of(Decisions)
    assert decisions is not None and decisions.asked() is not None
    assert rnd.finished()
    sfma = game.corporation("SFMA")
    game.round = game.new_operating_round(2)
    assert not game.procedures and game.token_emr_due is None
    assert sfma.ipoed and sfma.share_price is not None and not sfma.closed
    assert len(sfma.shares_of("SFMA")) == len(sfma.certificates)
    assert game.corporation("ATFA").ipoed
    asks = game.round.step_of(Decisions)
    assert asks is not None and asks.asked() is None
    dropped = [e for e in game.journal if isinstance(e, journal.QuestionsDropped)]
    assert [e.corp for e in dropped] == ["ATFA"]
    english = "\n".join(line.text for line in story(game, "en"))
    german = "\n".join(line.text for line in story(game, "de"))
    assert "the questions still open about ATFA are dropped" in english
    assert "die offenen Fragen zu ATFA entfallen" in german


def test_a_transformation_holds_the_frozen_states_as_18xx_games() -> None:
    """18xx.games brings the frozen states (rules/1841.md 2.3.9, 2.3.10) up to date after
    share trades, emergency sales, bankruptcy, mergers, the secession and frozen turns, not
    after a transformation (docs/architecture.md, defect I; selfplay p2p_purchases 6 players
    seed 610, action 1652: IRSFF, thawed by the transformation's share moves, still had its
    frozen turn).  The default follows it: after a transformation a chain of control that
    changes leaves the states as they were until the next share purchase or sale; option
    ``transform_refreshes_frozen`` takes every change at once (2.3.9)."""
    for rules in (False, True):
        game, _ = before_tuscan_merge()
        if rules:
            game.settings = dataclasses.replace(game.settings, transformation_updates_frozen=True)
        sfma, atfa = game.corporation("SFMA"), game.corporation("ATFA")
        transfer(game.bank, sfma, 300)
        queue(game, transform.start_transform(game, sfma, atfa))
        assert game.frozen_held is not rules
        other = next(
            c for c in game.corporations if c.floated and c is not atfa and c.presidents_share
        )
        assert not frozen.is_frozen(game, other)
        pres = other.presidents_share
        assert pres is not None
        move_share(pres, game.pool)
        game.set_president(other, game.pool)
        game.refresh_frozen("choose")  # a share offer answered
        assert frozen.is_frozen(game, other) is rules
        game.refresh_frozen("sell_shares")
        assert frozen.is_frozen(game, other) and not game.frozen_held


@pytest.mark.parametrize("printed", [False, True])
def test_the_concessions_closing_holds_the_frozen_states_as_18xx_games(printed: bool) -> None:
    """rules/1841.md 2.4 item 1: the concessions' closing re-evaluates presidencies, which may
    hand a corporation to a frozen one.  18xx.games brings no frozen state up to date there
    (defect I), so until its next update the new owner's corporation is not frozen -- its
    secession then passes over it (our selfplay game lite+p2p+sfli_run_variant+version_1,
    3 players, seed 31015: IFAI at action 476); with ``transform_refreshes_frozen`` (the
    printed rules, 2.3.9) it is frozen at once."""
    from stellwerk.titles.g1841 import events

    from .setup_helpers import new_game, start

    game = new_game(3, ["transform_refreshes_frozen"] if printed else [])
    p1 = game.players[0]
    sftc = start(game, "SFTC", "100,3,5", game.pool)  # its president's certificate in the
    game.set_president(sftc, game.pool)  # pool: in receivership, frozen
    start(game, "SFTG", "100,3,5", p1, {sftc: 30})  # SFTC holds more of SFTG than Player 1
    frozen.update(game)
    sftg = game.corporation("SFTG")
    assert frozen.is_frozen(game, sftc) and not frozen.is_frozen(game, sftg)
    events.close_concessions(game)
    assert sftg.owner is sftc
    game.refresh_frozen("buy_train")  # the end of the action that bought the first 4-train
    assert frozen.is_frozen(game, sftg) is printed
    assert game.frozen_held is not printed
    frozen.update(game)  # 18xx.games' next update (a share trade, the secession's end, ...)
    assert frozen.is_frozen(game, sftg) and not game.frozen_held
