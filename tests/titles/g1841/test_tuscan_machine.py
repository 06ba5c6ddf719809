"""1841's Tuscan merge on the core mechanism (``core/procedure.py``; rules/1841.md 2.4.2): its
stages are frozen, each is the merger or transformation running inside it, ``verify`` is that
part's verdict and changes nothing, an answer moves the merge to a new stage (the old one
unchanged), and callers ask queries.  On the position of 1841_game_end_bankrupt before its
Tuscan Merge (SFLP and SFMA merge into SFLi; SFLi is asked which tokens leave)."""

from __future__ import annotations

import sys
from pathlib import Path

from stellwerk.core.entities import transfer
from stellwerk.core.moves import Move, parse
from stellwerk.core.procedure import is_frozen_stage
from stellwerk.titles.g1841 import merger, transform, tuscan
from stellwerk.titles.g1841.deciding import forming_decider
from stellwerk.titles.g1841.game import Game1841

from .test_transform_tuscan import before_tuscan_merge

sys.path.insert(0, str(Path(__file__).parent))
from trace_state import snapshot


def state(game: Game1841) -> tuple[object, ...]:
    board = game.map.board
    tokens = {h: [list(c.tokens) for c in s.cities] for h, s in board.hexes.items() if s.cities}
    return (snapshot(game), game.bank.cash, len(game.journal), repr(game.procedures), tokens)


def removal(city: str) -> Move:
    return parse({"type": "remove_token", "entity": "SFLi", "city": city, "slot": 0})


def choose(choice: str) -> Move:
    return parse({"type": "choose", "entity": 0, "choice": choice})


def test_every_stage_is_frozen() -> None:
    assert tuscan.TuscanMerging.stages
    assert all(is_frozen_stage(cls) for cls in tuscan.TuscanMerging.stages)
    assert all(is_frozen_stage(cls) for cls in (tuscan.MergeInto, tuscan.TransformInto))


def test_2_4_2_the_merger_inside_asks_and_its_verdict_changes_nothing() -> None:
    """The merge stands in its merger's token removal (SFLP and SFMA into SFLi, nothing left
    to begin): a city not on the map is refused (returned, not raised), the offered one and a
    stop accepted; no verdict changes the game or the stage.  The merger's deciding player
    is read from the running merger.  The removal ends the merge (done, asking nothing), the
    old stage as it was."""
    game, _ = before_tuscan_merge()
    procedure = tuscan.start(game)
    assert procedure is not None and procedure in game.procedures
    stage = procedure.stage
    assert isinstance(stage, tuscan.InMerger) and stage.left == ()
    assert isinstance(stage.at, merger.RemovingTokens)
    merging = procedure.merging()
    assert merging is not None and merging.target == tuscan.FORMED
    assert forming_decider(game, game.procedures, game.corporation(tuscan.FORMED)) is (
        merger.deref(game, procedure.machine.decider)
    )
    before = state(game)
    assert procedure.verify(game, removal("1-0-0")) is not None  # not on the map
    assert procedure.verify(game, removal("15-0-0")) is None
    assert procedure.verify(game, parse({"type": "pass", "entity": "SFLi"})) is None
    assert state(game) == before and procedure.stage is stage
    procedure.answer(game, removal("15-0-0"))
    assert procedure.done() and procedure.question(game) is None
    assert procedure.merging() is None
    assert isinstance(stage.at, merger.RemovingTokens) and stage.at.removed == 0
    assert game.journal[-1] == tuscan.journal.TuscanMerged(tuscan.FORMED)


def test_2_4_2_the_transformation_inside_asks_and_its_verdict_changes_nothing() -> None:
    """A transformation as the merge's first part (SFMA into ATFA; rules/1841.md 2.3.12 with
    the free second token): its share offer is the merge's question; "yes" from a holder who
    cannot pay is refused by the transformation's rule, "no" accepted, the game and stage
    unchanged; the answer moves the merge to a new stage (the second round of offers)."""
    game, _ = before_tuscan_merge()
    machine = tuscan.TuscanMerging(merger.ref(game.players[0]), will_run=True)
    stage = machine.run_on(game, None, (tuscan.TransformInto("SFMA", "ATFA"),))
    assert isinstance(stage, tuscan.InTransformation)
    assert isinstance(stage.at, transform.Offering)
    assert machine.is_asking(game, stage)
    holder = stage.at.holder(game)
    transfer(holder, game.bank, holder.cash)
    before = state(game)
    refused = machine.verify(game, stage, choose("yes"))
    assert refused is not None and refused.rule == transform.RULE
    assert machine.verify(game, stage, choose("no")) is None
    assert state(game) == before
    following = machine.advance(game, stage, choose("no"))
    assert isinstance(following, tuscan.InTransformation) and following is not stage
    assert isinstance(following.at, transform.Offering) and following.at.second
    assert stage.at.holder(game) is holder and not stage.at.second
