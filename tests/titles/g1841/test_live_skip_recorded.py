"""A live skip written into the file (``stellwerk.api.Game._recorded_passes``): live play
keeps seed 000 item 3.1 (rules/1841.md 2.2.1: no trade after which corporations control each
other) and skips a player whose only trade would close a loop (rules/1841.md 5.1, automatic
skipping); 18xx.games, whose check never fires (docs/architecture.md defect Q), gives him the
turn and waits.  The skip is written as his ``pass`` among the action's ``auto_actions``
(common rules §3.5), so the file replays here (``RECORDED``) and on 18xx.games to the
position live play left."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from stellwerk.api import Game
from stellwerk.selfplay import Veto
from stellwerk.titles.g1841.game import Game1841

from .test_live_after_replay import OPTIONS, api_game, pass_of
from .test_oracle_defects import ctda_dump_after_sale, ctda_dump_only, ctda_purchase


def replayed(record: list[dict[str, object]], circle: bool, sale: bool = False) -> Game:
    """The hand-dealt position again (of :func:`ctda_dump_after_sale` if ``sale``), with
    ``record`` (actions as live play wrote them) replayed as a file is
    (``process(replay=True)``)."""
    engine = (ctda_dump_after_sale if sale else ctda_dump_only)(circle=circle)[0]
    game = api_game(engine)
    for action in record:
        game.process(copy.deepcopy(action), replay=True)
    return game


def state(game: Game) -> tuple[object, ...]:
    engine: Game1841 = game.engine_to_look_at
    return (
        game.active_entities(),
        game.legal_actions(),
        [(p.id, p.cash, p.passed, sorted(s.id for s in p.all_shares())) for p in engine.players],
        [
            (c.sym, c.owner and c.owner.name, sorted(s.id for s in c.all_shares()))
            for c in engine.corporations
        ],
        engine.round.name,
        engine.round.entity_index,
    )


def test_a_live_skip_is_written_as_the_skipped_players_pass_seed_000_3_1() -> None:
    """After the mover's purchase the next player's only trade, half of CTDA's certificate,
    would make ATFA (presided by CTDA) president of CTDA (seed 000 item 3.1, rules/1841.md
    2.2.1): live play skips him and the mover acts again.  The purchase is written with his
    pass as its automatic action (common rules §3.5); replayed as a file is, the record
    reaches the same position and the mover's next pass is taken (our selfplay
    lite+version_1, 3 players, seed 76807, actions 478-479)."""
    engine, mover, after = ctda_dump_only(circle=True)
    game = api_game(engine)
    game.process(ctda_purchase(engine, mover))
    assert game.active_entities() == [mover.id]
    (bought,) = game.raw_actions
    assert bought["auto_actions"] == [pass_of(after)]
    again = replayed(game.raw_actions, circle=True)
    assert state(again) == state(game)
    game.process(pass_of(mover))
    again = replayed(game.raw_actions, circle=True)
    assert state(again) == state(game)


def test_no_pass_is_written_when_nobody_is_skipped_against_the_record_seed_000_3_1() -> None:
    """With ATFA presided by the third player the same sale closes no loop (seed 000 item
    3.1): after the purchase the next player acts in both engines, nothing is added; after
    his pass the third player (no cash, no certificates) is skipped by both, so nothing is
    added either, and the record replays to the same position."""
    engine, mover, after = ctda_dump_only(circle=False)
    game = api_game(engine)
    game.process(ctda_purchase(engine, mover))
    assert game.active_entities() == [after.id]
    game.process(pass_of(after))
    assert game.active_entities() == [mover.id]
    assert all("auto_actions" not in a for a in game.raw_actions)
    assert state(replayed(game.raw_actions, circle=False)) == state(game)


def test_a_live_skip_after_a_sale_is_written_as_the_movers_own_pass_seed_000_3_1() -> None:
    """After his CGTF sale the mover's only trade left, half of CTDA's certificate, would make
    ATFA (presided by CTDA) president of CTDA (seed 000 item 3.1, rules/1841.md 2.2.1): live
    play ends his turn (rules/1841.md 5.1), where 18xx.games keeps him to act.  The sale is
    written with his own pass as its automatic action (common rules §3.5); the others, with
    nothing to trade, are skipped by both engines, and his second turn, skipped again, is a
    second pass, after which the stock round ends.  The record replays to the same position
    (our selfplay lite, 4 players, seed 76817, action 922)."""
    engine, mover, sale = ctda_dump_after_sale(circle=True)
    game = api_game(engine)
    game.process(sale)
    assert game.active_entities() == ["ATFA"]
    (sold,) = game.raw_actions
    assert sold["auto_actions"] == [pass_of(mover), pass_of(mover)]
    assert state(replayed(game.raw_actions, circle=True, sale=True)) == state(game)


def test_no_pass_is_written_after_a_sale_leaving_the_turn_alike_seed_000_3_1() -> None:
    """With ATFA presided by a player half of CTDA's certificate closes no loop: after the
    CGTF sale the mover acts on in both engines, and nothing is added."""
    engine, mover, sale = ctda_dump_after_sale(circle=False)
    game = api_game(engine)
    game.process(sale)
    assert game.active_entities() == [mover.id]
    assert all("auto_actions" not in a for a in game.raw_actions)


def veto() -> Veto:
    """The selfplay driver's veto of the differential campaign (tools/), which no longer
    steers clear of defect Q: live play writes the skip into the file."""
    tools = str(Path(__file__).resolve().parents[3] / "tools")
    sys.path.insert(0, tools)
    import oracle_defects_1841 as oracle_defects  # tools/: differential tooling

    found: Veto = oracle_defects.veto
    return found


@pytest.mark.long_run
def test_a_file_played_live_past_a_skip_reloads_seed_000_3_1() -> None:
    """The selfplay game itself (lite+version_1, 3 players, seed 76807, the campaign's veto):
    its purchase at action 478, played live, skips Player 1, whose only trade
    closes a control loop (seed 000 item 3.1, rules/1841.md 2.2.1); the file holds his pass
    (common rules §3.5) and reloads with Player 2 to act, and Player 2's pass at action 479,
    saved, reloads too (it was refused before: ``action 479: pass is not allowed now``)."""
    from stellwerk.selfplay import play

    players: list[tuple[int | str, str]] = [(n, f"Player {n}") for n in (1, 2, 3)]
    game = Game.create("1841", players, OPTIONS, 76807)
    play(game, 76807, max_actions=478, veto=veto())
    last = game.raw_actions[-1]
    assert last["type"] == "buy_shares" and last["entity"] == 2
    assert last["auto_actions"] == [{"type": "pass", "entity": 1, "entity_type": "player"}]
    assert game.active_entities() == [2]
    loaded = Game.from_file(game.to_file())
    assert loaded.active_entities() == [2] and loaded.legal_actions() == game.legal_actions()
    game.process({"type": "pass", "entity": 2, "entity_type": "player"})
    loaded = Game.from_file(game.to_file())
    assert loaded.active_entities() == game.active_entities()
    assert loaded.legal_actions() == game.legal_actions()


@pytest.mark.long_run
def test_a_file_played_live_past_a_skip_after_a_sale_reloads_seed_000_3_1() -> None:
    """Our selfplay lite, 4 players, seed 76817 (the campaign's veto): Player 3's sale of his
    ILTF share at action 922 leaves him one trade, half of CFCC's president's certificate,
    which would make RATF, presided by CFCC, president of CFCC (seed 000 item 3.1): live
    play ends his turn, the file holds his own pass first among the sale's automatic actions
    (18xx.games refused Player 1's sale at 923 before), and it reloads to the same entities
    and moves."""
    from stellwerk.selfplay import play

    players: list[tuple[int | str, str]] = [(n, f"Player {n}") for n in (1, 2, 3, 4)]
    game = Game.create("1841", players, ["lite"], 76817)
    play(game, 76817, max_actions=922, veto=veto())
    last = game.raw_actions[-1]
    assert last["type"] == "sell_shares" and last["entity"] == 3
    assert last["auto_actions"][0] == {"type": "pass", "entity": 3, "entity_type": "player"}
    assert 3 not in game.active_entities()
    loaded = Game.from_file(game.to_file())
    assert loaded.active_entities() == game.active_entities()
    assert loaded.legal_actions() == game.legal_actions()
