"""Replaying 18xx.games' starts of closed 1841 corporations (rules/1841.md 2.2.1, 2.4 item 1).

Live play follows the rules: a historical corporation that closed (unstarted at the first
4-train, or by a merger, the secession or the Tuscan merge) may not be started.  18xx.games'
``can_par?`` does not look at ``closed`` and real files contain such pars, so a replay
(``game.policy`` is ``RECORDED``, ``printed_starts`` off) accepts one as 18xx.games then has
it: the buyer takes the first treasury certificate at the least par price a share, and the
corporation stays closed without a price.
"""

from __future__ import annotations

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import act
from stellwerk.core.policy import LIVE, RECORDED
from stellwerk.titles.g1841.events import close_unstarted
from stellwerk.titles.g1841.game import Game1841
from stellwerk.titles.g1841.stock import can_par


def closed_sftn_in_phase_4() -> Game1841:
    """A phase-4 stock round in which SFTN closed unstarted (rules/1841.md 2.4 item 1)."""
    game = Game1841([(i, f"p{i}") for i in range(1, 4)], [], 1)
    while game.phases.current.name != "4":
        game.phases.advance()
    game.map.phase = "4"
    game.turn = 3
    game.round = game.new_stock_round()
    game.round.setup()
    close_unstarted(game, game.corporation("SFTN"))
    return game


def snapshot(game: Game1841) -> tuple[object, ...]:
    sftn = game.corporation("SFTN")
    return (
        [p.cash for p in game.players],
        sftn.cash,
        sftn.closed,
        sftn.ipoed,
        sftn.share_price,
        sorted((s.index, type(s.owner).__name__) for s in sftn.certificates),
        game.round.current_entity(),
    )


def test_live_play_refuses_to_start_a_closed_corporation_2_2_1() -> None:
    """rules/1841.md 2.2.1, 2.4 item 1: a closed historical corporation is not offered, and
    a par of it is refused naming 2.2.1, with the state exactly as before."""
    game = closed_sftn_in_phase_4()
    player = game.round.current_entity()
    sftn = game.corporation("SFTN")
    assert not can_par(game, sftn, player)
    before = snapshot(game)
    with pytest.raises(IllegalAction) as refused:
        game.process_action(act(player, "par", corporation="SFTN", share_price="100,3,5"))
    assert "2.2.1" in refused.value.rule
    assert snapshot(game) == before


def test_replay_accepts_a_start_of_a_closed_corporation_as_18xx_games_does() -> None:
    """Replay only (a reference-engine deviation): the par buys SFTN's first treasury
    certificate at the least par price (L.68 a share, whatever par is named) into SFTN's
    treasury; SFTN stays closed, without a price, and does not operate."""
    game = closed_sftn_in_phase_4()
    player = game.round.current_entity()
    sftn = game.corporation("SFTN")
    first = sftn.treasury_shares()[0]
    cash = player.cash
    game.policy = RECORDED
    assert can_par(game, sftn, player)
    game.process_action(act(player, "par", corporation="SFTN", share_price="100,3,5"))
    game.policy = LIVE
    paid = 68 * first.percent // sftn.share_unit
    assert first.owner is player
    assert player.cash == cash - paid
    assert sftn.cash == paid
    assert sftn.closed and sftn.share_price is None
    assert sftn.ipoed is first.president
    assert sftn not in game.operating_order()


def test_a_replayed_reopening_is_the_turns_start_more_buys_then_printed_homes() -> None:
    """Replay only, as 18xx.games has it: after reopening SFTN the buyer may buy more of its
    treasury certificates (L.68 a share) while below 40 % (minors too); when the turn's
    buying is over SFTN's printed home token is on the map and no token purchase is asked."""
    game = closed_sftn_in_phase_4()
    player = game.round.current_entity()
    sftn = game.corporation("SFTN")
    game.policy = RECORDED
    game.process_action(act(player, "par", corporation="SFTN", share_price="68,4,2"))
    assert game.round.current_entity() is player
    more = sftn.treasury_shares()[0]
    cash, corp_cash = player.cash, sftn.cash
    game.process_action(act(player, "buy_shares", shares=[more.id], percent=more.percent))
    assert more.owner is player
    assert player.cash == cash - 68 * more.percent // sftn.share_unit
    assert sftn.cash == corp_cash + 68 * more.percent // sftn.share_unit
    homes = {hid for hid, _ in game.specs["SFTN"].homes}
    assert not homes & set(game.token_hexes(sftn))
    game.process_action(act(player, "pass"))
    game.policy = LIVE
    assert homes <= set(game.token_hexes(sftn))
    assert game.round.current_entity() is not player
    assert sftn.closed


