"""Resolve undo and redo in an 18xx.games action list (common rules §3.4).

The reference engine computes which raw actions are "live" before it replays a game file:

* ``undo`` with ``action_id`` 0 undoes everything before it; with another ``action_id`` it undoes
  everything *after* that action; without ``action_id`` it undoes the last live action that is not
  a message.  The live actions it clears form one undo group.  The undo itself is never live.
* ``redo`` makes the most recent undo group live again; it is never live itself.
* ``message`` is always live and never undone.
* any other action clears the redo stack and is live.

Live actions keep their ids (nothing is renumbered) and their ``auto_actions``.
"""

from __future__ import annotations

from stellwerk.core.errors import GameFileError, IllegalAction
from stellwerk.core.jsondata import JSONObject, is_int

Action = JSONObject

UNDO = "undo"
REDO = "redo"
MESSAGE = "message"


def _where(action: Action) -> int | None:
    """The action's id for an error message (None when it has no integer id)."""
    value = action.get("id")
    return value if is_int(value) else None


def _undo_start(actions: list[Action], live: list[bool], position: int) -> int:
    """Position of the first raw action an ``undo`` at ``position`` reverts (common rules §3.4)."""
    undo = actions[position]
    target = undo.get("action_id")
    if target is None:
        for index in range(position - 1, -1, -1):
            if live[index] and actions[index].get("type") != MESSAGE:
                return index
        return 0
    if isinstance(target, bool) or not isinstance(target, int):
        raise GameFileError(f"undo has a non-integer action_id {target!r}", _where(undo))
    if target == 0:
        return 0
    for index in range(position):
        if actions[index].get("id") == target:
            return index + 1
    reason = f"undo refers to action {target}, which is not earlier in the file"
    raise GameFileError(reason, _where(undo))


def live_mask(actions: list[Action]) -> list[bool]:
    """For each raw action, whether it is live after undo/redo are resolved (common rules §3.4).

    Raises ``GameFileError`` for an undo naming a missing action or a redo with nothing to redo.
    """
    live = [False] * len(actions)
    undo_groups: list[list[int]] = []
    for position, action in enumerate(actions):
        kind = action.get("type")
        if kind == UNDO:
            start = _undo_start(actions, live, position)
            group = [
                index
                for index in range(start, position)
                if live[index] and actions[index].get("type") != MESSAGE
            ]
            for index in group:
                live[index] = False
            undo_groups.append(group)
        elif kind == REDO:
            if not undo_groups:
                raise GameFileError("redo with nothing to redo", _where(action))
            for index in undo_groups.pop():
                live[index] = True
        elif kind == MESSAGE:
            live[position] = True
        else:
            undo_groups.clear()
            live[position] = True
    return live


def live_actions(actions: list[Action]) -> list[Action]:
    """The live actions in file order, each with its ``auto_actions`` still attached."""
    return [action for action, is_live in zip(actions, live_mask(actions), strict=True) if is_live]


RULE_IDS = "common rules §3.2"
RULE_UNDO = "common rules §3.4"


def highest_id(actions: list[Action], highest: int = 0) -> int:
    """The highest integer ``id`` among ``actions`` (booleans are not ids), at least
    ``highest`` (so a caller that saw the start of a growing log looks at the rest only)."""
    for action in actions:
        action_id = action.get("id") if isinstance(action, dict) else None
        if isinstance(action_id, int) and not isinstance(action_id, bool) and action_id > highest:
            highest = action_id
    return highest


def next_id(actions: list[Action]) -> int:
    """The id of a new action: ``max(existing ids) + 1``, or 1 for an empty log (ids ascend
    and may have gaps, common rules §3.2).  The one rule for it: the engine
    (``stellwerk.api.Game.next_id``) and the store (``stellwerk.store.log``) both use it."""
    return highest_id(actions) + 1


def controlled_mask(actions: list[Action], control: Action) -> list[bool]:
    """The live mask of ``actions`` with the ``undo`` or ``redo`` ``control`` appended, as a
    player may send it now: refused with ``IllegalAction`` (common rules §3.4) when it names
    no earlier action, when a redo has nothing to redo, or when it would change nothing (an
    undo with nothing to undo).  The one check of a live undo/redo: the engine
    (``stellwerk.api.Game.process``) and the store (``stellwerk.store.log.controlled``) both
    use it."""
    kind = control.get("type")
    before = live_mask(actions)
    try:
        after = live_mask([*actions, control])
    except GameFileError as error:
        raise IllegalAction(f"cannot {kind}: {error.reason}", RULE_UNDO) from error
    if after[: len(before)] == before:
        raise IllegalAction(f"nothing to {kind}", RULE_UNDO)
    return after
