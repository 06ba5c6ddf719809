"""The seeded random driver (stellwerk.selfplay) on hand-made menus and the toy engine."""

from __future__ import annotations

import random
from typing import Any

from fakegame import FakeGame

from stellwerk.selfplay import PLAYER_PATIENCE, choose_action, play, route_revenue


def routes(*revenues: int) -> dict[str, Any]:
    return {"type": "run_routes", "routes": [{"revenue": value} for value in revenues]}


def test_route_revenue_sums_the_routes() -> None:
    assert route_revenue(routes(30, 40)) == 70
    assert route_revenue({"type": "pass"}) == 0


def test_best_revenue_route_run_is_chosen() -> None:
    menu: list[dict[str, Any]] = [routes(10), routes(50, 20), routes(60), {"type": "pass"}]
    for seed in range(20):
        assert route_revenue(choose_action(menu, random.Random(seed))) == 70


def test_non_pass_actions_are_preferred() -> None:
    menu: list[dict[str, Any]] = [{"type": "pass"}, {"type": "bid", "price": 5}]
    rng = random.Random(0)
    picks = [choose_action(menu, rng)["type"] for _ in range(1000)]
    assert 800 < picks.count("bid") < 1000


def test_play_is_deterministic_and_finishes() -> None:
    first = FakeGame.create("toy", [(1, "A"), (2, "B")], [], 0)
    second = FakeGame.create("toy", [(1, "A"), (2, "B")], [], 0)
    outcome = play(first, seed=9)
    play(second, seed=9)
    assert outcome.finished and not outcome.stuck
    assert first.to_file() == second.to_file()


def test_play_stops_at_the_cap() -> None:
    game = FakeGame.create("toy", [(1, "A")], [], 0)
    outcome = play(game, seed=1, max_actions=2)
    assert outcome.actions == 2 and not outcome.finished and "cap" in outcome.stopped_because


def test_player_deals_at_the_least_price_are_seldom_taken() -> None:
    """A concession bought from another player for L.1 (1841's player-to-player purchases,
    rules/1841.md 4.3) is considered only now and then, so the driver leaves the stock round
    instead of trading concessions round and round; without any other choice it is still
    taken."""
    deals = [
        {"type": "buy_company", "entity": 1, "entity_type": "player", "company": c, "price": 1}
        for c in ("SFTN", "SSFL", "IRSFF", "Bayard")
    ]
    legal = [*deals, {"type": "pass", "entity": 1, "entity_type": "player"}]
    picks = [choose_action(legal, random.Random(seed)) for seed in range(400)]
    taken = sum(1 for a in picks if a["type"] == "buy_company")
    assert 0 < taken < 40
    assert choose_action(deals, random.Random(1))["type"] == "buy_company"
    bank = {**deals[0], "price": 50}
    picks = [choose_action([bank, legal[-1]], random.Random(seed)) for seed in range(100)]
    assert sum(1 for a in picks if a["type"] == "buy_company") > 50


def test_share_purchases_from_players_are_seldom_taken() -> None:
    """Shares bought from another player (1841's player-to-player purchases, rules/1841.md
    4.3; listed with their ``total_price``) are considered only now and then, like the
    concession deals, so a stock round where players hold every share ends (selfplay seed
    501, version_1 lite p2p_purchases: 4,600 such purchases in one round); a purchase from
    the treasury or the pool is not such a deal."""
    deals = [
        {
            "type": "buy_shares",
            "entity": 1,
            "entity_type": "player",
            "shares": [f"SFTG_{i}"],
            "percent": 10,
            "total_price": 100,
        }
        for i in range(1, 5)
    ]
    legal = [*deals, {"type": "pass", "entity": 1, "entity_type": "player"}]
    picks = [choose_action(legal, random.Random(seed)) for seed in range(400)]
    assert 0 < sum(1 for a in picks if a["type"] == "buy_shares") < 40
    ipo = {key: value for key, value in deals[0].items() if key != "total_price"}
    picks = [choose_action([ipo, legal[-1]], random.Random(seed)) for seed in range(100)]
    assert sum(1 for a in picks if a["type"] == "buy_shares") > 50


class EndlessStockRound:
    """A stock round of six players who may always buy or sell (rules/1841.md 2.2: the round
    ends when every player passes in turn); nothing else happens, the game ends with it."""

    def __init__(self) -> None:
        self.passes_in_a_row = 0
        self.turn = 0
        self.finished = False

    def legal_actions(self, hex_id: str | None = None, all_lays: bool = False) -> list[Any]:
        player = self.turn % 6 + 1
        return [
            {"type": kind, "entity": player, "entity_type": "player"}
            for kind in ("buy_shares", "sell_shares", "pass")
        ]

    def process(self, action: dict[str, Any], replay: bool = False) -> None:
        self.passes_in_a_row = self.passes_in_a_row + 1 if action["type"] == "pass" else 0
        self.turn += 1
        self.finished = self.passes_in_a_row >= 6


def test_players_grow_impatient_so_stock_rounds_end() -> None:
    """Six players who prefer acting to passing hardly ever pass six times in a row; after
    PLAYER_PATIENCE players' actions in a row they pass often, so the round ends soon after
    (6-player 1841 selfplay with player-to-player purchases reached the action cap)."""
    for seed in range(5):
        outcome = play(EndlessStockRound(), seed=seed, max_actions=5000)  # type: ignore[arg-type]
        assert outcome.finished
        assert PLAYER_PATIENCE - 6 <= outcome.actions < PLAYER_PATIENCE + 200
