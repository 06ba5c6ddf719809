"""Every row of the seed tables of rules/1841.md section 6 (seed 000, the 1841 FAQ, items
1.1-5.8; seed 003, the mail group's house rules, H1-H15) has its test, and every option id of
those tables is a registered 1841 option (issue 8, "How it will be checked").

A row "has its test" when some test function under tests/ names the item in its name or its
docstring, in the forms the 1841 tests use: ``seed 000 item 2.13``, ``seed 000 items 1.8 and
1.9``, ``FAQ 1.11`` (the FAQ is seed 000), ``seed 003 H14`` (lists with commas, "and", "/"
and ranges such as ``2.14-2.16``); or a name such as ``test_seed_000_item_2_13_...``.
Module docstrings do not count: they describe a file, and a row needs a test that can fail.
Bare ``H14`` is not enough either, since 1841's hexes are named that way (Torino is H4).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from stellwerk.titles import registry
from stellwerk.titles.registry import title_info

REPO = Path(__file__).resolve().parents[3]
RULES = REPO / ".." / "shared" / "rules" / "1841.md"
TESTS = REPO / "tests"

SAME_AS = {"sfli_runs_in_formation_or": "sfli_run_variant"}
"""The rulebook's proposed id for a rule 18xx.games already names (rules/1841.md §6.1 item
1.17: "= 18xx sfli_run_variant")."""

ON_BY_DEFAULT = {"forbid_circular_control": "allow_circular_control"}
"""Ids the tables mark "(on)", the rule by default (§6.3 item 3.1), and the registered option
that switches each off (options are chosen, never unchosen); each is registered too, as a
default option that restates the default and conflicts with its switch."""

_REF = r"(?:\d+\.\d+|H\d+)"
_JOIN = r"(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*/\s*|\s*[-\u2013]\s*)"
CITATION = re.compile(
    rf"(?:seed\s*(?P<seed>\d+)|(?P<faq>FAQ))\s+(?:items?\s+)?(?P<refs>{_REF}(?:{_JOIN}{_REF})*)",
    re.IGNORECASE,
)


def rulebook() -> str:
    if not RULES.is_file():
        pytest.skip(f"rulebook not found at {RULES}")
    return RULES.read_text(encoding="utf-8")


def seed_rows(text: str) -> list[tuple[str, str, str]]:
    """(seed, item, option id cell) of every row of the section-6 tables whose first
    column is "#": seed "000" for §6.1-6.5, "003" for §6.7."""
    start = text.index("\n## 6.")
    end = text.find("\n## 7.", start)
    rows: list[tuple[str, str, str]] = []
    seed = "000"
    header: list[str] = []
    for line in text[start : end if end >= 0 else len(text)].splitlines():
        if line.startswith("### "):
            seed = "003" if "Seed 003" in line else "000"
        if not line.startswith("|"):
            header = []
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not header:
            header = cells
            continue
        if header[0] == "#" and not set(cells[0]) <= {"-"}:
            rows.append((seed, cells[0], cells[header.index("Option id")]))
    return rows


def expand(refs: str) -> set[str]:
    """The items a citation's list names; ``2.14-2.16`` is 2.14, 2.15 and 2.16."""
    found: set[str] = set()
    parts = re.split(r"(\s*[-\u2013]\s*)", refs)
    items = [re.findall(_REF, p) for p in parts]
    for index in range(len(parts)):
        if index % 2 == 0:
            found.update(items[index])
            continue
        left, right = items[index - 1][-1], items[index + 1][0]
        if "." in left and left.split(".")[0] == right.split(".")[0]:
            low, high = int(left.split(".")[1]), int(right.split(".")[1])
            found.update(f"{left.split('.')[0]}.{n}" for n in range(low, high + 1))
        elif left.startswith("H") and right.startswith("H"):
            found.update(f"H{n}" for n in range(int(left[1:]), int(right[1:]) + 1))
    return found


def cited(text: str) -> set[tuple[str, str]]:
    """(seed, item) of every citation in a docstring."""
    return {
        ("000" if match.group("faq") else match.group("seed").zfill(3), ref)
        for match in CITATION.finditer(" ".join(text.split()))
        for ref in expand(match.group("refs").upper())
    }


