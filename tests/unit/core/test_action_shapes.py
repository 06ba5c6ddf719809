"""Common rules §3.3: an action's fields, and what is inside them, have the types 18xx.games
writes; a corrupt field is refused by name before any rule reads it (so a corrupt game file is
reported with its action number instead of failing inside the engine)."""

from __future__ import annotations

from typing import Any

import pytest

from stellwerk.core.actions import check_shape
from stellwerk.core.errors import IllegalAction

ROUTE = {"train": "4H-0", "connections": [["C3", "D4"]], "hexes": ["C3"], "revenue": 50}


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ({"type": "buy_shares", "shares": [1], "percent": 10}, "shares"),
        ({"type": "sell_shares", "shares": [["ATA_1"]]}, "shares"),
        ({"type": "buy_shares", "shares": ["ATA_1"], "percent": "10"}, "percent"),
        ({"type": "buy_shares", "shares": ["ATA_1"], "percent": True}, "percent"),
        ({"type": "run_routes", "routes": [ROUTE], "extra_revenue": []}, "extra_revenue"),
        ({"type": "run_routes", "routes": [ROUTE], "subsidy": "5"}, "subsidy"),
        ({"type": "run_routes", "routes": [{**ROUTE, "train": 4}]}, "train"),
        ({"type": "run_routes", "routes": [{**ROUTE, "connections": [[1]]}]}, "connections"),
        ({"type": "run_routes", "routes": [{**ROUTE, "hexes": "C3"}]}, "hexes"),
        ({"type": "run_routes", "routes": ["C3"]}, "train"),
        ({"type": "bid", "price": 20, "company": 3}, "company"),
        ({"type": "place_token", "city": "C3-0-0", "slot": "0"}, "slot"),
        ({"type": "undo", "action_id": "4"}, "action_id"),
    ],
)
def test_corrupt_field_contents_are_refused_by_name(action: dict[str, Any], field: str) -> None:
    with pytest.raises(IllegalAction, match=field):
        check_shape({"entity": "ATA", "entity_type": "corporation", **action})


def test_fields_as_the_site_writes_them_pass() -> None:
    """The shapes of real 18xx.games files (see ../shared/fixtures) are accepted."""
    for action in (
        {"type": "buy_shares", "shares": ["ATA_1"], "percent": 10},
        {"type": "sell_shares", "shares": ["ATA_1", "ATA_2"], "percent": 20, "share_price": 62.5},
        {"type": "run_routes", "routes": [ROUTE], "extra_revenue": 0, "subsidy": 0},
        {"type": "place_token", "city": "C3-0-0", "slot": 0, "tokener": "ATA"},
        {"type": "buy_train", "train": "4H-1", "price": 100, "variant": "4H"},
    ):
        check_shape({"entity": "ATA", "entity_type": "corporation", **action})
