"""1835: the title's rules on top of the generic game (rules/1835.md).

Only what differs from the core lives here and in the step modules; each method's docstring
cites the rule.  Where Rails and 18xx.games differ we follow the printed rules as Rails plays
them (rules/1835.md 13) and name the other in the docstring.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from stellwerk.core import moves
from stellwerk.core.entities import (
    Company,
    Corporation,
    Entity,
    Holder,
    Player,
    Share,
    Train,
    transfer,
)
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Round
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.core.game import Game
from stellwerk.core.market import Market
from stellwerk.core.routes.model import RouteData, RouteSearch, RouteView
from stellwerk.core.routes.optimize import BestRun
from stellwerk.core.shares import Bundle, ChangePresident
from stellwerk.core.trains import Depot, PhaseDef, Phases
from stellwerk.titles.g1835 import (
    bankruptcy,
    capital,
    certificates,
    payouts,
    rolling_stock,
    sequence,
)
from stellwerk.titles.g1835.data_load import StartOrder, cell_name, cell_position, title_data
from stellwerk.titles.g1835.entities import Corporation1835, Minor, Paper, StartItem
from stellwerk.titles.g1835.names import PR
from stellwerk.titles.g1835.options import DECLARED

Note = dict[str, str | int]
"""What happened, as a Rails report tells it: ``kind`` and the names and amounts involved
(``Game1835.note``)."""

if TYPE_CHECKING:
    from stellwerk.titles.g1835.formation import Formation


class Game1835(Game):
    """1835 (Hans im Glück), as Rails plays it."""

    title = "1835"
    sell_movement = "down_block"
    game_end_check: ClassVar[dict[str, str]] = {"bank": "current_or", "bankrupt": "immediate"}
    bankruptcy_ends_game_after = "all_but_one"
    live_rules: ClassVar[dict[str, str]] = {
        "bid": "1835 rules §3.1-3.2",
        "par": "1835 rules §5.2",
        "buy_shares": "1835 rules §5.2",
        "sell_shares": "1835 rules §5.3",
        "lay_tile": "1835 rules §8.3",
        "place_token": "1835 rules §8.4",
        "run_routes": "1835 rules §8.5",
        "dividend": "1835 rules §8.6",
        "buy_train": "1835 rules §8.7",
    }
    """Rules a live refusal names per action type (``stellwerk.core.live``)."""

    def __init__(self, players: list[tuple[int | str, str]], options: list[str], seed: int) -> None:
        super().__init__(players, options, seed)
        self.max_holding_percent = 100
        """No per-company holding limit: a player may hold 100 % (rules/1835.md 1; set here,
        not in the class body: a compiled core reads the instance's value)."""
        self.settings = DECLARED.settings(self.options, len(self.players))
        """The hooks and data the chosen options select (``settings.py``)."""
        data = title_data()
        self.data = data
        n = len(self.players)
        if not data.players[0] <= n <= data.players[1]:
            raise IllegalAction(f"1835 is for 3 to 7 players, not {n}", "1835 rules §1")
        self.bank.cash = data.bank
        for player in self.players:
            transfer(self.bank, player, data.starting_cash[n])
        self.market = Market([list(r) for r in data.market])
        self.phases = Phases(
            [
                PhaseDef(
                    p.name,
                    list(p.tiles),
                    p.operating_rounds,
                    p.train_limit["major"],
                    list(p.status),
                    p.name,
                )
                for p in data.phases
            ]
        )
        self.phase_limits = {p.name: dict(p.train_limit) for p in data.phases}
        self.operating_rounds = self.phases.current.operating_rounds
        trains: list[Train] = []
        for t in data.trains:
            for i in range(t.count):
                trains.append(Train(t.name, i, t.distance, t.price, t.rusts_on, None, []))
        self.depot = Depot(trains)
        self.train_events = {t.name: list(t.events) for t in data.trains}
        for pc in data.privates:
            revenue = pc.revenue
            if pc.sym == "LD" and self.settings.ld_revenue is not None:
                revenue = self.settings.ld_revenue
            self.companies.append(Company(pc.sym, pc.name, pc.value, revenue))
        from stellwerk.titles.g1835.mapport import MapPort

        self.map: MapPort = MapPort(self, self.settings.tile_supply)
        self.memo_cache = self.map.graph
        self.route_rules = self.map.route_rules
        """The route hooks (rules/1835.md 8.5) where front ends look for them."""
        self.minors_list: list[Minor] = []
        for m in data.minors:
            minor = Minor(m.sym, m.name, m.price, m.home, m.city)
            self.minors_list.append(minor)
            self.corporations.append(minor)
        self.home_city: dict[str, tuple[str, int]] = {}
        for c in data.majors:
            float_pct = c.float_percent
            if c.sym == "BY" and self.settings.by_float_percent is not None:
                float_pct = self.settings.by_float_percent
            corp = Corporation1835(
                c.sym, c.name, list(c.shares), c.tokens, float_pct, c.home, list(c.reserved)
            )
            corp.par_price = self.market.cell(cell_position(c.start_cell))
            self.corporations.append(corp)
            self.home_city[c.sym] = (c.home, c.city)
            if not c.reserved:
                self.map.reserve_home(corp)
        self.start_items = [
            StartItem(s.item, s.row, s.price, s.includes) for s in data.start_packet
        ]
        # title state
        reversed_start = self.start_order().cycles[:1] == ("reverse",)
        self.priority: Player = self.players[-1] if reversed_start else self.players[0]
        """The player who acts first in start round 1 (rules/1835.md 3.3)."""
        self.start_round_num = 0
        self.packet_sold_in_one_go = True
        self.released: set[str] = {"BY", "SX"}
        self.pr_buyable = False
        self.pr_formed = False
        self.pr_starting_player: Player | None = None
        self.formation: Formation | None = None
        self.or_in_set = 0
        self.or_label = ""
        self.turn = 0
        self.events: list[Note] = []
        self.ability_uses: dict[tuple[str, str], list[str]] = {}
        self.or_start_worth: dict[str, int] = {}
        self.worth_changes: list[tuple[str, dict[str, int]]] = []
        self.round_ends: list[tuple[str, dict[str, int]]] = []
        self.round = self.new_start_round()
        self.round.setup()

    # -- lookups ----------------------------------------------------------------------------
    def entity(self, action: moves.Move | Mapping[str, object]) -> Entity:
        """Who acts: a minor acts as the corporation it is (rules/1835.md 7)."""
        ent, etype = moves.acting(action)
        if etype == "minor":
            return self.corporation(str(ent))
        return super().entity(action)

    def majors(self) -> list[Corporation]:
        return [c for c in self.corporations if not isinstance(c, Minor)]

    def minors(self) -> list[Minor]:
        return list(self.minors_list)

    def prussia(self) -> Corporation:
        return self.corporation(PR)

    def home_of(self, corp: Corporation) -> str:
        if isinstance(corp, Minor):
            return corp.home or ""
        return self.home_city[corp.sym][0]

    def home_blocks_hex(self, corp: Corporation) -> bool:
        """Rails: an unplaced home blocks the whole hex where the data says so (BA on L6)."""
        raw: dict[str, Any] = next(
            (c for c in self.data.raw["corporations"] if c["sym"] == corp.sym), {}
        )
        return bool(raw.get("home_blocks_hex", False))

    def note(self, kind: str, **fields: str | int) -> None:
        """Record what happened (checked against Rails reports; style guide §6 events)."""
        self.events.append({"kind": kind, **fields})

    # -- rounds -----------------------------------------------------------------------------
    def new_start_round(self) -> Round[Entity]:
        from stellwerk.titles.g1835.steps_start import StartRound1835

        self.start_round_num += 1
        return StartRound1835(self)

    def new_stock_round(self) -> Round[Entity]:
        from stellwerk.titles.g1835.steps_stock import StockRound1835

        self.turn += 1
        return StockRound1835(self)

    def new_operating_round(self, round_num: int) -> Round[Entity]:
        from stellwerk.titles.g1835.steps_operating import OperatingRound1835

        self.or_label = f"{self.turn}.{round_num}"
        return OperatingRound1835(self, round_num)

    def new_formation_round(self, after: Callable[[], Round[Entity]]) -> Round[Entity]:
        from stellwerk.titles.g1835.formation import FormationRound

        return FormationRound(self, after)

    def reorder_players(self) -> None:
        """Seat order never changes; the priority deal is tracked in ``priority``."""

    def _record_round_end(self, rnd: Round[Entity]) -> None:
        sequence.record_round_end(self, rnd)

    def next_round(self) -> None:
        sequence.next_round(self)

    def end_condition(self, reason: str) -> bool:
        """The bank breaks at 0 (Rails BankBreaks limit 0; rules/1835.md 12)."""
        if reason == "bank":
            return self.bank.cash <= 0
        return super().end_condition(reason)

    def end_game(self, reason: str) -> None:
        if not self.finished:
            self._record_round_end(self.round)
        super().end_game(reason)

    def end_now(self, timing: str | None) -> bool:
        """The current OR is finished, then the game ends (rules/1835.md 12)."""
        if timing == "current_or":
            return isinstance(self.round, OperatingRound)
        return super().end_now(timing)

    # -- Prussia ------------------------------------------------------------------------------
    def prussian_papers(self) -> list[Paper]:
        return sequence.prussian_papers(self)

    def formation_due(self) -> bool:
        return sequence.formation_due(self)

    def formation_trigger(self, train: Train, phase_changed: bool) -> bool:
        return sequence.formation_trigger(self, train, phase_changed)

    def start_formation(self, interrupting: bool) -> None:
        from stellwerk.titles.g1835.formation import start_formation
        from stellwerk.titles.g1835.steps_operating import OperatingRound1835

        if interrupting and isinstance(self.round, OperatingRound1835):
            self.round.interrupted = True
        start_formation(self, interrupting)

    def after_tile_laid(self) -> None:
        """OBB closes when both its hexes carry a tile, whoever laid them (rules/1835.md 6)."""
        for raw in self.data.raw["companies"]:
            hexes = raw.get("closes_when_hexes_built")
            if hexes and all(not self.map.board.hex(h).is_preprinted for h in hexes):
                self.close_company(self.company(raw["sym"]))

    # -- market -----------------------------------------------------------------------------
    def move_price(self, corp: Corporation, direction: str, times: int = 1) -> None:
        for _ in range(times):
            before = corp.share_price
            super().move_price(corp, direction)
            after = corp.share_price
            assert after is not None and before is not None
            self.note(
                "price",
                corp=corp.sym,
                moved=after is not before,
                price=after.price,
                cell=cell_name(after.row, after.column),
                cause=direction,
                logged=after is not before
                or not (direction == "down" or (direction == "up" and after.row > 0)),
            )

    def operating_order(self) -> list[Corporation]:
        """Minors M1..M6 first (unless they must wait for BY), then majors by price
        (rules/1835.md 8.1)."""
        minors: list[Corporation] = [
            m for m in self.minors_list if m.floated and not m.closed and self.minors_may_operate()
        ]
        majors = sorted(
            (c for c in self.majors() if c.floated and not c.closed and c.share_price),
            key=lambda c: c.sort_key(),
        )
        return minors + majors

    def start_order(self) -> StartOrder:
        """Start round 1's order: the settings' entry of ``[start_orders]`` or the printed
        one (rules/1835.md 3.2, 3.3)."""
        return self.data.start_orders[self.settings.start_order or self.data.start_order]

    def minors_may_operate(self) -> bool:
        """Whether minors operate now: always, or only once BY has floated (the settings'
        hook, rules/1835.md 3.3, 7, 11)."""
        return self.settings.minors_may_operate(self)

    # -- certificates -----------------------------------------------------------------------
    def player_cert_limit(self, player: Player | None) -> int:
        return certificates.cert_limit_for(self, player)

    def sold_out(self, corp: Corporation) -> bool:
        return certificates.sold_out(self, corp)

    def change_president_for(self, corp: Corporation) -> ChangePresident:
        return certificates.change_president_for(self, corp)

    def swap_certificates(self, holder: Holder, corp: Corporation, percent: int) -> list[Share]:
        return certificates.swap_certificates(self, holder, corp, percent)

    def fewest_certificates(self, holder: Holder, corp: Corporation, percent: int) -> list[Share]:
        return certificates.fewest_certificates(self, holder, corp, percent)

    def transfer_certificates(
        self, bundle: Bundle, to: Holder, allow_president_change: bool = True
    ) -> None:
        certificates.transfer_certificates(
            self, bundle, to, allow_president_change=allow_president_change
        )

    def check_floated(self, corp: Corporation) -> None:
        capital.check_floated(self, corp)

    def start_company(self, corp: Corporation) -> None:
        capital.start_company(self, corp)

    def update_releases(self) -> None:
        capital.update_releases(self)

    def next_ipo_share(self, corp: Corporation) -> Share | None:
        return capital.next_ipo_share(self, corp)

    def ipo_available(self, corp: Corporation) -> bool:
        return capital.ipo_available(self, corp)

    def ipo_price(self, corp: Corporation, share: Share) -> int:
        return capital.ipo_price(self, corp, share)

    # -- net worth --------------------------------------------------------------------------
    def player_value(self, player: Player) -> int:
        return payouts.player_value(self, player)

    # -- companies --------------------------------------------------------------------------
    def payout_companies(self) -> None:
        payouts.payout_companies(self)

    def close_company(self, company: Company) -> None:
        if company.closed:
            return
        company.close()
        self.note("private_closed", company=company.sym)

    def event_close_privates(self) -> None:
        rolling_stock.event_close_privates(self)

    def after_train_bought(self, corp: Corporation, train: Train) -> None:
        rolling_stock.after_train_bought(self, corp, train)

    # -- trains -----------------------------------------------------------------------------
    def train_limit(self, corp: Corporation) -> int:
        return rolling_stock.train_limit(self, corp)

    def other_trains(self, corp: Corporation) -> list[Train]:
        """From phase 3 on, the trains of the other open companies (rules/1835.md 8.7)."""
        if "trains_between_companies" not in self.phases.current.status:
            return []
        return [
            t
            for c in self.corporations
            if c is not corp and c.floated and not c.closed
            for t in c.trains
        ]

    def crowded_corps(self) -> list[Corporation]:
        return rolling_stock.crowded_corps(self)

    def buying_train(self, train: Train) -> None:
        rolling_stock.buying_train(self, train)

    def rust_trains(self, bought: Train) -> None:
        rusting = [t for t in self.depot.trains if not t.rusted and t.rusts_on == bought.name]
        if rusting:
            self.note("rusted", train=rusting[0].name)
        super().rust_trains(bought)

    def reclaim_train(self, train: Train) -> None:
        rolling_stock.reclaim_train(self, train)

    # -- dividends --------------------------------------------------------------------------
    def pay_dividend(self, corp: Corporation, revenue: int, kind: str) -> None:
        """Pay out by holders' percentages, withhold, or split (minors), then move the price;
        a withholding company with a bank loan repays it (rules/1835.md 8.6, 7, 8.8)."""
        self.note("dividend", corp=corp.sym, allocation=kind, revenue=revenue)
        payouts.pay_dividend(self, corp, revenue, kind)
        if kind == "withhold" and bankruptcy.loan_of(corp):
            bankruptcy.repay_loan(self, corp, revenue)

    # -- the board (rules/1835.md 8.3-8.5) --------------------------------------------------
    def legal_lays(self, corp: Corporation, hex_id: str | None) -> list[tuple[str, str, int]]:
        return self.map.legal_lays(corp, hex_id)

    def lay_tile(self, corp: Corporation, action: moves.LayTile) -> None:
        """Lay or upgrade a tile; OBB may close (rules/1835.md 8.3, 6)."""
        self.map.lay_tile(corp, action)
        self.note("tile", corp=corp.sym, hex=action.hex, tile=action.tile)
        self.after_tile_laid()

    def can_place_token(self, corp: Corporation) -> bool:
        """A major with a token left is asked, in live play and replay alike; minors have only
        their home token (rules/1835.md 8.4, 7)."""
        return not isinstance(corp, Minor) and self.map.placed_tokens(corp) < corp.num_tokens

    def token_choices(self, corp: Corporation) -> list[tuple[str, int]]:
        return self.map.token_choices(corp)

    def place_token(self, corp: Corporation, action: moves.PlaceToken) -> None:
        """20M per hex of distance from home (rules/1835.md 8.4)."""
        hex_id, _ = self.map.board.resolve_city(action.city)
        cost = self.map.token_cost(corp, hex_id)
        self.map.place_token(corp, action)
        self.note("token", corp=corp.sym, hex=hex_id, cost=cost)

    def route_info(self, corp: Corporation) -> tuple[bool, bool]:
        """Every company with trains runs (Rails asks even without a route: revenue 0), and
        every major must own a train, route or not; minors never must (rules/1835.md 8.5,
        8.7)."""
        return (True, not isinstance(corp, Minor))

    def best_run(self, corp: Corporation, trains: Sequence[Train] | None = None) -> BestRun:
        """Proven optimal (no node limit), for the route command and the pictures."""
        return self.map.best_run(corp, node_limit=None, trains=trains)

    def route_search(self, corp: Corporation) -> RouteSearch:
        return self.map.route_search(corp)

    def suggest_routes(self, corp: Corporation) -> list[RouteData]:
        """The routes offered in play: the search capped at 20000 nodes (kept as the 1835
        selfplay games and their replays by 18xx.games were made with it)."""
        try:
            routes: list[RouteData] = self.map.best_run(corp).routes
        except IllegalAction:
            routes = []
        return routes

    def route_revenue(self, corp: Corporation, routes: Sequence[RouteView]) -> int:
        return self.map.route_revenue(corp, routes)
