"""The acting entity is typed (issue 7 item 3): an action names a player, a corporation or a
company (common rules §3.2), the generic turn machinery takes any of them (common rules §6:
an action goes to the first step that accepts it), and a step that acts for one kind only --
an operating step for the operating corporation, an auction or share turn for a player --
says so and treats any other kind in its turn as an engine defect, not a rule refusal."""

from __future__ import annotations

from typing import Any

import pytest
from boardless import BoardlessGame

from stellwerk.core.entities import Company, Corporation, Entity, Holder, Player
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import CorporationStep, PlayerStep, Round, act, entity_ref

MAJOR = [20, 10, 10, 10, 10, 10, 10, 10, 10]


class Seats(Round):
    """A round among the players (its entities are the players)."""

    def select_entities(self) -> list[Any]:
        return list(self.game.players)


class Operators(Round):
    """A round among the corporations (its entities are the corporations)."""

    def select_entities(self) -> list[Any]:
        return list(self.game.corporations)


class Acts(CorporationStep):
    def actions(self, entity: Entity) -> list[str]:
        return ["pass"] if entity is self.current_entity() else []


class Bids(PlayerStep):
    def actions(self, entity: Entity) -> list[str]:
        return ["pass"] if entity is self.current_entity() else []


def game() -> BoardlessGame:
    g = BoardlessGame([(1, "Ann"), (2, "Ben")], [], 0)
    g.corporations = [Corporation("AA", "Alpha", MAJOR, 3, 60, None)]
    g.companies = [Company("PR", "Private", 20, 5)]
    return g


def test_an_action_names_a_player_a_corporation_or_a_company_common_rules_3_2() -> None:
    """``Game.entity`` finds the entity an action names by its type; each is an ``Entity``,
    and ``act`` writes it back the same way."""
    g = game()
    for etype, eid, kind in (
        ("player", 2, Player),
        ("corporation", "AA", Corporation),
        ("company", "PR", Company),
    ):
        found = g.entity({"type": "pass", "entity": eid, "entity_type": etype})
        assert isinstance(found, kind)
        assert isinstance(found, Entity)
        assert entity_ref(found) == (eid, etype)
        assert act(found, "pass") == {"type": "pass", "entity": eid, "entity_type": etype}
    with pytest.raises(IllegalAction):
        g.entity({"type": "pass", "entity": "x", "entity_type": "bank"})


def test_the_pool_and_the_bank_are_holders_not_acting_entities() -> None:
    """Pool and bank hold certificates and cash like anyone (common rules §6.6) but never
    send an action."""
    g = game()
    for holder in (g.pool, g.bank):
        assert isinstance(holder, Holder)
        assert not isinstance(holder, Entity)


def test_an_operating_step_acts_for_the_operating_corporation_common_rules_6() -> None:
    """In a round of corporations a corporation step's acting entity is the corporation in
    turn, and it offers its actions to that corporation only."""
    g = game()
    rnd = Operators(g, [Acts])
    step = rnd.steps[0]
    assert isinstance(step, Acts)
    corp = g.corporation("AA")
    assert step.current_entity() is corp
    assert step.actions(corp) == ["pass"]
    assert step.actions(g.players[0]) == []


def test_a_corporation_step_with_a_player_in_turn_is_an_engine_defect() -> None:
    """A corporation step placed in a round of players is a defect of the title's round, so
    asking it who acts fails as a ``TypeError`` (reported as an engine error), never as an
    ``IllegalAction`` naming a rule."""
    g = game()
    rnd = Seats(g, [Acts])
    with pytest.raises(TypeError, match="acts for a corporation"):
        rnd.steps[0].current_entity()


def test_a_player_step_acts_for_the_player_in_turn_common_rules_6() -> None:
    """In a round of players a player step's acting entity is the player in turn; a
    corporation in its turn is an engine defect."""
    g = game()
    rnd = Seats(g, [Bids])
    step = rnd.steps[0]
    assert step.current_entity() is g.players[0]
    rnd.next_entity_index()
    assert step.current_entity() is g.players[1]
    assert step.actions(g.players[0]) == []
    wrong = Operators(g, [Bids])
    with pytest.raises(TypeError, match="acts for a player"):
        wrong.steps[0].current_entity()


def test_an_empty_round_has_nobody_in_turn() -> None:
    """No entities: no acting entity (and no TypeError)."""
    g = game()
    g.corporations = []
    assert Operators(g, [Acts]).steps[0].current_entity() is None
