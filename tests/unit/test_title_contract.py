"""The title contract: every registered title is one ``Title`` object (titles/contract.py),
filed under its own id, whose loaders give a game class that builds a game for its fewest
players, and front ends list the titles from the registry, never from a list of their own."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest
from click.testing import CliRunner

from stellwerk.cli.main import main
from stellwerk.core.errors import IllegalAction
from stellwerk.core.game import Game
from stellwerk.titles import registry
from stellwerk.titles.contract import Title
from stellwerk.words import money

IDS = list(registry.TITLES)


@pytest.mark.parametrize("title_id", IDS)
def test_every_registered_title_is_a_title_under_its_own_id(title_id: str) -> None:
    """A registry entry is a ``Title`` whose id is its key, exported as ``TITLE`` by the
    ``title.py`` of its package, and the lookups by id answer with it."""
    entry = registry.TITLES[title_id]
    assert isinstance(entry, Title)
    assert entry.id == title_id
    assert importlib.import_module(f"{entry.package}.title").TITLE is entry
    assert registry.get_title(title_id) is entry
    assert registry.title_class(title_id) is entry.game_class()
    assert registry.player_counts(title_id) == entry.player_counts()
    assert registry.title_info(title_id).description == entry.description != ""


@pytest.mark.parametrize("title_id", IDS)
def test_the_game_class_builds_a_game_for_the_fewest_players(title_id: str) -> None:
    """The game class is the title's (its ``title`` is the id) and builds a game for the
    fewest players the title allows; one player fewer is refused."""
    entry = registry.TITLES[title_id]
    cls = entry.game_class()
    assert issubclass(cls, Game) and cls.title == title_id
    fewest = entry.min_players()
    assert fewest == min(entry.player_counts()) >= 2
    game = cls([(n, f"P{n}") for n in range(1, fewest + 1)], [], 1)
    assert [p.name for p in game.players] == [f"P{n}" for n in range(1, fewest + 1)]
    with pytest.raises(IllegalAction):
        cls([(n, f"P{n}") for n in range(1, fewest)], [], 1)


@pytest.mark.parametrize("title_id", IDS)
def test_prepare_loads_the_title(title_id: str) -> None:
    """``registry.prepare`` (start-up before a timed replay) runs the title's data loader."""
    registry.prepare(title_id)


def test_money_is_written_in_each_title_currency() -> None:
    """The words write money by the title's ``presentation.currency`` (lire for 1849 and
    1841, marks for 1835); a title that is not registered in dollars."""
    for title_id, entry in registry.TITLES.items():
        assert money(title_id, 1000) == entry.presentation.currency.format("1,000")
    assert money("1849", 1000) == "L.1,000" and money("1841", -750) == "-L.750"
    assert money("1835", 1000, "de") == "1.000 M"
    assert money("1830", 1000) == "$1,000"


def test_an_unknown_title_is_refused_naming_every_registered_one() -> None:
    with pytest.raises(IllegalAction) as refused:
        registry.get_title("1830")
    assert "unknown title '1830'" in str(refused.value)
    for title_id in IDS:
        assert title_id in str(refused.value)
    assert registry.known_titles() == ", ".join(IDS)


def test_help_names_every_registered_title() -> None:
    """``stellwerk --help`` lists the registry's titles, in its order, and nothing about
    titles still to come."""
    text = " ".join(CliRunner().invoke(main, ["--help"]).output.split())
    assert f"({', '.join(registry.TITLES)})" in text
    for title_id in IDS:
        assert title_id in text
    assert "to come" not in text


def test_listing_the_titles_imports_none_of_their_rules() -> None:
    """A ``title.py`` reaches its game, options and data only through loaders: importing the
    registry loads no title module but the ``title.py`` files."""
    probe = (
        "import sys, stellwerk.titles.registry as r\n"
        "loaded = [m for m in sys.modules if m.startswith('stellwerk.titles.g')]\n"
        "print(' '.join(sorted(loaded)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    expected = {p for t in registry.TITLES.values() for p in (t.package, f"{t.package}.title")}
    assert set(out) == expected
