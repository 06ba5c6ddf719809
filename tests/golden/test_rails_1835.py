"""Golden replays of Rails' 1835 reports (shared/fixtures/rails/1835): every report is turned
into our actions and replayed; every checkpoint (Has cash lines, payouts, price moves, floats,
train purchases, phases, directorships, net-worth changes) must match, and the game must survive
a round trip through an 18xx.games game file (style guide §10)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from stellwerk.api import Game
from stellwerk.cli.main import main
from stellwerk.importers.rails import ImportReport, import_report

FIXTURES = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "rails" / "1835"
REPORTS = sorted(FIXTURES.glob("*.report")) if FIXTURES.is_dir() else []

pytestmark = pytest.mark.skipif(not REPORTS, reason="shared/fixtures/rails/1835 not present")


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.stem)
def test_report_replays_with_every_checkpoint(path: Path) -> None:
    report = import_report(path)
    assert report.first_divergence is None, report.first_divergence
    assert report.matches_result
    assert report.checkpoints > 0


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.stem)
def test_imported_game_round_trips_through_a_game_file(path: Path) -> None:
    report = import_report(path)
    assert report.game is not None
    data = json.loads(json.dumps(report.game.to_file()))
    again = Game.from_file(data)
    assert again.snapshot() == report.game.snapshot()
    assert again.engine.events == report.game.engine.events


def test_cli_replays_a_report_as_json() -> None:
    path = REPORTS[0]
    result = CliRunner().invoke(main, ["replay", str(path), "--format", "rails-report", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["matches_result"] is True and data["first_divergence"] is None


def test_a_wrong_checkpoint_is_named(tmp_path: Path) -> None:
    """A changed Has line makes the replay fail at that line, naming ours and expected."""
    path = REPORTS[0]
    lines = path.read_text(encoding="utf-8").split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("Has,"))
    name, cash = lines[index].split(",")[1:3]
    lines[index] = f"Has,{name},{int(cash) + 1}"
    bad = tmp_path / "bad.report"
    bad.write_text("\n".join(lines), encoding="utf-8")
    report = import_report(bad)
    divergence = report.first_divergence
    assert divergence is not None and divergence.line == index + 1
    assert divergence.ours == int(cash) and divergence.expected == int(cash) + 1
    assert not report.matches_result


ROUTE_CLAIMS_CHECKED = 688
"""Claimed revenues with a positive amount in the eleven reports."""


@functools.cache
def route_checked(path: Path) -> ImportReport:
    return import_report(path, check_routes=True)


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.stem)
def test_claimed_revenues_are_reachable(path: Path) -> None:
    """Every claimed revenue is checked against our proven best routes; the figure is counted
    and reported.  None may exceed them: the four that did (1835_Correct_Sell_Pass and
    1835_ShareSelling_Test line 667, 1835_Forced_Selling_PR_5_Shares line 251,
    1835_Issue129done line 739) came from choices the report does not record - NF's free token
    on L14 and BA's home token relaid on the green L6 - and are settled by the importer from a
    later tile lay (rails-report-format.md 3.3; the importer's module docstring)."""
    report = route_checked(path)
    assert report.first_divergence is None, report.first_divergence
    print(f"{path.stem}: {report.route_checks}")
    assert report.route_unproven == 0
    assert report.route_above == []


def test_route_claims_in_total() -> None:
    """The whole figure: claims checked and claims above our best routes, over all reports."""
    checked = above = 0
    for path in REPORTS:
        report = route_checked(path)
        checked += report.route_checked
        above += len(report.route_above)
    print(f"route claims: {checked} checked, {above} above our proven best routes")
    assert checked == ROUTE_CLAIMS_CHECKED
    assert above == 0
