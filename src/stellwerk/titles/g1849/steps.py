"""1849's own steps and the small refinements of generic ones (rules/1849.md §§2, 4, 6, 7)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.asking import Answer, Asked, Facts
from stellwerk.core.entities import Company, Corporation, Entity, Player, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.auction import CompanyPendingPar
from stellwerk.core.flow.base import Action, CorporationStep, PlayerStep, Step, act
from stellwerk.core.flow.operating import Dividend, IssueShares
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.core.flow.stock import (
    BuySellParShares,
    HomeToken,
    bundle_from_action,
    bundle_of_ids,
    sale_choices,
)
from stellwerk.core.shares import Bundle, can_dump, keeps_presidency, more_than_needed
from stellwerk.titles.g1849.closing import BOND_INTEREST
from stellwerk.titles.g1849.entities import c49

if TYPE_CHECKING:
    from stellwerk.titles.g1849.game import Game1849


BUYS_AFTER_PAR = 2
"""10 % certificates the president may add in the turn he starts a corporation (§2.2)."""


class SharesStep(BuySellParShares):
    """1849 stock turn: after a par the president may buy two more 10 % certificates
    (seed 001 item 26); the last certificate rule applies to buying (§2.2); the operating
    order is remembered at every turn start and pass for the tie repair (§2.2)."""

    game: Game1849

    def setup(self) -> None:
        super().setup()
        self.game.old_operating_order = self.game.operating_order()

    def pass_(self) -> None:
        super().pass_()
        self.game.old_operating_order = self.game.operating_order()

    def can_buy_multiple(self, player: Player, corp: Corporation) -> bool:
        """In the turn he started ``corp`` its president may buy up to two more certificates
        of it (1849 rules §2.2: 40 % at once)."""
        if corp.owner is not player:
            return False
        turn = self.round.state.current_actions
        parred = any(isinstance(a, moves.Par) and a.corporation == corp.sym for a in turn)
        bought = sum(
            1
            for a in turn
            if isinstance(a, moves.BuyShares) and a.shares[0].rpartition("_")[0] == corp.sym
        )
        return parred and bought < BUYS_AFTER_PAR

    def process_buy_shares(self, action: moves.BuyShares, entity: Player) -> None:
        """A purchase that floats the corporation places its home token (1849 rules §2.2)."""
        super().process_buy_shares(action, entity)
        corp = self.game.corporation(self.game.share_by_id(action.shares[0]).corporation)
        if corp.floated:
            self.game.place_home_token(corp)


class RSAPar(CompanyPendingPar):
    """RSA's buyer sets the par of the first corporation of the order at once; the bank pays
    the corporation twice the par (1849 rules §1.4)."""

    game: Game1849

    def par_corporation(self, company: Company) -> str:
        return self.game.rsa_corporation or ""

    def par(self, player: Player, company: Company, action: moves.Par) -> None:
        game = self.game
        corp = game.corporation(action.corporation)
        cell = game.market.cell_by_id(action.share_price)
        if cell is None or cell not in game.par_cells():
            raise IllegalAction(f"{action.share_price} is not a par price", "1849 rules §1.4")
        if corp.sym != game.rsa_corporation:
            raise IllegalAction(f"RSA comes with {game.rsa_corporation}", "1849 rules §1.4")
        game.set_par(corp, cell)
        share = corp.treasury_shares()[0]
        game.buy_shares(player, Bundle.of([share], corp), price=0)
        transfer(game.bank, corp, cell.price * 2, "1849 rules §1.4")
        game.after_par(corp)


class ChosenHomeToken(HomeToken):
    """AFG's president chooses its home among the free cities (1849 rules §4.5)."""

    game: Game1849

    def home_cities(self, corp: Corporation, hexes: list[str]) -> list[str]:
        return self.game.map.home_city_choices(corp, hexes)

    def place_home(self, corp: Corporation, action: moves.PlaceToken, hexes: list[str]) -> None:
        self.game.map.place_chosen_home(corp, action, hexes)


