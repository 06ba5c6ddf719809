"""``new``/``act``/``undo``/``redo``/``show``/``import``/``export`` over the game store (issue 12,
items 3 and 4): exit statuses 1/2/3, nothing written on refusal, files keep everything."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from stellwerk.cli.common import EXIT_MOVED_ON, EXIT_REFUSED, EXIT_USAGE
from stellwerk.cli.main import main
from stellwerk.io.undo import live_actions

FIXTURE = "1849/1849_game_end_bank.json"
OUTCOME_KEYS = {"status", "result", "game_end_reason"}


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def new_toy(path: Path, *extra: str) -> Any:
    return run("new", "toy", "--players", "Ann,Bob", "--seed", "7", "-o", str(path), *extra)


def test_new_refuses_to_overwrite_without_force(tmp_path: Path, fake_api: type) -> None:
    path = tmp_path / "g.json"
    assert new_toy(path).exit_code == 0
    assert run("act", str(path), '{"type": "pass", "entity": 1}').exit_code == 0
    before = path.read_bytes()
    result = new_toy(path)
    assert result.exit_code == EXIT_USAGE and "--force" in result.output
    assert path.read_bytes() == before
    assert new_toy(path, "--force").exit_code == 0
    assert read(path)["actions"] == []


def test_new_into_a_missing_folder_is_a_usage_error(tmp_path: Path, fake_api: type) -> None:
    result = new_toy(tmp_path / "missing" / "g.json")
    assert result.exit_code == EXIT_USAGE
    assert "does not exist" in result.output and "Traceback" not in result.output


def test_act_on_a_stale_base_exits_3(tmp_path: Path, fake_api: type) -> None:
    path = tmp_path / "g.json"
    new_toy(path)
    assert run("act", str(path), '{"type": "pass", "entity": 1}', "--base", "0").exit_code == 0
    before = path.read_bytes()
    result = run("act", str(path), '{"type": "pass", "entity": 2}', "--base", "0")
    assert result.exit_code == EXIT_MOVED_ON
    assert "the game moved on: based on 0 actions, now 1" in result.output
    assert path.read_bytes() == before
    assert run("undo", str(path), "--base", "0").exit_code == EXIT_MOVED_ON


def test_act_with_a_foreign_id_is_refused(tmp_path: Path, fake_api: type) -> None:
    path = tmp_path / "g.json"
    new_toy(path)
    before = path.read_bytes()
    result = run("act", str(path), '{"type": "pass", "entity": 1, "id": 43}')
    assert result.exit_code == EXIT_REFUSED and "next id of this game is 1" in result.output
    assert path.read_bytes() == before


def test_undo_then_redo(tmp_path: Path, fake_api: type) -> None:
    path = tmp_path / "g.json"
    new_toy(path)
    run("act", str(path), '{"type": "take", "entity": 1, "amount": 10}')
    assert run("undo", str(path)).exit_code == 0
    assert live_actions(read(path)["actions"]) == []
    result = run("redo", str(path))
    assert result.exit_code == 0 and "to act: [2]" in result.output
    assert [a["type"] for a in read(path)["actions"]] == ["take", "undo", "redo"]
    assert run("redo", str(path)).exit_code == EXIT_REFUSED


def test_act_keeps_mode_and_symlink(tmp_path: Path, fake_api: type) -> None:
    path = tmp_path / "g.json"
    new_toy(path)
    os.chmod(path, 0o664)
    link = tmp_path / "link.json"
    link.symlink_to(path)
    assert run("act", str(link), '{"type": "pass", "entity": 1}').exit_code == 0
    assert link.is_symlink() and stat.S_IMODE(os.stat(path).st_mode) == 0o664
    assert len(read(path)["actions"]) == 1


def test_play_in_a_database(tmp_path: Path, fake_api: type) -> None:
    db = f"sqlite:///{tmp_path / 'games.db'}"
    assert new_toy(Path("first"), "--db", db).exit_code == 0
    assert run("act", "first", '{"type": "pass", "entity": 1}', "--db", db).exit_code == 0
    shown = run("show", "first", "--db", db)
    assert shown.exit_code == 0 and "To act: 2" in shown.output
    assert run("undo", "first", "--db", db).exit_code == 0
    assert run("show", "nothing", "--db", db).exit_code == EXIT_USAGE
    out = tmp_path / "first.json"
    assert run("export", "first", "--db", db, "-o", str(out)).exit_code == 0
    assert [a["type"] for a in read(out)["actions"]] == ["pass", "undo"]
    result = run("import", str(out), "--db", db)
    assert result.exit_code == EXIT_USAGE and "already exists" in result.output
    assert run("import", str(out), "--db", db, "--key", "copy").exit_code == 0
    assert run("export", "copy", "--db", db, "-o", str(out)).exit_code == EXIT_USAGE
    assert run("export", "copy", "--db", db, "-o", str(out), "--force").exit_code == 0


# -- a real 18xx.games file -----------------------------------------------------------------


def fixture_copy(
    fixtures_18xx: Path, tmp_path: Path, keep: int | None
) -> tuple[Path, dict[str, Any]]:
    pytest.importorskip("stellwerk.api")
    data = json.loads((fixtures_18xx / FIXTURE).read_text(encoding="utf-8"))
    if keep is not None:
        data["actions"] = data["actions"][:keep]
    path = tmp_path / "copy.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path, data


def test_act_on_a_real_file_keeps_every_action_and_key(fixtures_18xx: Path, tmp_path: Path) -> None:
    """Issue 12 item 4: appending keeps metadata, ids and undo/redo; only actions grow."""
    from stellwerk.api import Game

    path, data = fixture_copy(fixtures_18xx, tmp_path, 300)
    legal = Game.from_file(data).legal_actions()[0]
    result = run("act", str(path), json.dumps(legal))
    assert result.exit_code == 0, result.output
    after = read(path)
    assert list(after) == list(data)
    assert {k for k in data if after[k] != data[k]} <= {"actions"} | OUTCOME_KEYS
    assert after["actions"][:-1] == data["actions"]
    assert after["actions"][-1]["id"] == max(a["id"] for a in data["actions"]) + 1
    assert after["actions"][-1]["type"] == legal["type"]


def test_an_id_copied_from_the_export_is_refused(fixtures_18xx: Path, tmp_path: Path) -> None:
    """The tester's case: an action with "id" 5 made the file unloadable; now it is refused."""
    path, data = fixture_copy(fixtures_18xx, tmp_path, 300)
    before = path.read_bytes()
    result = run("act", str(path), json.dumps({**data["actions"][3], "id": 5}))
    assert result.exit_code == EXIT_REFUSED and "next id" in result.output
    assert path.read_bytes() == before


def test_undo_on_a_real_file_keeps_its_history(fixtures_18xx: Path, tmp_path: Path) -> None:
    """The tester's case: undo turned 475 actions into 395; now it appends the 476th."""
    path, data = fixture_copy(fixtures_18xx, tmp_path, None)
    result = run("undo", str(path))
    assert result.exit_code == 0, result.output
    after = read(path)
    assert after["actions"][:-1] == data["actions"] and after["actions"][-1]["type"] == "undo"
    assert list(after) == list(data)
    assert {k for k in data if after[k] != data[k]} <= {"actions"} | OUTCOME_KEYS
    assert after["status"] == "active"


def test_import_then_export_gives_the_file_back(fixtures_18xx: Path, tmp_path: Path) -> None:
    path, data = fixture_copy(fixtures_18xx, tmp_path, None)
    db = str(tmp_path / "games.db")
    assert run("import", str(path), "--db", db).exit_code == 0
    out = tmp_path / "out.json"
    assert run("export", "copy", "--db", db, "-o", str(out)).exit_code == 0
    exported = read(out)
    assert exported == data and list(exported) == list(data)
