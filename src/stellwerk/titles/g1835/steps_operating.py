"""1835 operating rounds (rules/1835.md 8; Rails OperatingRound_1835).

Privates pay, then minors M1..M6, then majors by price (re-sorted after every turn).  A turn:
track (majors two yellow tiles in phase 2, otherwise one lay or upgrade; private abilities),
one token (majors only, 20M per hex from home), run trains, dividends (minors always split),
buy trains (majors must own one; emergency money from the director).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stellwerk.core.entities import Company, Corporation, Player, Train, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, Step, act
from stellwerk.core.flow.operating import DiscardTrain, Track
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.titles.g1835 import bankruptcy
from stellwerk.titles.g1835.bankruptcy import loan_of, repay_loan
from stellwerk.titles.g1835.entities import Minor
from stellwerk.titles.g1835.formation import FormationStep
from stellwerk.titles.g1835.sales import SaleMemory, bundle_of, lower_price, sale_bundles, sell

if TYPE_CHECKING:
    from stellwerk.titles.g1835.game import Game1835

RULE_TRACK = "1835 rules §8.3"
RULE_TRAIN = "1835 rules §8.7"


class OperatingRound1835(OperatingRound):
    """Privates pay, minors operate, then majors by current price (rules/1835.md 8.1)."""

    game: Game1835

    def __init__(self, game: Game1835, round_num: int) -> None:
        super().__init__(
            game,
            [
                DiscardTrain,
                FormationStep,
                Track1835,
                Token1835,
                Route1835,
                Dividend1835,
                BuyTrain1835,
            ],
            round_num,
        )
        self.label = f"OR {game.or_label}"
        self.trigger: Corporation | None = None

    def setup(self) -> None:
        game = self.game
        game.note("or_start", label=self.label)
        game.or_start_worth = {p.name: game.player_value(p) for p in game.players}
        super().setup()

    def next_entity(self) -> None:
        """The majors that have not operated yet are re-sorted by their prices after every
        turn (rules/1835.md 8.1)."""
        if self.entity_index < len(self.entities) - 1:
            self.recalculate_order()
        super().next_entity()

    def start_operating(self) -> None:
        entity = self.entities[self.entity_index]
        if not self.skip_entity(entity):
            self.game.note("operates", corp=entity.sym)
        super().start_operating()


def _director_companies(game: Game1835, corp: Any) -> list[Company]:
    """Private companies whose owner directs the operating company (rules/1835.md 6)."""
    owner = getattr(corp, "owner", None)
    if not isinstance(owner, Player):
        return []
    return [c for c in owner.companies if not c.closed]


def _ability(game: Game1835, company: Company, kind: str) -> dict[str, Any] | None:
    for ability in game.data.private(company.sym).abilities:
        if ability.get("type") == kind:
            return dict(ability)
    return None


class Track1835(Track):
    """Tile lays of the operating company and its director's private companies."""

    game: Game1835
    round: OperatingRound1835
    description = "Lay Track"

    def setup(self) -> None:
        self.lays = 0
        self.relays: list[tuple[str, str]] = []

    def allowed(self, corp: Corporation) -> int:
        """Majors lay two yellow tiles in phase 2; otherwise one lay or upgrade
        (rules/1835.md 8.3)."""
        two = "major_two_yellow_lays" in self.game.phases.current.status
        return 2 if two and not isinstance(corp, Minor) else 1

    def operator(self) -> Any:
        return self.round.current_operator

    def company_actions(self, company: Company) -> list[str]:
        game = self.game
        corp = self.operator()
        if corp is None or company not in _director_companies(game, corp):
            return []
        out = []
        if self.tile_ability_usable(company):
            out.append("lay_tile")
        if token_ability_usable(game, company, corp, "track"):
            out.append("place_token")
        return out

    def tile_ability_usable(self, company: Company) -> bool:
        game = self.game
        ability = _ability(game, company, "tile_lay")
        if ability is None:
            return False
        used = game.ability_uses.get((company.sym, "tile_lay"), [])
        if len(used) >= int(ability.get("count", 1)):
            return False
        if ability.get("one_per_operating_round") and game.or_label in used:
            return False
        return any(game.map.board.hex(h).is_preprinted for h in ability["hexes"])

    def actions(self, entity: Any) -> list[str]:
        if self.relays:
            return ["place_token"] if entity is self.operator() else []
        if isinstance(entity, Company):
            return self.company_actions(entity)
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        if self.lays >= self.allowed(entity):
            return ["pass"] if self.abilities_left(entity) else []
        return ["lay_tile", "pass"]

    def abilities_left(self, corp: Corporation) -> bool:
        """The director's private companies can still lay a tile (the step waits for them)."""
        return any(
            "lay_tile" in self.company_actions(c) for c in _director_companies(self.game, corp)
        )

    def choices(
        self, entity: Any, hex_id: str | None = None, all_lays: bool = False
    ) -> list[Action]:
        kinds = self.actions(entity)
        if not kinds:
            return []
        out: list[Action] = []
        game = self.game
        if self.relays:
            hex_id, sym = self.relays[0]
            board = game.map.board
            for index in game.map.relay_cities(hex_id, sym):
                city = board.city_id(hex_id, index)
                out.append(act(entity, "place_token", city=city, slot=0, tokener=sym))
            return out
        if isinstance(entity, Company):
            corp = self.operator()
            if "lay_tile" in kinds and (hex_id is not None or all_lays):
                ability = _ability(game, entity, "tile_lay") or {}
                for h in ability.get("hexes", []):
                    if hex_id not in (None, h) or not game.map.board.hex(h).is_preprinted:
                        continue
                    colors = tuple(ability.get("colours", ())) or ("yellow", "green")
                    for hid, tile, rot in ability_lays(game, corp, entity, h, colors):
                        out.append(act(entity, "lay_tile", hex=hid, tile=tile, rotation=rot))
            if "place_token" in kinds:
                out.extend(token_ability_choices(game, entity, corp))
            return out
        out.append(act(entity, "pass"))
        if hex_id is not None or all_lays:
            for hid, tile, rot in game.map.legal_lays(entity, hex_id):
                out.append(act(entity, "lay_tile", hex=hid, tile=tile, rotation=rot))
        return out

    def process_lay_tile(self, action: Action, entity: Any) -> None:
        game = self.game
        if isinstance(entity, Company):
            self.ability_lay(action, entity)
            return
        if self.lays >= self.allowed(entity):
            raise IllegalAction(f"{entity.sym} has laid its tiles", RULE_TRACK)
        relaid = game.map.trackless_tokens(action["hex"])
        game.map.lay_tile(entity, action)
        game.note("tile", corp=entity.sym, hex=action["hex"], tile=action["tile"])
        self.lays += 1
        game.after_tile_laid()
        self.ask_relays(action["hex"], relaid)
        self.maybe_done(entity)

    def maybe_done(self, corp: Corporation) -> None:
        if not self.relays and self.lays >= self.allowed(corp) and not self.abilities_left(corp):
            self.pass_()

    def ask_relays(self, hex_id: str, relaid: list[str]) -> None:
        """Tokens that stood on cities without track are relaid by the operating director onto
        a city of the new tile (rules/1835.md 6: BA's home on L6; Rails tile -807)."""
        game = self.game
        for sym in relaid:
            if len(game.map.relay_cities(hex_id, sym)) > 1:
                self.relays.append((hex_id, sym))

    def relay(self, action: Action, corp: Corporation) -> None:
        game = self.game
        hex_id, sym = self.relays[0]
        target, index = game.map.board.resolve_city(str(action.get("city")))
        if target != hex_id or action.get("tokener", sym) != sym:
            raise IllegalAction(f"{sym}'s token on {hex_id} must be relaid first", RULE_TRACK)
        if index not in game.map.relay_cities(hex_id, sym):
            raise IllegalAction(f"{sym}'s token cannot go to that city", RULE_TRACK)
        game.map.relay_token(hex_id, sym, index)
        game.note("relay", corp=sym, hex=hex_id, city=index)
        self.relays.pop(0)
        self.maybe_done(corp)

    def ability_lay(self, action: Action, company: Company) -> None:
        """OBB's free yellow tiles on M15/M17 (one per OR), PfB's free green tile on L6: free,
        no connection needed (rules/1835.md 6)."""
        game = self.game
        corp = self.operator()
        ability = _ability(game, company, "tile_lay")
        if ability is None or not self.tile_ability_usable(company):
            raise IllegalAction(f"{company.sym} cannot lay a tile now", "1835 rules §6")
        hexes = list(ability["hexes"])
        if action["hex"] not in hexes:
            raise IllegalAction(f"{company.sym} lays only on {hexes}", "1835 rules §6")
        tile_name = str(action["tile"]).rpartition("-")[0]
        allowed_tiles = ability.get("tiles")
        if allowed_tiles and tile_name not in allowed_tiles:
            raise IllegalAction(f"{company.sym} lays only {allowed_tiles}", "1835 rules §6")
        colors = tuple(ability.get("colours", ())) or ("yellow", "green")
        relaid = game.map.trackless_tokens(action["hex"])
        game.map.lay_tile(corp, action, free=True, teleport=hexes, colors=colors)
        game.note("tile", corp=corp.sym, hex=action["hex"], tile=action["tile"])
        game.ability_uses.setdefault((company.sym, "tile_lay"), []).append(game.or_label)
        game.after_tile_laid()
        self.ask_relays(action["hex"], relaid)
        self.maybe_done(corp)

    def process_place_token(self, action: Action, entity: Any) -> None:
        if self.relays:
            self.relay(action, entity)
            return
        use_token_ability(self.game, entity, self.operator(), action, "track")


