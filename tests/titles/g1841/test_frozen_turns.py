"""Frozen corporations' turns in the operating round (rules/1841.md 2.3.10): a corporation
unfrozen in the middle of an action -- the purchase that ended the turn before its own --
operates normally, as 18xx.games, which brings the frozen states up to date in the purchase
itself."""

from __future__ import annotations

import sys
from pathlib import Path

from stellwerk.core.entities import move_share
from stellwerk.titles.g1841 import frozen
from stellwerk.titles.g1841.corporate import CorporateShares
from stellwerk.titles.g1841.operating import Track1841

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


def test_2_3_10_a_purchase_ending_the_turn_thaws_the_next_one_while_updates_are_held() -> None:
    """rules/1841.md 2.3.9, 2.3.10: a corporation is frozen while its chain of control does
    not end at a player, and only a frozen corporation's turn is the frozen operation.  SFTC's
    president's certificate lies in the pool (frozen) and a transformation's share moves are
    held (``Game1841.frozen_held``, as 18xx.games, docs/architecture.md defect I).  SFTG, at
    its corporate share step (phase 4: 2.2.1 lets it take the pool's president's
    certificate; not yet operated, so no merger follows), buys that certificate, which ends
    its turn: SFTC's chain now ends at p1, so SFTC operates normally -- no price move -- as in
    18xx.games, which brings the frozen states up to date in the purchase itself (our
    selfplay game lite+version_1, 4 players, seed 74023, action 867: RSFS bought ICSF's
    president's certificate, ICSF operated there, and a `pass` of CGTF was refused at 868).
    """
    game = new_game(3)
    p1, p2, _ = players(game)
    game.phases.index = next(i for i, p in enumerate(game.phases.all) if p.name == "4")
    game.map.set_phase("4")
    sftg = start(game, "SFTG", "144,2,8", p1, {p2: 30}, cash=300)
    sftc = start(game, "SFTC", "100,3,5", p2, {}, cash=100)
    game.operated_corps.add("SFTC")
    pres = sftc.presidents_share
    assert pres is not None
    move_share(pres, game.pool)
    sftc.owner = game.pool
    frozen.update(game)
    assert frozen.is_frozen(game, sftc)
    game.frozen_held = True  # a transformation earlier in the round (defect I)
    rnd = game.new_operating_round(1)
    game.round = rnd
    rnd.entity_index = rnd.entities.index(sftg)
    rnd.start_operating()
    while not isinstance(rnd.active_step(), CorporateShares):
        assert rnd.current_operator is sftg
        game.process_action({"type": "pass", "entity": "SFTG", "entity_type": "corporation"})
    price = sftc.share_price
    game.process_action(
        {
            "type": "buy_shares",
            "entity": "SFTG",
            "entity_type": "corporation",
            "shares": [pres.id],
            "percent": pres.percent,
        }
    )
    assert sftc.owner is sftg
    assert not frozen.is_frozen(game, sftc)
    assert sftc.share_price is price
    assert rnd.current_operator is sftc
    assert isinstance(rnd.active_step(), Track1841)
