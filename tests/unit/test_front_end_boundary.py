"""The front ends (CLI, web, game master, words, pictures) read a game only through the API:
its actions and its read-only views (``stellwerk.views``, ``api.Game.view``).  None of them
takes the title game (``api.Game.engine``), imports a title's own modules
(``stellwerk.titles.g1841`` ...) or asks engine objects what they have
(``getattr``/``hasattr``), apart from the few places listed here with the reason they stay."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "stellwerk"
FRONT_ENDS = ("cli", "web", "gm", "words", "pictures")

ENGINE = re.compile(r"\.engine\b(?!\s*import)")
"""An attribute ``.engine`` -- not the module ``stellwerk.io.engine`` in an import."""
TITLE_IMPORT = re.compile(r"\b(?:from|import)\s+stellwerk\.titles\.(g\w+)[\w.]*")
DUCK = re.compile(r"\b(?:getattr|hasattr)\(")

TITLE_IMPORTS_LEFT: dict[tuple[str, str], str] = {}
"""Front-end files that still import a title's modules, and why."""

DUCK_TYPING_LEFT = {
    ("cli/words_cmds.py", 'isinstance(getattr(game, "view", None), Reader)'): "tests replace "
    "the API by a toy engine without views (tests/io/fakegame.py)",
    ("web/service.py", 'getattr(game, "lay_hexes", None)'): "the toy engine of the web "
    "tests has no lay hexes",
    ("web/pages.py", 'getattr(page, "title", "")'): "a Jinja template's context, no game",
    ("words/narrate.py", "getattr(event, field.name)"): "the fields of a journal event "
    "(a frozen record), read by name",
}
"""``getattr``/``hasattr`` left in front-end files, on what, and why: none on engine objects."""

TITLE_IDS = ("1835", "1841", "1849")
"""The built-in titles' ids, which no front-end code writes as a value of its own."""

TITLE_NAMES_LEFT = {
    ("cli/serve_cmd.py", "1849"): "the demo game of `stellwerk serve --demo` is an 1849 game",
    ("gm/demo.py", "1849"): "the game master's scripted demo plays an 1849 game",
    ("gm/demo1841.py", "1841"): "the game master's scripted 1841 demo",
}
"""Front-end files that still write a title id as a value, and why: demos of one title."""


def _sources() -> list[tuple[str, list[str]]]:
    found = []
    for package in FRONT_ENDS:
        for path in sorted((SRC / package).rglob("*.py")):
            lines = path.read_text(encoding="utf-8").splitlines()
            found.append((path.relative_to(SRC).as_posix(), lines))
    return found


def test_the_front_ends_are_there() -> None:
    names = [name for name, _ in _sources()]
    for package in FRONT_ENDS:
        assert any(name.startswith(f"{package}/") for name in names), package


def test_no_front_end_takes_the_engine() -> None:
    found = [
        f"{name}:{number}: {line.strip()}"
        for name, lines in _sources()
        for number, line in enumerate(lines, 1)
        if ENGINE.search(line)
    ]
    assert found == []


def test_no_front_end_imports_a_title() -> None:
    found = {
        (name, match.group(1)): f"{name}:{number}: {line.strip()}"
        for name, lines in _sources()
        for number, line in enumerate(lines, 1)
        for match in TITLE_IMPORT.finditer(line)
    }
    unexpected = [where for key, where in found.items() if key not in TITLE_IMPORTS_LEFT]
    assert unexpected == []
    # an exception that is gone is taken off the list
    assert set(TITLE_IMPORTS_LEFT) <= set(found)


def test_no_front_end_names_a_title() -> None:
    """Front-end code reads what differs by title from the title (its ``Presentation``, the
    registry), never from a table or branch of its own keyed by a title id: no string value
    (docstrings aside) is a title's id."""
    found: dict[tuple[str, str], str] = {}
    for name, lines in _sources():
        tree = ast.parse("\n".join(lines))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and node.value in TITLE_IDS
                and id(node) not in docstrings
            ):
                found[(name, str(node.value))] = f"{name}:{node.lineno}"
    unexpected = [where for key, where in found.items() if key not in TITLE_NAMES_LEFT]
    assert unexpected == []
    assert set(TITLE_NAMES_LEFT) <= set(found)


def test_no_duck_typing_in_the_front_ends() -> None:
    found = {
        (name, call): f"{name}:{number}: {line.strip()}"
        for name, lines in _sources()
        for number, line in enumerate(lines, 1)
        if DUCK.search(line)
        for call in [next((c for (n, c) in DUCK_TYPING_LEFT if n == name and c in line), line)]
    }
    unexpected = [where for key, where in found.items() if key not in DUCK_TYPING_LEFT]
    assert unexpected == []
    assert set(DUCK_TYPING_LEFT) <= set(found)


@pytest.mark.parametrize(
    ("line", "engine", "title"),
    [
        ("    engine = game.engine", True, None),
        ("story(loaded.game.engine, lang)", True, None),
        ("from stellwerk.io.engine import EngineGame", False, None),
        ("from stellwerk.titles.g1841.stock import can_par", False, "g1841"),
        ("import stellwerk.titles.g1849.game", False, "g1849"),
        ("from stellwerk.titles.registry import TITLES", False, None),
    ],
)
def test_the_patterns_find_what_they_look_for(line: str, engine: bool, title: str | None) -> None:
    assert bool(ENGINE.search(line)) is engine
    match = TITLE_IMPORT.search(line)
    assert (match.group(1) if match else None) == title
