"""The waterfall private auction (as in 1830) and the par choice of a company that comes
with a president's certificate."""

from __future__ import annotations

from collections.abc import Sequence

from stellwerk.core import moves
from stellwerk.core.entities import Company, Entity, Player, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.events import CompanyBought, ref
from stellwerk.core.flow.base import Action, PlayerStep, Round, act

RULE = "common rules: waterfall private auction (as 1830)"


class WaterfallAuction(PlayerStep):
    """Buy the cheapest private, bid on another, or pass.  When the cheapest is bought, the
    next cheapest is resolved at once: one bid wins it, several bids start an auction among
    those bidders where the lowest bidder must raise or pass.  If everyone passes: while the
    first private is unsold its price drops by 5 (free at 0, forced on the next player);
    otherwise every owned private pays its revenue once."""

    round: Round[Player]
    """An auction round: its entities are the players."""

    description = "Bid on Companies"
    min_increment = 5

    def setup(self) -> None:
        self.bids: dict[Company, list[tuple[Player, int]]] = {}
        self.companies = sorted(self.game.companies, key=lambda c: c.value)
        self.cheapest = self.companies[0] if self.companies else None
        self.auctioning: Company | None = None
        self.bidders: dict[Company, list[Player]] = {}

    # -- who --------------------------------------------------------------------------------
    def _auction_bids(self) -> list[tuple[Player, int]] | None:
        if self.auctioning is None:
            return None
        bids = self.bids.get(self.auctioning, [])
        return bids if len(bids) > 1 else None

    def active_entities(self) -> Sequence[Entity]:
        bids = self._auction_bids()
        if bids:
            return [min(bids, key=lambda b: b[1])[0]]
        return super().active_entities()

    def actions(self, entity: Entity) -> list[str]:
        if not self.companies:
            return []
        bids = self._auction_bids()
        correct = bids is not None and min(bids, key=lambda b: b[1])[0] is entity
        if correct or entity is self.current_entity():
            return ["bid", "pass"]
        return []

    # -- prices -----------------------------------------------------------------------------
    def may_purchase(self, company: Company) -> bool:
        if self._auction_bids():
            return False
        return bool(self.companies) and company is self.companies[0]

    def min_bid(self, company: Company) -> int:
        if self.may_purchase(company):
            return company.min_bid
        bids = self.bids.get(company, [])
        high = max((p for _, p in bids), default=None)
        return (high if high is not None else company.min_bid) + self.min_increment

    def committed(self, player: Player) -> int:
        return sum(p for bids in self.bids.values() for who, p in bids if who is player)

    def current_bid(self, player: Player, company: Company) -> int:
        return next((p for who, p in self.bids.get(company, []) if who is player), 0)

    def max_bid(self, player: Player, company: Company) -> int:
        return player.cash - self.committed(player) + self.current_bid(player, company)

    def choices(self, entity: Entity) -> list[Action]:
        """Buy the cheapest, bid the minimum on another private (or raise in an auction),
        or pass."""
        if not isinstance(entity, Player) or not self.actions(entity):
            return []
        out = [act(entity, "pass")]
        targets = [self.auctioning] if self._auction_bids() else self.companies
        for company in targets:
            if company is None:
                continue
            price = self.min_bid(company)
            if price <= self.max_bid(entity, company):
                out.append(act(entity, "bid", company=company.sym, price=price))
        return out

    def price_space(self, entity: Entity, listed: Action) -> tuple[int, int]:
        """The cheapest private is bought at its current price, no more and no less; a bid
        on another one (or a raise in its auction) is at least the minimum bid and at most
        the bidder's cash less his other open bids (common rules §6.7, waterfall
        auction)."""
        company = self.game.company(str(listed["company"]))
        if self.may_purchase(company) or not isinstance(entity, Player):
            return (company.min_bid, company.min_bid)
        return (self.min_bid(company), self.max_bid(entity, company))

    # -- processing -------------------------------------------------------------------------
    def process_pass(self, action: moves.Pass, entity: Entity) -> None:
        if self._auction_bids():
            assert self.auctioning is not None
            self.bids[self.auctioning] = [
                b for b in self.bids[self.auctioning] if b[0] is not entity
            ]
            self.resolve_bids()
        else:
            if not isinstance(entity, Player):  # ``actions`` offers the pass to players only
                raise TypeError(f"{entity.name} is not a player of the auction")
            entity.passed = True
            if all(p.passed for p in self.round.entities):
                self.all_passed()
            self.round.next_entity_index()

    def process_bid(self, action: moves.Bid, entity: Player) -> None:
        company = self.game.company(str(action.company))
        price = action.price
        if company not in self.companies:
            raise IllegalAction(f"{company.sym} is not for sale", RULE)
        entity.passed = False
        if self._auction_bids():
            # 18xx.games accepts a raise on any private here; only the one up for auction
            # is resolved by it (WaterfallAuction#process_bid).
            self.add_bid(entity, company, price)
        else:
            if self.may_purchase(company):
                self.accept(entity, company, price)
                self.resolve_bids()
            else:
                self.add_bid(entity, company, price)
            self.round.next_entity_index()

    def add_bid(self, player: Player, company: Company, price: int) -> None:
        low = self.min_bid(company)
        if price < low:
            raise IllegalAction(f"minimum bid for {company.sym} is {low}", RULE)
        if price > self.max_bid(player, company):
            raise IllegalAction(
                f"{player.name} can bid at most {self.max_bid(player, company)}", RULE
            )
        bids = [b for b in self.bids.get(company, []) if b[0] is not player]
        bids.append((player, price))
        self.bids[company] = bids
        lst = self.bidders.setdefault(company, [])
        if player not in lst:
            lst.append(player)

    def accept(self, player: Player, company: Company, price: int) -> None:
        self.bids.pop(company, None)
        self.buy_company(player, company, price)

    def buy_company(self, player: Player, company: Company, price: int) -> None:
        if self.max_bid(player, company) < price:
            raise IllegalAction(f"{player.name} cannot spend {price}", RULE)
        company.owner = player
        player.companies.append(company)
        if price > 0:
            transfer(player, self.game.bank, price, RULE)
        self.companies.remove(company)
        self.game.journal.append(CompanyBought(ref(player), company.sym, price))
        self.game.after_buy_company(player, company, price)

    def resolve_bids(self) -> None:
        while self.companies:
            company = self.companies[0]
            self.auctioning = None
            bids = self.bids.get(company, [])
            if len(bids) == 1:
                self.accept(bids[0][0], company, bids[0][1])
                continue
            if len(bids) > 1:
                self.auctioning = company
            break

    def all_passed(self) -> None:
        if self.cheapest in self.companies:
            assert self.cheapest is not None
            self.cheapest.discount += 5
            if self.cheapest.min_bid <= 0:
                self.round.next_entity_index()
                player = self.current_entity()
                assert player is not None  # the round's players: never empty here
                self.buy_company(player, self.cheapest, 0)
                self.resolve_bids()
        else:
            self.game.payout_companies()
        for p in self.round.entities:
            p.passed = False


