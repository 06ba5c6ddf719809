"""Deadlines and default orders in the browser (the game master's, ``stellwerk.gm.defaults``).

A game may be created with a time per decision (``deadline_hours``).  Every action the web app
stores carries ``created_at`` (seconds since the epoch, as 18xx.games records it); the
decision now open is **due** that long after the last action (or after the game's creation).
Once it is due, any player of the game may trigger it (``POST /api/games/{id}/deadline``) and
the server's own ticker does so too: the decision gets the game master's **default order**
(``stellwerk.gm.defaults.default_action``: pass, no bids, best routes, pay out, the cheapest
compulsory train, the house rule's cash answers ...), recorded with ``"user": "deadline"``
and followed by a chat ``message`` that says so, so every player sees it in the log.  One
trigger settles one decision; the next one has its own deadline from then on.  The player
cannot ``undo`` a default order (it is not his move, web.service ``check_own_moves``).

Who decides is the engine's (``decider``); a decision nobody decides (a corporation in
receivership), a finished game or one without a deadline is refused (422, rule
``deadline``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from stellwerk.core.entities import EntityId, PlayerId
from stellwerk.core.errors import IllegalAction
from stellwerk.core.jsondata import JSONObject, JSONValue, optional_number
from stellwerk.store import StoredGame
from stellwerk.store.log import actions_of

if TYPE_CHECKING:
    from stellwerk.gm.defaults import Default

RULE = "deadline"
USER = "deadline"
"""The ``user`` of a default order: the server, not the player."""
MAX_HOURS = 24 * 60


def deadline_seconds(value: JSONValue) -> int | None:
    """The ``deadline_hours`` of a new-game request as seconds (None: no deadline)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= MAX_HOURS:
        raise ValueError(f"'deadline_hours' must be a number of hours from 0 to {MAX_HOURS}")
    return max(1, round(float(value) * 3600))


def due_at(stored: StoredGame, record: JSONValue) -> float | None:
    """When the open decision of ``stored`` is due (seconds since the epoch), or None."""
    if not isinstance(record, dict):
        return None
    seconds = optional_number(record, "deadline_seconds")
    if not seconds:
        return None
    since = optional_number(record, "created_at") or 0
    for action in reversed(actions_of(stored.data)):
        created = action.get("created_at")
        if isinstance(created, int | float) and not isinstance(created, bool):
            since = created
            break
    return float(since) + float(seconds)


@dataclass(frozen=True)
class Settled:
    """A decision settled by its default order."""

    action_count: int
    entity: EntityId
    player: PlayerId
    action: JSONObject
    note: str

    def to_json(self) -> JSONObject:
        return {
            "action_count": self.action_count,
            "entity": self.entity,
            "player": self.player,
            "default": self.action,
            "note": self.note,
        }


def default_for(
    stored: StoredGame, record: JSONValue, now: float
) -> tuple[EntityId, PlayerId, Default]:
    """(entity, player, Default) of the open decision of ``stored`` once it is due;
    ``IllegalAction`` (rule ``deadline``) when it is not due or cannot be defaulted."""
    from stellwerk.api import Game
    from stellwerk.gm.defaults import default_action
    from stellwerk.web.service import decider

    due = due_at(stored, record)
    if due is None:
        raise IllegalAction("this game has no deadline", RULE)
    game = stored.game
    if game.finished:
        raise IllegalAction("the game is over", RULE)
    if now < due:
        raise IllegalAction(f"the deadline has not passed: due in {due - now:.0f} s", RULE)
    if not isinstance(game, Game):
        raise IllegalAction("default orders need the engine", RULE)
    for entity in game.active_entities():
        player = decider(game, entity)
        if player is None:
            continue
        found = default_action(game, entity)
        if found is not None:
            return entity, player, found
    raise IllegalAction("no decision open now has a default order", RULE)
