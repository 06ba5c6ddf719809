"""Rounds and steps: the generic turn machinery.

A round holds an ordered list of steps.  An action goes to the first active step that
accepts it; a blocking step that does not accept it refuses it.  After every action the
steps that have nothing left to do are skipped.  Who must act is the active entity of the
first active blocking step.  This mirrors the turn structure of the rulebooks' round
descriptions (common rules §6) and of 18xx.games, whose traces we must reproduce.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypedDict, TypeVar

from mypy_extensions import mypyc_attr

from stellwerk.core import moves
from stellwerk.core.asking import Asked
from stellwerk.core.entities import Company, Corporation, Entity, Player
from stellwerk.core.errors import IllegalAction
from stellwerk.core.events import StepSkipped, ref
from stellwerk.core.jsondata import JSONObject
from stellwerk.core.native import set_state, state_of

if TYPE_CHECKING:
    from stellwerk.core.game import Game

Action = dict[str, Any]

StepOption = bool | int | str
"""The value of a step's option, as a title lists it with the step's class (``StepSpec``):
a switch (``blocks``), a number (``opening_bid``) or a rule's name (``rule``)."""


class PendingToken(TypedDict):
    """A home token still to be placed: the corporation and the hexes it may choose from."""

    entity: Corporation
    hexes: list[str]


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass
class RoundState:
    """What a round remembers across its steps and turns (each round starts afresh).

    Stock rounds: ``players_sold`` (seller -- a player, or a corporation where a title lets
    corporations trade -- -> corporation -> "now"/"prev": sold this turn or
    earlier in the round, common rules §6.6), ``current_actions`` (the actions of the current
    turn), ``pending_tokens`` (home tokens still to be placed, first one first); auctions:
    ``companies_pending_par`` (privates whose corporation must be parred next); operating
    rounds: the ``revenue`` of the current run (common rules §6.1).
    """

    players_sold: dict[Entity, dict[str, str]] = field(default_factory=dict)
    current_actions: list[moves.Move] = field(default_factory=list)
    pending_tokens: list[PendingToken] = field(default_factory=list)
    companies_pending_par: list[Company] = field(default_factory=list)
    revenue: int = 0


T = TypeVar("T")


def remembered(owner: Step | Round[Entity], name: str, compute: Callable[[], T]) -> T:
    """``compute()``, remembered on ``owner`` under ``name`` for the state the game's
    ``memo_key`` names (who may act is computed once per state change).

    An answer that asked the title's cache (``game.memo_cache``: the graph cache, which the
    reference engine fills and clears at its own points) is kept with the cache's stamp and
    taken again only while the cache holds the same; and it is kept only if computing it
    changed nothing in the cache.  So taking an answer again is exactly what computing it
    again would do, side effects included."""
    game = owner.game
    key = game.memo_key
    if key is None:  # the state is changing: nothing is remembered
        return compute()
    cache = game.memo_cache
    memo = owner._memo
    if memo is not None and memo[0] == key:
        found = memo[1].get(name)
        if found is not None:
            # the memo holds the answers of every name: the one kept under ``name`` is what
            # ``compute`` returned for this key (kept as ``Any``: no call of ``cast`` when it
            # runs, most answers asked are found here)
            value: T
            value, stamp = found
            if stamp is None:
                return value
            if cache is not None and stamp == cache.stamp:
                cache.reads += 1  # an answer taken from the cache: it asked the cache
                return value
    if cache is None:
        value = compute()
        if game.memo_key == key:
            _keep(owner, key, name, value, None)
        return value
    stamp, reads = cache.stamp, cache.reads
    value = compute()
    if game.memo_key == key and cache.stamp == stamp:
        # ``_keep``, inlined (most answers are found afresh: asked after every action)
        memo = owner._memo  # (again: ``compute`` may have kept answers of its own)
        if memo is None or memo[0] != key:
            memo = owner._memo = (key, {})
        memo[1][name] = (value, None if cache.reads == reads else stamp)
    return value


def _keep(
    owner: Step | Round[Entity], key: object, name: str, value: object, stamp: object
) -> None:
    memo = owner._memo
    if memo is None or memo[0] != key:
        memo = owner._memo = (key, {})
    memo[1][name] = (value, stamp)


