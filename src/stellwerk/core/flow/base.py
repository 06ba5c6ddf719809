"""Rounds and steps: the generic turn machinery.

A round holds an ordered list of steps.  An action goes to the first active step that
accepts it; a blocking step that does not accept it refuses it.  After every action the
steps that have nothing left to do are skipped.  Who must act is the active entity of the
first active blocking step.  This mirrors the turn structure of the rulebooks' round
descriptions (common rules §6) and of 18xx.games, whose traces we must reproduce.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from stellwerk.core.errors import IllegalAction

if TYPE_CHECKING:
    from stellwerk.core.game import Game

Action = dict[str, Any]


@dataclass
class RoundState:
    """What a round remembers across its steps and turns (each round starts afresh).

    Stock rounds: ``players_sold`` (player -> corporation -> "now"/"prev": sold this turn or
    earlier in the round, common rules §6.6), ``current_actions`` (the actions of the current
    turn), ``pending_tokens`` (home tokens still to be placed, first one first); auctions:
    ``companies_pending_par`` (privates whose corporation must be parred next); operating
    rounds: ``routes`` and ``revenue`` of the current run (common rules §6.1).
    """

    players_sold: dict[Any, dict[str, str]] = field(default_factory=dict)
    current_actions: list[Action] = field(default_factory=list)
    pending_tokens: list[dict[str, Any]] = field(default_factory=list)
    companies_pending_par: list[Any] = field(default_factory=list)
    routes: list[Any] = field(default_factory=list)
    revenue: int = 0


class Step:
    """One step of a round.  Subclasses list the action types they accept per entity."""

    description = "step"
    blocks = True

    def __init__(self, game: Game, round_: Round, **opts: Any) -> None:
        self.game = game
        self.round = round_
        self.opts = opts
        self.passed = False
        self.acted = False

    # -- state ------------------------------------------------------------------------------
    def setup(self) -> None:
        """Called when the step is created and at the start of every entity's turn."""

    def active(self) -> bool:
        return not self.passed

    def pass_(self) -> None:
        self.passed = True

    def unpass(self) -> None:
        self.passed = False
        self.acted = False

    def skip(self) -> None:
        self.pass_()

    # -- who and what -----------------------------------------------------------------------
    def actions(self, entity: Any) -> list[str]:
        return []

    def active_entities(self) -> list[Any]:
        ents = self.round.entities
        if not ents:
            return []
        return [ents[self.round.entity_index]]

    def current_entity(self) -> Any:
        ents = self.active_entities()
        return ents[0] if ents else None

    def current_actions(self) -> list[str]:
        entity = self.current_entity()
        if entity is None or getattr(entity, "closed", False):
            return []
        return self.actions(entity)

    def blocking(self) -> bool:
        return self.blocks and bool(self.current_actions())

    def process(self, action: Action, entity: Any) -> None:
        handler = getattr(self, f"process_{action['type']}", None)
        if handler is None:
            raise IllegalAction(
                f"{self.description} cannot process {action['type']}", "common rules §6"
            )
        handler(action, entity)

    def process_pass(self, action: Action, entity: Any) -> None:
        self.pass_()

    def auto_actions(self, entity: Any) -> list[Action] | None:
        """Actions the server takes by itself for ``entity`` at this point (none by default)."""
        return None

    def choices(self, entity: Any) -> list[Action]:
        """Concrete actions ``entity`` may send to this step (finite choices listed).
        Steps with parameters override this; the default lists parameterless types."""
        return [act(entity, kind) for kind in self.actions(entity) if kind == "pass"]

    def price_space(self, entity: Any, listed: Action) -> tuple[int, int]:
        """The prices (lowest, highest) ``entity`` may name in the listed action ``listed``
        (live play, ``stellwerk.core.live``).  By default only the listed price; steps where
        the rules leave the amount to the player describe the range."""
        price = int(listed["price"])
        return (price, price)


def entity_ref(entity: Any) -> tuple[Any, str]:
    """(id, entity_type) of an entity as 18xx.games writes them."""
    kind = getattr(entity, "kind", "player")
    if kind == "player":
        return entity.id, "player"
    if kind == "company":
        return entity.sym, "company"
    return entity.sym, "corporation"


def act(entity: Any, action_type: str, /, **fields: Any) -> Action:
    """An 18xx.games action dict."""
    eid, etype = entity_ref(entity)
    out: Action = {"type": action_type, "entity": eid, "entity_type": etype}
    out.update(fields)
    return out


