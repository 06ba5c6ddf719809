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


def pytest_configure(config: pytest.Config) -> None:
    """The tests run this tree's code: ``stellwerk`` from ``src/`` (the editable install), or
    from a native copy of exactly these sources (``PYTHONPATH=build/native-X.Y``, made by
    scripts/build_native.sh, stamped with scripts/native_stamp.py).  A stale or foreign copy
    stops the run before any test: its modules would be old code."""
    import importlib.util

    import stellwerk

    package = Path(stellwerk.__file__).resolve().parent
    if package == (REPO / "src" / "stellwerk").resolve():
        return
    script = REPO / "scripts" / "native_stamp.py"
    spec = importlib.util.spec_from_file_location("native_stamp", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found = package.parent / "NATIVE_SOURCE"
    built = found.read_text(encoding="utf-8").strip() if found.is_file() else None
    if built != module.stamp(REPO):
        raise pytest.UsageError(
            f"stellwerk is imported from {package}, which is not built from this tree's "
            f"sources (stamp {built}, tree {module.stamp(REPO)}): run scripts/build_native.sh "
            "again, or drop it from PYTHONPATH"
        )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip ``slow`` tests unless ``--slow`` is given, and ``long_run`` tests when the
    environment says ``STELLWERK_LONG_RUNS=off``: scripts/test.sh runs those long end-to-end
    games (by mail, selfplay fuzz) in its Python 3.11 pass only, as it does the browser tests;
    the 3.13 pass still runs every unit, property and replay test of the same code."""
    slow = not config.getoption("--slow")
    once = os.environ.get("STELLWERK_LONG_RUNS") == "off"
    skip_slow = pytest.mark.skip(reason="slow test: run with --slow")
    skip_long = pytest.mark.skip(reason="long run: off for this pass (STELLWERK_LONG_RUNS=off)")
    for item in items:
        if slow and "slow" in item.keywords:
            item.add_marker(skip_slow)
        elif once and "long_run" in item.keywords:
            item.add_marker(skip_long)


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


def played_until(
    title: str,
    names: list[str],
    seed: int,
    wanted: Any,
    most: int = 3000,
) -> Any:
    """A seeded selfplay game (``names`` in seat order, ids 1..n) played with the random
    driver's picks until ``wanted(game)`` answers something other than None; returns the game
    and that answer.  Fails the test when no such position comes within ``most`` actions."""
    import random

    from stellwerk.api import Game
    from stellwerk.selfplay import choose_action, lay_picker, offered

    game = Game.create(title, [(i, n) for i, n in enumerate(names, start=1)], [], seed)
    rng = random.Random(seed)
    for played in range(most):
        found = wanted(game)
        if found is not None:
            return game, found
        legal = offered(game, played)
        lay = lay_picker(game, rng, played)
        if not legal and lay is not None and (only := lay()) is not None:
            legal = [only]
        if not legal or game.finished:
            break
        game.process(choose_action(legal, rng, lay))
    pytest.fail(f"no such position in {title} seed {seed}")


def trade_between_presidents(names: list[str]) -> Any:
    """A seeded 1849 game (``names``; seed 1) played until a corporation may buy a train a
    corporation of another player owns (a purchase that needs the seller's consent,
    ``stellwerk.consent``); returns the game and that purchase at its highest listed price."""
    from stellwerk.consent import consent_of

    def trade(game: Any) -> Any:
        trades = [
            a for a in game.legal_actions()
            if a.get("type") == "buy_train"
            and consent_of(game, a, game.decider_of(str(a["entity"]))) is not None
        ]  # fmt: skip
        return max(trades, key=lambda a: int(str(a.get("price", 0)))) if trades else None

    return played_until("1849", names, 1, trade)


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


def net_contents(net: Any) -> tuple[object, ...]:
    """What a corporation's walked network holds (``core.map.graph.Network``: nodes, paths,
    the edges by hex, the route flags), comparable between two walks."""
    return (
        sorted(net.nodes),
        sorted(net.paths),
        {hid: sorted(edges) for hid, edges in net.hexes.items()},
        net.route_available,
        net.route_train_purchase,
    )
