"""What the first train of a type sets off (rules/1841.md 2.4).

:func:`first_train_of` is called whenever a train leaves the depot: the phase changes when its
type starts one (its borders bind the region graph from then on), older trains rust, then the
train type's events run in the order the data lists them (``game.toml`` ``trains.events``):

* first 4-train: ``close_companies`` (all concessions close; the presidency of every started
  historical corporation is re-evaluated at once, seed 000 item 1.14; never-started ones
  close), ``phase4_regions`` (the phase-4 borders), ``ferd_secession`` (the Ferdinandea
  Secession, :mod:`.secession`) and, not in the lite game, ``tuscan_merge`` (the Tuscan
  Merge, ``tuscan.start``; it waits for the secession's decisions, 2.4 item 4);
* first 5-train: ``phase5_regions`` (only Lugano stays cut off).

:func:`run_train_events` runs a train's event list; :func:`first_four_events` and
:func:`first_five_events` run the 4-train's and the 5-train's.
"""

from __future__ import annotations

from typing import Protocol

from stellwerk.core.entities import Corporation, Train
from stellwerk.core.events import PhaseChanged
from stellwerk.titles.g1841 import secession, tuscan
from stellwerk.titles.g1841.decisions import ProcedureGame

RULE = "rules/1841.md 2.4"


class EventGame(ProcedureGame, Protocol):
    """What the long procedures use of the game (the secession and the Tuscan merge start
    here), with the train types already bought and the rusting of trains: what this module
    uses of the game (rules/1841.md 2.4)."""

    @property
    def types_bought(self) -> set[str]: ...

    def rust_trains(self, bought: Train) -> None: ...


def first_train_of(game: EventGame, train: Train) -> None:
    """A train left the depot: phase change (the new phase's borders), rusting, then the
    type's events in data order, once per type (rules/1841.md 2.4)."""
    while game.phases.next_on(train.name):
        game.phases.advance()
        game.journal.append(PhaseChanged(game.phases.name))
    game.map.set_phase(game.phases.current.name)
    game.rust_trains(train)
    events, train.events = train.events, []
    if train.name in game.types_bought:
        return
    game.types_bought.add(train.name)
    run_train_events(game, events)


def first_four_events(game: EventGame) -> None:
    """The first 4-train's events, in order (rules/1841.md 2.4)."""
    run_train_events(game, list(game.data.train("4").events))


def first_five_events(game: EventGame) -> None:
    """The first 5-train's events: the phase-5 borders (rules/1841.md 2.4)."""
    run_train_events(game, list(game.data.train("5").events))


def run_train_events(game: EventGame, events: list[str]) -> None:
    """Run a train type's events in the data's order (rules/1841.md 2.4)."""
    for event in events:
        EVENTS[event](game)


# -- concessions close (2.4 item 1) ---------------------------------------------------------
def close_concessions(game: EventGame) -> None:
    """Every concession closes, Bayard too.  A started corporation's presidency is re-evaluated
    at once (before the secession and the Tuscan merge: seed 000 item 1.14); a corporation
    never started closes (rules/1841.md 2.4 item 1)."""
    presidents = [c.owner for c in game.corporations]
    for company in list(game.companies):
        if company.closed:
            continue
        spec = next(c for c in game.data.companies if c.sym == company.sym)
        if spec.corporation is not None:
            corp = game.corporation(spec.corporation)
            if corp.ipoed:
                reevaluate_president(game, corp)
            elif not corp.closed:
                close_unstarted(game, corp)
        company.close()
    if presidents != [c.owner for c in game.corporations] and (
        not game.settings.transformation_updates_frozen
    ):
        # 18xx.games brings no frozen state up to date for these presidencies: they wait for
        # its next update (docs/architecture.md, defect I; its secession's exchange then
        # passes over a corporation frozen by them: our selfplay game of the first edition's
        # lite map with player trades and the SFLi variant, 3 players, seed 31015, IFAI at
        # action 476)
        game.frozen_held = True


