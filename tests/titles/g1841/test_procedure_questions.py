"""What replay takes as known of 1841's long procedures is what asking afresh gives, at every
position of the recorded 18xx.games games: whether a procedure asks (the queue keeps only
those that do, :meth:`.decisions.Procedure.asks`), the meanings of a home token's answers,
found only when read (:class:`.decisions.CityMeanings`), and the question the routing found,
which the answer handler takes (:meth:`~stellwerk.core.flow.base.Step.routed_state`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from stellwerk.api import Game
from stellwerk.core.entities import Entity
from stellwerk.core.flow.base import Step
from stellwerk.io.gamefile import GameFile, load_game_file, read_game_file
from stellwerk.titles.g1841 import decisions
from stellwerk.titles.g1841.decisions import CityMeanings, Decisions, city_meaning
from stellwerk.titles.g1841.game import Game1841

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "18xx.games" / "1841"
NAMES = ["1841_game_end_bank", "1841_game_end_bankrupt", "1841_game_end_offboards"]


def _game_file(name: str) -> GameFile:
    path = FIXTURES / f"{name}.json"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return load_game_file(read_game_file(path))


def _check_questions(engine: Game1841) -> int:
    """Every procedure under way asks exactly when it has a question; a home token's lazy
    meanings are the meanings built at once, in the same order.  The questions checked."""
    checked = 0
    for procedure in engine.procedures:
        asked = procedure.question(engine)
        assert procedure.asks(engine) == (asked is not None)
        if asked is None:
            continue
        meanings = asked.meanings
        if isinstance(meanings, CityMeanings):
            eager = {
                c: city_meaning(engine, meanings.kind, meanings.sym, c) for c in meanings.cities
            }
            eager.update(meanings.others)
            assert list(meanings) == list(eager)
            assert dict(meanings.items()) == eager
            assert len(meanings) == len(eager)
            for key in ("no such answer", 0):
                assert key not in meanings
        checked += 1
    return checked


@pytest.mark.parametrize("name", NAMES)
def test_procedures_ask_as_their_questions_say(name: str) -> None:
    game_file = _game_file(name)
    game = Game.create(game_file.title, game_file.players, game_file.optional_rules, game_file.seed)
    checked = 0
    for action in game_file.live:
        game.process(action, replay=True)
        engine = game._engine
        assert isinstance(engine, Game1841)
        checked += _check_questions(engine)
    assert game.finished
    assert checked > 0  # the fixtures start non-historical corporations


def _replayed(game_file: GameFile) -> Game:
    game = Game.create(game_file.title, game_file.players, game_file.optional_rules, game_file.seed)
    for action in game_file.live:
        game.process(action, replay=True)
    return game


@pytest.mark.parametrize("name", NAMES)
def test_an_answer_takes_the_question_the_routing_found(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answers of the procedures take the routing's question (each one, compared with the
    question asked afresh at that moment), and the game replays as when every answer asks
    afresh."""
    game_file = _game_file(name)
    taken: list[bool] = []
    fresh_current = decisions.current
    routed_state = Step.routed_state

    def checked_state(step: Step, kind: str, entity: Entity) -> object:
        key = routed_state(step, kind, entity)
        if isinstance(step, Decisions):
            seen = step._seen
            taken.append(key is not None and seen is not None and seen[0] == key)
            if taken[-1]:
                assert seen is not None
                assert seen[1] == fresh_current(step.game)
        return key

    monkeypatch.setattr(Step, "routed_state", checked_state)
    kept = _replayed(game_file)
    assert any(taken)

    monkeypatch.setattr(Step, "routed_state", lambda step, kind, entity: None)
    fresh = _replayed(game_file)
    assert kept.snapshot() == fresh.snapshot()
    assert kept._engine.journal == fresh._engine.journal
