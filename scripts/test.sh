#!/usr/bin/env bash
# Runs every check on the oldest and the newest supported Python:
#   Python 3.11 (.venv):       ruff check, ruff format --check, mypy --strict, import-linter,
#                              pytest on 2 workers (pytest-xdist)
#   Python 3.13 (.venv-3.13):  the native build (scripts/build_native.sh: the core's hot modules
#                              compiled by mypyc) and pytest on 2 workers against it (without the
#                              browser tests and the tests marked long_run, which ran in the 3.11
#                              pass), and a non-editable
#                              `pip install .` into a temporary venv that must give a working `stellwerk` command
# The native build runs in the background beside the 3.11 setup, checks and pytest: run one
# after the other it kept one core busy for 1.5 minutes with the other idle (CI's budget is
# 15 minutes).
# A venv is (re)made by scripts/setup.sh when it is missing or older than pyproject.toml; a
# missing Python 3.13 fails the run with a hint how to get it.
# Extra arguments go to both pytest runs, e.g. `bash scripts/test.sh --slow`.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0

# the system packages the tests need (Debian's chromium and PostgreSQL server binaries),
# apt-installed when missing and run as root; otherwise it only says what is missing
bash scripts/ci_packages.sh || echo "test.sh: could not install the system packages" >&2

ready() {  # ready VERSION VENV: set up VENV unless it is there and up to date
    if [ ! -x "$2/bin/python" ] || [ pyproject.toml -nt "$2/.installed" ]; then
        echo "== setup $2 (Python $1)"
        bash scripts/setup.sh "$1"
    fi
}

run_pytest() {  # run_pytest VENV ARGS...: pytest, where "no tests collected" is a failure
    local venv="$1"
    shift
    # --dist worksteal: a worker that runs out of tests takes half of the other's queue, so the
    # long end-to-end games (up to a minute each) cannot leave one worker running alone at the
    # end, as xdist's default (load: fixed batches sent ahead) can
    "$venv/bin/pytest" -n 2 --dist worksteal --durations=20 "$@"  # the slowest tests, to watch the 15-minute budget
    local code=$?
    if [ "$code" -eq 5 ]; then
        echo "test.sh: FAILED - pytest collected no tests (exit code 5)" >&2
        return 1
    fi
    return "$code"
}

# The native build compiles on one core for about a minute and a half; it runs in the
# background from here, beside the 3.11 setup, checks and pytest, and the 3.13 pytest waits
# for it.  Its messages are shown when it is waited for.
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT  # an interrupted run leaves no build running
native_job=""
have_313=false
if ready 3.13 .venv-3.13; then
    have_313=true
    echo "== native build (Python 3.13, scripts/build_native.sh), in the background"
    bash scripts/build_native.sh .venv-3.13 > "$work/native.out" 2> "$work/native.err" &
    native_job=$!
fi

if ready 3.11 .venv; then
    echo "== ruff check"
    .venv/bin/ruff check . || status=1
    echo "== ruff format --check"
    .venv/bin/ruff format --check . || status=1
    echo "== mypy"
    .venv/bin/mypy || status=1
    echo "== import layers (lint-imports, pyproject.toml [tool.importlinter])"
    .venv/bin/lint-imports || status=1
    echo "== pytest (Python 3.11)"
    run_pytest .venv "$@" || status=1
else
    echo "test.sh: setup of .venv (Python 3.11) failed" >&2
    status=1
fi

if [ "$have_313" = true ]; then
    # the 3.13 pass tests the native build (docs/native-build.md): the same tests against a
    # copy of the package with the core's hot modules compiled by mypyc; the 3.11 pass above
    # tested the pure Python.  Without a C compiler it tests the pure Python, and says so
    # (under CI=true a failed build fails the run).
    echo "== native build (Python 3.13, scripts/build_native.sh): waiting for it"
    native=""
    if wait "$native_job"; then
        cat "$work/native.err" >&2
        native="$(tail -n 1 "$work/native.out")"
        echo "== pytest (Python 3.13, native build $native; the browser tests and long end-to-end games ran in the 3.11 pass)"
    else
        cat "$work/native.err" >&2
        echo "test.sh: the native build failed: the 3.13 pass tests the pure Python" >&2
        [ "${CI:-}" = true ] && status=1
        native=""
    fi
    # (the install check runs after the pytest, not beside it: beside it, its pip and the
    # selfplay game slowed the pytest on 2 cores by more than the check takes, 3:27-3:44
    # against 3:00)
    PYTHONPATH="$native" STELLWERK_BROWSER_TESTS=off STELLWERK_LONG_RUNS=off \
        run_pytest .venv-3.13 "$@" || status=1
    echo "== pip install . (Python 3.13, scripts/install_check.sh)"
    SECONDS=0
    bash scripts/install_check.sh 3.13 || status=1
    echo "(install check: ${SECONDS} s)"
else
    echo "test.sh: FAILED - no Python 3.13 venv: CI must test the newest supported Python" >&2
    status=1
fi

if [ "$status" -ne 0 ]; then
    echo "test.sh: FAILED" >&2
else
    echo "test.sh: all checks passed"
fi
exit "$status"
