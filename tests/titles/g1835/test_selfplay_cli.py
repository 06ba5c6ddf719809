"""``stellwerk selfplay 1835``: random games through the CLI for every start variant."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from stellwerk.api import Game
from stellwerk.cli.main import main


@pytest.mark.parametrize("variant", ["standard", "snake", "clemens"])
def test_selfplay_cli_plays_1835(variant: str, tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    args = ["selfplay", "1835", "--players", "3", "--seed", "2", "--option", variant]
    result = CliRunner().invoke(main, [*args, "--max-actions", "150", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "1835 selfplay (seed 2): 150 actions" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["settings"]["optional_rules"] == [variant]
    assert len(Game.from_file(data).actions) == 150


@pytest.mark.slow
def test_selfplay_cli_plays_1835_to_the_end(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    args = ["selfplay", "1835", "--players", "4", "--seed", "1", "-o", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "game finished" in result.output and "result (bank)" in result.output
