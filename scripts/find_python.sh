# Sourced by the scripts: find_python X.Y prints the path of a Python X.Y interpreter, found as
# pythonX.Y or python3 on PATH (checked to be X.Y) or in pyenv's versions folder, or fails.
find_python() {
    local version="$1" candidate
    for candidate in "$(command -v "python$version" 2>/dev/null || true)" \
        "$(command -v python3 2>/dev/null || true)" \
        "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$version"*/bin/python"$version"; do
        [ -n "$candidate" ] && [ -x "$candidate" ] || continue
        if "$candidate" -c "import sys; sys.exit(sys.version_info[:2] != (${version/./, }))" \
            2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}
