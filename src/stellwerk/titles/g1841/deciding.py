"""Who decides for a corporation that a merger forms before it has a president.

A merger moves the merging corporations' trains to the target before the shares are
exchanged (rules/1841.md 2.3.11, as 18xx.games does), so the target may have to discard trains
over its limit while its president certificate is still unissued -- while the exchange asks
who takes it.  As for the target's token removal when nobody at the end of its chain is a
player ("the deciding player", rules/1841.md 2.3.11 and 5.3), the merger's deciding player
decides for the target then: the acting corporation's president, or the Tuscan merge's
decider (2.4.2).  Nothing here changes the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from stellwerk.core.entities import Corporation, Player
from stellwerk.titles.g1841.merger import Merger, deref
from stellwerk.titles.g1841.tuscan import Tuscan

if TYPE_CHECKING:
    from stellwerk.titles.g1841.decisions import Procedure, ProcedureGame


def forming_decider(
    game: ProcedureGame, procedures: Sequence[Procedure], corp: Corporation
) -> Player | None:
    """The deciding player of the merger under way whose target is ``corp``; None when no
    merger forms ``corp``."""
    for procedure in procedures:
        merging = procedure.merging() if isinstance(procedure, Tuscan) else None
        if isinstance(procedure, Merger):
            merging = procedure.machine
        if merging is not None and merging.target == corp.sym:
            found = deref(game, merging.decider)
            return found if isinstance(found, Player) else None
    return None
