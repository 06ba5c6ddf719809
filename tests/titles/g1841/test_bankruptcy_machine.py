"""1841's bankruptcy on the core mechanism (``core/procedure.py``; rules/1841.md 2.6): its
stage is frozen, ``verify`` changes nothing whether it refuses or accepts, and the option
runs the whole procedure to its end.  On 1841_game_end_offboards' bankruptcy (CGTF cannot buy
its train once its EMR sales are over, actions 400-406) and 1841_game_end_bank's EMR turn
(SB and its president can raise the L.800)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from emr_position import play, position
from trace_state import FIXTURES, snapshot

from stellwerk.core.procedure import drive, is_frozen_stage
from stellwerk.titles.g1841 import bankruptcy
from stellwerk.titles.g1841.game import Game1841

needs_fixtures = pytest.mark.skipif(not FIXTURES.exists(), reason="../shared fixtures absent")


def state(game: Game1841) -> tuple[object, ...]:
    return (snapshot(game), game.bank.cash, len(game.journal), sorted(game.done_this_round))


def test_every_stage_is_frozen() -> None:
    assert bankruptcy.Bankruptcy.stages
    assert all(is_frozen_stage(cls) for cls in bankruptcy.Bankruptcy.stages)


@needs_fixtures
def test_2_6_verify_changes_nothing_and_the_option_ends_the_procedure() -> None:
    """rules/1841.md 2.6: CGTF's controlling player (873) is asked the option; an option
    other than 0 or 1 is refused, 0 accepted, neither verdict changes the game; the answer
    sells him out, puts him out of the game and ends CGTF's turn (the procedure done)."""
    game, path = position("1841_game_end_offboards", 400, "CGTF")
    play(game, path, 400, 406)
    machine = bankruptcy.Bankruptcy("CGTF")
    stage = machine.begin(game)
    assert stage == bankruptcy.Declaring(873)
    assert machine.question(game, stage) == [0, 1] and machine.is_asking(game, stage)
    before = state(game)
    refused = machine.verify(game, stage, 2)
    assert refused is not None and refused.rule == bankruptcy.RULE
    assert machine.verify(game, stage, 0) is None
    assert state(game) == before
    assert machine.done(drive(machine, game, stage, 0))
    player = game.player_by_id(873)
    assert player.bankrupt and "CGTF" in game.done_this_round
    assert stage == bankruptcy.Declaring(873)


@needs_fixtures
def test_2_6_refused_while_the_buying_power_suffices_changes_nothing() -> None:
    """rules/1841.md 2.6: SB and its president can raise the cheapest depot train: verify
    refuses either option, naming the rule, and changes nothing."""
    game, _ = position("1841_game_end_bank", 248, "SB")
    machine = bankruptcy.Bankruptcy("SB")
    stage = machine.begin(game)
    before = state(game)
    for option in bankruptcy.OPTIONS:
        refused = machine.verify(game, stage, option)
        assert refused is not None and refused.rule == bankruptcy.RULE
    assert state(game) == before
