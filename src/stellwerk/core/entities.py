"""The things that own and are owned: players, corporations, companies, shares, the bank,
the share pool.  Every certificate has exactly one owner; cash moves only through
:func:`transfer` (common rules §6.6)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from stellwerk.core.errors import IllegalAction
from stellwerk.core.market import Cell


class Holder:
    """Anything that holds cash and share certificates."""

    kind = "holder"

    def __init__(self, name: str) -> None:
        self.name = name
        self.cash = 0
        self.shares: dict[str, list[Share]] = {}

    def shares_of(self, corp: str) -> list[Share]:
        return self.shares.get(corp, [])

    def percent_of(self, corp: str) -> int:
        return sum(s.percent for s in self.shares.get(corp, ()))

    def all_shares(self) -> list[Share]:
        return [s for shares in self.shares.values() for s in shares]


def transfer(source: Holder, target: Holder, amount: int, rule: str = "") -> None:
    """Move ``amount`` cash from ``source`` to ``target``; the only way money moves.

    The bank may go below zero (that is how it breaks); anyone else may not.
    """
    if amount < 0:
        raise IllegalAction(f"cannot transfer a negative amount ({amount})", rule)
    if amount and source.cash < amount and not isinstance(source, Bank):
        raise IllegalAction(f"{source.name} has {source.cash} and cannot pay {amount}", rule)
    source.cash -= amount
    target.cash += amount


class Bank(Holder):
    kind = "bank"

    @property
    def broken(self) -> bool:
        return self.cash < 0


class SharePool(Holder):
    kind = "pool"


class Player(Holder):
    kind = "player"

    def __init__(self, pid: int | str, name: str) -> None:
        super().__init__(name)
        self.id = pid
        self.companies: list[Company] = []
        self.bankrupt = False
        self.penalty = 0
        self.passed = False


@dataclass(eq=False)
class Share:
    """A share certificate: ``<corp>_<index>``; index 0 is the president's certificate."""

    corporation: str
    index: int
    percent: int
    president: bool
    owner: Holder
    last_cert: bool = False

    @property
    def id(self) -> str:
        return f"{self.corporation}_{self.index}"


@dataclass(eq=False)
class Train:
    """A train; id ``<name>-<copy>``."""

    name: str
    index: int
    distance: int
    price: int
    rusts_on: str | None = None
    available_on: str | None = None
    events: list[str] = field(default_factory=list)
    owner: Any = None
    operated: bool = False
    obsolete: bool = False
    rusted: bool = False

    @property
    def id(self) -> str:
        return f"{self.name}-{self.index}"


class Company(Holder):
    """A private company."""

    kind = "company"

    def __init__(self, sym: str, name: str, value: int, revenue: int) -> None:
        super().__init__(name)
        self.sym = sym
        self.value = value
        self.revenue = revenue
        self.owner: Player | Corporation | None = None
        self.closed = False
        self.min_price = value // 2 + value % 2
        self.discount = 0

    @property
    def min_bid(self) -> int:
        return self.value - self.discount

    def max_price(self) -> int:
        return self.value * 2

    def close(self) -> None:
        """Close the company: it leaves its owner for good."""
        if self.owner is not None and self in self.owner.companies:
            self.owner.companies.remove(self)
        self.owner = None
        self.closed = True


class Corporation(Holder):
    """A public company.  Its own unsold certificates (the treasury / IPO) are held by itself."""

    kind = "corporation"

    def __init__(
        self,
        sym: str,
        name: str,
        share_percents: list[int],
        tokens: int,
        float_percent: int,
        home: str | None,
    ) -> None:
        super().__init__(name)
        self.sym = sym
        self.full_name = name
        self.share_percents = share_percents
        self.num_tokens = tokens
        self.float_percent = float_percent
        self.home = home
        self.share_price: Cell | None = None
        self.par_price: Cell | None = None
        self.ipoed = False
        self.floated = False
        self.closed = False
        self.owner: Player | None = None
        self.trains: list[Train] = []
        self.companies: list[Company] = []
        self.operating_history: list[tuple[int, int]] = []
        self.shares[sym] = [Share(sym, i, p, i == 0, self) for i, p in enumerate(share_percents)]
        self.share_holders: dict[Holder, int] = {self: sum(share_percents)}

    @property
    def president_percent(self) -> int:
        return self.share_percents[0]

    @property
    def share_percent(self) -> int:
        return self.share_percents[1]

    @property
    def total_shares(self) -> int:
        return 100 // self.share_percent

    def treasury_shares(self) -> list[Share]:
        return self.shares.get(self.sym, [])

    @property
    def operated(self) -> bool:
        return bool(self.operating_history)

    def player_holders(self) -> dict[Holder, int]:
        return {h: p for h, p in self.share_holders.items() if isinstance(h, Player)}

    def market_percent(self) -> int:
        return sum(p for h, p in self.share_holders.items() if isinstance(h, SharePool))

    def sort_key(self) -> tuple[int, int, int, int, str]:
        """Operating order key: price high first, column right first, row top first,
        earlier arrival first, then name (common rules §6.2)."""
        sp = self.share_price
        assert sp is not None
        arrival = sp.corporations.index(self.sym) if self.sym in sp.corporations else 0
        return (-sp.price, -sp.column, sp.row, arrival, self.sym)
