#!/usr/bin/env bash
# The native build (docs/native-build.md): a copy of the package in build/native-X.Y/ with the
# modules of scripts/native_modules.txt compiled by mypyc (pinned with the dev tools), run as
#   PYTHONPATH=build/native-3.11 .venv/bin/python ...
# The source tree never holds a compiled module, so an edited .py is never shadowed by an old
# .so; the copy carries the stamp of the sources it was built from (NATIVE_SOURCE,
# scripts/native_stamp.py), and the tests and bench/speed.py refuse or rebuild a stale copy.
#   bash scripts/build_native.sh [VENV]    (default .venv; needs a C compiler)
# A copy whose stamp is the tree's is kept as it is (FORCE=1 rebuilds it); the last line
# printed is the copy's directory.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${1:-.venv}"
py="$(realpath "$venv")/bin/python"
version="$("$py" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
out="$(realpath -m "${NATIVE_OUT:-build/native-$version}")"
stamp="$("$py" scripts/native_stamp.py)"
if [ "${FORCE:-0}" != 1 ] && [ "$(cat "$out/NATIVE_SOURCE" 2>/dev/null)" = "$stamp" ]; then
    echo "build_native.sh: $out is up to date (sources $stamp)" >&2
    echo "$out"
    exit 0
fi
rm -rf "$out"
mkdir -p "$out"
# the package without its __pycache__ folders: scripts/test.sh builds this beside a pytest run of
# the same tree, whose interpreters may be writing .pyc files there meanwhile
tar -C src --exclude=__pycache__ -cf - stellwerk | tar -C "$out" -xf -
mapfile -t modules < <(grep -v '^#' scripts/native_modules.txt | grep .)
(cd "$out" && "$py" -m mypyc "${modules[@]}" > mypyc.log 2>&1) || {
    tail -20 "$out/mypyc.log" >&2
    echo "build_native.sh: mypyc failed (log: $out/mypyc.log)" >&2
    rm -f "$out/NATIVE_SOURCE"
    exit 1
}
rm -rf "$out/build" "$out/.mypy_cache"
# the stamp is taken again: a source edited while mypyc ran leaves the copy unstamped (stale)
[ "$("$py" scripts/native_stamp.py)" = "$stamp" ] && echo "$stamp" > "$out/NATIVE_SOURCE"
echo "build_native.sh: $out (${#modules[@]} modules compiled, sources $stamp)" >&2
echo "$out"