class ChoiceStep(Step):
    """A step answered by ``choose`` with one of ``CHOICES``.  While it waits, 18xx.games
    cannot value a player's shares (``pending_choice``, see ClosingRules.sellable_bundles)."""

    game: Game1849

    pending_choice = True
    CHOICES: tuple[str, ...] = ()
    TOPIC = ""
    """What is asked (a key of the title's sentences, ``titles.g1849.wording``)."""
    KINDS: tuple[str, ...] = ()
    """What each of ``CHOICES`` does, in their order (keys of the title's sentences)."""

    def facts(self, entity: Entity) -> Facts:
        """What the question is about (none unless a step says)."""
        return ()

    def question(self, entity: Entity) -> Asked | None:
        """The choice as a question: each listed ``CHOICES`` value with its ``KINDS`` key."""
        listed = self.choices(entity)
        if not listed or not self.TOPIC:
            return None
        facts = self.facts(entity)
        meanings = dict(zip(self.CHOICES, self.KINDS, strict=True))
        answers = tuple(Answer(a, meanings[str(a["choice"])], facts) for a in listed)
        return Asked(entity, self.TOPIC, answers, facts)

    def choices(self, entity: Entity) -> list[Action]:
        if not self.actions(entity):
            return []
        return [act(entity, "choose", choice=c) for c in self.CHOICES]

    def chosen(self, action: moves.Choose, rule: str) -> str:
        """The choice of ``action``, refused unless it is one of ``CHOICES``."""
        choice = action.choice
        if choice not in self.CHOICES:
            raise IllegalAction(f"choose one of {self.CHOICES}", rule)
        return str(choice)


# the core's step class first: a compiled core (mypyc) makes it the class whose ``__new__``
# builds the step (copies, checkpoints); ChoiceStep and PlayerStep share no method
class SwapChoice(PlayerStep, ChoiceStep):
    """The previous president chooses two 10 % certificates instead of the 20 % last
    certificate (1849 rules §2.2)."""

    game: Game1849

    description = "Presidency Swap Choice"
    CHOICES = ("Two 10% certs", "One 20% cert")
    TOPIC = "presidency_swap"
    KINDS = ("two_tens", "one_twenty")

    def facts(self, entity: Entity) -> Facts:
        swap = self.game.swap
        return (("corporation", swap["corporation"].sym),) if swap is not None else ()

    def active(self) -> bool:
        return self.game.swap is not None

    def active_entities(self) -> Sequence[Entity]:
        return [self.game.swap["player"]] if self.game.swap else []

    def actions(self, entity: Entity) -> list[str]:
        return ["choose"] if entity is self.current_entity() else []

    def choices(self, entity: Entity) -> list[Action]:
        """Only ``One 20% cert`` once the corporation has closed after the presidency changed:
        its certificates are void, so there is nothing to swap (1849 rules §§2.2, 5).
        18xx.games still waits for the choice then (its swap stays pending through the
        closing) and fails on ``Two 10% certs``; the question is kept so our games replay
        there."""
        offered = super().choices(entity)
        if self.game.swappable_double_cert() is None:
            offered = [a for a in offered if a["choice"] == self.CHOICES[1]]
        return offered

    def process_choose(self, action: moves.Choose, entity: Player) -> None:
        choice = self.chosen(action, "1849 rules §2.2")
        if choice == self.CHOICES[0]:
            if self.game.swappable_double_cert() is None:
                raise IllegalAction(
                    "the corporation has closed: no certificates are left to swap",
                    "1849 rules §§2.2, 5",
                )
            self.game.swap_double_cert()
        self.game.swap = None


# the core's step class first (see SwapChoice)
class LoanChoice(PlayerStep, ChoiceStep):
    """A bankrupt president without shares takes an L.500 loan (−750 at the end) or
    leaves the game (1849 rules §6)."""

    game: Game1849

    description = "Bankruptcy Choice"
    CHOICES = ("Take L.500 loan", "Leave game")
    TOPIC = "bankruptcy_loan"
    KINDS = ("take_bankruptcy_loan", "leave_game")

    def facts(self, entity: Entity) -> Facts:
        return (("loan", 500), ("penalty", 750))

    def active(self) -> bool:
        return self.game.loan_choice_player is not None

    def active_entities(self) -> Sequence[Entity]:
        p = self.game.loan_choice_player
        return [p] if p is not None else []

    def actions(self, entity: Entity) -> list[str]:
        return ["choose"] if entity is self.current_entity() else []

    def choices(self, entity: Entity) -> list[Action]:
        """A player who already left may only take the loan (18xx.games refuses leaving
        twice)."""
        offered = super().choices(entity)
        if getattr(entity, "bankrupt", False):
            offered = [a for a in offered if a["choice"] == self.CHOICES[0]]
        return offered

    def process_choose(self, action: moves.Choose, entity: Player) -> None:
        choice = self.chosen(action, "1849 rules §6")
        if choice == "Leave game":
            if entity.bankrupt:
                raise IllegalAction(f"{entity.name} has already left the game", "1849 rules §6")
            entity.bankrupt = True
        else:
            transfer(self.game.bank, entity, 500)
            entity.penalty += 750
        self.game.loan_choice_player = None


