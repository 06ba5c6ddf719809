"""The GM's remembered answers (``stellwerk.gm.look``) are kept on each game
(``api.Game.front_kept``), never in a process-wide table: two games in one process keep their
own, and an action makes a game's answer stale."""

from __future__ import annotations

from stellwerk.api import Game
from stellwerk.gm.look import legal, snap


def test_each_game_keeps_its_own_answers() -> None:
    players: list[tuple[int | str, str]] = [(n, f"P{n}") for n in range(1, 5)]
    first = Game.create("1841", players, ["lite"], 3)
    second = Game.create("1849", players, [], 3)
    assert legal(first) == first.legal_actions()
    assert legal(second) == second.legal_actions()
    assert legal(first) != legal(second)
    assert set(first.front_kept) == {"legal"} and set(second.front_kept) == {"legal"}
    assert snap(first) == first.snapshot()
    before = legal(second)
    action = next(a for a in before if a["type"] != "pass")
    second.process(action)
    assert legal(second) == second.legal_actions() != before
    assert legal(first) == first.legal_actions()  # the other game's answer stays its own
