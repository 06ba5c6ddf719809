"""The things that own and are owned: players, corporations, companies, shares, the bank,
the share pool.  Cash moves only through :func:`transfer` (common rules §6.6).

Ownership of certificates (common rules §6.6):

* ``Share.owner`` is the one source of truth for who holds a certificate.  Every holder --
  player, corporation (its own unsold certificates are its treasury, the IPO), pool, bank --
  holds certificates the same way.
* ``Holder.shares`` is the index of each holder's certificates per corporation, in the order
  received (game files name certificates by id, and 18xx.games' order rules pick which
  physical certificate moves).  Only :func:`move_share`, :func:`issue_certificates` and
  :func:`retire_certificates` write it.
* ``Corporation.certificates`` is the register of a corporation's certificates in play; what a
  holder has of it (``share_holders``) is derived from the register on demand.
* A corporation's president (``owner``) is any holder: a player, or -- where a title lets
  corporations own corporations -- another corporation.
  :func:`controller` walks from a corporation through corporations to the player who controls
  it, or None when the chain ends elsewhere or loops (the corporation is then frozen).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

from mypy_extensions import mypyc_attr

from stellwerk.core.errors import IllegalAction
from stellwerk.core.market import Cell
from stellwerk.core.native import fields_state, set_fields_state, set_state, state_of

if TYPE_CHECKING:
    from stellwerk.core.trains import Depot


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Holder:
    """Anything that holds cash and share certificates."""

    kind = "holder"

    def __getstate__(self) -> dict[str, object]:
        """Pickle and copy: the attributes, also those of a compiled class (``core.native``)."""
        return state_of(self)

    def __setstate__(self, state: dict[str, object]) -> None:
        set_state(self, state)

    def __init__(self, name: str) -> None:
        self.name = name
        self.cash = 0
        self.shares: dict[str, list[Share]] = {}
        """Index of the certificates held, per corporation symbol, in the order received;
        derived from ``Share.owner`` and written only by the certificate moves below."""
        self.first_held: dict[str, int] = {}
        """Per corporation symbol, when (a rising count) this holder first received one of
        its certificates: :func:`arrival_order` ranks holders by it."""

    def shares_of(self, corp: str) -> list[Share]:
        return self.shares.get(corp, [])

    def percent_of(self, corp: str) -> int:
        total = 0
        for share in self.shares.get(corp, ()):  # (a loop: the stock turn asks this often)
            total += share.percent
        return total

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


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Bank(Holder):
    kind = "bank"

    @property
    def broken(self) -> bool:
        return self.cash < 0


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class SharePool(Holder):
    kind = "pool"


PlayerId = int | str
"""A player's id as a game file gives it (18xx.games: an integer; hand-made games: text)."""
EntityId = int | str
"""Who acts in an action's ``entity`` field: a player's id, or a corporation's, company's or
minor's symbol."""


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Player(Holder):
    kind = "player"

    def __init__(self, pid: PlayerId, name: str) -> None:
        super().__init__(name)
        self.id = pid
        self.companies: list[Company] = []
        self.bankrupt = False
        self.penalty = 0
        self.passed = False


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(eq=False)
class Share:
    """A share certificate: ``<corp>_<index>``; the president's certificate is marked
    ``president`` (index 0 at issue).  ``owner`` is who holds it -- the one source of truth --
    or None once the certificate is retired (no longer in play)."""

    corporation: str
    index: int
    percent: int
    president: bool
    owner: Holder | None

    @property
    def id(self) -> str:
        return f"{self.corporation}_{self.index}"


_ARRIVALS = itertools.count()
"""The rising count of :attr:`Holder.first_held` (only its order matters)."""


def arrival_order(holder: Holder, corp: str) -> int:
    """When ``holder`` first received a certificate of ``corp``: 18xx.games keeps a
    corporation's holders in that order (its ``share_holders``, keyed on first receipt), and
    a tie it settles by "the first" is the earliest holder (never held: last)."""
    return holder.first_held.get(corp, 1 << 62)


