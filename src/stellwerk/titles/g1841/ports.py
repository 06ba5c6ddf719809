"""The parts of the 1841 game that its procedures use, one protocol per concern.

The procedures (mergers, transformations, the secession, the emergencies, the frozen
corporations ...) take the parts of the game they need, not the game: the rules chosen and
printed (:class:`Rules`), the table -- players, corporations, bank, pool and journal
(:class:`Table`) --, share holdings, presidents and prices (:class:`Holdings`), the board
(:class:`Board`), the round under way (:class:`Turns`).  A module combines the ones it uses;
the game (:mod:`.game`) has them all, and nothing here imports it.

Members the procedures only read are properties (the game may keep them in an attribute);
members they assign are attributes.  The steps, whose game the core types as
:class:`~stellwerk.core.game.Game`, name a game with the parts
(:class:`.decisions.DecidingGame`); the game's module checks that it has them all.
"""

from __future__ import annotations

from typing import Protocol

from stellwerk.core.entities import (
    Bank,
    Company,
    Corporation,
    Entity,
    Holder,
    Player,
    SharePool,
    Train,
)
from stellwerk.core.events import Event
from stellwerk.core.flow.base import Round
from stellwerk.core.market import Cell, Market
from stellwerk.core.policy import Policy
from stellwerk.core.shares import Bundle, ChangePresident, ControlRules
from stellwerk.core.trains import Depot, Phases
from stellwerk.titles.g1841.data_load import CorporationSpec, TitleData
from stellwerk.titles.g1841.kept import BoardAnswers
from stellwerk.titles.g1841.mapport import MapPort
from stellwerk.titles.g1841.settings import Settings1841

__all__ = ["Board", "Charters", "Holdings", "Rules", "Table", "Turns"]


class Rules(Protocol):
    """The rules as chosen and printed: the settings of the chosen options, the title's data,
    each corporation's charter, and the phase (rules/1841.md 1.2, 2.4)."""

    @property
    def settings(self) -> Settings1841: ...

    @property
    def data(self) -> TitleData: ...

    @property
    def specs(self) -> dict[str, CorporationSpec]: ...

    @property
    def phases(self) -> Phases: ...


class Table(Protocol):
    """What is on the table: the players (those still seated and all), the corporations and
    concessions, the bank, the pool, and the journal of what happened."""

    @property
    def players(self) -> list[Player]: ...

    @property
    def all_players(self) -> list[Player]: ...

    @property
    def corporations(self) -> list[Corporation]: ...

    @property
    def companies(self) -> list[Company]: ...

    @property
    def bank(self) -> Bank: ...

    @property
    def pool(self) -> SharePool: ...

    @property
    def journal(self) -> list[Event]: ...

    def corporation(self, sym: str) -> Corporation: ...

    def corporation_or_none(self, sym: str) -> Corporation | None: ...

    def company(self, sym: str) -> Company: ...

    def player_by_id(self, pid: object) -> Player: ...


class Holdings(Table, ControlRules, Protocol):
    """Share holdings, presidents and prices: who controls whom, the holding and certificate
    limits, moving certificates between holders and prices on the market (rules/1841.md 1.2,
    2.2, 2.3.6, 2.3.9)."""

    @property
    def market(self) -> Market: ...

    @property
    def max_holding_percent(self) -> int: ...

    def controller(self, entity: Holder | None) -> Player | None: ...

    def controlled_percent(self, holder: Holder, corp: Corporation) -> int: ...

    def within_cert_limit(self, holder: Holder, extra: int = 1) -> bool: ...

    def set_president(self, corp: Corporation, holder: Holder | None) -> None: ...

    def change_president_for(self, corp: Corporation) -> ChangePresident: ...

    def tell_president_change(self, corp: Corporation, before: Holder | None) -> None: ...

    def transfer_shares(
        self, bundle: Bundle, to: Holder, allow_president_change: bool = True
    ) -> None: ...

    def handle_partial(self, bundle: Bundle, source: Holder, to: Holder) -> None: ...

    def bundles_for_corporation(self, holder: Holder, corp: Corporation) -> list[Bundle]: ...

    def buy_shares(self, buyer: Holder, bundle: Bundle, price: int | None = None) -> None: ...

    def sell_shares(self, bundle: Bundle) -> None: ...

    def sell_shares_and_change_price(self, bundle: Bundle) -> None: ...

    def move_price(self, corp: Corporation, direction: str, times: int = 1) -> None: ...

    def set_par(self, corp: Corporation, cell: Cell) -> None: ...


class Charters(Table, Rules, Protocol):
    """The table with the rules: enough to find a corporation's charter and concession
    (rules/1841.md 1.2)."""


class Board(Protocol):
    """The board: the map port (map, tile supply, tokens, routes) with answers kept about it
    (:mod:`.kept`), the tokens each corporation bought, the trains in the depot
    (rules/1841.md 2.2.3, 2.3.3-2.3.7)."""

    @property
    def map(self) -> MapPort: ...

    @property
    def depot(self) -> Depot: ...

    @property
    def token_count(self) -> dict[str, int]: ...

    @property
    def home_city_kept(self) -> BoardAnswers[str, bool]: ...

    @property
    def hex_price_kept(self) -> BoardAnswers[str, int]: ...

    def min_depot_price(self, corp: Corporation | None) -> int: ...


class Turns(Protocol):
    """The round under way and who has done what in it: the round, the checks that run
    (live or replayed), which corporations have operated or may not operate again, the token
    purchase a closed corporation's replayed start holds up, whether the game is a light copy
    for a try (:mod:`.trial`), and the steps' hooks the procedures call (rules/1841.md 2.3.1,
    2.3.9)."""

    @property
    def round(self) -> Round[Entity]: ...

    @property
    def policy(self) -> Policy: ...

    @property
    def done_this_round(self) -> set[str]: ...

    @property
    def operated_corps(self) -> set[str]: ...

    stalled_token_purchase: str | None
    shares_board: bool

    def trade_updates_frozen(self) -> None: ...

    def after_operating_turn(self, corp: Corporation) -> None: ...

    def reclaim_train(self, train: Train) -> None: ...
