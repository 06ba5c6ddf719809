"""Read 18xx.games state traces and find the first difference from our snapshot.

A ``.trace.jsonl`` file (shared/fixtures/README.md) has a header line, a line for the state
before any action, one line per live action and a final line with the result.  Our
``game.snapshot()`` has the same format as one state line.

``first_difference`` compares only what the expected line has, exactly (no tolerance):

* ``players``, ``corporations`` and ``minors`` are lists keyed by ``id`` and compared per id
  (an entry only one side has is a difference);
* lists the trace keeps sorted (``tokens``) are compared sorted;
* dicts (``shares``, ``depot``, ``tiles``) are compared key by key over both sides' keys;
* ``action_id`` and ``action_type`` describe the line, not the state, and are not compared.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from stellwerk.core.errors import GameFileError
from stellwerk.core.jsondata import JSONObject

Line = JSONObject
"""One line of a trace as read."""
State = Mapping[str, object]
"""A state to compare: a trace line, or our ``Snapshot`` (``stellwerk.io.snapshot``)."""

KEYED_LISTS = frozenset({"players", "corporations", "minors"})
SORTED_LISTS = frozenset({"tokens"})
LINE_METADATA = frozenset({"action_id", "action_type"})
Found = tuple[str, object, object]
"""A difference: (path, ours, expected)."""
MISSING = None
"""What a field missing on one side compares as."""


@dataclass(frozen=True)
class Trace:
    """A parsed trace: header, the state before any action, one state per action, the end."""

    header: Line
    initial: Line | None
    steps: list[Line]
    final: Line | None


class DifferenceJSON(TypedDict):
    """The JSON form of a :class:`Difference`."""

    action_id: int | None
    field: str
    ours: object
    expected: object


@dataclass(frozen=True)
class Difference:
    """The first field where our state differs from the expected one."""

    action_id: int | None
    field: str
    ours: object
    expected: object

    def to_dict(self) -> DifferenceJSON:
        """The JSON form: ``{action_id, field, ours, expected}``."""
        return {
            "action_id": self.action_id,
            "field": self.field,
            "ours": self.ours,
            "expected": self.expected,
        }


def parse_trace(lines: Iterable[str], source: str = "trace") -> Trace:
    """Parse the lines of a ``.trace.jsonl``; malformed input raises ``GameFileError``."""
    parsed: list[Line] = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            value = json.loads(text)
        except (ValueError, RecursionError) as error:  # not JSON, huge ints, deep nesting
            raise GameFileError(f"{source} line {number} is not JSON: {error}") from error
        if not isinstance(value, dict):
            raise GameFileError(f"{source} line {number} is not a JSON object")
        parsed.append(value)
    if not parsed or "title" not in parsed[0]:
        raise GameFileError(f"{source} has no header line with a title")
    header, rest = parsed[0], parsed[1:]
    final = rest.pop() if rest and "finished" in rest[-1] else None
    initial = rest.pop(0) if rest and rest[0].get("action_id") is None else None
    return Trace(header=header, initial=initial, steps=rest, final=final)


def read_trace(path: str | os.PathLike[str]) -> Trace:
    """Read and parse a ``.trace.jsonl`` file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise GameFileError(f"cannot read {path}: {error}") from error
    return parse_trace(text.splitlines(), source=str(path))


def _same(ours: object, expected: object) -> bool:
    """Exact equality that does not let ``True`` equal ``1``."""
    if isinstance(ours, bool) or isinstance(expected, bool):
        return type(ours) is type(expected) and ours == expected
    return bool(ours == expected)


def _keyed(entries: object) -> dict[str, Mapping[str, object]] | None:
    """A list of ``{id: ...}`` objects as a dict by ``str(id)``; None if it is not one."""
    if not isinstance(entries, list):
        return None
    out: dict[str, Mapping[str, object]] = {}
    for entry in entries:
        if not isinstance(entry, dict) or "id" not in entry:
            return None
        out[str(entry["id"])] = entry
    return out


def _diff(ours: object, expected: object, path: str, name: str) -> Found | None:
    """First difference below ``path`` as (path, ours, expected), or None."""
    if isinstance(expected, dict):
        if not isinstance(ours, dict):
            return path, ours, expected
        for key in list(expected) + [key for key in ours if key not in expected]:
            found = _diff(ours.get(key, MISSING), expected.get(key, MISSING), f"{path}.{key}", key)
            if found:
                return found
        return None
    if isinstance(expected, list):
        if name in KEYED_LISTS:
            return _diff_keyed(ours, expected, path)
        if name in SORTED_LISTS and isinstance(ours, list):
            ours, expected = _sorted(ours), _sorted(expected)
        if not isinstance(ours, list) or len(ours) != len(expected):
            return path, ours, expected
        if all(_same(a, b) for a, b in zip(ours, expected, strict=True)):
            return None
        return path, ours, expected
    return None if _same(ours, expected) else (path, ours, expected)


def _sorted(values: list[object]) -> list[object]:
    return sorted(values, key=lambda value: json.dumps(value, sort_keys=True))


def _diff_keyed(ours: object, expected: list[object], path: str) -> Found | None:
    theirs, mine = _keyed(expected), _keyed(ours)
    if theirs is None or mine is None:
        return None if _same(ours, expected) else (path, ours, expected)
    for key in list(theirs) + [key for key in mine if key not in theirs]:
        entry_path = f"{path}[{key}]"
        if key not in mine or key not in theirs:
            return entry_path, mine.get(key, MISSING), theirs.get(key, MISSING)
        for name, value in theirs[key].items():
            found = _diff(mine[key].get(name, MISSING), value, f"{entry_path}.{name}", name)
            if found:
                return found
    return None


def first_difference(
    ours: State, expected: State, action_id: int | None = None
) -> Difference | None:
    """The first field (in the expected line's order) where ``ours`` differs from ``expected``.

    Only fields present in ``expected`` are compared; ``tiles`` thus only on lines that carry it.
    """
    for name, value in expected.items():
        if name in LINE_METADATA:
            continue
        found = _diff(ours.get(name, MISSING), value, name, name)
        if found:
            return Difference(action_id, *found)
    return None
