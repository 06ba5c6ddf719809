"""A par of a non-historical corporation when no city can take its home token (rules/1841.md
2.2.1, 2.2.3).

Live play refuses it: the corporation starts by placing its home token, and there is no city
for it.  18xx.games lets the par through and then waits for the token for good (a random game
of its engine, 5 players seed 13, ends so); a replay follows it."""

from __future__ import annotations

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import act
from stellwerk.core.policy import RECORDED
from stellwerk.titles.g1841 import stock
from stellwerk.titles.g1841.decisions import current

from .test_reopen import closed_sftn_in_phase_4


def test_live_par_without_a_home_city_is_refused_replay_waits_for_the_token(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = closed_sftn_in_phase_4()
    player = game.round.current_entity()
    sldv = game.corporation("SLDV")
    assert not game.specs["SLDV"].historical
    assert stock.can_par(game, sldv, player)
    monkeypatch.setattr(stock, "has_home_city", lambda game, corp: False)
    assert not stock.can_par(game, sldv, player)
    cash = player.cash
    with pytest.raises(IllegalAction) as refused:
        game.process_action(act(player, "par", corporation="SLDV", share_price="68,4,2"))
    assert "2.2.1" in refused.value.rule
    assert player.cash == cash and not sldv.ipoed
    game.policy = RECORDED
    game.process_action(act(player, "par", corporation="SLDV", share_price="68,4,2"))
    found = current(game)
    assert found is not None
    asked = found[1]
    assert asked.entity is sldv and asked.topic == "home_token"
    assert sldv.ipoed and sldv.owner is player
