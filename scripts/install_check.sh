#!/usr/bin/env bash
# Checks that stellwerk installs like any Python package: a non-editable `pip install .` into a
# fresh temporary venv (default Python 3.13, the newest supported; `install_check.sh 3.11` for
# another) gives a working `stellwerk` command, run outside the repository: --version, titles,
# a short selfplay game and `show` of it (the title data files must be in the wheel).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/find_python.sh
version="${1:-3.13}"
if ! python="$(find_python "$version")"; then
    echo "install_check.sh: Python $version not found; install it, e.g. 'pyenv install $version'" >&2
    exit 1
fi
repo="$(pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$python" -m venv "$work/venv"
if ! "$work/venv/bin/pip" install -q "$repo" > "$work/pip.log" 2>&1; then
    cat "$work/pip.log" >&2
    echo "install_check.sh: pip install . failed on Python $version" >&2
    exit 1
fi
cd "$work"
bin="$work/venv/bin/stellwerk"
[ -x "$bin" ] || { echo "install_check.sh: pip install . gave no stellwerk command" >&2; exit 1; }
"$bin" --version
"$bin" titles >/dev/null
"$bin" selfplay 1849 --players 3 --seed 2 --max-actions 30 -o game.json >/dev/null
"$bin" show game.json >/dev/null
echo "install_check.sh: pip install . on Python $version gives a working stellwerk command"
