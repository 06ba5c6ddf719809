#!/usr/bin/env bash
# Optional native build (a spike, see MYPYC_REPORT.md): a copy of src/ in build/native-X.Y/
# with the modules of scripts/native_modules.txt compiled by mypyc.  The source tree never
# holds a compiled module, so an edited .py is never shadowed by an old .so; the copy carries
# the hash of the sources it was built from (NATIVE_SOURCE).  Use it with
#   PYTHONPATH=build/native-3.11 .venv/bin/python -m pytest ...
#   bash scripts/build_native.sh [VENV]     (default .venv; needs a C compiler and mypy)
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${1:-.venv}"
py="$venv/bin/python"
version="$("$py" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
out="${NATIVE_OUT:-build/native-$version}"
stamp="$(git ls-files -s src scripts/native_modules.txt | sha256sum | cut -c1-16)"
rm -rf "$out"
mkdir -p "$out"
cp -r src/stellwerk "$out/"
find "$out" -name __pycache__ -prune -exec rm -rf {} +
mapfile -t modules < <(grep -v '^#' scripts/native_modules.txt | grep .)
(cd "$out" && "$py" -m mypyc "${modules[@]}" > mypyc.log 2>&1) || {
    tail -20 "$out/mypyc.log" >&2
    echo "build_native.sh: mypyc failed (log: $out/mypyc.log)" >&2
    exit 1
}
rm -rf "$out/build" "$out/.mypy_cache"
echo "$stamp" > "$out/NATIVE_SOURCE"
echo "build_native.sh: $out (${#modules[@]} modules compiled, sources $stamp)"
