"""1849: the title's rules on top of the generic game (rules/1849.md).

Only what differs from the core lives here; each method's docstring cites the rule.
Map work (tiles, tokens, routes) goes through :mod:`stellwerk.titles.g1849.mapport`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import ClassVar

from stellwerk.core import moves
from stellwerk.core.entities import Company, Corporation, Entity, Player, Train, transfer
from stellwerk.core.flow.auction import WaterfallAuction
from stellwerk.core.flow.base import Round
from stellwerk.core.flow.operating import (
    Bankrupt,
    BuyCompany,
    BuyTrain,
    DiscardTrain,
    Route,
    Token,
    Track,
)
from stellwerk.core.flow.rounds import AuctionRound, OperatingRound, StockRound
from stellwerk.core.flow.stock import HomeToken
from stellwerk.core.game import Game
from stellwerk.core.market import Cell, Coordinates, Market
from stellwerk.core.routes.model import RouteSearch, RouteView
from stellwerk.core.routes.optimize import BestRun
from stellwerk.core.shares import Bundle
from stellwerk.core.trains import Depot, Phases
from stellwerk.titles.g1849 import steps as s1849
from stellwerk.titles.g1849.closing import ClosingRules
from stellwerk.titles.g1849.data_load import CorporationSpec, title_data
from stellwerk.titles.g1849.entities import Corporation1849, c49
from stellwerk.titles.g1849.options import DECLARED
from stellwerk.titles.g1849.presidency import PendingSwap, PresidencyRules


class Game1849(ClosingRules, PresidencyRules, Game):
    """1849 – The Game of Sicilian Railways."""

    title = "1849"
    sell_movement = "down_per_10"
    bankruptcy_ends_game_after = "all_but_one"
    game_end_check: ClassVar[dict[str, str]] = {
        "bankrupt": "immediate",
        "stock_market": "after_max_operates",
        "bank": "full_or",
    }
    game_end_priority: ClassVar[list[str]] = ["immediate", "after_max_operates", "full_or"]
    live_rules: ClassVar[dict[str, str]] = {
        "bid": "1849 rules §1.5",
        "buy_company": "1849 rules §1.4",
        "par": "1849 rules §2.2",
        "buy_shares": "1849 rules §2.2",
        "sell_shares": "1849 rules §2.2",
        "lay_tile": "1849 rules §3.2",
        "place_token": "1849 rules §4.1",
        "run_routes": "1849 rules §4.3",
        "dividend": "1849 rules §4.4",
        "buy_train": "1849 rules §4.7",
        "buy_token": "1849 rules §7.3",
    }
    """Rules a live refusal names per action type (``stellwerk.core.live``)."""

    def __init__(self, players: list[tuple[int | str, str]], options: list[str], seed: int) -> None:
        super().__init__(players, options, seed)
        self.settings = DECLARED.settings(self.options, len(self.players))
        """The hooks and data the chosen options select (``settings.py``)."""
        data = title_data()
        self.data = data
        """The typed facts of data/game.toml (``data_load.title_data``), shared by every game."""
        n = len(self.players)
        self.five_corps = n == 3 or (n == 4 and self.settings.five_corporations_at_four_players)
        self.bank.cash = self.settings.bank_cash or data.bank
        self.market = Market([list(row) for row in data.market])
        self.market.hooks.right = self._market_right
        self.market.hooks.up = self._market_up
        self.phases = Phases(
            [replace(p, tiles=list(p.tiles), status=list(p.status)) for p in data.phases]
        )
        self.operating_rounds = self.phases.current.operating_rounds
        self._setup_companies()
        self._setup_trains()
        for player in self.players:
            transfer(self.bank, player, data.starting_cash[n])
        # title state
        self.available_par_types = {"p"}
        self.messina_upgradeable = True
        self.swap: PendingSwap | None = None
        self.loan_choice_player: Player | None = None
        self.moved_this_turn: list[Corporation] = []
        self.old_operating_order: list[Corporation] = []
        self.e_token_sold = False
        self.e_tokens_enabled = False
        self.bonds_enabled = False
        self.token_buying_enabled = False
        self.cnm_corporation: Corporation | None = None
        self.cnm_hex: str | None = None
        self.forced_next = False
        self.closing_queue: list[Corporation] = []
        self.corporations_are_closing = False
        from stellwerk.titles.g1849.mapport import MapPort
        from stellwerk.titles.g1849.rules.routes import route_rules

        self.route_rules = replace(route_rules(), check=self.settings.route_check)
        self.map = MapPort(self)
        self.memo_cache = self.map.graph
        self._setup_corporations()
        self.round = self.new_auction_round()
        self.round.setup()

    @contextlib.contextmanager
    def looking_ahead(self) -> Iterator[None]:
        """Menus and automatic-action decisions leave the graph caches as they were, so a game
        played live reaches exactly the state of its file replayed (the reference engine's
        caches are cleared only at its own points)."""
        saved = self.map.graph.save()
        try:
            yield
        finally:
            self.map.graph.restore(saved)

    # -- setup ------------------------------------------------------------------------------
    def _setup_companies(self) -> None:
        for c in self.data.companies:
            company = Company(c.sym, c.name, c.value, c.revenue)
            company.min_price = self.settings.private_min_price(company)
            self.companies.append(company)

    def _setup_trains(self) -> None:
        """The trains of data/game.toml; one marked ``extra`` only if the settings put it in
        play (the E-trains, 1849 rules §7.5)."""
        idx = 0 if self.five_corps else 1
        trains: list[Train] = []
        for t in self.data.trains:
            if t.optional and t.name not in self.settings.extra_trains:
                continue
            for i in range(t.counts[idx]):
                trains.append(
                    Train(
                        t.name, i, t.distance, t.price, t.rusts_on, t.available_on, list(t.events)
                    )
                )
        self.depot = Depot(trains)

    def _new_corporation(self, c: CorporationSpec) -> Corporation:
        return Corporation1849(
            c.sym, c.name, list(c.shares), c.tokens, c.float_percent, c.home, c.token_fee
        )

    def _random_order(self) -> list[Corporation]:
        """Corporation order: one draw per corporation in definition order, sorted
        ascending; IFT kept out of the first three swaps places with position 4
        (1849 rules §1.3, §7.1)."""
        keyed = [(self.rng.draw(), sym) for sym in self.data.corporation_order]
        order = [self._new_corporation(self.data.corporation(sym)) for _, sym in sorted(keyed)]
        if self.settings.ift_out_of_first_three:
            buffer = self.data.ift_buffer
            idx = next(i for i, c in enumerate(order) if c.sym == "IFT")
            if idx < buffer:
                order[idx], order[buffer] = order[buffer], order[idx]
        return order

    def _setup_corporations(self) -> None:
        self.corporations = self._random_order()
        for corp in self.corporations:
            if corp.home:
                self.map.reserve_home(corp)
        self.rsa_corporation: str | None = self.corporations[0].sym
        if self.five_corps:
            removed = self.corporations.pop()
            if removed.home:
                self.map.unreserve_home(removed)
        c49(self.corporations[0]).next_to_par = True

    # -- rounds -----------------------------------------------------------------------------
    def new_auction_round(self) -> Round[Entity]:
        return AuctionRound(self, [s1849.RSAPar, WaterfallAuction])

    def new_stock_round(self) -> Round[Entity]:
        for corp in self.corporations:
            c49(corp).closed_recently = False
        self.messina_upgradeable = True
        return StockRound(
            self, [DiscardTrain, s1849.ChosenHomeToken, s1849.SwapChoice, s1849.SharesStep]
        )

    def new_operating_round(self, round_num: int) -> Round[Entity]:
        return OperatingRound(
            self,
            [
                s1849.LoanChoice,
                Bankrupt,
                s1849.EmergencyMoneyRaising,
                s1849.SwapChoice,
                BuyCompany,
                s1849.SMSTeleport,
                s1849.Assign,
                Track,
                Token,
                Route,
                s1849.Dividend1849,
                s1849.BuyToken,
                s1849.BuyEToken,
                DiscardTrain,
                BuyTrain,  # 1849 rules §§4.7, 7.5 through the train hooks below
                s1849.Issue1849,
                s1849.BondInterestPayment,
                s1849.Bond,
                (BuyCompany, {"blocks": True}),
            ],
            round_num,
        )

    def next_round(self) -> None:
        super().next_round()
        for corp in self.corporations:
            c49(corp).sms_hexes = None

    def hooks_stock_round_setup(self, rnd: StockRound) -> None:
        """At the start of a stock round the RSA corporation places its home token
        (1849 rules §1.4)."""
        for corp in self.corporations:
            if corp.floated and self.map.unplaced_tokens(corp) == corp.num_tokens:
                self.place_home_token(corp)

    def hooks_stock_turn_start(self, rnd: StockRound) -> None:
        self.moved_this_turn = []

    def hooks_before_next_operator(self, rnd: OperatingRound) -> bool:
        """A corporation that reached 377 ends the game after its own turn (1849 rules §8)."""
        corp = rnd.entities[rnd.entity_index]
        if c49(corp).reached_max_value:
            if self.settings.game_ends_after_current_or:
                return False
            self.end_game("stock_market")
            return True
        return False

    def end_now(self, timing: str | None) -> bool:
        if timing == "after_max_operates":
            return self.settings.game_ends_after_current_or and isinstance(
                self.round, OperatingRound
            )
        if timing == "full_or" and self.settings.game_ends_after_current_or:
            return isinstance(self.round, OperatingRound)
        return super().end_now(timing)

    # -- market -----------------------------------------------------------------------------
    def _blue_zone(self) -> bool:
        return self.phases.has_status("blue_zone")

    def _market_right(self, market: Market, coords: Coordinates) -> Coordinates | None:
        """Before 16H a right move from 218/240/276 goes up instead, and 230 cannot go
        up (1849 rules §4.8)."""
        if self._blue_zone():
            return None
        cell = market.cell(coords)
        assert cell is not None
        if cell.price in self.data.blocked_right_prices:
            return market.up(coords)
        if cell.price in self.data.blocked_up_prices and market.right_ledge(coords):
            return coords
        return None

    def _market_up(self, market: Market, coords: Coordinates) -> Coordinates | None:
        if self._blue_zone():
            return None
        cell = market.cell(coords)
        if cell is not None and cell.price in self.data.blocked_up_prices:
            return coords
        return None

    def after_price_move(self, corp: Corporation) -> None:
        cell = corp.share_price
        if cell is not None and "e" in cell.types and not c49(corp).reached_max_value:
            c49(corp).reached_max_value = True

    def par_cells(self) -> list[Cell]:
        return self.market.cells_with_type(self.available_par_types)

    def dividend_price_move(self, corp: Corporation, paid: int) -> None:
        """0 or withheld: left; paid below the price: none; at least the price: right
        (1849 rules §4.4)."""
        assert corp.share_price is not None
        if paid == 0:
            self.move_price(corp, "left")
        elif paid >= corp.share_price.price:
            self.move_price(corp, "right")

    # -- stock round hooks ------------------------------------------------------------------
    def can_par(self, corp: Corporation) -> bool:
        """Only the next corporation of the order, not closed this round, with a home
        (1849 rules §2.2)."""
        e = c49(corp)
        return not corp.ipoed and e.next_to_par and not e.closed_recently and e.slot_open

    def can_buy_extra(self, bundle: Bundle) -> bool:
        return self.last_cert_last(bundle)

    def player_cert_limit(self, player: Player | None) -> int:
        n = len(self.players)
        if n == 4 and self.settings.five_corporations_at_four_players:
            return self.data.cert_limit_four_players_five_corporations
        return self.data.cert_limit[n]

    def after_player_sale(self, corp: Corporation, before: Cell | None) -> None:
        if before is not corp.share_price:
            self.moved_this_turn.append(corp)
            self.reorder_corps()

    def reorder_corps(self) -> None:
        """Corporations that moved onto a shared cell keep their previous relative order
        behind the ones that did not move (1849 rules §2.2, 18xx.games tie repair)."""
        moved = list(dict.fromkeys(self.moved_this_turn))
        if len(moved) < 2:
            return
        by_cell: dict[int, list[Corporation]] = {}
        cells: dict[int, Cell] = {}
        for corp in self.corporations:
            if corp.floated and corp.share_price is not None:
                by_cell.setdefault(id(corp.share_price), []).append(corp)
                cells[id(corp.share_price)] = corp.share_price
        for key, corps in by_cell.items():
            if len(corps) < 2:
                continue
            current = sorted(corps, key=lambda c: c.sort_key())
            unmoved = [c for c in current if c not in moved]
            old = self.old_operating_order
            moved_sorted = sorted(
                (c for c in current if c in moved), key=lambda c: old.index(c) if c in old else -1
            )
            new = unmoved + moved_sorted
            if new != current:
                cells[key].corporations[:] = [c.sym for c in new]

    def after_par(self, corp: Corporation) -> None:
        """After par: token fee to the bank, the next corporation becomes available, and the
        home token is placed in a stock round (1849 rules §2.2)."""
        transfer(corp, self.bank, c49(corp).token_fee, "1849 rules §1.2 (token fee)")
        c49(corp).next_to_par = False
        idx = self.corporations.index(corp)
        if corp is not self.corporations[-1]:
            c49(self.corporations[idx + 1]).next_to_par = True
        if isinstance(self.round, StockRound):
            self.place_home_token(corp)

    def after_buy_company(self, player: Player, company: Company, price: int) -> None:
        if company.sym == "RSA" and self.rsa_corporation:
            self.round.state.companies_pending_par.append(company)

    # -- companies ----------------------------------------------------------------------------
    def purchasable_companies(self, corp: Corporation) -> list[Company]:
        return [
            c
            for c in self.companies
            if isinstance(c.owner, Player) and not c.closed and c.sym != "RSA"
        ]

    def has_usable_company_ability(self, corp: Corporation) -> bool:
        """CNM's marker may be placed at any time of its corporation's turn (1849 rules §1.4)."""
        return any(c.sym == "CNM" and not c.closed for c in corp.companies)

    def after_company_sold(self, corp: Corporation, company: Company) -> None:
        if company.sym == "CNM":
            self.cnm_corporation = corp

    def after_train_bought(self, corp: Corporation, train: Train) -> None:
        """RSA closes when its corporation buys its first train (1849 rules §1.4)."""
        rsa = self.company("RSA")
        if not rsa.closed and self.rsa_corporation == corp.sym:
            rsa.close()

    def event_close_companies(self) -> None:
        for company in self.companies:
            if not company.closed:
                company.close()

    def event_green_par(self) -> None:
        self.available_par_types.add("x")

    def event_brown_par(self) -> None:
        self.available_par_types.add("z")

    def event_buy_tokens(self) -> None:
        self.token_buying_enabled = True

    def event_bonds(self) -> None:
        self.bonds_enabled = True

    def event_e_tokens(self) -> None:
        self.e_tokens_enabled = True

    def event_earthquake(self) -> None:
        """Messina returns to its printed yellow tile; its tokens leave the game; AFG closes if
        that was its only token (1849 rules §3.5)."""
        afg = self.afg()
        messina = self.data.messina
        if (
            afg is not None
            and self.map.has_token_in(afg, messina)
            and self.map.placed_tokens(afg) == 1
        ):
            if self.round.current_entity() is afg and isinstance(self.round, OperatingRound):
                self.round.force_next_entity()
            self.close_corporation(afg)
        self.map.earthquake(messina)
        self.messina_upgradeable = False

    def afg(self) -> Corporation | None:
        return self.corporation_or_none(self.data.chooses_home)

    # -- trains -------------------------------------------------------------------------------
    def may_buy_e_train(self, corp: Corporation) -> bool:
        """E-trains only with an E-token (1849 rules §7.5) and, with a limit per corporation,
        below it (seed 001 item 52: at most one)."""
        limit = self.settings.e_trains_per_corporation
        owned = sum(1 for t in corp.trains if t.name == "E")
        return c49(corp).e_token and (limit is None or owned < limit)

    def depot_trains_for(self, corp: Corporation) -> list[Train]:
        """Depot trains this corporation may buy (E-trains: :meth:`may_buy_e_train`)."""
        trains = self.depot.depot_trains(self.phases)
        if not self.may_buy_e_train(corp):
            trains = [t for t in trains if t.name != "E"]
        return trains

    def min_depot_train(self, corp: Corporation | None) -> Train | None:
        trains = self.depot.depot_trains(self.phases)
        if corp is None or not c49(corp).e_token:
            trains = [t for t in trains if t.name != "E"]
        return min(trains, key=lambda t: t.price) if trains else None

    def other_trains(self, corp: Corporation) -> list[Train]:
        out = []
        for other in self.corporations:
            if other is corp:
                continue
            out.extend(other.trains)
        if not self.may_buy_e_train(corp):
            out = [t for t in out if t.name != "E"]
        return out

    def emergency_sale_timing_ok(self, rnd: Round[Entity], corp: Corporation) -> bool:
        """Shares of the buying corporation only after its first full turn (1849 rules §4.7)."""
        if not corp.operated:
            return False
        operating = isinstance(rnd, OperatingRound) and rnd.current_operator is corp
        return not (operating and len(corp.operating_history) < 2)

    # -- map hooks ----------------------------------------------------------------------------
    def token_hexes(self, corp: Corporation) -> list[str]:
        return list(self.map.token_hexes(corp.sym))

    def trace_tiles(self) -> dict[str, str]:
        return self.map.board.trace_tiles()

    # -- map actions ----------------------------------------------------------------------------
    def can_lay_tile(self, corp: Corporation) -> bool:
        return self.map.can_lay_tile(corp)

    def lay_tile(self, corp: Corporation, action: moves.LayTile) -> None:
        self.map.lay_tile(corp, action)

    def can_place_token(self, corp: Corporation) -> bool:
        return self.map.can_place_token(corp)

    def place_token(self, corp: Corporation, action: moves.PlaceToken) -> None:
        self.map.place_token(corp, action)

    def route_info(self, corp: Corporation) -> tuple[bool, bool]:
        return self.map.route_info(corp)

    def route_revenue(self, corp: Corporation, routes: Sequence[RouteView]) -> int:
        return self.map.route_revenue(corp, routes)

    def place_home_token(self, corp: Corporation) -> None:
        """Home token: placed at once where the home is fixed; AFG's president chooses
        among the free cities (1849 rules §4.5)."""
        first = self.map.charter(corp)[:1]
        if not first or first[0] is not None:
            return  # the first token is down: it is the home token (18xx.games)
        if corp.home:
            self.map.place_home(corp)
            return
        if self.round.step_of(HomeToken) is None:
            return  # only a stock round places chosen home tokens
        pending = self.round.state.pending_tokens
        if any(p["entity"] is corp for p in pending):
            return
        pending.append({"entity": corp, "hexes": self.home_token_locations(corp)})

    def home_token_locations(self, corp: Corporation) -> list[str]:
        return [h for h in self.data.home_choices if self.map.has_free_slot(corp, h)]

    def legal_lays(self, corp: Corporation, hex_id: str | None) -> list[tuple[str, str, int]]:
        return self.map.legal_lays(corp, hex_id)

    def lay_hexes(self, corp: Corporation) -> list[str]:
        return self.map.lay_hexes(corp)

    def lay_is_legal(self, corp: Corporation, hex_id: str, tile_id: str, rotation: int) -> bool:
        return self.map.lay_is_legal(corp, hex_id, tile_id, rotation)

    def token_choices(self, corp: Corporation) -> list[tuple[str, int]]:
        return self.map.token_choices(corp)

    def best_run(self, corp: Corporation, trains: Sequence[Train] | None = None) -> BestRun:
        return self.map.best_run(corp, trains)

    def route_search(self, corp: Corporation) -> RouteSearch:
        return RouteSearch(self.map.run_context(corp), self.map.train_specs(corp), self.route_rules)

    def update_garibaldi(self) -> None:
        afg = self.afg()
        if afg is None or c49(afg).slot_open or not self.home_token_locations(afg):
            return
        c49(afg).slot_open = True
        c49(afg).closed_recently = True

    def player_value(self, player: Player) -> int:
        """Final value; with corporation bonds, less per share of a corporation whose bond is
        out: the ``bond_penalty`` hook, L.100 (1849 rules §8, 18xx.games, not floored) or at
        most the share price (seed 001 item 70)."""
        value = super().player_value(player)
        for corp in self.corporations:
            if not c49(corp).bond:
                continue
            shares = -(-player.percent_of(corp.sym) // corp.share_unit)
            value -= shares * self.settings.bond_penalty(corp)
        return value
