"""1841's Ferdinandea Secession on the core mechanism (``core/procedure.py``; rules/1841.md
2.4.1): its stages are frozen, ``verify`` changes nothing whether it refuses or accepts, an
answer moves it to a new stage (the old one unchanged), and callers ask queries.  On the
position of 1841_game_end_bank at its first 4-train (action 187: IRSFF splits into SB and
SFL, three single shares to exchange)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from stellwerk.core.entities import transfer
from stellwerk.core.moves import Move, parse
from stellwerk.core.procedure import is_frozen_stage
from stellwerk.titles.g1841 import secession
from stellwerk.titles.g1841.game import Game1841

sys.path.insert(0, str(Path(__file__).parent))
from trace_state import FIXTURES, fixture, snapshot, state_before

needs_fixtures = pytest.mark.skipif(not FIXTURES.exists(), reason="../shared fixtures absent")

DECLINE = {"share_offer": "no", "offer_again": "n", "pick_exchange_corp": "a", "buy_tokens": 0}


def state(game: Game1841) -> tuple[object, ...]:
    return (snapshot(game), game.bank.cash, len(game.journal), repr(game.procedures))


def choose(choice: str | int) -> Move:
    return parse({"type": "choose", "entity": 0, "choice": choice})


def seceding() -> tuple[Game1841, secession.Secession]:
    """The bank game just after its first 4-train: the secession under way."""
    game, action = state_before(fixture("1841_game_end_bank"), 187)
    corp = game.corporation(str(action["entity"]))
    train = next(t for t in game.depot.upcoming if t.id == action["train"])
    game.buy_train(corp, train, int(action["price"]))
    procedure = secession.under_way(game)
    assert procedure is not None
    return game, procedure


def decline_until(game: Game1841, procedure: secession.Secession, kind: type) -> None:
    """Answer every question the declining way until the stage is a ``kind``."""
    while not isinstance(procedure.stage, kind):
        asked = procedure.question(game)
        assert asked is not None
        procedure.answer(game, choose(DECLINE[asked.topic]))


def test_every_stage_is_frozen() -> None:
    assert secession.Seceding.stages
    assert all(is_frozen_stage(cls) for cls in secession.Seceding.stages)


@needs_fixtures
def test_2_4_1_verify_of_a_single_share_exchange_changes_nothing() -> None:
    """A single IRSFF share: a choice that is neither SB nor SFL is refused, both are
    accepted; no verdict changes the game or the stage.  The answer then moves to a new
    stage asking the next holder, the old stage as it was."""
    game, procedure = seceding()
    stage = procedure.stage
    assert isinstance(stage, secession.ExchangingSingles) and len(stage.holders) > 1
    before = state(game)
    refused = procedure.verify(game, choose("c"))
    assert refused is not None and refused.rule == secession.RULE
    assert procedure.verify(game, choose("a")) is None
    assert procedure.verify(game, choose("b")) is None
    assert state(game) == before and procedure.stage is stage
    procedure.answer(game, choose("a"))
    after = procedure.stage
    assert isinstance(after, secession.ExchangingSingles)
    assert after.holders == stage.holders[1:] and state(game) != before


@needs_fixtures
def test_2_4_1_verify_of_a_share_offer_changes_nothing() -> None:
    """SB's share offer: "yes" from a holder who cannot pay is refused naming the rule,
    "no" accepted; neither verdict changes the game or the stage."""
    game, procedure = seceding()
    decline_until(game, procedure, secession.Offering)
    stage = procedure.stage
    assert isinstance(stage, secession.Offering)
    holder = secession.holder_of(game, stage.holders[0])
    transfer(holder, game.bank, holder.cash)
    before = state(game)
    refused = procedure.verify(game, choose("yes"))
    assert refused is not None and "cannot buy" in str(refused)
    assert procedure.verify(game, choose("no")) is None
    assert state(game) == before and procedure.stage is stage


@needs_fixtures
def test_2_4_1_the_token_purchase_ends_the_secession() -> None:
    """SB's extra tokens: a count beyond what it can pay is refused and changes nothing;
    0 ends the secession (done, asking nothing, no longer under way)."""
    game, procedure = seceding()
    decline_until(game, procedure, secession.BuyingTokens)
    stage = procedure.stage
    assert isinstance(stage, secession.BuyingTokens) and procedure.tokens_corp == stage.corp
    before = state(game)
    assert procedure.verify(game, choose(9)) is not None
    assert procedure.verify(game, choose(0)) is None
    assert state(game) == before and procedure.stage is stage
    procedure.answer(game, choose(0))
    assert procedure.done() and procedure.question(game) is None
    assert secession.under_way(game) is None and procedure.tokens_corp == ""


def test_a_holder_exchanges_its_single_share_once_rules_2_4_1() -> None:
    """rules/1841.md 2.4.1: each holder of a single IRSFF share exchanges it once.  A
    corporation its player controls again while its frozen state is still held (the
    default, as 18xx.games) is listed among the player's corporations, not a second time
    among the frozen ones: our selfplay game (3 players, seed 3) reached SFTG's second
    exchange at action 669 with its share gone, and the engine failed; it now plays to
    its end."""
    from stellwerk.api import Game
    from stellwerk.selfplay import play

    game = Game.create("1841", [(i, f"Player {i}") for i in (1, 2, 3)], [], 3)
    outcome = play(game, 3, max_actions=700)
    assert len(game.actions) >= 700 or game.finished, outcome
