"""Operating-round steps: track, token, routes, dividends, trains, companies, issuing,
bankruptcy (common rules §6.1–6.4, 6.7).  Map work is delegated to the game's map hooks."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from mypy_extensions import mypyc_attr

from stellwerk.core import moves
from stellwerk.core.entities import Company, Corporation, Entity, Player, Train, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.events import DividendPaid, RoutesRun
from stellwerk.core.flow.base import Action, CorporationStep, StepOption, act, remembered
from stellwerk.core.flow.stock import _share_action, bundle_from_action, sale_choices
from stellwerk.core.shares import Bundle, can_dump, keeps_presidency, more_than_needed

if TYPE_CHECKING:
    from stellwerk.core.flow.base import Round
    from stellwerk.core.flow.rounds import OperatingRound
    from stellwerk.core.game import Game


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Track(CorporationStep):
    """The turn's tile lays: the title's allowance, generically one lay or upgrade (common
    rules §6.3)."""

    description = "Lay/Upgrade Track"

    def setup(self) -> None:
        self.lays = 0

    def lays_allowed(self, corp: Corporation) -> int:
        """Hook: the tile lays ``corp`` may make this turn (common rules §6.3: one)."""
        return 1

    def actions(self, entity: Entity) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        return ["lay_tile", "pass"] if self.game.can_lay_tile(entity) else []

    def choices(
        self, entity: Entity, hex_id: str | None = None, all_lays: bool = False
    ) -> list[Action]:
        """Pass, and the legal lays on ``hex_id`` (or on every hex with ``all_lays``)."""
        if not isinstance(entity, Corporation) or not self.actions(entity):
            return []
        out = [act(entity, "pass")]
        if hex_id is not None or all_lays:
            for hid, tile_id, rotation in self.game.legal_lays(entity, hex_id):
                out.append(act(entity, "lay_tile", hex=hid, tile=tile_id, rotation=rotation))
        return out

    def lay_hexes(self, entity: Entity) -> list[str]:
        """Hexes where ``choices(entity, hex_id)`` may list lays (a superset, found without
        checking lays: the random driver asks them one by one instead of listing every lay)."""
        if not isinstance(entity, Corporation) or "lay_tile" not in self.actions(entity):
            return []
        return self.game.lay_hexes(entity)

    def lay_offered(self, entity: Entity, hex_id: str, tile_id: str, rotation: int) -> bool:
        """Whether ``choices(entity, hex_id)`` lists this lay (asked for one lay: cheap)."""
        if not isinstance(entity, Corporation) or "lay_tile" not in self.actions(entity):
            return False
        return self.game.lay_is_legal(entity, hex_id, tile_id, rotation)

    def process_lay_tile(self, action: moves.LayTile, entity: Corporation) -> None:
        self.game.lay_tile(entity, action)
        self.lays += 1
        if self.lays >= self.lays_allowed(entity):
            self.pass_()


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Token(CorporationStep):
    """One station token per turn in a reachable city with a free slot (§6.4)."""

    description = "Place a Token"

    def actions(self, entity: Entity) -> list[str]:
        corp = self.current_entity()
        if corp is None or entity is not corp:
            return []
        return ["place_token", "pass"] if self.game.can_place_token(corp) else []

    def choices(self, entity: Entity) -> list[Action]:
        if not isinstance(entity, Corporation) or not self.actions(entity):
            return []
        out = [act(entity, "pass")]
        for city, slot in self.game.token_choices(entity):
            out.append(act(entity, "place_token", city=city, slot=slot))
        return out

    def process_place_token(self, action: moves.PlaceToken, entity: Corporation) -> None:
        self.game.place_token(entity, action)
        self.pass_()


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Route(CorporationStep):
    """Run the corporation's trains (common rules §6.1)."""

    description = "Run Routes"

    def actions(self, entity: Entity) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        if not entity.trains or not self.game.route_info(entity)[0]:
            return []
        return ["run_routes"]

    def choices(self, entity: Entity) -> list[Action]:
        if not isinstance(entity, Corporation) or not self.actions(entity):
            return []
        routes = self.game.suggest_routes(entity)
        return [act(entity, "run_routes", routes=routes, extra_revenue=0)]

    def process_run_routes(self, action: moves.RunRoutes, entity: Corporation) -> None:
        revenue = self.revenue(action, entity)
        self.round.state.revenue = revenue
        trains = tuple(route.train for route in action.routes)
        self.game.journal.append(RoutesRun(entity.sym, revenue, trains))
        self.pass_()

    def revenue(self, action: moves.RunRoutes, entity: Corporation) -> int:
        """Hook: the run's revenue: the routes checked, each of the corporation's own trains
        at most once per operating round, plus extra revenue (common rules §6.1).  The route
        model reads a route as 18xx.games writes it (``RouteView``)."""
        seen: set[str] = set()
        for route in action.routes:
            train = self.game.train_by_id(route.train)
            if train.owner is not entity:
                raise IllegalAction(f"{train.id} is not {entity.sym}'s train", "common rules §6.1")
            if train.id in seen:
                raise IllegalAction(f"{train.id} cannot run twice", "common rules §6.1")
            if train.operated:
                raise IllegalAction(f"{train.id} already ran", "common rules §6.1")
            seen.add(train.id)
        revenue = self.game.route_revenue(entity, moves.route_views(action.routes))
        return revenue + (action.extra_revenue or 0)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Dividend(CorporationStep):
    """Pay out or withhold the run's revenue (the game's ``pay_dividend``, price moves
    included); without revenue the corporation is not asked (common rules §6.1)."""

    description = "Pay or Withhold Dividends"
    rule: ClassVar[str] = "common rules §6.1"

    def actions(self, entity: Entity) -> list[str]:
        if entity is not self.current_entity() or self.round.state.revenue == 0:
            return []
        return ["dividend"]

    def kinds(self, entity: Corporation) -> tuple[str, ...]:
        """Hook: the allocations the corporation may choose (common rules §6.1: pay out or
        withhold)."""
        return ("payout", "withhold")

    def automatic_kind(self, entity: Corporation) -> str:
        """Hook: the allocation of a corporation that is not asked (common rules §6.1: no
        revenue is withheld)."""
        return "withhold"

    def choices(self, entity: Entity) -> list[Action]:
        if not isinstance(entity, Corporation) or not self.actions(entity):
            return []
        return [act(entity, "dividend", kind=k) for k in self.kinds(entity)]

    def skip(self) -> None:
        entity = self.current_entity()
        if entity is None:
            raise TypeError("a dividend step is skipped with no corporation operating")
        self.process_dividend(
            moves.Dividend(
                entity=entity.sym, entity_type="corporation", kind=self.automatic_kind(entity)
            ),
            entity,
        )

    def process_dividend(self, action: moves.Dividend, entity: Corporation) -> None:
        kind = action.kind
        if kind not in ("payout", "withhold"):
            raise IllegalAction(f"unknown dividend kind {kind}", self.rule)
        if kind not in self.kinds(entity):
            raise IllegalAction(f"{entity.sym} may not {kind} now", self.rule)
        game = self.game
        revenue = int(self.round.state.revenue)
        entity.operating_history.append((game.turn, self.round.round_num))
        for train in entity.trains:
            train.operated = True
        self.round.state.revenue = 0
        per_share = revenue // entity.total_shares if kind == "payout" else 0
        game.journal.append(DividendPaid(entity.sym, revenue, kind, per_share))
        game.pay_dividend(entity, revenue, kind)
        self.pass_()


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class DiscardTrain(CorporationStep):
    """A corporation over its train limit discards to the depot."""

    description = "Discard Trains"

    def active(self) -> bool:
        """Some corporation is over its train limit (remembered for the state: every routing
        and skip asks every step whether it is active)."""
        found: bool = remembered(self, "active", self.game.has_crowded_corps)
        return found

    def active_entities(self) -> list[Corporation]:
        return self.game.crowded_corps()[:1]

    def actions(self, entity: Entity) -> list[str]:
        return ["discard_train"] if entity in self.game.crowded_corps() else []

    def choices(self, entity: Entity) -> list[Action]:
        if not isinstance(entity, Corporation) or not self.actions(entity):
            return []
        names: set[str] = set()
        out = []
        for train in entity.trains:
            if train.name not in names:
                names.add(train.name)
                out.append(act(entity, "discard_train", train=train.id))
        return out

    def process_discard_train(self, action: moves.DiscardTrain, entity: Corporation) -> None:
        train = self.game.train_by_id(action.train)
        if train.owner is not entity:
            raise IllegalAction(f"{train.id} is not {entity.sym}'s", "train limit")
        self.game.reclaim_train(train)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class BuyCompany(CorporationStep):
    """Corporations buy private companies from players when the phase allows."""

    description = "Buy Companies"

    def __init__(self, game: Game, round_: Round[Entity], **opts: StepOption) -> None:
        super().__init__(game, round_, **opts)
        self.blocks = bool(opts.get("blocks", False))

    def can_buy_company(self, entity: Corporation) -> bool:
        companies = self.game.purchasable_companies(entity)
        return (
            entity is self.current_entity()
            and self.game.phases.has_status("can_buy_companies")
            and bool(companies)
            and min(c.min_price for c in companies) <= entity.cash
        )

    def actions(self, entity: Entity) -> list[str]:
        if not isinstance(entity, Corporation):
            return []
        if self.can_buy_company(entity):
            return ["buy_company", "pass"] if self.blocks else ["buy_company"]
        if self.blocks and self.game.has_usable_company_ability(entity):
            return ["pass"]
        return []

    def choices(self, entity: Entity) -> list[Action]:
        if not isinstance(entity, Corporation):
            return []
        kinds = self.actions(entity)
        out = [act(entity, "pass")] if "pass" in kinds else []
        if "buy_company" in kinds:
            for company in self.game.purchasable_companies(entity):
                for price in sorted({company.min_price, min(company.max_price(), entity.cash)}):
                    if company.min_price <= price <= entity.cash:
                        out.append(act(entity, "buy_company", company=company.sym, price=price))
        return out

    def price_space(self, entity: Entity, listed: Action) -> tuple[int, int]:
        """A private changes hands for any price between its minimum and maximum that the
        buying corporation can pay (common rules §6.7)."""
        if not isinstance(entity, Corporation):
            return super().price_space(entity, listed)
        company: Company = self.game.company(str(listed["company"]))
        return (company.min_price, min(company.max_price(), entity.cash))

    def process_buy_company(self, action: moves.BuyCompany, entity: Corporation) -> None:
        company: Company = self.game.company(action.company)
        price = int(action.price)
        owner = company.owner
        if company not in self.game.purchasable_companies(entity):
            raise IllegalAction(f"{company.sym} cannot be bought now", "common rules §6.7")
        low, high = company.min_price, company.max_price()
        if not low <= price <= high:
            raise IllegalAction(f"price must be between {low} and {high}", "common rules §6.7")
        transfer(entity, owner if owner is not None else self.game.bank, price, "common rules §6.7")
        if owner is not None:
            owner.companies.remove(company)
        company.owner = entity
        entity.companies.append(company)
        self.game.after_company_sold(entity, company)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class IssueShares(CorporationStep):
    """Issue treasury shares to the pool or redeem one (title decides what is allowed)."""

    description = "Issue or Redeem Shares"

    def actions(self, entity: Entity) -> list[str]:
        if not isinstance(entity, Corporation) or entity is not self.current_entity():
            return []
        out = []
        if self.game.can_redeem(entity):
            out.append("buy_shares")
        if self.game.can_issue(entity):
            out.append("sell_shares")
        if out:
            out.append("pass")
        return out

    def choices(self, entity: Entity) -> list[Action]:
        if not isinstance(entity, Corporation) or not self.actions(entity):
            return []
        out = [act(entity, "pass")]
        out += [_share_action(entity, "sell_shares", b) for b in self.game.issuable_bundles(entity)]
        out += [
            _share_action(entity, "buy_shares", b) for b in self.game.redeemable_bundles(entity)
        ]
        return out

    def process_sell_shares(self, action: moves.SellShares, entity: Corporation) -> None:
        bundle = bundle_from_action(self.game, action)
        if not self.game.issuable_like(entity, bundle):
            raise IllegalAction("these shares cannot be issued", "title rules: issuing shares")
        self.game.sell_shares_and_change_price(bundle)
        self.pass_()

    def process_buy_shares(self, action: moves.BuyShares, entity: Corporation) -> None:
        bundle = bundle_from_action(self.game, action)
        if not self.game.redeemable_like(entity, bundle):
            raise IllegalAction("these shares cannot be redeemed", "title rules: redeeming shares")
        self.game.buy_shares(entity, bundle)
        self.pass_()


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class BuyTrain(CorporationStep):
    """Buy trains from the depot or other corporations; emergency purchase with the
    president's money and share sales when the corporation must buy (common rules §6)."""

    description = "Buy Trains"

    def setup(self) -> None:
        self.last_share_sold_price: int | None = None

    def pass_(self) -> None:
        self.last_share_sold_price = None
        super().pass_()

    # -- predicates -------------------------------------------------------------------------
    def room(self, corp: Corporation) -> bool:
        return len(corp.trains) < self.game.train_limit(corp)

    def must_buy(self, corp: Corporation) -> bool:
        return bool(self.game.must_buy_train_now(corp))

    def can_buy_train(self, corp: Corporation) -> bool:
        """Room for a train and cash for the cheapest train on offer anywhere: any depot train
        for sale, or 1 for another corporation's train."""
        if not self.room(corp):
            return False
        others = self.others_offer_trains(corp)
        if others and corp.cash >= 1:
            return True  # the cheapest price on offer is at most 1
        game = self.game
        prices = [t.price for t in game.depot.depot_trains(game.phases)]
        if others:
            prices.append(1)
        return bool(prices) and corp.cash >= min(prices)

    def others_offer_trains(self, corp: Corporation) -> bool:
        """Hook: another corporation has a train ``corp`` may be offered (common rules §6:
        any other corporation's train; 18xx.games asks this of every train for sale, even one
        the corporation may not buy; the step then waits for a pass)."""
        for other in self.game.corporations:  # noqa: SIM110 (a loop: asked of every train for sale)
            if other.trains and other is not corp:
                return True
        return False

    def budget(self, corp: Corporation) -> int:
        """Hook: the most ``corp`` may pay for another corporation's train (common rules §6:
        its own cash)."""
        return int(corp.cash)

    def may_buy(self, corp: Corporation, train: Train) -> bool:
        """Hook: ``corp`` may buy ``train`` now (common rules §6: what ``buyable_trains``
        lists)."""
        return train in self.buyable_trains(corp)

    def president_may_help(self, corp: Corporation, train: Train) -> bool:
        """Hook: the president adds the missing money for ``train`` when ``corp`` must buy one
        (common rules §6, emergency purchase: the cheapest depot train only)."""
        cheapest = self.game.min_depot_train(corp)
        return cheapest is None or train.name == cheapest.name

    def paying_player(self, corp: Corporation) -> Player | None:
        """The player who adds money and sells shares when ``corp`` must buy a train: the
        player who controls it (its president, or the player at the end of its chain of
        control when a corporation presides, ``Game.controller``; common rules §6,
        emergency train purchase).  None for a corporation nobody controls."""
        return self.game.controller(corp)

    def actions(self, entity: Entity) -> list[str]:
        current = self.current_entity()
        if current is None:
            return []
        if isinstance(entity, Player):
            return ["sell_shares"] if entity is self.paying_player(current) else []
        if entity is not current:
            return []
        if self.must_buy(entity):
            return ["sell_shares", "buy_train"]
        if self.can_buy_train(entity):
            return ["buy_train", "pass"]
        return []

    def needed_cash(self) -> int:
        return self.game.min_depot_price(self.current_entity())

    def buyable_trains(self, corp: Corporation) -> list[Train]:
        depot = self.game.depot_trains_for(corp)
        others = list(self.game.other_trains(corp))
        if corp.cash < self.game.min_depot_price(corp):
            cheapest = self.game.min_depot_train(corp)
            depot = [cheapest] if cheapest else []
            if self.last_share_sold_price is not None:
                others = []
        if corp.cash == 0:
            others = []
        return depot + others

    def choices(self, entity: Entity) -> list[Action]:
        kinds = self.actions(entity)
        corp = self.current_entity()
        if not kinds or corp is None:
            return []
        game = self.game
        out: list[Action] = []
        if isinstance(entity, Player):
            return sale_choices(game, entity, self.can_sell)
        if "pass" in kinds:
            out.append(act(entity, "pass"))
        if "buy_train" in kinds and self.room(corp):
            must = self.must_buy(corp)
            seen: set[tuple[str, int]] = set()
            for train in self.buyable_trains(corp):
                owner = train.owner
                key = (train.name, id(owner))
                if key in seen:
                    continue
                seen.add(key)
                if owner is game.depot:
                    cheapest = game.min_depot_train(corp)
                    helped = must and cheapest is not None and train.name == cheapest.name
                    payer = self.paying_player(corp) if helped else None
                    budget = corp.cash + (payer.cash if payer is not None else 0)
                    if train.price <= budget:
                        out.append(act(entity, "buy_train", train=train.id, price=train.price))
                elif corp.cash >= 1:
                    for price in sorted({1, min(train.price, self.budget(corp))}):
                        out.append(act(entity, "buy_train", train=train.id, price=price))
        payer = self.paying_player(corp)
        if "sell_shares" in kinds and payer is not None:
            out += self.choices(payer)
        return out

    def price_space(self, entity: Entity, listed: Action) -> tuple[int, int]:
        """Depot trains cost their printed price; a train from another corporation any
        price from 1 to the buyer's cash (common rules §6, train purchase)."""
        train = self.game.train_by_id(str(listed["train"]))
        if train.owner is self.game.depot or not isinstance(entity, Corporation):
            return (train.price, train.price)
        return (1, self.budget(entity))

    # -- processing -------------------------------------------------------------------------
    def process_buy_train(self, action: moves.BuyTrain, entity: Corporation) -> None:
        game = self.game
        train = game.train_by_id(action.train)
        price = action.price
        if train.owner is entity:
            raise IllegalAction("a corporation cannot buy its own train", "common rules §6")
        if not self.may_buy(entity, train):
            raise IllegalAction(
                f"{train.id} cannot be bought now", "common rules §6 (train purchase)"
            )
        from_depot = train.owner is game.depot
        if from_depot and price != train.price:
            raise IllegalAction(
                f"{train.name} costs {train.price} from the depot", "common rules §6"
            )
        if not from_depot:
            low, high = 1, self.budget(entity)
            if not low <= price <= high:
                raise IllegalAction(f"price must be between {low} and {high}", "common rules §6")
        if not self.room(entity):
            raise IllegalAction(f"{entity.sym} is at its train limit", "train limit")
        remaining = price - entity.cash
        if remaining > 0:
            self.president_adds(entity, train, remaining)
        self.complete_purchase(entity, train, price)
        if not self.can_buy_train(entity):
            self.pass_()

    def president_adds(self, corp: Corporation, train: Train, amount: int) -> None:
        """The president pays what the corporation lacks for ``train`` when it must buy one
        (common rules §6, emergency train purchase)."""
        rule = "common rules §6 (emergency train purchase)"
        if not self.must_buy(corp):
            raise IllegalAction(f"{corp.sym} cannot afford {amount + corp.cash}", rule)
        if not self.president_may_help(corp, train):
            raise IllegalAction(f"the president does not help to buy {train.name}", rule)
        president = self.paying_player(corp)
        if president is None or president.cash < amount:
            name = president.name if president is not None else "nobody"
            raise IllegalAction(f"{name} cannot contribute {amount}", rule)
        transfer(president, corp, amount, rule)

    def complete_purchase(self, corp: Corporation, train: Train, price: int) -> None:
        """Hook: pay for ``train`` and take it (the game's ``buy_train``, common rules §6)."""
        self.game.buy_train(corp, train, price)

    def process_sell_shares(self, action: moves.SellShares, entity: Player | Corporation) -> None:
        bundle = bundle_from_action(self.game, action)
        if not self.can_sell(entity, bundle):
            raise IllegalAction(
                f"{entity.name} may not sell these shares now", "common rules §6 (emergency sale)"
            )
        corp = bundle.corporation
        before = corp.share_price
        if entity is not self.current_entity():
            self.last_share_sold_price = bundle.price_per_share()
        self.game.sell_shares_and_change_price(bundle)
        # an operating round's step (a cast, not a narrowed ``round``: rule 3)
        cast("OperatingRound", self.round).recalculate_order()
        self.game.after_player_sale(corp, before)

    def can_sell(self, player: Player | Corporation, bundle: Bundle) -> bool:
        game = self.game
        corp = bundle.corporation
        if not game.may_sell(player, bundle):
            return False
        if not game.emergency_sale_timing_ok(self.round, corp):
            return False
        if not can_dump(bundle, player, game) or not game.fits_in_pool(bundle):
            return False
        president_of_buyer = corp.owner is player and corp is self.current_entity()
        if president_of_buyer and not keeps_presidency(bundle, player, game):
            return False
        buyer = self.current_entity()
        if buyer is None:
            return False  # nobody buys a train: no emergency sale
        needed = self.needed_cash() - (player.cash + buyer.cash)
        return not more_than_needed(bundle, needed)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Bankrupt(CorporationStep):
    """The operating corporation's president declares bankruptcy (title procedure)."""

    description = "Bankrupt"
    BLOCKS = False

    def actions(self, entity: Entity) -> list[str]:
        return ["bankrupt"] if entity is self.current_entity() else []

    def choices(self, entity: Entity) -> list[Action]:
        game = self.game
        if not isinstance(entity, Corporation) or not self.actions(entity):
            return []
        if not (game.must_buy_train_now(entity) or entity.cash < 0):
            return []
        try:
            allowed = game.can_go_bankrupt(entity, self.round)
        except IllegalAction:
            allowed = False
        return [act(entity, "bankrupt")] if allowed else []

    def process_bankrupt(self, action: moves.Bankrupt, entity: Corporation) -> None:
        self.game.bankrupt(entity, self.round)
