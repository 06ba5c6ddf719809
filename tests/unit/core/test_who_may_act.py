"""Who may act is computed once per state change (issue 7 item 6): the answers steps and
rounds remember (``Game.memo_key``) are the answers computed afresh, at every position of
random games, and the stock step's existence tests agree with the full lists."""

from __future__ import annotations

import random
from typing import Any

import pytest

from stellwerk.api import Game
from stellwerk.core.flow.stock import BuySellParShares
from stellwerk.selfplay import choose_action, lay_picker, play


def positions(title: str, players: int, seed: int, actions: int) -> Any:
    """(game, legal actions) at each position of a random game (the selfplay driver's
    choices), listed the usual way."""
    game = Game.create(title, [(n, f"P{n}") for n in range(1, players + 1)], [], seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.finished:
            return
        legal = game.legal_actions()
        yield game, legal
        if not legal:
            return
        game.process(choose_action(legal, rng, lay_picker(game, rng, 0)))


@pytest.mark.parametrize(("title", "players", "seed"), [("1849", 4, 3), ("1835", 4, 5)])
def test_remembered_answers_are_fresh_answers(title: str, players: int, seed: int) -> None:
    """The menu, who acts and the live gate's answer are the same whether the engine answers
    from what it remembered or computes everything again, after every action of a whole
    random game."""
    game = Game.create(title, [(n, f"P{n}") for n in range(1, players + 1)], [], seed)
    seen = []

    def check(g: Any, _action: Any, _rng: random.Random) -> None:
        legal = game.legal_actions()
        active = game.active_entities()
        again = game.legal_actions()  # remembered answers
        game.engine.changing()  # forget them
        assert game.legal_actions() == legal == again
        assert game.active_entities() == active
        seen.append(1)

    play(game, seed, max_actions=1500, after_action=check)
    assert len(seen) > 300


def test_stock_existence_tests_agree_with_the_lists() -> None:
    """1849: ``sale_bundles`` makes the bundles ``bundles_for_corporation`` lists;
    ``can_issue``, ``can_redeem`` and ``has_crowded_corps`` answer whether their lists have
    any; the stock step's ``blocking`` is whether it lists any action."""
    checked = 0
    for game, _legal in positions("1849", 5, 11, 700):
        engine = game.engine
        for player in engine.players:
            for corp in engine.corporations:
                fast = {_key(b) for b in engine.sale_bundles(player, corp)}
                full = [_key(b) for b in engine.bundles_for_corporation(player, corp)]
                assert fast == set(full) and len(full) == len(set(full))
            assert engine.can_issue(corp) == bool(engine.issuable_bundles(corp))
            assert engine.can_redeem(corp) == bool(engine.redeemable_bundles(corp))
        assert engine.has_crowded_corps() == bool(engine.crowded_corps())
        for step in engine.round.steps:
            if isinstance(step, BuySellParShares) and step.active():
                assert step.blocking() == (step.blocks and bool(step._current_actions()))
                checked += 1
    assert checked > 20


def _key(bundle: Any) -> tuple[Any, ...]:
    return (tuple(s.id for s in bundle.shares), bundle.percent)
