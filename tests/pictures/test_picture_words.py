"""The pictures speak the page's language: captions, the market's legend (what a letter
means in the title, the title's own words), the charters' fields and the players' table in
English and German; the values' classes stay the same in both."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from stellwerk.api import Game
from stellwerk.pictures.charters import render_charters, render_players
from stellwerk.pictures.mapview import render_map
from stellwerk.pictures.market import render_market, zone_label
from stellwerk.pictures.scene import map_scene
from stellwerk.pictures.tilesheet import render_tiles
from stellwerk.pictures.wording import WORDS

NAMES = [(1, "Ann"), (2, "Bob"), (3, "Cid")]


def texts(svg: str) -> list[str]:
    return ["".join(e.itertext()) for e in ET.fromstring(svg).iter() if e.tag.endswith("text")]


@pytest.fixture(scope="module")
def game() -> Game:
    return Game.create("1841", NAMES, [], seed=3)


def test_the_market_in_german_names_the_titles_zones(game: Game) -> None:
    """rules/1841.md 1.2: the letters of 1841's market in German words; caption with phase
    and turn in German."""
    german = texts(render_market(game.view, "de"))
    assert german[0].startswith("Kurstafel - 1841 - Phase 2 - Runde 1")
    assert "Höchstkurs vor Phase 8" in german
    assert "Nennwert (nur große Gesellschaften)" in german
    english = texts(render_market(game.view, "en"))
    assert english[0].startswith("Stock market - 1841 - phase 2 - turn 1")
    assert "maximum before phase 8" in english


@pytest.mark.parametrize("title", ["1841", "1849", "1835"])
def test_every_market_letter_of_a_title_has_its_words_in_both_languages(title: str) -> None:
    cells = Game.create(title, [*NAMES, (4, "Dan")], [], seed=1).view.market().rows
    letters = {t for row in cells for cell in row if cell is not None for t in cell.types}
    for letter in letters:
        en, de = zone_label(title, letter, "en"), zone_label(title, letter, "de")
        assert en and de and en != de, (title, letter, en, de)


def test_charters_and_players_in_german_keep_their_classes(game: Game) -> None:
    german = render_charters(game.view, game.actions, "de")
    english = render_charters(game.view, game.actions, "en")
    assert "Direktor" in texts(german) and "President" not in texts(german)
    assert "Kasse" in texts(german) and "Treasury" in texts(english)

    def classes(svg: str) -> list[str]:
        return re.findall(r'class="([a-z-]+)"', svg)

    assert classes(german) == classes(english)
    players = texts(render_players(game.view, "de"))
    assert players[0].startswith("Spieler - 1841")
    assert {"Geld", "Zertifikate", "Wert"} <= set(players)


def test_map_and_tiles_captions_in_german(game: Game) -> None:
    assert "1841 - Phase 2 - Runde 1" in texts(render_map(map_scene(game.view, lang="de")))
    assert texts(render_tiles(game.view, lang="de"))[0].startswith("Verbleibende Plättchen")


def test_every_picture_word_is_in_both_languages() -> None:
    assert set(WORDS["en"]) == set(WORDS["de"])
