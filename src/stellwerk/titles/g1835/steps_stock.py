"""1835 stock rounds (rules/1835.md 5; Rails StockRound_1835).

A turn: sell, buy at most one certificate, sell again; a turn without a purchase is a pass even
if something was sold.  The round ends when all players have passed in succession; the priority
deal goes to the player after the last buyer; sold-out companies rise one row at the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.asking import Asked
from stellwerk.core.entities import Corporation, Entity, Holder, Player, Share, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.events import SharesBought, ref
from stellwerk.core.flow.base import Action, PlayerStep, act
from stellwerk.core.flow.rounds import StockRound
from stellwerk.core.shares import Bundle
from stellwerk.titles.g1835.entities import Minor, c35
from stellwerk.titles.g1835.names import PR
from stellwerk.titles.g1835.sales import (
    SaleMemory,
    bundle_of,
    lower_price,
    lower_price_question,
    sale_bundles,
    sell,
)

if TYPE_CHECKING:
    from stellwerk.titles.g1835.game import Game1835

RULE = "1835 rules §5"
LOWER = "lower_price"


class StockRound1835(StockRound):
    """Players from the priority holder, clockwise, until all pass in succession (the core
    stock round: a turn without a purchase is a pass, rules/1835.md 5.1)."""

    def __init__(self, game: Game1835) -> None:
        self.game1835 = game
        self.last_buyer: Player | None = None
        self.sold: dict[str, set[str]] = {}
        super().__init__(game, [Shares1835])
        self.label = f"SR {game.turn}"
        self.entity_index = self.entities.index(game.priority)

    def finish_round(self) -> None:
        """The priority deal goes to the player after the last buyer (rules/1835.md 5.1)."""
        game = self.game1835
        game.note("sr_end")
        super().finish_round()
        if self.last_buyer is not None:
            players = game.players
            game.priority = players[(players.index(self.last_buyer) + 1) % len(players)]

    def end_of_round_price(self, corp: Corporation) -> None:
        """Sold-out companies rise one row; shares in the pool do not push prices down
        (rules/1835.md 5.1)."""
        if self.game.sold_out(corp):
            self.game1835.note("sold_out", corp=corp.sym)
            self.game.move_price(corp, "up")


class Shares1835(PlayerStep):
    """One player's stock-round turn: sell, buy one certificate, sell (Rails SellBuySell)."""

    game: Game1835
    round: StockRound1835
    description = "Sell and Buy Shares"

    def setup(self) -> None:
        self.bought = False
        self.memory = SaleMemory()

    # -- predicates ---------------------------------------------------------------------------
    def may_sell_now(self) -> bool:
        """Sales in SR 1 as the settings' hook allows (rules/1835.md 5.3, 11)."""
        game = self.game
        if game.turn != 1:
            return True
        return game.settings.sales_in_first_stock_round(game)

    def may_sell_company(self, corp: Corporation) -> bool:
        """Only companies that have operated (PR: once formed) (rules/1835.md 5.3)."""
        return corp.operated or c35(corp).may_sell

    def sales(self, player: Player) -> list[Bundle]:
        if not self.may_sell_now():
            return []
        out = []
        for corp in self.game.majors():
            if player.shares_of(corp.sym) and self.may_sell_company(corp):
                out.extend(sale_bundles(self.game, player, corp))
        return out

    def buy_price(self, player: Player, share: Share, corp: Corporation) -> int:
        game = self.game
        owner = share.owner
        if owner is corp:
            return game.ipo_price(corp, share)
        cell = corp.share_price
        assert cell is not None
        if owner is game.pool:
            return cell.price * share.percent // 10
        per_ten = cell.price * 3 // 2
        return per_ten * share.percent // 10

    def buy_error(self, player: Player, share: Share) -> str | None:
        """Why ``player`` may not buy ``share`` now (rules/1835.md 5.2)."""
        game = self.game
        corp = game.corporation(share.corporation)
        if self.bought:
            return "one certificate per turn"
        if isinstance(corp, Minor):
            return "minors are not sold in stock rounds"
        if corp.sym in self.round.sold.get(player.name, set()):
            return f"{player.name} sold {corp.sym} this round"
        if game.num_certs(player) >= game.cert_limit(player):
            return "certificate limit reached"
        owner = share.owner
        if owner is corp:
            if not game.ipo_available(corp):
                return f"{corp.sym} is not available yet (1835 rules §4)"
            if share is not game.next_ipo_share(corp):
                return "the IPO sells its certificates in order (1835 rules §4)"
        elif owner is game.pool:
            if corp.share_price is None:
                return f"{corp.sym} has no price"
        elif isinstance(owner, Player):
            error = self.nationalisation_error(player, owner, corp, share)
            if error:
                return error
        else:
            return "not for sale"
        if self.buy_price(player, share, corp) > player.cash:
            return f"{player.name} cannot afford it"
        return None

    def nationalisation_error(
        self, player: Player, owner: Player, corp: Corporation, share: Share
    ) -> str | None:
        """The director holding at least 55 % of a floated major may buy a certificate from
        another player at 1.5 x price, fractions dropped (Rails StockRound_1835; x18: more than
        50 %, rounded up - DISAGREE)."""
        if owner is player or share.president:
            return "not for sale"
        if corp.owner is not player or not corp.floated or player.percent_of(corp.sym) < 55:
            return "only a director with 55 % may buy from other players"
        return None

    def buyable(self, player: Player) -> list[Share]:
        game = self.game
        out: list[Share] = []
        for corp in game.majors():
            candidates: list[Share] = []
            nxt = game.next_ipo_share(corp)
            if nxt is not None:
                candidates.append(nxt)
            seen: set[int] = set()
            for share in game.pool.shares_of(corp.sym):
                if share.percent not in seen and not share.president:
                    seen.add(share.percent)
                    candidates.append(share)
            if corp.owner is player and player.percent_of(corp.sym) >= 55:
                for other in game.players:
                    if other is not player:
                        candidates.extend(s for s in other.shares_of(corp.sym) if not s.president)
            out.extend(s for s in candidates if self.buy_error(player, s) is None)
        return out

    def actions(self, entity: Entity) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Player):
            return []
        if self.round.finished():
            return []
        out = ["pass", "buy_shares", "sell_shares"]
        if self.memory.adjustable is not None:
            out.append("choose")
        return out

    def choices(self, entity: Entity) -> list[Action]:
        if not isinstance(entity, Player) or not self.actions(entity):
            return []
        out = [act(entity, "pass")]
        for share in self.buyable(entity):
            out.append(act(entity, "buy_shares", shares=[share.id], percent=share.percent))
        for bundle in self.sales(entity):
            out.append(
                act(
                    entity,
                    "sell_shares",
                    shares=[s.id for s in bundle.shares],
                    percent=bundle.percent,
                )
            )
        if self.memory.adjustable is not None:
            out.append(act(entity, "choose", choice=LOWER))
        return out

    def question(self, entity: Entity) -> Asked | None:
        """After a repeated sale of a corporation's shares in this turn, whether its price
        drops one more row (rules/1835.md 5.3; Rails AdjustSharePrice)."""
        return lower_price_question(entity, self.memory, self.choices(entity))

    # -- processing -------------------------------------------------------------------------
    def process_pass(self, action: moves.Pass, entity: Entity) -> None:
        """The turn ends; without a purchase it counts as a pass, even after sales
        (rules/1835.md 5.1)."""
        if not isinstance(entity, Player):  # ``actions`` offers the pass to the player in turn
            raise TypeError(f"{entity.name} is not a player in turn")
        if not self.bought:
            self.game.note("passed", player=entity.name)
        entity.passed = not self.bought
        self.pass_()

    def process_choose(self, action: moves.Choose, entity: Player) -> None:
        if action.choice != LOWER:
            raise IllegalAction(f"unknown choice {action.choice}", RULE)
        lower_price(self.game, self.memory, action.corporation)

    def process_sell_shares(self, action: moves.SellShares, entity: Player) -> None:
        if not self.may_sell_now():
            raise IllegalAction("no selling in the first stock round", "1835 rules §5.3")
        bundle = bundle_of(self.game, action)
        corp = bundle.corporation
        if not self.may_sell_company(corp):
            raise IllegalAction(f"{corp.sym} has not operated yet", "1835 rules §5.3")
        sell(self.game, entity, bundle, self.memory)
        self.round.sold.setdefault(entity.name, set()).add(corp.sym)

    def process_buy_shares(self, action: moves.BuyShares, entity: Player) -> None:
        game = self.game
        ids = action.shares
        if len(ids) != 1:
            raise IllegalAction("buy one certificate at a time", RULE)
        share = game.share_by_id(str(ids[0]))
        error = self.buy_error(entity, share)
        if error:
            raise IllegalAction(error, RULE)
        corp = game.corporation(share.corporation)
        price = self.buy_price(entity, share, corp)
        owner = share.owner
        if owner is corp:
            receiver: Holder = corp if corp.floated else game.bank
        elif isinstance(owner, Player):
            receiver = owner
        else:
            receiver = game.bank
        transfer(entity, receiver, price, RULE)
        game.note("buy", player=entity.name, corp=corp.sym, price=price)
        game.journal.append(
            SharesBought(ref(entity), corp.sym, share.percent, ref(owner), price, share.president)
        )
        if share.president:
            game.start_company(corp)
        game.transfer_certificates(Bundle.of([share], corp), entity)
        game.check_floated(corp)
        game.update_releases()
        self.bought = True
        self.round.last_buyer = entity
        if corp.sym == PR and not game.pr_formed:
            return


__all__ = ["Shares1835"]
