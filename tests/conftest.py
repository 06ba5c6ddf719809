"""Shared pytest setup: the ``--slow`` flag, the location of ../shared and a PostgreSQL server
of the tests' own (``postgres_server``, ``postgres_url``)."""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

settings.register_profile("stellwerk", deadline=None)
settings.load_profile("stellwerk")
"""No per-example deadline: speed is measured in bench/, not timed in tests, and a loaded
machine (2 cores shared) made a 200 ms deadline fail a correct example."""

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


def cut_fixture(name: str, actions: int) -> dict[str, Any]:
    """The 18xx.games fixture ``name`` (e.g. ``1849/1849_game_end_bank.json``) cut after its
    first ``actions`` actions, as a game still going on (no result); skips the test when
    ../shared is absent."""
    import json

    path = FIXTURES_18XX / name
    if not path.exists():
        pytest.skip(f"{path} not found")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    data["actions"] = data["actions"][:actions]
    data.pop("result", None)
    data["status"] = "active"
    return data


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


def _skip_or_fail(reason: str) -> None:
    """Skip outside CI; on CI (``CI=true``) the PostgreSQL tests must run, so fail."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI must run the PostgreSQL tests: scripts/ci_packages.sh)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Any]:
    """A PostgreSQL server of this test session (tests/store/pgserver.py), started on first
    use and stopped at the end; skipped (failed on CI) without Debian's ``postgresql``
    binaries or psycopg."""
    import pgserver

    try:
        import psycopg  # noqa: F401
    except ImportError:
        _skip_or_fail("psycopg is not installed (pip install -e '.[dev]')")
    bindir = pgserver.find_bindir()
    if bindir is None:
        _skip_or_fail("no PostgreSQL server binaries (apt-get install postgresql)")
    assert bindir is not None
    server = pgserver.PostgresServer(bindir)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server: Any) -> Iterator[str]:
    """The URL of a new, empty database on the session's server, dropped afterwards."""
    url: str = postgres_server.new_database()
    yield url
    postgres_server.drop_database(url)