class CompanyPendingPar(PlayerStep):
    """The buyer of a company that carries a president's certificate sets its par at once.
    A title using this step names the corporation and performs the par (its two hooks)."""

    description = "Choose Corporation Par Value"

    def active(self) -> bool:
        return bool(self.round.state.companies_pending_par)

    def active_entities(self) -> Sequence[Entity]:
        pending = self.round.state.companies_pending_par
        return [pending[0].owner] if pending and pending[0].owner else []

    def actions(self, entity: Entity) -> list[str]:
        return ["par"] if entity is self.current_entity() else []

    def choices(self, entity: Entity) -> list[Action]:
        if not self.actions(entity):
            return []
        company = self.round.state.companies_pending_par[0]
        corp = self.par_corporation(company)
        return [
            act(entity, "par", corporation=corp, share_price=cell.id)
            for cell in self.game.par_cells()
        ]

    def process_par(self, action: moves.Par, entity: Player) -> None:
        company = self.round.state.companies_pending_par[0]
        self.par(entity, company, action)
        self.round.state.companies_pending_par.pop(0)

    def par_corporation(self, company: Company) -> str:
        """Hook: the corporation whose president's certificate comes with ``company``."""
        raise NotImplementedError

    def par(self, player: Player, company: Company, action: moves.Par) -> None:
        """Hook: ``player``, the buyer of ``company``, sets the par named in ``action``."""
        raise NotImplementedError
