"""Invariants of emergency money (rules/1841.md 2.3.7, 2.6): from the fixtures' EMR positions,
any sequence of offered actions keeps the money and the certificates whole, never lets the
chain raise a share it does not need, and ends the train step with a train or a bankruptcy."""

from __future__ import annotations

import pickle
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
from emr_position import position
from trace_state import FIXTURES

from stellwerk.core.legal import legal_actions
from stellwerk.titles.g1841 import emergency
from stellwerk.titles.g1841.game import Game1841

needs_fixtures = pytest.mark.skipif(not FIXTURES.exists(), reason="../shared fixtures absent")

POSITIONS = [
    ("1841_game_end_bank", 246, "SB"),
    ("1841_game_end_bankrupt", 330, "SFLi"),
    ("1841_game_end_offboards", 400, "CGTF"),
]


BUILT: dict[int, bytes] = {}


def fresh(which: int) -> Game1841:
    """The position (built once, then copied through a pickle as checkpoints are)."""
    if which not in BUILT:
        name, first, operator = POSITIONS[which]
        BUILT[which] = pickle.dumps(position(name, first, operator)[0])
    game: Game1841 = pickle.loads(BUILT[which])
    return game


def money(game: Game1841) -> int:
    return (
        game.bank.cash
        + sum(p.cash for p in game.all_players)
        + sum(c.cash for c in game.corporations)
    )


def certificates_whole(game: Game1841) -> bool:
    holders = game.holders()
    return all(
        sum(h.percent_of(c.sym) for h in holders) == 100 for c in game.corporations if c.ipoed
    )


@needs_fixtures
@settings(
    max_examples=20,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
@given(which=st.integers(0, len(POSITIONS) - 1), data=st.data())
def test_offered_emr_actions_keep_money_and_certificates(which: int, data: st.DataObject) -> None:
    """rules/1841.md 2.3.7: whatever offered EMR actions are taken, the total of money and
    every corporation's 100 % stay, no sale of the chain raises an unneeded share, and the
    buyer's turn ends with a train (or a bankruptcy, 2.6) within the actions offered."""
    operator = POSITIONS[which][2]
    game = fresh(which)
    buyer = game.corporation(operator)
    total = money(game)
    for _ in range(30):
        if game.round.current_operator is not buyer or game.finished or buyer.trains:
            break
        offers = [
            a for a in legal_actions(game) if a["type"] in ("sell_shares", "buy_train", "bankrupt")
        ]
        assert offers, "the buyer's train step offers something"
        chosen = data.draw(st.sampled_from(offers))
        if chosen["type"] == "sell_shares" and chosen["entity"] == operator:
            needed = emergency.needed_price(game, buyer) - emergency.cash_before_issuing(
                game, buyer
            )
            sym = chosen["shares"][0].rsplit("_", 1)[0]
            price = game.corporation(sym).share_price
            assert price is not None
            half = Fraction(price.price, 2)
            assert half * chosen["percent"] / 10 < needed + half + 1
        game.process_action(chosen)
        assert money(game) == total
        assert certificates_whole(game)
    assert buyer.trains or buyer.sym in game.done_this_round or game.finished
