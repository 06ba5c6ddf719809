"""The hexes the random driver asks about one by one (``Game.lay_hexes``) name every hex with
a legal lay, and asking one hex lists exactly that hex's lays of the full listing (rules/1841.md
2.3.3: lays connect to a base no earlier lay of the turn used; a hex is laid once a turn).
1841 answers from the bases' reach without checking a lay, so the list may hold more."""

from __future__ import annotations

import random

import pytest

from stellwerk.api import Game
from stellwerk.core.flow.operating import Track
from stellwerk.selfplay import choose_action


@pytest.mark.parametrize(("options", "seed"), [(["version_1"], 7), ([], 3)])
def test_lay_hexes_cover_every_legal_lay(options: list[str], seed: int) -> None:
    game = Game.create("1841", [(n, f"P{n}") for n in range(1, 5)], options, seed)
    rng = random.Random(seed)
    seen = 0
    for _ in range(700):
        if game.finished or seen >= 12:
            break
        legal = game.legal_actions(all_lays=True)
        if isinstance(game.engine.round.active_step(), Track):
            everything = [a for a in legal if a["type"] == "lay_tile"]
            hexes = game.lay_hexes()
            assert {a["hex"] for a in everything} <= set(hexes)
            for hex_id in hexes:
                one = [a for a in game.legal_actions(hex_id) if a["type"] == "lay_tile"]
                assert one == [a for a in everything if a["hex"] == hex_id]
            seen += bool(everything)
        game.process(choose_action(legal, rng))
    assert seen >= 3
