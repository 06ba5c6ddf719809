"""What happened: a typed record of the game's changes, for the log players read.

The core appends one small immutable event to ``Game.journal`` where it changes the state
(shares and prices move, trains are bought and rust, the phase changes, presidents change,
dividends are paid, tracks and tokens are laid, steps are skipped, the game ends).  Every
processed action is announced first by :class:`Acted`, so the events after it, up to the next
``Acted``, are what that action caused (automatic actions get their own ``Acted``).

Events name entities by :data:`Ref` (kind and id), never by object, and hold only immutable
values: they are frozen slotted dataclasses, which the checkpoints share instead of copying.
Turning them into sentences is edge code (``stellwerk.words``).  A title adds an event of its
own by defining another frozen slotted dataclass (with a ``kind`` class variable) and a
sentence for that kind in the words catalogue; the core needs no change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from stellwerk.core.entities import Holder, Player
from stellwerk.core.jsondata import JSONObject
from stellwerk.core.moves import Move

if TYPE_CHECKING:
    from stellwerk.core.trains import Depot

Ref = tuple[str, int | str]
"""An entity: ``("player", id)``, ``("corporation", sym)``, ``("company", sym)``,
``("pool", "")``, ``("bank", "")``, ``("depot", "")``."""

BANK: Ref = ("bank", "")
POOL: Ref = ("pool", "")
DEPOT: Ref = ("depot", "")


def ref(entity: Holder | Depot | None) -> Ref:
    """The :data:`Ref` of a player, corporation, company, pool, bank or depot."""
    kind = getattr(entity, "kind", None)
    if isinstance(entity, Player):
        return ("player", entity.id)
    sym = getattr(entity, "sym", None)
    if sym is not None:
        return ("company" if kind == "company" else "corporation", sym)
    if kind in ("pool", "bank"):
        return (str(kind), "")
    return DEPOT


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event; ``kind`` names it for the words catalogue."""

    kind: ClassVar[str] = "event"


@dataclass(frozen=True, slots=True)
class Acted(Event):
    """An action (or automatic action) is processed; the events up to the next ``Acted`` are
    its consequences."""

    kind: ClassVar[str] = "acted"
    move: Move

    @property
    def action(self) -> JSONObject:
        """The action as 18xx.games JSON (what front ends narrate)."""
        return self.move.to_json()


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    kind: ClassVar[str] = "round_started"
    name: str
    turn: int
    round_num: int


@dataclass(frozen=True, slots=True)
class SharesBought(Event):
    """``buyer`` bought ``percent`` of ``corp`` from ``source`` for ``price`` (rules §6.6)."""

    kind: ClassVar[str] = "shares_bought"
    buyer: Ref
    corp: str
    percent: int
    source: Ref
    price: int
    president: bool


@dataclass(frozen=True, slots=True)
class SharesSold(Event):
    """``seller`` sold ``percent`` of ``corp`` to the pool for ``price`` (common rules §6.6)."""

    kind: ClassVar[str] = "shares_sold"
    seller: Ref
    corp: str
    percent: int
    price: int


@dataclass(frozen=True, slots=True)
class Parred(Event):
    kind: ClassVar[str] = "parred"
    corp: str
    price: int


@dataclass(frozen=True, slots=True)
class Floated(Event):
    kind: ClassVar[str] = "floated"
    corp: str


@dataclass(frozen=True, slots=True)
class PriceMoved(Event):
    """A price marker moved (or stayed, ``old == new``) by one call of ``move_price``."""

    kind: ClassVar[str] = "price_moved"
    corp: str
    old: int
    new: int
    direction: str


@dataclass(frozen=True, slots=True)
class PresidentChanged(Event):
    kind: ClassVar[str] = "president_changed"
    corp: str
    old: Ref | None
    new: Ref


@dataclass(frozen=True, slots=True)
class TrainBought(Event):
    kind: ClassVar[str] = "train_bought"
    corp: str
    train: str
    source: Ref
    price: int


@dataclass(frozen=True, slots=True)
class PhaseChanged(Event):
    kind: ClassVar[str] = "phase_changed"
    phase: str


@dataclass(frozen=True, slots=True)
class TrainsRusted(Event):
    """Trains named ``train`` rusted; ``owners`` lost one each (repeated for several)."""

    kind: ClassVar[str] = "trains_rusted"
    train: str
    owners: tuple[Ref, ...]


@dataclass(frozen=True, slots=True)
class DividendPaid(Event):
    """A corporation's run: ``kind`` payout or withhold (or a title's allocation)."""

    kind: ClassVar[str] = "dividend_paid"
    corp: str
    revenue: int
    allocation: str
    per_share: int


@dataclass(frozen=True, slots=True)
class RoutesRun(Event):
    kind: ClassVar[str] = "routes_run"
    corp: str
    revenue: int
    trains: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Spent(Event):
    """The acting entity's cash changed by ``-amount`` with its action (costs of lays,
    tokens, companies)."""

    kind: ClassVar[str] = "spent"
    entity: Ref
    amount: int


@dataclass(frozen=True, slots=True)
class StepSkipped(Event):
    """The acting entity had nothing to do in a step: it was skipped."""

    kind: ClassVar[str] = "step_skipped"
    entity: Ref
    step: str


@dataclass(frozen=True, slots=True)
class CompanyBought(Event):
    """``buyer`` won ``company`` in an auction for ``price`` (common rules §5: the start
    auction; a purchase by action is told by its action)."""

    kind: ClassVar[str] = "company_bought"
    buyer: Ref
    company: str
    price: int


@dataclass(frozen=True, slots=True)
class CompanyClosed(Event):
    kind: ClassVar[str] = "company_closed"
    company: str


@dataclass(frozen=True, slots=True)
class CorporationClosed(Event):
    kind: ClassVar[str] = "corporation_closed"
    corp: str


@dataclass(frozen=True, slots=True)
class PlayerBankrupt(Event):
    kind: ClassVar[str] = "player_bankrupt"
    player: Ref


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_ended"
    reason: str
