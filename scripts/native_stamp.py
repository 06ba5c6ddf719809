"""The stamp of the sources a native build is made from: a hash of every file of the package
(``src/stellwerk``, caches left out) and of the list of compiled modules
(``scripts/native_modules.txt``), by content, so that any edit - staged or not, compiled
module or not - gives another stamp.

``scripts/build_native.sh`` writes it into the copy it builds (``NATIVE_SOURCE``); the tests
(``tests/conftest.py``) and ``bench/speed.py`` refuse or rebuild a copy whose stamp is not the
tree's: a native copy holds every module of the package, so an old one would run old code.

    python scripts/native_stamp.py          prints the stamp of this tree
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def stamp(repo: Path = REPO) -> str:
    """The hash of the package's files and the module list, by path and content."""
    digest = hashlib.sha256()
    package = repo / "src" / "stellwerk"
    files = sorted(p for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for path in [*files, repo / "scripts" / "native_modules.txt"]:
        digest.update(path.relative_to(repo).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


if __name__ == "__main__":
    print(stamp(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO))
