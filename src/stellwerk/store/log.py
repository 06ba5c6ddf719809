"""The action log of a stored game: the rules for growing it (append, undo, redo).

The *action count* of a game is the number of raw entries in its game file's ``actions`` list,
``undo``, ``redo`` and ``message`` entries included.  It only grows: an undo is stored the way
18xx.games stores it, as an appended ``{"type": "undo", ...}`` action that ``stellwerk.io.undo``
resolves on load, so the undo/redo history is never lost (common rules §3.4).

Ids: a new action gets ``max(existing ids) + 1`` (ids ascend and may have gaps, common rules
§3.2).  An action that already carries an ``id`` (e.g. copied from an 18xx.games export) is
**refused** unless that id is exactly the next one: storing it blindly made files unloadable, and
silently renumbering it would hide that the caller looked at another point of the game.

These functions are pure: they take a game file dict and return a new one (the input is never
changed), so a refused action leaves nothing to undo.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Protocol

from stellwerk.core.entities import EntityId
from stellwerk.core.errors import GameFileError, IllegalAction
from stellwerk.core.jsondata import JSONObject, JSONValue, is_int, objects
from stellwerk.io.engine import EngineGame
from stellwerk.io.undo import (
    MESSAGE,
    REDO,
    RULE_IDS,
    RULE_UNDO,
    UNDO,
    controlled_mask,
    live_mask,
    next_id,
)

Action = JSONObject
"""One entry of a game file's ``actions``."""
GameData = JSONObject
"""A game file dict (18xx.games' shape, ``stellwerk.io.gamefile``)."""

if TYPE_CHECKING:
    from stellwerk.api import EntityId

CONTROL_KEYS = ("type", "entity", "entity_type", "action_id", "id")


class EngineClass(Protocol):
    """What the store needs of ``stellwerk.api.Game``: loading a game file dict."""

    def from_file(self, data: GameData) -> EngineGame:
        """Rebuild the game of a game file dict (undo/redo resolved); ``GameFileError``."""


def actions_of(data: GameData) -> list[Action]:
    """The raw action list of a game file dict (empty when absent)."""
    return objects(data.get("actions") or [], "'actions'", GameFileError)


def action_count(data: GameData) -> int:
    """The action count: raw entries, undo/redo/message included (see the module docstring)."""
    return len(actions_of(data))


def check_given_id(action: Action, expected: int) -> None:
    """Refuse an action whose own ``id`` is not the next id of the log (common rules §3.2)."""
    if "id" not in action:
        return
    given = action["id"]
    if given != expected or isinstance(given, bool):
        raise IllegalAction(
            f"the action carries id {given!r}, but the next id of this game is {expected} "
            "(leave the id out to have it assigned)",
            RULE_IDS,
        )


def with_actions(data: GameData, actions: list[Action]) -> GameData:
    """A copy of ``data`` (every key kept, in order) whose ``actions`` are ``actions``."""
    out = dict(data)
    out["actions"] = [*actions]
    return out


def record_outcome(data: GameData, game: EngineGame) -> None:
    """Keep ``status``, ``result`` and ``game_end_reason`` true to the game after a write.

    Only these keys change; a game that is not finished (again, after an undo) is ``active``
    with an empty ``result`` and no ``game_end_reason``, as 18xx.games writes unfinished games.
    """
    if game.finished:
        data["status"] = "finished"
        result: JSONObject = {**game.result}
        data["result"] = result
        data["game_end_reason"] = game.game_end_reason
    elif data.get("status") == "finished" or data.get("result"):
        data["status"] = "active"
        if "result" in data:
            data["result"] = {}
        if "game_end_reason" in data:
            data["game_end_reason"] = None


def appended(
    engine: EngineClass, data: GameData, action: Action, game: EngineGame | None = None
) -> tuple[GameData, EngineGame]:
    """The game file with ``action`` appended and the game after it.

    ``game`` is the engine at ``data`` if the caller has one (it is moved on, not copied),
    else the game is rebuilt from the file.  The action is processed in live mode
    (``Game.process``), which refuses an illegal action with ``IllegalAction`` and leaves the
    game as it was; the stored action is the processed one (with its derived
    ``auto_actions``).  An ``undo`` or ``redo`` action goes to ``controlled``.
    """
    actions = actions_of(data)
    expected = next_id(actions)
    check_given_id(action, expected)
    if action.get("type") in (UNDO, REDO):
        target = action.get("action_id")
        if target is not None and not is_int(target):
            raise IllegalAction(f"undo has a non-integer action_id {target!r}", RULE_UNDO)
        return controlled(
            engine,
            data,
            str(action["type"]),
            entity=_entity_id(action.get("entity")),
            entity_type=_text(action.get("entity_type")),
            action_id=_integer(action.get("action_id")),
            extra={k: v for k, v in action.items() if k not in CONTROL_KEYS},
            game=game,
        )
    if game is None:
        game = engine.from_file(data)
    game.process({**copy.deepcopy(action), "id": expected})
    recorded = last_recorded(game)
    new = with_actions(data, [*actions, recorded])
    record_outcome(new, game)
    return new, game


