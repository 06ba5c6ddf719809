"""Replay an 18xx.games game file through the engine, optionally checking a trace.

The live actions (undo/redo resolved) are processed one by one, each with its recorded
``auto_actions``.  With a trace, our snapshot is compared with the trace after every action and
the replay stops at the first difference.  An action the engine refuses is a difference too.
"""

from __future__ import annotations

import contextlib
import time
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypedDict

from stellwerk.core.errors import IllegalAction
from stellwerk.core.jsondata import is_int
from stellwerk.io.engine import EngineGame, GameFactory
from stellwerk.io.gamefile import GameFile, action_id
from stellwerk.io.trace import Difference, DifferenceJSON, Line, Trace, first_difference


class ReplayJSON(TypedDict):
    """What ``stellwerk replay --json`` prints for one file."""

    file: str
    title: str
    options: list[str]
    actions: int
    finished: bool
    result: dict[str, int]
    expected_result: dict[str, int] | None
    matches_result: bool
    first_divergence: DifferenceJSON | None
    seconds: float


@dataclass
class ReplayReport:
    """What a replay found; ``to_dict`` gives the CLI's JSON object."""

    file: str
    title: str
    options: list[str]
    actions: int = 0
    finished: bool = False
    result: dict[str, int] = field(default_factory=dict)
    expected_result: dict[str, int] | None = None
    game_end_reason: str | None = None
    expected_game_end_reason: str | None = None
    trace_complete: bool = False
    first_divergence: Difference | None = None
    seconds: float = 0.0
    error_traceback: str | None = None

    @property
    def matches_result(self) -> bool:
        """The result equals the file's; without one in the file, the trace matched to its end."""
        if self.expected_result is not None:
            return self.result == self.expected_result
        return self.trace_complete and self.first_divergence is None

    @property
    def ok(self) -> bool:
        """Matches and no divergence: the replay is a success."""
        return self.matches_result and self.first_divergence is None

    def to_dict(self) -> ReplayJSON:
        """The JSON form printed by ``stellwerk replay --json``."""
        divergence = self.first_divergence
        return {
            "file": self.file,
            "title": self.title,
            "options": self.options,
            "actions": self.actions,
            "finished": self.finished,
            "result": self.result,
            "expected_result": self.expected_result,
            "matches_result": self.matches_result,
            "first_divergence": divergence.to_dict() if divergence else None,
            "seconds": round(self.seconds, 6),
        }


class _Clock:
    """Adds up the time spent inside the engine."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._start = 0.0

    def __enter__(self) -> _Clock:
        self._start = time.perf_counter()
        return self

    def __exit__(self, *_: object) -> None:
        self.seconds += time.perf_counter() - self._start


def _refused(action_id: int | None, error: IllegalAction) -> Difference:
    reason = f"refused: {error.reason}" + (f" ({error.rule})" if error.rule else "")
    return Difference(action_id, "action", reason, "accepted")


def _crashed(action_id: int | None, error: Exception) -> Difference:
    return Difference(action_id, "engine_error", f"{type(error).__name__}: {error}", "no error")


def _check_step(game: EngineGame, expected: Line | None, action_id: int) -> Difference | None:
    if expected is None:
        return Difference(action_id, "trace", "an action", "end of trace")
    if expected.get("action_id") != action_id:
        return Difference(action_id, "action_id", action_id, expected.get("action_id"))
    return first_difference(game.snapshot(), expected, action_id)


def _check_final(
    game: EngineGame, trace: Trace, report: ReplayReport, last_id: int | None
) -> Difference | None:
    if len(trace.steps) > report.actions:
        extra = trace.steps[report.actions].get("action_id")
        return Difference(
            extra if is_int(extra) else None, "trace", "end of game file", f"action {extra}"
        )
    if trace.final is None:
        return None
    ours: dict[str, object] = {"finished": game.finished, "game_end_reason": game.game_end_reason}
    expected = {key: trace.final[key] for key in ours if key in trace.final}
    return first_difference(ours, expected, last_id)


def _normalised(result: Mapping[str, int]) -> dict[str, int]:
    return {str(key): value for key, value in result.items()}


def _prepare(title: str) -> None:
    """Start-up outside the clock: import the title and read its data files."""
    from stellwerk.titles.registry import prepare

    with contextlib.suppress(IllegalAction):  # an unknown title is reported by the engine
        prepare(title)


def replay(
    game_file: GameFile,
    create: GameFactory,
    *,
    trace: Trace | None = None,
    source: str = "",
) -> ReplayReport:
    """Replay ``game_file`` with games made by ``create``; compare with ``trace`` if given."""
    report = ReplayReport(
        file=source,
        title=game_file.title,
        options=list(game_file.optional_rules),
        expected_result=game_file.result,
        expected_game_end_reason=game_file.game_end_reason,
    )
    clock = _Clock()
    number: int | None = None
    _prepare(game_file.title)
    try:
        with clock:
            game = create(
                game_file.title,
                players=game_file.players,
                options=game_file.optional_rules,
                seed=game_file.seed,
            )
        if trace is not None and trace.initial is not None:
            report.first_divergence = first_difference(game.snapshot(), trace.initial, None)
        # without a trace nothing but the engine runs in the loop: it is timed as a whole
        # (a clock reading per action costs more than the loop's own bookkeeping)
        whole = trace is None
        start = time.perf_counter()
        try:
            for index, action in enumerate(game_file.live):
                if report.first_divergence is not None:
                    break
                number = action_id(action)
                try:
                    if whole:
                        game.process(action, replay=True)
                    else:
                        with clock:
                            game.process(action, replay=True)
                except IllegalAction as error:
                    report.first_divergence = _refused(number, error)
                    break
                report.actions += 1
                if trace is not None:
                    expected = trace.steps[index] if index < len(trace.steps) else None
                    report.first_divergence = _check_step(game, expected, number)
        finally:
            if whole:
                clock.seconds += time.perf_counter() - start
        if trace is not None and report.first_divergence is None:
            report.first_divergence = _check_final(game, trace, report, number)
            report.trace_complete = report.first_divergence is None
        report.finished = game.finished
        report.result = _normalised(game.result) if game.finished else {}
        report.game_end_reason = game.game_end_reason
    except Exception as error:  # an engine bug must still give a report, with its traceback
        report.first_divergence = _crashed(number, error)
        report.error_traceback = traceback.format_exc()
    report.seconds = clock.seconds
    return report
