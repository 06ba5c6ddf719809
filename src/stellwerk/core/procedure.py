"""One kind of long procedure: a state machine of frozen stages.

Some rules run as a procedure over several decisions -- a corporation formed of others,
shares offered to one holder after another, tokens bought once the offers are over -- and
run the automatic parts between the decisions themselves.  Every such procedure is the
same kind of thing here:

* a **stage** is a frozen dataclass, one class per stage, carrying that stage's data (the
  holders still to be offered, the range of token counts ...).  The data that stays the same
  through the whole procedure (who takes part) belongs to the machine, not to a stage.
  Nothing changes a stage; the procedure moves on by getting a new one.
* a :class:`Machine` says what a stage asks (:meth:`Machine.question`), checks an answer
  without changing anything (:meth:`Machine.verify`) and makes the one transition
  (:meth:`Machine.advance`) from a stage and a verified answer to the next stage, changing
  the game as the rules say and running every automatic part up to the next stage that
  asks, or to the end (``None``).  A stage that asks nothing and is not the end rests (a
  procedure that waits for something that never comes, say).
* callers ask queries (:meth:`Machine.is_asking`, :meth:`Machine.done`, the stage's own
  predicates and ``isinstance``), never compare names of stages.

:func:`drive` is the one way an answer is applied: verify, refuse with the verdict, or
advance.  The title starts a procedure with a function of its own (the first stage comes
out of what the start does) and keeps the current stage where its game keeps procedures
under way.  The machine is generic in the game type, the stage type (a union of the stage
classes), the answer type and the question type, so a title keeps its own.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from typing import Generic, TypeVar

from stellwerk.core.errors import IllegalAction

GameT = TypeVar("GameT")
StageT = TypeVar("StageT")
AnswerT = TypeVar("AnswerT")
QuestionT = TypeVar("QuestionT")


class Machine(ABC, Generic[GameT, StageT, AnswerT, QuestionT]):
    """The rules of one procedure: its stages and the transition between them.

    ``stages`` lists the stage classes (each a frozen dataclass, :func:`is_frozen_stage`);
    ``rule`` is cited when an answer is refused.  The machine itself keeps nothing that
    changes: the current stage is the caller's."""

    rule: str = ""
    stages: tuple[type, ...] = ()

    @abstractmethod
    def question(self, game: GameT, stage: StageT) -> QuestionT | None:
        """What ``stage`` asks; ``None`` when it asks nothing (it rests).  Changes nothing."""

    @abstractmethod
    def verify(self, game: GameT, stage: StageT, answer: AnswerT) -> IllegalAction | None:
        """Why ``answer`` cannot be taken in ``stage`` (the refusal, naming the rule), or
        ``None`` when :meth:`advance` may take it.  Pure: changes neither the game nor the
        stage, so the game is exactly as before when the refusal is raised."""

    @abstractmethod
    def advance(self, game: GameT, stage: StageT, answer: AnswerT) -> StageT | None:
        """Take the verified ``answer`` in ``stage``: change the game as the rules say, run
        the automatic parts, and return the next stage (one that asks, or rests), or
        ``None`` when the procedure is done.  Called only after :meth:`verify` passed."""

    def is_asking(self, game: GameT, stage: StageT | None) -> bool:
        """Whether the procedure waits for an answer in ``stage``."""
        return stage is not None and self.question(game, stage) is not None

    def done(self, stage: StageT | None) -> bool:
        """Whether the procedure is over (its last transition returned ``None``)."""
        return stage is None


def drive(
    machine: Machine[GameT, StageT, AnswerT, QuestionT],
    game: GameT,
    stage: StageT,
    answer: AnswerT,
) -> StageT | None:
    """Apply ``answer`` in ``stage``: the machine verifies it first and a refusal is raised
    (``IllegalAction``, nothing changed); otherwise the transition's next stage."""
    refused = machine.verify(game, stage, answer)
    if refused is not None:
        raise refused
    return machine.advance(game, stage, answer)


def is_frozen_stage(cls: type) -> bool:
    """Whether ``cls`` is a stage as the mechanism needs it: a frozen dataclass."""
    if not dataclasses.is_dataclass(cls):
        return False
    params = getattr(cls, "__dataclass_params__", None)
    return bool(getattr(params, "frozen", False))
