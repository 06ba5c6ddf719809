"""``stellwerk routes`` on the 1849 fixture: text and JSON output, what-if trains, errors.
Skips when ../shared is absent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from stellwerk.cli.main import main

GAME = (
    Path(__file__).resolve().parents[3]
    / ".."
    / "shared"
    / "fixtures"
    / "18xx.games"
    / "1849"
    / "1849_game_end_bank.json"
)
pytestmark = pytest.mark.skipif(not GAME.is_file(), reason=f"{GAME} is absent")


def run(*args: str) -> Any:
    return CliRunner().invoke(main, ["routes", str(GAME), *args])


def test_json_before_an_action() -> None:
    """ATA before its run #477: 590 (the players' and the auto-router's figure), proven."""
    result = run("--corporation", "ATA", "--before-action", "477", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert set(out) == {"corporation", "revenue", "routes", "seconds", "optimal"}
    assert out["corporation"] == "ATA" and out["revenue"] == 590 and out["optimal"] is True
    assert sorted(r["train"] for r in out["routes"]) == ["12H-0", "16H-1"]
    assert sum(r["revenue"] for r in out["routes"]) == 590
    assert all(r["connections"] and r["nodes"] for r in out["routes"])


def test_what_if_trains_and_text_output() -> None:
    """--trains replaces the owned trains (synthetic benchmark: 840 with 12H+16H+16H+R6H)."""
    result = run("--corporation", "ATA", "--before-action", "477", "--trains", "12H,16H,16H,R6H")
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 5
    assert "ATA: revenue 840 (proven optimal)" in lines[-1]


def test_unknown_train_and_corporation_are_usage_errors() -> None:
    result = run("--corporation", "ATA", "--before-action", "477", "--trains", "7")
    assert result.exit_code == 2 and "no train type '7'" in result.output
    result = run("--corporation", "XYZ", "--before-action", "477")
    assert result.exit_code == 2 and "no corporation XYZ" in result.output
