"""Issue 7 item 3, typed state: no ``extra`` dictionaries and no ``__getattr__`` state in the
engine, the acting entity and the game typed everywhere, and few ``Any`` (mypy --strict runs
over all of src/).  The ceilings below are ratchets: about 770 lines used ``Any`` before the
typing work, 165 after the first pass (170 counted with the word in docstrings), 34 after
the second; lower them when you remove more, never raise them without a reason in the
commit (JSON at the edges has ``core/jsondata.py``'s types, entities ``core.entities``,
run_routes routes ``core.routes.model.RouteData``).  What is left: the action objects of
the menus (``core.flow.base.Action``, its fields depend on the action type; the actions
processed are typed, ``core.moves``, whose parser builds a class's fields from checked JSON
with two ``dict[str, Any]`` of keyword arguments -- the ceiling rose from 26 to 28 for
them), the raw TOML of the
titles' data loaders (``tomllib`` gives ``dict[str, Any]``; 1835's private abilities are
read from it where they are used), ``act``'s fields,
pickle's ``reducer_override``, and module tables other branches rewrite (1841's kept answers,
the web pages' movers, the selfplay driver).  ``Any`` is counted where the
code names it (the parsed source's names, so the word in a docstring does not count), and
the ways around a type -- ``cast(...)`` and ``# type: ignore`` -- have ceilings of their own,
so that hiding an ``Any`` behind them does not pass."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[3] / "src" / "stellwerk"
ANY_CEILING = 28
"""Lines of src/stellwerk that name ``typing.Any`` (imports not counted)."""
CAST_CEILING = 2
"""Calls of ``cast`` in src/stellwerk."""
IGNORE_CEILING = 7
"""``# type: ignore`` comments in src/stellwerk."""


def lines() -> list[tuple[Path, int, str]]:
    out = []
    for path in sorted(SRC.rglob("*.py")):
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            out.append((path, number, text))
    return out


def where(found: list[tuple[Path, int, str]]) -> str:
    return "\n".join(f"{p.relative_to(SRC)}:{n}: {t.strip()}" for p, n, t in found[:20])


def test_no_extra_dictionaries_and_no_getattr_state() -> None:
    found = [x for x in lines() if re.search(r"\.extra\b|__getattr__", x[2])]
    assert not found, where(found)


def test_acting_entity_and_game_are_typed() -> None:
    found = [x for x in lines() if re.search(r"\b(entity|game): Any\b", x[2])]
    assert not found, where(found)


def any_lines(path: Path) -> set[int]:
    """Lines of ``path`` where the code names ``Any`` (``Any`` or ``typing.Any``; an import
    is not a use)."""
    found: set[int] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        named = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
        if named == "Any" and isinstance(node, ast.Name | ast.Attribute):
            found.add(node.lineno)
    return found


def test_few_any() -> None:
    texts = {(path, number): text for path, number, text in lines()}
    found = [
        (path, number, texts[path, number])
        for path in sorted(SRC.rglob("*.py"))
        for number in sorted(any_lines(path))
    ]
    assert len(found) <= ANY_CEILING, f"{len(found)} lines use Any:\n{where(found)}"


def test_the_counter_sees_uses_not_words() -> None:
    """The counter counts an annotation, an alias and a subscript, not the word in a docstring
    or an import."""
    import tempfile

    source = (
        "from typing import Any\n"
        "import typing\n"
        "def f(x: Any) -> None:\n"
        '    """Any value."""\n'
        "Alias = dict[str, typing.Any]\n"
        "# Any comment\n"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.py"
        path.write_text(source, encoding="utf-8")
        assert any_lines(path) == {3, 5}


def test_few_casts_and_ignores() -> None:
    casts = [x for x in lines() if re.search(r"\bcast\(", x[2])]
    ignores = [x for x in lines() if re.search(r"#\s*type:\s*ignore", x[2])]
    assert len(casts) <= CAST_CEILING, f"{len(casts)} casts:\n{where(casts)}"
    assert len(ignores) <= IGNORE_CEILING, f"{len(ignores)} type: ignore:\n{where(ignores)}"
