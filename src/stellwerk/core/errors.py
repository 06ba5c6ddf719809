"""The one error type for refused actions, the error for corrupt game files, and the error
for engine defects (an unexpected exception while processing an action)."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action that the rules forbid.

    ``reason`` is a sentence a player can read; ``rule`` names the rule that forbids it
    (e.g. "common rules §6.6" or a title rulebook section).  The engine guarantees that the game
    state is exactly as before when this is raised.
    """

    def __init__(self, reason: str, rule: str = "") -> None:
        self.reason = reason
        self.rule = rule
        super().__init__(f"{reason} ({rule})" if rule else reason)


class GameFileError(Exception):
    """A game file that cannot be loaded: names the action number and the reason."""

    def __init__(self, reason: str, action_id: int | None = None) -> None:
        self.reason = reason
        self.action_id = action_id
        where = f"action {action_id}: " if action_id is not None else ""
        super().__init__(f"{where}{reason}")


class EngineError(Exception):
    """An engine defect: an unexpected exception while processing ``action``.

    Never a rule refusal: front ends report it as an internal error (their own exit status),
    with the action and the original traceback kept in ``__cause__``.  The game is restored to
    its state before the action.
    """

    def __init__(self, message: str, action: object = None) -> None:
        self.message = message
        self.action = action
        super().__init__(f"internal engine error: {message}")
