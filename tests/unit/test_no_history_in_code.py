"""The product's code states rules and meaning, not its history: no module of the package
names the issue that asked for it ("issue 25", "Issue 11 item 1")."""

from __future__ import annotations

import re
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "src" / "stellwerk"
HISTORY = re.compile(r"\b[Ii]ssue\s+#?\d+")


def test_no_issue_numbers_in_the_package() -> None:
    found = [
        f"{path.relative_to(SOURCE)}:{number}"
        for path in sorted(SOURCE.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if HISTORY.search(line)
    ]
    assert found == []


def test_the_pattern_finds_what_it_looks_for() -> None:
    assert HISTORY.search('"""Auctions as cards (issue 25, third slice)')
    assert HISTORY.search("# Issue #11 item 1")
    assert not HISTORY.search("the issue of new shares (common rules §4.2)")
