"""The core schema of a game table (``core/schema.py``): a phase's train limit is one limit for
every corporation or a table by corporation type (the common phase's limit is then the
largest), a train's count is one number or a list by game size (the common count the
largest), and a wrong shape is refused naming it."""

from __future__ import annotations

import copy

import pytest

from stellwerk.core.jsondata import JSONObject, JSONValue
from stellwerk.core.schema import game_tables, phase_defs, train_counts, train_limits

TABLE: JSONObject = {
    "players": {"min": 2, "max": 3},
    "bank": 4000,
    "starting_cash": {"2": 600, "3": 400},
    "cert_limit": {"2": 12, "3": 9},
    "market": {"rows": [["60", "70p", "80", "90e"], ["50", "60", "70"]]},
    "phases": [
        {"name": "2", "tiles": ["yellow"], "operating_rounds": 1, "train_limit": 4},
        {
            "name": "3",
            "on": "3",
            "tiles": ["yellow", "green"],
            "operating_rounds": 2,
            "train_limit": {"minor": 2, "major": 3},
        },
    ],
    "trains": [
        {"name": "2", "distance": 2, "price": 80, "count": 4, "rusts_on": "3"},
        {"name": "3", "distance": 3, "price": 180, "count": 3},
    ],
    "corporations": [{"sym": "AB", "name": "A-Bahn", "home": "A1", "tokens": 2}],
}


def test_one_train_limit_or_limits_by_type() -> None:
    facts = game_tables(TABLE)
    assert [p.train_limit for p in facts.phases] == [4, 3]
    assert facts.train_limits == ({}, {"minor": 2, "major": 3})
    assert [p.train_limit for p in phase_defs(TABLE)] == [4, 3]


@pytest.mark.parametrize("limit", [{}, {"minor": "2"}, "4", None])
def test_a_wrong_train_limit_is_refused(limit: JSONValue) -> None:
    table = copy.deepcopy(TABLE)
    phases = table["phases"]
    assert isinstance(phases, list) and isinstance(phases[1], dict)
    phases[1]["train_limit"] = limit
    with pytest.raises(ValueError):
        game_tables(table)
    with pytest.raises(ValueError):
        train_limits(phases[1])


def test_market_markers_name_the_letters_of_the_cells() -> None:
    assert game_tables(TABLE).market_markers == ()
    table = copy.deepcopy(TABLE)
    market = table["market"]
    assert isinstance(market, dict)
    market["markers"] = ["p", "e"]
    assert game_tables(table).market_markers == ("p", "e")
    for wrong in (["p"], ["pe"], ["p", "p", "e"], "pe"):
        market["markers"] = wrong
        with pytest.raises(ValueError):
            game_tables(table)


def test_a_train_count_is_one_number_or_counts_by_game_size() -> None:
    table = copy.deepcopy(TABLE)
    trains = table["trains"]
    assert isinstance(trains, list) and isinstance(trains[0], dict)
    trains[0]["count"] = [3, 5]
    first, second = game_tables(table).trains
    assert (first.count, first.counts) == (5, (3, 5))
    assert (second.count, second.counts) == (3, ())
    assert train_counts(trains[0]) == (3, 5)


@pytest.mark.parametrize("count", [[], ["4"], [4, -1], -1, "4", None])
def test_a_wrong_train_count_is_refused(count: JSONValue) -> None:
    table = copy.deepcopy(TABLE)
    trains = table["trains"]
    assert isinstance(trains, list) and isinstance(trains[0], dict)
    trains[0]["count"] = count
    with pytest.raises(ValueError):
        game_tables(table)
