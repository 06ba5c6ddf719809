"""The modules of the native build (scripts/native_modules.txt, docs/native-build.md §2) keep
the rules that let mypyc compile them without changing what the engine does: checked on the
source, so a pure-Python change that would break the native build fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LISTED = [
    line.strip()
    for line in (ROOT / "scripts" / "native_modules.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
]
FULL = "@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)"
EXEMPT_BASES = ("Protocol", "Enum", "TypedDict", "NamedTuple", "Exception", "Error")


def _classes(module: str) -> list[ast.ClassDef]:
    tree = ast.parse((ROOT / "src" / module).read_text())
    return [node for node in tree.body if isinstance(node, ast.ClassDef)]


def _exempt(node: ast.ClassDef) -> bool:
    return any(word in ast.unparse(base) for base in node.bases for word in EXEMPT_BASES)


@pytest.mark.parametrize("module", LISTED)
def test_every_class_allows_interpreted_subclasses_and_pickling(module: str) -> None:
    """Rule 1 (and mypyc 2.4.1's bug: ``serializable`` alone skips ``__init__``)."""
    missing = [
        node.name
        for node in _classes(module)
        if not _exempt(node) and FULL[1:] not in [ast.unparse(d) for d in node.decorator_list]
    ]
    assert missing == [], f"{module}: classes without {FULL}"


@pytest.mark.parametrize("module", LISTED)
def test_frozen_dataclasses_are_slotted_and_pickle_by_fields(module: str) -> None:
    """Rule 4: a compiled frozen dataclass has no ``__slots__`` (the checkpoints share it by
    identity all the same) and pickles through ``core.native.fields_state``."""
    for node in _classes(module):
        decorators = [ast.unparse(d) for d in node.decorator_list]
        if not any(d.startswith("dataclass(") and "frozen=True" in d for d in decorators):
            continue
        methods = {f.name for f in node.body if isinstance(f, ast.FunctionDef)}
        assert {"__getstate__", "__setstate__"} <= methods, f"{module}: {node.name}"
        if node.name != "Trains":  # a route search's argument, never engine state
            assert any("slots=True" in d for d in decorators), f"{module}: {node.name}"


@pytest.mark.parametrize("module", LISTED)
def test_no_type_checking_branch_inside_a_function(module: str) -> None:
    """Rule 9 (docs/native-build.md, "What landed"): mypy takes an ``if TYPE_CHECKING:`` branch
    as always run, so mypyc compiles its ``else`` as unreachable code and the call fails
    (``Reached allegedly unreachable code!``); such a branch is kept to module level."""
    tree = ast.parse((ROOT / "src" / module).read_text())
    inside = [
        f"{function.name}:{node.lineno}"
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(function)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
    ]
    assert inside == [], f"{module}: TYPE_CHECKING branches in functions: {inside}"


def test_the_build_is_named_as_it_runs() -> None:
    """docs/native-build.md: ``stellwerk.build()`` (and ``stellwerk --version``) says
    ``native`` exactly when the core's classes are compiled by mypyc - the 3.13 pass of
    scripts/test.sh runs against the native copy, the 3.11 pass against the pure Python."""
    from click.testing import CliRunner

    from stellwerk import build
    from stellwerk.cli.main import main
    from stellwerk.core.game import Game

    compiled = hasattr(Game, "__mypyc_attrs__")
    assert build() == ("native" if compiled else "pure Python")
    shown = CliRunner().invoke(main, ["--version"])
    assert shown.exit_code == 0 and f"({build()})" in shown.output


@pytest.mark.parametrize("module", LISTED)
def test_no_method_decorated_with_any_action_blocks(module: str) -> None:
    """Rule 8 as met: mypyc 2.4.1 stops with an internal error (``KeyError: 'blocking'``) on
    a ``blocking`` method of a compiled class decorated with ``@any_action_blocks``; a
    compiled module marks it by calling ``any_action_blocks(Cls.blocking)`` after the class
    (core/flow/stock.py; the mark is the same method either way)."""
    decorated = [
        f"{node.name}.{function.name}"
        for node in _classes(module)
        for function in node.body
        if isinstance(function, ast.FunctionDef)
        and "any_action_blocks" in [ast.unparse(d) for d in function.decorator_list]
    ]
    assert decorated == [], f"{module}: methods decorated with @any_action_blocks: {decorated}"
