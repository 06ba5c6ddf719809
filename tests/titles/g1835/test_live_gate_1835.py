"""Strict live play in 1835 (issue 12, item 1): the start packet has fixed prices and an
order of availability; a refusal names the rule and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from stellwerk.api import Game
from stellwerk.core.errors import IllegalAction

PLAYERS = [(1, "A"), (2, "B"), (3, "C"), (4, "D")]


def bid(player: int, item: str, price: Any) -> dict[str, Any]:
    return {"type": "bid", "entity": player, "entity_type": "player", "company": item,
            "price": price}  # fmt: skip


@pytest.mark.parametrize(
    ("action", "words"),
    [
        (bid(1, "NF", 0), "is 100"),  # 1835 rules §3.1: fixed prices, no bidding
        (bid(1, "NF", 101), "is 100"),
        (bid(1, "NF", -100), "is 100"),
        (bid(1, "BY_D", 184), "not a legal choice"),  # §3.2: not available yet
        (bid(2, "NF", 100), "may not act now"),  # §3.3: not player 2's turn
    ],
)
def test_start_packet_refusals(action: dict[str, Any], words: str) -> None:
    """Only the available items at their printed price, by the player whose turn it is."""
    game = Game.create("1835", PLAYERS, [], 1)
    state = json.dumps(game.snapshot(), sort_keys=True)
    with pytest.raises(IllegalAction) as error:
        game.process(action)
    assert words in error.value.reason
    assert error.value.rule.startswith(("1835 rules §3", "common rules §6"))
    assert json.dumps(game.snapshot(), sort_keys=True) == state
    assert game.to_file()["actions"] == []


def test_start_packet_item_at_its_price_is_accepted() -> None:
    """1835 rules §3.1: NF costs 100."""
    game = Game.create("1835", PLAYERS, [], 1)
    game.process(bid(1, "NF", 100))
    assert game.engine.player_by_id(1).cash < game.engine.player_by_id(2).cash
