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
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
from stellwerk.titles.g1841 import emergency, journal, merger, token_order
from stellwerk.titles.g1841.decisions import Procedure, Question, share_offer_facts
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


@dataclass
class Transform(Procedure):
    """A transformation under way (rules/1841.md 2.3.12).  ``stage``: ``offer1``, ``offer2``
    (share offers; ``todo`` the holders still to be offered), ``tokens``, ``done``;
    ``stalled`` when its token purchase is never asked (:func:`.stock.stall_token_purchases`;
    the token emergency money that 18xx.games would still decide then is not modelled)."""

    corp: str
    target: str
    tuscan: bool = False
    decider: str = ""
    stage: str = "start"
    todo: list[str] = field(default_factory=list)
    token_min: int = 0
    token_max: int = 0
    first_price: int = 0

    rule = RULE

    def question(self, game: ProcedureGame) -> Question | None:
        target = game.corporation(self.target)
        if self.stage in ("offer1", "offer2"):
            facts = share_offer_facts(target)
            return Question(
                merger.deref(game, self.todo[0]), ("choose",), "share_offer", RULE, ["no", "yes"],
                facts=facts,
                meanings={"yes": ("buy_share", facts), "no": ("decline_share", facts[:1])},
            )  # fmt: skip
        if self.stage == "tokens":
            entity: Holder = target
            if self.tuscan and controller(target) is None:
                entity = merger.deref(game, self.decider)
            counts = self.token_choices(game)
            return Question(
                entity, ("choose",), "buy_tokens", RULE, counts,
                facts=(("corporation", target.sym), ("first_price", self.first_price),
                       ("price", OPTIONAL_TOKEN_PRICE)),
                meanings={n: tokens_bought(target.sym, n, self.price(n), None) for n in counts},
            )  # fmt: skip
        return None

    def answer(self, game: ProcedureGame, action: moves.Move) -> None:
        """Apply an offer's or the token question's answer; everything is checked first
        (:meth:`check`), so a refused answer changes nothing."""
        self.check(game, action)
        choice = moves.choice_of(action)
        if self.stage in ("offer1", "offer2"):
            holder = merger.deref(game, self.todo.pop(0))
            if choice == "yes":
                target = game.corporation(self.target)
                share = target.shares_of(target.sym)[0]
                assert target.share_price is not None
                transfer(holder, target, target.share_price.price, RULE)
                merger.transfer_certificates(game, [share], holder)
            self.run_offers(game)
            return
        count = int(choice or 0)
        target = game.corporation(self.target)
        total = self.price(count)
        if target.cash < total:
            token_money(game, target, total)
        if count:
            target.num_tokens += count
            transfer(target, game.bank, total, RULE)
            game.journal.append(journal.TokensBought(target.sym, count, total))
        self.finish(game)

    def check(self, game: ProcedureGame, action: moves.Move) -> None:
        """Refuse an answer this transformation cannot take, changing nothing: an offer
        accepted by a holder who cannot buy the share (rules/1841.md 2.3.12: a share left,
        the cash, the limits), a token count out of range, or tokens the target cannot pay
        even with what the sweep up its chain brings (:func:`token_money`, which gives at
        most what :func:`.emergency.available` counts; seed 000 item 2.5)."""
        choice = moves.choice_of(action)
        if self.stage in ("offer1", "offer2"):
            if not self.todo:
                raise IllegalAction("no share offer is open", RULE)
            if choice not in ("yes", "no"):
                raise IllegalAction(f"{choice!r} does not answer a share offer", RULE)
            holder = merger.deref(game, self.todo[0])
            if choice == "yes" and not can_buy_offered(game, holder, game.corporation(self.target)):
                raise IllegalAction(f"{merger.describe(holder)} cannot buy the offered share", RULE)
            return
        if self.stage != "tokens":
            raise IllegalAction("the transformation asks nothing now", RULE)
        try:
            count = int(str(choice))
        except ValueError:
            raise IllegalAction(f"{choice!r} is not a number of tokens", RULE) from None
        if not self.token_min <= count <= self.token_max:
            raise IllegalAction(
                f"between {self.token_min} and {self.token_max} tokens, not {count}", RULE
            )
        target = game.corporation(self.target)
        total = self.price(count)
        if target.cash < total and emergency.available(target) < total:
            raise IllegalAction(f"{target.sym} does not have L.{total} for tokens", RULE)

    # -- start
    def begin(self, game: ProcedureGame) -> None:
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
        self.stage = "offer1"
        self.todo = [merger.ref(h) for h in offer_holders(game, controller(target), target)]
        self.run_offers(game)

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
    def run_offers(self, game: ProcedureGame) -> None:
        target = game.corporation(self.target)
        while True:
            if self.todo:
                holder = merger.deref(game, self.todo[0])
                if can_buy_offered(game, holder, target):
                    return
                self.todo.pop(0)
                continue
            if self.stage == "offer1":
                self.stage = "offer2"
                first = controller(target)
                players = game.players
                start = players.index(first) if first in players else 0
                self.todo = [
                    merger.ref(p) for p in players[start:] + players[:start] if not p.bankrupt
                ]
                continue
            self.tokens(game)
            return

    def tokens(self, game: ProcedureGame) -> None:
        target = game.corporation(self.target)
        if self.tuscan:
            target.num_tokens = max(target.num_tokens, 2)
            self.finish(game)
            return
        current = target.num_tokens
        self.token_min = 1 if current == 1 else 0
        self.first_price = REQUIRED_TOKEN_PRICE if self.token_min else OPTIONAL_TOKEN_PRICE
        required = REQUIRED_TOKEN_PRICE if self.token_min else 0
        optional = max((target.cash - required) // OPTIONAL_TOKEN_PRICE, 0)
        self.token_max = min(optional + self.token_min, merger.MAX_TOKENS - current)
        if self.token_max <= 0:
            self.finish(game)
            return
        if game.stalled_token_purchase is not None:
            # queued behind a purchase 18xx.games never asks (.stock.stall_token_purchases):
            # never asked, the transformation never completes; but the token emergency money
            # is decided as the purchase is queued, and raised (18xx.games' transform_tokens
            # sets its TokenEmergencyMoney entity before queueing: its random games 1841 lite
            # with the SFLi variant, 6 players, seed 31006, action 742, and lite first
            # edition with player trades, 3 players, seed 31012, action 404)
            self.stage = "stalled"
            self.decide_token_emr(game)
            return
        self.stage = "tokens"
        self.decide_token_emr(game)

    def decide_token_emr(self, game: ProcedureGame) -> None:
        """Token EMR is due (rules/1841.md 2.3.12, seed 000 item 2.5) when the target must
        buy exactly one token and the cash of its chain up to the first seller, the
        controlling player's included, is below L.50; decided here, once, as the tokens are
        asked (18xx.games' ``transform_tokens``), and kept in ``game.token_emr_due``
        (:mod:`.token_emr`)."""
        target = game.corporation(self.target)
        due = (
            self.token_min == 1
            and self.token_max == 1
            and emergency.cash_before_selling(game, target, REQUIRED_TOKEN_PRICE)
            < REQUIRED_TOKEN_PRICE
        )
        game.token_emr_due = (target.sym, REQUIRED_TOKEN_PRICE) if due else None

    def price(self, count: int) -> int:
        if count == 0:
            return 0
        return self.first_price + (count - 1) * OPTIONAL_TOKEN_PRICE

    def token_choices(self, game: ProcedureGame) -> list[int]:
        """The counts on offer: the required one while its price can be paid -- from the
        treasury or by the sweep up the chain (:func:`token_money`); until then the token
        emergency sales come first (:mod:`.token_emr`) -- and more only from the treasury
        (rules/1841.md 2.3.12)."""
        target = game.corporation(self.target)
        return [
            n
            for n in range(self.token_min, self.token_max + 1)
            if self.price(n) <= target.cash
            or (n == self.token_min and self.price(n) <= emergency.available(target))
        ]

    def finish(self, game: ProcedureGame) -> None:
        corp, target = game.corporation(self.corp), game.corporation(self.target)
        merger.restart_corporation(game, corp)
        merger.mark_done(game, corp)
        merger.mark_done(game, target)
        game.journal.append(journal.Transformed(corp.sym, target.sym))
        self.stage = "done"


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
    procedure = Transform(corp.sym, target.sym, tuscan, decider)
    procedure.begin(game)
    return procedure
