"""1841's transformation of a minor into a major (rules/1841.md 2.3.12; seed 000 item 2.5;
seed 003 H12, H15).

A minor (non-historical at any time, historical from phase 4) becomes an available
non-historical major (the *target*): assets and tokens move, the target takes the minor's
market cell at the end of its stack and its place in the operating order, the president's 40 %
becomes the target's president's certificate and every 20 % share one 10 % share.  Then two
offer rounds (``choose`` yes/no): the holders (players from the president, each followed by the
corporations he controls), then every player.  Then tokens: with one token the target must buy
a second for L.50 and may buy more for L.100 each (``choose`` N), up to five; a target that
cannot pay the L.50 raises it by token emergency money (:mod:`.token_emr`: sales at half
price; :func:`token_money`: the sweep of the purchase).  In the Tuscan merge the target gets
a free second token instead.  The minor restarts or closes; both are done for this operating round.

The transformation runs on the core mechanism (:mod:`stellwerk.core.procedure`): its rules are
a :class:`Transformation` machine, where it stands a frozen stage (:class:`Offering`,
:class:`BuyingTokens`, :class:`Stalled`; ``None`` once done), and :class:`Transform` is the
procedure the decisions queue runs (:class:`~.decisions.OnMachine`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.entities import (
    Corporation,
    Holder,
    Player,
    chain_of_control,
    controller,
    transfer,
)
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.core.procedure import Machine
from stellwerk.titles.g1841 import emergency, journal, merger, token_order
from stellwerk.titles.g1841.decisions import OnMachine, Question, share_offer_facts
from stellwerk.titles.g1841.start import tokens_bought

if TYPE_CHECKING:
    from stellwerk.titles.g1841.decisions import ProcedureGame

RULE = "rules/1841.md 2.3.12"
RULE_TARGET = "rules/1841.md 2.3.12 (the new corporation: a non-historical major not started)"
REQUIRED_TOKEN_PRICE = 50
"""The second token a one-token target must buy (rules/1841.md 2.3.12, 3)."""
OPTIONAL_TOKEN_PRICE = 100
"""Each further token (rules/1841.md 2.3.12, 3)."""


def transformable(game: ProcedureGame, corp: Corporation) -> bool:
    """A minor, historical only from phase 4 (rules/1841.md 2.3.12).  Like 18xx.games it need
    not have operated (seed 003 H12 does not name transformations)."""
    return game.specs[corp.sym].type == "minor" and (
        not merger.is_historical(game, corp) or merger.phase_number(game) >= 4
    )


def can_buy_offered(game: ProcedureGame, entity: Holder, corp: Corporation) -> bool:
    """Whether an offered IPO share can be bought (rules/1841.md 2.3.12): a share left, the
    cash, not a corporation ``corp`` controls, within the certificate limit and the 60 %
    counted for the controlling player."""
    if not corp.shares_of(corp.sym) or corp.share_price is None:
        return False
    if entity.cash < corp.share_price.price:
        return False
    if isinstance(entity, Corporation) and (entity is corp or corp in chain_of_control(entity)):
        return False
    if not game.within_cert_limit(entity):
        return False
    return game.controlled_percent(entity, corp) + corp.share_unit <= game.max_holding_percent


def offer_holders(game: ProcedureGame, priority: Player | None, corp: Corporation) -> list[Holder]:
    """Holders of ``corp`` from ``priority`` in seat order, each followed by the corporations
    he controls that hold ``corp`` (rules/1841.md 2.3.12, 2.4.1)."""
    players = game.players
    start = players.index(priority) if priority in players else 0
    out: list[Holder] = []
    for player in players[start:] + players[:start]:
        if player.shares_of(corp.sym):
            out.append(player)
        for other in merger.controlled_in_order(game, player):
            if other is not corp and other.shares_of(corp.sym):
                out.append(other)
    return out


def token_money(game: ProcedureGame, corp: Corporation, amount: int) -> None:
    """Raise ``amount`` for the transformation's required token (Token EMR, rules/1841.md
    2.3.12; seed 000 item 2.5): :func:`.emergency.token_emergency_money`."""
    emergency.token_emergency_money(game, corp, amount)


@dataclass(frozen=True)
class Offering:
    """The share offers (rules/1841.md 2.3.12): in the first round (``second`` false) the
    holders from the president, each followed by the corporations he controls; in the second
    every player from the president.  ``todo``: references (:func:`.merger.ref`) of those
    still to be offered, the first of whom is asked now (one who can buy)."""

    second: bool
    todo: tuple[str, ...]

    def holder(self, game: ProcedureGame) -> Holder:
        """Who is asked now."""
        return merger.deref(game, self.todo[0])


@dataclass(frozen=True)
class BuyingTokens:
    """The token purchase (rules/1841.md 2.3.12, 3): between ``least`` and ``most`` tokens,
    the first at ``first_price`` (L.50 when one is required), each further one at L.100."""

    least: int
    most: int
    first_price: int

    def price(self, count: int) -> int:
        """What ``count`` tokens cost."""
        if count == 0:
            return 0
        return self.first_price + (count - 1) * OPTIONAL_TOKEN_PRICE


@dataclass(frozen=True)
class Stalled:
    """The token purchase queued behind one 18xx.games never asks
    (:func:`.stock.stall_token_purchases`): never asked, the transformation never completes
    (the token emergency money that 18xx.games would still decide then is not modelled)."""


TransformStage = Offering | BuyingTokens | Stalled
"""Where a transformation stands; ``None`` once it is done."""


@dataclass(frozen=True)
class Transformation(Machine["ProcedureGame", TransformStage, moves.Move, Question]):
    """The rules of ``corp``'s transformation into ``target`` (rules/1841.md 2.3.12); in the
    Tuscan merge (``tuscan``) the target gets a free second token, and ``decider`` (a
    reference) answers for a target without a controller."""

    corp: str
    target: str
    tuscan: bool = False
    decider: str = ""

    rule = RULE
    stages = (Offering, BuyingTokens, Stalled)

    def question(self, game: ProcedureGame, stage: TransformStage) -> Question | None:
        target = game.corporation(self.target)
        if isinstance(stage, Offering):
            facts = share_offer_facts(target)
            return Question(
                stage.holder(game), ("choose",), "share_offer", RULE, ["no", "yes"],
                facts=facts,
                meanings={"yes": ("buy_share", facts), "no": ("decline_share", facts[:1])},
            )  # fmt: skip
        if isinstance(stage, BuyingTokens):
            entity: Holder = target
            if self.tuscan and controller(target) is None:
                entity = merger.deref(game, self.decider)
            counts = self.token_choices(game, stage)
            return Question(
                entity, ("choose",), "buy_tokens", RULE, counts,
                facts=(("corporation", target.sym), ("first_price", stage.first_price),
                       ("price", OPTIONAL_TOKEN_PRICE)),
                meanings={n: tokens_bought(target.sym, n, stage.price(n), None) for n in counts},
            )  # fmt: skip
        return None

    def verify(
        self, game: ProcedureGame, stage: TransformStage, answer: moves.Move
    ) -> IllegalAction | None:
        """Refuse an answer this transformation cannot take: an offer accepted by a holder
        who cannot buy the share (rules/1841.md 2.3.12: a share left, the cash, the limits),
        a token count out of range, or tokens the target cannot pay even with what the sweep
        up its chain brings (:func:`token_money`, which gives at most what
        :func:`.emergency.available` counts; seed 000 item 2.5)."""
        choice = moves.choice_of(answer)
        if isinstance(stage, Offering):
            if not stage.todo:
                return IllegalAction("no share offer is open", RULE)
            if choice not in ("yes", "no"):
                return IllegalAction(f"{choice!r} does not answer a share offer", RULE)
            holder = stage.holder(game)
            if choice == "yes" and not can_buy_offered(game, holder, game.corporation(self.target)):
                return IllegalAction(
                    f"{merger.describe(holder)} cannot buy the offered share", RULE
                )
            return None
        if not isinstance(stage, BuyingTokens):
            return IllegalAction("the transformation asks nothing now", RULE)
        try:
            count = int(str(choice))
        except ValueError:
            return IllegalAction(f"{choice!r} is not a number of tokens", RULE)
        if not stage.least <= count <= stage.most:
            return IllegalAction(
                f"between {stage.least} and {stage.most} tokens, not {count}", RULE
            )
        target = game.corporation(self.target)
        total = stage.price(count)
        if target.cash < total and emergency.available(target) < total:
            return IllegalAction(f"{target.sym} does not have L.{total} for tokens", RULE)
        return None

    def advance(
        self, game: ProcedureGame, stage: TransformStage, answer: moves.Move
    ) -> TransformStage | None:
        """An offer's answer (the share bought at the market price, or declined) runs on to
        the next holder who can buy, or the tokens; the token count's buys them (raising
        the required one's price by :func:`token_money` if the treasury is short) and ends
        the transformation."""
        choice = moves.choice_of(answer)
        if isinstance(stage, Offering):
            holder = stage.holder(game)
            if choice == "yes":
                target = game.corporation(self.target)
                share = target.shares_of(target.sym)[0]
                assert target.share_price is not None
                transfer(holder, target, target.share_price.price, RULE)
                merger.transfer_certificates(game, [share], holder)
            return self.run_offers(game, stage.second, list(stage.todo[1:]))
        if not isinstance(stage, BuyingTokens):
            raise TypeError(f"the transformation takes no answer in {stage}")
        count = int(choice or 0)
        target = game.corporation(self.target)
        total = stage.price(count)
        if target.cash < total:
            token_money(game, target, total)
        if count:
            target.num_tokens += count
            transfer(target, game.bank, total, RULE)
            game.journal.append(journal.TokensBought(target.sym, count, total))
        self.finish(game)
        return None

    # -- start
    def begin(self, game: ProcedureGame) -> TransformStage | None:
        """Assets, tokens, market cell, operating place and shares go to the target; then
        the offers (rules/1841.md 2.3.12)."""
        corp, target = game.corporation(self.corp), game.corporation(self.target)
        cell = corp.share_price
        assert cell is not None
        merger.move_assets(game, corp, None, target)
        target.num_tokens = corp.num_tokens
        token_order.adopt(game, target, [corp])
        board = game.map.board
        for state in board.hexes.values():
            for city in state.cities:
                for i, sym in enumerate(city.tokens):
                    if sym == corp.sym:
                        city.tokens[i] = target.sym
                        corp.num_tokens -= 1  # the minor keeps only its unplaced tokens
        board.version += 1
        merger.start_target(game, target, cell)
        self.convert_shares(game)
        if not game.settings.transformation_updates_frozen:
            # 18xx.games brings no frozen state up to date for a transformation's share
            # moves (docs/architecture.md, defect I): they wait for its next update
            game.frozen_held = True
        rnd = game.round
        if isinstance(rnd, OperatingRound) and corp in rnd.entities:
            rnd.entities[rnd.entities.index(corp)] = target
        holders = offer_holders(game, controller(target), target)
        return self.run_offers(game, False, [merger.ref(h) for h in holders])

    def convert_shares(self, game: ProcedureGame) -> None:
        """The president's 40 % for the target's president's certificate, then every 20 %
        share for a 10 % share: players in seat order from the president, then corporations
        in definition order, then the pool (rules/1841.md 2.3.12)."""
        corp, target = game.corporation(self.corp), game.corporation(self.target)
        pres_holder = corp.owner
        assert pres_holder is not None
        old_pres = next(s for s in pres_holder.shares_of(corp.sym) if s.president)
        new_pres = next(s for s in target.shares_of(target.sym) if s.president)
        merger.return_to_ipo(old_pres, game)
        merger.transfer_certificates(game, [new_pres], pres_holder)
        players = game.players
        first = controller(corp)
        start = players.index(first) if first in players else 0
        order: list[Holder] = [*players[start:], *players[:start], *game.corporations, game.pool]
        for holder in order:
            if holder is corp:
                continue
            for share in sorted(holder.shares_of(corp.sym), key=lambda s: -s.percent):
                merger.return_to_ipo(share, game)
                merger.transfer_certificates(game, [target.shares_of(target.sym)[0]], holder)

    # -- offers and tokens
    def run_offers(
        self, game: ProcedureGame, second: bool, todo: list[str]
    ) -> TransformStage | None:
        """The offers from ``todo`` on: those who cannot buy are passed over; after the first
        round the second (every player not bankrupt, from the president); then the tokens."""
        target = game.corporation(self.target)
        while True:
            if todo:
                if can_buy_offered(game, merger.deref(game, todo[0]), target):
                    return Offering(second, tuple(todo))
                todo.pop(0)
                continue
            if not second:
                second = True
                first = controller(target)
                players = game.players
                start = players.index(first) if first in players else 0
                todo = [merger.ref(p) for p in players[start:] + players[:start] if not p.bankrupt]
                continue
            return self.tokens(game)

    def tokens(self, game: ProcedureGame) -> TransformStage | None:
        """The token purchase: in the Tuscan merge a free second token; otherwise one
        required at L.50 for a one-token target, more at L.100 each up to five, as far as
        the treasury pays (rules/1841.md 2.3.12, 3)."""
        target = game.corporation(self.target)
        if self.tuscan:
            target.num_tokens = max(target.num_tokens, 2)
            self.finish(game)
            return None
        current = target.num_tokens
        least = 1 if current == 1 else 0
        first_price = REQUIRED_TOKEN_PRICE if least else OPTIONAL_TOKEN_PRICE
        required = REQUIRED_TOKEN_PRICE if least else 0
        optional = max((target.cash - required) // OPTIONAL_TOKEN_PRICE, 0)
        stage = BuyingTokens(least, min(optional + least, merger.MAX_TOKENS - current), first_price)
        if stage.most <= 0:
            self.finish(game)
            return None
        # queued behind a purchase 18xx.games never asks (.stock.stall_token_purchases):
        # never asked, the transformation never completes; but the token emergency money is
        # decided as the purchase is queued, and raised (18xx.games' transform_tokens sets
        # its TokenEmergencyMoney entity before queueing: its random games 1841 lite with
        # the SFLi variant, 6 players, seed 31006, action 742, and lite first edition with
        # player trades, 3 players, seed 31012, action 404)
        self.decide_token_emr(game, stage)
        return Stalled() if game.stalled_token_purchase is not None else stage

    def decide_token_emr(self, game: ProcedureGame, stage: BuyingTokens) -> None:
        """Token EMR is due (rules/1841.md 2.3.12, seed 000 item 2.5) when the target must
        buy exactly one token and the cash of its chain up to the first seller, the
        controlling player's included, is below L.50; decided here, once, as the tokens are
        asked (18xx.games' ``transform_tokens``), and kept in ``game.token_emr_due``
        (:mod:`.token_emr`)."""
        target = game.corporation(self.target)
        due = (
            stage.least == 1
            and stage.most == 1
            and emergency.cash_before_selling(game, target, REQUIRED_TOKEN_PRICE)
            < REQUIRED_TOKEN_PRICE
        )
        game.token_emr_due = (target.sym, REQUIRED_TOKEN_PRICE) if due else None

    def token_choices(self, game: ProcedureGame, stage: BuyingTokens) -> list[int]:
        """The counts on offer: the required one while its price can be paid -- from the
        treasury or by the sweep up the chain (:func:`token_money`); until then the token
        emergency sales come first (:mod:`.token_emr`) -- and more only from the treasury
        (rules/1841.md 2.3.12)."""
        target = game.corporation(self.target)
        return [
            n
            for n in range(stage.least, stage.most + 1)
            if stage.price(n) <= target.cash
            or (n == stage.least and stage.price(n) <= emergency.available(target))
        ]

    def finish(self, game: ProcedureGame) -> None:
        """The minor restarts or closes; both are done for this operating round."""
        corp, target = game.corporation(self.corp), game.corporation(self.target)
        merger.restart_corporation(game, corp)
        merger.mark_done(game, corp)
        merger.mark_done(game, target)
        game.journal.append(journal.Transformed(corp.sym, target.sym))


@dataclass
class Transform(OnMachine[TransformStage]):
    """A transformation under way (rules/1841.md 2.3.12): its rules (:class:`Transformation`)
    and where it stands (:data:`TransformStage`, ``None`` once done)."""

    machine: Transformation
    stage: TransformStage | None

    rule = RULE

    @property
    def corp(self) -> str:
        """The minor that transforms."""
        return self.machine.corp

    @property
    def target(self) -> str:
        """The major it becomes."""
        return self.machine.target

    def buying_tokens(self) -> bool:
        """Whether the token purchase is asked now."""
        return isinstance(self.stage, BuyingTokens)

    @property
    def token_min(self) -> int:
        """The fewest tokens the purchase asked now allows (0 when none is asked)."""
        return self.stage.least if isinstance(self.stage, BuyingTokens) else 0

    @property
    def token_max(self) -> int:
        """The most tokens the purchase asked now allows (0 when none is asked)."""
        return self.stage.most if isinstance(self.stage, BuyingTokens) else 0

    def token_choices(self, game: ProcedureGame) -> list[int]:
        """The token counts on offer now (:meth:`Transformation.token_choices`; none when
        no purchase is asked)."""
        if not isinstance(self.stage, BuyingTokens):
            return []
        return self.machine.token_choices(game, self.stage)

    def decide_token_emr(self, game: ProcedureGame) -> None:
        """Decide the token emergency money again for the purchase asked now
        (:meth:`Transformation.decide_token_emr`)."""
        if isinstance(self.stage, BuyingTokens):
            self.machine.decide_token_emr(game, self.stage)

    def finish(self, game: ProcedureGame) -> None:
        """End the transformation now, without its token purchase (a bankruptcy over the
        required token, :mod:`.bankruptcy`)."""
        self.machine.finish(game)
        self.stage = None


def begin(
    game: ProcedureGame,
    corp: Corporation,
    target: Corporation,
    tuscan: bool = False,
    decider: str = "",
) -> Transform:
    """Begin ``corp``'s transformation into ``target`` without checking it is allowed (the
    Tuscan merge's, :mod:`.tuscan`); it runs to its first question or its end."""
    machine = Transformation(corp.sym, target.sym, tuscan, decider)
    return Transform(machine, machine.begin(game))


def start_transform(
    game: ProcedureGame,
    corp: Corporation,
    target: Corporation,
    tuscan: bool = False,
    decider: str = "",
) -> Transform:
    """``corp`` transforms into ``target`` (rules/1841.md 2.3.12); the caller queues it."""
    if not tuscan and not transformable(game, corp):
        raise IllegalAction(f"{corp.sym} may not transform", RULE)
    if not merger.merge_target(game, target):
        raise IllegalAction(f"{target.sym} is not available to transform into", RULE_TARGET)
    return begin(game, corp, target, tuscan, decider)
