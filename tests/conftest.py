"""Shared pytest setup: the ``--slow`` flag and the location of ../shared."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO / ".." / "shared"
FIXTURES_18XX = SHARED / "fixtures" / "18xx.games"


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add ``--slow``: also run tests marked ``slow`` (long property runs)."""
    parser.addoption("--slow", action="store_true", default=False, help="run slow tests too")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip ``slow`` tests unless ``--slow`` is given."""
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow test: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def fixtures_18xx() -> Path:
    """The 18xx.games fixtures folder in ../shared; skips the test when it is absent."""
    if not FIXTURES_18XX.is_dir():
        pytest.skip(f"shared fixtures not found at {FIXTURES_18XX}")
    return FIXTURES_18XX


@pytest.fixture
def fake_api(monkeypatch: pytest.MonkeyPatch) -> type:
    """Make ``stellwerk.api`` resolve to the toy engine in tests/io/fakegame.py."""
    import fakegame

    module = types.ModuleType("stellwerk.api")
    module.Game = fakegame.FakeGame  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "stellwerk.api", module)
    return fakegame.FakeGame
