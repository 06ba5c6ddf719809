"""1841's bankruptcy (rules/1841.md 2.6; seed 003 H9).

**When.**  A corporation that must buy a train may declare its controlling player bankrupt
(``bankrupt``, entity = the corporation, ``option`` 0 or 1) only if the whole emergency buying
power is below the cheapest depot train (18xx.games ``can_go_bankrupt?``): the player's cash,
plus for every operated corporation he holds half the value of his largest bundle that an
emergency sale allows (rounded down per corporation), plus the buyer's cash and what its chain
could still raise (:func:`buying_power`).  It is offered where the site offers it: in the
train step, once no corporation of the chain has a legal sale left and the chain is short.

**The sell-out** (``bankruptcy_procedure == "sell_out"``, 18xx.games): the player sells, per
corporation in operating order, the largest bundle an emergency sale allows, at half price
with the usual price drop; then everything he still holds at half price, ignoring all
restrictions, without further price changes (a historical corporation's president's
certificate before phase 4 goes to the pool and the corporation is presided by the pool,
frozen; any other president's certificate leaves it to the pool only when nobody holds the
president's percentage, :func:`.emergency.presidency_reached`).  His cash goes to the
corporation, his concessions to the bank.  ``option`` 0: he is out of the game (it counts for
"all but one bankrupt", rules/1841.md 1.4); 1: he borrows L.500 from the bank and stays
(:func:`.game_end.take_bankruptcy_loan`).  The corporation's turn ends without a train: it
has operated and is done this round.

**Zugzwang** (``"dissolve"``, seed 003 H9): every corporation the bankrupt controls, directly
or through others, leaves the game -- its certificates (whoever holds them) are retired, its
cash goes to the bank, its trains to the bank's depot, its shares of other corporations to the
pool, its tokens leave the map -- and its concession leaves the game; the player's cash goes to
the bank and he goes on with exactly L.500 lent by the bank.  Our reading: his shares of
corporations he does not control stay his.  The unpaid train was never bought, so no phase
changes (H9's last sentence).

**Transform token.**  A bankruptcy declared while a transformed major cannot raise its
required L.50 token (:mod:`.token_emr`) gives the major the token free, its cash to the bank,
and ends the transformation (18xx.games' special case).  As on the site, whether it may be
declared is still measured against the cheapest depot train.

**On the core mechanism** (:mod:`stellwerk.core.procedure`): a :class:`Bankruptcy` machine
with one frozen stage, :class:`Declaring` (the option asked of the controlling player);
its ``verify`` refuses a declaration the rules do not allow without changing anything, and its
one transition runs the whole procedure -- sell-out or dissolution, then the free token or
the end of the turn -- to its end (``None``).  Bankruptcy ends the emergency money
(:mod:`.raising`): it is offered once the controlling player's sales cannot save the buyer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Entity, Player, controlled_corporations, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, act
from stellwerk.core.flow.operating import Bankrupt
from stellwerk.core.procedure import Machine, drive
from stellwerk.core.shares import Bundle
from stellwerk.titles.g1841 import emergency, frozen, game_end, merger, stock, token_emr
from stellwerk.titles.g1841.decisions import prune
from stellwerk.titles.g1841.ownership import move_bundle, presidency_may_change
from stellwerk.titles.g1841.transform import REQUIRED_TOKEN_PRICE, Transform

if TYPE_CHECKING:
    from stellwerk.titles.g1841.decisions import DecidingGame, ProcedureGame

RULE = "rules/1841.md 2.6"

OPTIONS = (0, 1)
"""``option`` 0: resign; 1: take the L.500 loan and stay (rules/1841.md 2.6)."""


# -- when ----------------------------------------------------------------------------------


def sales_counted(game: ProcedureGame) -> bool:
    """Whether the player's shares count towards the buying power: only while the turn stands
    at a step with emergency sales (the train step, the token emergency money).  18xx.games
    values them through the current step's sale test, and a step without sales allows none:
    a corporation without trains that declares bankruptcy right after its track stands at the
    token purchase step, and there only cash counts (its random game 1841 lite with
    player-to-player purchases, 6 players, seed 313, action 818: L.138 of cash, shares worth
    L.130 more, not counted)."""
    from stellwerk.titles.g1841.trains import BuyTrain1841

    step = game.round.active_step()
    return isinstance(step, BuyTrain1841 | token_emr.TokenEmergencyMoney)


def liquidity(game: ProcedureGame, player: Player, buyer: Corporation) -> int:
    """The player's cash and, per operated corporation he holds, half his largest legal
    emergency bundle at full price, rounded down (18xx.games ``liquidity(emergency: true)``);
    only his cash where the current step has no sales (:func:`sales_counted`)."""
    total = player.cash
    if not sales_counted(game):
        return total
    for corp in game.corporations:
        if not player.shares_of(corp.sym) or corp.sym not in game.operated_corps:
            continue
        bundles = [
            b
            for b in game.bundles_for_corporation(player, corp)
            if emergency.may_sell(game, buyer, b)
        ]
        if bundles:
            total += max(b.price for b in bundles) // 2
    return total


def buying_power(game: ProcedureGame, player: Player, buyer: Corporation) -> int:
    """Everything the player and the buyer's chain could raise (18xx.games
    ``total_emr_buying_power``)."""
    return liquidity(game, player, buyer) + buyer.cash + emergency.issuable_cash(game, buyer)


def may_go_bankrupt(game: ProcedureGame, buyer: Corporation) -> bool:
    """The buying power is below the cheapest depot train (rules/1841.md 2.6)."""
    player = emergency.controller_of(buyer)
    if player is None:
        return False
    return buying_power(game, player, buyer) < emergency.needed_price(game, buyer)


# -- the procedures -------------------------------------------------------------------------


@dataclass(frozen=True)
class Declaring:
    """Bankruptcy asked (rules/1841.md 2.6): ``player`` (his id; ``None`` when no player
    controls the buyer) answers with an option, 0 (resign) or 1 (the L.500 loan)."""

    player: int | str | None


BankruptcyStage = Declaring
"""Where a bankruptcy stands; ``None`` once it is done."""


@dataclass(frozen=True)
class Bankruptcy(Machine["ProcedureGame", BankruptcyStage, int, list[int]]):
    """The rules of ``buyer``'s bankruptcy (rules/1841.md 2.6; seed 003 H9):
    ``emergency_sales`` -- whether the sell-out begins with the emergency sales
    (:func:`sell_out`).  One stage asks the option (:class:`Declaring`); the transition runs
    the whole procedure -- the sell-out (``bankruptcy_procedure`` "sell_out") or the
    dissolution ("dissolve"), then the free token of a transformation or the end of the
    corporation's turn -- and ends it."""

    buyer: str
    emergency_sales: bool = True

    rule = RULE
    stages = (Declaring,)

    def begin(self, game: ProcedureGame) -> BankruptcyStage:
        """The option asked of the buyer's controlling player."""
        player = emergency.controller_of(game.corporation(self.buyer))
        return Declaring(player.id if player is not None else None)

    def question(self, game: ProcedureGame, stage: BankruptcyStage) -> list[int] | None:
        return list(OPTIONS)

    def verify(
        self, game: ProcedureGame, stage: BankruptcyStage, answer: int
    ) -> IllegalAction | None:
        """Why the bankruptcy cannot be declared (changes nothing): no player who could go
        bankrupt, an option that is not 0 or 1, or a buying power that reaches the cheapest
        depot train (:func:`may_go_bankrupt`; rules/1841.md 2.6)."""
        buyer = game.corporation(self.buyer)
        player = None if stage.player is None else game.player_by_id(stage.player)
        if player is None or player.bankrupt:
            return IllegalAction(f"{buyer.sym} has no player who could go bankrupt", RULE)
        if answer not in OPTIONS:
            return IllegalAction(f"bankruptcy option must be 0 or 1, not {answer}", RULE)
        if not may_go_bankrupt(game, buyer):
            power = buying_power(game, player, buyer)
            price = emergency.needed_price(game, buyer)
            return IllegalAction(
                f"{player.name} cannot go bankrupt: {buyer.sym} and {player.name} can raise "
                f"L.{power} and the cheapest depot train costs L.{price}",
                RULE,
            )
        return None

    def advance(self, game: ProcedureGame, stage: BankruptcyStage, answer: int) -> None:
        """The player goes bankrupt: sell-out (then out of the game, or the loan) or
        dissolution; a transformed major short of its required token gets it free
        (:func:`free_token`), else the buyer's turn ends (:func:`end_turn`)."""
        buyer = game.corporation(self.buyer)
        assert stage.player is not None
        player = game.player_by_id(stage.player)
        token = token_emr.pending(game) is buyer
        if game.settings.bankruptcy_procedure == "dissolve":
            dissolve(game, player)
        else:
            sell_out(game, player, buyer, emergency_sales=self.emergency_sales)
            if answer == 0:
                player.bankrupt = True
            else:
                game_end.take_bankruptcy_loan(game, player)
        if token:
            free_token(game, buyer)
        elif not buyer.closed:
            end_turn(game, buyer)
        return None


