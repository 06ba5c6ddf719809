#!/usr/bin/env bash
# Runs every check: ruff check, mypy --strict, then pytest on 2 workers (pytest-xdist).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh --slow`.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
    bash scripts/setup.sh || { echo "test.sh: setup failed" >&2; exit 1; }
fi
status=0
echo "== ruff check"
.venv/bin/ruff check . || status=1
echo "== mypy"
.venv/bin/mypy || status=1
echo "== pytest"
.venv/bin/pytest -n 2 "$@"
code=$?
if [ "$code" -eq 5 ]; then
    echo "test.sh: FAILED - pytest collected no tests (exit code 5)" >&2
    status=1
elif [ "$code" -ne 0 ]; then
    status=1
fi
if [ "$status" -ne 0 ]; then
    echo "test.sh: FAILED" >&2
else
    echo "test.sh: all checks passed"
fi
exit "$status"
