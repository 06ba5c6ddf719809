"""Token emergency money after a transformation (rules/1841.md 2.3.12 "Token EMR"; seed 000
item 2.5) and the bankruptcy over the required token (2.6, 18xx.games' special case), on the
position of 1841_game_end_bankrupt before its Tuscan Merge (SFMA transforms into ATFA)."""

from __future__ import annotations

from stellwerk.core.entities import move_share
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.titles.g1841 import emergency, token_emr, transform
from stellwerk.titles.g1841.bankruptcy import Bankrupt1841
from stellwerk.titles.g1841.decisions import Decisions, queue
from stellwerk.titles.g1841.game import Game1841
from stellwerk.titles.g1841.token_emr import TokenEmergencyMoney

from .test_transform_tuscan import before_tuscan_merge


def at_the_token(broke_president: bool = True) -> tuple[Game1841, OperatingRound]:
    """SFMA transformed into ATFA, the share offers declined, ATFA asked for its token; the
    president without cash (so the sweep cannot pay the L.50)."""
    game, rnd = before_tuscan_merge()
    sfma, atfa = game.corporation("SFMA"), game.corporation("ATFA")
    rnd.steps = [Bankrupt1841(game, rnd), TokenEmergencyMoney(game, rnd), Decisions(game, rnd)]
    rnd.entities = [sfma, *[c for c in rnd.entities if c is not sfma]]
    rnd.entity_index = 0
    queue(game, transform.start_transform(game, sfma, atfa))
    decisions = rnd.steps[2]
    assert isinstance(decisions, Decisions)
    while (asked := decisions.asked()) is not None and asked.topic == "share_offer":
        decisions.process({"type": "choose", "entity": 0, "choice": "no"}, asked.entity)
    president = game.controller(atfa)
    assert president is not None and atfa.cash < transform.REQUIRED_TOKEN_PRICE
    if broke_president:
        game.bank.cash += president.cash
        president.cash = 0
    game.changing()
    return game, rnd


def strip(game: Game1841, holder: object, keep: str | None = None) -> None:
    """``holder``'s certificates (but of ``keep``) go to the pool; the token EMR duty is
    decided again, as if the position had been so when the tokens were asked."""
    for corp in game.corporations:
        if corp.sym != keep:
            for share in list(holder.shares_of(corp.sym)):  # type: ignore[attr-defined]
                move_share(share, game.pool)
    for procedure in game.procedures:
        if isinstance(procedure, transform.Transform) and procedure.buying_tokens():
            procedure.decide_token_emr(game)
    game.changing()


def test_2_3_12_token_emr_sales_raise_the_required_token() -> None:
    """rules/1841.md 2.3.12 / seed 000 item 2.5: ATFA (short, president broke) sells the
    SFTC share it took over from SFMA before any IPO share, at half price; once the L.50 is
    there, the token is bought."""
    game, rnd = at_the_token()
    atfa = game.corporation("ATFA")
    assert token_emr.pending(game) is atfa
    step = rnd.steps[1]
    offers = step.choices(atfa)
    assert offers and all(a["shares"][0].startswith("SFTC_") for a in offers)
    assert step.choices(game.controller(atfa)) == []  # the chain sells first
    step.process(offers[0], atfa)
    assert atfa.cash >= transform.REQUIRED_TOKEN_PRICE or token_emr.pending(game) is atfa
    while token_emr.pending(game) is atfa:
        step.process(step.choices(atfa)[0], atfa)
    decisions = rnd.steps[2]
    asked = decisions.asked()
    assert asked is not None and asked.topic == "buy_tokens"
    tokens = atfa.num_tokens
    decisions.process({"type": "choose", "entity": 0, "choice": 1}, asked.entity)
    assert atfa.num_tokens == tokens + 1


