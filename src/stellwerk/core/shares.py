"""Share bundles, moving certificates, and presidency changes (common rules §6.6).

Certificates keep their order inside each holder's list: a certificate that moves is
appended to the receiver's list.  Game files name certificates by id, so which physical
certificate moves matters; the order rules below follow 18xx.games.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from stellwerk.core.entities import Corporation, Holder, Player, Share, SharePool


@dataclass(eq=False)
class Bundle:
    """Certificates of one corporation from one owner; ``percent`` may be less than the
    certificates' sum when half of a president's certificate is sold."""

    shares: list[Share]
    percent: int
    corporation: Corporation

    @classmethod
    def of(
        cls, shares: list[Share], corporation: Corporation, percent: int | None = None
    ) -> Bundle:
        total = sum(s.percent for s in shares)
        return cls(list(shares), total if percent is None else percent, corporation)

    @property
    def owner(self) -> Holder:
        return self.shares[0].owner

    @property
    def presidents_share(self) -> Share | None:
        return next((s for s in self.shares if s.president), None)

    @property
    def partial(self) -> bool:
        return self.percent != sum(s.percent for s in self.shares)

    def num_shares(self) -> float:
        return self.percent / self.corporation.share_percent

    def price_per_share(self) -> int:
        corp = self.corporation
        cell = corp.share_price
        return cell.price if cell is not None else 0

    @property
    def price(self) -> int:
        return math.ceil(self.price_per_share() * self.num_shares())


def move_share(share: Share, to: Holder) -> None:
    """Move one certificate to a new owner (appended to the end of its list)."""
    lst = share.owner.shares.get(share.corporation)
    if lst is not None and share in lst:
        lst.remove(share)
    to.shares.setdefault(share.corporation, []).append(share)
    share.owner = to


def seat_distance(players: list[Player], a: Holder | None, b: Player) -> int:
    """Clockwise seat distance from ``a`` to ``b`` (0 if ``a`` is not a seated player)."""
    if a is None or a not in players:
        return 0
    ia, ib = players.index(a), players.index(b)
    return ib - ia if ia < ib else ib - (ia - len(players))


ChangePresident = Callable[[Share, Holder, Player, Holder], None]


def transfer_bundle(
    bundle: Bundle,
    to: Holder,
    players: list[Player],
    pool: SharePool,
    change_president: ChangePresident,
    handle_partial: Callable[[Bundle, Holder, Holder], None],
    allow_president_change: bool = True,
) -> None:
    """Move a bundle to ``to`` and settle the presidency (SharePool#transfer_shares).

    After the move the player(s) with the highest percentage are candidates; if the old
    president is one of them nothing changes; otherwise the candidate holding at least the
    president's certificate percent who sits closest after the old president takes over and
    swaps ordinary certificates for the president's certificate.
    """
    corp = bundle.corporation
    owner = bundle.owner
    previous_president = corp.owner
    corp.share_holders[owner] = corp.share_holders.get(owner, 0) - bundle.percent
    corp.share_holders[to] = corp.share_holders.get(to, 0) + bundle.percent
    for share in bundle.shares:
        move_share(share, to)
    if not allow_president_change:
        return
    holders = corp.player_holders()
    max_pct = max(holders.values(), default=0)
    majority = [p for p, pct in holders.items() if pct == max_pct]
    if previous_president in majority:
        return
    president: Player | None = None
    if previous_president is None:
        ps = corp.shares[corp.sym][0] if corp.shares.get(corp.sym) else None
        president = next((p for p in majority if ps is not None and p is ps.owner), None)  # type: ignore[assignment]
    if president is None:
        eligible = [p for p in majority if p.percent_of(corp.sym) >= corp.president_percent]
        if eligible:
            president = min(  # type: ignore[assignment]
                eligible,
                key=lambda p: seat_distance(players, previous_president, p),  # type: ignore[arg-type]
            )
    if president is None:
        return
    corp.owner = president
    pres_share = bundle.presidents_share
    if to is president and previous_president is owner and pres_share and not bundle.partial:
        return
    if owner is president or previous_president is None:
        return
    if pres_share is None:
        pres_share = next((s for s in previous_president.shares_of(corp.sym) if s.president), None)
    if pres_share is None:
        return
    transfer_to: Holder = pool
    swap_to: Holder = (
        previous_president
        if previous_president.percent_of(corp.sym) >= pres_share.percent
        else transfer_to
    )
    change_president(pres_share, swap_to, president, previous_president)
    if bundle.partial:
        handle_partial(bundle, transfer_to, owner)


def generic_change_president(
    corp: Corporation,
) -> ChangePresident:
    """Default presidency swap: the new president hands over ordinary certificates worth the
    president's certificate and receives it."""

    def change(pres_share: Share, swap_to: Holder, president: Player, _prev: Holder) -> None:
        num = pres_share.percent // corp.share_percent
        for s in list(president.shares_of(corp.sym))[:num]:
            move_share(s, swap_to)
        move_share(pres_share, president)

    return change


def all_bundles(holder: Holder, corp: Corporation) -> list[Bundle]:
    """Generic sellable bundles: growing prefixes of the holder's certificates sorted with the
    president's certificate last, plus partial president bundles (base game rule)."""
    if not corp.ipoed:
        return []
    shares = sorted(holder.shares_of(corp.sym), key=lambda s: (1 if s.president else 0, s.percent))
    if not shares:
        return []
    bundles: list[Bundle] = []
    acc: list[Share] = []
    pct = 0
    for share in shares:
        acc.append(share)
        pct += share.percent
        bundles.append(Bundle.of(list(acc), corp, pct))
    if shares[-1].president:
        normal = corp.share_percent
        n_partial = (corp.president_percent - normal) // normal
        for n in range(1, n_partial + 1):
            bundles.append(Bundle.of(list(acc), corp, pct - normal * n))
    return sorted(bundles, key=lambda b: b.percent)


def can_dump(bundle: Bundle, seller: Holder) -> bool:
    """A president's certificate may only go to the pool if another holder has at least
    its percentage (ShareBundle#can_dump?)."""
    ps = bundle.presidents_share
    if ps is None:
        return True
    corp = bundle.corporation
    others = [
        pct
        for h, pct in corp.share_holders.items()
        if h is not seller
        and (isinstance(h, Player) or (isinstance(h, Corporation) and h is not corp))
    ]
    return max(others, default=0) >= ps.percent


def keeps_presidency(bundle: Bundle, seller: Holder) -> bool:
    """Whether ``seller`` still holds at least as much of the corporation as any other holder
    (players and other corporations; not the corporation's own treasury) after selling
    ``bundle``: an emergency sale may not give the presidency away (common rules §6, emergency
    money raising)."""
    corp = bundle.corporation
    holders: dict[Holder, int] = {
        h: p
        for h, p in corp.share_holders.items()
        if isinstance(h, Player) or (isinstance(h, Corporation) and h is not corp)
    }
    remaining = holders.get(seller, 0) - bundle.percent
    return remaining >= max((p for h, p in holders.items() if h is not seller), default=0)


def more_than_needed(bundle: Bundle, needed: int) -> bool:
    """Whether ``bundle`` would still raise ``needed`` without its smallest certificate: an
    emergency sale may raise no more than is needed (common rules §6, emergency money
    raising; a partial certificate counts at its share of the price, rounded up)."""
    corp = bundle.corporation
    smallest = min(
        math.ceil(bundle.price_per_share() * share.percent / corp.share_percent)
        for share in bundle.shares
    )
    return bundle.price - smallest >= needed
