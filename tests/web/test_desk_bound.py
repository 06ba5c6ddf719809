"""The web app's store thread keeps a bounded number of games in memory (web/service.py
``Desk``): a server with many games must not hold every engine it ever loaded.  The least
recently read game goes first, with its view and last mover, and is loaded again from the
store, unchanged, when asked for."""

from __future__ import annotations

from pathlib import Path

from stellwerk.api import Game
from stellwerk.store import open_store
from stellwerk.web.service import Desk


def test_desk_keeps_at_most_its_bound_and_reloads_the_oldest(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'games.db'}")
    data = Game.create("1849", [(1, "A"), (2, "B"), (3, "C")], [], 814263386).to_file()
    keys = [f"g{n}" for n in range(4)]
    for key in keys:
        store.create(key, data)
    desk = Desk(store, kept=2)
    first = desk.stored("g0")
    desk.view("g0", first)
    desk.stored("g1")
    desk.stored("g0")  # g0 read again: g1 is now the least recently read
    desk.stored("g2")
    assert list(desk.games) == ["g0", "g2"]
    desk.stored("g3")
    assert list(desk.games) == ["g2", "g3"]
    assert "g0" not in desk.views
    again = desk.stored("g0")
    assert again is not first
    assert again.count == first.count
    assert again.game.snapshot() == first.game.snapshot()
    assert len(desk.games) == 2
