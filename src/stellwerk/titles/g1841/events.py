"""What the first train of a type sets off (rules/1841.md 2.4).

:func:`first_train_of` is called whenever a train leaves the depot: the phase changes when its
type starts one (its borders bind the region graph from then on), older trains rust, then the
train type's events run in the order the data lists them (game.toml ``trains.events``: at the
first 4 the concessions close, the phase-4 borders, the Ferdinandea Secession and the Tuscan
Merge; at the first 5 the phase-5 borders).  The borders of a phase are data of the phase
(``MapPort.set_phase``), so the two border events have nothing left to do here.

Stub: the events of the first 4-train are written elsewhere (issue 8); :data:`EVENTS` maps an
event name to its procedure once it exists.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from stellwerk.core.entities import Train

if TYPE_CHECKING:
    from stellwerk.titles.g1841.game import Game1841


def _nothing(game: Game1841) -> None:
    """An event whose effect follows from the phase (the borders of phases 4 and 5)."""


EVENTS: dict[str, Callable[[Game1841], None]] = {
    "phase4_regions": _nothing,
    "phase5_regions": _nothing,
}
"""The procedure of each train event by name; an event not listed does nothing yet
(``close_companies``, ``ferd_secession``, ``tuscan_merge``: rules/1841.md 2.4, 2.4.1, 2.4.2)."""


def first_train_of(game: Game1841, train: Train) -> None:
    """A train left the depot: phase change (the new phase's borders), rusting, then the
    type's events in data order (rules/1841.md 2.4)."""
    while game.phases.next_on(train.name):
        game.phases.advance()
    game.map.set_phase(game.phases.current.name)
    game.rust_trains(train)
    events, train.events = train.events, []
    if train.name in game.types_bought:
        return
    game.types_bought.add(train.name)
    for event in events:
        EVENTS.get(event, _nothing)(game)
