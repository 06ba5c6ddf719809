"""Live play after a replayed position (``stellwerk.api.Game._stalled``): a recorded file is
replayed as 18xx.games takes it (``RECORDED``), whose check of seed 000 item 3.1 (rules/1841.md
2.2.1: no sale after which corporations control each other) never fires (docs/architecture.md
defects L, Q), so its turn may wait for a player whose only trade closes a control loop.  Live
play keeps the rule: it refuses that trade and offers the waiting player only a pass; and every
question after a replayed action is answered as live play has it (``LIVE``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from stellwerk.api import Game
from stellwerk.core.entities import Player
from stellwerk.core.errors import IllegalAction
from stellwerk.core.legal import legal_actions
from stellwerk.core.policy import LIVE, RECORDED
from stellwerk.titles.g1841.game import Game1841

from .test_oracle_defects import ctda_dump_only, ctda_half_sale, ctda_purchase

OPTIONS = ["lite", "version_1"]


def api_game(engine: Game1841) -> Game:
    """The public game around the hand-dealt ``engine`` (the players and options it has)."""
    game = Game.create("1841", [(p.id, p.name) for p in engine.players], OPTIONS, 1)
    game.engine = engine
    return game


def pass_of(player: Player) -> dict[str, object]:
    return {"type": "pass", "entity": player.id, "entity_type": "player"}


def test_a_replayed_turn_for_a_circular_only_trade_offers_a_pass_seed_000_3_1() -> None:
    """After the mover's purchase, replayed as 18xx.games has it, the turn is the next
    player's, whose only trade (half of CTDA's certificate) would make ATFA, presided by
    CTDA, president of CTDA: seed 000 item 3.1 (rules/1841.md 2.2.1) forbids it.  Live play
    does not get stuck there (nobody to act by ``LIVE`` alone): the recorded turn stands, the
    sale is refused and only his pass is offered; after it the turn goes on (the third player
    cannot act, the mover may), the loop never closed (our selfplay lite+version_1,
    3 players, seed 76807, action 478)."""
    engine, mover, after = ctda_dump_only(circle=True)
    game = api_game(engine)
    game.process(ctda_purchase(engine, mover), replay=True)
    assert game.active_entities() == [after.id]
    assert game.legal_actions() == [pass_of(after)]
    with pytest.raises(IllegalAction):
        game.process(ctda_half_sale(engine, after))
    assert game.legal_actions() == [pass_of(after)]
    game.process(pass_of(after))
    ctda, atfa = engine.corporation("CTDA"), engine.corporation("ATFA")
    assert ctda.owner is after and atfa.owner is ctda
    assert game.active_entities() == [mover.id]
    assert engine.policy is LIVE


def test_legal_actions_after_a_replayed_action_follow_live_play_seed_000_3_1() -> None:
    """After ``process(replay=True)`` the questions are live play's (``LIVE``), not the
    replay's: with cash the next player has moves the rules allow, and the half of CTDA's
    certificate that would close the loop (seed 000 item 3.1, rules/1841.md 2.2.1) is not
    among them, nor accepted; the replay's ``RECORDED`` offered it until the next live
    action."""
    engine, mover, after = ctda_dump_only(circle=True)
    after.cash = 500
    game = api_game(engine)
    game.process(ctda_purchase(engine, mover), replay=True)
    assert engine.policy is LIVE
    assert game.active_entities() == [after.id]
    legal = game.legal_actions()
    assert any(a["type"] == "buy_shares" for a in legal)
    assert not [a for a in legal if a["type"] == "sell_shares" and a["shares"] == ["CTDA_0"]]
    assert all(a.get("entity") == after.id for a in legal)
    with pytest.raises(IllegalAction):
        game.process(ctda_half_sale(engine, after))


@pytest.mark.long_run
def test_a_loaded_file_waiting_for_a_circular_only_trade_goes_on_seed_000_3_1(
    tmp_path: Path,
) -> None:
    """The file itself: our selfplay lite+version_1, 3 players, seed 76807, played (the
    campaign's veto, which no longer steers clear of defect Q) to its purchase at action 478,
    after which 18xx.games waits for Player 1, whose only trade would close a control loop
    (seed 000 item 3.1, rules/1841.md 2.2.1).  Live play wrote the skip as Player 1's automatic pass
    (``test_live_skip_recorded.py``); without it the file is the one 18xx.games' server
    writes, which derives no pass.  Loaded, the game offers Player 1 a pass and refuses the
    sale; after the pass
    the game written out loads again (the pass replays as any recorded pass), an undo
    brings the offer back, and live play goes on."""
    tools = str(Path(__file__).resolve().parents[3] / "tools")
    sys.path.insert(0, tools)
    import oracle_defects_1841 as oracle_defects  # tools/: differential tooling

    from stellwerk.selfplay import play

    players: list[tuple[int | str, str]] = [(n, f"Player {n}") for n in (1, 2, 3)]
    played = Game.create("1841", players, OPTIONS, 76807)
    play(played, 76807, max_actions=478, veto=oracle_defects.veto)
    last = played.raw_actions[-1]
    assert last["type"] == "buy_shares" and last["entity"] == 2
    assert last.pop("auto_actions") == [{"type": "pass", "entity": 1, "entity_type": "player"}]
    game = Game.from_file(played.to_file())
    passing = {"type": "pass", "entity": 1, "entity_type": "player"}
    assert game.active_entities() == [1]
    assert game.legal_actions() == [passing]
    engine = game.engine_to_look_at
    engine.policy = RECORDED  # what 18xx.games offers: the sale as well
    with engine.remembering(), engine.looking_ahead():
        (sale,) = [a for a in legal_actions(engine) if a["type"] == "sell_shares"]
    engine.policy = LIVE
    with pytest.raises(IllegalAction):
        game.process(sale)
    game.process(passing)
    again = Game.from_file(game.to_file())
    assert again.active_entities() == game.active_entities() and game.active_entities()
    game.undo()
    assert game.legal_actions() == [passing]
