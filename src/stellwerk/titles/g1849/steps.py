"""1849's own steps and the small refinements of generic ones (rules/1849.md §§2, 4, 6, 7)."""

from __future__ import annotations

from typing import Any

from stellwerk.core.entities import Corporation, Player, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, Step
from stellwerk.core.flow.operating import BuyTrain, Dividend
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.core.flow.stock import BuySellParShares


class Operating1849(OperatingRound):
    """The 1849 operating round (1849 rules §2.3)."""


class SharesStep(BuySellParShares):
    """1849 stock turn: after a par the president may buy two more 10 % certificates
    (seed 001 item 26); the last certificate rule applies to buying (§2.2)."""

    def process_buy_shares(self, action: Action, entity: Any) -> None:
        super().process_buy_shares(action, entity)
        corp = self.game.share_by_id(action["shares"][0]).corporation
        self.game.maybe_place_home_token(self.game.corporation(corp))


class SwapChoice(Step):
    """The previous president chooses two 10 % certificates instead of the 20 % last
    certificate (1849 rules §2.2)."""

    description = "Presidency Swap Choice"
    choices = ("Two 10% certs", "One 20% cert")

    def active(self) -> bool:
        return self.game.swap is not None

    def active_entities(self) -> list[Any]:
        return [self.game.swap["player"]] if self.game.swap else []

    def actions(self, entity: Any) -> list[str]:
        return ["choose"] if entity is self.current_entity() else []

    def process_choose(self, action: Action, entity: Any) -> None:
        choice = action.get("choice")
        if choice not in self.choices:
            raise IllegalAction(f"choose one of {self.choices}", "1849 rules §2.2")
        if choice == self.choices[0]:
            self.game.swap_double_cert()
        self.game.swap = None


class LoanChoice(Step):
    """A bankrupt president without shares takes an L.500 loan (−750 at the end) or
    leaves the game (1849 rules §6)."""

    description = "Bankruptcy Choice"
    choices = ("Take L.500 loan", "Leave game")

    def active(self) -> bool:
        return self.game.loan_choice_player is not None

    def active_entities(self) -> list[Any]:
        p = self.game.loan_choice_player
        return [p] if p is not None else []

    def actions(self, entity: Any) -> list[str]:
        return ["choose"] if entity is self.current_entity() else []

    def process_choose(self, action: Action, entity: Any) -> None:
        choice = action.get("choice")
        if choice == "Leave game":
            entity.bankrupt = True
        elif choice == self.choices[0]:
            transfer(self.game.bank, entity, 500)
            entity.penalty += 750
        else:
            raise IllegalAction(f"choose one of {self.choices}", "1849 rules §6")
        self.game.loan_choice_player = None


class EmergencyMoneyRaising(Step):
    """Bonds variant: a corporation that cannot pay bond interest is helped by its
    president (1849 rules §7.4)."""

    description = "Emergency Money Raising"

    def active(self) -> bool:
        return any(c.cash < 0 for c in self.game.corporations)

    def actions(self, entity: Any) -> list[str]:
        return []


class SMSTeleport(Step):
    """The owner of SMS may close it to build and token in a coastal city without a
    connection (1849 rules §4.6)."""

    description = "SMS Teleport"
    choices = ("Close SMS", "Pass")

    def setup(self) -> None:
        self.done = False

    def _owns_sms(self, corp: Any) -> bool:
        return isinstance(corp, Corporation) and any(c.sym == "SMS" for c in corp.companies)

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not self._owns_sms(entity) or self.done:
            return []
        track = next(s for s in self.round.steps if s.__class__.__name__ == "Track")
        token = next(s for s in self.round.steps if s.__class__.__name__ == "Token")
        if track.acted or token.acted:
            return []
        return ["choose"]

    def active(self) -> bool:
        return bool(self.current_actions())

    def process_choose(self, action: Action, entity: Any) -> None:
        choice = action.get("choice")
        if choice not in self.choices:
            raise IllegalAction(f"choose one of {self.choices}", "1849 rules §4.6")
        if choice == "Close SMS":
            self.game.company("SMS").close()
            entity.extra["sms_hexes"] = list(self.game.data["sms_hexes"])
        self.done = True


