"""Frozen corporations' turns in the operating round (rules/1841.md 2.3.10): a corporation
unfrozen in the middle of an action -- the purchase that ended the turn before its own --
operates normally, as 18xx.games, which brings the frozen states up to date in the purchase
itself."""

from __future__ import annotations

import sys
from pathlib import Path

from stellwerk.core.entities import move_share
from stellwerk.titles.g1841 import frozen

sys.path.insert(0, str(Path(__file__).parent))
from setup_helpers import new_game, players, start


def test_2_3_10_a_corporation_unfrozen_before_its_turn_operates_normally() -> None:
    """rules/1841.md 2.3.10: SFTC's president's certificate lies in the pool (frozen); SFTG
    buys it, then SFTC's turn starts within the same action: it is no longer frozen, so no
    frozen operation (its price stays), and it operates (selfplay seed 5 with
    ``sfli_run_variant``, action 1189)."""
    game = new_game(3)
    p1, p2, _ = players(game)
    sftg = start(game, "SFTG", "144,2,8", p1, {p2: 30}, cash=100)
    sftc = start(game, "SFTC", "100,3,5", p2, {}, cash=100)
    pres = sftc.presidents_share
    assert pres is not None
    move_share(pres, game.pool)
    sftc.owner = game.pool
    frozen.update(game)
    assert frozen.is_frozen(game, sftc)
    rnd = game.new_operating_round(1)
    game.round = rnd
    move_share(pres, sftg)  # the purchase; the states are brought up to date after it
    sftc.owner = sftg
    price = sftc.share_price
    rnd.entity_index = rnd.entities.index(sftc)
    rnd.start_operating()
    assert not frozen.is_frozen(game, sftc)
    assert sftc.share_price is price
    assert rnd.current_operator is sftc