def ability_lays(
    game: Game1835, corp: Corporation, company: Company, hex_id: str, colors: tuple[str, ...]
) -> list[tuple[str, str, int]]:
    from stellwerk.core.map.lay import LayOptions, legal_lays

    opts = game.map.lay_options(corp, [hex_id])
    opts = LayOptions(colors, (), (), [hex_id], False, opts.rules)
    ability = _ability(game, company, "tile_lay") or {}
    tiles = ability.get("tiles")
    out = []
    for tile_id, rot in legal_lays(game.map.board, game.map.graph, corp.sym, hex_id, opts):
        if tiles and tile_id.rpartition("-")[0] not in tiles:
            continue
        out.append((hex_id, tile_id, rot))
    return out


def token_ability_usable(game: Game1835, company: Company, corp: Any, step: str) -> bool:
    """NF's free token on L14, PfB's on L6 once a tile lies there; in the track or token step
    (option: token step only) (rules/1835.md 6)."""
    ability = _ability(game, company, "token")
    if ability is None or company.closed or not isinstance(corp, Corporation):
        return False
    if step not in game.settings.free_token_steps:
        return False
    if game.map.placed_tokens(corp) >= corp.num_tokens:
        return False
    hexes = list(ability["hexes"])
    if ability.get("requires_tile") and all(game.map.board.hex(h).is_preprinted for h in hexes):
        return False
    return bool(game.map.free_token_city(corp, hexes))


