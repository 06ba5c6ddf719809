"""``stellwerk selfplay`` and the driver when the engine fails: an internal error, a refusal of
an offered action, a failure while listing actions, nobody able to act, a bad player count.

The engine must accept every action it offers (docs/architecture.md, api); a failure is
reported in one line naming the seed, the action and the command that plays the game again,
with the exit statuses of src/stellwerk/cli/common.py.  Driven by toy engines derived from
tests/io/fakegame.py.
"""

from __future__ import annotations

import json
import random
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fakegame import FakeGame

from stellwerk.cli.common import EXIT_INTERNAL, EXIT_REFUSED, EXIT_USAGE
from stellwerk.cli.main import main
from stellwerk.core.errors import EngineError, IllegalAction
from stellwerk.selfplay import SelfplayFailure, play, try_untaken


class CrashingGame(FakeGame):
    """Fails like an engine defect on the first ``take`` of 30 (api raises EngineError)."""

    def process(self, action: dict[str, Any], replay: bool = False) -> None:
        if action.get("amount") == 30:
            raise EngineError("StopIteration: ", action)
        super().process(action, replay)


class RefusingGame(FakeGame):
    """Offers ``take`` 30 but refuses it."""

    def process(self, action: dict[str, Any], replay: bool = False) -> None:
        if action.get("amount") == 30:
            raise IllegalAction("cannot take 30 after all", "toy rules §2")
        super().process(action, replay)


class ListingGame(FakeGame):
    """Fails while listing the legal actions once two actions were played."""

    def legal_actions(
        self, hex_id: str | None = None, all_lays: bool = False
    ) -> list[dict[str, Any]]:
        if len(self.actions) >= 2:
            raise KeyError("B14")
        return super().legal_actions(hex_id, all_lays)


class DeadGame(FakeGame):
    """Nobody can act from the third action on, though the game is not finished."""

    def legal_actions(
        self, hex_id: str | None = None, all_lays: bool = False
    ) -> list[dict[str, Any]]:
        return [] if len(self.actions) >= 2 else super().legal_actions(hex_id, all_lays)


def use_engine(monkeypatch: pytest.MonkeyPatch, cls: type) -> None:
    """Make ``stellwerk.api.Game`` resolve to ``cls`` for the CLI."""
    module = types.ModuleType("stellwerk.api")
    module.Game = cls  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "stellwerk.api", module)


def selfplay(tmp_path: Path, title: str = "toy", players: str = "3") -> Any:
    out = tmp_path / "game.json"
    args = ["selfplay", title, "--players", players, "--seed", "5", "-o", str(out)]
    return CliRunner().invoke(main, args)


def error_lines(result: Any) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.strip()]


def test_driver_names_the_failing_action_and_leaves_the_game_before_it() -> None:
    game = CrashingGame.create("toy", [(1, "A"), (2, "B")], [], 0)
    with pytest.raises(SelfplayFailure) as failure:
        play(game, seed=3)
    assert failure.value.kind == "internal"
    assert failure.value.action is not None and failure.value.action["amount"] == 30
    assert failure.value.index == len(game.actions)
    assert isinstance(failure.value.__cause__, EngineError)


def test_internal_error_exits_4_with_a_reproducer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_engine(monkeypatch, CrashingGame)
    result = selfplay(tmp_path)
    assert result.exit_code == EXIT_INTERNAL
    lines = error_lines(result)
    assert len(lines) == 1 and "Traceback" not in result.output
    line = lines[0]
    assert line.startswith("error: toy selfplay (seed 5): internal engine error at action ")
    assert "StopIteration" in line and '"amount": 30' in line
    assert "again: stellwerk selfplay toy --players 3 --seed 5" in line
    data = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    number = int(line.split("at action ")[1].split(":")[0])
    assert len(data["actions"]) == number - 1


def test_refused_offered_action_exits_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_engine(monkeypatch, RefusingGame)
    result = selfplay(tmp_path)
    assert result.exit_code == EXIT_REFUSED
    lines = error_lines(result)
    assert len(lines) == 1
    assert "refused its own legal action" in lines[0] and "(toy rules §2)" in lines[0]


def test_failure_while_listing_actions_is_internal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_engine(monkeypatch, ListingGame)
    result = selfplay(tmp_path)
    assert result.exit_code == EXIT_INTERNAL
    lines = error_lines(result)
    assert len(lines) == 1 and "listing the actions after action 2" in lines[0]
    assert "KeyError" in lines[0]


def test_nobody_able_to_act_is_an_engine_defect(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_engine(monkeypatch, DeadGame)
    result = selfplay(tmp_path)
    assert result.exit_code == EXIT_INTERNAL
    assert "nobody can act" in error_lines(result)[-1]
    assert len(json.loads((tmp_path / "game.json").read_text("utf-8"))["actions"]) == 2


def test_player_count_outside_the_title_is_one_line(tmp_path: Path) -> None:
    """1835 rules §1: 3 to 7 players; selfplay says so in one line (exit 2)."""
    result = selfplay(tmp_path, "1835", "2")
    assert result.exit_code == EXIT_USAGE
    lines = error_lines(result)
    assert len(lines) == 1 and "3 to 7 players" in lines[0]
    assert not (tmp_path / "game.json").exists()


@pytest.mark.parametrize("players", ["1", "9"])
def test_1849_player_count_outside_3_to_5_is_one_line(tmp_path: Path, players: str) -> None:
    """1849 is for 3 to 5 players (rules/1849.md §1.1): never a traceback, never a game file
    (a usage error once the engine checks the count at creation, an internal one before)."""
    result = selfplay(tmp_path, "1849", players)
    assert result.exit_code in (EXIT_USAGE, EXIT_INTERNAL)
    assert len(error_lines(result)) == 1 and "Traceback" not in result.output
    assert not (tmp_path / "game.json").exists()


def test_untaken_choices_are_tried_on_copies() -> None:
    """Every offered action must apply, also those the driver does not choose: each action
    type is tried at least once on a copy, and the game itself is unchanged."""
    game = CrashingGame.create("toy", [(1, "A"), (2, "B")], [], 0)
    with pytest.raises(SelfplayFailure) as failure:
        try_untaken(game, random.Random(0), tries=4, played=0)
    assert failure.value.untaken and failure.value.kind == "internal"
    assert failure.value.action is not None and failure.value.action["amount"] == 30
    assert "untaken choice after action 0" in str(failure.value)
    assert game.actions == [] and game.bank == 200
