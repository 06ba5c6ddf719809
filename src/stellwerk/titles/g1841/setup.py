"""1841's table at the start (rules/1841.md 1.2, 1.3): bank, starting cash, market, phases,
trains, the concessions in their fixed order and the corporations' charters, all from the
data of the settings' variant (``data/game.toml``)."""

from __future__ import annotations

from typing import Protocol

from stellwerk.core.entities import Bank, Company, Corporation, Player, Train, transfer
from stellwerk.core.market import Market
from stellwerk.core.trains import Depot, PhaseDef, Phases
from stellwerk.titles.g1841.data_load import CorporationSpec, TitleData


class NewTable(Protocol):
    """The table as a new game lays it out: the bank and players, then the market, phases,
    depot, concessions and corporations it sets: what this module uses of the game
    (rules/1841.md 1.2, 1.3)."""

    market: Market
    phases: Phases
    operating_rounds: int
    depot: Depot
    companies: list[Company]
    corporations: list[Corporation]

    @property
    def bank(self) -> Bank: ...

    @property
    def players(self) -> list[Player]: ...


def set_table(game: NewTable, data: TitleData) -> None:
    """Bank L.14,400 (lite L.10,900), each player's starting cash from it, the market, the
    phases, the trains, the concessions and the corporations (rules/1841.md 1.2, 1.3)."""
    game.bank.cash = data.bank
    for player in game.players:
        transfer(game.bank, player, data.starting_cash[len(game.players)])
    game.market = Market([list(row) for row in data.market], letters="".join(data.market_markers))
    game.phases = Phases(
        [
            PhaseDef(
                p.name,
                list(p.tiles),
                p.operating_rounds,
                p.train_limit["major"],
                list(p.status),
                p.on,
            )
            for p in data.phases
        ]
    )
    game.operating_rounds = game.phases.current.operating_rounds
    game.depot = Depot(
        [
            Train(t.name, i, t.distance, t.price, t.rusts_on, None, list(t.events))
            for t in data.trains
            for i in range(t.count)
        ]
    )
    game.companies = [Company(c.sym, c.name, c.value, c.revenue) for c in data.companies]
    game.corporations = [new_corporation(spec) for spec in data.corporations]


def new_corporation(spec: CorporationSpec) -> Corporation:
    """A corporation from its charter: majors 20 % + 8 x 10 %, minors 40 % + 3 x 20 %
    (rules/1841.md 1.1), created with 2 (major) or 1 (minor) tokens (1.2 "Tokens"); its
    first home hex is its home."""
    home = spec.homes[0][0] if spec.homes else None
    return Corporation(
        spec.sym, spec.name, list(spec.shares), spec.min_tokens, spec.float_percent, home
    )
