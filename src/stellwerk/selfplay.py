"""A seeded random driver that plays whole games through the public engine API.

Each step it asks ``game.legal_actions()`` and picks one with ``random.Random(seed)``, biased
towards progress: most of the time it avoids ``pass`` when something else is offered, and among
``run_routes`` offers it takes the one with the best revenue.  It stops when the game is finished,
when nothing is offered, or after ``max_actions``.  The CLI's ``selfplay`` command and the property
tests use it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from stellwerk.io.engine import EngineGame

Action = dict[str, Any]

PROGRESS_BIAS = 0.8
"""Probability of choosing among non-pass actions when there are any."""

PASSIVE_TYPES = frozenset({"pass"})

PAYOUT_BIAS = 0.85
"""Probability of paying dividends when offered (players need income to keep playing)."""

TYPE_WEIGHTS = {"sell_shares": 0.15, "bankrupt": 0.3, "take_loan": 0.3}
"""Relative weights of action types among the non-pass choices (others weigh 1): a driver
that sells as often as it buys drives every corporation into the ground."""


@dataclass
class SelfplayOutcome:
    """How a random game ended: number of actions played and why it stopped."""

    actions: int
    finished: bool
    stopped_because: str
    stuck: bool = False


def route_revenue(action: Action) -> int:
    """Total revenue of a ``run_routes`` action's routes (0 for other actions)."""
    routes = action.get("routes") or []
    total = 0
    for route in routes:
        revenue = route.get("revenue", 0) if isinstance(route, dict) else 0
        total += revenue if isinstance(revenue, int) else 0
    return total


def choose_action(legal: list[Action], rng: random.Random) -> Action:
    """Pick one of ``legal`` (non-empty): best-revenue route runs, else mostly non-pass actions."""
    routes = [action for action in legal if action.get("type") == "run_routes"]
    if routes:
        best = max(route_revenue(action) for action in routes)
        return rng.choice([action for action in routes if route_revenue(action) == best])
    payouts = [a for a in legal if a.get("type") == "dividend" and a.get("kind") == "payout"]
    if payouts and rng.random() < PAYOUT_BIAS:
        return payouts[0]
    active = [action for action in legal if action.get("type") not in PASSIVE_TYPES]
    if active and rng.random() < PROGRESS_BIAS:
        types = sorted({str(action.get("type")) for action in active})
        weights = [TYPE_WEIGHTS.get(t, 1.0) for t in types]
        chosen = rng.choices(types, weights)[0]
        of_type = [action for action in active if action.get("type") == chosen]
        if chosen == "bid":
            # cheap bids first: a driver that keeps raising bids on dear privates while nobody
            # can afford the cheapest never leaves the auction
            prices = [max(1, int(action.get("price") or 1)) for action in of_type]
            return rng.choices(of_type, [1.0 / (p * p) for p in prices])[0]
        return rng.choice(of_type)
    return rng.choice(legal)


def play(
    game: EngineGame,
    seed: int,
    max_actions: int = 10_000,
    after_action: Callable[[EngineGame, Action, random.Random], None] | None = None,
) -> SelfplayOutcome:
    """Play ``game`` with random legal actions until it ends, stalls or hits ``max_actions``.
    ``after_action`` (the property tests' checks) runs after every action kept."""
    rng = random.Random(seed)
    played = 0
    while not game.finished:
        if played >= max_actions:
            return SelfplayOutcome(played, False, f"reached the cap of {max_actions} actions")
        legal = game.legal_actions(all_lays=True)
        if not legal:
            return SelfplayOutcome(played, False, "the engine offered no legal action", stuck=True)
        action = choose_action(legal, rng)
        game.process(action)
        # A few positions leave nobody able to act (18xx.games keeps a stale acting step after
        # a corporation closes mid-turn, and we mirror it).  A player would not walk into
        # that: take the action back and try the others.
        if not game.finished and not game.legal_actions():
            others = [a for a in legal if a is not action]
            rng.shuffle(others)
            for other in others:
                game.undo()
                game.process(other)
                action = other
                if game.finished or game.legal_actions():
                    break
        played += 1
        if after_action is not None:
            after_action(game, action, rng)
    return SelfplayOutcome(played, True, "game finished")
