"""Certificates and directorships in 1835: the certificate limit with its 80 % bonus, the
sold-out test, and the swap of certificates on a change of director (rules/1835.md 1,
5.1-5.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stellwerk.core.entities import Corporation, Holder, Player, Share
from stellwerk.core.errors import IllegalAction
from stellwerk.core.shares import Bundle, ChangePresident, fewest_summing, move_share
from stellwerk.titles.g1835.entities import c35

if TYPE_CHECKING:
    from stellwerk.titles.g1835.game import Game1835


def cert_limit_for(game: Game1835, player: Player | None) -> int:
    """Table limit + 1 per major held at 80 % or more (rules/1835.md 1); the table's limit
    when no player is named."""
    if player is None:
        return game.data.cert_limit[len(game.all_players)]
    bonus = game.data.raw["cert_limit_bonus"]
    extra = sum(
        int(bonus["bonus"])
        for sym in bonus["majors"]
        if player.percent_of(sym) >= int(bonus["percent_held"])
    )
    return game.data.cert_limit[len(game.all_players)] + extra


def change_president_for(game: Game1835, corp: Corporation) -> ChangePresident:
    """The new director hands over the fewest certificates worth the director's
    certificate (Rails; rules/1835.md 5.3)."""

    def change(pres_share: Share, swap_to: Holder, president: Holder, _prev: Holder) -> None:
        for share in game.swap_certificates(president, corp, pres_share.percent):
            move_share(share, swap_to)
        move_share(pres_share, president)
        game.note("president", corp=corp.sym, player=president.name)

    return change


def swap_certificates(
    game: Game1835, holder: Holder, corp: Corporation, percent: int
) -> list[Share]:
    """On a change of director by purchase the new director hands over single
    certificates first (Rails: the old director can then sell them singly, report
    1835_Correct_Sell_Pass line 751); double ones only if needed."""
    out: list[Share] = []
    total = 0
    for share in sorted(
        (s for s in holder.shares_of(corp.sym) if not s.president), key=lambda s: s.percent
    ):
        if total + share.percent <= percent:
            out.append(share)
            total += share.percent
    if total == percent:
        return out
    return game.fewest_certificates(holder, corp, percent)


def fewest_certificates(
    game: Game1835, holder: Holder, corp: Corporation, percent: int
) -> list[Share]:
    """Ordinary certificates of ``holder`` worth exactly ``percent``, as few as possible."""
    ordinary = [s for s in holder.shares_of(corp.sym) if not s.president]
    best = fewest_summing(ordinary, lambda s: s.percent, percent)
    if best is None:
        raise IllegalAction(f"{holder.name} cannot hand over {percent}%", "1835 rules §5.3")
    return best


def sold_out(game: Game1835, corp: Corporation) -> bool:
    """No certificate in the IPO or the pool; PR's unexchanged reserved certificates count
    only without the option (rules/1835.md 5.1, 11)."""
    if game.pool.percent_of(corp.sym):
        return False
    treasury = corp.treasury_shares()
    reserved = c35(corp).reserved
    if reserved and game.settings.sold_out_ignores_reserved_pr:
        treasury = [s for s in treasury if not reserved[s.index]]
    return not treasury


def transfer_certificates(
    game: Game1835, bundle: Bundle, to: Holder, allow_president_change: bool = True
) -> None:
    """Move certificates and settle the directorship (common rules §6.6)."""
    corp = bundle.corporation
    before = corp.owner
    if c35(corp).formed_by_exchange and not game.pr_formed:
        allow_president_change = False
    game.transfer_shares(bundle, to, allow_president_change)
    changed = corp.owner is not before and corp.owner is not None and before is not None
    if changed and not any(e["kind"] == "president" for e in game.events[-1:]):
        assert corp.owner is not None
        game.note("president", corp=corp.sym, player=corp.owner.name)
