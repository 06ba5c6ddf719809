"""A 1835 engine can be checkpointed in every round (issue 7 item 5: undo restores a
snapshot): the round sequence keeps what comes next as a picklable call, not a lambda, which
the formation round holds while it runs (rules/1835.md 10.1)."""

from __future__ import annotations

import pickle

from stellwerk.api import Game
from stellwerk.titles.g1835.sequence import following


def test_the_round_after_the_current_one_survives_pickling() -> None:
    game = Game.create("1835", [(n, f"P{n}") for n in range(1, 5)], [], 1)
    engine = game.engine
    follow = following(engine, engine.round)
    copy = pickle.loads(pickle.dumps(follow))
    assert callable(copy)
