"""The game in words and a `show` players can use (issue 9 items 3 and 4)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from stellwerk.api import Game
from stellwerk.cli.main import main
from stellwerk.core import events as ev
from stellwerk.selfplay import play
from stellwerk.words import money, story
from stellwerk.words.narrate import Line

FIXTURE = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "18xx.games"
FIXTURE_1849 = FIXTURE / "1849" / "1849_game_end_bank.json"
NAMES = [(77701, "Alice"), (77702, "Bob"), (77703, "Clara"), (77704, "Dieter")]


def _selfplay(title: str, seed: int, actions: int = 400) -> Game:
    game = Game.create(title, NAMES, [], seed=seed)
    play(game, seed, max_actions=actions)
    return game


def _games() -> list[tuple[str, Game]]:
    out = [("1849 selfplay", _selfplay("1849", 3)), ("1835 selfplay", _selfplay("1835", 3))]
    if FIXTURE_1849.exists():
        out.append(("1849 fixture", Game.from_file(json.loads(FIXTURE_1849.read_text()))))
    return out


@pytest.fixture(scope="module")
def games() -> list[tuple[str, Game]]:
    return _games()


def _check_log(game: Game, lines: list[Line]) -> None:
    engine = game.engine
    journal = engine.journal
    acted = [e for e in journal if isinstance(e, ev.Acted)]
    # every action of the game is announced and told by at least one sentence
    told_ids = {line.action_id for line in lines}
    for action in game.actions:
        assert action["id"] in told_ids, action
    assert len(lines) >= len(acted)
    text = "\n".join(line.text for line in lines)
    # names, never ids, in player positions
    for player in engine.all_players:
        assert not re.search(rf"(?<![\w.]){player.id}(?![\w%])", text), player.id
        if any(a.get("entity") == player.id for a in game.actions):
            assert player.name in text
    # every automatic event recorded is told
    kinds = {type(e) for e in journal} - {ev.Acted, ev.Spent}
    assert kinds, "the journal holds events"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_logs_name_every_action_and_event(games: list[tuple[str, Game]], lang: str) -> None:
    """Issue 9 item 3: every action and automatic event told, names not ids."""
    for _label, game in games:
        lines = story(game.engine, lang)
        _check_log(game, lines)
        # one sentence per recorded event (skipped steps of one entity may share one)
        events = [
            e
            for e in game.engine.journal
            if not isinstance(e, (ev.Acted, ev.Spent, ev.StepSkipped))
        ]
        assert len(lines) >= len(events)


def test_sentences_of_a_share_purchase() -> None:
    """The issue's example sentence, in both languages (issue 9 item 3)."""
    game = Game.create("1849", NAMES[:3], [], seed=1)
    from stellwerk.words.narrate import Narrator

    event = ev.SharesBought(("player", 77701), "ATA", 10, ("corporation", "ATA"), 100, False)
    assert Narrator(game.engine, "de").event(event) == (
        "Alice kauft 10 % ATA aus der Erstausgabe für L.100."
    )
    assert Narrator(game.engine, "en").event(event) == (
        "Alice buys a 10% share of ATA from the IPO for L.100."
    )
    assert money("1835", 1000, "de") == "1.000 M"


@pytest.mark.skipif(not FIXTURE_1849.exists(), reason="no 1849 fixture in ../shared")
def test_fixture_log_tells_the_automatic_events() -> None:
    """The real game: phase changes, rusting, closings, price moves, presidency changes,
    bankruptcy and the end are told (issue 9 item 3)."""
    game = Game.from_file(json.loads(FIXTURE_1849.read_text()))
    en = "\n".join(line.text for line in story(game.engine, "en"))
    de = "\n".join(line.text for line in story(game.engine, "de"))
    english = ("Phase ", "-trains rust", "closes.", "share price falls from",
               "becomes president of", "pays out", "goes bankrupt", "The game ends")  # fmt: skip
    german = ("Phase ", "-Züge rosten", "wird geschlossen.", "Der Kurs von",
              "wird Direktor von", "schüttet", "ist bankrott", "Das Spiel endet")  # fmt: skip
    for phrase in english:
        assert phrase in en, phrase
    for phrase in german:
        assert phrase in de, phrase


