"""One rule for every command that reads a game (cli/game_source.py): GAME is read by its name
-- a Rails 1835 report when it ends in ``.report``, else an 18xx.games game file -- and
``--format`` says it outright; a file that is not what it is read as is a usage error (exit 2)
with the file named, and nothing is written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from stellwerk.cli.main import main

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures"
REPORT = SHARED / "rails" / "1835" / "1835_SellPresidency.report"
GAME_1849 = SHARED / "18xx.games" / "1849" / "1849_game_end_bank.json"

READERS = (
    ("replay",),
    ("show",),
    ("log",),
    ("routes", "--corporation", "PR"),
    ("market", "-o", "{out}"),
)


def _run(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


def _args(command: tuple[str, ...], game: Path, out: Path) -> list[str]:
    first, *rest = command
    return [first, str(game), *(a.replace("{out}", str(out)) for a in rest)]


@pytest.fixture
def report(tmp_path: Path) -> Path:
    if not REPORT.is_file():
        pytest.skip("../shared fixtures absent")
    return REPORT


@pytest.mark.parametrize("command", READERS, ids=[c[0] for c in READERS])
def test_a_report_is_read_by_its_name(
    command: tuple[str, ...], report: Path, tmp_path: Path
) -> None:
    result = _run(*_args(command, report, tmp_path / "m.svg"))
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]


@pytest.mark.parametrize("command", READERS, ids=[c[0] for c in READERS])
def test_format_says_what_the_name_does_not(
    command: tuple[str, ...], report: Path, tmp_path: Path
) -> None:
    """A report under another name is read with ``--format rails-report``; read as a game
    file it is refused with the file named."""
    renamed = tmp_path / "game.txt"
    shutil.copy(report, renamed)
    said = _run(*_args(command, renamed, tmp_path / "m.svg"), "--format", "rails-report")
    assert said.exit_code == 0, said.output  # type: ignore[attr-defined]
    wrong = _run(*_args(command, renamed, tmp_path / "n.svg"), "--format", "18xx")
    assert wrong.exit_code == 2, wrong.output  # type: ignore[attr-defined]
    assert str(renamed) in wrong.output  # type: ignore[attr-defined]
    assert not (tmp_path / "n.svg").exists()


def test_a_game_file_read_as_a_report_is_refused(tmp_path: Path) -> None:
    if not GAME_1849.is_file():
        pytest.skip("../shared fixtures absent")
    result = _run("log", str(GAME_1849), "--format", "rails-report")
    assert result.exit_code == 2
    output = result.output  # type: ignore[attr-defined]
    assert str(GAME_1849) in output and "line 1: unknown line" in output
    assert len(output) < 300  # the offending line is cut, not the whole file echoed


def test_a_stored_game_is_a_game_file(tmp_path: Path) -> None:
    result = _run("log", "somekey", "--db", str(tmp_path / "g.db"), "--format", "rails-report")
    assert result.exit_code == 2
    assert "a stored game is a game file" in result.output  # type: ignore[attr-defined]