def reevaluate_president(game: EventGame, corp: Corporation) -> None:
    """The player holding most becomes president; the old president keeps it on a tie; among
    new candidates the nearest in seat order after the old president; he needs at least the
    president's certificate's percentage (rules/1841.md 2.4 item 1).  Every holder that may
    preside counts -- players and other corporations (rules/1841.md 2.3.9; seed 000 on
    {3.2}: "another player or a corporation" may take the directorship), as in 18xx.games,
    whose holders for this count include corporations (its random game s11: SSFL's 30 % of
    IRSFF takes the presidency from Player 1's 20 % when the concessions close)."""
    previous = corp.owner
    holders = {h: p for h, p in corp.share_holders.items() if game.may_preside(corp, h)}
    if not holders:
        return
    top = max(holders.values())
    majority = [h for h, p in holders.items() if p == top]
    if previous in majority:
        return
    eligible = [h for h in majority if h.percent_of(corp.sym) >= corp.president_percent]
    if not eligible:
        return
    president = min(eligible, key=lambda h: game.president_distance(previous, h))
    pres_share = corp.presidents_share
    game.set_president(corp, president)
    if pres_share is None or pres_share.owner is None or pres_share.owner is president:
        return
    swap_to = pres_share.owner
    game.change_president_for(corp)(pres_share, swap_to, president, swap_to)


def close_unstarted(game: EventGame, corp: Corporation) -> None:
    """A corporation whose concession closes before it started closes for good; its home
    reservations go (rules/1841.md 2.4 item 1)."""
    game.map.board.unreserve(corp.sym)
    close_corporation(game, corp)


def close_corporation(game: ProcedureGame, corp: Corporation) -> None:
    """A historical corporation leaves the game: off the market, no president, closed
    (rules/1841.md 2.3.11, 2.4.1: IRSFF after the secession, SB/SFL when it is skipped)."""
    cell = corp.share_price
    if cell is not None and corp.sym in cell.corporations:
        cell.corporations.remove(corp.sym)
    corp.share_price = None
    corp.par_price = None
    corp.ipoed = False
    corp.floated = False
    game.set_president(corp, None)
    corp.closed = True


# -- borders (2.4 items 2, first 5) -------------------------------------------------------
def apply_borders(game: EventGame) -> None:
    """The political borders of the current phase are in force (rules/1841.md 1.2 "Borders by
    phase", 2.4): the phase-4 set from the first 4 (the Conservative Zone's border gone,
    Austria reduced to Veneto), the phase-5 set from the first 5 (only Lugano).  The borders
    are data of the phase: the phase change has set them (the graphs' cached networks stay
    until their next clearing, as in 18xx.games)."""
    if game.map.phase != game.phases.name:
        game.map.set_phase(game.phases.name)


# -- the Ferdinandea Secession and the Tuscan Merge (2.4 items 3, 4) ------------------------
def ferdinandea_secession(game: EventGame) -> None:
    """IRSFF splits into SB (first edition: SFV) and SFL (rules/1841.md 2.4.1)."""
    secession.start(game)


def tuscan_merge(game: EventGame) -> None:
    """SFLP, SFMA and SSFL merge into SFLi (rules/1841.md 2.4.2), after the secession's
    decisions if it still asks (2.4 item 4)."""
    waiting = secession.under_way(game)
    if waiting is not None:
        waiting.tuscan_deferred = True
        return
    start_tuscan_merge(game)


def start_tuscan_merge(game: ProcedureGame) -> None:
    """The Tuscan merge starts (rules/1841.md 2.4.2, :func:`.tuscan.start`)."""
    tuscan.start(game)


EVENTS = {
    "close_companies": close_concessions,
    "phase4_regions": apply_borders,
    "ferd_secession": ferdinandea_secession,
    "tuscan_merge": tuscan_merge,
    "phase5_regions": apply_borders,
}
"""The train events of the data (``game.toml``) and what runs them (rules/1841.md 2.4)."""
