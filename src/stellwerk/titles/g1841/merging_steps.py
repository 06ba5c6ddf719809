"""The Merge and Transform steps of 1841's operating turn (rules/1841.md 2.3.2 items 13-14,
2.3.11, 2.3.12, 5.3, 5.6).

Both take the action type ``merge``.  Merge: the first ``merge`` names the partner, the second
the target (no ``pass`` in between), or the operator sends ``pass``.  Transform: one ``merge``
names the target, or ``pass``.  The procedures they start (:class:`~.merger.Merger`,
:class:`~.transform.Transform`) are queued in ``game.procedures``; their questions are answered
through the :class:`~.decisions.Decisions` step.

When the steps are offered (as 18xx.games, whose files we replay): Merge is offered to an
operator that is mergeable, not done this round, while a target exists; when it reaches no
partner the server passes for it (an ``auto_actions`` pass in the game file, see
:meth:`MergeStep.auto_actions`); an operator that is not mergeable or finds no target skips
it without an action.  Transform is offered to a minor that may transform while a target
exists; it has no automatic pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Entity
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, Step, act, remembered
from stellwerk.titles.g1841 import merger, transform
from stellwerk.titles.g1841.decisions import queue

if TYPE_CHECKING:
    from stellwerk.titles.g1841.decisions import DecidingGame, ProcedureGame


def operator(step: Step) -> Entity | None:
    ents = step.round.entities
    return ents[step.round.entity_index] if ents else None


class MergeStep(Step):
    """Merge (rules/1841.md 2.3.11): ``merge`` {corporation: partner}, then ``merge``
    {corporation: target}; or ``pass``."""

    description = "Merge"
    game: DecidingGame

    def setup(self) -> None:
        self.partner: str | None = None
        self.target: str | None = None

    def actions(self, entity: Entity) -> list[str]:
        game = self.game
        if not isinstance(entity, Corporation) or entity is not operator(self):
            return []
        if entity.sym in game.done_this_round or getattr(self, "target", None) is not None:
            return []
        if not merger.mergeable(game, entity) or not merger.targets(game):
            return []
        return ["merge"] if getattr(self, "partner", None) else ["merge", "pass"]

    def auto_actions(self, entity: Entity) -> list[Action] | None:
        """18xx.games passes for an operator that reaches no partner (rules/1841.md 5.6)."""
        if getattr(self, "partner", None) or game_busy(self.game):
            return None
        if not isinstance(entity, Corporation):
            return None
        if self.actions(entity) and not merger.partners(self.game, entity):
            return [act(entity, "pass")]
        return None

    def choices(self, entity: Entity) -> list[Action]:
        """The partners (then the targets) of a merger that can begin: one that would leave
        the new corporation without a president or make a circular chain of control is not
        allowed (rules/1841.md 2.3.11, seed 000 items 3.1, 3.6), so it is not listed; for a
        minor pair that is known at once and tried on a copy (18xx.games lists it and then
        asks to undo).  A partner is tried with the first target: who becomes president does
        not depend on which new corporation is formed."""
        kinds = self.actions(entity)
        if not kinds or not isinstance(entity, Corporation):
            return []
        listed: list[Action] = remembered(
            self, f"merge_choices {entity.sym}", lambda: self.listed(entity, kinds)
        )
        return listed

    def listed(self, entity: Corporation, kinds: list[str]) -> list[Action]:
        game = self.game
        partner = getattr(self, "partner", None)
        targets = merger.targets(game)
        if partner:
            other = game.corporation(partner)
            listed = [t for t in targets if merger.can_begin(game, entity, other, t)]
        else:
            listed = [
                p
                for p in merger.partners(game, entity)
                if not targets or merger.can_begin(game, entity, p, targets[0])
            ]
        out = [act(entity, "merge", corporation=c.sym) for c in listed]
        if "pass" in kinds:
            out.append(act(entity, "pass"))
        return out

    def why_refused(self, entity: Entity, action: moves.Move) -> IllegalAction | None:
        """Why the named partner (or, once it is chosen, the named new corporation) is not
        allowed, naming the rule that forbids it -- a partner across a border: seed 000 item
        3.7 (:func:`.merger.partner_refusal`, :func:`.merger.target_refusal`); or why the
        operator, a major (minors may transform instead), may not merge at all this turn
        (:func:`.merger.not_mergeable`: historical before phase 4, not operated, frozen)."""
        if not isinstance(entity, Corporation) or action.type != "merge":
            return None
        game = self.game
        if entity is operator(self) and merger.is_major(game, entity):
            refused = merger.not_mergeable(game, entity)
            if refused is not None and merger.targets(game):
                return refused  # a major never transforms: it may not merge this turn
        named = self.named(entity, action)
        if named is None:
            return None
        partner = getattr(self, "partner", None)
        if partner is None:
            return merger.partner_refusal(self.game, entity, named)
        return merger.target_refusal(self.game, entity, self.game.corporation(partner), named)

    def named(self, entity: Entity, action: moves.Move) -> Corporation | None:
        """The corporation a ``merge`` of the operator names, if the step offers it one."""
        if not isinstance(action, moves.Merge) or "merge" not in self.actions(entity):
            return None
        sym = action.corporation
        return next((c for c in self.game.corporations if c.sym == sym), None)

    def process_merge(self, action: moves.Merge, entity: Corporation) -> None:
        if "merge" not in self.actions(entity):
            raise IllegalAction(f"{entity.sym} may not merge now", merger.RULE)
        game = self.game
        other = game.corporation(str(action.corporation))
        if self.partner is None:
            if game.specs[other.sym].type != game.specs[entity.sym].type:
                raise IllegalAction(f"{other.sym} is the wrong corporation type", merger.RULE_TYPE)
            if other is entity or not merger.mergeable(game, other):
                refused = merger.not_mergeable(game, other)
                itself = IllegalAction(f"{entity.sym} cannot merge with itself", merger.RULE)
                raise refused or itself
            self.partner = other.sym
            return
        partner = game.corporation(self.partner)
        started = merger.start_merger(game, entity, partner, other)
        self.target = other.sym
        queue(game, started)


class TransformStep(Step):
    """Transform (rules/1841.md 2.3.12): ``merge`` {corporation: target} or ``pass``."""

    description = "Transform minor into major"
    game: DecidingGame

    def setup(self) -> None:
        self.target: str | None = None

    def actions(self, entity: Entity) -> list[str]:
        game = self.game
        if not isinstance(entity, Corporation) or entity is not operator(self):
            return []
        if entity.sym in game.done_this_round or getattr(self, "target", None) is not None:
            return []
        if not transform.transformable(game, entity) or not merger.targets(game):
            return []
        return ["merge", "pass"]

    def choices(self, entity: Entity) -> list[Action]:
        kinds = self.actions(entity)
        if not kinds:
            return []
        out = [act(entity, "merge", corporation=c.sym) for c in merger.targets(self.game)]
        out.append(act(entity, "pass"))
        return out

    def why_refused(self, entity: Entity, action: moves.Move) -> IllegalAction | None:
        """A named corporation that a transformation cannot form, naming the rule
        (rules/1841.md 2.3.12: a non-historical major not started)."""
        if not isinstance(action, moves.Merge) or "merge" not in self.actions(entity):
            return None
        sym = action.corporation
        target = next((c for c in self.game.corporations if c.sym == sym), None)
        if target is None or merger.merge_target(self.game, target):
            return None
        return IllegalAction(
            f"{target.sym} cannot be formed by a transformation", transform.RULE_TARGET
        )

    def process_merge(self, action: moves.Merge, entity: Corporation) -> None:
        if "merge" not in self.actions(entity):
            raise IllegalAction(f"{entity.sym} may not transform now", transform.RULE)
        target = self.game.corporation(str(action.corporation))
        started = transform.start_transform(self.game, entity, target)
        self.target = target.sym
        queue(self.game, started)


def game_busy(game: ProcedureGame) -> bool:
    """A procedure still asks (pending token choices and the like come first), or a token
    purchase waits that is never asked (:func:`.stock.stall_token_purchases`: 18xx.games'
    queue of token purchases is not empty)."""
    return bool(game.procedures) or game.stalled_token_purchase is not None