def test_a_reopened_corporations_certificate_costs_the_least_par_for_everybody() -> None:
    """Replay only, as 18xx.games has it: after SFTN's reopening another player may buy one
    of its treasury certificates only if he can pay the least par price a share (SFTN has no
    price, so a bare price of 0 would let anybody buy; 18xx.games passes a player who cannot
    pay)."""
    from stellwerk.core.shares import Bundle
    from stellwerk.titles.g1841.stock import Shares1841, certificate_price

    game = closed_sftn_in_phase_4()
    sftn = game.corporation("SFTN")
    game.policy = RECORDED
    game.process_action(
        act(game.round.current_entity(), "par", corporation="SFTN", share_price="68,4,2")
    )
    game.process_action(act(game.round.current_entity(), "pass"))
    other = game.round.current_entity()
    bundle = Bundle.of([sftn.treasury_shares()[0]], sftn)
    price = 68 * bundle.percent // sftn.share_unit
    assert certificate_price(game, bundle) == price and bundle.price == 0
    step = game.round.step_of(Shares1841)
    assert step is not None
    other.cash = price - 1
    assert not step.can_buy(other, bundle) and not step.treasury_counts(other)
    other.cash = price
    assert step.can_buy(other, bundle) and step.treasury_counts(other)


def test_a_closed_corporation_counts_as_startable_in_a_replay_at_its_treasury_price() -> None:
    """Replay only, as 18xx.games has it (its ``can_ipo_any?``): a player's turn stays open
    while he could start a closed corporation, that is pay its first treasury certificate at
    the least par price -- so he is not passed automatically (6 players seed 107).  Live play
    never lists such a start (rules/1841.md 2.2.1) but counts it for the turn's end as
    18xx.games does, so its games are accepted there (selfplay ``version_1`` seed 33)."""
    from stellwerk.core.shares import Bundle
    from stellwerk.titles.g1841.stock import Shares1841, can_par, reopened_price

    game = closed_sftn_in_phase_4()
    player = game.round.current_entity()
    sftn = game.corporation("SFTN")
    step = game.round.step_of(Shares1841)
    assert step is not None
    from stellwerk.core.entities import move_share

    pres = sftn.presidents_share
    assert pres is not None and pres.owner is sftn
    move_share(pres, game.pool)  # as after a merger: the first treasury share is a plain one
    first = sftn.treasury_shares()[0]
    assert not first.president
    price = reopened_price(game, Bundle.of([first], sftn))
    for corp in game.corporations:  # nothing else startable: only SFTN decides
        if corp is not sftn and not corp.ipoed:
            corp.ipoed = True
    for policy in (LIVE, RECORDED):
        game.policy = policy
        player.cash = price - 1
        assert not step.can_par_any(player)
        player.cash = price
        assert step.can_par_any(player)
    game.policy = LIVE
    assert not can_par(game, sftn, player)  # live play lists no such start


def test_treasury_purchase_test_takes_holdings_in_definition_order() -> None:
    """rules/1841.md 2.2.1 as 18xx.games tests whether a treasury counts as a purchase left:
    the smallest certificate of the treasury's holdings, the first of equal ones in its
    order -- its own, then by corporation in definition order, whatever order they were
    received in (a traced engine files them so)."""
    from stellwerk.core.entities import move_share
    from stellwerk.titles.g1841.stock import Shares1841, par_cells

    game = closed_sftn_in_phase_4()
    player = game.round.current_entity()
    majors = [c for c in game.corporations if game.specs[c.sym].type == "major"]
    holder, cheap, dear = majors[0], majors[1], majors[2]
    assert game.corporations.index(cheap) < game.corporations.index(dear)
    cells = {c.price: c for c in par_cells(game)}
    for corp, price in ((holder, 100), (cheap, 68), (dear, 144)):
        game.set_par(corp, cells[price])
        corp.ipoed = True
    for share in list(holder.treasury_shares()):
        move_share(share, game.pool)
    for corp in (dear, cheap):  # received in reverse definition order
        plain = next(s for s in corp.treasury_shares() if not s.president)
        move_share(plain, holder)
    for corp in game.corporations:
        if corp not in (holder, cheap, dear):
            corp.ipoed = False
    for corp in (cheap, dear):  # their own IPOs do not decide
        for share in list(corp.treasury_shares()):
            move_share(share, game.pool)
    step = game.round.step_of(Shares1841)
    assert step is not None
    player.cash = 70
    assert step.treasury_counts(player)


def test_a_replayed_reopening_without_a_reservation_takes_the_first_city_as_18xx_games() -> None:
    """rules/1841.md 1.2/2.2.3: in the first edition SFMA's printed home is Firenze R14 city 1.
    Closed unstarted, its reservation goes; a replay (the only way to start it again) puts the
    token where 18xx.games does, the first city with room (its random game version_1, 6
    players, seed 910: SFMA in R14 city 0); live play keeps the printed city."""
    from stellwerk.titles.g1841.start import printed_home_city

    game = Game1841([(i, f"p{i}") for i in range(1, 4)], ["version_1"], 1)
    sfma = game.corporation("SFMA")
    close_unstarted(game, sfma)
    cities = game.map.board.hex("R14").cities
    assert len(cities) == 2
    assert all(c.reserved_slot("SFMA") is None for c in cities)
    assert printed_home_city(game, sfma, "R14", 1) == 1
    game.policy = RECORDED
    assert printed_home_city(game, sfma, "R14", 1) == 0
