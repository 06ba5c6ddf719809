"""1841's emergency money (EMR, rules/1841.md 2.3.7; seed 000 items 1.13, 2.21, 2.22, 5.6;
seed 003 H8, H11).

A corporation that must buy a train (no train, a route, trains in the depot) and cannot pay
the cheapest depot train raises the money in this order:

1. **The chain of corporations** (the buyer, then the corporation presiding over it, and so
   on): at the first one that, counting the cash of the chain so far, still needs money and
   has a legal bundle, that corporation sells -- shares of *other* corporations it holds if it
   has a legal bundle of them, otherwise its own IPO shares (:func:`issuable_bundles`).  The
   action is ``sell_shares`` with ``entity`` = the buyer (18xx.games routes every action of
   the train step through the operating corporation).
2. **The controlling player** (only when no corporation of the chain has a legal bundle):
   any bundle :func:`may_sell` allows (the site shows them all; it does not stop him from
   raising more than needed).
3. **Automatic sweeps** (no action in the file): after a sale by anyone but the buyer, the
   owners up the buyer's chain give it what is still missing of the cheapest depot price,
   the immediate owner first, up to and including the seller (:func:`sweep`); when the buyer
   then buys the train short of cash, the sweep runs up to the controlling player.

Every sale is at **half** the market price, the bundle's total rounded up as 18xx.games does
(``ceil(price / 2 * shares)``; seed 000 item 2.21 rounds it down: setting
``emr_half_price_rounding``), and moves the price down like a normal sale (seed 003 H2,
setting ``corporate_sales_of_others_drop_price`` off: not when a corporation sells another
corporation's shares, emergency money being no exception).

**No overselling** for the chain's sales: a bundle is legal only if its half-price total is
below what is still needed plus the half price of one share (no share in it is unneeded).

**Which shares may go** (18xx.games ``emr_can_sell?``, seed 000 item 1.13): any amount --
even the president's certificate, even beyond 50 % in the pool, even of corporations that
have not operated -- if the seller is the corporation itself (its IPO), or the seller is not
the president of that corporation, or that corporation is outside the buyer's own chain and
is non-historical or the phase is 4 or later.  Otherwise the seller keeps at least as much as
the next-largest other holder -- player or corporation, either could take the presidency --
and keeps the president's certificate.  Half a president's certificate is sold only if
another holder holds more than 10 % or the pool holds a share.
Options narrow this: ``emr_sales_need_operated`` (seed 000 item 5.6: never shares of a
corporation in its first operating round) and ``emr_president_cert_to_pool`` False (seed 003
H8: no director certificate may land in the pool).

Once a sale or a sweep has happened (*EMR triggered*), the train bought must be the cheapest
depot train (seed 003 H11); after it the corporation may buy further trains normally (FAQ
2.22).  That flag lives in the train step (:mod:`.trains`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction
from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.entities import (
    Corporation,
    Entity,
    Holder,
    Player,
    chain_of_control,
    transfer,
)
from stellwerk.core.events import SharesSold, ref
from stellwerk.core.flow.base import Action, act
from stellwerk.core.shares import Bundle, presidency_candidates
from stellwerk.titles.g1841 import frozen
from stellwerk.titles.g1841.ownership import (
    move_bundle,
    presidency_may_change,
    sale_drops_price,
    trial,
)

if TYPE_CHECKING:
    from stellwerk.titles.g1841.decisions import ProcedureGame

RULE = "rules/1841.md 2.3.7"

Seller = Corporation | Player


# -- the chain ------------------------------------------------------------------------------


def chain_of_corps(buyer: Corporation) -> list[Corporation]:
    """The buyer and the corporations presiding over it, upwards, up to (not including) the
    player, the pool or a repeat (rules/1841.md 2.3.9)."""
    out = [buyer]
    for owner in chain_of_control(buyer):
        if not isinstance(owner, Corporation) or owner in out:
            break
        out.append(owner)
    return out


def owners(buyer: Corporation) -> list[Seller]:
    """Who gives cash in a sweep: the buyer's chain of control upwards, the controlling
    player last (rules/1841.md 2.3.7, automatic cash sweeps)."""
    out: list[Seller] = []
    for owner in chain_of_control(buyer):
        if not isinstance(owner, (Corporation, Player)) or owner is buyer or owner in out:
            break
        out.append(owner)
        if isinstance(owner, Player):
            break
    return out


def in_full_chain(buyer: Corporation, corp: Corporation) -> bool:
    """``corp`` is the buyer or presides over it, directly or through corporations."""
    return corp is buyer or corp in chain_of_control(buyer)


def needed_price(game: ProcedureGame, buyer: Corporation) -> int:
    """What EMR raises: the cheapest depot train's price (rules/1841.md 2.3.7)."""
    return game.min_depot_price(buyer)