def _run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _at_track_step(path: Path) -> Game:
    """A 1849 game played by the random driver until a corporation may lay track."""
    game = Game.create("1849", NAMES[:3], [], seed=11)
    for _ in range(600):
        engine = game.engine
        step = engine.round.active_step()
        at_track = step is not None and step.description == "Lay/Upgrade Track"
        if at_track and any(game.legal_actions(h) for h in game.lay_hexes()):
            break
        play(game, len(game.actions), max_actions=1)
    else:
        pytest.fail("no track step reached")
    path.write_text(json.dumps(game.to_file()), encoding="utf-8")
    return game


def test_new_user_lays_a_tile_with_show_and_act(tmp_path: Path) -> None:
    """Issue 9 item 4: `show --json` lists the lays by hex; `act` sends one as given."""
    path = tmp_path / "g.json"
    _at_track_step(path)
    shown = _run("show", str(path), "--json")
    assert shown.exit_code == 0, shown.output
    view = json.loads(shown.output)
    assert view["step"] == "Lay/Upgrade Track" and view["acting"]
    lays = view["legal"]["lays"]
    assert lays, view["legal"]
    hex_id, choices = next(iter(lays.items()))
    lay = choices[0]
    assert lay["hex"] == hex_id and lay["type"] == "lay_tile"
    acted = _run("act", str(path), json.dumps(lay))
    assert acted.exit_code == 0, acted.output
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["actions"][-1]["type"] == "lay_tile"
    text = _run("show", str(path), "--log", "30").output
    assert f"lays tile #{lay['tile'].rpartition('-')[0]} on {hex_id}" in text


def test_show_text_names_round_step_and_actor(tmp_path: Path) -> None:
    """Issue 9 item 4: round, step, acting player by name, legal actions, log tail."""
    path = tmp_path / "g.json"
    game = _at_track_step(path)
    text = _run("show", str(path), "--log", "5").output
    corp = game.engine.round.active_entities()[0]
    assert "Operating" in text and "step: Lay/Upgrade Track" in text
    assert f"To act: {corp.sym}" in text
    assert "priority deal: " in text and "Legal actions" in text and "tile lays on" in text
    assert "Log:" in text and "IPO" in text and "par L." in text
    german = _run("log", str(path), "--lang", "de").output
    assert "kauft" in german and "Betriebsrunde" in german


def test_act_help_has_an_example_per_action_type() -> None:
    """Issue 9 item 4: the help carries an example for every action type."""
    from stellwerk.core.actions import FIELDS, SITE_TYPES

    text = _run("act", "--help").output
    for kind in FIELDS:
        if kind in SITE_TYPES - {"message", "end_game"} or kind in (
            "undo",
            "redo",
            "payoff_debt",
            "destination_connection",
        ):
            continue
        assert f'"type":"{kind}"' in text, kind


@pytest.mark.parametrize(
    ("lang", "told"),
    [("en", "FI is frozen (circular control)."), ("de", "FI ist eingefroren")],
)
def test_a_title_event_is_told_in_the_title_words(lang: str, told: str) -> None:
    """A title's own event is said by the title's presentation (its sentence
    ``event.<kind>``), not by the words' catalog: 1841's frozen corporation."""
    from stellwerk.titles.g1841.journal import Frozen
    from stellwerk.words import Narrator, event_sentences
    from stellwerk.words.catalog import EVENTS

    assert "g1841_frozen" not in EVENTS[lang]
    assert "g1841_frozen" in event_sentences("1841", lang)
    assert "g1841_frozen" not in event_sentences("1849", lang)
    game = Game.create("1841", NAMES[:3], [], seed=1)
    sentence = Narrator(game, lang).event(Frozen("FI", True))
    assert sentence is not None and sentence.startswith(told)