def declare(
    game: ProcedureGame, buyer: Corporation, option: int, *, emergency_sales: bool = True
) -> None:
    """``buyer``'s controlling player goes bankrupt (rules/1841.md 2.6; seed 003 H9) with
    ``option``; ``emergency_sales``: whether the sell-out begins with the emergency sales
    (:func:`sell_out`).  Verified first: a refusal raises with nothing changed."""
    machine = Bankruptcy(buyer.sym, emergency_sales)
    drive(machine, game, machine.begin(game), option)


def free_token(game: ProcedureGame, buyer: Corporation) -> None:
    """Bankrupt over the transformation's required token: the major gets it free, its cash
    goes to the bank, the transformation ends and so does the token EMR duty (18xx.games'
    special case, "rules limbo")."""
    if not buyer.closed:
        buyer.num_tokens += 1
        if buyer.cash > 0:
            transfer(buyer, game.bank, buyer.cash, RULE)
    for procedure in game.procedures:
        if not isinstance(procedure, Transform) or procedure.target != buyer.sym:
            continue
        if procedure.buying_tokens():
            procedure.finish(game)
    game.token_emr_due = None
    prune(game)


def end_turn(game: ProcedureGame, buyer: Corporation) -> None:
    """The corporation's turn ends without a train: it has operated and is done this round
    (18xx.games ``done_operating!``; rules/1841.md 2.6)."""
    game.after_operating_turn(buyer)
    game.done_this_round.add(buyer.sym)


