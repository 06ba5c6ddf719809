"""1841's emergency money on the core mechanism (``core/procedure.py``; rules/1841.md 2.3.7):
its stages are frozen and derived from the game (the chain sells, then the controlling
player, then nobody is asked), ``verify`` changes nothing whether it refuses or accepts, a sale
moves it to the stage the game then stands in (the old one unchanged), and the train step
lists exactly the stage's question.  On the positions of 1841_game_end_bank's EMR turn (SB
must buy an 8-train: actions 246-250)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from emr_position import position
from trace_state import FIXTURES, snapshot

from stellwerk.core.entities import Corporation, Player
from stellwerk.core.legal import legal_actions
from stellwerk.core.moves import SellShares, parse
from stellwerk.core.procedure import is_frozen_stage
from stellwerk.titles.g1841 import emergency, raising
from stellwerk.titles.g1841.game import Game1841

needs_fixtures = pytest.mark.skipif(not FIXTURES.exists(), reason="../shared fixtures absent")

BANK = "1841_game_end_bank"


def state(game: Game1841) -> tuple[object, ...]:
    return (snapshot(game), game.bank.cash, len(game.journal))


def at(first: int) -> tuple[Game1841, raising.Raising]:
    """The position before ``first``, SB in its train step, and SB's emergency money."""
    game, _ = position(BANK, first, "SB")
    sb = game.corporation("SB")
    return game, raising.Raising(sb.sym, emergency.needed_price(game, sb))


def sale(listed: dict[str, object]) -> SellShares:
    move = parse(listed)
    assert isinstance(move, SellShares)
    return move


def test_every_stage_is_frozen() -> None:
    assert raising.Raising.stages
    assert all(is_frozen_stage(cls) for cls in raising.Raising.stages)


@needs_fixtures
def test_2_3_7_the_chain_sells_first_and_verify_changes_nothing() -> None:
    """rules/1841.md 2.3.7 item 1: SB (short of the L.800) holds an SFTC share: the stage is
    SB selling, its question is what the train step lists; the controlling player's sale of
    a share he does not hold is refused, SB's listed sale accepted, the game unchanged; the
    sale moves on to SB's own IPO shares (a new stage), the old stage as it was."""
    game, machine = at(246)
    sb = game.corporation("SB")
    stage = machine.stage(game)
    assert stage == raising.ChainSelling("SB") and machine.is_asking(game, stage)
    listed = [a for a in legal_actions(game) if a["type"] == "sell_shares"]
    assert machine.question(game, stage) == listed and listed
    player = emergency.controller_of(sb)
    assert isinstance(player, Player)
    before = state(game)
    refused = machine.verify(game, stage, raising.Sale(player, sale(listed[0])))
    assert refused is not None and refused.rule == emergency.RULE
    assert machine.verify(game, stage, raising.Sale(sb, sale(listed[0]))) is None
    assert state(game) == before and machine.stage(game) == stage
    following = raising.sell(game, machine, sb, sale(listed[0]))
    assert following == raising.ChainSelling("SB") and following is not stage
    assert all(a["shares"][0].startswith("SB_") for a in machine.question(game, following) or [])
    assert state(game) != before


@needs_fixtures
def test_2_3_7_then_the_player_sells_and_a_refused_bundle_changes_nothing() -> None:
    """rules/1841.md 2.3.7 item 2 and seed 000 item 1.13: SB has nothing left to sell, the
    controlling player's stage lists his sales (as the train step does, and nothing to SB);
    his president's certificate of SB (the buyer) is refused, the game unchanged."""
    game, machine = at(248)
    sb = game.corporation("SB")
    stage = machine.stage(game)
    assert isinstance(stage, raising.PlayerSelling)
    player = game.player_by_id(stage.player)
    assert player is emergency.controller_of(sb)
    listed = [a for a in legal_actions(game) if a["type"] == "sell_shares"]
    assert raising.offered(game, machine, player) == listed and listed
    assert raising.offered(game, machine, sb) == []
    president = next(s for s in player.shares_of("SB") if s.president)
    move = parse({"type": "sell_shares", "entity": player.id, "shares": [president.id],
                  "percent": president.percent})  # fmt: skip
    assert isinstance(move, SellShares)
    before = state(game)
    refused = machine.verify(game, stage, raising.Sale(player, move))
    assert refused is not None and refused.rule == emergency.RULE
    assert state(game) == before


@needs_fixtures
def test_2_3_7_covered_asks_nothing() -> None:
    """With the train's price in SB's treasury nobody is asked to sell (the stage rests)."""
    game, machine = at(250)
    stage = machine.stage(game)
    assert isinstance(stage, raising.Covered)
    assert not machine.is_asking(game, stage) and machine.question(game, stage) is None
    sb: Corporation = game.corporation("SB")
    assert raising.offered(game, machine, sb) == []
