"""Property tests: random legal 1841 games through the public API (the seeded random driver of
``stellwerk.selfplay``) for each of 18xx.games' option sets (rules/1841.md §4) and the player
counts of the title data (3-8, 1841lite 3-6), issue 8 item 4.

1841 is still being built (registry ``IN_PROGRESS``: ``new`` refuses it; developers play it
with ``selfplay --allow-in-progress``).  Every action the engine lists must be accepted and no
internal error may occur; at the end cash is conserved, every corporation's certificates total
100 %, and replaying the game file reproduces the state.  Short games (300 actions, one fixed
seed per option set) by default; with ``--slow`` every option set and player count to the end.

Two parts of 1841 are built on other branches and are documented limits here, recognised
precisely (:func:`known_gap`) and reported as expected failures in the slow run only: the
emergency money of a corporation that must buy a train it cannot pay (rules/1841.md 2.3.7; it
stops with nobody able to act) and the token emergency money of a transformation's required
L.50 token (rules/1841.md 2.3.12).  The fixed seeds of the short run reach neither.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from stellwerk.api import Game
from stellwerk.cli.common import EXIT_OK, EXIT_USAGE
from stellwerk.cli.main import main
from stellwerk.core.entities import Corporation
from stellwerk.selfplay import SelfplayFailure, cases, option_sets_1841, play, reproducer
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


def known_gap(game: Game, failure: SelfplayFailure | None) -> str | None:
    """The part still built elsewhere that stopped the game, or None (a real failure)."""
    e = game.engine
    assert isinstance(e, Game1841)
    if failure is not None:
        reason = str(failure.error)
        if failure.kind == "refused" and "for tokens" in reason and "2.3.12" in reason:
            return "token emergency money (rules/1841.md 2.3.12), branch emr"
        return None
    step = e.round.active_step() if hasattr(e.round, "active_step") else None
    acting = [x for x in e.round.active_entities() if isinstance(x, Corporation)]
    if type(step).__name__ == "BuyTrain1841" and acting and not acting[0].trains:
        return "train emergency money (rules/1841.md 2.3.7), branch emr"
    return None


def play_checked(options: tuple[str, ...], players: int, seed: int, cap: int) -> str | None:
    """Play one game; fail on an engine failure; return the known gap that stopped it."""
    game = new_game(options, players, seed)
    e = game.engine
    assert isinstance(e, Game1841)
    start_cash = total_cash(e)
    again = reproducer("1841", players, seed, options, cap)
    try:
        outcome = play(game, seed, max_actions=cap)
    except SelfplayFailure as failure:
        gap = known_gap(game, failure)
        if gap is None:
            pytest.fail(f"{failure}; action {failure.action}; again: {again}")
        return gap
    check_books(game, start_cash)
    replayed = Game.from_file(json.loads(json.dumps(game.to_file())))
    assert replayed.snapshot() == game.snapshot(), f"the replay differs; again: {again}"
    if outcome.stuck:
        gap = known_gap(game, None)
        assert gap is not None, f"nobody can act after {outcome.actions} actions; again: {again}"
        return gap
    assert outcome.finished or outcome.actions == cap, outcome.stopped_because
    return None


@pytest.mark.parametrize(
    ("options", "players"),
    list(zip(option_sets_1841(), SHORT_PLAYERS, strict=True)),
    ids=lambda value: "+".join(value) or "none" if isinstance(value, tuple) else str(value),
)
def test_short_1841_games_have_no_engine_failure(options: tuple[str, ...], players: int) -> None:
    """300 actions of each option set (rules/1841.md §4) play without an engine failure, keep
    the books and replay from their file (the fixed seed reaches no part still missing)."""
    assert play_checked(options, players, 1, SHORT_CAP) is None


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "players"),
    [(options, players) for _, options, players in cases(["1841"])],
)
def test_whole_1841_games_have_no_engine_failure(options: tuple[str, ...], players: int) -> None:
    """Every option set and player count to the end (or to a part still being built)."""
    gap = play_checked(options, players, 7, 20_000)
    if gap is not None:
        pytest.xfail(f"stopped by a part still being built: {gap}")


def test_selfplay_1841_needs_the_developer_switch(tmp_path: Any) -> None:
    """1841 is still being built: ``selfplay 1841`` is refused like ``new`` (registry
    ``IN_PROGRESS``) unless the hidden ``--allow-in-progress`` is given; the help text says
    it is for developers."""
    out = tmp_path / "g.json"
    base = ["selfplay", "1841", "--players", "3", "--max-actions", "40", "-o", str(out)]
    refused = CliRunner().invoke(main, base)
    assert refused.exit_code == EXIT_USAGE and "1841 cannot be played yet" in refused.output
    allowed = CliRunner().invoke(main, [*base, "--allow-in-progress"])
    assert allowed.exit_code == EXIT_OK, allowed.output
    assert len(json.loads(out.read_text())["actions"]) == 40
    help_text = " ".join(CliRunner().invoke(main, ["selfplay", "--help"]).output.split())
    assert "developers" in help_text and "--allow-in-progress" in help_text
