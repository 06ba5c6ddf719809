#!/usr/bin/env bash
# Creates a virtual environment in the repository root and installs stellwerk (editable) with its
# pinned dependencies:
#   bash scripts/setup.sh          .venv       with Python 3.11, the oldest supported Python
#   bash scripts/setup.sh 3.13     .venv-3.13  with Python 3.13, the newest supported Python
# The interpreter is found as pythonX.Y on PATH or in pyenv; when it is missing the script says
# how to get it and fails: CI tests the oldest and the newest Python.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/find_python.sh
version="${1:-3.11}"
venv=.venv
[ "$version" = "3.11" ] || venv=".venv-$version"
if ! python="$(find_python "$version")"; then
    echo "setup.sh: Python $version not found (neither python$version on PATH nor in pyenv)." >&2
    echo "setup.sh: install it, e.g. 'pyenv install $version', then run this again." >&2
    exit 1
fi
"$python" -m venv "$venv"
"$venv/bin/pip" install -q --upgrade pip >/dev/null 2>&1 || true
"$venv/bin/pip" install -q -e '.[dev]'
touch "$venv/.installed"
