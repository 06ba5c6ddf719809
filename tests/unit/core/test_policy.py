"""The checks policy (``stellwerk.core.policy``): where a replay follows 18xx.games rather than
the printed rules is decided by a named field of the game's policy, never by asking whether a
file is being loaded.

* Every field of ``Policy`` states its rule in a docstring, and the two instances differ in
  exactly those fields: ``LIVE`` checks every one, ``RECORDED`` none.
* Rule code (``core``, ``titles``) does not read a ``loading`` flag again.
* The API switches the policy: ``RECORDED`` while a file is replayed, ``LIVE`` in live play.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from stellwerk.core import policy
from stellwerk.core.flow.base import Action
from stellwerk.core.jsondata import JSONValue
from stellwerk.core.policy import LIVE, RECORDED, Policy

SRC = Path(__file__).resolve().parents[3] / "src" / "stellwerk"
RULE_CODE = ("core", "titles")

LOADING = re.compile(r"\.loading\b|\bloading\s*=|_loading\b|\"loading\"|'loading'")
"""A read or write of a ``loading`` flag, as attribute, keyword, private field or name."""


def _field_docstrings() -> dict[str, str]:
    """Each field of ``Policy`` with the string literal written right after it."""
    tree = ast.parse(Path(policy.__file__).read_text(encoding="utf-8"))
    cls = next(
        node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Policy"
    )
    found: dict[str, str] = {}
    body = cls.body
    for node, after in zip(body, [*body[1:], None], strict=True):
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        if (
            isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            found[node.target.id] = after.value.value
    return found


def test_every_field_states_its_rule() -> None:
    docs = _field_docstrings()
    names = [f.name for f in dataclasses.fields(Policy)]
    assert sorted(docs) == sorted(names), "every field has a docstring"
    for name, text in docs.items():
        assert "rules" in text, f"{name}: the docstring cites the rule"
        assert "18xx.games" in text or "recorded" in text, f"{name}: says why a replay differs"


def test_live_and_recorded_differ_in_exactly_the_documented_fields() -> None:
    names = {f.name for f in dataclasses.fields(Policy)}
    differ = {n for n in names if getattr(LIVE, n) != getattr(RECORDED, n)}
    assert differ == set(_field_docstrings()) == names
    assert all(getattr(LIVE, n) is True for n in names), "live play checks every rule"
    assert all(getattr(RECORDED, n) is False for n in names)


def test_policies_are_frozen_values() -> None:
    try:
        LIVE.lay_position = False  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:  # pragma: no cover - the test fails here
        raise AssertionError("a policy must not change")
    assert hash(LIVE) != hash(RECORDED)
    assert dataclasses.replace(RECORDED) == RECORDED


def _rule_sources() -> list[tuple[str, list[str]]]:
    found = []
    for package in RULE_CODE:
        for path in sorted((SRC / package).rglob("*.py")):
            lines = path.read_text(encoding="utf-8").splitlines()
            found.append((path.relative_to(SRC).as_posix(), lines))
    return found


def test_the_rule_code_is_there() -> None:
    names = [name for name, _ in _rule_sources()]
    for package in RULE_CODE:
        assert sum(name.startswith(f"{package}/") for name in names) > 10, package


def test_no_rule_code_reads_a_loading_flag() -> None:
    found = [
        f"{name}:{number}: {line.strip()}"
        for name, lines in _rule_sources()
        if name != "core/policy.py"  # its docstrings name the reference engine's flag
        for number, line in enumerate(lines, 1)
        if LOADING.search(line)
    ]
    assert not found, "rule code asks game.policy, not a loading flag:\n" + "\n".join(found)


def test_the_scan_finds_a_loading_flag() -> None:
    for line in (
        "if not game.loading and revenue > 0:",
        "opts = LayOptions(colors, loading=True)",
        "self._loading = False",
        'getattr(game, "loading")',
    ):
        assert LOADING.search(line), line
    assert not LOADING.search("if game.policy.token_reach and revenue > 0:")


def test_the_game_starts_live_and_the_api_switches_the_policy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from stellwerk.api import Game

    game = Game.create("1849", [(1, "a"), (2, "b"), (3, "c")], [], 1)
    engine = game.engine
    assert engine.policy == LIVE
    seen: list[Policy] = []
    process = engine.process_action

    def spy(action: Action) -> None:
        seen.append(engine.policy)
        process(action)

    monkeypatch.setattr(engine, "process_action", spy)
    message: dict[str, JSONValue] = {"type": "message", "entity": 1, "entity_type": "player"}
    game.process({**message, "message": "live"})
    game.process({**message, "message": "recorded"}, replay=True)
    game.process({**message, "message": "live again"})
    assert seen == [LIVE, RECORDED, LIVE]
