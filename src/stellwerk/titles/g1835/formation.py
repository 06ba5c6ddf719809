"""The Prussian formation (rules/1835.md 10; Rails PrussianFormationRound).

A formation round interrupts an OR after the train purchases that trigger it, and is held
between any two rounds while phases 4-5 last and PR is incomplete.  In phase 4 the owner of the
minor that becomes PR's director's share decides whether PR starts; from phase 4+4 it starts by
itself.  Once PR exists, players in turn from the starting player may fold their minors and
exchangeable privates into PR; in phase 5 everything left is exchanged automatically.

Actions are 18xx.games ``choose`` actions of the paper concerned (as in 18xx.games' 1835
MinorExchange): ``form`` / ``decline`` for the starting minor, ``fold_in`` / ``decline`` for the
others.

A formation round runs on the core mechanism (:mod:`stellwerk.core.procedure`): the machine
:class:`Forming`, the frozen stages :class:`AskingForm` and :class:`OfferingFold` (``None``
once over), kept with the machine in ``game.formation`` (:class:`Formation`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.asking import Answer, Asked, Facts
from stellwerk.core.entities import (
    Company,
    Corporation,
    Entity,
    Player,
    retire_certificates,
    transfer,
)
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, Round, Step, act
from stellwerk.core.flow.operating import DiscardTrain
from stellwerk.core.procedure import Machine, drive
from stellwerk.core.shares import Bundle, move_share
from stellwerk.titles.g1835.entities import Minor, Paper, c35

if TYPE_CHECKING:
    from stellwerk.titles.g1835.game import Game1835

RULE = "1835 rules §10"
FORM, FOLD, DECLINE = "form", "fold_in", "decline"


@dataclass(frozen=True)
class AskingForm:
    """The owner of ``minor``, the minor exchanged for PR's director's certificate, decides
    whether PR forms (``form`` / ``decline``; rules/1835.md 10.2)."""

    minor: Minor

    def paper(self) -> Paper:
        """The paper asked now."""
        return self.minor


@dataclass(frozen=True)
class OfferingFold:
    """The papers still to decide whether to fold into PR (``fold_in`` / ``decline``), in
    asking order, the first asked now; ``formed_now`` whether PR formed in this round
    (rules/1835.md 10.3, 10.4)."""

    todo: tuple[Paper, ...]
    formed_now: bool

    def paper(self) -> Paper:
        """The paper asked now."""
        return self.todo[0]


FormationStage = AskingForm | OfferingFold
"""Where a formation round stands; ``None`` once it is over."""


@dataclass(frozen=True)
class Forming(Machine["Game1835", FormationStage, moves.Move, Paper]):
    """The rules of a formation round (rules/1835.md 10): ``interrupting`` whether it
    interrupts an operating round.  Its question is the paper asked."""

    interrupting: bool

    rule = RULE
    stages = (AskingForm, OfferingFold)

    def question(self, game: Game1835, stage: FormationStage) -> Paper | None:
        return stage.paper()

    def verify(
        self, game: Game1835, stage: FormationStage, answer: moves.Move
    ) -> IllegalAction | None:
        """Refuse a choice that does not answer the question, or a fold of a paper without
        an owner; changes nothing."""
        choice = moves.choice_of(answer)
        if isinstance(stage, AskingForm):
            if choice not in (FORM, DECLINE):
                return IllegalAction(f"choose {FORM} or {DECLINE}", RULE)
            return None
        if choice not in (FOLD, DECLINE):
            return IllegalAction(f"choose {FOLD} or {DECLINE}", RULE)
        if choice == FOLD and paper_owner(stage.todo[0]) is None:
            return IllegalAction(f"{stage.todo[0].sym} has no owner", RULE)
        return None

    def advance(
        self, game: Game1835, stage: FormationStage, answer: moves.Move
    ) -> FormationStage | None:
        """PR formed (its exchanges offered next) or declined; a paper folded in or kept,
        the next asked; the round finished when no paper is left."""
        choice = moves.choice_of(answer)
        todo: list[Paper]
        if isinstance(stage, AskingForm):
            formed_now = choice == FORM
            todo = []
            if formed_now:
                form_prussia(game)
                todo = offer_exchanges(game)
        else:
            formed_now = stage.formed_now
            if choice == FOLD:
                exchange(game, stage.todo[0])
            todo = list(stage.todo[1:])
        todo = [p for p in todo if not p.closed]
        if todo:
            return OfferingFold(tuple(todo), formed_now)
        finish_formation(game, formed_now)
        return None


@dataclass
class Formation:
    """A formation round in progress (``game.formation``): its rules and where it stands."""

    machine: Forming
    stage: FormationStage | None = None

    def current(self) -> Paper | None:
        """The paper asked now (None when nothing is asked)."""
        return None if self.stage is None else self.stage.paper()

    def asking_form(self) -> Minor | None:
        """The minor whose owner is asked whether PR forms, if that is asked now."""
        return self.stage.minor if isinstance(self.stage, AskingForm) else None

    def offers(self, paper: object) -> bool:
        """Whether ``paper`` is still to be asked whether to fold in."""
        return isinstance(self.stage, OfferingFold) and paper in self.stage.todo

    def answer(self, game: Game1835, action: moves.Move) -> None:
        """Verify the answer (a refusal changes nothing), then move on."""
        if self.stage is None:
            raise IllegalAction("nothing is asked in the formation now", RULE)
        self.stage = drive(self.machine, game, self.stage, action)


def director_minor(game: Game1835) -> Minor:
    """The minor exchanged for PR's director's certificate (data: president exchange)."""
    sym = next(m.sym for m in game.data.minors if m.exchange_president)
    minor = game.corporation(sym)
    assert isinstance(minor, Minor)
    return minor


def paper_owner(paper: Paper) -> Player | None:
    owner = paper.owner
    return owner if isinstance(owner, Player) else None


def asking_order(game: Game1835) -> list[Paper]:
    """Papers in the order players are asked: clockwise from the starting player; each player's
    privates first, then his minors (rules/1835.md 10.3; Rails' order in the reports)."""
    players = game.players
    start = game.pr_starting_player or players[0]
    i0 = players.index(start) if start in players else 0
    order = [players[(i0 + k) % len(players)] for k in range(len(players))]
    papers = game.prussian_papers()
    out: list[Paper] = []
    for player in order:
        mine = [p for p in papers if paper_owner(p) is player]
        out += [p for p in mine if isinstance(p, Company)]
        out += [p for p in mine if isinstance(p, Minor)]
    return out


def start_formation(game: Game1835, interrupting: bool) -> None:
    """Begin a formation round (rules/1835.md 10.1-10.3): it runs to its first question, or
    to its end."""
    game.note("pfr_start")
    formation = Formation(Forming(interrupting))
    game.formation = formation
    status = game.phases.current.status
    formed_now = False
    if not game.pr_formed:
        m2 = director_minor(game)
        if "prussia_must_form" in status:
            form_prussia(game)
            formed_now = True
        elif m2.floated and not m2.closed:
            formation.stage = AskingForm(m2)
    if game.pr_formed and formation.stage is None:
        todo = offer_exchanges(game)
        if todo:
            formation.stage = OfferingFold(tuple(todo), formed_now)
    if formation.stage is None:
        finish_formation(game, formed_now)


def offer_exchanges(game: Game1835) -> list[Paper]:
    """The papers to be asked whether to fold in, in asking order; in phase 5 none: all are
    exchanged at once (rules/1835.md 10.3)."""
    if "prussian_exchange_forced" in game.phases.current.status:
        for paper in asking_order(game):
            exchange(game, paper)
        return []
    return asking_order(game)


def form_prussia(game: Game1835) -> None:
    """PR starts at its start price; it receives the price for every 10 % sold before; the
    director minor is exchanged for the director's certificate; its owner is the starting
    player of all later formation rounds (rules/1835.md 10.2)."""
    pr = game.prussia()
    cell = pr.par_price
    assert cell is not None
    game.pr_formed = True
    pr.ipoed = True
    pr.floated = True
    pr.share_price = cell
    cell.corporations.append(pr.sym)
    sold = 100 - pr.percent_of(pr.sym)
    amount = cell.price * sold // 10
    game.note("pr_started")
    if amount:
        transfer(game.bank, pr, amount, RULE)
        game.note("float", corp=pr.sym, amount=amount)
    m2 = director_minor(game)
    owner = paper_owner(m2)
    game.pr_starting_player = owner
    game.set_president(pr, owner)
    exchange(game, m2)


def exchange(game: Game1835, paper: Paper) -> None:
    """Fold a minor or private into PR: its owner gets the reserved certificate; a minor's
    cash and trains go to PR and its token becomes PR's (removed if PR is already in that
    hex); the paper closes (rules/1835.md 10.3)."""
    pr = game.prussia()
    owner = paper_owner(paper)
    if owner is None:
        raise IllegalAction(f"{paper.sym} has no owner", RULE)
    reserved = c35(pr).reserved
    share = next(s for s in pr.shares_of(pr.sym) if reserved[s.index] == paper.sym)
    game.transfer_certificates(Bundle.of([share], pr), owner, False)
    game.note("merged", paper=paper.sym, player=owner.name)
    if isinstance(paper, Minor):
        transfer(paper, pr, paper.cash, RULE)
        for train in list(paper.trains):
            paper.trains.remove(train)
            train.owner = pr
            pr.trains.append(train)
        game.map.replace_token(paper.sym, pr.sym)
        close_minor(game, paper)
    else:
        game.close_company(paper)


def close_minor(game: Game1835, minor: Minor) -> None:
    """The folded-in minor closes: its certificate is void (rules/1835.md 10.3)."""
    retire_certificates(minor)
    minor.closed = True
    minor.floated = False


def finish_formation(game: Game1835, formed_now: bool) -> None:
    """After the round: PR's directorship goes to the player holding most, if more than the
    director (rules/1835.md 10.3); PR's shares may be sold from now on; PR formed in a round
    that interrupts an operating round may run in it (``formed_now``, :func:`insert_prussia`)."""
    formation = game.formation
    game.formation = None
    pr = game.prussia()
    if game.pr_formed:
        c35(pr).may_sell = True
        check_pr_director(game)
    game.note("pfr_end")
    if formation is not None and formation.machine.interrupting and formed_now:
        insert_prussia(game)


def check_pr_director(game: Game1835) -> None:
    pr = game.prussia()
    director = pr.owner
    if not isinstance(director, Player):
        return
    best = director.percent_of(pr.sym)
    players = game.players
    i0 = players.index(director)
    challenger = None
    for k in range(1, len(players)):
        p = players[(i0 + k) % len(players)]
        if p.percent_of(pr.sym) > best:
            best = p.percent_of(pr.sym)
            challenger = p
    if challenger is None:
        return
    pres = next(s for s in director.shares_of(pr.sym) if s.president)
    for share in game.fewest_certificates(challenger, pr, pres.percent):
        move_share(share, director)
    move_share(pres, challenger)
    game.set_president(pr, challenger)
    game.note("president", corp=pr.sym, player=challenger.name)


def insert_prussia(game: Game1835) -> None:
    """PR runs in the OR of its formation only if the first minor's purchase triggered it; it
    goes before the first waiting major with a lower price (Rails OperatingRound_1835.resume;
    x18 differs, rules/1835.md 10.4)."""
    rnd = game.round
    trigger = getattr(rnd, "trigger", None)
    if trigger is None or trigger is not game.minors()[0]:
        return
    pr = game.prussia()
    entities = rnd.entities
    if pr in entities:
        return
    pos = len(entities)
    price = pr.share_price.price if pr.share_price else 0
    for i in range(rnd.entity_index + 1, len(entities)):
        other = entities[i]
        if (
            isinstance(other, Corporation)
            and not isinstance(other, Minor)
            and other.share_price
            and other.share_price.price < price
        ):
            pos = i
            break
    entities.insert(pos, pr)


class FormationStep(Step):
    """The decisions of a formation round: the starting minor forms PR or declines; then each
    exchangeable paper folds in or declines (rules/1835.md 10)."""

    game: Game1835
    description = "Prussian Formation"

    def active(self) -> bool:
        formation = self.game.formation
        return formation is not None and formation.current() is not None

    def active_entities(self) -> Sequence[Entity]:
        formation = self.game.formation
        current = formation.current() if formation is not None else None
        return [current] if current is not None else []

    def actions(self, entity: Entity) -> list[str]:
        return ["choose"] if self.active() and entity is self.current_entity() else []

    def choices(self, entity: Entity) -> list[Action]:
        if not self.actions(entity):
            return []
        formation = self.game.formation
        first = FORM if formation is not None and formation.asking_form() is entity else FOLD
        return [act(entity, "choose", choice=c) for c in (first, DECLINE)]

    def question(self, entity: Entity) -> Asked | None:
        """Whether the Prussian formation starts (asked of the minor whose certificate
        becomes PR's director's share: ``form``/``decline``), or whether a minor or private
        is folded into PR for its reserved certificate (``fold_in``/``decline``;
        rules/1835.md 10.2, 10.3)."""
        listed = self.choices(entity)
        formation = self.game.formation
        if not listed or formation is None or not isinstance(entity, Corporation | Company):
            return None
        pr = self.game.prussia()
        reserved = c35(pr).reserved
        share = next(
            (s.percent for s in pr.shares_of(pr.sym) if reserved[s.index] == entity.sym), None
        )
        about: Facts = (("corporation", pr.sym), ("paper", entity.sym))
        if share is not None:
            about = (*about, ("share", share))
        forming = formation.asking_form() is entity
        kinds = {FORM: "form", FOLD: "fold_in", DECLINE: "decline_formation" if forming
                 else "keep_paper"}  # fmt: skip
        answers = tuple(Answer(a, kinds[str(a["choice"])], about) for a in listed)
        return Asked(entity, "formation" if forming else "fold_in", answers, about)

    def process_choose(self, action: moves.Choose, entity: Paper) -> None:
        formation = self.game.formation
        assert formation is not None
        formation.answer(self.game, action)


class FormationRound(Round[Player]):
    """A formation round between two rounds (Rails EndOfFormationRoundNoInterrupt)."""

    name = "Round::Formation"
    kind = "formation"

    def __init__(self, game: Game1835, after: Callable[[], Round[Entity]]) -> None:
        self.after = after
        self.game1835 = game
        super().__init__(game, [DiscardTrain, FormationStep])
        self.label = "PFR"

    def select_entities(self) -> list[Player]:
        return list(self.game.players)

    def setup(self) -> None:
        start_formation(self.game1835, interrupting=False)

    def finished(self) -> bool:
        return self.game1835.formation is None and not self.game1835.crowded_corps()


__all__ = ["Corporation", "FormationRound", "FormationStep", "start_formation"]