def last_recorded(game: EngineGame) -> Action:
    """A copy of the action ``game`` recorded last, as its ``to_file`` would write it: from
    ``raw_actions`` when the engine has them (``stellwerk.api.Game``; copying one action, not
    the whole record, keeps an append's cost flat as the game grows), else from ``to_file``."""
    raw = getattr(game, "raw_actions", None)
    if isinstance(raw, list) and raw and isinstance(raw[-1], dict):
        last: Action = copy.deepcopy(raw[-1])
        return last
    return actions_of(game.to_file())[-1]  # to_file hands out a copy


def _entity_id(value: JSONValue) -> EntityId | None:
    """An entity field as an id (None when missing or of another type)."""
    return value if isinstance(value, str) or is_int(value) else None


def _text(value: JSONValue) -> str | None:
    return value if isinstance(value, str) else None


def _integer(value: JSONValue) -> int | None:
    return value if is_int(value) else None


def players_of(data: GameData) -> list[JSONObject]:
    """The ``players`` entries of a game file dict (``{id, name}`` objects; empty when
    absent); anything but a list of objects raises ``GameFileError``."""
    return objects(data.get("players") or [], "'players'", GameFileError)


def _entity_type(game: EngineGame, data: GameData, entity: EntityId) -> str:
    """``player`` for a player id, else the type the legal actions give ``entity``."""
    if any(str(p.get("id")) == str(entity) for p in players_of(data)):
        return "player"
    for legal in game.legal_actions():
        if legal.get("entity") == entity and isinstance(legal.get("entity_type"), str):
            return str(legal["entity_type"])
    return "corporation"


def _acting_entity(game: EngineGame, data: GameData) -> tuple[EntityId | None, str]:
    """Who an undo/redo is recorded for: the entity to act now (as 18xx.games records it),
    or for a finished game the entity of the last live action."""
    active = game.active_entities()
    if active:
        return active[0], _entity_type(game, data, active[0])
    actions = actions_of(data)
    for action, live in zip(reversed(actions), reversed(live_mask(actions)), strict=True):
        if live and action.get("type") != MESSAGE and "entity" in action:
            return _entity_id(action["entity"]), str(action.get("entity_type", "player"))
    players = players_of(data) or [{}]
    return _entity_id(players[0].get("id")), "player"


def controlled(
    engine: EngineClass,
    data: GameData,
    kind: str,
    *,
    entity: EntityId | None = None,
    entity_type: str | None = None,
    action_id: int | None = None,
    extra: JSONObject | None = None,
    game: EngineGame | None = None,
) -> tuple[GameData, EngineGame]:
    """The game file with an ``undo`` or ``redo`` (``kind``) appended, and the game after it.

    ``extra`` fields (e.g. ``user``, ``created_at`` of an undo sent as an action) are kept.
    ``game``, the engine at ``data`` if the caller has one, only answers who acts now; the
    game after the undo is built from the new file (the engine protocol needs no undo of its
    own), so ``game`` itself is not changed.

    Refused with ``IllegalAction`` when it would change nothing (nothing to undo or redo), when
    ``action_id`` names no earlier action, or when the result would not load.
    """
    actions = actions_of(data)
    now = game
    if entity is None:
        now = now if now is not None else engine.from_file(data)
        entity, found_type = _acting_entity(now, data)
        entity_type = entity_type or found_type
    elif entity_type is None:
        now = now if now is not None else engine.from_file(data)
        entity_type = _entity_type(now, data, entity)
    control: Action = {"type": kind, "entity": entity, "entity_type": entity_type or "player"}
    if action_id is not None:
        control["action_id"] = action_id
    control.update(extra or {})
    control["id"] = next_id(actions)
    controlled_mask(actions, control)  # refuses an undo/redo that cannot be made now
    new = with_actions(data, [*actions, control])
    try:
        game = engine.from_file(new)
    except GameFileError as error:
        raise IllegalAction(
            f"the game would not load after this {kind}: {error}", RULE_UNDO
        ) from error
    record_outcome(new, game)
    return new, game
