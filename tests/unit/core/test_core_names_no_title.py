"""The core knows 18xx in general and no title (issue 7/8; docs/style.md): no 1841
corporation, concession, named place or procedure appears in ``stellwerk.core``'s source.
Examples in docstrings would be enough to pull title rules back in, so they count too."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import stellwerk.core
from stellwerk.titles.g1841.data_load import title_data

CORE = Path(stellwerk.core.__file__).parent

PROCEDURES = ("Ferdinandea", "secession", "Tuscan", "Tuscany", "Bayard", "1841")
"""1841's own procedures and pieces (rules/1841.md 2.4.1, 2.4.2, 1.2)."""

PLAIN_WORDS = {"East", "West", "North", "South", "Coast", "Holding", "Adriatic"}
"""Words of place names (and the internal holding corporation's name) that are plain English."""


def names_1841() -> set[str]:
    data = title_data()
    names = {spec.sym for spec in data.corporations} | {c.sym for c in data.companies}
    map_file = Path(__file__).parents[3] / "src/stellwerk/titles/g1841/data/map.toml"
    hexes = tomllib.loads(map_file.read_text(encoding="utf-8")).get("hexes", {})
    for spec in hexes.values():
        location = spec.get("location") if isinstance(spec, dict) else None
        if isinstance(location, str):
            names.update(w for w in re.split(r"[ &/,-]+", location) if len(w) > 3)
    return (names | set(PROCEDURES)) - PLAIN_WORDS


def test_the_core_names_no_1841_corporation_place_or_procedure() -> None:
    names = names_1841()
    assert {"IRSFF", "SFLi", "Ferdinandea"} <= names  # the list itself is not empty
    pattern = re.compile(r"\b(" + "|".join(re.escape(n) for n in sorted(names)) + r")\b")
    found = []
    for path in sorted(CORE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for hit in pattern.findall(line):
                found.append(f"{path.relative_to(CORE)}:{number}: {hit}")
    assert found == []
