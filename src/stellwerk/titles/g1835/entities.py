"""1835's own kinds of paper: the pre-Prussian minors and the start-packet items
(rules/1835.md 3.1, 7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stellwerk.core.entities import Corporation


class Minor(Corporation):
    """A pre-Prussian minor: one 100 % certificate, one token, revenue always split
    (rules/1835.md 7).  ``exchange_percent``: the PR share it is exchanged for."""

    kind = "minor"

    def __init__(self, sym: str, name: str, price: int, home: str, city: int) -> None:
        super().__init__(sym, name, [100], 1, 100, home)
        self.price = price
        self.city = city

    @property
    def share_percent(self) -> int:
        return 100


@dataclass
class StartItem:
    """An unsold item of the start packet (rules/1835.md 3.1): what it is, its row and price,
    and the certificate that comes with it (``includes``: company, percent, president)."""

    item: str
    row: int
    price: int
    includes: dict[str, Any] | None


def is_minor(entity: Any) -> bool:
    """Is this a pre-Prussian minor?"""
    return isinstance(entity, Minor)
