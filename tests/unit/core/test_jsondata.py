"""The JSON readers (``stellwerk.core.jsondata``): each returns exactly the value of the type
it names and refuses anything else with the caller's error, naming the key; the game-file
reader built on them still reports a corrupt file with the action number and the reason
(common rules §3.2)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stellwerk.core import jsondata as j
from stellwerk.core.errors import GameFileError
from stellwerk.io.gamefile import load_game_file

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text())
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)


class Refused(Exception):
    """A caller's own error type, to see that the readers raise it."""


@given(VALUES)
def test_integer_reads_only_integers_not_bools(value: j.JSONValue) -> None:
    obj: j.JSONObject = {"n": value}
    if isinstance(value, int) and not isinstance(value, bool):
        assert j.integer(obj, "n", Refused) == value
    else:
        with pytest.raises(Refused, match="'n' must be an integer"):
            j.integer(obj, "n", Refused)


@given(VALUES)
def test_text_reads_only_strings(value: j.JSONValue) -> None:
    obj: j.JSONObject = {"s": value}
    if isinstance(value, str):
        assert j.text(obj, "s", Refused) == value
    else:
        with pytest.raises(Refused, match="'s' must be a string"):
            j.text(obj, "s", Refused)


@given(VALUES)
def test_optional_readers_take_missing_and_null_as_none(value: j.JSONValue) -> None:
    assert j.optional_integer({}, "n") is None
    assert j.optional_text({"s": None}, "s") is None
    obj: j.JSONObject = {"v": value}
    if value is None or isinstance(value, str):
        assert j.optional_text(obj, "v") == value
    else:
        with pytest.raises(j.ShapeError):
            j.optional_text(obj, "v")


@given(VALUES)
def test_list_readers(value: j.JSONValue) -> None:
    obj: j.JSONObject = {"l": value}
    if value is None:
        assert j.list_at(obj, "l") == [] and j.first_text(obj, "l") == ""
    elif isinstance(value, list):
        assert j.list_at(obj, "l") == value
        assert j.first_text(obj, "l") == (str(value[0]) if value else "")
        if all(isinstance(item, dict) for item in value):
            assert j.objects_at(obj, "l") == value
        else:
            with pytest.raises(j.ShapeError):
                j.objects_at(obj, "l")
    else:
        with pytest.raises(j.ShapeError, match="'l' must be a list"):
            j.list_at(obj, "l")


def test_ident_takes_player_ids_and_symbols_only() -> None:
    assert j.ident({"p": 3}, "p") == 3
    assert j.ident({"p": "PR"}, "p") == "PR"
    for bad in (True, None, 1.5, [1], {}):
        with pytest.raises(Refused, match="'p' must be an integer or a string"):
            j.ident({"p": bad}, "p", Refused)


def _file(actions: list[j.JSONValue]) -> j.JSONObject:
    return {
        "title": "1849",
        "players": [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}, {"id": 3, "name": "C"}],
        "settings": {"seed": 1},
        "actions": actions,
    }


def test_corrupt_game_file_names_the_action_and_the_reason() -> None:
    """common rules §3.2: every action has a type and an integer id, ids ascend."""
    good = {"type": "pass", "entity": 1, "entity_type": "player", "id": 1}
    cases: list[tuple[list[j.JSONValue], int | None, str]] = [
        ([good, {"type": "pass", "id": "x"}], 1, "no integer id"),
        ([good, {"entity": 1, "id": 2}], 2, "no type"),
        ([good, {**good, "id": 1}], 1, "must ascend"),
        ([good, {**good, "id": 2, "auto_actions": {}}], 2, "auto_actions must be a list"),
        ([good, 7], 1, "is not an object"),
    ]
    for actions, where, reason in cases:
        with pytest.raises(GameFileError, match=reason) as caught:
            load_game_file(json.loads(json.dumps(_file(actions))))
        assert caught.value.action_id == where


def test_game_file_result_must_map_to_integers() -> None:
    data = _file([])
    data["result"] = {"1": 10, "2": "many"}
    with pytest.raises(GameFileError, match="'result' must map player ids to integers"):
        load_game_file(data)
    data["result"] = {"1": 10, "2": 20}
    assert load_game_file(data).result == {"1": 10, "2": 20}
