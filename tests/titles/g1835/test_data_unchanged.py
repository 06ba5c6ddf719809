"""1835's typed game data stays what the engine has always read (rules/1835.md 1-10): every
field of :class:`TitleData` (bank, players, cash, limits, market, phases, trains, privates,
minors, majors, start packet, release rules, share groups, start orders) and the raw table the
game reads beside them are the same as the loader's before its common facts went through
``core.schema``, pinned as a digest of a canonical form that keeps the types (tuple or list,
int or str, the dataclass names).  No option changes 1835's data (options apply on top of it
in the game), so one digest covers every option set."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import fields, is_dataclass

from stellwerk.titles.g1835.data_load import title_data

DIGEST = "658a60214da31cb968c37ddd292243c3390512a89912388df8110a12026449d1"
"""The digest of the loader's output before the move."""


def canonical(value: object) -> object:
    """A JSON-shaped copy that names each container's type: a dataclass as its name and fields,
    a mapping as its sorted items, tuples, lists and sets tagged apart."""
    if is_dataclass(value) and not isinstance(value, type):
        return {
            "@": type(value).__name__,
            **{f.name: canonical(getattr(value, f.name)) for f in fields(value)},
        }
    if isinstance(value, Mapping):
        return ["map", sorted([repr(k), canonical(v)] for k, v in value.items())]
    if isinstance(value, frozenset | set):
        return ["set", sorted(repr(v) for v in value)]
    if isinstance(value, tuple):
        return ["tuple", [canonical(v) for v in value]]
    if isinstance(value, list):
        return ["list", [canonical(v) for v in value]]
    return [type(value).__name__, value]


def digest() -> str:
    text = json.dumps(canonical(title_data()), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def test_typed_data_is_unchanged() -> None:
    assert digest() == DIGEST