StepT = TypeVar("StepT", bound="Step")
EntityT = TypeVar("EntityT", bound=Entity)


def remembered_tests(
    table: Mapping[str, Callable[[StepT, EntityT], bool]],
) -> Callable[[StepT, str, EntityT], bool]:
    """A step's turn tests by name, each remembered for the state (:func:`remembered`, keyed
    by the game's ``memo_key``; who may act is found once per state, by existence
    tests).  ``table`` maps a test's name to how it is computed for the step and the entity
    to act; the function returned, a method of the step (``_test = remembered_tests({...})``),
    answers ``step._test(name, entity)``.  An unknown name is a ``KeyError``.

    A title's step lists its own tests: the table's functions ask the step's methods, so a
    subclass's overrides are the ones asked."""
    tests = dict(table)

    def test(step: StepT, name: str, entity: EntityT) -> bool:
        compute = tests[name]
        found: bool = remembered(step, name, lambda: compute(step, entity))
        return found

    return test


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Step:
    """One step of a round.  Subclasses list the action types they accept per entity.

    ``current_actions`` and ``blocking`` are remembered per state (:func:`remembered`);
    subclasses override ``actions`` (and may answer ``blocking`` faster, marked with
    :func:`any_action_blocks`)."""

    description: ClassVar[str] = "step"
    BLOCKS: ClassVar[bool] = True
    """Whether a step of this class blocks (``blocks``, which a step may change for itself)."""
    _memo: tuple[object, dict[str, tuple[Any, object]]] | None = None
    """Answers remembered for one ``game.memo_key`` (:func:`remembered`)."""

    def __getstate__(self) -> dict[str, object]:
        """Pickle and copy: the attributes, also those of a compiled class (``core.native``)."""
        return state_of(self)

    def __setstate__(self, state: dict[str, object]) -> None:
        set_state(self, state)

    def __init__(self, game: Game, round_: Round[Entity], **opts: StepOption) -> None:
        self.game = game
        self.round = round_
        self.opts = opts
        self.passed = False
        self.acted = False
        self.blocks = self.BLOCKS

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
    def actions(self, entity: Entity) -> list[str]:
        return []

    def active_entities(self) -> Sequence[Entity]:
        ents = self.round.entities
        if not ents:
            return []
        return [ents[self.round.entity_index]]

    def current_entity(self) -> Entity | None:
        return _step_current_entity(self)

    def current_actions(self) -> list[str]:
        """The action types of the current entity (do not change the list: it is shared)."""
        # (``remembered`` computes it afresh while the state is changing)
        found: list[str] = remembered(self, "current_actions", self._current_actions)
        return found

    def _current_actions(self) -> list[str]:
        entity = self.current_entity()
        if entity is None or getattr(entity, "closed", False):
            return []
        return self.actions(entity)

    def blocking(self) -> bool:
        return self.blocks and bool(self.current_actions())

    def offers_current(self, kind: str) -> bool:
        """Whether :meth:`current_actions` holds ``kind`` (the routing asks this of the current
        entity's step).  A step whose whole menu is dear may answer it from the few tests it
        needs; it must equal ``kind in self.current_actions()``."""
        return kind in self.current_actions()

    def actions_of(self, entity: Entity) -> list[str]:
        """``actions(entity)``, taken from :meth:`current_actions` (remembered) when that
        answers it (do not change the list)."""
        if self.game.memo_key is not None and _is_current(self, entity):
            return self.current_actions()
        return self.actions(entity)

    def process(self, action: moves.Move | JSONObject, entity: Entity) -> None:
        """Hand ``action`` to this step's handler of its type (an action object is parsed
        first, ``moves.parse``)."""
        if not isinstance(action, moves.Move):  # (``moves.as_move``, inlined)
            action = moves.parse(action)
        key = (type(self), action.type)
        try:  # (``_handler``, inlined where the handler was looked up before)
            handler = _HANDLERS[key]
        except KeyError:
            handler = _handler(*key)
        if handler is None:
            raise IllegalAction(
                f"{self.description} cannot process {action.type}", "common rules §6"
            )
        handler(self, action, entity)

    def routed_here(self, kind: str, entity: Entity) -> bool:
        """Whether the round routed the action being processed, of type ``kind`` by
        ``entity``, to this step because the step offered it (:attr:`Round.routed`): asked
        by a handler before it changes anything, it may skip its own test that the action is
        offered, which would give the same answer."""
        routed = self.round.routed
        return (
            routed is not None and routed[0] is self and routed[1] == kind and routed[2] is entity
        )

    def routed_state(self, kind: str, entity: Entity) -> object:
        """The game's ``memo_key`` of the state in which the round routed the action being
        processed (of type ``kind`` by ``entity``) to this step -- the state its handler
        starts from, so an answer the step remembered under that key is what asking again
        would give -- or None (routed elsewhere, or nothing was remembered then).  Asked by
        a handler before it changes anything."""
        if not self.routed_here(kind, entity):
            return None
        return self.round.routed_key

    def process_pass(self, action: moves.Pass, entity: Entity) -> None:
        self.pass_()

    def auto_actions(self, entity: Entity) -> list[Action] | None:
        """Actions the server takes by itself for ``entity`` at this point (none by default)."""
        return None

    def choices(self, entity: Entity) -> list[Action]:
        """Concrete actions ``entity`` may send to this step (finite choices listed).
        Steps with parameters override this; the default lists parameterless types."""
        return [act(entity, kind) for kind in self.actions(entity) if kind == "pass"]

    def question(self, entity: Entity) -> Asked | None:
        """The decision this step asks of ``entity`` as a set of named answers
        (:mod:`stellwerk.core.asking`): its topic, its facts and the meaning of each listed
        answer.  ``None`` (the default): the step offers ordinary moves, or nobody has said
        what its answers mean (a front end then shows the bare actions)."""
        return None

    def why_refused(self, entity: Entity, action: moves.Move) -> IllegalAction | None:
        """Why ``action`` of ``entity`` is not allowed, naming the rule that forbids the move
        itself (live play, ``stellwerk.core.live``): asked of the step that would take the
        action once it is neither listed nor in a listed space, and of every step of the
        round when no step takes it now -- so a step answers only for moves it would take and
        that no later moment of the turn allows either.  ``None`` (the default): the gate's
        own reason, which names the rule of the action type or the turn order."""
        return None

    def price_space(self, entity: Entity, listed: Action) -> tuple[int, int]:
        """The prices (lowest, highest) ``entity`` may name in the listed action ``listed``
        (live play, ``stellwerk.core.live``).  By default only the listed price; steps where
        the rules leave the amount to the player describe the range."""
        price = int(listed["price"])
        return (price, price)