def token_ability_choices(game: Game1835, company: Company, corp: Any) -> list[Action]:
    ability = _ability(game, company, "token") or {}
    return [
        act(company, "place_token", city=city, slot=slot)
        for city, slot in game.map.free_token_city(corp, list(ability.get("hexes", [])))
    ]


def use_token_ability(
    game: Game1835, company: Company, corp: Any, action: Action, step: str
) -> None:
    if not token_ability_usable(game, company, corp, step):
        raise IllegalAction(f"{company.sym} cannot place a token now", "1835 rules §6")
    ability = _ability(game, company, "token") or {}
    hex_id = game.map.place_token(corp, action, free_hexes=list(ability["hexes"]))
    game.note("token", corp=corp.sym, hex=hex_id, cost=0)
    if ability.get("closes_company", True):
        game.close_company(company)


class Token1835(Step):
    """One token per turn for majors (minors have only their home token), 20M per hex of
    distance from home (rules/1835.md 8.4)."""

    game: Game1835
    round: OperatingRound1835
    description = "Place a Token"

    def can_place(self, corp: Corporation) -> bool:
        """A major with a token left is asked (the same in live play and replay)."""
        game = self.game
        return not isinstance(corp, Minor) and game.map.placed_tokens(corp) < corp.num_tokens

    def actions(self, entity: Any) -> list[str]:
        if isinstance(entity, Company):
            corp = self.round.current_operator
            ok = corp is not None and entity in _director_companies(self.game, corp)
            return ["place_token"] if ok and token_ability_usable(
                self.game, entity, corp, "token"
            ) else []  # fmt: skip
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        return ["place_token", "pass"] if self.can_place(entity) else []

    def choices(self, entity: Any) -> list[Action]:
        if not self.actions(entity):
            return []
        if isinstance(entity, Company):
            return token_ability_choices(self.game, entity, self.round.current_operator)
        out = [act(entity, "pass")]
        for city, slot, _cost in self.game.map.token_choices(entity):
            out.append(act(entity, "place_token", city=city, slot=slot))
        return out

    def process_place_token(self, action: Action, entity: Any) -> None:
        game = self.game
        if isinstance(entity, Company):
            use_token_ability(game, entity, self.round.current_operator, action, "token")
            return
        if not self.can_place(entity):
            raise IllegalAction(f"{entity.sym} cannot place a token", "1835 rules §8.4")
        hex_id, _ = game.map.board.resolve_city(action["city"])
        cost = game.map.token_cost(entity, hex_id)
        game.map.place_token(entity, action)
        game.note("token", corp=entity.sym, hex=hex_id, cost=cost)
        self.pass_()