def _is_current(step: Step, entity: Any) -> bool:
    """Whether ``step.current_actions()`` would be ``step.actions(entity)`` (so a list already
    computed for ``entity`` answers it): ``entity`` is the step's open current entity."""
    return (
        type(step).blocking is Step.blocking
        and type(step).current_actions is Step.current_actions
        and step.current_entity() is entity
        and not getattr(entity, "closed", False)
    )


class Round:
    """A round: its entities in order, the index of the one acting, and its steps."""

    name = "Round"
    kind = "base"

    def __init__(self, game: Game, step_classes: list[Any], round_num: int = 1) -> None:
        self.game = game
        self.round_num = round_num
        self.entity_index = 0
        self.entities: list[Any] = self.select_entities()
        self.state = RoundState()
        self.steps: list[Step] = []
        for spec in step_classes:
            cls, opts = spec if isinstance(spec, tuple) else (spec, {})
            step = cls(game, self, **opts)
            step.setup()
            self.steps.append(step)

    def select_entities(self) -> list[Any]:
        return []

    def setup(self) -> None:
        """Called once the round is the game's current round."""

    stale_step: Step | None = None
    """A step the reference engine would still see as active from a cache taken before a
    change (see ``Game.action_processed`` of titles that close corporations mid-turn)."""

    def step_of(self, cls: type) -> Any:
        return next((s for s in self.steps if isinstance(s, cls)), None)

    def active_step(self) -> Step | None:
        if self.stale_step is not None:
            return self.stale_step
        for step in self.steps:
            if step.active() and step.blocking():
                return step
        return None

    def active_entities(self) -> list[Any]:
        if self.game.finished:
            # once the game is over only chat is possible, and the reference engine shows the
            # round's current entity as the one to act if it is a player (its message step)
            ents = self.entities
            current = ents[self.entity_index] if ents and self.entity_index < len(ents) else None
            if getattr(current, "kind", "") == "player":
                return [current]
        step = self.active_step()
        return step.active_entities() if step else []

    def current_entity(self) -> Any:
        ents = self.active_entities()
        return ents[0] if ents else None

    def finished(self) -> bool:
        return self.active_step() is None

    def step_for_entity(self, entity: Any) -> Step | None:
        """The step that would take an action of ``entity`` now (companies act in
        non-blocking steps)."""
        is_company = getattr(entity, "kind", "") == "company"
        for step in self.steps:
            if step.active() and (is_company or step.blocking()) and step.actions(entity):
                return step
        return None

    def auto_actions(self) -> list[Action]:
        """Automatic follow-up actions of the acting entity (18xx.games auto_actions)."""
        entity = self.current_entity()
        step = self.step_for_entity(entity) if entity is not None else None
        return (step.auto_actions(entity) or []) if step is not None else []

    def actions_for(self, entity: Any) -> list[str]:
        out: list[str] = []
        for step in self.steps:
            if not step.active():
                continue
            for a in step.actions(entity):
                if a not in out:
                    out.append(a)
            if step.blocking():
                break
        return out

    def process_action(self, action: Action, entity: Any) -> None:
        self.stale_step = None
        kind = action["type"]
        chosen: Step | None = None
        for step in self.steps:
            if not step.blocks and getattr(step, f"process_{kind}", None) is None:
                continue  # never blocks and has no handler for this kind: cannot take it
            if not step.active():
                continue
            offered = step.actions(entity)
            accepts = kind in offered
            blocking = step.blocks and bool(
                offered if _is_current(step, entity) else step.current_actions()
            )
            if blocking and not accepts:
                raise IllegalAction(
                    f"{kind} is not allowed now: the current step is '{step.description}'",
                    "common rules §6 (turn order)",
                )
            if blocking or accepts:
                chosen = step
                break
        if chosen is None:
            raise IllegalAction(f"no step accepts {kind} now", "common rules §6 (turn order)")
        chosen.process(action, entity)
        chosen.acted = True
        self.skip_steps()
        self.after_process(action, entity)

    def after_process(self, action: Action, entity: Any) -> None:
        pass

    def skip_steps(self) -> None:
        ents = self.entities
        current = ents[self.entity_index] if ents and self.entity_index < len(ents) else None
        for step in self.steps:
            if not step.active() or not step.blocks or getattr(current, "closed", False):
                continue
            if step.blocking():
                break
            step.skip()

    def next_entity_index(self) -> None:
        self.entity_index = (self.entity_index + 1) % len(self.entities)

    def next_entity(self) -> None:
        raise NotImplementedError

    def force_next_entity(self) -> None:
        for step in self.steps:
            step.pass_()
        self.next_entity()
        self.stale_step = None
