"""Share bundles, moving certificates, and presidency changes (common rules §6.6).

Certificates keep their order inside each holder's list: a certificate that moves is
appended to the receiver's list.  Game files name certificates by id, so which physical
certificate moves matters; the order rules below follow 18xx.games.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol, TypeVar

from mypy_extensions import mypyc_attr

from stellwerk.core.entities import (
    Corporation,
    Holder,
    Player,
    Share,
    SharePool,
    arrival_order,
    issue_certificates,
    move_share,
    retire_certificates,
)
from stellwerk.core.errors import IllegalAction

__all__ = [
    "Bundle",
    "ChangePresident",
    "ControlRules",
    "all_bundles",
    "can_dump",
    "generic_change_president",
    "interchangeable",
    "iter_bundles",
    "keeps_presidency",
    "more_than_needed",
    "move_share",
    "presidency_candidates",
    "reissue",
    "seat_distance",
    "transfer_bundle",
]

T = TypeVar("T")


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(eq=False, slots=True)
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
        owner = self.shares[0].owner
        assert owner is not None, "a bundle of certificates out of play"
        return owner

    @property
    def presidents_share(self) -> Share | None:
        for share in self.shares:  # a plain loop: asked for every bundle a turn tests
            if share.president:
                return share
        return None

    @property
    def partial(self) -> bool:
        total = 0
        for share in self.shares:  # (a loop: every purchase test asks this)
            total += share.percent
        return self.percent != total

    def num_shares(self) -> float:
        return self.percent / self.corporation.share_unit

    def price_per_share(self) -> int:
        corp = self.corporation
        cell = corp.share_price
        return cell.price if cell is not None else 0

    @property
    def price(self) -> int:
        return math.ceil(self.price_per_share() * self.num_shares())


def interchangeable(a: Bundle, b: Bundle) -> bool:
    """Two bundles are interchangeable: same owner, percent and certificate sizes (which
    certificates of a kind an action names does not matter for whether it is allowed)."""
    return (
        a.owner is b.owner
        and a.percent == b.percent
        and sorted(s.percent for s in a.shares) == sorted(s.percent for s in b.shares)
    )


def seat_distance(players: list[Player], a: Holder | None, b: Player) -> int:
    """Clockwise seat distance from ``a`` to ``b`` (0 if ``a`` is not a seated player)."""
    if a is None or a not in players:
        return 0
    ia, ib = players.index(a), players.index(b)
    return ib - ia if ia < ib else ib - (ia - len(players))


class ControlRules(Protocol):
    """What a title decides about presidents (the core :class:`~stellwerk.core.game.Game`
    answers for every title; common rules §6.6)."""

    def may_preside(self, corp: Corporation, holder: Holder) -> bool:
        """Whether ``holder`` may be president of ``corp`` (and its holding counts as sold)."""
        ...

    def president_distance(self, previous: Holder | None, candidate: Holder) -> int:
        """How far ``candidate`` sits after the previous president (ties go to the nearest)."""
        ...


ChangePresident = Callable[[Share, Holder, Holder, Holder], None]


def presidency_candidates(corp: Corporation, rules: ControlRules) -> dict[Holder, int]:
    """Percent per holder that may be president of ``corp`` (nonzero holdings only)."""
    return {h: p for h, p in corp.share_holders.items() if rules.may_preside(corp, h)}


def transfer_bundle(
    bundle: Bundle,
    to: Holder,
    rules: ControlRules,
    pool: SharePool,
    change_president: ChangePresident,
    handle_partial: Callable[[Bundle, Holder, Holder], None],
    allow_president_change: bool = True,
) -> None:
    """Move a bundle to ``to`` and settle the presidency (SharePool#transfer_shares).

    After the move the holders that may preside with the highest percentage are candidates;
    if the old president is one of them nothing changes; otherwise the candidate holding at
    least the president's certificate percent who sits closest after the old president takes
    over and swaps ordinary certificates for the president's certificate.
    """
    corp = bundle.corporation
    owner = bundle.owner
    previous_president = corp.owner
    for share in bundle.shares:
        move_share(share, to)
    if not allow_president_change:
        return
    holders = presidency_candidates(corp, rules)
    max_pct = max(holders.values(), default=0)
    majority = [h for h, pct in holders.items() if pct == max_pct]
    if previous_president in majority:
        return
    president: Holder | None = None
    if previous_president is None:
        ps = corp.presidents_share
        president = next((h for h in majority if ps is not None and h is ps.owner), None)
    if president is None:
        eligible = [h for h in majority if h.percent_of(corp.sym) >= corp.president_percent]
        if eligible and isinstance(previous_president, SharePool):
            # the pool presiding, all are equally near: the first holder (18xx.games)
            president = min(eligible, key=lambda h: arrival_order(h, corp.sym))
        elif eligible:
            president = min(eligible, key=lambda h: rules.president_distance(previous_president, h))
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

    def change(pres_share: Share, swap_to: Holder, president: Holder, _prev: Holder) -> None:
        num = pres_share.percent // corp.share_unit
        for s in list(president.shares_of(corp.sym))[:num]:
            move_share(s, swap_to)
        move_share(pres_share, president)

    return change


def reissue(
    corp: Corporation,
    percents: list[int],
    order: list[Holder] | None = None,
    scale: Fraction = Fraction(1),
) -> list[Share]:
    """Replace ``corp``'s certificates by new ones of ``percents`` (the first the president's)
    during play (a transformation, merger or formation of a title).

    Every holder gets new certificates worth its old percentage times ``scale`` (1: the same
    percentage): the holder of the old president's certificate receives the new one and
    ordinary certificates for the rest, then the other holders in ``order`` (default: the
    register's order) get ordinary ones, and the treasury keeps what is left.  Certificate
    ids continue after the old ones.  Nothing changes if a holding cannot be matched exactly
    by the new certificates; then IllegalAction is raised.
    """
    rule = "common rules §6.6 (certificates replaced)"
    holdings = corp.share_holders
    old_pres = corp.presidents_share
    pres_holder = old_pres.owner if old_pres is not None else None
    sequence = [h for h in (order or list(holdings)) if h is not corp and holdings.get(h)]
    sequence += [h for h in holdings if h is not corp and h not in sequence]
    if pres_holder is not None and pres_holder is not corp:
        sequence.remove(pres_holder)
        sequence.insert(0, pres_holder)
    targets: dict[Holder, int] = {}
    for holder in sequence:
        target = holdings[holder] * scale
        if target.denominator != 1:
            raise IllegalAction(f"{holder.name} cannot get {target}% of {corp.sym}", rule)
        targets[holder] = int(target)
    if sum(targets.values()) > sum(percents):
        raise IllegalAction(f"{corp.sym}'s new certificates cannot cover its holders", rule)
    # plan on certificate positions: 0 is the president's
    free = list(range(1, len(percents)))
    plan: dict[Holder, list[int]] = {}
    for holder in sequence:
        want = targets[holder]
        picked: list[int] = []
        if holder is pres_holder:
            if want < percents[0]:
                raise IllegalAction(
                    f"{holder.name} holds too little of {corp.sym} for its president's certificate",
                    rule,
                )
            picked.append(0)
            want -= percents[0]
        chosen = fewest_summing(free, lambda i: percents[i], want)
        if chosen is None:
            raise IllegalAction(f"no new certificates of {corp.sym} make {want}%", rule)
        for i in chosen:
            free.remove(i)
        plan[holder] = picked + chosen
    retire_certificates(corp)
    new = issue_certificates(corp, percents)
    for holder in sequence:
        for i in sorted(plan[holder]):
            move_share(new[i], holder)
    return new


def fewest_summing(items: Sequence[T], size: Callable[[T], int], want: int) -> list[T] | None:
    """The fewest of ``items`` whose sizes sum to exactly ``want`` (tried largest first, equal
    sizes in the given order), or None: which certificates make up a percentage."""
    ordered = sorted(items, key=lambda item: -size(item))
    best: list[T] | None = None

    def search(i: int, acc: list[T], total: int) -> None:
        nonlocal best
        if total == want:
            if best is None or len(acc) < len(best):
                best = list(acc)
            return
        if total > want or i >= len(ordered) or (best is not None and len(acc) >= len(best)):
            return
        search(i + 1, [*acc, ordered[i]], total + size(ordered[i]))
        search(i + 1, acc, total)

    search(0, [], 0)
    return best


def all_bundles(holder: Holder, corp: Corporation) -> list[Bundle]:
    """Generic sellable bundles: growing prefixes of the holder's certificates sorted with the
    president's certificate last, plus partial president bundles (base game rule)."""
    return sorted(iter_bundles(holder, corp), key=lambda b: b.percent)


def iter_bundles(holder: Holder, corp: Corporation) -> Iterator[Bundle]:
    """The bundles of :func:`all_bundles` one at a time, smallest prefix first, the partial
    president bundles last (for existence tests, which mostly stop at the first)."""
    if not corp.ipoed:
        return
    shares = sorted(holder.shares_of(corp.sym), key=lambda s: (1 if s.president else 0, s.percent))
    if not shares:
        return
    acc: list[Share] = []
    pct = 0
    for share in shares:
        acc.append(share)
        pct += share.percent
        yield Bundle(list(acc), pct, corp)  # Bundle.of with the percent given
    if shares[-1].president:
        normal = corp.share_unit
        n_partial = (corp.president_percent - normal) // normal
        for n in range(1, n_partial + 1):
            yield Bundle(list(acc), pct - normal * n, corp)


def _may_preside(corp: Corporation, holder: Holder, rules: ControlRules | None) -> bool:
    """``rules.may_preside``; without rules, players and other corporations."""
    if rules is not None:
        return rules.may_preside(corp, holder)
    return isinstance(holder, Player) or (isinstance(holder, Corporation) and holder is not corp)


def can_dump(bundle: Bundle, seller: Holder, rules: ControlRules | None = None) -> bool:
    """A president's certificate may only go to the pool if another holder who may preside
    (the title's ``may_preside``; ShareBundle#can_dump?) has at least its percentage
    (common rules §6.6)."""
    ps = bundle.presidents_share
    if ps is None:
        return True
    corp = bundle.corporation
    others = [
        pct
        for h, pct in corp.share_holders.items()
        if h is not seller and _may_preside(corp, h, rules)
    ]
    return max(others, default=0) >= ps.percent


def keeps_presidency(bundle: Bundle, seller: Holder, rules: ControlRules | None = None) -> bool:
    """Whether ``seller`` still holds at least as much of the corporation as any other holder
    who may preside (the title's ``may_preside``; never the corporation's own treasury) after
    selling ``bundle``: an emergency sale may not give the presidency away (common rules §6,
    emergency money raising)."""
    corp = bundle.corporation
    holders: dict[Holder, int] = {
        h: p for h, p in corp.share_holders.items() if _may_preside(corp, h, rules)
    }
    remaining = holders.get(seller, 0) - bundle.percent
    return remaining >= max((p for h, p in holders.items() if h is not seller), default=0)


def more_than_needed(bundle: Bundle, needed: int) -> bool:
    """Whether ``bundle`` would still raise ``needed`` without its smallest certificate: an
    emergency sale may raise no more than is needed (common rules §6, emergency money
    raising; a partial certificate counts at its share of the price, rounded up)."""
    corp = bundle.corporation
    smallest = min(
        math.ceil(bundle.price_per_share() * share.percent / corp.share_unit)
        for share in bundle.shares
    )
    return bundle.price - smallest >= needed
