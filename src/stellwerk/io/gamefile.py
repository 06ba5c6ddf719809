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
from typing import Any, TypeGuard

from stellwerk.core.errors import GameFileError
from stellwerk.core.rng import seed_from
from stellwerk.io.undo import live_actions

Action = dict[str, Any]
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


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_players(data: dict[str, Any]) -> list[tuple[PlayerId, str]]:
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


def _check_action(action: object, where: int | None, *, needs_id: bool) -> None:
    if not isinstance(action, dict):
        raise GameFileError(f"action {action!r} is not an object", where)
    if not isinstance(action.get("type"), str) or not action["type"]:
        raise GameFileError("action has no type", where)
    if needs_id and not _is_int(action.get("id")):
        raise GameFileError(f"action has no integer id: {action.get('id')!r}", where)
    autos = action.get("auto_actions")
    if autos is None:
        return
    if not isinstance(autos, list):
        raise GameFileError("auto_actions must be a list", where)
    for auto in autos:
        _check_action(auto, where, needs_id=False)


def _check_actions(data: dict[str, Any]) -> list[Action]:
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise GameFileError("'actions' must be a list")
    previous: int | None = None
    for action in actions:
        own_id = action.get("id") if isinstance(action, dict) else None
        where = own_id if _is_int(own_id) else previous
        _check_action(action, where, needs_id=True)
        if previous is not None and action["id"] <= previous:
            raise GameFileError(f"action ids must ascend, {action['id']} follows {previous}", where)
        previous = action["id"]
    return actions


def _check_settings(data: dict[str, Any]) -> tuple[int, list[str]]:
    settings = data.get("settings") or {}
    if not isinstance(settings, dict):
        raise GameFileError("'settings' must be an object")
    rules = settings.get("optional_rules") or []
    if not isinstance(rules, list) or not all(isinstance(rule, str) for rule in rules):
        raise GameFileError("'settings.optional_rules' must be a list of strings")
    raw_seed = settings.get("seed")
    if raw_seed is not None and not (_is_int(raw_seed) or isinstance(raw_seed, str)):
        raise GameFileError(f"'settings.seed' must be an integer, not {raw_seed!r}")
    try:
        seed = seed_from(raw_seed, data.get("id"))
    except ValueError as error:
        raise GameFileError(f"'settings.seed' is not a number: {raw_seed!r}") from error
    return seed, list(rules)


def records_unfinished(data: dict[str, Any]) -> bool:
    """Whether the file says its game is not over: ``status`` other than ``"finished"`` or
    ``finished: false``.  18xx.games' engine, saving a game in progress (a random game its
    generator stopped at a time limit), still writes the players' current values as ``result``;
    those are no final result to compare with."""
    status = data.get("status")
    return data.get("finished") is False or (isinstance(status, str) and status != "finished")


def _check_result(data: dict[str, Any]) -> dict[str, int] | None:
    result = data.get("result")
    if result is None or result == {} or records_unfinished(data):
        return None
    if not isinstance(result, dict) or not all(_is_int(value) for value in result.values()):
        raise GameFileError("'result' must map player ids to integers")
    return {str(key): value for key, value in result.items()}


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


def read_game_file(path: str | os.PathLike[str]) -> dict[str, Any]:
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
        if not _is_int(action_id) or action_id <= last:
            copy["id"] = last + 1
        last = copy["id"]
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
) -> dict[str, Any]:
    """A game file dict in 18xx.games' shape; ``result`` is only written for a finished game."""
    data: dict[str, Any] = {
        "title": title,
        "players": [{"id": pid, "name": name} for pid, name in players],
        "settings": {"seed": seed, "optional_rules": list(optional_rules)},
        "actions": number_actions(actions),
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


def write_json_atomic(path: str | os.PathLike[str], data: dict[str, Any]) -> None:
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
