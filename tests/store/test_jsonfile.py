"""The JSON game file backend: permissions, symlinks, folders, byte-identical refusals
(stellwerk/store/jsonfile.py, stellwerk/io/gamefile.py write_json_atomic)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from fakegame import FakeGame
from storehelp import pass_of, toy_file

from stellwerk.core.errors import IllegalAction
from stellwerk.io.gamefile import current_umask, read_game_file
from stellwerk.store import GameMovedOn, JsonFileStore, StoreError


def mode_of(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_append_keeps_the_file_mode(tmp_path: Path) -> None:
    store = JsonFileStore(tmp_path, engine=FakeGame)
    store.create("g.json", toy_file())
    os.chmod(tmp_path / "g.json", 0o640)
    store.append("g.json", pass_of(1), 0)
    assert mode_of(tmp_path / "g.json") == 0o640


def test_a_new_file_gets_the_usual_mode_not_0600(tmp_path: Path) -> None:
    JsonFileStore(tmp_path, engine=FakeGame).create("g.json", toy_file())
    assert mode_of(tmp_path / "g.json") == 0o666 & ~current_umask()


def test_a_symlinked_game_file_stays_a_link(tmp_path: Path) -> None:
    """The link's target is rewritten and the lock sits next to the target."""
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    store = JsonFileStore(tmp_path, engine=FakeGame)
    store.create("real/g.json", toy_file())
    link = tmp_path / "link.json"
    link.symlink_to(real_dir / "g.json")
    store.append("link.json", pass_of(1), 0)
    assert link.is_symlink()
    assert len(read_game_file(real_dir / "g.json")["actions"]) == 1
    assert (real_dir / ".g.json.lock").exists() and not (tmp_path / ".link.json.lock").exists()
    with pytest.raises(GameMovedOn):
        store.append("real/g.json", pass_of(2), 0)


def test_a_refused_write_leaves_the_file_byte_identical(tmp_path: Path) -> None:
    store = JsonFileStore(tmp_path, engine=FakeGame)
    store.create("g.json", toy_file())
    store.append("g.json", pass_of(1), 0)
    before = (tmp_path / "g.json").read_bytes()
    with pytest.raises(IllegalAction):
        store.append("g.json", pass_of(1), 1)
    with pytest.raises(GameMovedOn):
        store.append("g.json", pass_of(2), 0)
    assert (tmp_path / "g.json").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".g.json.lock", "g.json"]


def test_a_missing_folder_is_a_store_error(tmp_path: Path) -> None:
    store = JsonFileStore(tmp_path, engine=FakeGame)
    with pytest.raises(StoreError, match="does not exist"):
        store.create("missing/g.json", toy_file())
    assert not (tmp_path / "missing").exists()


def test_keys_are_the_game_files_of_the_folder(tmp_path: Path) -> None:
    store = JsonFileStore(tmp_path, engine=FakeGame)
    for name in ("b.json", "a.json"):
        store.create(name, toy_file())
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    assert store.keys() == ["a.json", "b.json"]


def test_a_write_removes_temporary_files_a_killed_writer_left(tmp_path: Path) -> None:
    """Only the lock holder has a temporary file of a game, so others are leftovers."""
    store = JsonFileStore(tmp_path, engine=FakeGame)
    store.create("g.json", toy_file())
    (tmp_path / ".g.json.x1y2.tmp").write_text("{", encoding="utf-8")
    (tmp_path / ".other.json.x1y2.tmp").write_text("{", encoding="utf-8")
    store.append("g.json", pass_of(1), 0)
    assert not (tmp_path / ".g.json.x1y2.tmp").exists()
    assert (tmp_path / ".other.json.x1y2.tmp").exists()


def test_the_new_text_is_fsynced_before_the_rename_and_the_folder_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Durability: file fsync, then os.replace, then the folder's fsync (write_json_atomic)."""
    store = JsonFileStore(tmp_path, engine=FakeGame)
    store.create("g.json", toy_file())
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(handle: int) -> None:
        calls.append("fsync-folder" if stat.S_ISDIR(os.fstat(handle).st_mode) else "fsync-file")
        real_fsync(handle)

    def replace(source: str, target: object) -> None:
        calls.append("replace")
        real_replace(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    store.append("g.json", pass_of(1), 0)
    assert calls == ["fsync-file", "replace", "fsync-folder"]