def _in_order(game: ProcedureGame, player: Player) -> list[Corporation]:
    held = [c for c in game.corporations if player.shares_of(c.sym) and c.share_price]
    return sorted(held, key=lambda c: c.sort_key())


def sell_out(
    game: ProcedureGame, player: Player, buyer: Corporation, *, emergency_sales: bool = True
) -> None:
    """The player's sell-out at half price (rules/1841.md 2.6 "Process").  Without
    ``emergency_sales`` the first part (the bundles an emergency sale allows, with price drops)
    is left out and everything goes at half price without price changes: 18xx.games asks the
    step that blocks the turn which bundles are sellable, and only the train step and token
    emergency money answer (a replayed bankruptcy declared elsewhere in the turn, e.g. with a
    merger partner chosen, sells nothing first).

    In the first part the presidency settles as after any transfer, even a historical
    corporation's before phase 4 (18xx.games sells these bundles with its default
    ``allow_president_change``, unlike an ordinary emergency sale): a corporation presided by
    the pool whose ordinary certificate the bankrupt sells gets the holder of at least the
    president's percentage as president (selfplay 1841 p2p purchases 3 players seed 402,
    action 894: SFLP, historical, phase 3, to SSFL with 40 %).  Nor do these sales
    recalculate the operating order, as an ordinary emergency sale does (selfplay lite+sfli
    6 players seed 422, action 1379: CTDA, its price fallen, still operates next)."""
    for corp in _in_order(game, player) if emergency_sales else []:
        bundles = [
            b
            for b in game.bundles_for_corporation(player, corp)
            if emergency.may_sell(game, buyer, b)
        ]
        if bundles:
            largest = max(bundles, key=lambda b: b.price)
            emergency.sell(game, largest, president_change=True, reorder=False)
    for corp in _in_order(game, player):
        shares = list(player.shares_of(corp.sym))
        bundle = Bundle.of(shares, corp)
        transfer(game.bank, player, emergency.half_total(game, bundle), RULE)
        change = presidency_may_change(game, corp)
        move_bundle(game, bundle, game.pool, change)
        ps = corp.presidents_share
        if (
            bundle.presidents_share is not None
            and ps is not None
            and ps.owner is game.pool
            and (not change or not emergency.presidency_reached(game, corp))
        ):
            game.set_president(corp, game.pool)
        frozen.update(game)
    if player.cash > 0:
        transfer(player, buyer, player.cash, RULE)
    for company in list(player.companies):
        player.companies.remove(company)
        company.owner = None


