"""Starting, floating and releasing the majors, and what their IPO certificates cost
(seed 004; rules/1835.md 3.1, 4, 5.2, 10.5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stellwerk.core.entities import Corporation, Share, transfer
from stellwerk.titles.g1835.entities import Minor, c35
from stellwerk.titles.g1835.names import PR

if TYPE_CHECKING:
    from stellwerk.titles.g1835.game import Game1835


def check_floated(game: Game1835, corp: Corporation) -> None:
    """A major floats when players and pool hold its float percentage; it receives its
    start price per 10 % sold and places its home token (rules/1835.md 3.1, 5.2)."""
    if corp.floated or isinstance(corp, Minor) or c35(corp).formed_by_exchange:
        return
    sold = 100 - corp.percent_of(corp.sym)
    if sold < corp.float_percent or corp.par_price is None:
        return
    corp.floated = True
    if corp.share_price is not None and corp.sym not in corp.share_price.corporations:
        corp.share_price.corporations.append(corp.sym)
    amount = corp.par_price.price * sold // 10
    transfer(game.bank, corp, amount, "1835 rules §5.2")
    game.note("float", corp=corp.sym, amount=amount)
    game.map.place_home(corp)


def start_company(game: Game1835, corp: Corporation) -> None:
    """The first sale of the director's certificate starts the company: its marker goes on
    the start price (rules/1835.md 5.2).  It joins the cell's stack (the operating order
    among equal prices) only when it floats (Rails: BY moving onto C4 before SX floated
    there operates first, report 1835_Forced_Selling_PR_5_Shares line 356)."""
    if corp.ipoed:
        return
    corp.ipoed = True
    corp.share_price = corp.par_price


def update_releases(game: Game1835) -> None:
    """Release share groups (seed 004 items 2.3-2.6; Rails ReleaseRules, rules/1835.md 4)."""
    for rule in game.data.release_rules:
        target = rule.company
        if target == PR:
            if game.pr_buyable:
                continue
        elif target in game.released:
            continue
        if all(
            100 - game.corporation(c).percent_of(c) >= rule.sold_percent for c in rule.companies
        ):
            if target == PR:
                game.pr_buyable = True
            else:
                game.released.add(target)
            game.note("released", corp=target)


def next_ipo_share(game: Game1835, corp: Corporation) -> Share | None:
    """The next certificate the IPO sells: strictly in certificate order; PR only its four
    buyable shares (rules/1835.md 4)."""
    reserved = c35(corp).reserved
    for share in corp.shares_of(corp.sym):
        if reserved and reserved[share.index]:
            continue
        return share
    return None


def ipo_available(game: Game1835, corp: Corporation) -> bool:
    if isinstance(corp, Minor):
        return False
    if corp.sym == PR:
        return game.pr_buyable
    return corp.sym in game.released


def ipo_price(game: Game1835, corp: Corporation, share: Share) -> int:
    """Start price per 10 %, PR too after its formation (Rails: report 1835_Issue129done
    line 1242 buys PR at 154 while it trades at 138; rules/1835.md 10.5 said current)."""
    cell = corp.par_price
    assert cell is not None
    return cell.price * share.percent // 10