def test_2_3_12_own_ipo_shares_with_no_other_shares_and_no_overselling() -> None:
    """rules/1841.md 2.3.7 via 2.3.12: without other shares ATFA sells its IPO shares, never
    a share more than the L.50 needs."""
    game, rnd = at_the_token()
    atfa = game.corporation("ATFA")
    strip(game, atfa, keep="ATFA")
    offers = rnd.steps[1].choices(atfa)
    assert offers and all(a["shares"][0].startswith("ATFA_") for a in offers)
    half = (atfa.share_price.price if atfa.share_price else 0) / 2
    assert all(half * (a["percent"] // 10 - 1) < 50 - atfa.cash for a in offers)


def test_2_3_12_no_token_emr_when_the_president_can_pay() -> None:
    """seed 000 item 2.5: nothing to sell in the chain and the president's cash enough:
    nothing is sold, the purchase sweeps the president's cash."""
    game, rnd = at_the_token(broke_president=False)
    atfa = game.corporation("ATFA")
    strip(game, atfa)
    assert token_emr.pending(game) is None
    assert rnd.steps[1].choices(atfa) == []


def test_2_6_bankruptcy_over_the_token_gives_it_free() -> None:
    """rules/1841.md 2.6 (transform-token case, as 18xx.games): with nothing left to sell the
    president may go bankrupt; ATFA gets its second token free, its cash goes to the bank,
    the transformation ends (SFMA closed, both done this round)."""
    game, rnd = at_the_token()
    atfa = game.corporation("ATFA")
    president = game.controller(atfa)
    assert president is not None
    strip(game, atfa)
    strip(game, president, keep="ATFA")
    bankrupt = rnd.steps[0]
    assert [a["option"] for a in bankrupt.choices(atfa)] == [0, 1]
    tokens = atfa.num_tokens
    bankrupt.process({"type": "bankrupt", "entity": "ATFA", "option": 0}, atfa)
    assert president.bankrupt and atfa.num_tokens == tokens + 1 and atfa.cash == 0
    assert game.corporation("SFMA").closed and {"SFMA", "ATFA"} <= game.done_this_round
    assert token_emr.pending(game) is None and not game.procedures


def test_2_3_12_token_emr_duty_outlasts_the_swept_token_purchase() -> None:
    """rules/1841.md 2.3.12 (Token EMR) as 18xx.games plays it: the duty is fixed when the
    tokens are asked (ATFA short, with a share to sell); if the token is bought with the
    sweep's money first, ATFA must still sell (the blocking step after the purchase), and
    the first sale that covers the L.50 ends the duty; the next operator ends it too."""
    game, rnd = at_the_token(broke_president=False)
    atfa = game.corporation("ATFA")
    after = token_emr.TokenEmergencyMoneyAfterPurchase(game, rnd)
    rnd.steps.append(after)
    assert token_emr.pending(game) is atfa and not after.active()  # the question is open
    decisions = rnd.steps[2]
    asked = decisions.asked()
    assert asked is not None and asked.topic == "buy_tokens"
    tokens = atfa.num_tokens
    decisions.process({"type": "choose", "entity": 0, "choice": 1}, asked.entity)
    assert atfa.num_tokens == tokens + 1
    assert token_emr.pending(game) is atfa and after.active() and after.blocking()
    offers = after.choices(atfa)
    assert offers and all(a["shares"][0].startswith("SFTC_") for a in offers)
    sales = 0
    while token_emr.pending(game) is atfa:
        assert emergency.cash_before_selling(game, atfa, 50) < 50
        after.process(after.choices(atfa)[0], atfa)
        sales += 1
    assert sales >= 1 and not after.active()
    assert emergency.cash_before_selling(game, atfa, 50) >= 50
    game.token_emr_due = ("ATFA", transform.REQUIRED_TOKEN_PRICE)
    rnd.steps[1].setup()
    assert token_emr.pending(game) is None


def test_2_3_12_required_token_not_offered_before_the_money_is_there() -> None:
    """rules/1841.md 2.3.12 (Token EMR): with the president broke the sweep cannot pay the
    L.50, so the token count is not offered (the sales come first); once the sales raised
    it, the required token is offered."""
    game, rnd = at_the_token()
    atfa = game.corporation("ATFA")
    decisions = rnd.steps[2]
    asked = decisions.asked()
    assert asked is not None and asked.topic == "buy_tokens"
    assert asked.choices == []
    step = rnd.steps[1]
    while token_emr.pending(game) is atfa:
        step.process(step.choices(atfa)[0], atfa)
    asked = decisions.asked()
    assert asked is not None and 1 in asked.choices


def test_2_3_12_the_question_comes_first_when_the_sweep_can_pay() -> None:
    """rules/1841.md 2.3.12 (Token EMR) as 18xx.games orders it: ATFA is short (the duty is
    due) but its president's cash covers the L.50, so the token question is asked first --
    18xx.games' BuyNewTokens stands before TokenEmergencyMoney and blocks, refusing a sale
    then (selfplay seed 38 with ``version_1``, action 768); no sale is offered before the
    purchase.  With the president broke the sales come first (the question cannot be
    answered, :func:`test_2_3_12_token_emr_sales_raise_the_required_token`)."""
    game, rnd = at_the_token(broke_president=False)
    atfa = game.corporation("ATFA")
    step = rnd.steps[1]
    assert token_emr.pending(game) is atfa
    assert token_emr.required_payable(game)
    assert not step.active() and step.choices(atfa) == []
    asked = rnd.steps[2].asked()
    assert asked is not None and asked.topic == "buy_tokens" and 1 in asked.choices
    broke, rnd = at_the_token()
    assert not token_emr.required_payable(broke) and rnd.steps[1].active()
