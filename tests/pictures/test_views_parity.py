"""The pictures and the log drawn from the API's views are the ones drawn from the title game
itself (which the game master still hands over): one reading, whatever the caller passes --
an API game, its reader (``Game.view``) or the title game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stellwerk.api import Game
from stellwerk.core.game import Game as CoreGame
from stellwerk.io.gamefile import load_game_file
from stellwerk.pictures.charters import render_charters, render_players
from stellwerk.pictures.mapview import render_map
from stellwerk.pictures.market import render_market
from stellwerk.pictures.scene import map_scene
from stellwerk.pictures.tilesheet import render_tiles
from stellwerk.reading import Reader
from stellwerk.words import render, story

FIXTURES = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "18xx.games"
POINTS = [("1849", "1849_game_end_bank", 120), ("1841", "1841_game_end_bank", 420)]


def _game(title: str, name: str, count: int) -> Game:
    path = FIXTURES / title / f"{name}.json"
    if not path.is_file():
        pytest.skip("../shared fixtures absent")
    game_file = load_game_file(json.loads(path.read_text(encoding="utf-8")))
    game = Game(title, game_file.players, game_file.optional_rules, game_file.seed)
    for action in game_file.live[:count]:
        game.process(action, replay=True)
    return game


@pytest.mark.parametrize(("title", "name", "count"), POINTS)
def test_pictures_and_log_alike_from_game_reader_and_title_game(
    title: str, name: str, count: int
) -> None:
    game = _game(title, name, count)

    def drawn(source: Game | Reader | CoreGame) -> list[str]:
        return [
            render_map(map_scene(source)),
            render_market(source),
            render_charters(source, game.actions),
            render_players(source),
            render_tiles(source),
            "\n".join(render(story(source, "de"))),
        ]

    from_game = drawn(game)
    assert drawn(game.view) == from_game
    assert drawn(game.engine) == from_game
    assert all(from_game)
