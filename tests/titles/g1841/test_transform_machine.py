"""1841's transformation on the core mechanism (``core/procedure.py``; rules/1841.md 2.3.12):
its stages are frozen, ``verify`` changes nothing whether it refuses or accepts, an answer
moves it to a new stage (the old one unchanged), and callers ask queries.  On the position
of 1841_game_end_bankrupt before its Tuscan Merge (SFMA transforms into ATFA)."""

from __future__ import annotations

import sys
from pathlib import Path

from stellwerk.core.entities import transfer
from stellwerk.core.moves import Move, parse
from stellwerk.core.procedure import is_frozen_stage
from stellwerk.titles.g1841 import transform
from stellwerk.titles.g1841.decisions import queue
from stellwerk.titles.g1841.game import Game1841

from .test_token_emr import at_the_token
from .test_transform_tuscan import before_tuscan_merge

sys.path.insert(0, str(Path(__file__).parent))
from trace_state import snapshot


def state(game: Game1841) -> tuple[object, ...]:
    return (
        snapshot(game),
        game.bank.cash,
        len(game.journal),
        repr(game.procedures),
        game.token_emr_due,
    )


def choose(choice: str | int) -> Move:
    return parse({"type": "choose", "entity": 0, "choice": choice})


def the_transform(game: Game1841) -> transform.Transform:
    return next(p for p in game.procedures if isinstance(p, transform.Transform))


def test_every_stage_is_frozen() -> None:
    assert transform.Transformation.stages
    assert all(is_frozen_stage(cls) for cls in transform.Transformation.stages)


def test_2_3_12_verify_of_an_offer_changes_nothing() -> None:
    """A share offer: "yes" from a holder who cannot pay is refused, "no" accepted; neither
    verdict changes the game or the stage.  The answer then moves to a new stage."""
    game, _ = before_tuscan_merge()
    sfma, atfa = game.corporation("SFMA"), game.corporation("ATFA")
    queue(game, transform.start_transform(game, sfma, atfa))
    procedure = the_transform(game)
    stage = procedure.stage
    assert isinstance(stage, transform.Offering)
    holder = stage.holder(game)
    transfer(holder, game.bank, holder.cash)
    before = state(game)
    refused = procedure.machine.verify(game, stage, choose("yes"))
    assert refused is not None and refused.rule == transform.RULE
    assert procedure.machine.verify(game, stage, choose("no")) is None
    assert state(game) == before and procedure.stage is stage
    procedure.answer(game, choose("no"))
    assert procedure.stage is not stage and stage.holder(game) is holder


def test_2_3_12_verify_of_a_token_count_changes_nothing() -> None:
    """The token purchase: a count out of range is refused, the required one accepted; the
    verdicts change nothing; the purchase ends the transformation (done, asking nothing)."""
    game, _ = at_the_token(broke_president=False)
    procedure = the_transform(game)
    assert procedure.buying_tokens() and procedure.token_min == 1
    stage = procedure.stage
    assert isinstance(stage, transform.BuyingTokens)
    before = state(game)
    assert procedure.verify(game, choose(7)) is not None
    least = procedure.token_choices(game)[0]
    assert procedure.verify(game, choose(least)) is None
    assert state(game) == before and procedure.stage is stage
    procedure.answer(game, choose(least))
    assert procedure.done() and not procedure.buying_tokens()
    assert procedure.question(game) is None


def test_2_3_12_an_answer_verify_refuses_is_not_offered() -> None:
    """The queue offers what the machine's verify takes (:meth:`OnMachine.allows`): a share
    offer to a holder who can no longer pay lists "no" only, and "yes" is refused with the
    transformation's rule (:meth:`OnMachine.disallowed`); nothing changes."""
    game, _ = before_tuscan_merge()
    sfma, atfa = game.corporation("SFMA"), game.corporation("ATFA")
    queue(game, transform.start_transform(game, sfma, atfa))
    procedure = the_transform(game)
    stage = procedure.stage
    assert isinstance(stage, transform.Offering)
    holder = stage.holder(game)
    transfer(holder, game.bank, holder.cash)
    before = state(game)
    assert procedure.allows(game, choose("no"))
    assert not procedure.allows(game, choose("yes"))
    assert procedure.disallowed(game, choose("yes")).rule == transform.RULE
    assert state(game) == before and procedure.stage is stage
