"""Rule code reads the typed move, never an action's string keys (common rules §3.2-3.3: an
action is parsed once, at the edge, by ``stellwerk.core.moves.parse``).

Two checks over the source: every step handler ``process_<type>`` of the core and the titles
takes the move class of its type (``moves.LayTile`` for ``process_lay_tile``), and no rule
module reads ``action["..."]`` or ``action.get("...")``.  The menus a step lists
(``choices``: 18xx.games JSON, what a front end sends back) are not actions being processed;
they are read under other names (``listed``, ``a``, ``offer``).  The live gate
(``core/live.py``) and the shape check (``core/actions.py``) read the JSON before it is parsed.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from stellwerk.core.moves import CLASSES

SRC = Path(__file__).resolve().parents[3] / "src" / "stellwerk"
RULES = [
    *sorted((SRC / "core" / "flow").glob("*.py")),
    SRC / "core" / "game.py",
    *sorted(SRC.glob("titles/g*/*.py")),
]
STRING_READ = re.compile(r"(?<![\w.])action(\[|\.get\()\"")


def handlers(path: Path) -> list[tuple[str, str | None, int]]:
    """(type, annotation of ``action``, line) of every ``process_<type>`` method in ``path``."""
    out: list[tuple[str, str | None, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.FunctionDef) or not node.name.startswith("process_"):
            continue
        kind = node.name.removeprefix("process_")
        if kind not in CLASSES or len(node.args.args) < 2:
            continue
        param = node.args.args[1]
        annotation = ast.unparse(param.annotation) if param.annotation else None
        out.append((kind, annotation, node.lineno))
    return out


@pytest.mark.parametrize("path", RULES, ids=lambda p: str(p.relative_to(SRC)))
def test_step_handlers_take_the_move_class_of_their_type(path: Path) -> None:
    wrong = [
        f"{path.name}:{line}: process_{kind}(action: {annotation})"
        for kind, annotation, line in handlers(path)
        if annotation != f"moves.{CLASSES[kind].__name__}"
    ]
    assert not wrong, "\n".join(wrong)


def test_the_handlers_are_found() -> None:
    """The check above sees handlers at all (a renamed module would make it pass vacuously)."""
    kinds = {kind for path in RULES for kind, _, _ in handlers(path)}
    assert {"lay_tile", "buy_train", "par", "bid", "choose", "run_routes"} <= kinds


@pytest.mark.parametrize("path", RULES, ids=lambda p: str(p.relative_to(SRC)))
def test_rule_code_reads_no_action_by_string_key(path: Path) -> None:
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if STRING_READ.search(line)
    ]
    assert not found, "\n".join(found)


def test_the_string_read_pattern_finds_what_it_looks_for() -> None:
    assert STRING_READ.search('    hex_id = action["hex"]')
    assert STRING_READ.search('    slot = action.get("slot", 0)')
    assert not STRING_READ.search("    hex_id = action.hex")
    assert not STRING_READ.search('    price = listed["price"]')
