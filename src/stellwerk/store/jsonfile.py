"""The JSON game file backend: one 18xx.games game file per game, the key is its path.

Writes (``create``, ``append``, ``undo``, ``redo``) hold an exclusive ``fcntl.flock`` on a
sidecar lock file next to the real file (``.NAME.lock``; symlinks resolved, so every link to one
file shares its lock).  The count check happens under that lock, so of two writers based on the
same count exactly one wins.  The lock file is never removed: removing it would let a late
writer lock a file nobody else sees.  The lock is released when its holder dies, even by
``kill -9``; temporary files a killed writer left behind are removed by the next write.

The new text replaces the file atomically (``write_json_atomic``: temporary file, ``fsync``,
old permission bits kept, ``os.replace``, folder ``fsync``), so readers need no lock and a
crash leaves the old or the new file, never a broken one.  A symlinked game file stays a link.
Every key of the original file is kept in order; only ``actions`` grows (and ``status``,
``result``, ``game_end_reason`` follow the game).
"""

from __future__ import annotations

import fcntl
import glob
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from stellwerk.io.gamefile import read_game_file, write_json_atomic
from stellwerk.store.base import Change, GameStore, StoredGame, check_base
from stellwerk.store.errors import GameExists, GameNotFound, StoreError
from stellwerk.store.log import EngineClass, GameData, action_count


def lock_path(real: Path) -> Path:
    """The sidecar lock file of the (symlink-resolved) game file ``real``."""
    return real.parent / f".{real.name}.lock"


@contextmanager
def file_lock(real: Path) -> Iterator[None]:
    """Hold the exclusive lock of game file ``real`` (blocks until it is free)."""
    try:
        handle = os.open(lock_path(real), os.O_RDWR | os.O_CREAT, 0o666)
    except FileNotFoundError as error:
        raise StoreError(f"folder {real.parent} does not exist") from error
    except OSError as error:
        raise StoreError(f"cannot lock {real}: {error.strerror}") from error
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


class JsonFileStore(GameStore):
    """Games as 18xx.games JSON files; a key is a path (relative ones below ``root``)."""

    def __init__(self, root: str | os.PathLike[str] = ".", engine: EngineClass | None = None):
        super().__init__(engine)
        self.root = Path(root)

    def path(self, key: str) -> Path:
        """The path a key names (may be a symlink)."""
        return self.root / key

    def real(self, key: str) -> Path:
        """The file a key names, symlinks resolved."""
        return Path(os.path.realpath(self.path(key)))

    def _read(self, key: str) -> GameData:
        if not self.path(key).is_file():
            raise GameNotFound(key)
        return read_game_file(self.path(key))

    def _write(self, real: Path, data: GameData) -> None:
        """Replace ``real`` (call under its lock).  Temporary files of ``real`` still there
        were left by a writer that died (every writer holds the lock while it has one), so
        they are removed first."""
        for left in real.parent.glob(f".{glob.escape(real.name)}.*.tmp"):
            left.unlink(missing_ok=True)
        try:
            write_json_atomic(real, data)
        except FileNotFoundError as error:
            raise StoreError(f"folder {real.parent} does not exist") from error
        except OSError as error:
            raise StoreError(f"cannot write {real}: {error.strerror}") from error

    def create(self, key: str, data: GameData, *, force: bool = False) -> StoredGame:
        """Write a new game file; ``GameExists`` if one is there and ``force`` is not given."""
        game = self.engine.from_file(data)
        real = self.real(key)
        with file_lock(real):
            if real.exists() and not force:
                raise GameExists(key)
            self.forget_live(key)
            self._write(real, data)
            live = self.keep_live(key, data, game)
        return StoredGame(key, data, self.engine, live=live)

    def load(self, key: str) -> StoredGame:
        """Read the game file (no lock: files are only ever replaced whole); the kept engine
        comes with it when it is at this file."""
        data = self._read(key)
        return StoredGame(key, data, self.engine, live=self.live_game(key, data))

    def count(self, key: str) -> int:
        """The action count of the file as it is now."""
        return action_count(self._read(key))

    def keys(self) -> list[str]:
        """The ``*.json`` files directly in ``root`` (hidden files left out)."""
        return sorted(
            p.name for p in self.root.glob("*.json") if p.is_file() and not p.name.startswith(".")
        )

    def _update(self, key: str, base: int, change: Change) -> StoredGame:
        real = self.real(key)
        if not real.is_file():
            raise GameNotFound(key)
        with file_lock(real):
            data = self._read(key)
            check_base(key, base, action_count(data))
            new, game = change(data)
            self.forget_live(key)  # kept again only once the new file is written
            self._write(real, new)
            live = self.keep_live(key, new, game)
        return StoredGame(key, new, self.engine, live=live)

    def close(self) -> None:
        """Nothing is held open between calls."""