class EmergencyMoneyRaising(CorporationStep):
    """Bonds variant: a corporation whose cash went negative paying bond interest is bailed
    out by its president, who may sell shares first (1849 rules §7.4)."""

    game: Game1849

    description = "Emergency Money Raising"
    needs_entity = True

    def crisis(self) -> Corporation | None:
        """The first corporation in debt (the routing asks every step whether it is active:
        a plain look at a few cash figures, cheaper than remembering it)."""
        for corp in self.game.corporations:
            if corp.cash < 0:
                return corp
        return None

    def active(self) -> bool:
        return self.crisis() is not None

    def active_entities(self) -> Sequence[Entity]:
        corp = self.crisis()
        return [corp] if corp is not None else []

    def needed(self) -> int:
        corp = self.crisis()
        return -corp.cash if corp is not None else 0

    def actions(self, entity: Entity) -> list[str]:
        corp = self.crisis()
        if corp is None or (entity is not corp and entity is not corp.owner):
            return []
        out = []
        if isinstance(entity, Player):
            if entity.cash < self.needed():
                out.append("sell_shares")
            if entity.cash >= self.needed():
                out.append("payoff_debt")
        else:
            out.append("payoff_debt")
        return out

    def choices(self, entity: Entity) -> list[Action]:
        kinds = self.actions(entity)
        out = []
        if "payoff_debt" in kinds and isinstance(entity, Player):
            out.append(act(entity, "payoff_debt"))
        if "sell_shares" in kinds and isinstance(entity, Player):
            out += sale_choices(self.game, entity, self.can_sell)
        return out

    def can_sell(self, player: Player, bundle: Bundle) -> bool:
        """Sales to pay the debt: normal sale rules, the debtor's presidency kept, and no more
        than needed (18xx.games EmergencyMoney; 1849 rules §7.4)."""
        corp = bundle.corporation
        debtor = self.crisis()
        if bundle.owner is not player or not corp.operated or debtor is None:
            return False
        if not can_dump(bundle, player, self.game) or not self.game.fits_in_pool(bundle):
            return False
        president_of_debtor = corp is debtor and corp.owner is player
        if president_of_debtor and not keeps_presidency(bundle, player, self.game):
            return False
        if self.game.sale_strands_debt(bundle):
            return False
        return not more_than_needed(bundle, self.needed() - max(0, player.cash))

    def process_payoff_debt(self, action: moves.PayoffDebt, entity: Player | Corporation) -> None:
        corp = self.crisis()
        assert corp is not None
        amount = self.needed()
        if entity is corp or entity.cash < amount:
            raise IllegalAction(f"{entity.name} cannot pay {amount}", "1849 rules §7.4")
        transfer(entity, corp, amount, "1849 rules §7.4")

    def process_sell_shares(self, action: moves.SellShares, entity: Player) -> None:
        bundle = bundle_from_action(self.game, action)
        if not self.can_sell(entity, bundle):
            raise IllegalAction("these shares cannot be sold now", "1849 rules §7.4")
        self.game.sell_shares_and_change_price(bundle)
        rnd = self.round
        if isinstance(rnd, OperatingRound):  # the operating order follows the new prices
            rnd.recalculate_order()


