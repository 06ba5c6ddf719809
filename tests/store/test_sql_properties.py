"""Property: two store objects on one database (two processes) writing in any interleaving
keep one log (stellwerk/store/sql.py).  A write succeeds exactly when it is based on the
stored count, else ``GameMovedOn`` and nothing is written; the stored log is the model's; the
engine each store shows is the one a fresh load of the log gives (a kept engine is used only
when it is at the game read under the lock)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from fakegame import FakeGame
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from storehelp import toy_file

from stellwerk.core.errors import IllegalAction
from stellwerk.store import GameMovedOn, GameStore, PostgresStore, SqliteStore

NUMBERS = itertools.count()

steps = st.lists(
    st.tuples(st.integers(0, 1), st.sampled_from(["pass", "undo"]), st.integers(-1, 1)),
    min_size=1,
    max_size=25,
)
"""(which store, what, base offset from the stored count: -1 stale, 0 right, 1 ahead)."""


def stores(kind: str, request: pytest.FixtureRequest, folder: Path) -> list[GameStore]:
    if kind == "postgres":
        url: str = request.getfixturevalue("postgres_url")
        return [PostgresStore(url, engine=FakeGame) for _ in range(2)]
    return [SqliteStore(folder / "g.db", engine=FakeGame) for _ in range(2)]


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_two_stores_on_one_database_keep_one_log(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    pair = stores(kind, request, tmp_path)

    @settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
    @given(steps)
    def run(plan: list[tuple[int, str, int]]) -> None:
        key = f"g{next(NUMBERS)}"
        pair[0].create(key, toy_file())
        model: list[str] = []
        for which, what, offset in plan:
            store = pair[which]
            base = len(model) + offset
            before = pair[1 - which].export(key)
            try:
                if what == "undo":
                    stored = store.undo(key, base)
                else:
                    entity = store.load(key).game.active_entities()[0]
                    stored = store.append(key, {"type": "pass", "entity": entity}, base)
            except GameMovedOn:
                assert offset != 0
                assert pair[1 - which].export(key) == before  # nothing written
                continue
            except IllegalAction:  # nothing to undo
                assert offset == 0 and what == "undo"
                assert pair[1 - which].export(key) == before
                continue
            assert offset == 0
            model.append(what)
            assert stored.count == len(model)
            fresh = FakeGame.from_file(pair[1 - which].export(key))
            assert stored.game.snapshot() == fresh.snapshot()
        assert [a["type"] for a in pair[0].export(key)["actions"]] == model
        for store in pair:
            shown = store.load(key).game
            assert shown.snapshot() == FakeGame.from_file(store.export(key)).snapshot()

    try:
        run()
    finally:
        for store in pair:
            store.close()