Handler = Callable[[Step, moves.Move, Entity], None]
"""A step's handler of one action type (``process_<type>``), as its class holds it."""

_HANDLERS: dict[tuple[type[Step], str], Handler | None] = {}
"""Each step class's handler of each action type, looked up once (the routing asks for it
at every step of every action)."""


def _handler(cls: type[Step], kind: str) -> Handler | None:
    """``process_<kind>`` of the step class ``cls`` (steps define handlers as methods of
    their class, never on an instance), None if it has none."""
    key = (cls, kind)
    try:
        return _HANDLERS[key]
    except KeyError:
        found: Handler | None = getattr(cls, "process_" + kind, None)
        _HANDLERS[key] = found
        return found


_STEP_ACTIVE = Step.active
"""``Step.active``: the round's walks over its steps read ``passed`` for a step that keeps
it (asked of every step at every routing and skip), and ask any other."""


def _step_current_entity(step: Step) -> Entity | None:
    """:meth:`Step.current_entity`, for the kinds of step that check what it answers (a
    plain function: asked very often)."""
    if type(step).active_entities is Step.active_entities:  # the round's acting entity
        rnd = step.round
        round_ents = rnd.entities
        return round_ents[rnd.entity_index] if round_ents else None
    ents = step.active_entities()
    return ents[0] if ents else None


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class CorporationStep(Step):
    """A step whose acting entity is a corporation (the operating steps: the operating
    corporation, or the corporation the step itself names).  ``current_entity`` says so; any
    other kind there is an engine defect (a ``TypeError``), never a rule refusal."""

    def current_entity(self) -> Corporation | None:
        if type(self).active_entities is Step.active_entities:  # _step_current_entity, inlined
            rnd = self.round
            round_ents = rnd.entities
            entity = round_ents[rnd.entity_index] if round_ents else None
        else:
            entity = _step_current_entity(self)
        if entity is None or isinstance(entity, Corporation):
            return entity
        raise TypeError(f"{type(self).__name__} acts for a corporation, not {entity.name}")


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class PlayerStep(Step):
    """A step whose acting entity is a player (auctions, stock turns, a player's choice).
    ``current_entity`` says so; any other kind there is an engine defect (a ``TypeError``)."""

    def current_entity(self) -> Player | None:
        if type(self).active_entities is Step.active_entities:  # _step_current_entity, inlined
            rnd = self.round
            round_ents = rnd.entities
            entity = round_ents[rnd.entity_index] if round_ents else None
        else:
            entity = _step_current_entity(self)
        if entity is None or isinstance(entity, Player):
            return entity
        raise TypeError(f"{type(self).__name__} acts for a player, not {entity.name}")


