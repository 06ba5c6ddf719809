"""An unexpected exception is an engine defect, never a rule refusal (issue 7 item 5: "reported
as such (its own error type, the action and the traceback logged)"); the game stays as it was."""

from __future__ import annotations

import logging

import pytest

from stellwerk.api import Game
from stellwerk.core.errors import EngineError, IllegalAction


def test_unexpected_exception_is_an_engine_error_logged_with_traceback(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A step that crashes half-way: ``EngineError`` (not ``IllegalAction``), logged at ERROR
    with the action and the traceback, and the game state exactly as before the action."""
    game = Game.create("1849", [(n, f"P{n}") for n in range(1, 5)], [], 3)
    before = game.snapshot()
    count = len(game.actions)
    action = game.legal_actions()[0]
    engine = game.engine
    real = engine.process_action

    def crash(act: dict[str, object]) -> None:
        real(act)  # the state changes ...
        raise KeyError("boom")  # ... and then the engine fails

    monkeypatch.setattr(engine, "process_action", crash)
    with (
        caplog.at_level(logging.ERROR, logger="stellwerk.engine"),
        pytest.raises(EngineError) as failure,
    ):
        game.process(action)
    assert not isinstance(failure.value, IllegalAction)
    assert isinstance(failure.value.__cause__, KeyError)
    assert failure.value.action is not None
    assert failure.value.action["type"] == action["type"]
    records = [r for r in caplog.records if r.name == "stellwerk.engine"]
    assert records and records[0].levelno == logging.ERROR
    assert records[0].exc_info is not None and records[0].exc_info[0] is KeyError
    assert game.snapshot() == before
    assert len(game.actions) == count
    game.process(action)  # the restored engine takes the action normally
    assert len(game.actions) == count + 1
