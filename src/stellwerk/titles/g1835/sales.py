"""Selling certificates to the pool, in stock rounds and emergencies (rules/1835.md 5.3, 8.8).

* Only whole certificates (no splitting), all of one size per sale action.
* The pool never holds more than 50 %.
* The director's certificate goes only if another player holds at least its percentage; that
  player becomes director and hands over ordinary certificates, which go to the pool.
* Each sale action moves the price one row down (none if there is no cell below).  A repeated
  sale of the same company in the same turn does not move the price and, by default, is paid at
  the price before the first sale (Rails SeparateSalesAtSamePrice); the seller may then lower the
  price one row (Rails AdjustSharePrice).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.asking import Answer, Asked, Facts
from stellwerk.core.entities import Corporation, Entity, Player, Share, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.events import SharesSold, ref
from stellwerk.core.flow.base import Action
from stellwerk.core.shares import Bundle, move_share
from stellwerk.titles.g1835.entities import Minor

if TYPE_CHECKING:
    from stellwerk.titles.g1835.game import Game1835

RULE = "1835 rules §5.3"


@dataclass
class SaleMemory:
    """What one turn (or one emergency) has sold: the price before the first sale of each
    company, and the company whose repeated sale may be followed by a price drop."""

    first_price: dict[str, int] = field(default_factory=dict)
    adjustable: str | None = None


def sale_error(game: Game1835, player: Player, bundle: Bundle) -> str | None:
    """Why ``player`` may not sell ``bundle`` (None if he may), apart from timing rules."""
    corp = bundle.corporation
    if isinstance(corp, Minor):
        return "minor certificates cannot be sold"
    if any(s.owner is not player for s in bundle.shares):
        return "only own certificates can be sold"
    if len({s.percent for s in bundle.shares}) > 1 or bundle.partial:
        return "certificates of different sizes are sold separately, and never split"
    if game.pool.percent_of(corp.sym) + bundle.percent > game.market_share_limit:
        return "the pool may hold at most 50 %"
    if corp.share_price is None:
        return f"{corp.sym} has no price yet"
    pres = bundle.presidents_share
    if pres is not None and successor(game, player, bundle) is None:
        return "the director's certificate goes only to another player holding more"
    return None


def successor(game: Game1835, seller: Player, bundle: Bundle) -> Player | None:
    """Who takes over when the director sells his certificate: the player holding most, at
    least the certificate's percentage and more than the seller keeps; ties clockwise from the
    seller (rules/1835.md 5.3)."""
    corp = bundle.corporation
    pres = bundle.presidents_share
    assert pres is not None
    left = seller.percent_of(corp.sym) - bundle.percent
    players = game.players
    i0 = players.index(seller)
    best: Player | None = None
    for k in range(1, len(players)):
        p = players[(i0 + k) % len(players)]
        pct = p.percent_of(corp.sym)
        if p.bankrupt or pct < pres.percent or pct <= left:
            continue
        if best is None or pct > best.percent_of(corp.sym):
            best = p
    return best


def dump(game: Game1835, seller: Player, bundle: Bundle) -> None:
    """The director's certificate is sold: the successor takes it and the fewest ordinary
    certificates worth as much go from him to the pool (rules/1835.md 5.3)."""
    corp = bundle.corporation
    pres = bundle.presidents_share
    assert pres is not None
    heir = successor(game, seller, bundle)
    assert heir is not None
    for share in game.fewest_certificates(heir, corp, pres.percent):
        move_share(share, game.pool)
    for share in bundle.shares:
        move_share(share, heir if share is pres else game.pool)
    game.set_president(corp, heir)
    game.note("president", corp=corp.sym, player=heir.name)


def sale_bundles(game: Game1835, player: Player, corp: Corporation) -> list[Bundle]:
    """Every distinct sale of one company: n certificates of one size (director's separate)."""
    shares = player.shares_of(corp.sym)
    out: list[Bundle] = []
    by_size: dict[int, list[Share]] = {}
    for share in shares:
        if not share.president:
            by_size.setdefault(share.percent, []).append(share)
    for _size, group in sorted(by_size.items()):
        for n in range(1, len(group) + 1):
            out.append(Bundle.of(group[:n], corp))
    pres = next((s for s in shares if s.president), None)
    if pres is not None:
        out.append(Bundle.of([pres], corp))
    return [b for b in out if sale_error(game, player, b) is None]


def sell(game: Game1835, player: Player, bundle: Bundle, memory: SaleMemory) -> int:
    """Sell to the pool; returns the money received (rules/1835.md 5.3)."""
    error = sale_error(game, player, bundle)
    if error:
        raise IllegalAction(error, RULE)
    corp = bundle.corporation
    cell = corp.share_price
    assert cell is not None
    repeated = corp.sym in memory.first_price
    if repeated and game.settings.repeated_sale_at_first_price:
        price = memory.first_price[corp.sym]
    else:
        price = cell.price
    memory.first_price.setdefault(corp.sym, cell.price)
    amount = sum(price * s.percent // 10 for s in bundle.shares)
    transfer(game.bank, player, amount, RULE)
    game.note("sale", player=player.name, corp=corp.sym, amount=amount)
    game.journal.append(SharesSold(ref(player), corp.sym, bundle.percent, amount))
    if bundle.presidents_share is not None:
        dump(game, player, bundle)
    else:
        game.transfer_certificates(bundle, game.pool)
    if repeated:
        memory.adjustable = corp.sym
    else:
        memory.adjustable = None
        game.move_price(corp, "down")
    return amount


def lower_price(game: Game1835, memory: SaleMemory, corp_sym: str | None) -> None:
    """The optional one-row drop after a repeated sale (Rails AdjustSharePrice)."""
    if memory.adjustable is None or corp_sym not in (None, memory.adjustable):
        raise IllegalAction("the price can be lowered only after a repeated sale", RULE)
    game.move_price(game.corporation(memory.adjustable), "down")
    memory.adjustable = None


def bundle_of(game: Game1835, action: moves.SellShares) -> Bundle:
    ids = action.shares
    if not ids:
        raise IllegalAction("no certificates named", RULE)
    shares = [game.share_by_id(str(i)) for i in ids]
    corp = game.corporation(shares[0].corporation)
    if any(s.corporation != corp.sym for s in shares):
        raise IllegalAction("certificates of one company per action", RULE)
    return Bundle.of(shares, corp)


def lower_price_question(
    entity: Entity, memory: SaleMemory, listed: Sequence[Action]
) -> Asked | None:
    """The optional price drop after a repeated sale as a question (its one listed
    ``choose``; rules/1835.md 5.3): ``lower_price`` of the corporation sold again."""
    if memory.adjustable is None:
        return None
    about: Facts = (("corporation", memory.adjustable),)
    answers = tuple(
        Answer(dict(a), "lower_price", about) for a in listed if a.get("type") == "choose"
    )
    return Asked(entity, "lower_price", answers, about) if answers else None
