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

The ``events`` engineer calls :func:`start` after the Ferdinandea Secession has finished (from
the secession's last step, or directly when no secession waits for decisions).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Player, controller
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.titles.g1841 import journal, merger, transform
from stellwerk.titles.g1841.decisions import Procedure, Question, queue
from stellwerk.titles.g1841.transform import Transform

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


@dataclass
class Tuscan(Procedure):
    """The Tuscan Merge under way: ``steps`` are what is left to do (``merge:A:B:T``,
    ``transform:M:T``), ``sub`` the merger or transformation running now."""

    decider: str
    holding: str
    will_run: bool
    steps: list[str] = field(default_factory=list)
    sub: merger.Merger | Transform | None = None
    done: bool = False

    rule = RULE

    def question(self, game: ProcedureGame) -> Question | None:
        if self.sub is None:
            return None
        return self.sub.question(game)

    def answer(self, game: ProcedureGame, action: moves.Move) -> None:
        assert self.sub is not None
        self.sub.answer(game, action)
        self.advance(game)

    def advance(self, game: ProcedureGame) -> None:
        """Run the next merger or transformation until one asks, then finish."""
        while True:
            if self.sub is not None and self.sub.question(game) is not None:
                return
            if not self.steps:
                self.sub = None
                self.finish(game)
                return
            kind, *names = self.steps.pop(0).split(":")
            if kind == "transform":
                corp, target = (game.corporation(n) for n in names)
                self.sub = transform.begin(game, corp, target, tuscan=True, decider=self.decider)
            else:
                a, b, target = (game.corporation(n) for n in names)
                self.sub = merger.begin(
                    game, a, b, target, self.decider, tuscan=True, tuscan_first=bool(self.steps)
                )

    def finish(self, game: ProcedureGame) -> None:
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
        self.done = True


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
    holding = holding_corporation(game)
    up = {c.sym for c in floated}
    if up == set(TUSCAN):
        steps = [f"merge:SFLP:SFMA:{holding.sym}", f"merge:{holding.sym}:SSFL:{FORMED}"]
    elif up == {"SFMA", "SSFL"}:
        steps = [f"transform:SFMA:{holding.sym}", f"merge:{holding.sym}:SSFL:{FORMED}"]
    elif up == {"SFLP", "SSFL"}:
        steps = [f"transform:SFLP:{holding.sym}", f"merge:{holding.sym}:SSFL:{FORMED}"]
    else:
        steps = [f"merge:SFLP:SFMA:{FORMED}"]
    procedure = Tuscan(decider, holding.sym, will_run, steps)
    game.journal.append(journal.TuscanMergeStarted(tuple(sorted(up)), FORMED))
    procedure.advance(game)
    queue(game, procedure)
    return procedure
