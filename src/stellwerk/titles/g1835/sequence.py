"""The order of rounds in 1835: start rounds until the packet is sold (ORs in between), stock
rounds, operating rounds per phase, and the Prussian formation rounds between them
(rules/1835.md 2, 10.1)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from stellwerk.core.entities import Entity, Train
from stellwerk.core.flow.base import Round
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.titles.g1835.entities import Paper
from stellwerk.titles.g1835.formation import FormationRound

if TYPE_CHECKING:
    from stellwerk.titles.g1835.game import Game1835


def record_round_end(game: Game1835, rnd: Round[Entity]) -> None:
    if getattr(rnd, "kind", "") == "formation":
        return
    cash = {c.sym: c.cash for c in game.corporations if c.floated and not c.closed}
    cash.update({p.name: p.cash for p in game.players if not p.bankrupt})
    label = getattr(rnd, "label", rnd.name)
    game.round_ends.append((label, cash))
    if getattr(rnd, "kind", "") == "operating":
        worth = {
            p.name: game.player_value(p) - game.or_start_worth.get(p.name, 0) for p in game.players
        }
        game.worth_changes.append((label, worth))


def next_round(game: Game1835) -> None:
    """Start rounds until the packet is sold (ORs in between), then SR, ORs per phase,
    SR ...; a Prussian formation round between any two rounds while PR is incomplete in
    phases 4-5 (rules/1835.md 2, 10.1)."""
    rnd = game.round
    record_round_end(game, rnd)
    if isinstance(rnd, FormationRound):
        game.round = rnd.after()
        return
    follow = following(game, rnd)
    if game.formation_due():
        game.round = game.new_formation_round(follow)
    else:
        game.round = follow()


def following(game: Game1835, rnd: Round[Entity]) -> Callable[[], Round[Entity]]:
    kind = getattr(rnd, "kind", "")
    if kind == "start":
        if not game.start_items:
            return game.new_stock_round
        game.packet_sold_in_one_go = False
        game.or_in_set += 1
        num = game.or_in_set
        return partial(game.new_operating_round, num)
    if kind == "stock":
        game.operating_rounds = game.phases.current.operating_rounds
        return partial(game.new_operating_round, 1)
    assert isinstance(rnd, OperatingRound)
    if kind == "operating" and game.start_items:
        return game.new_start_round
    if rnd.round_num < game.operating_rounds:
        num = rnd.round_num + 1
        return partial(game.new_operating_round, num)
    return game.new_stock_round


def prussian_papers(game: Game1835) -> list[Paper]:
    """Minors and privates still to be exchanged for PR shares (rules/1835.md 10.3)."""
    out: list[Paper] = [m for m in game.minors_list if m.floated and not m.closed]
    for c in game.companies:
        spec = game.data.private(c.sym)
        if spec.prussian_exchange_percent and not c.closed and c.owner is not None:
            out.append(c)
    return out


def formation_due(game: Game1835) -> bool:
    """A formation round at a round boundary: phases 4, 4+4 and 5 while PR is incomplete
    (rules/1835.md 10.1)."""
    status = game.phases.current.status
    if not any(s.startswith("prussia") for s in status):
        return False
    return bool(game.prussian_papers()) or not game.pr_formed


def formation_trigger(game: Game1835, train: Train, phase_changed: bool) -> bool:
    """A formation round interrupts the OR after the first 4, the 4+4 while PR is not
    started, the first 5 while papers remain (rules/1835.md 10.1)."""
    events = game.train_events.get(train.name, [])
    if "prussian_formation_round" not in events:
        return False
    if train.name == "4":
        return phase_changed
    if train.name == "4+4":
        return not game.pr_formed
    return phase_changed and bool(game.prussian_papers())