# the core's step class first (see SwapChoice)
class SMSTeleport(CorporationStep, ChoiceStep):
    """The owner of SMS may close it to build and token in a coastal city without a
    connection (1849 rules §4.6)."""

    game: Game1849

    description = "SMS Teleport"
    CHOICES = ("Close SMS", "Pass")
    TOPIC = "sms_teleport"
    KINDS = ("close_sms", "keep_sms")

    def facts(self, entity: Entity) -> Facts:
        return (("corporation", getattr(entity, "sym", "")), ("company", "SMS"))

    def setup(self) -> None:
        self.done = False

    def _owns_sms(self, corp: Entity | None) -> bool:
        return isinstance(corp, Corporation) and any(c.sym == "SMS" for c in corp.companies)

    def actions(self, entity: Entity) -> list[str]:
        if entity is not self.current_entity() or not self._owns_sms(entity) or self.done:
            return []
        track = next(s for s in self.round.steps if s.__class__.__name__ == "Track")
        token = next(s for s in self.round.steps if s.__class__.__name__ == "Token")
        if track.acted or token.acted:
            return []
        return ["choose"]

    def active(self) -> bool:
        # the cheap conditions of ``actions`` first (asked at every step of every action)
        if self.done or not self._owns_sms(self.current_entity()):
            return False
        return bool(self.current_actions())

    def process_choose(self, action: moves.Choose, entity: Corporation) -> None:
        choice = self.chosen(action, "1849 rules §4.6")
        if choice == "Close SMS":
            self.game.company("SMS").close()
            c49(entity).sms_hexes = list(self.game.data.sms_hexes)
        self.done = True


class Assign(Step):
    """CNM's corporation puts the +20 marker on a port; CNM closes (1849 rules §1.4)."""

    game: Game1849

    description = "Assign"
    round: OperatingRound
    BLOCKS = False

    def actions(self, entity: Entity) -> list[str]:
        if not isinstance(entity, Company) or entity.sym != "CNM" or entity.closed:
            return []
        owner = entity.owner
        if owner is not self.round.current_operator:
            return []
        return ["assign"]

    def choices(self, entity: Entity) -> list[Action]:
        if not self.actions(entity):
            return []
        return [
            act(entity, "assign", target=h, target_type="hex") for h in self.game.data.port_hexes
        ]

    def process_assign(self, action: moves.Assign, entity: Company) -> None:
        target = action.target
        if target not in self.game.data.port_hexes:
            raise IllegalAction(f"{target} is not a port", "1849 rules §1.4 (CNM)")
        self.game.cnm_hex = target
        entity.close()


class Dividend1849(Dividend):
    """Dividends; the operating order before the next sales is remembered (§2.2)."""

    game: Game1849

    def pass_(self) -> None:
        super().pass_()
        self.game.old_operating_order = self.game.operating_order()


class BuyToken(CorporationStep):
    """Station token buying (1849 rules §7.3): the step waits in every turn for a token purchase or
    a pass; the pass comes automatically when nothing is buyable (1849 rules §7.3)."""

    game: Game1849

    description = "Buy a Token From Another Corporation"

    def setup(self) -> None:
        self.bought = False

    def actions(self, entity: Entity) -> list[str]:
        if not self.game.settings.station_token_buying or not isinstance(entity, Corporation):
            return []
        if entity is not self.current_entity():
            return []
        return ["buy_token", "pass"]

    def auto_actions(self, entity: Entity) -> list[Action] | None:
        if not isinstance(entity, Corporation):
            return None
        if not self.game.map.any_buyable_tokens_placed(entity):
            return [{"type": "pass", "entity": entity.sym, "entity_type": "corporation"}]
        return None

    def choices(self, entity: Entity) -> list[Action]:
        if not isinstance(entity, Corporation) or not self.actions(entity):
            return []
        out = [act(entity, "pass")]
        if self.game.token_buying_enabled and not self.bought and entity.cash >= 1:
            for city, slot in self.game.map.buyable_token_choices(entity):
                out.append(act(entity, "buy_token", city=city, slot=slot, price=1))
        return out

    def price_space(self, entity: Entity, listed: Action) -> tuple[int, int]:
        """A station token bought from another corporation costs what the two agree, from
        L.1 to the buyer's cash (1849 rules §7.3)."""
        return (1, entity.cash)

    def process_buy_token(self, action: moves.BuyToken, entity: Corporation) -> None:
        if not self.game.token_buying_enabled or self.bought:
            raise IllegalAction("no token purchase now", "1849 rules §7.3")
        self.game.map.buy_token(entity, action)
        self.bought = True


