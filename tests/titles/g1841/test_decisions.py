"""Questions of 1841's long procedures (rules/1841.md 5.6): the Decisions step asks the first
procedure under way, refuses answers that are not offered, and drops procedures that are done."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.core.moves import Move, choice_of
from stellwerk.titles.g1841.decisions import Decisions, Procedure, Question, queue
from stellwerk.titles.g1841.game import Game1841


@dataclass
class Offer(Procedure):
    """A toy procedure: offers one share to each player in turn (yes/no)."""

    asked: list[Any]
    answers: list[str] = field(default_factory=list)

    def question(self, game: Game1841) -> Question | None:
        if len(self.answers) == len(self.asked):
            return None
        return Question(
            self.asked[len(self.answers)], ("choose",), "share_offer", "rule", ["yes", "no"]
        )

    def answer(self, game: Game1841, action: Move) -> None:
        self.answers.append(str(choice_of(action)))


def test_decisions_ask_in_order_and_refuse_what_is_not_offered() -> None:
    game = Game1841([(1, "a"), (2, "b"), (3, "c")], [], 1)
    step = Decisions(game, game.round)
    assert not step.active()
    first, second = game.players[0], game.players[1]
    offer = Offer([first, second])
    queue(game, offer)
    queue(game, Offer([]))  # asks nothing: done at once
    assert len(game.procedures) == 1
    assert step.active() and step.active_entities() == [first]
    assert [a["choice"] for a in step.choices(first)] == ["yes", "no"]
    assert step.actions(second) == []
    with pytest.raises(IllegalAction):
        step.process({"type": "choose", "entity": 0, "choice": "maybe"}, first)
    with pytest.raises(IllegalAction):
        step.process({"type": "choose", "entity": 0, "choice": "yes"}, second)
    assert offer.answers == []
    step.process({"type": "choose", "entity": 0, "choice": "yes"}, first)
    assert step.active_entities() == [second]
    step.process({"type": "choose", "entity": 0, "choice": "no"}, second)
    assert offer.answers == ["yes", "no"]
    assert game.procedures == [] and not step.active()