def entity_ref(entity: Entity) -> tuple[int | str, str]:
    """(id, entity_type) of an entity as 18xx.games writes them."""
    if isinstance(entity, Player):
        return entity.id, "player"
    if isinstance(entity, Company):
        return entity.sym, "company"
    return entity.sym, "corporation"


def act(entity: Entity, action_type: str, /, **fields: Any) -> Action:
    """An 18xx.games action dict."""
    eid, etype = entity_ref(entity)
    out: Action = {"type": action_type, "entity": eid, "entity_type": etype}
    out.update(fields)
    return out


_ANY_ACTION_BLOCKING: set[object] = {Step.blocking}
"""``blocking`` methods that answer ``blocks and bool(current_actions())``."""

F = TypeVar("F", bound=Callable[..., object])


def any_action_blocks(method: F) -> F:
    """Marks a ``blocking`` override that only computes ``blocks and bool(current_actions())``
    faster, so the round may answer it from an action list it already has."""
    _ANY_ACTION_BLOCKING.add(method)
    return method


ANNOUNCING: set[object] = set()
"""Hook methods (a round's ``after_process``, ``Game.action_processed``) that call
``game.changing()`` before they change anything."""


def announces_changes(method: F) -> F:
    """Marks a hook (a round's ``after_process``, ``Game.action_processed``) that calls
    ``game.changing()`` before it changes anything, so the answers found before it are kept
    for it (and after it, when it changes nothing)."""
    ANNOUNCING.add(method)
    return method


def _is_current(step: Step, entity: Entity) -> bool:
    """Whether ``step.current_actions()`` would be ``step.actions(entity)`` (so a list already
    computed for ``entity`` answers it): ``entity`` is the step's open current entity."""
    cls = type(step)
    return (
        cls.blocking in _ANY_ACTION_BLOCKING
        and cls.current_actions is Step.current_actions
        and step.current_entity() is entity
        and not getattr(entity, "closed", False)
    )


E_co = TypeVar("E_co", bound=Entity, covariant=True)
"""The kind of entity a round takes turns among (players, corporations)."""

StepSpec = type[Step] | tuple[type[Step], dict[str, StepOption]]
"""A step of a round as its title lists it: the class, or the class and its options."""

