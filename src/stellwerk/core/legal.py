"""What may be done now: concrete 18xx.games action dicts, asked of the round's steps.

Each step lists its own choices (``Step.choices``); this module walks the steps in the order
the round would route an action (common rules §6: the first active step that accepts it,
stopping at the first blocking step).  Tile lays are listed for one hex on request, or for
every hex with ``all_lays`` (slow); ``lay_hexes`` names the hexes worth asking about, so that
one lay can be found without listing them all (the random driver does that).
"""

from __future__ import annotations

from stellwerk.core.asking import Asked
from stellwerk.core.entities import Corporation, Entity
from stellwerk.core.flow.base import Action
from stellwerk.core.flow.operating import Track
from stellwerk.core.game import Game


def candidates(game: Game) -> list[Entity]:
    """Entities that may act now: the active ones, and in an operating turn the operator's
    president, its controlling player (the end of its chain of control, who raises emergency
    money for it) and the companies it owns."""
    rnd = game.round
    out: list[Entity] = list(rnd.active_entities())
    operator = getattr(rnd, "current_operator", None)
    if isinstance(operator, Corporation):
        for extra in [operator, operator.owner, game.controller(operator), *operator.companies]:
            if isinstance(extra, Entity) and extra not in out:
                out.append(extra)
    return out


def legal_actions(game: Game, hex_id: str | None = None, all_lays: bool = False) -> list[Action]:
    """Every action the entities that may act now can send (finite choices listed)."""
    if game.finished:
        return []
    out: list[Action] = []
    for entity in candidates(game):
        taken: set[str] = set()
        for step in game.round.steps:
            if not step.active():
                continue
            kinds = [k for k in step.actions_of(entity) if k not in taken]
            if kinds:
                if isinstance(step, Track):
                    found = step.choices(entity, hex_id, all_lays)
                else:
                    found = step.choices(entity)
                out.extend(a for a in found if a["type"] in kinds)
                taken.update(kinds)
            if step.blocking():
                break
    return out


def question(game: Game) -> Asked | None:
    """The first decision a step asks of an entity that may act now (``Step.question``),
    walking the steps as :func:`legal_actions` does; its answers are those of the action
    types the step takes from that entity now.  ``None`` when no step asks one."""
    if game.finished:
        return None
    for entity in candidates(game):
        taken: set[str] = set()
        for step in game.round.steps:
            if not step.active():
                continue
            kinds = [k for k in step.actions_of(entity) if k not in taken]
            if kinds:
                asked = step.question(entity)
                if asked is not None:
                    answers = tuple(a for a in asked.answers if a.action.get("type") in kinds)
                    if answers:
                        return Asked(asked.entity, asked.topic, answers, asked.facts)
                taken.update(kinds)
            if step.blocking():
                break
    return None


def lay_hexes(game: Game) -> list[str]:
    """The hexes where ``legal_actions(game, hex_id)`` may list tile lays, in a fixed order (a
    superset: some may have none).  Empty when no step would list a lay now."""
    if game.finished:
        return []
    out: dict[str, None] = {}
    for entity in candidates(game):
        for step in game.round.steps:
            if not step.active():
                continue
            if isinstance(step, Track):
                out.update(dict.fromkeys(step.lay_hexes(entity)))
            if step.blocking():
                break
    return list(out)
