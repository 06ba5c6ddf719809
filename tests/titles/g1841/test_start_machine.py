"""1841's corporation start on the core mechanism (``core/procedure.py``; rules/1841.md 2.2.3):
its stages are frozen, ``verify`` changes nothing whether it refuses or accepts, an answer
moves it to a new stage (the old one unchanged) and the token purchase ends it."""

from __future__ import annotations

import sys
from pathlib import Path

from stellwerk.core.flow.base import act
from stellwerk.core.moves import Move, parse
from stellwerk.core.procedure import is_frozen_stage
from stellwerk.titles.g1841 import start
from stellwerk.titles.g1841.game import Game1841

from .test_stock_rounds import game_in_sr, par

sys.path.insert(0, str(Path(__file__).parent))
from trace_state import snapshot


def state(game: Game1841) -> tuple[object, ...]:
    return (snapshot(game), game.bank.cash, len(game.journal), repr(game.procedures))


def test_every_stage_is_frozen() -> None:
    assert start.Starting.stages
    assert all(is_frozen_stage(cls) for cls in start.Starting.stages)


def test_2_2_3_verify_of_home_and_tokens_changes_nothing() -> None:
    """AFI (a non-historical major) starts in phase 3: a home token off the hexes asked, a
    ``pass`` of the first home and a token count not offered are refused; a home on Genova
    (M7) and the least count are accepted; no verdict changes the game or the stage.  The
    home placed, the start goes on to the token purchase (no second home left in Piedmont
    before phase 4); the purchase ends it."""
    game = game_in_sr(phase="3")
    afi = par(game, game.players[0], "AFI", "216,1,11")
    procedure = start.begin_start(game, afi)
    stage = procedure.stage
    assert isinstance(stage, start.ChoosingHome) and "M7" in stage.hexes
    board = game.map.board
    off = next(h for h, s in board.hexes.items() if s.cities and h not in stage.hexes)
    home = parse(act(afi, "place_token", city=board.city_id("M7", 0), slot=0))
    before = state(game)
    machine = procedure.machine
    refused = machine.verify(
        game, stage, parse(act(afi, "place_token", city=board.city_id(off, 0), slot=0))
    )
    assert refused is not None and refused.rule == start.RULE
    assert machine.verify(game, stage, parse(act(afi, "pass"))) is not None
    assert machine.verify(game, stage, home) is None
    assert state(game) == before and procedure.stage is stage
    procedure.answer(game, home)
    tokens = procedure.stage
    assert isinstance(tokens, start.TokenPurchase) and stage.hexes and not procedure.done()
    least = start.token_choices(game, afi)[0]
    buy: Move = parse(act(afi, "choose", choice=least))
    before = state(game)
    assert procedure.verify(game, parse(act(afi, "choose", choice=9))) is not None
    assert procedure.verify(game, buy) is None
    assert state(game) == before and procedure.stage is tokens
    procedure.answer(game, buy)
    assert procedure.done() and procedure.question(game) is None
    assert afi.num_tokens == least
