"""Questions asked in the middle of 1841's long procedures (rules/1841.md 2.3.11-2.3.12, 2.4.1,
2.4.2, 5.6).

Mergers, transformations, the Ferdinandea secession and the Tuscan merge run mostly by
themselves but stop to ask: which new share a holder takes (``choose``), whether he buys an
offered share, which tokens leave the map (``remove_token``), how many tokens a new corporation
buys, where a new corporation's home goes (``place_token``).  Each procedure is an object of
its own module (a :class:`Procedure`) that says what it asks now (:meth:`Procedure.question`)
and takes the answer (:meth:`Procedure.answer`), running every automatic part in between.

The game keeps the procedures under way in order (``Game1841.procedures``); the
:class:`Decisions` step, placed where 18xx.games has its pending-decision steps (RemoveTokens,
ChooseOption, BuyNewTokens, HomeToken), blocks the round while the first one asks, and hands
each answer to it.  A procedure that is done leaves the queue; one may queue another (the
Tuscan merge after the secession) with :func:`queue`.

Procedures are plain data (no generators or closures), so a game with one under way can be
copied and pickled like any other state.  A procedure on the core mechanism
(:mod:`stellwerk.core.procedure`: frozen stages, a pure ``verify``, one transition) is an
:class:`OnMachine`, which gives the queue the :class:`Procedure` interface over its machine.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from stellwerk.core import moves
from stellwerk.core.asking import Answer, Asked, Facts, plain_answer
from stellwerk.core.entities import Corporation, Entity, Holder, Player
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, Step, act, remembered
from stellwerk.core.procedure import Machine, drive
from stellwerk.titles.g1841.frozen import FrozenGame
from stellwerk.titles.g1841.game_end import EndGame
from stellwerk.titles.g1841.ports import Turns
from stellwerk.titles.g1841.token_order import TokenOrderGame

if TYPE_CHECKING:
    from stellwerk.core.game import Game
    from stellwerk.titles.g1841.mapport import MapPort

ANSWER_TYPES = ("choose", "remove_token", "place_token", "pass")
"""The action types an answer may have (18xx.games' ChooseOption, RemoveTokens, HomeToken and
BuyNewTokens steps)."""


@dataclass
class Question:
    """What a procedure asks now.

    ``entity`` answers (a player or a corporation, as 18xx.games names the acting entity);
    ``kinds`` are the action types it may answer with; ``choices`` the legal ``choose`` values
    (strings or numbers, as the game file writes them); ``topic`` says what is asked
    (18xx.games' choice names: ``share_offer``, ``offer_again``, ``pick_exchange_corp``,
    ``upgrade``, ``buy_tokens``, ``remove_tokens``, ``home_token``, ``price`` ...);
    ``rule`` is cited when an answer is refused; ``cities`` lists the legal ``city`` ids for
    ``remove_token``/``place_token``, ``slots`` the slot of each (0 when not given): a
    removal names the slot of the token that goes, as 18xx.games reads it.

    What the question and its answers mean, for front ends (``stellwerk.core.asking``):
    ``facts`` what it is about (the corporation concerned, the price per token, ...);
    ``meanings`` by answer -- a ``choose`` value, a city id, or ``pass`` -- what the answer
    does (a kind, the keys of the title's sentences) and its facts."""

    entity: Holder
    kinds: tuple[str, ...]
    topic: str
    rule: str
    choices: Sequence[str | int] = field(default_factory=list)
    cities: list[str] = field(default_factory=list)
    slots: list[int] = field(default_factory=list)
    facts: Facts = ()
    meanings: Mapping[str | int, tuple[str, Facts]] = field(default_factory=dict)

    def meaning(self, listed: Action) -> Answer:
        """What the listed answer ``listed`` (an action object of the menu) does
        (:attr:`meanings`; an answer without a meaning is described by its value)."""
        kind = listed["type"]
        key = listed.get("choice") if kind == "choose" else listed.get("city", kind)
        if isinstance(key, str | int) and key in self.meanings:
            meaning, facts = self.meanings[key]
            return Answer(dict(listed), meaning, facts)
        return plain_answer(dict(listed))

    @property
    def answerer(self) -> Player | Corporation:
        """``entity``, the one who answers: a player or a corporation (a question asked of
        anyone else is an engine defect, a ``TypeError``)."""
        entity = self.entity
        if isinstance(entity, Player | Corporation):
            return entity
        raise TypeError(f"'{self.topic}' is asked of {entity.name}, who cannot answer")

    def listed(self) -> list[Action]:
        """The concrete actions the answering entity may send."""
        entity = self.answerer
        out: list[Action] = []
        for kind in self.kinds:
            if kind == "choose":
                out.extend(act(entity, "choose", choice=c) for c in self.choices)
            elif kind in ("remove_token", "place_token"):
                slots = self.slots or [0] * len(self.cities)
                out.extend(
                    act(entity, kind, city=c, slot=s)
                    for c, s in zip(self.cities, slots, strict=True)
                )
            else:
                out.append(act(entity, kind))
        return out


def city_meaning(game: ProcedureGame, kind: str, sym: str, city: str) -> tuple[str, Facts]:
    """An answer naming the city ``city`` of ``sym``'s station: ``kind`` with its hex, or on
    a hex of several cities ``<kind>_city`` with the hex and the city's number (from 1)."""
    board = game.map.board
    hex_id, index = board.resolve_city(city)
    facts: Facts = (("corporation", sym), ("hex", hex_id))
    if len(board.hexes[hex_id].cities) > 1:
        return f"{kind}_city", (*facts, ("city", index + 1))
    return kind, facts


@dataclass(frozen=True, eq=False)
class CityMeanings(Mapping[str | int, tuple[str, Facts]]):
    """The meanings of answers naming the cities ``cities`` of ``sym``'s station, each
    :func:`city_meaning` with ``kind``, and of the answers ``others`` (key, meaning): what
    a front end reads of a question, found only when read (the routing and a replay never
    read it; the question is read in the state it was asked in).  Plain data, so a game
    with a question remembered copies and pickles as before."""

    game: ProcedureGame
    kind: str
    sym: str
    cities: tuple[str, ...]
    others: tuple[tuple[str | int, tuple[str, Facts]], ...] = ()

    def __getitem__(self, key: str | int) -> tuple[str, Facts]:
        if key in self.cities:
            return city_meaning(self.game, self.kind, self.sym, str(key))
        for other, meaning in self.others:
            if other == key:
                return meaning
        raise KeyError(key)

    def __iter__(self) -> Iterator[str | int]:
        yield from self.cities
        for other, _ in self.others:
            if other not in self.cities:
                yield other

    def __len__(self) -> int:
        return sum(1 for _ in self)


def share_offer_facts(corp: Corporation) -> Facts:
    """What an offer of one of ``corp``'s treasury shares at its market price is about: the
    corporation, the share's percent and its price (rules/1841.md 2.3.12, 2.4.1)."""
    shares = corp.treasury_shares()
    percent = shares[0].percent if shares else 10
    price = corp.share_price.price if corp.share_price is not None else 0
    return (("corporation", corp.sym), ("share", percent), ("price", price))


class ProcedureGame(FrozenGame, TokenOrderGame, EndGame, Turns, Protocol):
    """What the long procedures use of the game: share holdings, the frozen states, the
    board and its token order, the end of the game, the round under way -- and the
    procedures under way (:attr:`procedures`), with the token emergency money one left due
    (:attr:`token_emr_due`, rules/1841.md 2.3.12)."""

    procedures: list[Procedure]
    token_emr_due: tuple[str, int] | None


class Procedure:
    """A long procedure under way.  Every one is an :class:`OnMachine` (a frozen stage, a
    pure verify, one transition on the core mechanism); this is the interface the queue
    and the :class:`Decisions` step use."""

    rule = "rules/1841.md"

    def question(self, game: ProcedureGame) -> Question | None:
        """What must be decided now; ``None`` when the procedure is done."""
        raise NotImplementedError

    def asks(self, game: ProcedureGame) -> bool:
        """Whether :meth:`question` asks something now (the queue keeps only procedures
        that do); a procedure may know it without building the question."""
        return self.question(game) is not None

    def answer(self, game: ProcedureGame, action: moves.Move) -> None:
        """Apply the answer to :meth:`question` and run on to the next question (or the end).
        Checks first: an illegal answer raises ``IllegalAction`` and changes nothing."""
        raise NotImplementedError

    def allows(self, game: ProcedureGame, action: moves.Move) -> bool:
        """Whether a listed answer is allowed by its consequences (the listing leaves out
        those :meth:`answer` would refuse); every listed answer unless a procedure says."""
        return True

    def disallowed(self, game: ProcedureGame, action: moves.Move) -> IllegalAction:
        """The refusal of a listed answer :meth:`allows` rejects, naming the rule that
        forbids its consequences (the procedure's rule unless it names a closer one)."""
        return IllegalAction(f"this answer is not allowed by {self.rule}", self.rule)


StageT = TypeVar("StageT")


class OnMachine(Procedure, Generic[StageT]):
    """A procedure on the core mechanism (:class:`~stellwerk.core.procedure.Machine`):
    ``machine`` its rules (frozen: who takes part), ``stage`` where it stands (a frozen
    stage; ``None`` once done).  The only change of the procedure object is the new stage
    the machine's transition returns."""

    machine: Machine[ProcedureGame, StageT, moves.Move, Question]
    stage: StageT | None

    def question(self, game: ProcedureGame) -> Question | None:
        if self.stage is None:
            return None
        return self.machine.question(game, self.stage)

    def asks(self, game: ProcedureGame) -> bool:
        """The machine's :meth:`~stellwerk.core.procedure.Machine.is_asking` of the stage."""
        return self.stage is not None and self.machine.is_asking(game, self.stage)

    def answer(self, game: ProcedureGame, action: moves.Move) -> None:
        """The machine verifies the answer (a refusal changes nothing) and moves on to the
        next stage (:func:`~stellwerk.core.procedure.drive`)."""
        if self.stage is None:
            raise IllegalAction("the procedure asks nothing now", self.rule)
        self.stage = drive(self.machine, game, self.stage, action)

    def verify(self, game: ProcedureGame, action: moves.Move) -> IllegalAction | None:
        """Why the answer would be refused now (changes nothing), or ``None``."""
        if self.stage is None:
            return IllegalAction("the procedure asks nothing now", self.rule)
        return self.machine.verify(game, self.stage, action)

    def allows(self, game: ProcedureGame, action: moves.Move) -> bool:
        """Whether the machine takes the listed answer (:meth:`verify`, which changes
        nothing): an answer it would refuse is not offered."""
        return self.verify(game, action) is None

    def disallowed(self, game: ProcedureGame, action: moves.Move) -> IllegalAction:
        """The machine's refusal of the listed answer (:meth:`verify`)."""
        return self.verify(game, action) or super().disallowed(game, action)

    def done(self) -> bool:
        """Whether the procedure is over."""
        return self.machine.done(self.stage)


def queue(game: ProcedureGame, procedure: Procedure) -> None:
    """Put a procedure under way after those already waiting (one that asks nothing is done
    at once and does not stay)."""
    game.procedures.append(procedure)
    prune(game)


def prune(game: ProcedureGame) -> None:
    """Procedures that ask nothing more are done and leave the queue."""
    game.procedures[:] = [p for p in game.procedures if p.asks(game)]


def current(game: ProcedureGame) -> tuple[Procedure, Question] | None:
    """The first procedure that asks something, and its question (changes nothing)."""
    for procedure in game.procedures:
        asked = procedure.question(game)
        if asked is not None:
            return procedure, asked
    return None


def check_answer(asked: Question, action: moves.Move) -> None:
    """Refuse an answer that is not among the listed ones (type, choice or city)."""
    kind = action.type
    if kind not in asked.kinds:
        raise IllegalAction(f"{kind} does not answer '{asked.topic}'", asked.rule)
    if isinstance(action, moves.Choose) and action.choice not in asked.choices:
        raise IllegalAction(
            f"{action.choice!r} is not a choice of '{asked.topic}' (choices: {asked.choices})",
            asked.rule,
        )
    city = moves.city_of(action)
    if kind in ("remove_token", "place_token") and city not in asked.cities:
        raise IllegalAction(f"{city} is not offered for '{asked.topic}'", asked.rule)


if TYPE_CHECKING:

    class DecidingGame(Game, ProcedureGame):
        """A game with the parts the procedures use, as the steps of this title see it: the
        core gives a step a :class:`~stellwerk.core.game.Game`, and 1841's rounds run only
        in 1841's game, which has them all (its module has the type checker check that).
        Only a name for type checking: no game is an instance of it."""

        map: MapPort


class Decisions(Step):
    """Blocks the round while a procedure asks, and hands the answer to it."""

    description = "Decisions"
    game: DecidingGame

    def current(self) -> tuple[Procedure, Question] | None:
        """:func:`current`, remembered for the state (``remembered``: the round asks whether
        this step is active at every turn of the routing; do not change the answer).  With
        no procedure under way, as mostly, it is None without asking."""
        if not self.game.procedures:
            return None
        found: tuple[Procedure, Question] | None = remembered(
            self, "current", lambda: current(self.game)
        )
        key = self.game.memo_key
        if key is not None:
            self._seen = (key, found)
        return found

    _seen: tuple[object, tuple[Procedure, Question] | None] | None = None
    """The last answer of :meth:`current` found while answers were remembered, with the
    game's ``memo_key`` then: the answer handler takes it when the round routed the answer
    in that state (:meth:`~stellwerk.core.flow.base.Step.routed_state`)."""

    def asked(self) -> Question | None:
        found = self.current()
        return found[1] if found is not None else None

    def active(self) -> bool:
        if not self.game.procedures:  # (as mostly: every routing and skip asks this)
            return False
        return self.asked() is not None

    def skip(self) -> None:
        """Never passed: it is active exactly while a procedure is under way."""

    def active_entities(self) -> Sequence[Entity]:
        asked = self.asked()
        return [asked.answerer] if asked is not None else []

    def actions(self, entity: Entity) -> list[str]:
        asked = self.asked()
        if asked is None or entity is not asked.entity:
            return []
        return list(asked.kinds)

    def choices(self, entity: Entity) -> list[Action]:
        found = self.current()
        if found is None or entity is not found[1].entity:
            return []
        procedure, asked = found
        allowed: list[Action] = remembered(
            self,
            "answers",
            lambda: [a for a in asked.listed() if procedure.allows(self.game, moves.parse(a))],
        )
        return allowed

    def question(self, entity: Entity) -> Asked | None:
        """The procedure's question with the meaning of each allowed answer."""
        asked = self.asked()
        if asked is None or entity is not asked.entity:
            return None
        answers = tuple(asked.meaning(a) for a in self.choices(entity))
        return Asked(asked.answerer, asked.topic, answers, asked.facts)

    def why_refused(self, entity: Entity, action: moves.Move) -> IllegalAction | None:
        """An answer refused names the question's rule (the procedure's: a merger's
        2.3.11, a transformation's 2.3.12, ...), or, for a listed answer whose consequences
        are not allowed, the rule that forbids them (:meth:`Procedure.disallowed`)."""
        found = self.current()
        if found is None or entity is not found[1].entity:
            return None
        procedure, asked = found
        if action.type not in asked.kinds:
            return None  # no answer to this question: the turn order says why
        try:
            check_answer(asked, action)
        except IllegalAction as refused:
            return refused
        if not procedure.allows(self.game, action):
            return procedure.disallowed(self.game, action)
        return None

    def _answer(self, action: moves.Move, entity: Entity) -> None:
        """The first procedure that asks takes the answer (the question the routing found,
        :meth:`~stellwerk.core.flow.base.Step.routed_answer`, else found afresh)."""
        seen = self._seen
        if seen is not None and seen[0] == self.routed_state(action.type, entity):
            found = seen[1]  # (seen's key is never None)
        else:
            found = current(self.game)
        if found is None or entity is not found[1].entity:
            raise IllegalAction("nothing is asked of this entity now", "rules/1841.md 5.6")
        procedure, asked = found
        check_answer(asked, action)
        procedure.answer(self.game, action)
        prune(self.game)

    process_choose = _answer
    process_remove_token = _answer
    process_place_token = _answer
    process_pass = _answer