def name_text(name: str) -> str:
    """A test name read as text: ``test_seed_000_item_2_13`` cites seed 000 item 2.13,
    ``test_seed_003_h14`` cites H14."""
    return re.sub(r"(?<=\d)_(?=\d)", ".", name).replace("_", " ")


def each_test_function() -> Iterator[tuple[Path, str, str]]:
    """(file, name, docstring) of every test function under tests/ (methods included)."""
    for path in sorted(TESTS.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and (
                node.name.startswith("test")
            ):
                yield path, node.name, ast.get_docstring(node) or ""


def coverage() -> dict[tuple[str, str], list[str]]:
    """(seed, item) -> the tests citing it."""
    found: dict[tuple[str, str], list[str]] = {}
    for path, name, doc in each_test_function():
        for key in cited(f"{name_text(name)}. {doc}"):
            found.setdefault(key, []).append(f"{path.relative_to(REPO)}::{name}")
    return found


def test_the_citation_reader() -> None:
    """The forms the 1841 tests use are read, hexes and bare numbers are not."""
    assert cited("Seed 000 items 1.5 and 5.8: corporations") == {("000", "1.5"), ("000", "5.8")}
    assert cited("seed 000 items 1.15, 1.16, 2.12, 2.24,\n    2.25, 3.3") == {
        ("000", i) for i in ("1.15", "1.16", "2.12", "2.24", "2.25", "3.3")
    }
    assert cited("seed 003 H6 and H7, seed 000 item 2.14-2.16") == {
        ("003", "H6"),
        ("003", "H7"),
        ("000", "2.14"),
        ("000", "2.15"),
        ("000", "2.16"),
    }
    assert cited("rules/1841.md 2.3.5; FAQ 1.11 and common mistake 5.2") == {("000", "1.11")}
    assert cited("Torino H4 and item 2.13; rules/1841.md 2.3.4") == set()
    assert cited(name_text("test_seed_000_item_2_13_order")) == {("000", "2.13")}
    assert cited(name_text("test_seed_003_h14_after_running")) == {("003", "H14")}


def test_the_tables_have_every_row() -> None:
    """Seed 000: parts 1 (19 rows), 2 (27), 3 (7), 4 (3), 5 (8); seed 003: H1-H15."""
    rows = seed_rows(rulebook())
    items = [(seed, item) for seed, item, _cell in rows]
    assert len(items) == len(set(items)) == 19 + 27 + 7 + 3 + 8 + 15
    assert [i for s, i in items if s == "003"] == [f"H{n}" for n in range(1, 16)]


def test_every_seed_row_has_a_test() -> None:
    """Issue 8: for every row of the seed tables a test names the item."""
    found = coverage()
    missing = [
        f"seed {seed} {'item ' if seed == '000' else ''}{item}"
        for seed, item, _cell in seed_rows(rulebook())
        if (seed, item) not in found
    ]
    assert not missing, "seed rows without a test: " + ", ".join(missing)


def test_every_option_id_of_the_seed_tables_is_a_registered_option() -> None:
    """Issue 8: every option id of the tables exists in ``stellwerk options 1841`` (the
    registry's title info, which the command prints); the one marked "(on)" is the default
    rule, and the option switching it off is registered and names it."""
    registered = {option.id for option in title_info("1841").options}
    wanted: set[str] = set()
    for _seed, _item, cell in seed_rows(rulebook()):
        head = cell if re.match(r"`\w+` \(on\)", cell) else cell.split("(", 1)[0]
        wanted.update(re.findall(r"`(\w+)`", head))
    assert wanted & set(ON_BY_DEFAULT) == set(ON_BY_DEFAULT)
    for rule, switch in ON_BY_DEFAULT.items():
        assert switch in registered and rule in registered
        assert rule in next(o.source for o in title_info("1841").options if o.id == switch)
        declared = registry.declared("1841").options[rule]
        assert declared.default and switch in declared.conflicts
    missing = sorted(o for o in wanted if SAME_AS.get(o, o) not in registered)
    assert not missing, f"option ids of the seed tables not in stellwerk options 1841: {missing}"
    assert "zugzwang" in registered
