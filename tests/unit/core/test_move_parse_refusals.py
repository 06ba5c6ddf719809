"""Common rules §3.2-3.3: :func:`stellwerk.core.moves.parse` refuses a malformed action with
``IllegalAction`` naming the field, word for word as ``check_shape`` words it, whatever path
the parse takes (a fast path for well-formed actions must not change what is refused, nor how
it is reported), and leaves the action unchanged; well-formed actions next to them load."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from tests.conftest import FIXTURES_18XX

from stellwerk.core.actions import FIELDS, RULE, check_shape
from stellwerk.core.errors import IllegalAction
from stellwerk.core.moves import _FAST, Move, Route, RunRoutes, _build, parse

E = {"entity": "ATA", "entity_type": "corporation"}
R = {"train": "4H-0", "connections": [["C3", "D4"]], "hexes": ["C3"], "revenue": 50}
TILE = {**E, "type": "lay_tile", "hex": "B2", "tile": "7"}
RUN = {**E, "type": "run_routes"}

REFUSED: list[tuple[Any, str]] = [
    (["not a dict"], "an action must be a JSON object"),
    ({"entity": "ATA"}, "unknown action type None"),
    ({"type": 3, "entity": "ATA"}, "unknown action type 3"),
    ({"type": ["pass"], "entity": "ATA"}, "unknown action type ['pass']"),
    ({"type": "fly", "entity": "ATA"}, "unknown action type 'fly'"),
    ({"type": "pass"}, "pass needs an entity"),
    ({"type": "pass", "entity": None}, "pass needs an entity"),
    ({"type": "pass", "entity": "ATA", "entity_type": "bank"}, "unknown entity type 'bank'"),
    ({"type": "pass", "entity": "ATA", "entity_type": None}, "unknown entity type None"),
    (TILE, "lay_tile needs the field 'rotation'"),
    ({**TILE, "rotation": None}, "lay_tile needs the field 'rotation'"),
    ({**TILE, "rotation": True}, "lay_tile: 'rotation' has the wrong type"),
    ({**TILE, "rotation": "1"}, "lay_tile: 'rotation' has the wrong type"),
    ({**TILE, "rotation": 1.0}, "lay_tile: 'rotation' has the wrong type"),
    ({**TILE, "hex": 2, "rotation": 1}, "lay_tile: 'hex' has the wrong type"),
    ({**TILE, "hex": 2, "rotation": "x"}, "lay_tile: 'hex' has the wrong type"),
    ({**E, "type": "bid", "price": 2.5, "company": "C"}, "bid: 'price' has the wrong type"),
    ({**E, "type": "bid", "price": False}, "bid: 'price' has the wrong type"),
    ({**E, "type": "bid", "price": 20, "company": 3}, "bid: 'company' has the wrong type"),
    (
        {**E, "type": "bid", "price": 20, "corporation": ["X"]},
        "bid: 'corporation' has the wrong type",
    ),
    ({**E, "type": "buy_shares", "shares": "ATA_1"}, "buy_shares: 'shares' has the wrong type"),
    ({**E, "type": "buy_shares", "shares": {"a": 1}}, "buy_shares: 'shares' has the wrong type"),
    ({**E, "type": "buy_shares"}, "buy_shares needs the field 'shares'"),
    (
        {**E, "type": "buy_shares", "shares": [1]},
        "buy_shares: 'shares' must be a list of certificate ids",
    ),
    (
        {**E, "type": "sell_shares", "shares": [["ATA_1"]]},
        "sell_shares: 'shares' must be a list of certificate ids",
    ),
    (
        {**E, "type": "buy_shares", "shares": ["ATA_1"], "percent": "10"},
        "buy_shares: 'percent' has the wrong type",
    ),
    (
        {**E, "type": "buy_shares", "shares": ["ATA_1"], "percent": True},
        "buy_shares: 'percent' has the wrong type",
    ),
    (
        {**E, "type": "buy_shares", "shares": [1], "percent": True},
        "buy_shares: 'percent' has the wrong type",
    ),
    (
        {**E, "type": "blind_bid", "bids": [10, True]},
        "blind_bid: 'bids' must be a list of whole numbers",
    ),
    (
        {**E, "type": "blind_bid", "bids": [10, 2.5]},
        "blind_bid: 'bids' must be a list of whole numbers",
    ),
    ({**E, "type": "blind_bid", "bids": 10}, "blind_bid: 'bids' has the wrong type"),
    ({**RUN, "routes": {"train": "2-0"}}, "run_routes: 'routes' has the wrong type"),
    ({**RUN, "routes": [{"revenue": 10}]}, "run_routes: each route needs a train"),
    ({**RUN, "routes": ["C3"]}, "run_routes: each route needs a train"),
    ({**RUN, "routes": [R, {**R, "train": 4}]}, "run_routes: each route needs a train"),
    ({**RUN, "routes": [{**R, "revenue": True}]}, "run_routes: route 'revenue' has the wrong type"),
    ({**RUN, "routes": [{**R, "revenue": "50"}]}, "run_routes: route 'revenue' has the wrong type"),
    (
        {**RUN, "routes": [{**R, "connections": [[1]]}]},
        "run_routes: route 'connections' has the wrong type",
    ),
    (
        {**RUN, "routes": [{**R, "connections": ["C3"]}]},
        "run_routes: route 'connections' has the wrong type",
    ),
    ({**RUN, "routes": [{**R, "hexes": "C3"}]}, "run_routes: route 'hexes' has the wrong type"),
    (
        {**RUN, "routes": [{**R, "hexes": [1], "nodes": [1]}]},
        "run_routes: route 'hexes' has the wrong type",
    ),
    ({**RUN, "routes": [{**R, "nodes": [1]}]}, "run_routes: route 'nodes' has the wrong type"),
    ({**RUN, "routes": [R], "extra_revenue": []}, "run_routes: 'extra_revenue' has the wrong type"),
    ({**RUN, "routes": [R], "subsidy": "5"}, "run_routes: 'subsidy' has the wrong type"),
    (
        {**RUN, "routes": [{**R, "train": 4}], "subsidy": "5"},
        "run_routes: 'subsidy' has the wrong type",
    ),
    ({**RUN, "routes": [R], "auto_actions": [{"type": "pass"}]}, "pass needs an entity"),
    (
        {**E, "type": "pass", "auto_actions": [{"type": "lay_tile", "entity": "ATA"}]},
        "lay_tile needs the field 'hex'",
    ),
    (
        {**TILE, "rotation": "1", "auto_actions": [{"type": "pass"}]},
        "lay_tile: 'rotation' has the wrong type",
    ),
    (
        {**E, "type": "place_token", "city": "C3-0-0", "slot": "0"},
        "place_token: 'slot' has the wrong type",
    ),
    (
        {**E, "type": "place_token", "city": "C3-0-0", "tokener": 1},
        "place_token: 'tokener' has the wrong type",
    ),
    ({**E, "type": "choose", "choice": True}, "choose: 'choice' has the wrong type"),
    ({**E, "type": "choose", "choice": None}, "choose needs the field 'choice'"),
    ({**E, "type": "choose", "choice": [1]}, "choose: 'choice' has the wrong type"),
    ({**E, "type": "undo", "action_id": "4"}, "undo: 'action_id' has the wrong type"),
    ({**E, "type": "bankrupt", "option": True}, "bankrupt: 'option' has the wrong type"),
    (
        {**E, "type": "buy_train", "train": "2-0", "price": 80, "variant": 2},
        "buy_train: 'variant' has the wrong type",
    ),
    ({**E, "type": "merge", "corporation": 1}, "merge: 'corporation' has the wrong type"),
    (
        {**E, "type": "program_buy_shares", "corporation": 5},
        "program_buy_shares: 'corporation' has the wrong type",
    ),
    (
        {**E, "type": "program_share_pass", "percent": "x"},
        "program_share_pass: 'percent' has the wrong type",
    ),
    (
        {**E, "type": "program_whatever", "price": True},
        "program_whatever: 'price' has the wrong type",
    ),
    (
        {**E, "type": "dividend", "kind": "payout", "slot": 1.0},
        "dividend: 'slot' has the wrong type",
    ),
]


@pytest.mark.parametrize(("action", "message"), REFUSED)
def test_a_malformed_action_is_refused_with_the_words_of_check_shape(
    action: Any, message: str
) -> None:
    before = copy.deepcopy(action)
    with pytest.raises(IllegalAction) as refused:
        parse(action)
    assert str(refused.value) == f"{message} ({RULE})"
    assert action == before


ACCEPTED: list[dict[str, Any]] = [
    {**E, "type": "bid", "price": 20, "company": None, "minor": ["M1"]},
    {**E, "type": "buy_shares", "shares": [], "percent": 12.5, "share_price": "x"},
    {**E, "type": "blind_bid", "bids": [0, 10]},
    {
        **RUN,
        "routes": [R, {"train": "2-1", "hexes": None, "x": [1]}, {"train": "2-2", "nodes": []}],
    },
    {**RUN, "routes": [], "revenue": [1, [2]], "order": 1, "rest": 2},
    {**E, "type": "choose", "choice": "yes", "entity": ["odd", ["entity"]], "id": [3]},
    {**E, "type": "pass", "auto_actions": None, "price": None},
    {"type": "pass", "entity": 0, "auto_actions": [{"type": "pass", "entity": 1}]},
    {**E, "type": "program_whatever", "corporation": "PR", "shares": [1]},
    {**E, "type": "destination_connection", "hexes": [["A1"], "B2"]},
]


@pytest.mark.parametrize("action", ACCEPTED)
def test_an_odd_but_well_formed_action_loads_and_writes_back(action: dict[str, Any]) -> None:
    move = parse(action)
    assert move.to_json() == action
    assert move.order == tuple(action)
    assert type(move) is Move or move.type == action["type"]


def test_routes_load_with_their_own_keys_kept() -> None:
    move = parse({**RUN, "routes": [R, {"train": "2-1", "x": [1]}]})
    assert isinstance(move, RunRoutes)
    assert move.routes[0] == Route(
        train="4H-0", connections=(("C3", "D4"),), hexes=("C3",), revenue=50, order=tuple(R)
    )
    assert move.routes[1].rest == (("x", [1]),)


def test_the_fast_readers_build_what_the_slow_path_builds() -> None:
    """Every recorded action and every odd one above: the move of :func:`parse` (the fast
    reader of its type, which must answer for a recorded action) equals the one of the slow
    path, ``check_shape`` and ``_build``, with the same order of keys and the same rest."""
    recorded = [
        action
        for path in sorted(FIXTURES_18XX.glob("*/*.json"))
        for action in json.loads(path.read_text())["actions"]
    ]
    for action in [*recorded, *ACCEPTED]:
        check_shape(action)
        slow = _build(action)
        move = parse(action)
        assert move == slow
        assert (move.order, move.rest, move.to_json()) == (slow.order, slow.rest, slow.to_json())
        if action in recorded and action["type"] in FIELDS:  # made by the parse above
            assert _FAST[action["type"]](action) is not None, action
