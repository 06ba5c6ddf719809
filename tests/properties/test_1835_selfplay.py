"""Random legal 1835 games through the public API (stellwerk.selfplay) for every start variant
and player count, checking the core invariants after every action: cash conserved, every
certificate of a company totals 100 % with exactly one owner each (style guide §10).  Short runs
by default; whole games with ``--slow``."""

from __future__ import annotations

import random

import pytest

from stellwerk.api import Game
from stellwerk.selfplay import choose_action

TOTAL_CASH = 12000


def check_invariants(game: Game) -> None:
    e = game.engine
    cash = e.bank.cash + sum(p.cash for p in e.players) + sum(c.cash for c in e.corporations)
    assert cash == TOTAL_CASH
    holders = [*e.players, *e.corporations, e.pool]
    for corp in e.corporations:
        shares = [s for h in holders for s in h.shares_of(corp.sym)]
        assert len({id(s) for s in shares}) == len(shares)
        assert all(s.owner in holders and s in s.owner.shares_of(corp.sym) for s in shares)
        total = sum(s.percent for s in shares)
        assert total == (0 if corp.closed else 100), (corp.sym, total)


def play(variant: str, players: int, seed: int, steps: int) -> Game:
    game = Game.create("1835", [(i + 1, f"P{i + 1}") for i in range(players)], [variant], seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.finished:
            break
        legal = game.legal_actions(all_lays=True)
        assert legal, "the engine offers no legal action"
        game.process(choose_action(legal, rng))
        check_invariants(game)
    return game


@pytest.mark.parametrize("variant", ["standard", "snake", "clemens"])
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_random_games_keep_the_invariants(variant: str, players: int) -> None:
    game = play(variant, players, seed=players * 7 + len(variant), steps=60)
    again = Game.from_file(game.to_file())
    assert again.snapshot() == game.snapshot()


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["standard", "snake", "clemens"])
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_long_random_games(variant: str, players: int) -> None:
    play(variant, players, seed=players, steps=2500)
