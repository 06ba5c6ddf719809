"""Check before change in 1841's procedures (issue 7 item 5; ``Procedure.answer``: "an illegal
answer raises ``IllegalAction`` and changes nothing").  Each refusal below is made on the
engine itself, with no checkpoint to restore, and the state is compared before and after:
every holder's cash and certificates, prices, presidents, tokens, the journal and the
procedures under way with their progress."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from stellwerk.core.entities import Player, move_share, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.moves import parse
from stellwerk.titles.g1841 import emergency, secession, start, transform
from stellwerk.titles.g1841.decisions import Decisions, queue
from stellwerk.titles.g1841.game import Game1841

from .test_token_emr import at_the_token
from .test_transform_tuscan import before_tuscan_merge

sys.path.insert(0, str(Path(__file__).parent))
from setup_helpers import answer, asked, new_game, players
from setup_helpers import start as start_corp
from test_secession import buy_first_four, irsff_position
from trace_state import snapshot


def state(game: Game1841) -> tuple[object, ...]:
    """What a refusal must leave as it was."""
    return (
        snapshot(game),
        game.bank.cash,
        len(game.journal),
        repr(game.procedures),
        game.token_emr_due,
        {c.sym: c.num_tokens for c in game.corporations},
    )


def the_transform(game: Game1841) -> transform.Transform:
    found = next(p for p in game.procedures if isinstance(p, transform.Transform))
    return found


def test_2_3_12_required_token_the_sweep_cannot_pay_changes_nothing() -> None:
    """rules/1841.md 2.3.12, seed 000 item 2.5: the target is short of the L.50 and its chain
    can give some but not all of it: the answer "1 token" is refused before the sweep takes
    the president's money (it used to sweep first and refuse after)."""
    game, _ = at_the_token(broke_president=False)
    atfa = game.corporation("ATFA")
    president = game.controller(atfa)
    assert isinstance(president, Player)
    transfer(president, game.bank, president.cash)
    others = emergency.available(atfa)
    assert others < transform.REQUIRED_TOKEN_PRICE - 1
    transfer(game.bank, president, transform.REQUIRED_TOKEN_PRICE - 1 - others)
    assert president.cash > 0  # the sweep would take it
    procedure = the_transform(game)
    assert procedure.buying_tokens() and procedure.token_min == 1
    before = state(game)
    with pytest.raises(IllegalAction, match=r"L\.50") as refused:
        procedure.answer(game, parse({"type": "choose", "entity": 0, "choice": 1}))
    assert refused.value.rule == transform.RULE
    assert state(game) == before


@pytest.mark.parametrize("choice", [2, 7, -1, "many"])
def test_2_3_12_token_count_not_offered_changes_nothing(choice: object) -> None:
    """rules/1841.md 2.3.12: one required token at L.50, more at L.100 each up to five; a
    count outside what the transformation asks is refused and changes nothing."""
    game, _ = at_the_token(broke_president=True)
    procedure = the_transform(game)
    if isinstance(choice, int) and procedure.token_min <= choice <= procedure.token_max:
        pytest.skip("the count is offered here")
    before = state(game)
    with pytest.raises(IllegalAction):
        procedure.answer(game, parse({"type": "choose", "entity": 0, "choice": choice}))
    assert state(game) == before


def test_2_3_12_offer_taken_by_who_cannot_buy_changes_nothing() -> None:
    """rules/1841.md 2.3.12: an offered share is bought at the market price; a holder who
    cannot pay it is refused before anything changes (the offer stays his)."""
    game, rnd = before_tuscan_merge()
    rich = game.players[1]
    transfer(game.bank, rich, 5_000)
    sfma, atfa = game.corporation("SFMA"), game.corporation("ATFA")
    queue(game, transform.start_transform(game, sfma, atfa))
    decisions = Decisions(game, rnd)
    asked_now = decisions.asked()
    assert asked_now is not None and asked_now.topic == "share_offer"
    holder = asked_now.entity
    transfer(holder, game.bank, holder.cash)
    before = state(game)
    with pytest.raises(IllegalAction, match="cannot buy") as refused:
        the_transform(game).answer(game, parse({"type": "choose", "entity": 0, "choice": "yes"}))
    assert refused.value.rule == transform.RULE
    assert state(game) == before
    the_transform(game).answer(
        game, parse({"type": "choose", "entity": 0, "choice": "no"})
    )  # still his to answer
    assert state(game) != before


def test_2_4_1_secession_offer_taken_by_who_cannot_buy_changes_nothing() -> None:
    """rules/1841.md 2.4.1: SB's offer goes to who can buy at the market price; a purchase
    he then cannot pay is refused before anything changes."""
    game = irsff_position(pres_extra=20, others=(0, 0))
    p1, _, _ = players(game)
    p1.cash = 250
    buy_first_four(game, game.corporation("SFTG"))
    assert asked(game) == (p1, "share_offer", ["yes", "no"])
    procedure = next(p for p in game.procedures if isinstance(p, secession.Secession))
    game.bank.cash += p1.cash
    p1.cash = 0
    before = state(game)
    with pytest.raises(IllegalAction, match="cannot buy") as refused:
        procedure.answer(game, parse({"type": "choose", "entity": 0, "choice": "yes"}))
    assert refused.value.rule == secession.RULE
    assert state(game) == before
    answer(game, p1, "no")
    assert state(game) != before


def test_2_2_3_token_purchase_the_ipo_cannot_pay_changes_nothing() -> None:
    """rules/1841.md 2.2.3, seed 000 item 2.5: a started corporation short of its tokens'
    price sells just enough IPO shares at half price; if it has too few, the purchase is
    refused before any share is sold."""
    game = new_game(3)
    p1, p2, _ = players(game)
    corp = start_corp(game, "SFTG", "144,2,8", p1, {}, cash=0)
    for share in [s for s in corp.treasury_shares() if not s.president][1:]:
        move_share(share, p2)
    low = start.token_choices(game, corp)[0]
    assert low > 0 and start.token_price(game, corp) * low > 144 // 2
    before = state(game)
    with pytest.raises(IllegalAction, match="cannot raise") as refused:
        start.buy_tokens(game, corp, low)
    assert refused.value.rule == start.RULE
    assert state(game) == before
