"""Property tests: random legal 1835 games through the public API (the seeded random driver of
``stellwerk.selfplay``) for every start variant and player count (style guide §10).

After every action: cash is conserved, every certificate has exactly one owner and each
company's certificates total 100 %, every train is in exactly one place and the roster is
complete, no company has more tokens on the map than its charter, prices stay on the grid.
At the end: replaying the log reproduces the state, and the game file round-trips.  Short runs
by default (the whole file well under a minute); whole games to their end with ``--slow``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from stellwerk.api import Game
from stellwerk.core.entities import Holder, Share
from stellwerk.selfplay import play
from stellwerk.titles.g1835.data_load import title_data
from stellwerk.titles.g1835.game import Game1835

VARIANTS = ["standard", "snake", "clemens"]
PLAYERS = [3, 4, 5, 6, 7]
TOTAL_CASH = 12000


def new_game(variant: str, players: int, seed: int) -> Game:
    return Game.create("1835", [(i + 1, f"P{i + 1}") for i in range(players)], [variant], seed)


def check_invariants(game: Game) -> None:
    e = game.engine
    assert isinstance(e, Game1835)
    holders: list[Holder] = [*e.all_players, *e.corporations, e.pool]
    # cash
    cash = e.bank.cash + sum(h.cash for h in [*e.all_players, *e.corporations])
    assert cash == TOTAL_CASH, "cash is not conserved"
    # certificates
    seen: dict[int, Share] = {}
    for holder in holders:
        for share in holder.all_shares():
            assert share.owner is holder, f"{share.id} is listed by a holder not owning it"
            assert id(share) not in seen, f"{share.id} has two owners"
            seen[id(share)] = share
    for corp in e.corporations:
        total = sum(h.percent_of(corp.sym) for h in holders)
        assert total == (0 if corp.closed else 100), f"{corp.sym} certificates sum to {total}"
        for h, pct in corp.share_holders.items():
            if pct:
                assert h.percent_of(corp.sym) == pct, f"{corp.sym} holder book is off"
        # prices on the grid
        if corp.share_price is not None:
            cell = e.market.cell(corp.share_price.coordinates)
            assert cell is corp.share_price, f"{corp.sym} price is off the grid"
        # tokens within the charter; closed companies have none on the map
        placed = e.map.placed_tokens(corp)
        assert placed <= (0 if corp.closed else corp.num_tokens), f"{corp.sym} has {placed}"
    # trains: the whole roster, each train in one place
    roster = sum(t.count for t in title_data().trains)
    assert len(e.depot.trains) == roster
    places: dict[int, Any] = {}
    for corp in e.corporations:
        for train in corp.trains:
            assert id(train) not in places, f"train {train.id} is in two places"
            assert train.owner is corp and not train.rusted
            places[id(train)] = corp.sym
    for train in e.depot.trains:
        if id(train) in places:
            continue
        assert train.owner is e.depot or (train.rusted and train.owner is None), train.id


def check_replay(game: Game) -> None:
    """The log replays to the same state, and the game file survives JSON."""
    data = json.loads(json.dumps(game.to_file()))
    again = Game.from_file(data)
    assert again.snapshot() == game.snapshot()
    assert again.finished == game.finished
    assert again.to_file()["actions"] == data["actions"]


def run(variant: str, players: int, seed: int, max_actions: int) -> Game:
    game = new_game(variant, players, seed)
    check_invariants(game)
    outcome = play(game, seed, max_actions, after_action=lambda g, _a, _r: check_invariants(g))
    assert not outcome.stuck, outcome.stopped_because
    check_replay(game)
    return game


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", PLAYERS)
def test_random_games_keep_the_invariants(variant: str, players: int) -> None:
    """The start packet, the first stock round and the first operating rounds."""
    run(variant, players, seed=players * 7 + len(variant), max_actions=400)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", PLAYERS)
def test_whole_random_games_end(variant: str, players: int) -> None:
    """Whole games: they end (bank broken, or one player left) within the cap."""
    game = run(variant, players, seed=players, max_actions=6000)
    assert game.finished
    assert game.game_end_reason in ("bank", "bankrupt")
