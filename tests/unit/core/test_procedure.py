"""The one kind of long procedure (``core/procedure.py``): frozen stages, a pure ``verify``,
one transition that ``drive`` reaches only after ``verify`` passed, queries for callers.

A toy procedure collects a fee from a list of payers, each asked "pay" or "skip"; a payer
without the cash may only skip."""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.core.procedure import Machine, drive, is_frozen_stage

FEE = 10


@dataclass
class Table:
    """The toy game: who has how much, what was collected, the transitions made."""

    cash: dict[str, int]
    pot: int = 0
    advanced: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Collecting:
    """Payers still to be asked, the first asked now."""

    todo: tuple[str, ...]

    def payer(self) -> str:
        return self.todo[0]


@dataclass(frozen=True)
class Waiting:
    """Rests: asks nothing and is not done."""


Stage = Collecting | Waiting


class Collection(Machine[Table, Stage, str, str]):
    rule = "toy rule 1"
    stages = (Collecting, Waiting)

    def question(self, game: Table, stage: Stage) -> str | None:
        return f"{stage.payer()} pays?" if isinstance(stage, Collecting) else None

    def verify(self, game: Table, stage: Stage, answer: str) -> IllegalAction | None:
        if not isinstance(stage, Collecting):
            return IllegalAction("nothing is asked", self.rule)
        if answer not in ("pay", "skip"):
            return IllegalAction(f"{answer!r} does not answer", self.rule)
        if answer == "pay" and game.cash[stage.payer()] < FEE:
            return IllegalAction(f"{stage.payer()} cannot pay", self.rule)
        return None

    def advance(self, game: Table, stage: Stage, answer: str) -> Stage | None:
        assert isinstance(stage, Collecting)
        game.advanced.append(answer)
        if answer == "pay":
            game.cash[stage.payer()] -= FEE
            game.pot += FEE
        rest = stage.todo[1:]
        return Collecting(rest) if rest else None


def test_verify_is_pure() -> None:
    """A refused and an accepted verify leave the game and the stage equal to what they
    were (and the stage object itself unchanged)."""
    machine = Collection()
    game = Table({"A": 5, "B": 20})
    stage = Collecting(("A", "B"))
    before_game, before_stage = copy.deepcopy(game), copy.deepcopy(stage)
    refused = machine.verify(game, stage, "pay")
    assert isinstance(refused, IllegalAction) and refused.rule == "toy rule 1"
    assert game == before_game and stage == before_stage
    assert machine.verify(game, stage, "skip") is None
    assert game == before_game and stage == before_stage


def test_drive_refuses_before_the_transition() -> None:
    """An answer ``verify`` refuses is raised and ``advance`` is never reached; an accepted
    one makes the transition to the next stage."""
    machine = Collection()
    game = Table({"A": 5, "B": 20})
    stage = Collecting(("A", "B"))
    with pytest.raises(IllegalAction, match="cannot pay"):
        drive(machine, game, stage, "pay")
    with pytest.raises(IllegalAction, match="does not answer"):
        drive(machine, game, stage, "maybe")
    assert game.advanced == [] and game.pot == 0
    after = drive(machine, game, stage, "skip")
    assert after == Collecting(("B",)) and stage == Collecting(("A", "B"))
    assert drive(machine, game, after, "pay") is None
    assert game.advanced == ["skip", "pay"] and game.pot == FEE and game.cash["B"] == 10


def test_queries() -> None:
    """Callers ask the machine, never compare stage names: asking, resting, done."""
    machine = Collection()
    game = Table({"A": 5})
    assert machine.is_asking(game, Collecting(("A",)))
    assert not machine.is_asking(game, Waiting()) and not machine.done(Waiting())
    assert not machine.is_asking(game, None) and machine.done(None)
    with pytest.raises(IllegalAction, match="nothing is asked"):
        drive(machine, game, Waiting(), "pay")


def test_stages_are_frozen() -> None:
    """Every stage class is a frozen dataclass; a plain dataclass or class is not a stage."""
    assert all(is_frozen_stage(cls) for cls in Collection.stages)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(Collecting(("A",)), "todo", ())  # noqa: B010 - the write is the test

    @dataclass
    class Loose:
        todo: tuple[str, ...]

    assert not is_frozen_stage(Loose) and not is_frozen_stage(Table.__mro__[-1])
