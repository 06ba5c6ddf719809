"""``stellwerk selfplay --veto FILE.py:NAME``: the differential tooling's veto, loaded from a
file (the product knows no other engine's defects); a pick it names a reason for is put aside
and counted, and a spec that names no function is a usage error."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from stellwerk.cli.main import main

VETO = '''
def veto(game, action):
    """Put every bid above the minimum aside."""
    if action.get("type") == "bid" and action.get("price", 0) > 0:
        return "dear"
    return None
'''


def test_a_veto_puts_picks_aside_and_the_outcome_counts_them(tmp_path: Path) -> None:
    veto = tmp_path / "veto.py"
    veto.write_text(VETO, encoding="utf-8")
    out = tmp_path / "g.json"
    args = ["selfplay", "1849", "--players", "3", "--seed", "4", "--max-actions", "40",
            "-o", str(out)]  # fmt: skip
    plain = CliRunner().invoke(main, args)
    vetoed = CliRunner().invoke(main, [*args, "--veto", f"{veto}:veto"])
    assert plain.exit_code == 0 and vetoed.exit_code == 0, vetoed.output
    assert "put aside by the veto" in vetoed.output and "x dear" in vetoed.output
    assert "put aside" not in plain.output
    assert json.loads(out.read_text())["actions"]


def test_a_veto_that_names_nothing_is_a_usage_error(tmp_path: Path) -> None:
    veto = tmp_path / "veto.py"
    veto.write_text(VETO, encoding="utf-8")
    out = str(tmp_path / "g.json")
    for spec in (f"{veto}:nothing", f"{tmp_path / 'missing.py'}:veto", "veto"):
        result = CliRunner().invoke(main, ["selfplay", "1849", "--players", "3", "--veto", spec,
                                           "-o", out])  # fmt: skip
        assert result.exit_code == 2 and "--veto" in result.output, (spec, result.output)
