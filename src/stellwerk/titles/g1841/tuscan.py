"""The Tuscan Merge at the first 4-train (rules/1841.md 2.4.2; seed 000 items 1.17, 3.4, 4.2;
seed 003 H3).

With at least two of SFLP, SFMA and SSFL floated, they form SFLi:

* all three: SFLP and SFMA merge into a *holding* major (the first non-historical major neither
  started nor closed, else the internal "Holding"), which then merges with SSFL into SFLi;
* SFMA and SSFL: SFMA transforms into the holding, which merges with SSFL;
* SFLP and SSFL: SFLP transforms into the holding, which merges with SSFL;
* SFLP and SFMA: they merge directly into SFLi.

The procedures are the merger's and the transformation's (:mod:`.merger`, :mod:`.transform`)
with the Tuscan differences: the *decider* (the president of the best-priced of the three, else
the controller of the operating corporation) chooses a price and removes tokens where nobody
else can; the holding merger only swaps tokens (four); the transformation gets a free second
token; SFLi gets five tokens, keeps Pisa and Firenze, and if nobody takes its presidency its
president's certificate goes to the pool (SFLi frozen, its other tokens removed by rule);
circular control may arise.  Fewer than two floated: SFLi closes.

SFLi operates in this round when the settings say so (``sfli_runs_when_formed``: second
edition or the SFLi run variant) and none of the three is at or before the current position
in the operating order; it is then sorted in among those still to operate.

The merge runs on the core mechanism (:mod:`stellwerk.core.procedure`): its rules are a
:class:`TuscanMerging` machine, where it stands a frozen stage -- the merger or transformation
running now with its own machine and stage (:class:`InMerger`, :class:`InTransformation`),
and the parts still to begin; ``None`` once done -- and :class:`Tuscan` is the procedure the
decisions queue runs (:class:`~.decisions.OnMachine`).

The ``events`` engineer calls :func:`start` after the Ferdinandea Secession has finished (from
the secession's last step, or directly when no secession waits for decisions).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Player, controller
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.core.procedure import Machine
from stellwerk.titles.g1841 import journal, merger, transform
from stellwerk.titles.g1841.decisions import OnMachine, Question, queue

if TYPE_CHECKING:
    from stellwerk.titles.g1841.decisions import ProcedureGame

RULE = "rules/1841.md 2.4.2"
TUSCAN = ("SFLP", "SFMA", "SSFL")
FORMED = "SFLi"
HOLDING = "Holding"


def corporation_or_none(game: ProcedureGame, sym: str) -> Corporation | None:
    return next((c for c in game.corporations if c.sym == sym), None)


def holding_corporation(game: ProcedureGame) -> Corporation:
    """The first non-historical major neither started nor closed, else "Holding"
    (rules/1841.md 2.4.2)."""
    for corp in game.corporations:
        if (
            merger.is_major(game, corp)
            and not merger.is_historical(game, corp)
            and not corp.closed
            and not corp.floated
            and corp.sym != HOLDING
        ):
            return corp
    return game.corporation(HOLDING)


def operator(game: ProcedureGame) -> Corporation | None:
    rnd = game.round
    if isinstance(rnd, OperatingRound) and rnd.entities:
        found = rnd.entities[rnd.entity_index]
        return found if isinstance(found, Corporation) else None
    return None


def decider_of(game: ProcedureGame, floated: list[Corporation]) -> Player:
    """The president of the best-priced floated Tuscan corporation, or -- if it is frozen --
    the controller of the corporation operating now (rules/1841.md 2.4.2)."""
    best = min(floated, key=lambda c: c.sort_key())
    found = controller(best)
    if found is None:
        found = controller(operator(game))
    if found is None:
        found = game.players[0]
    return found


def runs_this_round(game: ProcedureGame, olds: list[Corporation | None]) -> bool:
    """SFLi operates in its formation round if the settings allow it and none of the three is
    at or before the current position in the operating order (rules/1841.md 2.4.2, 4.4;
    seed 000 items 1.17, 4.2; seed 003 H3)."""
    if not game.settings.sfli_runs_when_formed:
        return False
    rnd = game.round
    if not isinstance(rnd, OperatingRound):
        return True
    for corp in olds:
        if (
            corp is not None
            and corp in rnd.entities
            and rnd.entities.index(corp) <= rnd.entity_index
        ):
            return False
    return True


@dataclass(frozen=True)
class MergeInto:
    """A merger of the Tuscan merge: ``a`` and ``b`` into ``target`` (rules/1841.md 2.4.2)."""

    a: str
    b: str
    target: str


@dataclass(frozen=True)
class TransformInto:
    """A transformation of the Tuscan merge: ``corp`` into ``target`` (rules/1841.md 2.4.2)."""

    corp: str
    target: str


Part = MergeInto | TransformInto
"""One merger or transformation of the Tuscan merge."""


@dataclass(frozen=True)
class InMerger:
    """A merger of the Tuscan merge asks (rules/1841.md 2.3.11, 2.4.2): ``sub`` its rules,
    ``at`` its stage, ``left`` the parts still to begin after it."""

    sub: merger.Merging
    at: merger.MergerStage
    left: tuple[Part, ...]


@dataclass(frozen=True)
class InTransformation:
    """A transformation of the Tuscan merge asks (rules/1841.md 2.3.12, 2.4.2): ``sub`` its
    rules, ``at`` its stage, ``left`` the parts still to begin after it."""

    sub: transform.Transformation
    at: transform.TransformStage
    left: tuple[Part, ...]


TuscanStage = InMerger | InTransformation
"""Where a Tuscan merge stands; ``None`` once it is done."""


@dataclass(frozen=True)
class TuscanMerging(Machine["ProcedureGame", TuscanStage, moves.Move, Question]):
    """The rules of the Tuscan merge (rules/1841.md 2.4.2): ``decider`` (a reference) decides
    where nobody else can; ``will_run``: SFLi operates in this round.  A stage is the merger
    or transformation running now: its question and its verdict are the merge's; the
    transition takes the answer there, begins the next part once that one asks nothing more
    (:meth:`run_on`), and after the last one finishes the merge (:meth:`finish`)."""

    decider: str
    will_run: bool

    rule = RULE
    stages = (InMerger, InTransformation)

    def question(self, game: ProcedureGame, stage: TuscanStage) -> Question | None:
        if isinstance(stage, InMerger):
            return stage.sub.question(game, stage.at)
        return stage.sub.question(game, stage.at)

    def verify(
        self, game: ProcedureGame, stage: TuscanStage, answer: moves.Move
    ) -> IllegalAction | None:
        """The running merger's or transformation's verdict (rules/1841.md 2.3.11, 2.3.12;
        in the Tuscan merge neither tries an answer on a copy).  Changes nothing."""
        if isinstance(stage, InMerger):
            return stage.sub.verify(game, stage.at, answer)
        return stage.sub.verify(game, stage.at, answer)

    def advance(
        self, game: ProcedureGame, stage: TuscanStage, answer: moves.Move
    ) -> TuscanStage | None:
        """The running part takes the answer; then the merge runs on (:meth:`run_on`)."""
        following: TuscanStage | None
        if isinstance(stage, InMerger):
            at = stage.sub.advance(game, stage.at, answer)
            following = None if at is None else InMerger(stage.sub, at, stage.left)
        else:
            found = stage.sub.advance(game, stage.at, answer)
            following = None if found is None else InTransformation(stage.sub, found, stage.left)
        return self.run_on(game, following, stage.left)

    def run_on(
        self, game: ProcedureGame, running: TuscanStage | None, left: tuple[Part, ...]
    ) -> TuscanStage | None:
        """While the running part (``running``; ``None`` when it is over) asks nothing, the
        next of ``left`` begins (:func:`.merger.begin`, :func:`.transform.begin`, with the
        Tuscan differences); when none is left the merge finishes (``None``)."""
        while running is None or not self.is_asking(game, running):
            if not left:
                self.finish(game)
                return None
            part, left = left[0], left[1:]
            if isinstance(part, TransformInto):
                corp, target = game.corporation(part.corp), game.corporation(part.target)
                changing = transform.begin(game, corp, target, tuscan=True, decider=self.decider)
                at = changing.stage
                running = None if at is None else InTransformation(changing.machine, at, left)
            else:
                a, b = game.corporation(part.a), game.corporation(part.b)
                target = game.corporation(part.target)
                merging = merger.begin(
                    game, a, b, target, self.decider, tuscan=True, tuscan_first=bool(left)
                )
                stage = merging.stage
                running = None if stage is None else InMerger(merging.machine, stage, left)
        return running

    def finish(self, game: ProcedureGame) -> None:
        """SFLi operates in this round, sorted in among those still to operate, or is done
        for it (rules/1841.md 2.4.2, 4.4)."""
        sfli = game.corporation(FORMED)
        if self.will_run:
            game.done_this_round.discard(sfli.sym)
            rnd = game.round
            if isinstance(rnd, OperatingRound) and sfli not in rnd.entities:
                rnd.entities.append(sfli)
                rnd.recalculate_order()
        else:
            merger.mark_done(game, sfli)
        game.journal.append(journal.TuscanMerged(sfli.sym))


@dataclass
class Tuscan(OnMachine[TuscanStage]):
    """The Tuscan Merge under way (rules/1841.md 2.4.2): its rules (:class:`TuscanMerging`)
    and where it stands (:data:`TuscanStage`: the merger or transformation running now,
    ``None`` once done)."""

    machine: TuscanMerging
    stage: TuscanStage | None

    rule = RULE

    def merging(self) -> merger.Merging | None:
        """The rules of the merger running now (``None`` when none runs)."""
        return self.stage.sub if isinstance(self.stage, InMerger) else None


def start(game: ProcedureGame) -> Tuscan | None:
    """The Tuscan Merge event (rules/1841.md 2.4.2): SFLi closes if fewer than two Tuscan
    corporations have floated; otherwise the merge starts and is queued (it runs on by
    itself as far as it can).  Returns the procedure, None when SFLi closed."""
    olds = [corporation_or_none(game, s) for s in TUSCAN]
    floated = [c for c in olds if c is not None and c.floated]
    sfli = corporation_or_none(game, FORMED)
    if sfli is None:
        return None
    if len(floated) < 2:
        sfli.closed = True
        return None
    will_run = runs_this_round(game, olds)
    decider = merger.ref(decider_of(game, floated))
    holding = holding_corporation(game).sym
    up = {c.sym for c in floated}
    parts: tuple[Part, ...]
    if up == set(TUSCAN):
        parts = (MergeInto("SFLP", "SFMA", holding), MergeInto(holding, "SSFL", FORMED))
    elif up == {"SFMA", "SSFL"}:
        parts = (TransformInto("SFMA", holding), MergeInto(holding, "SSFL", FORMED))
    elif up == {"SFLP", "SSFL"}:
        parts = (TransformInto("SFLP", holding), MergeInto(holding, "SSFL", FORMED))
    else:
        parts = (MergeInto("SFLP", "SFMA", FORMED),)
    machine = TuscanMerging(decider, will_run)
    game.journal.append(journal.TuscanMergeStarted(tuple(sorted(up)), FORMED))
    procedure = Tuscan(machine, machine.run_on(game, None, parts))
    queue(game, procedure)
    return procedure
