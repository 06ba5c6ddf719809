"""Property tests: random legal 1849 games keep the core invariants after every action.

The driver is the seeded random player of ``stellwerk.selfplay`` (the same one the CLI's
``selfplay`` uses).  Default runs are short (a few games, capped in length); ``--slow`` plays
more games to their end.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stellwerk.api import Game
from stellwerk.core.entities import Holder, Share
from stellwerk.core.errors import IllegalAction
from stellwerk.selfplay import play

OPTION_SETS: list[list[str]] = [
    [],
    ["delay_ift"],
    ["bonds"],
    ["acquiring_station_tokens"],
    ["bonds", "acquiring_station_tokens", "electric_dreams"],
    ["bank_8040", "private_price_half_to_double", "gauge_change_cities_only"],
    ["end_after_current_or", "bonds", "bond_penalty_floor_zero"],
]


def total_cash(game: Game) -> int:
    eng = game.engine
    holders: list[Holder] = [eng.bank, *eng.all_players, *eng.corporations]
    return sum(h.cash for h in holders)


def check_invariants(game: Game, start_cash: int) -> None:
    """Cash conserved; each certificate has one owner; each corporation's certificates sum to
    100 %; trains in one place each; prices on the grid; tokens within the charter."""
    eng = game.engine
    assert total_cash(game) == start_cash, "cash is not conserved"
    holders: list[Holder] = [*eng.all_players, *eng.corporations, eng.pool]
    seen: dict[int, Share] = {}
    for holder in holders:
        for share in holder.all_shares():
            assert share.owner is holder, f"{share.id} is listed by a holder that does not own it"
            assert id(share) not in seen, f"{share.id} has two owners"
            seen[id(share)] = share
    for corp in eng.corporations:
        total = sum(h.percent_of(corp.sym) for h in holders)
        assert total == 100, f"{corp.sym} certificates sum to {total}"
        for h, pct in corp.share_holders.items():
            if pct:
                assert h.percent_of(corp.sym) == pct, f"{corp.sym} holder book is off"
        if corp.share_price is not None:
            cell = eng.market.cell(corp.share_price.coordinates)
            assert cell is corp.share_price, f"{corp.sym} price is off the grid"
        assert len(eng.token_hexes(corp)) <= corp.num_tokens
    places: dict[int, Any] = {}
    for train in eng.depot.upcoming + eng.depot.discarded:
        places[id(train)] = "depot"
    for corp in eng.corporations:
        for train in corp.trains:
            assert id(train) not in places, f"train {train.id} is in two places"
            assert train.owner is corp
            places[id(train)] = corp.sym


def mutated(action: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """An action made illegal: a wrong entity, a negative price, or an unknown certificate."""
    bad = dict(action)
    choice = rng.randrange(3)
    if choice == 0 and "price" in bad:
        bad["price"] = -5
    elif choice == 1 and "shares" in bad:
        bad["shares"] = ["XXX_9"]
    else:
        bad["type"] = "lay_tile" if bad["type"] != "lay_tile" else "bid"
        bad["hex"] = "Z99"
    return bad


def play_checked(players: int, options: list[str], seed: int, max_actions: int) -> Game:
    """Play with the selfplay driver, checking the invariants after every action and, now
    and then, that a mutated action is refused without changing anything."""
    game = Game.create("1849", [(i, f"P{i}") for i in range(1, players + 1)], options, seed)
    start_cash = total_cash(game)

    def after(g: Any, action: dict[str, Any], rng: random.Random) -> None:
        check_invariants(game, start_cash)
        if rng.random() < 0.05 and not game.finished:
            before = game.snapshot()
            with pytest.raises(IllegalAction):
                game.process(mutated(action, rng))
            assert game.snapshot() == before, "a refused action changed the state"

    outcome = play(game, seed, max_actions=max_actions, after_action=after)
    assert not outcome.stuck, outcome.stopped_because
    return game


def check_replay_and_round_trip(game: Game) -> None:
    """Replaying the log reproduces the state; the game file survives a JSON round trip."""
    data = json.loads(json.dumps(game.to_file()))
    again = Game.from_file(data)
    assert again.snapshot() == game.snapshot()
    assert again.finished == game.finished
    if game.finished:
        assert again.result == game.result


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([3, 4, 5]),
    options=st.sampled_from(OPTION_SETS),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_random_play_keeps_invariants(players: int, options: list[str], seed: int) -> None:
    if "reduced_4p_corps" in options and players != 4:
        options = [o for o in options if o != "reduced_4p_corps"]
    game = play_checked(players, options, seed, max_actions=150)
    check_replay_and_round_trip(game)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_reduced_corporations_play(players: int) -> None:
    options = ["reduced_4p_corps"] if players == 4 else []
    game = play_checked(players, options, seed=players * 7, max_actions=120)
    check_replay_and_round_trip(game)


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([3, 4, 5]),
    options=st.sampled_from(OPTION_SETS),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_random_games_to_the_end(players: int, options: list[str], seed: int) -> None:
    game = play_checked(players, options, seed, max_actions=5000)
    assert game.finished
    check_replay_and_round_trip(game)
