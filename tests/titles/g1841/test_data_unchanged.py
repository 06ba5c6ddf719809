"""1841's typed game data stays what the engine has always read (rules/1841.md 1.2, section 4):
for every variant, every field of :class:`TitleData` (phases, trains, concessions, charters,
zones, off-board groups, route facts) and the plain facts the game reads of its table are
the same as the loader's before its core facts went through ``core.schema``, pinned here as
a digest of their canonical JSON per variant."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import fields, is_dataclass

import pytest

from stellwerk.titles.g1841.data_load import TitleData, title_data

DIGESTS = {
    (): "6f2b8bb2a1415cdd379d46447582089b87f3419ce14997be34de089266664a70",
    ("first_edition",): "30f762e4b459095058ca281d870f930fa8f5b6e4d2ba324c325c330aaf8e84ce",
    ("short_game",): "9f3313c2dff15b05e156f29db12e464e3300b51d803f56966a5cdca5ca2689c6",
    (
        "first_edition",
        "short_game",
    ): "618c351475aa5723aec7b5bc11a4ca96b0b6655a7a42e149c2845d09990c8141",
}
"""The digests of the loader's output before the move, by variant."""

TABLE_KEYS = (
    "corporate_cert_limit",
    "max_ownership_percent",
    "home_reserved_until_floated",
    "pool_limit_percent",
    "market",
    "title",
    "currency",
)
"""The plain facts of the table the game reads beside the typed ones."""

ADDED = ("market_markers",)
"""Fields the move added (not in the pinned digests; nor is ``[market]`` ``markers``)."""


def plain(value: object) -> object:
    """A JSON-shaped copy: dataclasses and mappings as objects, sets sorted, tuples as lists."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, frozenset):
        return sorted(str(plain(v)) for v in value)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


def digest(data: TitleData) -> str:
    out = plain(data)
    assert isinstance(out, dict)
    raw = out.pop("raw")
    for name in ADDED:
        del out[name]
    out["raw_used"] = {k: raw[k] for k in TABLE_KEYS}
    del out["raw_used"]["market"]["markers"]
    canonical = json.dumps(json.loads(json.dumps(out)), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


@pytest.mark.parametrize("variant", list(DIGESTS), ids=lambda v: "+".join(v) or "v2")
def test_typed_data_is_unchanged(variant: tuple[str, ...]) -> None:
    assert digest(title_data(variant)) == DIGESTS[variant]
