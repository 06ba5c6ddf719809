"""Read and write 18xx.games game files (common rules §3).

``load_game_file`` checks the shape of a game file dict and resolves undo/redo into the list of
live actions (see ``stellwerk.io.undo``); ``build_game_file`` writes one back out.  Corrupt files
raise ``GameFileError(reason, action_id)``.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from stellwerk.core.errors import GameFileError
from stellwerk.core.jsondata import JSONObject, integer, is_int, is_object
from stellwerk.core.rng import seed_from
from stellwerk.io.undo import live_actions

Action = JSONObject
"""An 18xx.games action as read from a file (its fields depend on its type)."""
PlayerId = int | str


@dataclass(frozen=True)
class GameFile:
    """The parts of a game file the engine reads, plus the recorded outcome."""

    title: str
    players: list[tuple[PlayerId, str]]
    seed: int
    optional_rules: list[str]
    actions: list[Action]
    live: list[Action]
    result: dict[str, int] | None = None
    game_end_reason: str | None = None
    game_id: int | str | None = None

    @property
    def finished(self) -> bool:
        """Whether the file records a finished game (it carries a result)."""
        return self.result is not None


def _check_players(data: JSONObject) -> list[tuple[PlayerId, str]]:
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise GameFileError("'players' must be a non-empty list")
    out: list[tuple[PlayerId, str]] = []
    for entry in players:
        if not isinstance(entry, dict):
            raise GameFileError(f"player entry {entry!r} is not an object")
        pid, name = entry.get("id"), entry.get("name", "")
        if not isinstance(pid, int | str) or isinstance(pid, bool) or not isinstance(name, str):
            raise GameFileError(f"player entry {entry!r} needs an integer or string id and a name")
        out.append((pid, name))
    if len({str(pid) for pid, _ in out}) != len(out):
        raise GameFileError("player ids are not unique")
    return out


def _check_action(action: object, where: int | None, *, needs_id: bool) -> Action:
    if not is_object(action):
        raise GameFileError(f"action {action!r} is not an object", where)
    if not isinstance(action.get("type"), str) or not action["type"]:
        raise GameFileError("action has no type", where)
    if needs_id and not is_int(action.get("id")):
        raise GameFileError(f"action has no integer id: {action.get('id')!r}", where)
    autos = action.get("auto_actions")
    if autos is None:
        return action
    if not isinstance(autos, list):
        raise GameFileError("auto_actions must be a list", where)
    for auto in autos:
        _check_action(auto, where, needs_id=False)
    return action


def _check_actions(data: JSONObject) -> list[Action]:
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise GameFileError("'actions' must be a list")
    previous: int | None = None
    out: list[Action] = []
    for entry in actions:
        own_id = entry.get("id") if isinstance(entry, dict) else None
        where = own_id if is_int(own_id) else previous
        action = _check_action(entry, where, needs_id=True)
        action_id = integer(action, "id")  # checked just above
        if previous is not None and action_id <= previous:
            raise GameFileError(f"action ids must ascend, {action_id} follows {previous}", where)
        previous = action_id
        out.append(action)
    return out


def action_id(action: Action) -> int:
    """The id of an action of a checked file's list (``GameFile.actions``/``live``; every
    one has an integer id); an action without one raises ``GameFileError``."""
    return integer(action, "id", GameFileError)


def _check_settings(data: JSONObject) -> tuple[int, list[str]]:
    settings = data.get("settings") or {}
    if not isinstance(settings, dict):
        raise GameFileError("'settings' must be an object")
    rules = settings.get("optional_rules") or []
    if not isinstance(rules, list) or not all(isinstance(rule, str) for rule in rules):
        raise GameFileError("'settings.optional_rules' must be a list of strings")
    raw_seed = settings.get("seed")
    if raw_seed is not None and not (is_int(raw_seed) or isinstance(raw_seed, str)):
        raise GameFileError(f"'settings.seed' must be an integer, not {raw_seed!r}")
    game_id = data.get("id")
    try:
        seed = seed_from(raw_seed, game_id if is_int(game_id) or isinstance(game_id, str) else None)
    except ValueError as error:
        raise GameFileError(f"'settings.seed' is not a number: {raw_seed!r}") from error
    return seed, [rule for rule in rules if isinstance(rule, str)]


def records_unfinished(data: JSONObject) -> bool:
    """Whether the file says its game is not over: ``status`` other than ``"finished"`` or
    ``finished: false``.  18xx.games' engine, saving a game in progress (a random game its
    generator stopped at a time limit), still writes the players' current values as ``result``;
    those are no final result to compare with."""
    status = data.get("status")
    return data.get("finished") is False or (isinstance(status, str) and status != "finished")


def _check_result(data: JSONObject) -> dict[str, int] | None:
    result = data.get("result")
    if result is None or result == {} or records_unfinished(data):
        return None
    if not isinstance(result, dict):
        raise GameFileError("'result' must map player ids to integers")
    out: dict[str, int] = {}
    for key, value in result.items():
        if not is_int(value):
            raise GameFileError("'result' must map player ids to integers")
        out[str(key)] = value
    return out


def load_game_file(data: object) -> GameFile:
    """Check a game file dict and resolve its live actions (common rules §3, §3.4)."""
    if not isinstance(data, dict):
        raise GameFileError("a game file must be a JSON object")
    title = data.get("title")
    if not isinstance(title, str) or not title:
        raise GameFileError("'title' must be a non-empty string")
    seed, rules = _check_settings(data)
    actions = _check_actions(data)
    reason = data.get("game_end_reason")
    return GameFile(
        title=title,
        players=_check_players(data),
        seed=seed,
        optional_rules=rules,
        actions=actions,
        live=live_actions(actions),
        result=_check_result(data),
        game_end_reason=reason if isinstance(reason, str) else None,
        game_id=data.get("id"),
    )


def read_game_file(path: str | os.PathLike[str]) -> JSONObject:
    """Read a game file's JSON; unreadable JSON raises ``GameFileError``."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as error:  # ValueError: JSON, UTF-8, huge ints
        raise GameFileError(f"cannot read {path}: {error}") from error
    if not isinstance(data, dict):
        raise GameFileError(f"{path} does not hold a JSON object")
    return data


