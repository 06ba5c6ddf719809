"""1841: the title's rules on top of the generic game (rules/1841.md).

The game binds what the core leaves abstract and delegates each procedure to a module of its
own: the table at the start (:mod:`.setup`), the concession auction (:mod:`.auction`), the
stock round (:mod:`.stock`).  Rule code reads :class:`Settings1841`, never an option.  The
operating round is not written yet: its board hooks refuse every action.
"""

from __future__ import annotations

from typing import Any, ClassVar

from stellwerk.core.entities import Corporation, Holder, Player
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, Round
from stellwerk.core.flow.rounds import AuctionRound, OperatingRound
from stellwerk.core.game import Game
from stellwerk.core.market import Cell
from stellwerk.titles.g1841 import events, game_end, stock
from stellwerk.titles.g1841.auction import auction_step
from stellwerk.titles.g1841.data_load import title_data, variant_of
from stellwerk.titles.g1841.decisions import Procedure
from stellwerk.titles.g1841.mapport import MapPort
from stellwerk.titles.g1841.options import DECLARED
from stellwerk.titles.g1841.setup import set_table

NOT_YET = "rules/1841.md 2.3 (the operating round is not implemented yet)"


class Game1841(Game):
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
    }
    """Rules a live refusal names per action type (``stellwerk.core.live``)."""

    def __init__(self, players: list[tuple[int | str, str]], options: list[str], seed: int) -> None:
        super().__init__(players, options, seed)
        self.settings = DECLARED.settings(self.options, len(self.players))
        """What the chosen options select (``settings.py``)."""
        self.data = title_data(variant_of(self.settings))
        self.specs = {spec.sym: spec for spec in self.data.corporations}
        """Each corporation's charter by symbol."""
        self.map = MapPort(self.settings)
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
        self.offboards_connected: set[str] = set()
        """Off-board hexes some corporation's track has reached (rules/1841.md 1.4,
        :func:`.game_end.record_offboards`)."""
        set_table(self, self.data)
        self.round = AuctionRound(self, [auction_step(self.settings)])
        self.round.setup()

    @classmethod
    def warm(cls) -> None:
        """Read the data files and build the printed map once per process."""
        MapPort()

    # -- rounds -----------------------------------------------------------------------------
    def new_stock_round(self) -> Round:
        return stock.new_stock_round(self)

    def new_operating_round(self, round_num: int) -> Round:
        return OperatingRound(self, [], round_num)

    # -- events at the first train of a type (rules/1841.md 2.4; core ``buying_train``) -----
    def event_close_companies(self) -> None:
        events.close_concessions(self)

    def event_phase4_regions(self) -> None:
        events.apply_borders(self)

    def event_ferd_secession(self) -> None:
        events.ferdinandea_secession(self)

    def event_tuscan_merge(self) -> None:
        events.tuscan_merge(self)

    def event_phase5_regions(self) -> None:
        events.apply_borders(self)

    # -- game end (rules/1841.md 1.4) --------------------------------------------------------
    def end_checks(self) -> dict[str, str]:
        return game_end.end_checks(self)

    def end_condition(self, reason: str) -> bool:
        if reason == "offboards":
            return game_end.all_offboards_connected(self)
        return super().end_condition(reason)

    def end_now(self, timing: str | None) -> bool:
        decided = game_end.end_now(self, timing)
        return super().end_now(timing) if decided is None else decided

    def hooks_before_next_operator(self, rnd: OperatingRound) -> bool:
        """A corporation's turn ended: the price or the off-boards may end the game now
        (rules/1841.md 1.4)."""
        return game_end.after_operating_turn(self)

    # -- ownership and control (rules/1841.md 1.2, 2.3.9) -----------------------------------
    holding_limit_counts_controlled = True
    """The 60 % limit counts the controlling player's shares and his corporations' (1.2)."""

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

    privates_count_in_cert_limit = False
    """Concessions do not count against a player's limit (rules/1841.md 1.2)."""

    # -- stock round hooks (rules/1841.md 2.2) ----------------------------------------------
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

    # -- the board: the operating round is not written yet ----------------------------------
    def legal_lays(self, corp: Corporation, hex_id: str | None) -> list[tuple[str, str, int]]:
        return []

    def lay_tile(self, corp: Corporation, action: Action) -> None:
        raise IllegalAction("tiles are not laid yet", NOT_YET)

    def can_place_token(self, corp: Corporation) -> bool:
        return False

    def token_choices(self, corp: Corporation) -> list[tuple[str, int]]:
        return []

    def place_token(self, corp: Corporation, action: Action) -> None:
        raise IllegalAction("tokens are not placed yet", NOT_YET)

    def route_info(self, corp: Corporation) -> tuple[bool, bool]:
        return (False, False)

    def suggest_routes(self, corp: Corporation) -> list[dict[str, Any]]:
        return []

    def route_revenue(self, corp: Corporation, routes: list[dict[str, Any]]) -> int:
        raise IllegalAction("routes are not run yet", NOT_YET)
