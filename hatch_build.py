"""Wheel build hook: the native build in the wheel (docs/native-build.md), only when asked for.

``STELLWERK_NATIVE=1 pip install .`` (or ``... pip wheel .``) compiles the modules of
``scripts/native_modules.txt`` with mypyc, as ``scripts/build_native.sh`` does, and puts the
compiled modules into the wheel beside the ``.py`` files, which ship too; the wheel is then
tagged for this Python and platform.  Without the variable, and for an editable install, the
wheel is pure Python, as before.  A failed compile (no C compiler, say) warns and leaves the
wheel pure Python: the native build is only faster, never different.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

NATIVE_REQUIREMENTS = ["mypy==2.4.1", "setuptools==84.2.1"]
"""What the compile needs in the build environment (pinned as the dev tools pin them)."""


class NativeBuild(BuildHookInterface):  # type: ignore[misc]
    """Compiles the listed modules into the wheel when ``STELLWERK_NATIVE=1``."""

    PLUGIN_NAME = "custom"

    def _wanted(self) -> bool:
        return self.target_name == "wheel" and os.environ.get("STELLWERK_NATIVE") == "1"

    def dependencies(self) -> list[str]:
        return list(NATIVE_REQUIREMENTS) if self._wanted() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if not self._wanted() or version == "editable":
            return
        root = Path(self.root)
        listed = (root / "scripts" / "native_modules.txt").read_text(encoding="utf-8")
        modules = [m.strip() for m in listed.splitlines() if m.strip() and not m.startswith("#")]
        work = Path(tempfile.mkdtemp(prefix="stellwerk-native-"))
        self._work = work
        shutil.copytree(
            root / "src" / "stellwerk",
            work / "stellwerk",
            ignore=shutil.ignore_patterns("__pycache__"),
        )
        done = subprocess.run(
            [sys.executable, "-m", "mypyc", *modules],
            cwd=work,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            self.app.display_warning(
                "stellwerk: the native build failed, the wheel is pure Python:\n"
                + (done.stdout + done.stderr)[-3000:]
            )
            return
        built = [
            p
            for p in work.rglob("*")
            if p.suffix in (".so", ".pyd") and "build" not in p.relative_to(work).parts[:1]
        ]
        for path in built:  # the shims beside their .py files, and mypyc's shared library
            build_data["force_include"][str(path)] = path.relative_to(work).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self.app.display_info(f"stellwerk: native build, {len(modules)} modules compiled")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