def dissolve(game: ProcedureGame, player: Player) -> None:
    """Seed 003 H9: the bankrupt's corporations leave the game, he goes on with L.500."""
    for corp in controlled_corporations(player, game.corporations):
        remove_corporation(game, corp)
    for company in list(player.companies):
        company.close()
    if player.cash > 0:
        transfer(player, game.bank, player.cash, RULE)
    game_end.take_bankruptcy_loan(game, player)


def remove_corporation(game: ProcedureGame, corp: Corporation) -> None:
    """A corporation leaves the game with all it has (seed 003 H9)."""
    for sym in list(corp.shares):
        if sym != corp.sym:
            for share in list(corp.shares_of(sym)):
                merger.transfer_certificates(game, [share], game.pool)
    for share in list(corp.certificates):
        if share.owner is not corp:
            merger.return_to_ipo(share, game)
    if corp.cash > 0:
        transfer(corp, game.bank, corp.cash, RULE)
    for train in list(corp.trains):
        game.reclaim_train(train)
    company = stock.concession_of(game, corp)
    if company is not None:
        company.close()
    merger.restart_corporation(game, corp)
    corp.closed = True
    game.done_this_round.add(corp.sym)


# -- the step ---------------------------------------------------------------------------------


class Bankrupt1841(Bankrupt):
    """``bankrupt`` with ``option`` 0 or 1 by the corporation that must buy a train
    (rules/1841.md 2.6); offered where 18xx.games offers it."""

    game: DecidingGame

    def choices(self, entity: Entity) -> list[Action]:
        if not isinstance(entity, Corporation) or not self.actions(entity):
            return []
        if not self.offered(entity):
            return []
        return [act(entity, "bankrupt", option=o) for o in OPTIONS]

    def offered(self, corp: Corporation) -> bool:
        from stellwerk.titles.g1841.trains import BuyTrain1841

        game = self.game
        target = token_emr.pending(game)
        if target is not None:
            chain = emergency.issuable_bundles(game, target, REQUIRED_TOKEN_PRICE)
            return corp is target and not chain and may_go_bankrupt(game, corp)
        step = self.round.active_step()
        if not isinstance(step, BuyTrain1841) or step.current_entity() is not corp:
            return False
        return step.president_may_contribute(corp) and may_go_bankrupt(self.game, corp)

    def process_bankrupt(self, action: moves.Bankrupt, entity: Corporation) -> None:
        from stellwerk.titles.g1841.trains import BuyTrain1841

        step = self.round.active_step()
        sells = isinstance(step, BuyTrain1841 | token_emr.TokenEmergencyMoney)
        declare(self.game, entity, action.option or 0, emergency_sales=sells)
