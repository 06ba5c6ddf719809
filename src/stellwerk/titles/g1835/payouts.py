"""Money paid out: private revenues, dividends and splits, and the players' net worth
(rules/1835.md 6, 7, 8.6, 12)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stellwerk.core.entities import Corporation, Holder, Player, transfer
from stellwerk.titles.g1835.entities import Minor
from stellwerk.titles.g1835.names import PR

if TYPE_CHECKING:
    from stellwerk.titles.g1835.game import Game1835


def player_value(game: Game1835, player: Player) -> int:
    """Cash + certificates at the current price per 10 % (PR options at its start price
    before the formation; minors 0) + privates at face value (rules/1835.md 12)."""
    value = player.cash
    for share in player.all_shares():
        corp = game.corporation(share.corporation)
        if isinstance(corp, Minor):
            continue
        cell = corp.share_price or corp.par_price
        if cell is not None:
            value += cell.price * share.percent // 10
    return value + sum(c.value for c in player.companies)


def payout_companies(game: Game1835) -> None:
    """Player-owned open privates pay their revenue at the start of every OR, in the
    order of the company list (rules/1835.md 6)."""
    for company in game.companies:
        owner = company.owner
        if company.closed or not isinstance(owner, Player) or not company.revenue:
            continue
        transfer(game.bank, owner, company.revenue, "1835 rules §6")
        game.note("private_revenue", player=owner.name, amount=company.revenue)


def pay_dividend(game: Game1835, corp: Corporation, revenue: int, kind: str) -> None:
    """Majors pay out (each holder revenue x percent, halves up; pool shares pay the
    company; IPO and reserved shares nobody) or withhold; minors split, keeping the lower
    half (rules/1835.md 8.6, 7)."""
    if isinstance(corp, Minor):
        if revenue:
            keep = revenue // 2
            transfer(game.bank, corp, keep, "1835 rules §7")
            owner = corp.owner
            assert owner is not None
            transfer(game.bank, owner, revenue - keep, "1835 rules §7")
            game.note("payout", to=owner.name, amount=revenue - keep)
            game.note("payout", to=corp.sym, amount=keep)
        return
    if kind == "withhold":
        if revenue:
            transfer(game.bank, corp, revenue, "1835 rules §8.6")
    elif revenue:
        denied = income_denied(game, corp)
        for holder in [*game.players, game.pool]:
            pct = holder.percent_of(corp.sym)
            if isinstance(holder, Player) and denied.get(holder):
                cut = min(pct, denied[holder])
                game.note("income_denied", player=holder.name, corp=corp.sym, percent=cut)
                pct -= cut
            if not pct:
                continue
            amount = (revenue * pct * 2 + 100) // 200
            target: Holder = corp if holder is game.pool else holder
            if amount:
                transfer(game.bank, target, amount, "1835 rules §8.6")
                game.note("payout", to=getattr(target, "sym", target.name), amount=amount)
    paid = revenue if kind == "payout" else 0
    game.move_price(corp, "right" if paid > 0 else "left")


def income_denied(game: Game1835, corp: Corporation) -> dict[Player, int]:
    """PR paying in the OR a formation round interrupted: a player does not get PR's dividend
    on the percentage he already earned from this OR through BB/HB's revenue (10 % each) or a
    minor of his that operated (its exchange share); Rails OperatingRound_1835 counts this per
    player without checking that the paper was exchanged (rules/1835.md 10.4).  We never cut
    below nothing, where Rails' count could go negative."""
    rnd = game.round
    if corp.sym != PR or not getattr(rnd, "interrupted", False):
        return {}
    tally: dict[Player, int] = getattr(rnd, "income_tally", {})
    return {p: pct for p, pct in tally.items() if pct > 0}