S = TypeVar("S", bound=Step)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Round(Generic[E_co]):
    """A round: its entities in order, the index of the one acting, and its steps.

    Generic in the kind of its entities (``Round[Player]`` for stock rounds and auctions,
    ``Round[Corporation]`` for operating rounds; ``Round[Entity]`` where any round may come).
    """

    name: ClassVar[str] = "Round"
    kind: ClassVar[str] = "base"
    _memo: tuple[object, dict[str, tuple[Any, object]]] | None = None
    """Answers remembered for one ``game.memo_key`` (:func:`remembered`)."""

    _blocking: tuple[object, int, Sequence[Step]] = (None, -1, ())
    """``self.steps`` (the list object), its length, and its steps that may block
    (``blocks``), in order: the walks that look for the blocking step (at every action)
    ask only these.  ``blocks`` is fixed once a step is made (a class attribute or set in
    its ``__init__``), but ``self.steps`` may be replaced or appended to after the round
    is built (tests do), so each walk rebuilds this when the list is another object or
    its length changed (inline: a method call costs more than the check).  The list is
    held here, so a pickle or deepcopy of the round keeps it paired with its copied
    ``steps``."""

    def __getstate__(self) -> dict[str, object]:
        """Pickle and copy: the attributes, also those of a compiled class (``core.native``)."""
        return state_of(self)

    def __setstate__(self, state: dict[str, object]) -> None:
        set_state(self, state)

    def __init__(self, game: Game, step_classes: list[StepSpec], round_num: int = 1) -> None:
        self.game = game
        self.round_num = round_num
        self.seq: int = game.rounds_begun
        """The round's place in the game's sequence of rounds: 0 for the placeholder a game
        is built with, then 1, 2, ... for every round begun, whatever its kind, so no two
        rounds of a game share it (``round_num`` only counts the operating rounds of a set,
        and ``turn`` stays the same over stock rounds that follow each other)."""
        game.rounds_begun = self.seq + 1
        self.entity_index = 0
        self.entities: list[E_co] = self.select_entities()
        self.state = RoundState()
        self.steps: list[Step] = []
        for spec in step_classes:
            cls, opts = spec if isinstance(spec, tuple) else (spec, {})
            step = cls(game, self, **opts)
            step.setup()
            self.steps.append(step)

    def select_entities(self) -> list[E_co]:
        return []

    def setup(self) -> None:
        """Called once the round is the game's current round."""

    routed: tuple[Step, str, Entity] | None = None
    """While a step processes the action the round routed to it: the step, the action's type
    and who acts -- the step offered that type to that entity (:meth:`Step.offers_current`
    or :meth:`Step.actions`) in the state the step's handler starts from, so a handler may
    take that as answered instead of asking it again (:meth:`Step.routed_here`)."""

    routed_key: object = None
    """While a step processes the action the round routed to it: the game's ``memo_key``
    of the state the routing asked in (None if nothing was remembered then), which is the
    state the handler starts from (:meth:`Step.routed_answer`)."""

    stale_step: Step | None = None
    """A step the reference engine would still see as active from a cache taken before a
    change (see ``Game.action_processed`` of titles that close corporations mid-turn)."""

    def step_of(self, cls: type[S]) -> S | None:
        return next((s for s in self.steps if isinstance(s, cls)), None)

    def active_step(self) -> Step | None:
        if self.stale_step is not None:
            return self.stale_step
        # (``remembered`` computes it afresh while the state is changing)
        found: Step | None = remembered(self, "active_step", self._active_step)
        return found

    def _active_step(self) -> Step | None:
        steps, kept = self.steps, self._blocking
        if kept[0] is not steps or kept[1] != len(steps):
            kept = self._blocking = (steps, len(steps), [s for s in steps if s.blocks])
        for step in kept[2]:
            # a step that never blocks is not asked (``blocking`` is False for it)
            if (
                not step.passed if type(step).active is _STEP_ACTIVE else step.active()
            ) and step.blocking():
                return step
        return None

    def active_entities(self) -> Sequence[Entity]:
        if self.game.finished:
            # once the game is over only chat is possible, and the reference engine shows the
            # round's current entity as the one to act if it is a player (its message step)
            ents = self.entities
            current = ents[self.entity_index] if ents and self.entity_index < len(ents) else None
            if isinstance(current, Player):
                return [current]
        step = self.active_step()
        return step.active_entities() if step else []

    def current_entity(self) -> Entity | None:
        ents = self.active_entities()
        return ents[0] if ents else None

    def finished(self) -> bool:
        return self.active_step() is None

    def step_for_entity(self, entity: Entity) -> Step | None:
        """The step that would take an action of ``entity`` now (companies act in
        non-blocking steps)."""
        is_company = getattr(entity, "kind", "") == "company"
        for step in self.steps:
            if step.active() and (is_company or step.blocking()) and step.actions_of(entity):
                return step
        return None

    def auto_actions(self) -> list[Action]:
        """Automatic follow-up actions of the acting entity (18xx.games auto_actions)."""
        entity = self.current_entity()
        if entity is None:
            return []
        step = self.step_for_entity(entity)
        return (step.auto_actions(entity) or []) if step is not None else []

    def actions_for(self, entity: Entity) -> list[str]:
        out: list[str] = []
        for step in self.steps:
            if not step.active():
                continue
            for a in step.actions_of(entity):
                if a not in out:
                    out.append(a)
            if step.blocking():
                break
        return out

    def process_action(self, action: moves.Move, entity: Entity) -> None:
        if self.stale_step is not None:
            self.game.changing()
            self.stale_step = None
        kind = action.type
        chosen: Step | None = None
        for step in self.steps:
            if not step.blocks:
                at = (type(step), kind)
                try:  # (``_handler``, inlined where the handler was looked up before)
                    handler = _HANDLERS[at]
                except KeyError:
                    handler = _handler(*at)
                if handler is None:
                    continue  # never blocks and has no handler for this kind: cannot take it
            if step.passed if type(step).active is _STEP_ACTIVE else not step.active():
                continue  # (``active`` read from ``passed`` where a step keeps Step's)
            if _is_current(step, entity):
                # ``blocking`` is ``blocks and bool(current_actions())`` for such a step
                accepts = step.offers_current(kind)
                blocking = step.blocks and (accepts or step.blocking())
            else:
                accepts = kind in step.actions(entity)
                blocking = step.blocks and bool(step.current_actions())
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
        key = self.game.memo_key
        self.game.changing()
        self.routed = (chosen, kind, entity)
        self.routed_key = key
        try:
            chosen.process(action, entity)
        finally:
            self.routed = None
            self.routed_key = None
        self.game.changing()  # the step may have moved the round on, which settles it
        chosen.acted = True
        self.skip_steps(settled=type(self).after_process in ANNOUNCING)
        self.after_process(action, entity)

    @announces_changes
    def after_process(self, action: moves.Move, entity: Entity) -> None:
        pass

    def skip_steps(self, settled: bool = False) -> None:
        """Skip the steps before the first blocking one.  Each step is asked with the game
        settled (``Game.settle``), so its answer is remembered; with ``settled`` the game is
        left settled, and the caller asks again at no cost but must call ``game.changing()``
        before it changes anything."""
        game = self.game
        game.changing()  # whatever the caller did before, the answers are found afresh
        game.settle()
        ents = self.entities
        current = ents[self.entity_index] if ents and self.entity_index < len(ents) else None
        closed = getattr(current, "closed", False)  # nothing is skipped for a closed entity
        # until a step is skipped, this walk asks what ``_active_step`` asks, in its order:
        # its answer is remembered too (the round asks for it next)
        key, cache = game.memo_key, game.memo_cache
        before = (cache.stamp, cache.reads) if cache is not None else None
        found: Step | None = None
        skipped = closed
        steps, kept = self.steps, self._blocking
        if kept[0] is not steps or kept[1] != len(steps):
            kept = self._blocking = (steps, len(steps), [s for s in steps if s.blocks])
        for step in kept[2]:  # (a step that never blocks is never skipped)
            if closed:
                break
            if step.passed if type(step).active is _STEP_ACTIVE else not step.active():
                continue
            if step.blocking():
                found = step
                break
            skipped = True
            if game.recorded_passes is not None and type(step).skip is Step.skip:
                # a skip that is a pass: the record may have to show it (live play only)
                game.note_turn_end(step.current_entity(), step.blocking)
            game.changing()
            if current is not None:
                game.journal.append(StepSkipped(ref(current), step.description))
            step.skip()
            game.settle()
            closed = getattr(current, "closed", False)  # a skip may close it
        if not skipped and key is not None and game.memo_key == key and self.stale_step is None:
            if before is None:
                _keep(self, key, "active_step", found, None)
            elif cache is not None and cache.stamp == before[0]:
                stamp = None if cache.reads == before[1] else before[0]
                _keep(self, key, "active_step", found, stamp)
        if not settled:
            game.changing()

    def next_entity_index(self) -> None:
        self.entity_index = (self.entity_index + 1) % len(self.entities)

    def next_entity(self) -> None:
        raise NotImplementedError

    def force_next_entity(self) -> None:
        self.game.changing()
        for step in self.steps:
            step.pass_()
        self.next_entity()
        self.game.changing()  # the caller goes on changing things
        self.stale_step = None