class BuyEToken(CorporationStep):
    """E-tokens (1849 rules §7.5): buy the corporation's E-token: the first of the game costs
    L.1100 in 12H / L.800 in 16H, later ones L.800 / L.550 (1849 rules §7.5)."""

    game: Game1849

    description = "Buy E-Token"

    def price(self) -> int:
        twelve = self.game.phases.name == "12H"
        if not self.game.e_token_sold:
            return 1100 if twelve else 800
        return 800 if twelve else 550

    def can_buy(self, entity: Entity) -> bool:
        return (
            self.game.settings.e_tokens
            and isinstance(entity, Corporation)
            and self.game.e_tokens_enabled
            and not c49(entity).e_token
            and entity.cash >= self.price()
        )

    def actions(self, entity: Entity) -> list[str]:
        if entity is not self.current_entity() or not self.can_buy(entity):
            return []
        return ["choose", "pass"]

    def choices(self, entity: Entity) -> list[Action]:
        if not self.actions(entity):
            return []
        return [
            act(entity, "pass"),
            act(entity, "choose", choice=f"Buy E-Token for L.{self.price()}"),
        ]

    def question(self, entity: Entity) -> Asked | None:
        """Whether the corporation buys an E-token at its price now (1849 rules §7.5)."""
        listed = self.choices(entity)
        if not listed:
            return None
        about: Facts = (("corporation", getattr(entity, "sym", "")), ("price", self.price()))
        answers = tuple(
            Answer(a, "buy_e_token" if a["type"] == "choose" else "decline_e_token", about)
            for a in listed
        )
        return Asked(entity, "e_token", answers, about)

    def process_choose(self, action: moves.Choose, entity: Corporation) -> None:
        if not self.can_buy(entity):
            raise IllegalAction("cannot buy an E-token", "1849 rules §7.5")
        transfer(entity, self.game.bank, self.price(), "1849 rules §7.5")
        c49(entity).e_token = True
        self.game.e_token_sold = True


class Issue1849(IssueShares):
    """Issuing treasury shares (1849 rules §4.9), without the issues that close the
    corporation while leaving it unable to pay its bond interest (``sale_strands_debt``)."""

    game: Game1849

    def choices(self, entity: Entity) -> list[Action]:
        return [
            a
            for a in super().choices(entity)
            if a["type"] != "sell_shares"
            or not self.game.sale_strands_debt(bundle_of_ids(self.game, a["shares"], a["percent"]))
        ]


class BondInterestPayment(CorporationStep):
    """Bonds variant: L.50 interest per OR while the bond is out, paid by itself; a
    corporation that cannot pay goes below zero and must be bailed out (1849 rules §7.4)."""

    game: Game1849

    description = "Pay Bond Interest"

    def skip(self) -> None:
        self.pass_()
        corp = self.current_entity()
        if isinstance(corp, Corporation) and c49(corp).bond:
            corp.cash -= BOND_INTEREST
            self.game.bank.cash += BOND_INTEREST


class Bond(CorporationStep):
    """Bonds variant: issue (L.500 from the bank, price left) or repay (L.500 to the bank,
    price right) the corporation's single bond, not both in one turn (1849 rules §7.4)."""

    game: Game1849

    description = "Issue Bond"

    def setup(self) -> None:
        self.issued = False
        self.redeemed = False

    def can_take(self, corp: Corporation) -> bool:
        return self.game.bonds_enabled and not self.redeemed and not c49(corp).bond

    def can_payoff(self, corp: Corporation) -> bool:
        return not self.issued and bool(c49(corp).bond) and corp.cash >= 500

    def actions(self, entity: Entity) -> list[str]:
        if not self.game.settings.corporation_bonds or not isinstance(entity, Corporation):
            return []
        if entity is not self.current_entity():
            return []
        out = []
        if self.can_payoff(entity):
            out.append("payoff_loan")
        if self.can_take(entity):
            out.append("take_loan")
        if out:
            out.append("pass")
        return out

    def choices(self, entity: Entity) -> list[Action]:
        kinds = self.actions(entity)
        out = [act(entity, k) for k in kinds if k == "pass"]
        if "take_loan" in kinds:
            out.append(act(entity, "take_loan", loan=0))
        if "payoff_loan" in kinds:
            out.append(act(entity, "payoff_loan", loan=0))
        return out

    def process_take_loan(self, action: moves.TakeLoan, entity: Corporation) -> None:
        if not self.can_take(entity):
            raise IllegalAction("cannot issue the bond", "1849 rules §7.4")
        transfer(self.game.bank, entity, 500)
        c49(entity).bond = True
        self.issued = True
        self.game.move_price(entity, "left")

    def process_payoff_loan(self, action: moves.PayoffLoan, entity: Corporation) -> None:
        if not self.can_payoff(entity):
            raise IllegalAction("cannot repay the bond", "1849 rules §7.4")
        transfer(entity, self.game.bank, 500)
        c49(entity).bond = False
        self.redeemed = True
        self.game.move_price(entity, "right")