class Route1835(Step):
    """Run the trains.  A run is either routes (checked) or, for games imported from Rails
    reports that record only the total, a claimed ``revenue`` that legal routes must be able to
    reach (rules/1835.md 8.5; rails-report-format.md 3.1)."""

    game: Game1835
    round: OperatingRound1835
    description = "Run Routes"

    def round_state(self) -> dict[str, Any]:
        return {"revenue": 0, "routes": []}

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        return ["run_routes"] if entity.trains else []

    def choices(self, entity: Any) -> list[Action]:
        if not self.actions(entity):
            return []
        try:
            best = self.game.map.best_run(entity)
            routes = best.routes
        except IllegalAction:
            routes = []
        return [act(entity, "run_routes", routes=routes, extra_revenue=0)]

    def process_run_routes(self, action: Action, entity: Any) -> None:
        game = self.game
        routes = action.get("routes") or []
        if "revenue" in action and not routes:
            revenue = int(action["revenue"])
            if revenue < 0:
                raise IllegalAction("revenue cannot be negative", "1835 rules §8.5")
            if not game.loading and revenue > 0:
                best = game.map.best_run(entity, node_limit=None).revenue
                if best < revenue:
                    raise IllegalAction(
                        f"{entity.sym}'s best routes earn {best}, not {revenue}",
                        "1835 rules §8.5",
                    )
        else:
            revenue = game.map.route_revenue(entity, routes)
        game.note("revenue", corp=entity.sym, amount=revenue)
        self.round.state["revenue"] = revenue
        self.round.state["routes"] = routes
        self.pass_()


class Dividend1835(Step):
    """Majors pay out or withhold; minors always split (rules/1835.md 8.6, 7)."""

    game: Game1835
    round: OperatingRound1835
    description = "Pay or Withhold Dividends"

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or isinstance(entity, Minor):
            return []
        return ["dividend"] if self.round.revenue > 0 else []

    def kinds(self, entity: Any) -> tuple[str, ...]:
        """A company with a bank loan must withhold (rules/1835.md 8.6, 8.8)."""
        return ("withhold",) if loan_of(entity) else ("payout", "withhold")

    def choices(self, entity: Any) -> list[Action]:
        if not self.actions(entity):
            return []
        return [act(entity, "dividend", kind=k) for k in self.kinds(entity)]

    def skip(self) -> None:
        entity = self.current_entity()
        kind = "payout" if isinstance(entity, Minor) else "withhold"
        self.process_dividend({"type": "dividend", "kind": kind}, entity)

    def process_dividend(self, action: Action, entity: Any) -> None:
        kind = action.get("kind")
        if kind not in ("payout", "withhold"):
            raise IllegalAction(f"unknown dividend kind {kind}", "1835 rules §8.6")
        if not isinstance(entity, Minor) and kind not in self.kinds(entity):
            raise IllegalAction(f"{entity.sym} must withhold to repay its bank loan",
                                "1835 rules §8.8")  # fmt: skip
        game = self.game
        revenue = int(self.round.revenue)
        entity.operating_history.append((game.turn, self.round.round_num))
        for train in entity.trains:
            train.operated = True
        self.round.state["revenue"] = 0
        self.round.state["routes"] = []
        game.note("dividend", corp=entity.sym, allocation=kind, revenue=revenue)
        game.pay_dividend(entity, revenue, kind)
        if kind == "withhold" and loan_of(entity):
            repay_loan(game, entity, revenue)
        self.pass_()


