"""Which build of stellwerk a bench measures: the native build (docs/native-build.md) unless
``STELLWERK_BUILD=pure``.

A bench calls :func:`measured_build` first: it makes the native copy of this tree (or makes it
again when the sources changed: ``scripts/build_native.sh``) and runs the bench again, as a new
program, with the copy on ``PYTHONPATH``, so the programs it starts (``our_replay.py``) run in
it too.  When the copy cannot be built (no C compiler), the pure Python is measured and the
reason printed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CHOICE = "STELLWERK_BUILD"
"""``native`` (the default) or ``pure``."""
MARK = "STELLWERK_BENCH_BUILD"
"""Set in the environment of a bench run again in the native build: the copy's directory."""


def measured_build(argv: list[str]) -> str:
    """The build measured (``native build DIR`` or ``pure Python``), after running the program
    ``argv`` again in the native build when that is chosen and this is not it yet (then this
    call does not return)."""
    if os.environ.get(MARK):
        return os.environ[MARK]
    if os.environ.get(CHOICE, "native") == "pure":
        return "pure Python"
    build = subprocess.run(
        ["bash", str(REPO / "scripts" / "build_native.sh"), sys.prefix],
        capture_output=True,
        text=True,
        check=False,
    )
    if build.returncode != 0:
        print(
            f"native build failed, the pure Python is measured:\n{build.stderr.strip()}",
            file=sys.stderr,
        )
        return "pure Python"
    copy = build.stdout.strip().splitlines()[-1]
    path = os.pathsep.join(p for p in (copy, os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "PYTHONPATH": path, MARK: f"native build {copy}"}
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, *argv], env)
