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


def test_one_view_of_the_bases_per_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """Between two actions the bases' view (``track.BaseView``: a walk of each base's
    network, seconds per base on a late map) is made once, however many hexes are asked one
    by one, and made anew after an action (``track.base_view``)."""
    from stellwerk.core.entities import Corporation
    from stellwerk.core.map.graph import NodeKey
    from stellwerk.titles.g1841 import track

    made: list[int] = []

    class Counted(track.BaseView):
        def __init__(self, game: track.TrackGame, corp: Corporation, bases: list[NodeKey]) -> None:
            made.append(1)
            super().__init__(game, corp, bases)

    monkeypatch.setattr(track, "BaseView", Counted)
    game = Game.create("1841", [(n, f"P{n}") for n in range(1, 5)], [], 3)
    rng = random.Random(3)
    asked = renewed = 0
    for _ in range(700):
        if game.finished or (asked >= 5 and renewed >= 3):
            break
        legal = game.legal_actions()
        made.clear()
        hexes = game.lay_hexes()
        if hexes:
            assert made == [1]  # a new position: its own view, none kept from before
            renewed += 1
        if len(hexes) >= 2:
            made.clear()
            for hex_id in hexes:
                game.legal_actions(hex_id)
            assert game.lay_hexes() == hexes
            assert made == []  # the view lay_hexes made served every hex
            asked += 1
        game.process(choose_action(legal, rng))
    assert asked >= 3 and renewed >= 3
