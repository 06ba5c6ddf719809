"""``stellwerk routes`` on 1835 games, and the relay of a token standing on a city without
track when its tile is upgraded (rules/1835.md 6, 8.5), on positions of imported Rails reports
written out with ``Game.to_file()``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from stellwerk.api import Game
from stellwerk.cli.main import main
from stellwerk.importers.rails import import_report

FIXTURES = Path(__file__).resolve().parents[3] / ".." / "shared" / "fixtures" / "rails" / "1835"

pytestmark = pytest.mark.skipif(not FIXTURES.is_dir(), reason="Rails 1835 reports not present")


def imported(name: str, tmp_path: Path) -> tuple[dict[str, Any], Path]:
    report = import_report(FIXTURES / f"{name}.report")
    assert report.game is not None and report.first_divergence is None
    data = report.game.to_file()
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return data, path


def test_routes_cli_finds_the_claimed_revenue(tmp_path: Path) -> None:
    """Before each of BY's runs, the proven best routes earn what Rails claimed."""
    data, path = imported("1835_SellPresidency", tmp_path)
    runs = [a for a in data["actions"] if a["type"] == "run_routes" and a["entity"] == "BY"]
    assert runs
    for run in runs[:3]:
        args = ["routes", str(path), "--corporation", "BY", "--before-action", str(run["id"])]
        result = CliRunner().invoke(main, [*args, "--json"])
        assert result.exit_code == 0, result.output
        out = json.loads(result.output)
        assert out["optimal"] is True
        assert out["revenue"] == run["revenue"]
        assert sum(r["revenue"] for r in out["routes"]) == out["revenue"]


def test_routes_cli_text_and_what_if_trains(tmp_path: Path) -> None:
    _, path = imported("1835_SellPresidency", tmp_path)
    result = CliRunner().invoke(main, ["routes", str(path), "--corporation", "BY"])
    assert result.exit_code == 0, result.output
    assert "BY: revenue" in result.output and "proven optimal" in result.output
    result = CliRunner().invoke(
        main, ["routes", str(path), "--corporation", "SX", "--trains", "4,4+4"]
    )
    assert result.exit_code == 0, result.output
    assert "SX: revenue" in result.output


def test_a_token_on_a_trackless_city_is_relaid_by_choice(tmp_path: Path) -> None:
    """§6: BA's home token on the preprinted L6 is relaid onto a city of the green tile; the
    director chooses (Rails tile -807).  The report does not say which: the importer took the
    city towards K5, where BA builds next."""
    data, _ = imported("1835_Issue129done", tmp_path)
    relay = next(a for a in data["actions"] if a.get("tokener") == "BA")
    before = {**data, "actions": [a for a in data["actions"] if a["id"] < relay["id"]]}
    game = Game.from_file(before)
    offered = [a for a in game.legal_actions() if a["type"] == "place_token"]
    assert len(offered) == 2 and {a["tokener"] for a in offered} == {"BA"}
    assert relay["city"] in {a["city"] for a in offered}
    assert [a["type"] for a in game.legal_actions()] == ["place_token", "place_token"]
    other = next(a for a in offered if a["city"] != relay["city"])
    game.process(other)
    state = game.engine.map.board.hex("L6")
    assert [c.tokens for c in state.cities].count(["BA"]) == 1