def move_share(share: Share, to: Holder) -> None:
    """Move one certificate to a new holder (appended to the end of its list); the one way a
    certificate in play changes hands (common rules §6.6)."""
    owner = share.owner
    if owner is None:
        raise IllegalAction(f"certificate {share.id} is not in play", "common rules §6.6")
    owner.shares[share.corporation].remove(share)
    to.shares.setdefault(share.corporation, []).append(share)
    if share.corporation not in to.first_held:
        to.first_held[share.corporation] = next(_ARRIVALS)
    share.owner = to


def issue_certificates(corp: Corporation, percents: Iterable[int]) -> list[Share]:
    """Create new certificates of ``corp`` (the first the president's certificate if the
    register has none), held by its treasury; ids continue after every id issued before, so
    no id is ever reused."""
    has_president = any(s.president for s in corp.certificates)
    new: list[Share] = []
    treasury = corp.shares.setdefault(corp.sym, [])
    corp.first_held.setdefault(corp.sym, next(_ARRIVALS))
    for percent in percents:
        president = not has_president and not new
        share = Share(corp.sym, corp.next_certificate_index, percent, president, corp)
        corp.next_certificate_index += 1
        new.append(share)
        treasury.append(share)
    corp.certificates.extend(new)
    corp.register_changed()
    return new


def retire_certificates(corp: Corporation, shares: Iterable[Share] | None = None) -> None:
    """Take certificates of ``corp`` out of play (all of them by default): they leave their
    holders and the register, and own nothing any more (a closing corporation's certificates
    are void; exchanged or merged certificates are replaced)."""
    retiring = list(corp.certificates if shares is None else shares)
    for share in retiring:
        owner = share.owner
        if owner is None:
            continue
        held = owner.shares[share.corporation]
        held.remove(share)
        if not held:
            del owner.shares[share.corporation]
        share.owner = None
    gone = {id(s) for s in retiring}
    corp.certificates = [s for s in corp.certificates if id(s) not in gone]
    corp.register_changed()


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
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
    owner: Corporation | Depot | None = None
    """The corporation that owns it, the depot (new or discarded), or nobody (rusted)."""
    operated: bool = False
    obsolete: bool = False
    rusted: bool = False

    @property
    def id(self) -> str:
        return f"{self.name}-{self.index}"


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(frozen=True)
class Trains:
    """Trains held by nobody in particular: the what-if set a route search runs instead of a
    corporation's own trains (``Game.best_run``)."""

    trains: list[Train]

    def __getstate__(self) -> list[object]:
        """Pickle and copy, as ``dataclasses`` does for a slotted class (``core.native``)."""
        return fields_state(self)

    def __setstate__(self, state: list[object]) -> None:
        set_fields_state(self, state)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Company(Holder):
    """A private company: an entity like any other holder, owned by a player or a
    corporation."""

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


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Corporation(Holder):
    """A public company; minors and companies formed, merged or transformed during play are
    kinds of it.  Its own unsold certificates (the treasury / IPO) are held by itself.

    ``certificates`` is the register of its certificates in play (replaced during play by
    :func:`~stellwerk.core.shares.reissue`); ``share_unit`` the percentage of one ordinary
    share (declared, else the smallest ordinary certificate, also where ordinary certificates
    differ in size; for a minor with only a president's certificate, that one); ``owner`` its
    president -- a player, another corporation, the pool, or nobody.
    """

    kind = "corporation"

    def __init__(
        self,
        sym: str,
        name: str,
        share_percents: list[int],
        tokens: int,
        float_percent: int,
        home: str | None,
        share_unit: int | None = None,
    ) -> None:
        super().__init__(name)
        self.sym = sym
        self.full_name = name
        self.num_tokens = tokens
        self.float_percent = float_percent
        self.home = home
        self.share_price: Cell | None = None
        self.par_price: Cell | None = None
        self.ipoed = False
        self.floated = False
        self.closed = False
        self.owner: Holder | None = None
        self.trains: list[Train] = []
        self.companies: list[Company] = []
        self.operating_history: list[tuple[int, int]] = []
        self.certificates: list[Share] = []
        self.next_certificate_index = 0
        self.declared_share_unit = share_unit
        self.president_percent = 0
        self.share_unit = share_unit or 100
        issue_certificates(self, share_percents)

    @property
    def presidents_share(self) -> Share | None:
        for share in self.certificates:  # (a loop: asked by every purchase test)
            if share.president:
                return share
        return None

    def register_changed(self) -> None:
        """Recompute what follows from the register (called by the certificate operations):
        the president's certificate percent and the ordinary share unit -- declared, else the
        smallest ordinary certificate (also where they differ in size), else the president's (a
        minor with a single certificate)."""
        pres = self.presidents_share
        self.president_percent = pres.percent if pres is not None else 0
        ordinary = [s.percent for s in self.certificates if not s.president]
        self.share_unit = self.declared_share_unit or min(
            ordinary, default=self.president_percent or 100
        )

    @property
    def total_shares(self) -> int:
        return 100 // self.share_unit

    def treasury_shares(self) -> list[Share]:
        return self.shares.get(self.sym, [])

    @property
    def operated(self) -> bool:
        return bool(self.operating_history)

    @property
    def share_holders(self) -> dict[Holder, int]:
        """Percent per holder (nonzero only), derived from the register in certificate order."""
        out: dict[Holder, int] = {}
        for share in self.certificates:
            owner = share.owner
            if owner is not None:
                out[owner] = out.get(owner, 0) + share.percent
        return out

    def market_percent(self) -> int:
        return sum(s.percent for s in self.certificates if isinstance(s.owner, SharePool))

    def sort_key(self) -> tuple[int, int, int, int, str]:
        """Operating order key: price high first, column right first, row top first,
        earlier arrival first, then name (common rules §6.2)."""
        sp = self.share_price
        assert sp is not None
        arrival = sp.corporations.index(self.sym) if self.sym in sp.corporations else 0
        return (-sp.price, -sp.column, sp.row, arrival, self.sym)


