"""`stellwerk titles` / `stellwerk options TITLE`, player counts per title and the one-line
refusals of bad set-ups (issue 12 item 5), on the real engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from stellwerk.cli.common import EXIT_OK, EXIT_USAGE, save_json
from stellwerk.cli.main import main
from stellwerk.core.errors import IllegalAction
from stellwerk.titles import registry
from stellwerk.titles.g1835.options import OPTIONS as OPTIONS_1835
from stellwerk.titles.g1849.options import OPTIONS as OPTIONS_1849


def run(*args: str) -> Any:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    return result


def test_titles_lists_each_title_with_its_player_counts() -> None:
    """1849 is for 3 to 5 players (1849 rules §1.1), 1835 for 3 to 7 (1835 rules §1)."""
    result = run("titles", "--json")
    assert result.exit_code == EXIT_OK
    listed = {entry["id"]: entry for entry in json.loads(result.stdout)}
    assert listed["1849"]["players"] == [3, 4, 5]
    assert listed["1835"]["players"] == [3, 4, 5, 6, 7]
    assert listed["1849"]["options"] == list(OPTIONS_1849)
    text = run("titles").stdout
    assert "1849  3 to 5 players" in text and "1835  3 to 7 players" in text


def test_options_json_gives_label_source_and_prerequisites() -> None:
    """Each option is shown as declared once in the title's options.py (style guide §8)."""
    data = json.loads(run("options", "1849", "--json").stdout)
    by_id = {option["id"]: option for option in data["options"]}
    assert set(by_id) == set(OPTIONS_1849)
    electric = by_id["electric_dreams"]
    assert electric["label"] == OPTIONS_1849["electric_dreams"].label
    assert electric["source"] == OPTIONS_1849["electric_dreams"].source
    assert electric["requires"] == ["bonds", "acquiring_station_tokens"]
    data_1835 = json.loads(run("options", "1835", "--json").stdout)
    snake = next(option for option in data_1835["options"] if option["id"] == "snake")
    assert snake["conflicts"] == ["standard", "clemens"]
    clemens = next(option for option in data_1835["options"] if option["id"] == "clemens")
    assert clemens["implies"] == ["minors_require_floated_by"]
    assert len(data_1835["options"]) == len(OPTIONS_1835)


def test_options_text_names_every_option_with_its_label() -> None:
    text = run("options", "1835").stdout
    for option in OPTIONS_1835.values():
        assert f"{option.id}: {option.label}" in text


def test_options_of_an_unknown_title_lists_the_known_ones() -> None:
    result = run("options", "1830")
    assert result.exit_code == EXIT_USAGE
    assert result.stderr.strip() == (
        "error: unknown title '1830'; known titles: 1849, 1835, 1841 (titles)"
    )


@pytest.mark.parametrize(
    ("title", "count", "allowed"),
    [("1849", 2, "3 to 5"), ("1849", 6, "3 to 5"), ("1835", 8, "3 to 7")],
)
def test_wrong_player_counts_are_refused_with_the_allowed_ones(
    title: str, count: int, allowed: str
) -> None:
    """Player counts per title: 1849 rules §1.1 (3-5), 1835 rules §1 (3-7)."""
    with pytest.raises(IllegalAction) as refused:
        registry.check_setup(title, count, [])
    assert refused.value.reason == f"{title} is for {allowed} players, not {count}"


def test_selfplay_with_one_player_is_a_usage_error(tmp_path: Path) -> None:
    result = run("selfplay", "1849", "--players", "1", "-o", str(tmp_path / "g.json"))
    assert result.exit_code == EXIT_USAGE
    assert result.stderr == "error: 1849 is for 3 to 5 players, not 1 (1849 rules §1.1)\n"


def test_new_with_two_players_is_a_usage_error(tmp_path: Path) -> None:
    """Once a KeyError: '2' (issue 12)."""
    result = run("new", "1849", "--players", "A,B", "-o", str(tmp_path / "g.json"))
    assert result.exit_code == EXIT_USAGE
    assert "1849 is for 3 to 5 players, not 2" in result.stderr
    assert not (tmp_path / "g.json").exists()


def test_unknown_option_lists_the_valid_ones(tmp_path: Path) -> None:
    result = run("new", "1849", "--players", "A,B,C", "--option", "bond", "-o", str(tmp_path / "g"))
    assert result.exit_code == EXIT_USAGE
    line = result.stderr.strip()
    assert "\n" not in line and "unknown 1849 option 'bond'" in line
    assert all(option in line for option in OPTIONS_1849)


def test_conflicting_and_incomplete_options_are_refused_before_a_game_is_built() -> None:
    """1835 rules §11: start variants exclude each other; 1849 rules §7.5: E-trains need bonds."""
    with pytest.raises(IllegalAction, match="snake and clemens exclude each other"):
        registry.check_setup("1835", 4, ["snake", "clemens"])
    with pytest.raises(IllegalAction, match="electric_dreams needs bonds"):
        registry.check_setup("1849", 4, ["electric_dreams"])


def test_selfplay_into_a_missing_folder_fails_before_playing(tmp_path: Path) -> None:
    result = run("selfplay", "1849", "--players", "3", "-o", str(tmp_path / "no" / "g.json"))
    assert result.exit_code == EXIT_USAGE
    assert "does not exist" in result.stderr


def test_replay_of_a_game_file_for_an_unknown_title_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    game = {"title": "1830", "players": [{"id": 1, "name": "A"}], "actions": []}
    path.write_text(json.dumps(game), encoding="utf-8")
    for command in ("replay", "show"):
        result = run(command, str(path))
        assert result.exit_code == EXIT_USAGE
        assert "unknown title '1830'" in result.stderr


def test_a_path_that_cannot_be_written_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as ended:
        save_json(tmp_path / "missing" / "g.json", {"title": "1849"})
    assert ended.value.code == EXIT_USAGE
    assert capsys.readouterr().err.startswith(f"error: {tmp_path / 'missing' / 'g.json'}: ")
