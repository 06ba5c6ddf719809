"""The Prussian formation on the core mechanism (``core/procedure.py``; rules/1835.md 10):
its stages are frozen; ``verify`` changes nothing whether it refuses or accepts; forming PR
moves it on to the exchanges (a new stage, the old one unchanged)."""

from __future__ import annotations

import pickle

from tests.unit.test_questions import played_until

from stellwerk.core.flow.base import act
from stellwerk.core.moves import parse
from stellwerk.core.procedure import is_frozen_stage
from stellwerk.titles.g1835 import formation
from stellwerk.titles.g1835.game import Game1835


def test_every_stage_is_frozen() -> None:
    assert formation.Forming.stages
    assert all(is_frozen_stage(cls) for cls in formation.Forming.stages)


def test_10_verify_is_pure_and_forming_moves_on() -> None:
    """M2's owner is asked whether PR forms: ``fold_in`` does not answer that and is
    refused, ``form`` is accepted; neither verdict changes the game (its pickle is the same
    bytes) or the stage.  Forming PR leaves the question for the exchanges or ends the
    round."""
    engine = played_until("1835", 1, "formation").engine
    assert isinstance(engine, Game1835)
    running = engine.formation
    assert running is not None
    stage = running.stage
    assert isinstance(stage, formation.AskingForm)
    m2 = running.asking_form()
    assert m2 is not None and running.current() is m2
    before = pickle.dumps(engine)
    refused = running.machine.verify(engine, stage, parse(act(m2, "choose", choice="fold_in")))
    assert refused is not None and refused.rule == formation.RULE
    form = parse(act(m2, "choose", choice="form"))
    assert running.machine.verify(engine, stage, form) is None
    assert pickle.dumps(engine) == before and running.stage is stage
    running.answer(engine, form)
    assert engine.pr_formed and running.asking_form() is None
    after = running.stage
    assert after is None or (isinstance(after, formation.OfferingFold) and after.formed_now)
