"""Selfplay fuzz: random games from seeds nobody chose beforehand finish without an engine failure
(issue 12, item 7: "No engine crashes").

The engine must accept every action it lists and never fail with an internal error
(docs/architecture.md, api: ``EngineError`` is an engine defect).  Each game is played by the
seeded driver of ``stellwerk.selfplay``; a failure names the command that plays the same game
again.  At a share of positions the offered actions the driver did not choose are tried on
copies of the game too (``try_untaken``; the 1849 swap crash was such an answer).

By default a short run (about 10 s of CPU): a few games per title capped at 150 actions, with
fresh random seeds each run, plus the seed of the crash the issue reported.  With ``--slow``:
every title, option set and player count of ``stellwerk.selfplay.cases`` (120) played to the
end, ``STELLWERK_FUZZ_GAMES`` games each (default 1).  Measured CPU per whole game: 1849 4-25 s,
1835 45-300 s (its late-game legal-action listing dominates), so one game per case is about
2-2.5 CPU hours, a good hour with ``-n 2``; ``scripts/fuzz_selfplay.py`` runs longer fuzzes.
"""

from __future__ import annotations

import json
import os
import random
import shlex

import pytest
from fuzz_cases import cases

from stellwerk.api import Game
from stellwerk.selfplay import SelfplayFailure, play, reproducer, try_untaken

SHORT_GAMES_PER_TITLE = 2
SHORT_CAP = 150
"""Actions per short game: through the private auction and into the first operating rounds."""
UNTAKEN_SHARE = 0.1
"""Share of positions where offered actions the driver did not choose are tried on a copy."""

KNOWN_CRASHES: list[tuple[str, int, tuple[str, ...], int, int]] = [
    # title, players, options, seed, actions: the game the issue reported (swap choice after
    # the corporation closed, 1849 rules §§2.2, 5), played past the former crash at action 372
    ("1849", 4, (), 90122, 400),
]

SLOW_GAMES = int(os.environ.get("STELLWERK_FUZZ_GAMES", "1"))


def play_clean(
    title: str, players: int, options: tuple[str, ...], seed: int, cap: int, untaken: float = 0
) -> None:
    """Play one game; fail with the reproducer line when the engine fails or nobody can act.
    At a share ``untaken`` of positions, other offered actions are tried on copies."""
    names: list[tuple[int | str, str]] = [(i, f"Player {i}") for i in range(1, players + 1)]
    game = Game.create(title, names, list(options), seed)
    explore = random.Random(seed + 1)

    def after(_game: object, _action: object, _rng: object) -> None:
        if untaken and not game.finished and explore.random() < untaken:
            try_untaken(game, explore, 4, len(game.actions))

    again = reproducer(title, players, seed, options, cap)
    try:
        outcome = play(game, seed, max_actions=cap, after_action=after)
    except SelfplayFailure as failure:
        if failure.untaken:
            act = shlex.quote(json.dumps(failure.action))
            again = reproducer(title, players, seed, options, failure.index)
            again += f" && stellwerk act game.json {act}"
        pytest.fail(f"{failure}; action {failure.action}; again: {again}")
    assert not outcome.stuck, f"nobody can act after {outcome.actions} actions; again: {again}"
    assert outcome.finished or outcome.actions == cap, outcome.stopped_because


def random_cases(title: str, count: int) -> list[tuple[str, tuple[str, ...], int, int]]:
    """``count`` (title, options, players, seed) picked with a fresh seed each run."""
    rng = random.Random()
    chosen = rng.sample([c for c in cases([title])], count)
    return [(t, options, players, rng.randrange(1, 2**31)) for t, options, players in chosen]


@pytest.mark.long_run
@pytest.mark.parametrize("title", ["1849", "1835"])
def test_short_random_games_have_no_engine_failure(title: str) -> None:
    for name, options, players, seed in random_cases(title, SHORT_GAMES_PER_TITLE):
        play_clean(name, players, options, seed, SHORT_CAP, UNTAKEN_SHARE)


@pytest.mark.parametrize(("title", "players", "options", "seed", "cap"), KNOWN_CRASHES)
def test_games_that_crashed_before_play_on(
    title: str, players: int, options: tuple[str, ...], seed: int, cap: int
) -> None:
    play_clean(title, players, options, seed, cap)


def test_the_fuzz_covers_every_declared_option_and_player_count() -> None:
    """Each option alone and every player count of each title is among the cases (1849
    rules §7, 1835 rules §11)."""
    from stellwerk.titles.g1835.options import OPTIONS as OPTIONS_1835
    from stellwerk.titles.g1849.options import OPTIONS as OPTIONS_1849

    expected: list[tuple[str, list[str], set[int]]] = [
        ("1849", list(OPTIONS_1849), {3, 4, 5}),
        ("1835", list(OPTIONS_1835), {3, 4, 5, 6, 7}),
    ]
    for title, declared, counts in expected:
        found = cases([title])
        for oid in declared:
            assert any(oid in options for _, options, _ in found), oid
        assert {players for _, _, players in found} == counts


@pytest.mark.slow
@pytest.mark.parametrize(("title", "options", "players"), cases(["1849", "1835"]))
def test_whole_random_games_have_no_engine_failure(
    title: str, options: tuple[str, ...], players: int
) -> None:
    rng = random.Random()
    for _ in range(SLOW_GAMES):
        play_clean(title, players, options, rng.randrange(1, 2**31), 10_000, UNTAKEN_SHARE / 2)