Entity: TypeAlias = Player | Corporation | Company
"""An entity that acts (sends actions, is asked what it may do): a player, a corporation --
majors, minors and the corporations formed, merged or transformed during play are all
corporations -- or a private company (its abilities).  Rounds and steps take this union where
any kind may come (the routing asks every step about the action's entity) and narrow it with
``isinstance`` where the rules tell the kinds apart."""


def chain_of_control(corp: Corporation) -> list[Holder | None]:
    """The presidents from ``corp`` upwards: its owner, that one's owner while it is a
    corporation, ... ending at a player, the pool, None (no president), or a repeated
    corporation (a circular chain)."""
    chain: list[Holder | None] = []
    seen: set[int] = {id(corp)}
    entity: Holder | None = corp.owner
    while True:
        chain.append(entity)
        if not isinstance(entity, Corporation) or id(entity) in seen:
            return chain
        seen.add(id(entity))
        entity = entity.owner


def controller(entity: Holder | None) -> Player | None:
    """The player who controls ``entity``: a player controls himself; a corporation is
    controlled by the player its chain of control ends at, directly or through corporations;
    None if the chain ends at the pool or nobody, or loops (the corporation is frozen)."""
    if isinstance(entity, Player):
        return entity
    if not isinstance(entity, Corporation):
        return None
    owner = entity.owner
    if isinstance(owner, Player):  # most chains: a player presides
        return owner
    # the end of chain_of_control, walked without listing it (asked very often)
    seen = {id(entity)}
    while isinstance(owner, Corporation):
        if id(owner) in seen:
            return None  # a circular chain
        seen.add(id(owner))
        owner = owner.owner
    return owner if isinstance(owner, Player) else None


def is_circular(corp: Corporation) -> bool:
    """Whether ``corp``'s chain of control loops."""
    last = chain_of_control(corp)[-1]
    return isinstance(last, Corporation)


def controlled_corporations(
    player: Player, corporations: Iterable[Corporation]
) -> list[Corporation]:
    """The corporations whose chain of control ends at ``player``."""
    return [c for c in corporations if controller(c) is player]