def number_actions(actions: list[Action], first_id: int = 1) -> list[Action]:
    """Copies of ``actions`` with ascending ids; actions without an id get the next free one."""
    out: list[Action] = []
    last = first_id - 1
    for action in actions:
        copy = dict(action)
        action_id = copy.get("id")
        if not is_int(action_id) or action_id <= last:
            action_id = last + 1
            copy["id"] = action_id
        last = action_id
        out.append(copy)
    return out


def build_game_file(
    title: str,
    players: list[tuple[PlayerId, str]],
    seed: int,
    optional_rules: list[str],
    actions: list[Action],
    *,
    finished: bool = False,
    result: dict[str, int] | None = None,
    game_end_reason: str | None = None,
) -> JSONObject:
    """A game file dict in 18xx.games' shape; ``result`` is only written for a finished game."""
    data: JSONObject = {
        "title": title,
        "players": [{"id": pid, "name": name} for pid, name in players],
        "settings": {"seed": seed, "optional_rules": list(optional_rules)},
        "actions": [*number_actions(actions)],
        "status": "finished" if finished else "active",
    }
    if finished:
        data["result"] = {str(key): value for key, value in (result or {}).items()}
        data["game_end_reason"] = game_end_reason
    return data


def current_umask() -> int:
    """The process's file-creation mask (read from /proc on Linux, else set and restored)."""
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def fsync_directory(folder: str | os.PathLike[str]) -> None:
    """Make a rename in ``folder`` durable (``fsync`` of the directory; skipped where the
    platform cannot open directories)."""
    try:
        handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def write_json_atomic(path: str | os.PathLike[str], data: JSONObject) -> None:
    """Write ``data`` as JSON to ``path`` so that ``path`` always holds the old or the new text.

    A symlink stays a link: its target is rewritten.  The new text goes to a temporary file in
    the target's folder, is flushed and ``fsync``-ed, gets the old file's permission bits (a new
    file the usual ``0666`` less the umask), replaces the target with ``os.replace`` and the
    folder is ``fsync``-ed so the rename survives a crash.  A missing folder raises
    ``FileNotFoundError``.
    """
    target = Path(os.path.realpath(path))
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~current_umask()
    handle, temp_name = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fchmod(out.fileno(), mode)
            os.fsync(out.fileno())
        os.replace(temp_name, target)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
    fsync_directory(target.parent)