class BuyTrain1835(Step):
    """Buy trains: new from the bank (the current type), used from the pool, and from phase 3
    on from other companies at any price of at least 1M.  A major without a train must buy one;
    its director adds the missing money and may have to sell shares first
    (rules/1835.md 8.7-8.8)."""

    game: Game1835
    round: OperatingRound1835
    description = "Buy Trains"

    def setup(self) -> None:
        self.memory = SaleMemory()

    def room(self, corp: Corporation) -> bool:
        return len(corp.trains) < self.game.train_limit(corp)

    def must_buy(self, corp: Corporation) -> bool:
        return (
            not isinstance(corp, Minor)
            and not corp.trains
            and bool(self.game.depot.depot_trains(self.game.phases))
        )

    def from_others(self) -> bool:
        return "trains_between_companies" in self.game.phases.current.status

    def other_trains(self, corp: Corporation) -> list[Train]:
        if not self.from_others():
            return []
        return [
            t
            for c in self.game.corporations
            if c is not corp and c.floated and not c.closed
            for t in c.trains
        ]

    def depot_trains(self) -> list[Train]:
        return self.game.depot.depot_trains(self.game.phases)

    def budget(self, corp: Corporation) -> int:
        owner = corp.owner
        if self.must_buy(corp) and isinstance(owner, Player):
            return corp.cash + owner.cash
        return corp.cash

    def needs_money(self, corp: Corporation) -> bool:
        prices = [t.price for t in self.depot_trains()]
        return self.must_buy(corp) and bool(prices) and self.budget(corp) < max(prices)

    def can_buy(self, corp: Corporation) -> bool:
        if not self.room(corp):
            return False
        prices = [t.price for t in self.depot_trains()]
        if self.other_trains(corp) and corp.cash >= 1:
            return True
        return bool(prices) and min(prices) <= self.budget(corp)

    def actions(self, entity: Any) -> list[str]:
        corp = self.current_entity()
        if not isinstance(corp, Corporation):
            return []
        if isinstance(entity, Player):
            if entity is corp.owner and self.needs_money(corp):
                out = ["sell_shares"]
                if self.memory.adjustable is not None:
                    out.append("choose")
                return out
            return []
        if entity is not corp:
            return []
        if self.must_buy(corp):
            return ["buy_train", "bankrupt"] if self.bankruptcy_due(corp) else ["buy_train"]
        if self.can_buy(corp):
            return ["buy_train", "pass"]
        return []

    def choices(self, entity: Any) -> list[Action]:
        kinds = self.actions(entity)
        if not kinds:
            return []
        game = self.game
        corp = self.current_entity()
        out: list[Action] = []
        if isinstance(entity, Player):
            for c in game.majors():
                if entity.shares_of(c.sym):
                    for b in sale_bundles(game, entity, c):
                        if self.emergency_sale_error(entity, b) is None:
                            shares = [s.id for s in b.shares]
                            out.append(act(entity, "sell_shares", shares=shares, percent=b.percent))
            if "choose" in kinds:
                out.append(act(entity, "choose", choice="lower_price"))
            return out
        if "pass" in kinds:
            out.append(act(entity, "pass"))
        if "bankrupt" in kinds:
            out.append(act(entity, "bankrupt"))
        seen: set[tuple[str, int]] = set()
        for train in self.depot_trains():
            if train.price <= self.budget(corp) and (train.name, 0) not in seen:
                seen.add((train.name, 0))
                out.append(act(entity, "buy_train", train=train.id, price=train.price))
        if self.budget(corp) >= 1:
            for train in self.other_trains(corp):
                key = (train.name, id(train.owner))
                if key not in seen:
                    seen.add(key)
                    out.append(act(entity, "buy_train", train=train.id, price=1))
        if not out or (self.must_buy(corp) and len(out) == 0):
            out += self.choices(corp.owner) if corp.owner is not None else []
        return out

    # -- emergency selling (rules/1835.md 8.8) ------------------------------------------------
    def emergency_sale_error(self, player: Player, bundle: Any) -> str | None:
        corp = self.current_entity()
        prices = [t.price for t in self.depot_trains()]
        missing = max(prices, default=0) - corp.cash - player.cash
        if missing <= 0:
            return "no money is missing"
        sold = bundle.corporation
        if sold is corp:
            holders = [p.percent_of(corp.sym) for p in self.game.players if p is not player]
            if player.percent_of(corp.sym) - bundle.percent < max(holders, default=0):
                return "the director may not lose the buying company"
        return None

    def process_sell_shares(self, action: Action, entity: Any) -> None:
        if "sell_shares" not in self.actions(entity):
            raise IllegalAction(f"{entity.name} need not sell now", "1835 rules §8.8")
        bundle = bundle_of(self.game, action)
        error = self.emergency_sale_error(entity, bundle)
        if error:
            raise IllegalAction(error, "1835 rules §8.8")
        sell(self.game, entity, bundle, self.memory)

    def bankruptcy_due(self, corp: Corporation) -> bool:
        """The director cannot raise the price of the cheapest bank train even after selling
        everything he may sell, and no other company's train is within reach
        (rules/1835.md 8.8)."""
        owner = corp.owner
        if not self.must_buy(corp) or not isinstance(owner, Player):
            return False
        budget = self.budget(corp)
        prices = [t.price for t in self.depot_trains()]
        if min(prices) <= budget or (self.other_trains(corp) and budget >= 1):
            return False
        for c in self.game.majors():
            if owner.shares_of(c.sym):
                for bundle in sale_bundles(self.game, owner, c):
                    if self.emergency_sale_error(owner, bundle) is None:
                        return False
        return True

    def process_bankrupt(self, action: Action, entity: Any) -> None:
        """The director goes bankrupt; with a forced new director the bank lends the company
        the rest of the cheapest bank train's price (rules/1835.md 8.8)."""
        if not isinstance(entity, Corporation) or not self.bankruptcy_due(entity):
            raise IllegalAction("bankruptcy only when no train can be paid for", "1835 rules §8.8")
        train = bankruptcy.declare(self.game, entity)
        self.memory = SaleMemory()
        if train is not None:
            self.complete_purchase(entity, train, train.price)
            self.pass_()

    def process_choose(self, action: Action, entity: Any) -> None:
        lower_price(self.game, self.memory, action.get("corporation"))

    def process_pass(self, action: Action, entity: Any) -> None:
        if self.must_buy(entity):
            raise IllegalAction(f"{entity.sym} must buy a train", RULE_TRAIN)
        self.pass_()

    def process_buy_train(self, action: Action, entity: Any) -> None:
        game = self.game
        corp = entity
        train = game.train_by_id(str(action["train"]))
        price = int(action.get("price", train.price))
        owner = train.owner
        if owner is corp:
            raise IllegalAction("a company cannot buy its own train", RULE_TRAIN)
        if not self.room(corp):
            raise IllegalAction(f"{corp.sym} is at its train limit", RULE_TRAIN)
        if owner is game.depot:
            if train not in self.depot_trains() and not any(
                t.name == train.name and t.owner is game.depot for t in self.depot_trains()
            ):
                raise IllegalAction(f"{train.name} is not for sale yet", RULE_TRAIN)
            if price != train.price:
                raise IllegalAction(f"{train.name} costs {train.price}", RULE_TRAIN)
        else:
            if train not in self.other_trains(corp):
                raise IllegalAction("trains change hands between companies only from phase 3",
                                    RULE_TRAIN)  # fmt: skip
            if price < 1:
                raise IllegalAction("a train costs at least 1M", RULE_TRAIN)
        missing = price - corp.cash
        if missing > 0:
            president = corp.owner
            if not self.must_buy(corp) or not isinstance(president, Player):
                raise IllegalAction(f"{corp.sym} cannot pay {price}", RULE_TRAIN)
            if president.cash < missing:
                raise IllegalAction(
                    f"{president.name} must first raise {missing - president.cash}",
                    "1835 rules §8.8",
                )
            transfer(president, corp, missing, "1835 rules §8.8")
            game.note("president_adds", corp=corp.sym, amount=missing)
        self.complete_purchase(corp, train, price)
        if not self.can_buy(corp) and not self.must_buy(corp):
            self.pass_()

    def complete_purchase(self, corp: Corporation, train: Train, price: int) -> None:
        """Pay, take the train, and hold a formation round if the purchase calls one
        (rules/1835.md 8.7, 10.1)."""
        game = self.game
        seller = train.owner.sym if isinstance(train.owner, Corporation) else (
            "Pool" if train in game.depot.discarded else "IPO")  # fmt: skip
        phase = game.phases.name
        game.buy_train(corp, train, price)
        game.note("train", corp=corp.sym, train=train.name, seller=seller, price=price)
        self.memory = SaleMemory()
        if game.formation_trigger(train, game.phases.name != phase):
            self.round.trigger = corp
            game.start_formation(interrupting=True)
