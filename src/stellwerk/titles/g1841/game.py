"""1841: the title's rules on top of the generic game (rules/1841.md).

The game binds what the core leaves abstract and delegates each procedure to a module of its
own: the table at the start (:mod:`.setup`), the concession auction (:mod:`.auction`), the
stock round (:mod:`.stock`), the operating round (:mod:`.operating`: order and steps; track,
tokens, trains, frozen corporations and the events of a first train in modules of their own).
Rule code reads :class:`Settings1841`, never an option.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, ClassVar

from mypy_extensions import mypyc_attr

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Entity, Holder, Player, Train
from stellwerk.core.flow.base import Round, announces_changes
from stellwerk.core.flow.rounds import AuctionRound
from stellwerk.core.game import Game
from stellwerk.core.market import Cell, move_corporation
from stellwerk.core.routes.model import RouteSearch, RouteView
from stellwerk.core.routes.optimize import BestRun
from stellwerk.titles.g1841 import (
    deciding,
    events,
    frozen,
    game_end,
    journal,
    operating,
    stock,
    token_order,
    tokens,
    track,
    trains,
)
from stellwerk.titles.g1841.auction import auction_step
from stellwerk.titles.g1841.data_load import title_data, variant_of
from stellwerk.titles.g1841.decisions import Procedure
from stellwerk.titles.g1841.kept import BoardAnswers, TokenOrderKept
from stellwerk.titles.g1841.mapport import MapPort
from stellwerk.titles.g1841.options import DECLARED
from stellwerk.titles.g1841.setup import set_table

if TYPE_CHECKING:
    from stellwerk.titles.g1841.setup import NewTable

FROZEN_UPDATING_ACTIONS = frozenset({"buy_shares", "sell_shares"})
"""The actions after which 18xx.games brings the frozen states up to date (its share steps'
purchases and sales, the emergency sales of its train and token steps); its bankruptcy,
merger, secession and frozen turn do it inside (:func:`.frozen.update`)."""


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class GraphStamps:
    """Both graph caches as one for remembered answers (``Game.memo_cache``): their ledger
    (:attr:`GraphCache.ledger`), which counts the questions asked of either (``reads``)
    and whose ``stamp`` is the pair of theirs, renewed whenever either takes a new one."""

    def __init__(self, port: MapPort) -> None:
        self.port = port
        self.full = port.graph
        self.region = port.region_graph
        """The port's two caches (made once with it): asked for every remembered answer."""
        self.reads = self.full.reads + self.region.reads
        self.stamp = (self.full.stamp, self.region.stamp)
        self.full.ledger = self.region.ledger = self

    def restamp(self) -> None:
        self.stamp = (self.full.stamp, self.region.stamp)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Game1841(Game[MapPort]):
    """1841 - Northern Italy."""

    title = "1841"
    game_end_check: ClassVar[dict[str, str]] = {
        "bankrupt": "immediate",
        "bank": "current_or",
        "stock_market": "current_turn",
        "offboards": "current_turn",
    }
    """18xx.games' end conditions; the settings may change the timing (:meth:`end_checks`,
    rules/1841.md 1.4)."""
    game_end_priority: ClassVar[list[str]] = game_end.TIMING_PRIORITY
    bankruptcy_ends_game_after = "all_but_one"
    live_rules: ClassVar[dict[str, str]] = {
        "bid": "rules/1841.md 2.1",
        "blind_bid": "rules/1841.md 2.1.2",
        "par": "rules/1841.md 2.2.1",
        "buy_shares": "rules/1841.md 2.2.1",
        "sell_shares": "rules/1841.md 2.2.1",
        "choose": "rules/1841.md 2.2.3",
        "buy_company": "rules/1841.md 2.2.1",
    }
    """Rules a live refusal names per action type (``stellwerk.core.live``)."""

    def __init__(self, players: list[tuple[int | str, str]], options: list[str], seed: int) -> None:
        super().__init__(players, options, seed)
        self.settings = DECLARED.settings(self.options, len(self.players))
        """What the chosen options select (``settings.py``)."""
        self.data = title_data(variant_of(self.settings))
        self.specs = {spec.sym: spec for spec in self.data.corporations}
        """Each corporation's charter by symbol."""
        self.map = MapPort(self.settings, game=self)
        """The board: map, tile supply, tokens and routes."""
        self.token_count: dict[str, int] = {}
        """Tokens each corporation bought at its start (rules/1841.md 2.2.3)."""
        self.certificate_limit = self.data.cert_limit[len(self.players)]
        """Fixed at the start for the player count (rules/1841.md 1.2)."""
        self.corporate_cert_limit = int(self.data.raw["corporate_cert_limit"])
        """Certificates of other corporations a corporation may hold (rules/1841.md 1.2)."""
        self.max_holding_percent = int(self.data.raw["max_ownership_percent"])
        """The most a player controls of one corporation (rules/1841.md 1.2)."""
        self.procedures: list[Procedure] = []
        """Long procedures under way that ask questions (:mod:`.decisions`), first first."""
        self.token_emr_due: tuple[str, int] | None = None
        """The transformed major that must raise its required token's price by token
        emergency money, and that price (rules/1841.md 2.3.12, :mod:`.token_emr`)."""
        self.stalled_token_purchase: str | None = None
        """A closed corporation whose token purchase 18xx.games queued on its replayed start
        and never asks (:func:`.stock.stall_token_purchases`): every later token purchase of
        the round waits behind it; a new round forgets it."""
        self.done_this_round: set[str] = set()
        """Corporations that do not operate (again) in this operating round: merged,
        transformed, newly formed (rules/1841.md 2.3.1)."""
        self.operated_corps: set[str] = set()
        """Corporations that have completed an operating turn (rules/1841.md 2.3.9)."""
        self.frozen_states: dict[str, frozen.FrozenState] = {}
        """Frozen and circular corporations (rules/1841.md 2.3.10, :mod:`.frozen`)."""
        self.types_bought: set[str] = set()
        """Train types of which one has left the depot (their events are over, 2.4)."""
        self.offboards_connected: set[str] = set()
        """Off-board hexes some corporation's graph has reached after its lays (1.4); it only
        grows (nothing takes a hex out of it)."""
        self.offboards_answer: tuple[int, bool] | None = None
        """:func:`.game_end.all_offboards_connected` for the size of
        :attr:`offboards_connected` it was found at (asked after every action; the set only
        grows, so its size names its contents)."""
        self.token_order: dict[str, list[str | None]] = {}
        """Each corporation's tokens in charter order (hexes, ``None`` a free place), which
        railhead a lay uses (:mod:`.token_order`, rules/1841.md 2.3.3)."""
        self.home_city_kept: BoardAnswers[str, bool] = BoardAnswers()
        """Whether a corporation (by symbol) has a free home city, on this board and phase
        (:func:`.start.has_home_city`; not state: a copy starts empty, :mod:`.kept`)."""
        self.hex_price_kept: BoardAnswers[str, int] = BoardAnswers()
        """The token price of a home hex, on this board and phase (:func:`.start.hex_price`;
        not state)."""
        self.token_order_kept = TokenOrderKept()
        """The last answer of :mod:`.token_order` for the tokens on the board (not state)."""
        self.formed_seen = stock.FormedSeen()
        """The corporations the journal tells were formed, as far as it has been read
        (:func:`.stock.formed_in_game`, rules/1841.md 2.4.1, 2.4.2)."""
        self.shares_board = False
        """A light copy for trying a merger's choice (:mod:`.trial`): it shares the board and
        the round with its game, so a merger tried on it stops before its token stage."""
        self.frozen_held = False
        """The frozen states are not brought up to date after every action until the next
        share trade or procedure that updates them (:meth:`refresh_frozen`): set by a
        transformation unless :attr:`.Settings1841.transformation_updates_frozen`."""
        self._frozen_seen: list[Holder | None] | None = None
        """The corporations and presidents for which :meth:`_frozen_changes` last found
        nothing to change (None: ask again)."""
        self._end_checks: dict[str, str] | None = None
        """:meth:`end_checks`, once found."""
        self.memo_cache = GraphStamps(self.map)
        set_table(self, self.data)
        tokens.reserve_homes(self)
        self.round = AuctionRound(self, [auction_step(self.settings)])
        self.round.setup()

    # -- rounds -----------------------------------------------------------------------------
    def new_stock_round(self) -> Round[Entity]:
        self.stalled_token_purchase = None
        self.drop_open_questions()
        return stock.new_stock_round(self)

    def new_operating_round(self, round_num: int) -> Round[Entity]:
        self.stalled_token_purchase = None
        self.drop_open_questions()
        return operating.new_operating_round(self, round_num)

    def drop_open_questions(self) -> None:
        """A new round starts with no question open: as in 18xx.games, whose pending share
        offers, exchange choices and token purchases belong to the round that ends, the
        procedures still asking are dropped, never completed (a transformation's minor is
        not restarted), with the token emergency money they made due (docs/architecture.md,
        defect H).  With :attr:`.Settings1841.round_waits_for_decisions` an operating round
        does not end while they ask (rules/1841.md 2.3.11, 2.3.12), so none is left here."""
        if not self.procedures and self.token_emr_due is None:
            return
        self.changing()
        for procedure in self.procedures:
            about = getattr(procedure, "target", "") or getattr(procedure, "corp", "")
            self.journal.append(journal.QuestionsDropped(str(about)))
        self.procedures.clear()
        self.token_emr_due = None

    @contextlib.contextmanager
    def looking_ahead(self) -> Iterator[None]:
        """Menus and automatic-action decisions leave both graph caches as they were, so a
        game played live reaches the state of its file replayed (18xx.games clears its
        graphs at its own points)."""
        full, region = self.map.graph.save(), self.map.region_graph.save()
        try:
            yield
        finally:
            self.map.graph.restore(full)
            self.map.region_graph.restore(region)

    def turn_may_follow_policy(self) -> bool:
        """Whether live play may end a turn the recorded rules wait in
        (``Game.note_turn_end``): only the rule against control loops (seed 000 item 3.1,
        rules/1841.md 2.2.1; policy field ``control_loops``) takes away a trade that
        18xx.games offers, so it may decide whether a player or corporation has a move at
        all.  A trade closes a loop only where some corporation holds certificates of
        another (a loop needs corporations presiding over each other, and one trade moves
        one corporation's certificates), so without such holdings, or with the rule off,
        the two policies agree on every turn."""
        if not self.settings.circular_control_forbidden:
            return False
        for corp in self.corporations:  # (a loop: asked at turn ends in live play only)
            for sym, held in corp.shares.items():
                if held and sym != corp.sym:
                    return True
        return False

    def payout_companies(self) -> None:
        """No revenue in operating rounds: Bayard pays only at the end of a stock round
        (rules/1841.md 2.2.2)."""

    def after_operating_turn(self, corp: Corporation) -> None:
        """A corporation's turn is over: a price at L.516 or all off-boards connected end the
        game now (rules/1841.md 1.4); it has operated, unless it is done this round
        (rules/1841.md 2.3.9)."""
        game_end.after_operating_turn(self)
        if corp.sym not in self.done_this_round:
            self.operated_corps.add(corp.sym)

    def check_sale_timing(self, corp: Corporation) -> bool:
        """Shares are sold only of corporations that have completed an operating turn
        (rules/1841.md 2.2.1, 2.3.9)."""
        return corp.sym in self.operated_corps

    @announces_changes
    def action_processed(self, action: moves.Move) -> None:
        """After every action the frozen corporations (2.3.10) and the order of the tokens
        (:mod:`.token_order`) are brought up to date."""
        order = token_order.changed(self)
        if order is not None:
            self.changing()
            self.token_order = order
        self.refresh_frozen(action.type)

    def decider(self, entity: Holder | None) -> Player | None:
        """Its controller; for a corporation a merger forms before anyone took its presidency,
        the merger's deciding player (rules/1841.md 2.3.11, :mod:`.deciding`)."""
        found = self.controller(entity)
        if found is None and isinstance(entity, Corporation) and self.procedures:
            return deciding.forming_decider(self, self.procedures, entity)
        return found

    def refresh_frozen(self, after: str = "") -> None:
        """Bring the frozen states (rules/1841.md 2.3.10) up to date if a chain of control
        changed: after every action (``after`` its type), and before a corporation's turn
        starts in the middle of one (:meth:`.operating.OperatingRound1841.start_operating`).

        While :attr:`frozen_held` (a transformation's share moves, as 18xx.games, defect I)
        only a share purchase or sale brings them up to date here; the other procedures
        that do so in 18xx.games call :func:`.frozen.update` themselves."""
        if self.frozen_held and after not in FROZEN_UPDATING_ACTIONS:
            return
        if self._frozen_changes():
            self.changing()
            frozen.update(self)

    def trade_updates_frozen(self) -> None:
        """A share purchase or sale of a step (the stock round's, the corporate share step's,
        the emergency sales of the train and token steps) brings the frozen states up to date
        at once, held or not (rules/1841.md 2.3.9, 2.3.10: a corporation is frozen while its
        chain of control does not end at a player), as 18xx.games does in the trade itself
        (its ``update_frozen!`` there) -- before anything else the action leads to, such as
        the next corporation's turn when the purchase ended the turn before it (our selfplay
        game of the first edition's lite game, 4 players, seed 74023, action 867: RSFS buys
        ICSF's president's certificate from the pool while a transformation's hold is on, and
        ICSF operates)."""
        if self.frozen_held or self._frozen_changes():
            self.changing()
            frozen.update(self)

    def _frozen_changes(self) -> bool:
        """Whether :func:`.frozen.update` would change anything (asked after every action: a
        corporation whose president is a player is controlled, without walking its chain).

        The answer depends only on the started corporations' presidents and on the frozen
        states, which only :func:`.frozen.update` writes (it forgets what is remembered here).
        So a False answer is remembered with the presidents it was found for
        (``_frozen_seen``: the corporations, then their presidents) and is given again while
        they are the same and no update came between: most actions change no president."""
        corps = self.corporations
        seen: list[Holder | None] = list(corps)
        seen += [c.owner if c.ipoed else None for c in corps]
        # holders compare by identity (none defines ``__eq__``), and the list keeps them alive
        if seen == self._frozen_seen:
            return False
        if self._frozen_changes_walked():
            self._frozen_seen = None
            return True
        self._frozen_seen = seen
        return False

    def _frozen_changes_walked(self) -> bool:
        """:meth:`_frozen_changes` found by walking the chains of control."""
        states = self.frozen_states
        for corp in self.corporations:
            is_frozen = (
                corp.ipoed and not isinstance(corp.owner, Player) and self.controller(corp) is None
            )
            known = states.get(corp.sym)
            if known is None or not known.frozen:
                if is_frozen:
                    return True
            elif not is_frozen or (
                self.settings.circular_frozen_sales and not known.circular and self._loops(corp)
            ):
                return True
        return False

    @staticmethod
    def _loops(corp: Corporation) -> bool:
        from stellwerk.core.entities import is_circular

        return is_circular(corp)

    def offboard_hexes(self) -> frozenset[str]:
        """Hexes of the off-board groups (rules/1841.md 1.4)."""
        return frozenset(h for hexes in self.data.offboard_groups.values() for h in hexes)

    # -- market and dividends (rules/1841.md 2.3.6) -----------------------------------------
    def move_price(self, corp: Corporation, direction: str, times: int = 1) -> None:
        """A right move goes up instead for a minor on its maximum (``m``) and, before phase
        8, for anyone on an ``n`` cell (rules/1841.md 2.3.6)."""
        if direction != "right":
            super().move_price(corp, direction, times)
            return
        for _ in range(times):
            cell = corp.share_price
            assert cell is not None
            minor_top = self.specs[corp.sym].type == "minor" and "m" in cell.types
            capped = "n" in cell.types and int(self.phases.current.name) < 8
            if minor_top or capped:
                target = self.market.up(cell.coordinates)
            else:
                target = self.market.right(cell.coordinates)
            corp.share_price = move_corporation(self.market, corp.sym, cell, target)
            self.after_price_move(corp)

    def dividend_price_move(self, corp: Corporation, paid: int) -> None:
        """Paid more than the price: right; withheld or nothing: left; else no move
        (rules/1841.md 2.3.6, FAQ mistake 5.7)."""
        assert corp.share_price is not None
        if paid <= 0:
            self.move_price(corp, "left")
        elif paid > corp.share_price.price:
            self.move_price(corp, "right")

    # -- trains (rules/1841.md 1.2, 2.3.7, 2.4) ---------------------------------------------
    def train_limit(self, corp: Corporation) -> int:
        return trains.train_limit(self, corp)

    def has_crowded_corps(self) -> bool:
        """Whether a corporation holds more trains than the limit of its type (asked at every
        step of every action: the phase's limits are looked up once)."""
        specs = self.specs
        limits = None
        for corp in self.corporations:
            trains = corp.trains
            if not trains:
                continue  # (most corporations: no limit looked up)
            if limits is None:
                limits = self.data.phase(self.phases.current.name).train_limit
            if len(trains) > limits[specs[corp.sym].type]:
                return True
        return False

    def must_buy_train_now(self, corp: Corporation) -> bool:
        return trains.must_buy(self, corp)

    def buying_train(self, train: Train) -> None:
        events.first_train_of(self, train)

    # -- game end (rules/1841.md 1.4) --------------------------------------------------------
    def end_checks(self) -> dict[str, str]:
        """:func:`.game_end.end_checks`, found once: the settings do not change (asked after
        every action; do not change the answer)."""
        found = self._end_checks
        if found is None:
            found = self._end_checks = game_end.end_checks(self)
        return found

    def title_end_condition(self, reason: str) -> bool:
        """The off-boards condition is 1841's own (rules/1841.md 1.4: every off-board group
        connected); the others are the core's (:meth:`Game.end_condition`, which asks this
        hook for any other: the four conditions are asked after every action, and the core's
        three cost no call of a title's method)."""
        if reason == "offboards":
            return game_end.all_offboards_connected(self)
        return False

    def end_now(self, timing: str | None) -> bool:
        decided = game_end.end_now(self, timing)
        return super().end_now(timing) if decided is None else decided

    # -- ownership and control (rules/1841.md 1.2, 2.3.9) -----------------------------------
    holding_limit_counts_controlled = True
    """The 60 % limit counts the controlling player's shares and his corporations' (1.2)."""

    def unpriced_share_value(self, corp: Corporation) -> int:
        """A share unit of a closed corporation that players still hold: the lowest par price
        (L.68) as 18xx.games counts it (its defect K: a share without a price is taken at the
        corporation's minimum price), or nothing by the printed rules (rules/1841.md 1.4:
        certificates count at their market price; an option)."""
        if not self.settings.closed_corporation_shares_count:
            return 0
        cells = self.market.cells_with_type({"p"})
        return min(cell.price for cell in cells) if cells else 0

    def player_cert_limit(self, player: Player | None) -> int:
        """The certificate limit of the starting player count, kept when players leave
        (rules/1841.md 1.2)."""
        return self.certificate_limit

    def may_preside(self, corp: Corporation, holder: Holder) -> bool:
        """Players and other corporations may preside over a corporation (rules/1841.md 1.1,
        2.3.9)."""
        return isinstance(holder, Player) or (
            isinstance(holder, Corporation) and holder is not corp
        )

    def president_distance(self, previous: Holder | None, candidate: Holder) -> int:
        """Among equal candidates (rules/1841.md 2.3.9): the players first -- clockwise from
        a player president, in seat order otherwise -- then the open corporations in
        operating order (price, column, row, arrival), as 18xx.games orders them; its random
        game s22: CTS and RSFS tie for CFCC and RSFS, first in operating order, takes it."""
        if isinstance(candidate, Player) and not isinstance(previous, Player):
            return self.players.index(candidate) if candidate in self.players else 0
        if isinstance(candidate, Corporation) and candidate.share_price is not None:
            ranked = sorted(
                (c for c in self.corporations if not c.closed and c.share_price is not None),
                key=lambda c: c.sort_key(),
            )
            if candidate in ranked:
                return len(self.players) + ranked.index(candidate)
        return super().president_distance(previous, candidate)

    privates_count_in_cert_limit = False
    """Concessions do not count against a player's limit (rules/1841.md 1.2)."""

    # -- stock round hooks (rules/1841.md 2.2) ----------------------------------------------
    def operating_order(self) -> list[Corporation]:
        """Floated corporations by price (common rules §6.2), closed ones left out: a closed
        corporation never operates.  Only a replayed start of a closed corporation (see
        :func:`stellwerk.titles.g1841.stock.reopen_on_replay`) leaves one floated and
        without a price; 18xx.games skips it in the operating round."""
        return sorted(
            (c for c in self.corporations if c.floated and not c.closed),
            key=lambda c: c.sort_key(),
        )

    def can_par(self, corp: Corporation) -> bool:
        """Started only with its concession before phase 4 (rules/1841.md 2.2.1)."""
        return stock.can_par(self, corp)

    def par_cells(self) -> list[Cell]:
        return stock.par_cells(self)

    def token_hexes(self, corp: Corporation) -> list[str]:
        return sorted(
            hid
            for hid, state in self.map.board.hexes.items()
            for city in state.cities
            for token in city.tokens
            if token == corp.sym
        )

    def trace_tiles(self) -> dict[str, str]:
        return self.map.board.trace_tiles()

    # -- the board (rules/1841.md 2.3.3-2.3.5) ---------------------------------------------
    def _turn_lays(self) -> track.TurnLays:
        step = self.round.step_of(operating.Track1841)
        return step.turn if step is not None else track.TurnLays()

    def legal_lays(self, corp: Corporation, hex_id: str | None) -> list[tuple[str, str, int]]:
        step = self.round.step_of(operating.Track1841)
        return track.legal_lays(self, corp, self._turn_lays(), hex_id, step)

    def lay_hexes(self, corp: Corporation) -> list[str]:
        step = self.round.step_of(operating.Track1841)
        return track.lay_hexes(self, corp, self._turn_lays(), step)

    def lay_tile(self, corp: Corporation, action: moves.LayTile) -> None:
        track.lay_tile(self, corp, action, self._turn_lays())

    def can_place_token(self, corp: Corporation) -> bool:
        return self.map.can_place_token(corp)

    def token_choices(self, corp: Corporation) -> list[tuple[str, int]]:
        return tokens.choices(self, corp)

    def place_token(self, corp: Corporation, action: moves.PlaceToken) -> None:
        tokens.place(self, corp, action)

    def route_info(self, corp: Corporation) -> tuple[bool, bool]:
        """The selected graph's route test (18xx.games ``can_run_route?``)."""
        return self.map.route_info(corp)

    def best_run(self, corp: Corporation, trains: Sequence[Train] | None = None) -> BestRun:
        return self.map.best_run(corp, trains)

    def route_search(self, corp: Corporation) -> RouteSearch:
        return self.map.route_search(corp)

    def route_revenue(self, corp: Corporation, routes: Sequence[RouteView]) -> int:
        return self.map.route_revenue(corp, routes)


if TYPE_CHECKING:

    def _has_the_parts(
        game: Game1841,
    ) -> tuple[
        operating.OperatingGame,
        stock.StockGame,
        events.EventGame,
        tokens.TokenGame,
        track.TrackGame,
        NewTable,
    ]:
        """The parts of the game its modules take (:mod:`.ports`, and each module's own):
        the game has them all.  The steps' games name them without a check
        (:class:`.decisions.DecidingGame`); the type checker checks them here."""
        return game, game, game, game, game, game
