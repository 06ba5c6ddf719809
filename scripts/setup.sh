#!/usr/bin/env bash
# Creates .venv in the repository root and installs stellwerk with its pinned dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
python3.11 -m venv .venv 2>/dev/null || python3 -m venv .venv
.venv/bin/pip install -q --upgrade pip >/dev/null 2>&1 || true
.venv/bin/pip install -q -e '.[dev]'
