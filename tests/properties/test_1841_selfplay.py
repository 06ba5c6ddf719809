"""Property tests: random legal 1841 games through the public API (the seeded random driver of
``stellwerk.selfplay``) for each of 18xx.games' option sets (rules/1841.md §4) and the player
counts of the title data (3-8, 1841lite 3-6), issue 8 item 4.

Every action the engine lists must be accepted and no internal error may occur; at the end
cash is conserved, every corporation's certificates total 100 %, and replaying the game file
reproduces the state.  Short games (300 actions, one fixed seed per option set) by default; with
``--slow`` every option set and player count to the end, where nobody may be left unable to act.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner
from fuzz_cases import cases, option_sets_1841

from stellwerk.api import Game
from stellwerk.cli.common import EXIT_OK, EXIT_USAGE
from stellwerk.cli.main import main
from stellwerk.selfplay import SelfplayFailure, play, reproducer
from stellwerk.titles.g1841.game import Game1841

SHORT_CAP = 300
"""Actions per short game: the concession auction, stock round 1 and the first operating
rounds (mergers and transformations start from phase 2-4)."""

SHORT_PLAYERS = [4, 3, 5, 6, 8, 4, 3, 5, 6, 5, 4]
"""One player count per option set of the short run (lite sets stay within 3-6)."""


def new_game(options: tuple[str, ...], players: int, seed: int) -> Game:
    names: list[tuple[int | str, str]] = [(i, f"P{i}") for i in range(1, players + 1)]
    return Game.create("1841", names, list(options), seed)


def total_cash(e: Game1841) -> int:
    return e.bank.cash + sum(h.cash for h in [*e.all_players, *e.corporations])


def check_books(game: Game, start_cash: int) -> None:
    """Cash is conserved; each corporation's certificates (players, corporations, pool and
    its own treasury) total 100 %."""
    e = game.engine
    assert isinstance(e, Game1841)
    assert total_cash(e) == start_cash, "cash is not conserved"
    holders = [*e.all_players, *e.corporations, e.pool]
    for corp in e.corporations:
        if corp.closed:
            continue
        total = sum(h.percent_of(corp.sym) for h in holders)
        assert total == 100, f"{corp.sym} certificates total {total} %"


def play_checked(options: tuple[str, ...], players: int, seed: int, cap: int) -> None:
    """Play one game; fail on an engine failure, a stall, broken books or a replay that
    differs."""
    game = new_game(options, players, seed)
    e = game.engine
    assert isinstance(e, Game1841)
    start_cash = total_cash(e)
    again = reproducer("1841", players, seed, options, cap)
    try:
        outcome = play(game, seed, max_actions=cap)
    except SelfplayFailure as failure:
        pytest.fail(f"{failure}; action {failure.action}; again: {again}")
    check_books(game, start_cash)
    replayed = Game.from_file(json.loads(json.dumps(game.to_file())))
    assert replayed.snapshot() == game.snapshot(), f"the replay differs; again: {again}"
    assert not outcome.stuck, f"nobody can act after {outcome.actions} actions; again: {again}"
    assert outcome.finished or outcome.actions == cap, outcome.stopped_because


@pytest.mark.parametrize(
    ("options", "players"),
    list(zip(option_sets_1841(), SHORT_PLAYERS, strict=True)),
    ids=lambda value: "+".join(value) or "none" if isinstance(value, tuple) else str(value),
)
def test_short_1841_games_have_no_engine_failure(options: tuple[str, ...], players: int) -> None:
    """300 actions of each option set (rules/1841.md §4) play without an engine failure, keep
    the books and replay from their file."""
    play_checked(options, players, 1, SHORT_CAP)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "players"),
    [(options, players) for _, options, players in cases(["1841"])],
)
def test_whole_1841_games_have_no_engine_failure(options: tuple[str, ...], players: int) -> None:
    """Every option set and player count to the end."""
    play_checked(options, players, 7, 20_000)


def test_selfplay_plays_1841_like_every_registered_title(tmp_path: Any) -> None:
    """``selfplay 1841`` plays with no developer switch (every registered title is playable;
    the switch for titles still being built is gone, so it is a usage error)."""
    out = tmp_path / "g.json"
    base = ["selfplay", "1841", "--players", "3", "--max-actions", "40", "-o", str(out)]
    played = CliRunner().invoke(main, base)
    assert played.exit_code == EXIT_OK, played.output
    assert len(json.loads(out.read_text())["actions"]) == 40
    refused = CliRunner().invoke(main, [*base, "--allow-in-progress"])
    assert refused.exit_code == EXIT_USAGE
