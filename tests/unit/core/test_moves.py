"""Typed actions (``stellwerk.core.moves``): every recorded action reads into its typed move
and writes back as the same JSON, byte for byte (common rules §3.2-3.3: the action vocabulary
is 18xx.games' JSON, and a game file we write holds what the file we read held)."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.conftest import FIXTURES_18XX

from stellwerk.core.actions import FIELDS
from stellwerk.core.errors import IllegalAction
from stellwerk.core.moves import (
    CLASSES,
    BuyShares,
    LayTile,
    Move,
    Pass,
    Route,
    RouteJSON,
    RunRoutes,
    parse,
    route_views,
)

GAMES = sorted(FIXTURES_18XX.glob("*/*.json"))


def _actions(path: Path) -> list[dict[str, object]]:
    actions: list[dict[str, object]] = json.loads(path.read_text())["actions"]
    return actions


@pytest.mark.skipif(not GAMES, reason="../shared/fixtures is missing")
@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_every_recorded_action_writes_back_byte_for_byte(path: Path) -> None:
    for action in _actions(path):
        move = parse(action)
        assert json.dumps(move.to_json()) == json.dumps(action)
        assert move.type == action["type"]


@pytest.mark.skipif(not GAMES, reason="../shared/fixtures is missing")
def test_fields_are_read_into_typed_attributes() -> None:
    seen: set[str] = set()
    for path in GAMES:
        for action in _actions(path):
            move = parse(action)
            seen.add(move.type)
            if isinstance(move, LayTile):
                assert (move.hex, move.tile, move.rotation) == (
                    action["hex"], action["tile"], action["rotation"],
                )  # fmt: skip
            if isinstance(move, BuyShares):
                assert list(move.shares) == action["shares"]
            if isinstance(move, RunRoutes):
                routes = action["routes"]
                assert isinstance(routes, list)
                assert [r.train for r in move.routes] == [r["train"] for r in routes]
            if move.auto_actions:
                autos = action["auto_actions"]
                assert isinstance(autos, list)
                assert [a.type for a in move.auto_actions] == [a["type"] for a in autos]
    assert {"lay_tile", "buy_shares", "run_routes", "pass"} <= seen


def test_every_action_type_of_the_vocabulary_has_a_class_with_its_required_fields() -> None:
    for kind, required in FIELDS.items():
        if kind.startswith("program_"):
            continue  # standing orders load as plain moves, their fields kept as they came
        cls = CLASSES[kind]
        assert kind == cls.TYPE
        names = {f.name for f in fields(cls)}
        assert set(required) <= names, kind


def test_a_malformed_action_is_refused_naming_the_field_and_left_unchanged() -> None:
    action: dict[str, object] = {"type": "lay_tile", "entity": "PR", "hex": "B2", "tile": "7"}
    before = dict(action)
    with pytest.raises(IllegalAction, match="rotation"):
        parse(action)
    assert action == before


def test_a_move_made_in_the_program_writes_type_entity_and_set_fields() -> None:
    move = LayTile(entity="PR", entity_type="corporation", hex="B2", tile="7", rotation=2)
    assert move.to_json() == {
        "type": "lay_tile", "entity": "PR", "entity_type": "corporation",
        "hex": "B2", "tile": "7", "rotation": 2,
    }  # fmt: skip
    assert parse(move.to_json()) == move.__class__(**{
        **{f.name: getattr(move, f.name) for f in fields(move)},
        "order": tuple(move.to_json()),
    })  # fmt: skip


def test_numbering_and_automatic_actions_keep_the_file_order() -> None:
    move = parse({"type": "pass", "entity": 1, "entity_type": "player"})
    numbered = move.numbered(7).with_autos((Pass(entity=2),))
    assert numbered.to_json() == {
        "type": "pass", "entity": 1, "entity_type": "player", "id": 7,
        "auto_actions": [{"type": "pass", "entity": 2, "entity_type": "player"}],
    }  # fmt: skip
    assert "auto_actions" not in numbered.with_autos(None).to_json()


def test_standing_orders_load_as_plain_moves() -> None:
    action = {"type": "program_share_pass", "entity": 1, "entity_type": "player",
              "unconditional": False, "indefinite": True}  # fmt: skip
    move = parse(action)
    assert type(move) is Move
    assert move.type == "program_share_pass"
    assert move.to_json() == action


JSON_LEAF = st.one_of(st.integers(), st.text(max_size=5), st.booleans(), st.none())
EXTRA = st.dictionaries(
    st.sampled_from(["created_at", "user", "comment", "x"]),
    st.one_of(JSON_LEAF, st.lists(JSON_LEAF, max_size=3)),
    max_size=3,
)


@given(
    hexes=st.lists(st.text(min_size=1, max_size=3), max_size=4),
    extra=EXTRA,
    revenue=st.integers(0, 500),
    first=st.booleans(),
)
def test_routes_with_any_extra_keys_write_back(
    hexes: list[str], extra: dict[str, object], revenue: int, first: bool
) -> None:
    route = {"train": "2-0", "connections": [hexes], "hexes": hexes, "revenue": revenue, **extra}
    action: dict[str, object] = {"type": "run_routes", "entity": "PR"}
    if first:
        action = {**extra, **action}
    action.update({"entity_type": "corporation", "routes": [route], "extra_revenue": 0})
    assert json.dumps(parse(action).to_json()) == json.dumps(action)


def _same_as_written(view: RouteJSON, route: Route) -> None:
    """The view holds what ``route.to_json()`` writes: the keys in order, the values, and no
    other key."""
    written = route.to_json()
    assert list(view) == list(written) and len(view) == len(written)
    assert json.dumps(dict(view.items())) == json.dumps(written)
    assert view == written
    assert "no such key" not in view and view.get("no such key", 7) == 7
    with pytest.raises(KeyError):
        view["no such key"]


@pytest.mark.skipif(not GAMES, reason="../shared/fixtures is missing")
def test_a_route_read_key_by_key_is_the_route_written() -> None:
    for path in GAMES:
        for action in _actions(path):
            move = parse(action)
            if isinstance(move, RunRoutes):
                for view, route in zip(route_views(move.routes), move.routes, strict=True):
                    _same_as_written(view, route)
                    assert view.get("revenue") == view.get("revenue")  # read twice: kept


@given(
    hexes=st.lists(st.text(min_size=1, max_size=3), max_size=4),
    extra=EXTRA,
    revenue=st.one_of(st.none(), st.integers(0, 500)),
)
def test_routes_with_any_keys_read_key_by_key(
    hexes: list[str], extra: dict[str, object], revenue: int | None
) -> None:
    data = {"train": "2-0", "connections": [hexes], "hexes": hexes, "revenue": revenue, **extra}
    _same_as_written(RouteJSON(Route.from_json(data)), Route.from_json(data))
    made = Route(train="3-1", revenue=revenue, hexes=tuple(hexes))  # made in the program
    _same_as_written(RouteJSON(made), made)
