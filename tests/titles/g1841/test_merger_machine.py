"""1841's merger on the core mechanism (``core/procedure.py``; rules/1841.md 2.3.11): its
stages are frozen, ``verify`` changes nothing whether it refuses or accepts (an exchange
answer is tried on a copy), an answer moves it to a new stage (the old one unchanged), and
callers ask queries.  On the position of 1841_game_end_bank before action 496 (SFTG and
IFAI may merge)."""

from __future__ import annotations

import sys
from pathlib import Path

from stellwerk.core.entities import Player, controller, move_share
from stellwerk.core.moves import Move, parse
from stellwerk.core.procedure import is_frozen_stage
from stellwerk.titles.g1841 import merger
from stellwerk.titles.g1841.decisions import queue
from stellwerk.titles.g1841.game import Game1841

from .traced import game_before

sys.path.insert(0, str(Path(__file__).parent))
from trace_state import snapshot


def state(game: Game1841) -> tuple[object, ...]:
    board = game.map.board
    tokens = {h: [list(c.tokens) for c in s.cities] for h, s in board.hexes.items() if s.cities}
    return (snapshot(game), game.bank.cash, len(game.journal), repr(game.procedures), tokens)


def choose(choice: str) -> Move:
    return parse({"type": "choose", "entity": 0, "choice": choice})


def merging(game: Game1841) -> merger.Merger:
    """SFTG merges with IFAI into the first new corporation offered, queued."""
    sftg, ifai = game.corporation("SFTG"), game.corporation("IFAI")
    procedure = merger.start_merger(game, sftg, ifai, merger.targets(game)[0])
    queue(game, procedure)
    return procedure


def test_every_stage_is_frozen() -> None:
    assert merger.Merging.stages
    assert all(is_frozen_stage(cls) for cls in merger.Merging.stages)


def test_2_3_11_verify_of_an_exchange_answer_changes_nothing() -> None:
    """The second exchange pass asks a holder: an answer not offered is refused, an offered
    one accepted (tried on a copy); neither verdict changes the game or the stage.  The
    answer then moves the merger on to a new stage, the old one as it was."""
    game = game_before("1841_game_end_bank", 496)
    procedure = merging(game)
    stage = procedure.stage
    assert isinstance(stage, merger.Exchanging) and procedure.deciding()
    holder = stage.holder(game)
    offered = stage.offered
    before = state(game)
    refused = procedure.verify(game, choose("no" if "no" not in offered else "pres"))
    assert refused is not None and refused.rule == merger.RULE
    assert all(procedure.verify(game, choose(c)) is None for c in offered)
    assert state(game) == before and procedure.stage is stage
    procedure.answer(game, choose(offered[0]))
    assert procedure.stage is not stage and stage.holder(game) is holder
    assert stage.offered == offered and state(game) != before


def test_seed_000_item_3_6_verify_refuses_an_answer_that_leaves_no_president() -> None:
    """seed 000 item 3.6: when no exchange answer lets anyone take the new president's
    certificate, none is listed (:meth:`Merger.allows`, the rest answered on copies), and
    ``verify`` refuses one that ends the exchange so (tried on a light copy, naming the
    rule); the game and the stage stay as they were.  The position of
    test_merger's test of the same rule: the president's ordinary shares given away, the
    players without cash, a controlled corporation holding one share."""
    game = game_before("1841_game_end_bank", 496)
    sftg = game.corporation("SFTG")
    president = sftg.owner
    assert isinstance(president, Player)
    other = next(p for p in game.players if p is not president and not p.shares_of("SFTG"))
    for share in [s for s in president.shares_of("SFTG") if not s.president]:
        move_share(share, other)
    asked = next(
        c
        for c in game.corporations
        if c.ipoed and c.sym not in ("SFTG", "IFAI") and controller(c) is not None
    )
    move_share(other.shares_of("SFTG")[0], asked)
    for player in game.players:
        player.cash = 0
    asked.cash = 1000
    game.changing()
    procedure = merging(game)
    stage = procedure.stage
    assert isinstance(stage, merger.Exchanging)
    before = state(game)
    verdicts = [procedure.verify(game, choose(choice)) for choice in stage.offered]
    refused = [v for v in verdicts if v is not None]
    assert refused and all("3.6" in v.rule for v in refused)
    assert not any(procedure.allows(game, choose(choice)) for choice in stage.offered)
    assert state(game) == before and procedure.stage is stage


def test_2_3_11_verify_of_a_removal_changes_nothing() -> None:
    """The token removal: a stop before the one token that must go, and the other
    corporation's token, are refused; the merging corporation's token accepted; no verdict
    changes the board or the stage.  The removal then gives a new stage with one removed."""
    game = Game1841([(i, f"p{i}") for i in range(1, 4)], [], 1)
    board = game.map.board
    board.lay_tile("E9", "14-0", 0)
    board.place_token_at("E9", 0, "IRSFF")
    board.place_token_at("E9", 0, "SSFL")
    board.place_token_at("E11", 0, "SFLP")
    city = board.city_id("E9", 0)
    stage = merger.RemovingTokens(two_city=False, hexes=("E9", "E11"), least=1, most=2)
    procedure = merger.Merger(
        merger.Merging("SSFL", "SFLP", "AFI", merger.ref(game.players[0])), stage
    )
    before = state(game)
    assert procedure.verify(game, parse({"type": "pass", "entity": 0})) is not None
    other = parse({"type": "remove_token", "entity": 0, "city": city, "slot": 0})
    assert procedure.verify(game, other) is not None
    mine = parse({"type": "remove_token", "entity": 0, "city": city, "slot": 1})
    assert procedure.verify(game, mine) is None
    # the queue offers what verify takes (Merger.allows) and refuses with verify's refusal
    assert procedure.allows(game, mine) and not procedure.allows(game, other)
    refusal = procedure.verify(game, other)
    assert refusal is not None
    assert str(procedure.disallowed(game, other)) == str(refusal)
    assert state(game) == before and procedure.stage is stage
    procedure.answer(game, mine)
    after = procedure.stage
    assert isinstance(after, merger.RemovingTokens) and after.removed == 1 and after.may_stop()
    assert stage.removed == 0 and board.hexes["E9"].cities[0].tokens == ["IRSFF", None]
