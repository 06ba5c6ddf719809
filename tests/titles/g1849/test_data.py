"""Our 1849 data files agree with the reference facts (shared/reference/1849.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from stellwerk.core.schema import game_tables
from stellwerk.titles.g1849.data_load import game_data, title_data

REFERENCE = Path(__file__).resolve().parents[3] / ".." / "shared" / "reference" / "1849.yaml"


@pytest.fixture(scope="module")
def ref() -> dict[str, Any]:
    if not REFERENCE.exists():
        pytest.skip("shared/reference is not beside the project")
    with REFERENCE.open() as fh:
        data: dict[str, Any] = yaml.safe_load(fh)
    return data


def test_bank_cash_and_starting_cash(ref: dict[str, Any]) -> None:
    data = game_data()
    assert data["bank"] == ref["bank"]
    assert {int(k): v for k, v in data["starting_cash"].items()} == ref["starting_cash"]


def test_cert_limits(ref: dict[str, Any]) -> None:
    limits = game_data()["cert_limit"]
    assert limits["3"] == ref["cert_limit"][3]["5_corporations"]
    assert limits["4"] == ref["cert_limit"][4]["6_corporations"]
    assert limits["four_players_five_corporations"] == ref["cert_limit"][4]["5_corporations"]
    assert limits["5"] == ref["cert_limit"][5]["6_corporations"]


def test_market_grid(ref: dict[str, Any]) -> None:
    assert game_data()["market"]["rows"] == ref["market"]["rows"]


def test_phases(ref: dict[str, Any]) -> None:
    ours = game_data()["phases"]
    assert [p["name"] for p in ours] == [p["name"] for p in ref["phases"]]
    for mine, theirs in zip(ours, ref["phases"], strict=True):
        assert mine["tiles"] == theirs["tiles"]
        assert mine["operating_rounds"] == theirs["operating_rounds"]
        assert mine["train_limit"] == theirs["train_limit"]
        # PyYAML reads the key `on` as the boolean True (YAML 1.1)
        assert mine.get("on") == theirs.get("on", theirs.get(True))


def test_trains(ref: dict[str, Any]) -> None:
    ours = {t["name"]: t for t in game_data()["trains"]}
    for theirs in ref["trains"]:
        mine = ours[theirs["name"]]
        assert mine["price"] == theirs["price"]
        if isinstance(theirs["count"], dict):
            assert mine["count"] == [
                theirs["count"]["5_corporations"],
                theirs["count"]["6_corporations"],
            ]
        else:
            assert mine["count"] == [theirs["count"], theirs["count"]]
        if isinstance(theirs["distance"], int):
            assert mine["distance"] == theirs["distance"]
        assert mine.get("rusts_on") == theirs.get("rusts_on")
        assert mine.get("available_on") == theirs.get("available_on")


def test_companies(ref: dict[str, Any]) -> None:
    ours = [(c["sym"], c["value"], c["revenue"]) for c in game_data()["companies"]]
    assert ours == [(c["sym"], c["value"], c["revenue"]) for c in ref["companies"]]


def test_corporations(ref: dict[str, Any]) -> None:
    data = game_data()
    defaults = data["corporation_defaults"]
    for mine, theirs in zip(data["corporations"], ref["corporations"], strict=True):
        assert mine["sym"] == theirs["sym"]
        assert mine["token_fee"] == theirs["token_fee"]
        assert defaults["shares"] == theirs["shares"]
        assert defaults["tokens"] == len(theirs["tokens"])
        home = theirs["home"]
        assert mine.get("home") == (home["hex"] if isinstance(home, dict) else None)


def test_typed_facts_are_the_tables() -> None:
    """The common facts read through ``core.schema``, 1849's own beside them, as the table
    says them (a train's counts with five and six corporations, the cert limit with five
    corporations at four players, the token fees)."""
    raw = game_data()
    core = game_tables(raw)
    data = title_data()
    assert (data.bank, data.players, data.market) == (core.bank, core.players, core.market)
    assert data.starting_cash == {int(k): v for k, v in raw["starting_cash"].items()}
    assert data.phases == core.phases
    assert [list(t.counts) for t in data.trains] == [t["count"] for t in raw["trains"]]
    assert [t.name for t in data.trains if t.optional] == ["E"]
    assert data.cert_limit_four_players_five_corporations == 9
    assert [(c.sym, c.home, c.token_fee) for c in data.corporations] == [
        (c["sym"], c.get("home"), c["token_fee"]) for c in raw["corporations"]
    ]
    defaults = raw["corporation_defaults"]
    for c in data.corporations:
        assert (list(c.shares), c.tokens, c.float_percent) == (
            defaults["shares"],
            defaults["tokens"],
            defaults["float_percent"],
        )
    assert data.companies[0].blocks_hexes == ("G13",)
    assert (data.messina, data.chooses_home, data.ift_buffer) == ("B14", "AFG", 3)
    assert list(data.port_hexes) == raw["port_hexes"] and list(data.sms_hexes) == raw["sms_hexes"]
