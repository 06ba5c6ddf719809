"""The core knows no title (docs/architecture.md; issue 4: no 1835 name in the core).

Every title's name, corporation, company and minor symbols are collected from the titles'
own data files and searched for in the core's source; none may appear as a word.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

SRC = Path(__file__).resolve().parents[3] / "src" / "stellwerk"


def title_words() -> set[str]:
    words: set[str] = set()
    for title_dir in (SRC / "titles").glob("g*"):
        words.add(title_dir.name[1:])
        game = title_dir / "data" / "game.toml"
        if not game.exists():
            continue
        data = tomllib.loads(game.read_text(encoding="utf-8"))
        for key in ("corporations", "companies", "minors", "privates"):
            for item in data.get(key, []) or []:
                if isinstance(item, dict):
                    for field in ("sym", "id", "name"):
                        value = item.get(field)
                        if isinstance(value, str) and len(value) >= 2:
                            words.add(value)
    return words


def test_core_mentions_no_title() -> None:
    words = title_words()
    assert "1849" in words
    found = []
    for path in (SRC / "core").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for word in words:
            if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text):
                found.append(f"{path.relative_to(SRC)}: {word}")
    assert not found, "title names in the core:\n" + "\n".join(sorted(found))