class Assign(Step):
    """CNM's corporation puts the +20 marker on a port; CNM closes (1849 rules §1.4)."""

    description = "Assign"
    blocks = False

    def actions(self, entity: Any) -> list[str]:
        if getattr(entity, "sym", None) != "CNM" or entity.closed:
            return []
        owner = entity.owner
        if owner is not self.round.current_operator:
            return []
        return ["assign"]

    def process_assign(self, action: Action, entity: Any) -> None:
        target = action.get("target")
        if target not in self.game.data["port_hexes"]:
            raise IllegalAction(f"{target} is not a port", "1849 rules §1.4 (CNM)")
        self.game.cnm_hex = target
        entity.close()


class Dividend1849(Dividend):
    def pass_(self) -> None:
        super().pass_()
        self.game.old_operating_order = self.game.operating_order()


class BuyToken(Step):
    """Option acquiring_station_tokens: buy one token of another corporation
    (1849 rules §7.3).  Offered only once token buying has started."""

    description = "Buy Token"

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not self.game.hooks.token_buying:
            return []
        if not self.game.token_buying_enabled:
            return []
        return ["buy_token", "pass"] if self.game.map.buyable_tokens(entity) else []

    def process_buy_token(self, action: Action, entity: Any) -> None:
        self.game.map.buy_token(entity, action)
        self.pass_()


class BuyEToken(Step):
    """Option electric_dreams: buy the corporation's E-token (1849 rules §7.5)."""

    description = "Buy E-Token"

    def price(self) -> int:
        twelve = self.game.phases.name == "12H"
        if not self.game.e_token_sold:
            return 1100 if twelve else 800
        return 800 if twelve else 550

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not self.game.e_tokens_enabled:
            return []
        if entity.extra.get("e_token") or entity.cash < self.price():
            return []
        return ["choose", "pass"]

    def process_choose(self, action: Action, entity: Any) -> None:
        transfer(entity, self.game.bank, self.price(), "1849 rules §7.5")
        entity.extra["e_token"] = True
        self.game.e_token_sold = True
        self.pass_()


class BuyTrain1849(BuyTrain):
    """Emergency sales of the buying corporation's shares only after its first full turn;
    an E-train needs an E-token (1849 rules §§4.7, 7.5)."""


class BondInterestPayment(Step):
    """Bonds variant: L.50 interest per OR while the bond is out (1849 rules §7.4)."""

    description = "Pay Bond Interest"

    def actions(self, entity: Any) -> list[str]:
        return []

    def setup(self) -> None:
        corp = self.round.current_operator if hasattr(self.round, "current_operator") else None
        del corp

    def skip(self) -> None:
        corp = self.current_entity()
        if isinstance(corp, Corporation) and corp.extra.get("bond"):
            corp.cash -= 50
            self.game.bank.cash += 50
        self.pass_()


class Bond(Step):
    """Bonds variant: issue (L.500, price left) or repay (L.500, price right) the bond
    (1849 rules §7.4)."""

    description = "Bonds"

    def setup(self) -> None:
        self.done = False

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not self.game.bonds_enabled or self.done:
            return []
        if not isinstance(entity, Corporation):
            return []
        if entity.extra.get("bond"):
            return ["payoff_loan", "pass"] if entity.cash >= 500 else []
        return ["take_loan", "pass"]

    def process_take_loan(self, action: Action, entity: Any) -> None:
        transfer(self.game.bank, entity, 500)
        entity.extra["bond"] = True
        self.game.move_price(entity, "left")
        self.done = True
        self.pass_()

    def process_payoff_loan(self, action: Action, entity: Any) -> None:
        transfer(entity, self.game.bank, 500)
        entity.extra["bond"] = False
        self.game.move_price(entity, "right")
        self.done = True
        self.pass_()


__all__ = ["BuyTrain", "Player"]
