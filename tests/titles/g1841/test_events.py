"""The first 4-train's events and the first 5-train's (rules/1841.md 2.4): concessions close
with the presidency re-evaluated and unstarted corporations closed, phase borders, the
Tuscan merge waiting for the secession."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from stellwerk.titles.g1841 import events
from stellwerk.titles.g1841.data_load import political_borders
from stellwerk.titles.g1841.game import Game1841

sys.path.insert(0, str(Path(__file__).parent))
from setup_helpers import answer, asked, new_game, operating, players, start
from test_secession import buy_first_four


def test_concessions_close_presidency_moves_and_unstarted_corporations_close() -> None:
    """rules/1841.md 2.4 item 1: all concessions close (Bayard too); a started corporation's
    presidency goes to the player holding most (the old president keeps it on a tie); a
    corporation never started closes."""
    game = new_game(3)
    p1, p2, p3 = players(game)
    for player, sym in ((p1, "Bayard"), (p1, "SFTG"), (p3, "SFTN")):
        company = game.company(sym)
        company.owner = player
        player.companies.append(company)
    sftg = start(game, "SFTG", "100,3,5", p1, {p2: 40, p3: 20})
    ssfl = start(game, "SSFL", "100,3,5", p2, {p3: 20})
    events.close_concessions(game)
    assert all(c.closed for c in game.companies) and p1.companies == p3.companies == []
    assert sftg.owner is p2 and sftg.presidents_share in p2.shares_of("SFTG")
    assert p2.percent_of("SFTG") == 40 and p1.percent_of("SFTG") == 20
    assert ssfl.owner is p2  # a tie (20 % each) keeps the president
    assert game.corporation("SFTN").closed and game.corporation("SFMA").closed


def test_concessions_close_a_corporation_holding_most_takes_the_presidency() -> None:
    """rules/1841.md 2.4 item 1 with 2.3.9 (corporations preside too; seed 000 on {3.2}: "a
    player or a corporation" may take the directorship): SSFL holding 30 % of SFTG against
    its president's 20 % becomes SFTG's president when the concessions close (the
    certificates swap); SFLP, holding nothing of it, stays out."""
    game = new_game(3)
    p1, p2, p3 = players(game)
    for player, sym in ((p1, "SFTG"), (p2, "SSFL"), (p3, "SFLP")):
        company = game.company(sym)
        company.owner = player
        player.companies.append(company)
    ssfl = start(game, "SSFL", "100,3,5", p2)
    sflp = start(game, "SFLP", "100,3,5", p3)
    sftg = start(game, "SFTG", "100,3,5", p1, {ssfl: 30, p3: 10})
    events.close_concessions(game)
    assert sftg.owner is ssfl and sftg.presidents_share in ssfl.shares_of("SFTG")
    assert p1.percent_of("SFTG") == 20 and ssfl.percent_of("SFTG") == 30
    assert sflp.percent_of("SFTG") == 0 and ssfl.owner is p2


def test_borders_of_phases_4_and_5() -> None:
    """rules/1841.md 1.2 "Borders by phase", 2.4: from the first 4 the phase-4 borders, from
    the first 5 the phase-5 borders (only Lugano)."""
    game = new_game(3)
    p1, _, _ = players(game)
    sftg = start(game, "SFTG", "100,3,5", p1)
    operating(game)
    borders = political_borders(())
    buy_first_four(game, sftg)
    assert game.map.political_borders() == borders["phase_4"]
    train = next(t for t in game.depot.upcoming if t.name == "5")
    sftg.cash += train.price
    game.buy_train(sftg, train, train.price)
    assert game.phases.name == "5"
    assert game.map.political_borders() == borders["phases_5_to_8"]


def test_tuscan_merge_waits_for_the_secession(monkeypatch: pytest.MonkeyPatch) -> None:
    """rules/1841.md 2.4 item 4: while the secession asks, the Tuscan merge waits; it starts
    (``tuscan.start``) when the secession is over."""
    started: list[Game1841] = []
    monkeypatch.setattr(events.tuscan, "start", started.append)
    game = new_game(3)
    p1, p2, _ = players(game)
    start(game, "IRSFF", "100,3,5", p1, {p1: 10, p2: 10})
    start(game, "SFTG", "144,2,8", p2)
    operating(game)
    buy_first_four(game, game.corporation("SFTG"))
    assert started == [] and asked(game) == (p1, "pick_exchange_pres", ["a", "b"])
    answer(game, p1, "a")
    while (question := asked(game)) is not None:
        decline = {"share_offer": "no", "offer_again": "n", "pick_exchange_corp": "a"}
        answer(game, question[0], decline.get(question[1], 0))
    assert started == [game]


def test_no_tuscan_merge_in_the_lite_game() -> None:
    """rules/1841.md 4.2: the lite game's first 4 has no Tuscan merge event."""
    assert "tuscan_merge" not in new_game(3, ["lite"]).data.train("4").events
    assert new_game(3).data.train("4").events[-1] == "tuscan_merge"


def test_2_3_9_equal_corporate_candidates_in_operating_order() -> None:
    """rules/1841.md 2.3.9 (ties for a presidency go to the nearest candidate): players
    first (clockwise from a player president, seat order after a corporation), then the
    corporations in operating order -- SFTG at L.144 before SSFL at L.100, though SSFL comes
    first in the data."""
    game = new_game(3)
    p1, p2, p3 = players(game)
    ssfl = start(game, "SSFL", "100,3,5", p2)
    sftg = start(game, "SFTG", "144,2,8", p1)
    assert game.corporations.index(ssfl) < game.corporations.index(sftg)
    distance = game.president_distance
    assert distance(p1, sftg) < distance(p1, ssfl)
    assert distance(p2, p3) < distance(p2, p1) < distance(p2, sftg)
    assert distance(ssfl, p1) < distance(ssfl, p2) < distance(ssfl, p3)
