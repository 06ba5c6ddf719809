"""1835's own kinds of paper: the pre-Prussian minors and the start-packet items
(rules/1835.md 3.1, 7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from stellwerk.core.entities import Company, Corporation

if TYPE_CHECKING:
    from stellwerk.titles.g1835.data_load import Included


class Corporation1835(Corporation):
    """A company of 1835 with the state 1835 adds (rules/1835.md 4, 8.8, 10).

    ``reserved``: per certificate index, the minor or private whose exchange it is kept for
    (PR), else ""; ``formed_by_exchange``: formed from exchanged papers (PR), not by sale;
    ``may_sell``: its shares may be sold before it has operated (PR once formed);
    ``bank_loan``: the outstanding bank loan of a bankruptcy (rules/1835.md 8.8).
    """

    def __init__(
        self,
        sym: str,
        name: str,
        share_percents: list[int],
        tokens: int,
        float_percent: int,
        home: str | None,
        reserved: list[str] | None = None,
    ) -> None:
        super().__init__(sym, name, share_percents, tokens, float_percent, home)
        self.reserved: list[str] = list(reserved or [])
        self.formed_by_exchange = bool(self.reserved)
        self.may_sell = False
        self.bank_loan = 0


def c35(corp: Corporation) -> Corporation1835:
    """``corp`` as the 1835 company it is."""
    if not isinstance(corp, Corporation1835):
        raise TypeError(f"{corp.sym} is not an 1835 company")
    return corp


class Minor(Corporation1835):
    """A pre-Prussian minor: one 100 % certificate, one token, revenue always split
    (rules/1835.md 7).  ``exchange_percent``: the PR share it is exchanged for."""

    kind = "minor"

    def __init__(self, sym: str, name: str, price: int, home: str, city: int) -> None:
        super().__init__(sym, name, [100], 1, 100, home)
        self.price = price
        self.city = city


Paper: TypeAlias = Company | Minor
"""What is exchanged for Prussian shares: a minor or a private company (rules/1835.md 10.3)."""


@dataclass
class StartItem:
    """An unsold item of the start packet (rules/1835.md 3.1): what it is, its row and price,
    and the certificate that comes with it (``includes``: company, percent, president)."""

    item: str
    row: int
    price: int
    includes: Included | None
