"""Trains in 1835: limits per kind of company, phase changes with their events, rusting,
discards to the pool, and the privates that close on a train (rules/1835.md 6, 8.7, 9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stellwerk.core.entities import Corporation, Train
from stellwerk.core.events import PhaseChanged
from stellwerk.titles.g1835.entities import Minor
from stellwerk.titles.g1835.names import PR

if TYPE_CHECKING:
    from stellwerk.titles.g1835.game import Game1835


def train_limit(game: Game1835, corp: Corporation) -> int:
    """Minors 2/1, majors 4/3/2, PR 4/4/3 (rules/1835.md 8.7)."""
    return _limit(game.phase_limits[game.phases.name], corp)


def _limit(limits: dict[str, int], corp: Corporation) -> int:
    kind = "minor" if isinstance(corp, Minor) else ("PR" if corp.sym == PR else "major")
    return int(limits.get(kind, 0))


def crowded_corps(game: Game1835) -> list[Corporation]:
    """Companies over their train limit (asked at every step of every action: companies
    without trains are passed over first, and the phase's limits are looked up once)."""
    forming = game.formation is not None
    limits = game.phase_limits[game.phases.name]
    least = min(int(limits.get(kind, 0)) for kind in ("minor", "PR", "major"))
    return [
        c
        for c in game.corporations
        if len(c.trains) > least
        and c.floated
        and not c.closed
        and len(c.trains) > _limit(limits, c)
        and not (forming and c.sym == PR)
    ]


def buying_train(game: Game1835, train: Train) -> None:
    before = game.phases.name
    while game.phases.next_on(train.name):
        game.phases.advance()
        game.note("phase", phase=game.phases.name)
        game.journal.append(PhaseChanged(game.phases.name))
    game.rust_trains(train)
    if game.phases.name != before:
        for event in game.data.phases[game.phases.index].events:
            getattr(game, f"event_{event}")()


def reclaim_train(game: Game1835, train: Train) -> None:
    """A discarded train goes to the pool (rules/1835.md 8.7)."""
    owner = train.owner
    if isinstance(owner, Corporation):
        owner.trains.remove(train)
    game.depot.reclaim(train)


def event_close_privates(game: Game1835) -> None:
    """Phase 5 closes the privates that close on a phase (NF, OBB, PfB, LD)."""
    for company in game.companies:
        if game.data.private(company.sym).closes_on_phase == game.phases.name:
            game.close_company(company)


def after_train_bought(game: Game1835, corp: Corporation, train: Train) -> None:
    """LD closes when SX buys its first train (rules/1835.md 6)."""
    for c in game.data.privates:
        company = game.company(c.sym)
        raw = next(r for r in game.data.raw["companies"] if r["sym"] == c.sym)
        if raw.get("closes_when_train_bought_by") == corp.sym:
            game.close_company(company)
