"""Placeholders for the last three steps of a corporation's turn until their modules exist
(rules/1841.md 2.3.2, 2.3.8, 2.3.11, 2.3.12): they hold the steps' places in the order and
offer only ``pass`` where 18xx.games would ask the corporation at all, so that games replay up
to the first real corporate share action or merger.

* Corporate share trading (2.3.8): asked when the corporation could sell or buy a share (a
  rough test: shares of others it holds once they have operated, its own treasury once it has
  operated; a share of another corporation in its treasury or the pool it can pay; or a
  start it can pay).
* Merge (2.3.11): asked when the corporation may merge and a target major is free; passed
  automatically when no partner is at hand (18xx.games auto-pass).
* Transform (2.3.12): never asked here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stellwerk.core.entities import Corporation, SharePool
from stellwerk.core.flow.base import Action, Step, act
from stellwerk.titles.g1841 import frozen

if TYPE_CHECKING:
    from stellwerk.titles.g1841.game import Game1841


def _price(corp: Corporation) -> int:
    return corp.share_price.price if corp.share_price is not None else 0


def may_trade(game: Game1841, corp: Corporation) -> bool:
    """A rough test whether corporate share trading has anything to offer (2.3.8)."""
    for sym, shares in corp.shares.items():
        if not shares:
            continue
        if sym == corp.sym:
            if corp.sym in game.operated_corps and game.pool.percent_of(sym) < 50:
                return True
            continue
        other = game.corporation(sym)
        if other.sym in game.operated_corps:
            return True
    if game.num_certs(corp) >= game.cert_limit(corp):
        return False
    for other in game.corporations:
        if other is corp or not other.ipoed or other.share_price is None:
            continue
        if other in _chain(corp):
            continue
        holders = [other, game.pool]
        for holder in holders:
            shares = holder.shares.get(other.sym, [])
            for share in shares:
                if share.president and not isinstance(holder, SharePool):
                    continue
                cost = _price(other) * share.percent // other.share_unit
                if cost <= corp.cash and game.holding_ok(corp, other, share.percent):
                    return True
    return False


def _chain(corp: Corporation) -> list[Any]:
    out: list[Any] = []
    owner = corp.owner
    while isinstance(owner, Corporation) and owner not in out:
        out.append(owner)
        owner = owner.owner
    return out


class CorporateShares(Step):
    """Corporate share trading's place (rules/1841.md 2.3.8): ``pass`` only."""

    description = "Corporate Sell then Buy Shares"
    game: Game1841

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        if entity.sym in self.game.done_this_round:
            return []
        return ["pass"] if may_trade(self.game, entity) else []


def mergeable(game: Game1841, corp: Corporation) -> bool:
    """Not historical before phase 4, operated, not frozen, not closed (2.3.11)."""
    spec = game.specs[corp.sym]
    return (
        (not spec.historical or int(game.phases.current.name) >= 4)
        and corp.sym in game.operated_corps
        and not frozen.is_frozen(game, corp)
        and not corp.closed
    )


def merge_targets(game: Game1841) -> list[Corporation]:
    """Non-historical majors not started and not closed (2.3.11)."""
    return [
        c
        for c in game.corporations
        if not game.specs[c.sym].historical
        and not c.ipoed
        and game.specs[c.sym].type == "major"
        and not c.closed
    ]


class Merge(Step):
    """The Merge step's place (rules/1841.md 2.3.11): ``pass`` only."""

    description = "Merge"
    game: Game1841

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        if entity.sym in self.game.done_this_round or not mergeable(self.game, entity):
            return []
        return ["pass"] if merge_targets(self.game) else []

    def auto_actions(self, entity: Any) -> list[Action] | None:
        return [act(entity, "pass")] if self.actions(entity) else None


class Transform(Step):
    """The Transform step's place (rules/1841.md 2.3.12): never asks here."""

    description = "Transform"
