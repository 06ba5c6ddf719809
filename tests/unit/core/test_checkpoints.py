"""Undo and refusals restore engine checkpoints (issue 7 item 5: "Undo restores a snapshot
(kept every few actions), it does not replay the game"; common rules §3.4 undo)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from stellwerk.api import Game
from stellwerk.checkpoints import EVERY
from stellwerk.core.errors import IllegalAction
from stellwerk.core.game import Game as CoreGame
from stellwerk.selfplay import play


def played(title: str, players: int, seed: int, actions: int) -> tuple[Game, list[Any]]:
    """A selfplay game of ``actions`` actions and the snapshot after each of them (index 0:
    the start)."""
    game = Game.create(title, [(n, f"P{n}") for n in range(1, players + 1)], [], seed)
    snapshots = [game.snapshot()]

    def record(g: Any, action: dict[str, Any], rng: random.Random) -> None:
        snapshots.append(game.snapshot())

    play(game, seed, max_actions=actions, after_action=record)
    return game, snapshots


@pytest.mark.parametrize(("title", "players"), [("1849", 4), ("1835", 4)])
def test_undo_returns_to_each_earlier_state(title: str, players: int) -> None:
    """Undoing the actions one by one passes through every earlier state in reverse."""
    game, snapshots = played(title, players, 7, 3 * EVERY + 5)
    log = list(game.actions)
    if len(log) != len(snapshots) - 1:
        pytest.skip("the driver took an action back; the snapshots do not line up")
    for count in range(len(log) - 1, -1, -1):
        game.undo()
        assert game.snapshot() == snapshots[count], f"undo to {count} actions differs"
    with pytest.raises(IllegalAction):
        game.undo()


def test_game_continues_identically_after_undo_and_redo() -> None:
    """Undo then redo is the identity: the rest of the game replays to the same state."""
    game, snapshots = played("1849", 4, 11, 3 * EVERY + 3)
    log = [dict(a) for a in game.actions]
    for _ in range(EVERY + 2):
        game.undo()
    for action in log[len(game.actions) :]:
        game.process({k: v for k, v in action.items() if k != "id"}, replay=True)  # new ids
    assert game.snapshot() == snapshots[-1]
    assert Game.from_file(game.to_file()).snapshot() == game.snapshot()


def test_restore_replays_fewer_actions_than_the_checkpoint_spacing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An undo late in a game replays at most ``EVERY - 1`` actions, not the whole log."""
    game, _ = played("1849", 4, 3, 4 * EVERY)
    calls = []
    original = CoreGame.process_action

    def counting(self: CoreGame, action: dict[str, Any]) -> None:
        calls.append(action)
        original(self, action)

    monkeypatch.setattr(CoreGame, "process_action", counting)
    game.undo()
    assert len(calls) < EVERY


def test_refusal_after_a_change_leaves_the_state_as_before() -> None:
    """A refused action that got half-way leaves no trace (common rules §3.4): the engine is
    restored, so the half-done change is gone."""
    game, _ = played("1849", 4, 5, 2 * EVERY + 3)
    before = game.snapshot()
    engine = game.engine
    engine.players[0].cash += 1000  # the half-way change a refused action could leave
    with pytest.raises(IllegalAction):
        game.process(  # a recorded action (no live gate) refused after a change
            {"type": "lay_tile", "entity": "no one", "entity_type": "player"}, replay=True
        )
    assert game.engine is not engine
    assert game.snapshot() == before


def test_restored_engine_shares_the_immutable_map_data() -> None:
    """Checkpoints do not copy frozen specification objects: a restored board refers to the
    same tile definitions as the board it was saved from."""
    game, _ = played("1849", 4, 3, EVERY + 2)
    board = game.engine.map.board
    game.undo()
    restored = game.engine.map.board
    assert restored is not board
    assert restored.spec is board.spec
    name = next(iter(board.tile_defs))
    assert restored.tile_defs[name] is board.tile_defs[name]


def test_redo_before_a_later_message_does_not_use_a_stale_checkpoint() -> None:
    """Common rules §3.4: a redo puts the undone action back in its place, before a message
    written after the undo; the log then has the length a checkpoint was taken at with other
    actions in it, and that checkpoint must not be used."""
    from stellwerk.checkpoints import Checkpoints

    game, snapshots = played("1849", 3, 5, 4)
    game.checkpoints = Checkpoints(every=1)
    player = game.active_entities()[0]
    game.undo()  # the state after 3 actions
    game.process({"type": "message", "entity": player, "entity_type": "player", "message": "x"})
    game.checkpoints.save(game.actions, game.engine)  # taken after [a1, a2, a3, message]
    game.process({"type": "redo", "entity": player, "entity_type": "player"})
    assert [a["type"] for a in game.actions][-1] == "message"
    assert game.snapshot() == snapshots[4]
    assert Game.from_file(game.to_file()).snapshot() == game.snapshot()


def test_undo_restores_the_journal_of_the_earlier_state() -> None:
    """The journal is kept beside a checkpoint, not in its pickle: after an undo the
    journal is the one a fresh load of the shorter log builds (same events, same order),
    and acting again does not change the journal a checkpoint holds."""
    game, _ = played("1849", 4, 9, 2 * EVERY + 5)
    undone = dict(game.actions[-1])
    game.undo()
    fresh = Game.from_file(game.to_file())
    assert game.engine.journal == fresh.engine.journal
    kept = {count: entry[2] for count, entry in game.checkpoints.saved.items()}
    assert kept, "no checkpoint was used"
    game.process({k: v for k, v in undone.items() if k != "id"}, replay=True)
    game.undo()
    assert game.engine.journal == fresh.engine.journal
    for count, entry in game.checkpoints.saved.items():
        if count in kept:
            assert entry[2] == kept[count]


def test_an_engine_copy_is_the_same_game_and_apart_from_it() -> None:
    """``copy_engine`` (the checkpoint's pickle as a one-off copy, used by the differential
    tools in place of ``copy.deepcopy``): a copy of an 1841 engine in mid-game has the same
    state, plays the rest of the recorded game to the same states as the original, and
    nothing done to the copy changes the original."""
    import json

    from tests.conftest import FIXTURES_18XX, cut_fixture

    from stellwerk.checkpoints import copy_engine

    name = "1841/1841_game_end_offboards.json"
    whole = json.loads((FIXTURES_18XX / name).read_text(encoding="utf-8"))["actions"]
    game = Game.from_file(cut_fixture(name, 300))
    twin = Game.from_file(cut_fixture(name, 300))
    twin.engine = copy_engine(game.engine)
    assert twin.snapshot() == game.snapshot()
    before = game.snapshot()
    states = []
    for action in whole[300:400]:
        twin.process(action, replay=True)
        states.append(twin.snapshot())
    assert game.snapshot() == before != states[-1]
    for action, state in zip(whole[300:400], states, strict=True):
        game.process(action, replay=True)
        assert game.snapshot() == state