# -- prices -------------------------------------------------------------------------------------


def half_share_price(bundle: Bundle) -> Fraction:
    """Half the market price of one share (rules/1841.md 2.3.7)."""
    return Fraction(bundle.price_per_share(), 2)


def half_total(game: ProcedureGame, bundle: Bundle) -> int:
    """The half-price total of a bundle: rounded up (18xx.games), or down (seed 000 item
    2.21, ``emr_half_price_rounding``)."""
    # half a share's price times the shares, in whole numbers: price * percent / (2 * unit)
    numerator = bundle.price_per_share() * bundle.percent
    denominator = 2 * bundle.corporation.share_unit
    if game.settings.emr_half_price_rounding == "down":
        return numerator // denominator
    return -(-numerator // denominator)


def unhalved_total(bundle: Bundle) -> int:
    """A bundle's total at the full market price, rounded up -- what 18xx.games pays a sale
    that names no ``share_price``, a corporation's own treasury shares included (its random
    games: ATFA's two treasury shares at market 57 bring 114, not its par price)."""
    corp = bundle.corporation
    return math.ceil(Fraction(bundle.price_per_share()) * Fraction(bundle.percent, corp.share_unit))


def sale_amount(game: ProcedureGame, bundle: Bundle, action: moves.SellShares | None) -> int:
    """What an emergency sale pays (rules/1841.md 2.3.7: half price, :func:`half_total`).

    Replay of 18xx.games' files: that site pays a sale the ``share_price`` the action
    carries, and a ``sell_shares`` *without* one at the full market price --
    its random and scripted players send such sales.  The file's later state follows that
    payment, so a recorded sale without ``share_price`` is paid :func:`unhalved_total`.
    Live play never reaches this: every listed emergency sale carries ``share_price``
    (:func:`sale_action`) and the live gate refuses a sale that leaves it out (it is not
    among the fields a sender may omit), so a live sale is always at half price."""
    if action is not None and action.share_price is None:
        return unhalved_total(bundle)
    return half_total(game, bundle)


def sale_action(entity: Entity, bundle: Bundle) -> Action:
    """A ``sell_shares`` action as 18xx.games records an emergency sale: the certificates,
    the percentage and the half price per share as ``share_price``."""
    return act(
        entity,
        "sell_shares",
        shares=[s.id for s in bundle.shares],
        percent=bundle.percent,
        share_price=share_price_field(bundle),
    )


def issue_actions(
    game: ProcedureGame, buyer: Corporation, entity: Entity, bundles: list[Bundle]
) -> list[Action]:
    """The ``sell_shares`` actions of a corporation's emergency sales, as 18xx.games sends
    them: its corporation-sale buttons (``IssueShares``) send the certificates and the half
    price but no percentage, so each sale is of its certificates *whole* -- the button of
    half a president's certificate (:func:`may_sell_partial`) sells the whole certificate at
    that half price per share (the offboards game, action 385: CTS's 10 % button of AFI's
    20 % president's certificate sells all 20 % for L.230); a button whose whole sale
    :func:`may_sell` refuses is not listed.  Duplicates are listed once."""
    out: list[Action] = []
    for bundle in bundles:
        whole = sum(s.percent for s in bundle.shares)
        if whole != bundle.percent and not may_sell(
            game, buyer, Bundle.of(list(bundle.shares), bundle.corporation, whole)
        ):
            continue
        action = act(
            entity,
            "sell_shares",
            shares=[s.id for s in bundle.shares],
            percent=whole,
            share_price=share_price_field(bundle),
        )
        if action not in out:
            out.append(action)
    return out


def share_price_field(bundle: Bundle) -> int | float:
    """The ``share_price`` a game file records for a half-price sale (18xx.games writes the
    half price, e.g. 34.5)."""
    half = half_share_price(bundle)
    return int(half) if half.denominator == 1 else float(half)


# -- which bundles (emr_can_sell?) --------------------------------------------------------------


def _holder_percents(corp: Corporation, without: Holder) -> list[int]:
    """What each other holder who could take the presidency holds of ``corp``: players and
    corporations (in 1841 a corporation may preside over another, rules/1841.md 2.3.8), not
    ``corp`` itself and not the pool.  18xx.games counts the same holders (its
    ``player_share_holders`` with ``corporation_can_ipo``): a president whose historical
    corporation is also held 30 % by another corporation keeps 30 % (our selfplay game with
    the SFLi run variant, 4 players, seed 75003, action 876: Player 3's bankruptcy sold none of
    SFTG in its first part, CTS holding 30 %)."""
    return [
        p
        for h, p in corp.share_holders.items()
        if isinstance(h, (Player, Corporation)) and h is not without and h is not corp and p
    ]


def may_sell_any_amount(
    game: ProcedureGame, owner: Holder, corp: Corporation, buyer: Corporation
) -> bool:
    """The seller is the corporation itself, or not its president, or the corporation is
    outside the buyer's chain and its presidency may change (non-historical or phase 4+)
    (rules/1841.md 2.3.7, seed 000 item 1.13)."""
    return (
        owner is corp
        or owner is not corp.owner
        or (not in_full_chain(buyer, corp) and presidency_may_change(game, corp))
    )


def presidency_reached(game: ProcedureGame, corp: Corporation) -> bool:
    """Whether a holder that may preside over ``corp`` holds at least its president's
    percentage.  A president's certificate sold into the pool leaves the corporation presided
    by the pool only when nobody does (18xx.games' sale into receivership; rules/1841.md
    2.3.7, 2.6): otherwise the presidency settles as after any sale (rules/1841.md 2.2.1) --
    it passes to such a holder with the certificate, or stays with a president who still holds
    the most when the seller held the certificate apart from the presidency (a
    player-to-player purchase of the certificate alone, rules/1841.md 4.3; our selfplay
    1841lite with player-to-player purchases, 6 players seed 76753, driver with veto P,
    action 924: bankrupt Player 2's CGTF certificate sold out, Player 1, president with
    30 %, stays)."""
    held = presidency_candidates(corp, game).values()
    return max(held, default=0) >= corp.president_percent


def may_sell_partial(game: ProcedureGame, owner: Holder, corp: Corporation) -> bool:
    """Half a president's certificate only if another holder (player or corporation) holds
    more than 10 % or the pool holds a share (18xx.games ``can_sell_partial?``)."""
    return max(_holder_percents(corp, owner), default=0) > 10 or bool(game.pool.shares_of(corp.sym))


def minimum_to_retain(
    game: ProcedureGame, owner: Holder, corp: Corporation, buyer: Corporation
) -> int:
    """What a restricted seller keeps: as much as the next-largest holder, player or
    corporation (so the presidency cannot pass)."""
    if may_sell_any_amount(game, owner, corp, buyer):
        return 0
    return max(_holder_percents(corp, owner), default=0)


def _option_allows(game: ProcedureGame, bundle: Bundle) -> bool:
    """The options' limits: seed 000 item 5.6 (only operated corporations) and seed 003 H8
    (no director certificate lands in the pool)."""
    corp = bundle.corporation
    settings = game.settings
    if settings.emr_sales_need_operated and corp.sym not in game.operated_corps:
        return False
    if not settings.emr_president_cert_to_pool and bundle.presidents_share is not None:
        return not president_to_pool(game, bundle)
    return True


def president_to_pool(game: ProcedureGame, bundle: Bundle) -> bool:
    """Whether selling ``bundle`` would leave the president's certificate in the pool (tried
    and put back)."""
    corp = bundle.corporation
    with trial(game, corp):
        move_bundle(game, bundle, game.pool, presidency_may_change(game, corp))
        ps = corp.presidents_share
        return ps is not None and ps.owner is game.pool


def valid_bundles(
    game: ProcedureGame, owner: Holder, corp: Corporation, buyer: Corporation
) -> list[Bundle]:
    """``owner``'s bundles of ``corp`` an emergency sale for ``buyer`` may contain
    (18xx.games ``emr_valid_bundles``, plus the options' limits)."""
    if not owner.shares_of(corp.sym):
        return []
    bundles = game.bundles_for_corporation(owner, corp)
    most = owner.percent_of(corp.sym) - minimum_to_retain(game, owner, corp, buyer)
    if not may_sell_any_amount(game, owner, corp, buyer):
        bundles = [b for b in bundles if b.presidents_share is None]
    return [b for b in bundles if b.percent <= most and _option_allows(game, b)]


def may_sell(game: ProcedureGame, buyer: Corporation, bundle: Bundle) -> bool:
    """Whether ``bundle`` may be sold in an emergency for ``buyer`` (18xx.games
    ``emr_can_sell?``, plus the options' limits)."""
    owner = bundle.owner
    corp = bundle.corporation
    if not corp.ipoed or not _option_allows(game, bundle):
        return False
    if bundle.partial and not may_sell_partial(game, owner, corp):
        return False
    if may_sell_any_amount(game, owner, corp, buyer):
        return True
    return (
        minimum_to_retain(game, owner, corp, buyer) <= owner.percent_of(corp.sym) - bundle.percent
        and bundle.presidents_share is None
    )


def _held(holder: Holder, game: ProcedureGame) -> Iterator[Corporation]:
    for corp in game.corporations:
        if holder.shares_of(corp.sym):
            yield corp


def sale_value(game: ProcedureGame, owner: Holder, buyer: Corporation) -> int:
    """What ``owner`` could raise: per corporation its legal bundle with the most shares."""
    total = 0
    for corp in _held(owner, game):
        bundles = valid_bundles(game, owner, corp, buyer)
        if bundles:
            total += half_total(game, max(bundles, key=lambda b: b.percent))
    return total


def next_bundles(
    game: ProcedureGame, owner: Seller, buyer: Corporation, needed: int
) -> list[Bundle]:
    """The legal sales of one seller of the chain: no share more than needed; a corporation's
    shares of other corporations first, its own IPO shares only when it has none of those
    (18xx.games ``emr_shares_next``)."""
    if needed <= 0:
        return []
    fitting = list(_fitting(game, owner, buyer, needed))
    others = [b for b in fitting if b.corporation is not owner]
    return others or [b for b in fitting if b.corporation is owner]


def _fitting(
    game: ProcedureGame, owner: Seller, buyer: Corporation, needed: int
) -> Iterator[Bundle]:
    """The legal sales of ``owner`` of no share more than needed: a bundle whose half-price
    total is less than ``needed`` plus half a share's price (in whole numbers: twice the
    total against twice the need plus a share's price), one at a time."""
    for corp in _held(owner, game):
        for b in valid_bundles(game, owner, corp, buyer):
            if 2 * half_total(game, b) < 2 * needed + b.price_per_share():
                yield b


def issuable_bundles(
    game: ProcedureGame, buyer: Corporation, needed: int | None = None
) -> list[Bundle]:
    """The bundles of the first corporation of the chain that still needs money and has a
    legal sale; empty when none has (18xx.games ``emergency_issuable_bundles``)."""
    left = needed_price(game, buyer) if needed is None else needed
    for corp in chain_of_corps(buyer):
        left -= corp.cash
        if left <= 0:
            return []
        found = next_bundles(game, corp, buyer, left)
        if found:
            return found
    return []


def has_issuable(game: ProcedureGame, buyer: Corporation, needed: int | None = None) -> bool:
    """Whether :func:`issuable_bundles` lists any: the same walk up the chain, stopped at the
    first legal sale found (the train step asks this after every action)."""
    left = needed_price(game, buyer) if needed is None else needed
    for corp in chain_of_corps(buyer):
        left -= corp.cash
        if left <= 0:
            return False
        if next(_fitting(game, corp, buyer, left), None) is not None:
            return True
    return False


def cash_before_issuing(game: ProcedureGame, buyer: Corporation, needed: int | None = None) -> int:
    """The chain's cash up to the first corporation with a legal sale (18xx.games
    ``emergency_cash_before_issuing``)."""
    left = needed_price(game, buyer) if needed is None else needed
    total = 0
    for corp in chain_of_corps(buyer):
        total += corp.cash
        left -= corp.cash
        if next_bundles(game, corp, buyer, left):
            return total
    return total


def cash_before_selling(game: ProcedureGame, buyer: Corporation, needed: int) -> int:
    """As :func:`cash_before_issuing`, the controlling player's cash included (18xx.games
    ``emergency_cash_before_selling``)."""
    left = needed
    total = 0
    for entity in [buyer, *owners(buyer)]:
        total += entity.cash
        left -= entity.cash
        if next_bundles(game, entity, buyer, left):
            return total
    return total


def issuable_cash(game: ProcedureGame, buyer: Corporation) -> int:
    """What the chain could still raise beyond the cash already counted (18xx.games
    ``emergency_issuable_cash``)."""
    total = sum(c.cash + sale_value(game, c, buyer) for c in chain_of_corps(buyer))
    return total - cash_before_issuing(game, buyer)


def player_bundles(game: ProcedureGame, player: Player, buyer: Corporation) -> list[Bundle]:
    """Every bundle the controlling player may sell for ``buyer`` (the site lists them all)."""
    return [
        b
        for corp in _held(player, game)
        for b in game.bundles_for_corporation(player, corp)
        if may_sell(game, buyer, b)
    ]


def controller_of(buyer: Corporation) -> Player | None:
    chain = owners(buyer)
    last = chain[-1] if chain else None
    return last if isinstance(last, Player) else None


# -- moving money and certificates -------------------------------------------------------------


def sell(
    game: ProcedureGame,
    bundle: Bundle,
    action: moves.SellShares | None = None,
    *,
    president_change: bool | None = None,
    reorder: bool = True,
) -> None:
    """An emergency sale: the seller gets the half-price total from the bank (for a recorded
    ``action`` without ``share_price``, see :func:`sale_amount`), the bundle goes
    to the pool, the price drops a row per share (not for a corporation's sale of another
    corporation's shares under seed 003 H2, :func:`.ownership.sale_drops_price`); a
    president's certificate nobody can take leaves the corporation presided by the pool,
    frozen at once (18xx.games' ``update_frozen!`` after the sale: a frozen corporation
    after the buyer in the order has its frozen turn);
    before phase 4 a historical corporation's presidency stays (rules/1841.md 2.3.7, 2.2.1),
    unless ``president_change`` says otherwise (the first part of a bankrupt's sell-out, see
    :func:`.bankruptcy.sell_out`, which also leaves the operating order as it is:
    ``reorder`` off).  With seed 000 item 3.5
    (``emr_sales_block_corporate_rebuy``) a corporation's emergency sale is recorded among the
    round's sales (``RoundState.players_sold``) for corporate share trading to find; by
    default (18xx.games) it is not."""
    corp = bundle.corporation
    seller = bundle.owner
    amount = sale_amount(game, bundle, action)
    transfer(game.bank, seller, amount, RULE)
    game.journal.append(SharesSold(ref(seller), corp.sym, bundle.percent, amount))
    change = presidency_may_change(game, corp) if president_change is None else president_change
    move_bundle(game, bundle, game.pool, change)
    ps = corp.presidents_share
    if (
        change
        and ps is not None
        and ps.owner is game.pool
        and corp.owner is not game.pool
        and not presidency_reached(game, corp)
    ):
        game.set_president(corp, game.pool)
        if bundle.partial:
            game.handle_partial(bundle, game.pool, seller)
    if sale_drops_price(game, seller, corp):
        game.move_price(corp, "down", -(-bundle.percent // corp.share_unit))
    frozen.update(game)
    if game.settings.emr_sales_block_corporate_rebuy and isinstance(seller, Corporation):
        state = getattr(game.round, "state", None)
        if state is not None:
            state.players_sold.setdefault(seller, {})[corp.sym] = "now"
    recalculate = getattr(game.round, "recalculate_order", None) if reorder else None
    if callable(recalculate):
        recalculate()


def sweep(game: ProcedureGame, buyer: Corporation, seller: Holder | None, cost: int) -> None:
    """The owners up ``buyer``'s chain give it what it lacks of ``cost``, the immediate owner
    first, up to and including ``seller`` (``None``: up to the controlling player); nothing
    if the buyer sold itself (rules/1841.md 2.3.7, automatic cash sweeps)."""
    if seller is buyer:
        return
    for owner in owners(buyer):
        give = min(max(cost - buyer.cash, 0), owner.cash)
        if give > 0:
            transfer(owner, buyer, give, RULE)
        if owner is seller:
            break


def available(buyer: Corporation) -> int:
    """The buyer's cash and its owners' up to the controlling player: what a purchase short of
    cash can sweep together."""
    return buyer.cash + sum(o.cash for o in owners(buyer))


def token_emergency_money(game: ProcedureGame, corp: Corporation, amount: int) -> None:
    """The transformed major lacks ``amount`` for its required L.50 token (rules/1841.md
    2.3.12 "Token EMR", seed 000 item 2.5): the owners up its chain give what is missing, the
    controlling player last, as 18xx.games' token purchase sweeps.  (The interactive share
    sales of 18xx.games' TokenEmergencyMoney step, when even that is short, are not built;
    the purchase is then refused.)"""
    sweep(game, corp, None, amount)
