"""A scripted game played twice: by engine actions, and by order texts through the GM."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from stellwerk.api import Game
from stellwerk.gm.phrase import order_text
from stellwerk.gm.session import Session
from stellwerk.gm.understand import player_of
from stellwerk.selfplay import choose_action, lay_picker

EXPRESSIBLE = {
    "pass", "bid", "blind_bid", "par", "buy_shares", "sell_shares", "lay_tile", "place_token",
    "run_routes", "dividend", "buy_train", "buy_company", "choose", "bankrupt", "merge",
    "remove_token", "buy_token", "discard_train", "assign", "payoff_debt", "take_loan",
    "payoff_loan",
}  # fmt: skip


def script(
    title: str,
    players: int,
    seed: int,
    actions: int,
    options: list[str] | None = None,
    inspect: Callable[[Game, dict[str, Any]], None] | None = None,
) -> tuple[Game, list[tuple[Any, str]]]:
    """A seeded random game of ``actions`` actions (only actions that have an order form) and
    the order lines that mean them, alternating English and German, with the sender;
    ``inspect`` is shown each position with the action about to be taken."""
    names = [(i, f"P{i}") for i in range(1, players + 1)]
    game = Game.create(title, names, options or [], seed)
    rng = random.Random(seed)
    lines: list[tuple[Any, str]] = []
    for number in range(actions):
        legal = [a for a in game.legal_actions() if a["type"] in EXPRESSIBLE]
        if not legal or game.finished:
            break
        action = choose_action(legal, rng, lay_picker(game, rng, number))
        lang = "de" if number % 2 else "en"
        best = action["type"] == "run_routes" and number % 4 != 1
        text = order_text(game, action, lang, best=best)
        lines.append((player_of(game, action["entity"]), text))
        if inspect is not None:
            inspect(game, action)
        game.process(action)
    return game, lines


def by_orders(
    title: str,
    players: int,
    seed: int,
    lines: list[tuple[Any, str]],
    options: list[str] | None = None,
    batch: int = 1,
) -> tuple[Session, list[Any]]:
    """The same game played by sending ``lines`` as mails of ``batch`` lines per player."""
    names = [(i, f"P{i}") for i in range(1, players + 1)]
    session = Session(Game.create(title, names, options or [], seed))
    answers: list[Any] = []
    for start in range(0, len(lines), batch):
        chunk = lines[start : start + batch]
        for player in dict.fromkeys(p for p, _ in chunk):
            body = "\n".join(t for p, t in chunk if p == player)
            answers.extend(session.receive(player, body))
        answers.extend(session.advance())
        while session.offers:  # a trade waits for the seller's consent: he agrees
            offer = session.offers[0]
            assert session.receive(offer.seller, f"accept offer {offer.number}") == []
            agreed = f"offer {offer.number} accepted"  # his answer, the buyer's order's
            answers.extend(x for x in session.advance() if agreed not in (x.understood or ""))
    return session, answers
