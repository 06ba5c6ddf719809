"""Property tests of 1841's corporate share trading (rules/1841.md 2.3.8): on random positions
every offered action is accepted, cash is conserved, and no accepted purchase breaks the
corporate certificate limit, the 60 % limit of the controlling player, the 50 % pool limit or
makes control circular; an action not offered is refused and changes nothing."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.titles.g1841.setup_helpers import start

from stellwerk.core.entities import Corporation, is_circular, move_share
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.titles.g1841.corporate import CorporateShares
from stellwerk.titles.g1841.decisions import Decisions
from stellwerk.titles.g1841.game import Game1841

CORPS = (("SFTG", "100,3,5"), ("SFTC", "144,2,8"), ("SFTN", "100,3,5"), ("AFI", "216,1,11"))


def total_cash(game: Game1841) -> int:
    return (
        game.bank.cash + sum(p.cash for p in game.players) + sum(c.cash for c in game.corporations)
    )


def build(seed: int, phase: str) -> tuple[Game1841, Corporation, CorporateShares]:
    rng = random.Random(seed)
    game = Game1841([(i, f"p{i}") for i in range(1, 4)], [], 1)
    game.phases.index = next(i for i, p in enumerate(game.phases.all) if p.name == phase)
    game.map.set_phase(phase)
    corps = []
    for sym, cell in CORPS:
        president = rng.choice(game.players)
        corps.append(start(game, sym, cell, president, {}, cash=rng.randrange(0, 900)))
    for corp in corps:  # spread ordinary certificates over players, corporations and the pool
        for share in [s for s in corp.treasury_shares() if not s.president]:
            where = rng.randrange(6)
            if where == 0:
                move_share(share, rng.choice(game.players))
            elif where == 1:
                other = rng.choice(corps)
                if other is not corp:
                    move_share(share, other)
            elif where == 2 and game.pool.percent_of(corp.sym) < 50:
                move_share(share, game.pool)
        if rng.random() < 0.8:
            game.operated_corps.add(corp.sym)
    actor = rng.choice(corps)
    rnd = OperatingRound(game, [Decisions, CorporateShares], 1)
    rnd.entity_index = rnd.entities.index(actor)
    rnd.current_operator = actor
    game.round = rnd
    step = rnd.step_of(CorporateShares)
    assert isinstance(step, CorporateShares)
    return game, actor, step


def check_after(game: Game1841, corp: Corporation, kind: str, certs_before: int) -> None:
    for other in game.corporations:
        assert game.pool.percent_of(other.sym) <= 50, f"pool holds more than 50 % of {other.sym}"
        if other.ipoed:
            assert not is_circular(other), f"{other.sym} is controlled in a circle"
    if kind == "buy_shares":
        assert game.num_certs(corp) <= 5
    if kind == "sell_shares":
        assert game.num_certs(corp) <= certs_before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6), phase=st.sampled_from(["3", "4", "5"]), walk=st.integers(0, 10**6)
)
def test_2_3_8_offered_actions_are_accepted_within_the_limits(
    seed: int, phase: str, walk: int
) -> None:
    game, corp, step = build(seed, phase)
    rng = random.Random(walk)
    cash = total_cash(game)
    for _ in range(6):
        offered = step.choices(corp)
        if not offered or step.passed:
            break
        action = rng.choice(offered)
        certs = game.num_certs(corp)
        player = game.controller(corp)
        step.process(action, corp)
        assert total_cash(game) == cash, "cash is not conserved"
        check_after(game, corp, action["type"], certs)
        if action["type"] == "buy_shares" and player is not None:
            target = game.corporation(game.share_by_id(action["shares"][0]).corporation)
            assert game.controlled_percent(player, target) <= 60


@pytest.mark.long_run
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), phase=st.sampled_from(["3", "4"]), pick=st.integers(0, 10**6))
def test_2_3_8_an_action_not_offered_is_refused_and_changes_nothing(
    seed: int, phase: str, pick: int
) -> None:
    game, corp, step = build(seed, phase)
    rng = random.Random(pick)
    shares = [s for c in game.corporations for s in c.certificates]
    share = rng.choice(shares)
    action = {
        "type": rng.choice(["buy_shares", "sell_shares"]),
        "entity": corp.sym,
        "shares": [share.id],
        "percent": share.percent,
    }
    offered = step.choices(corp)
    listed = any(
        a["type"] == action["type"]
        and a.get("shares")
        and _same_kind(game, a["shares"][0], share.id)
        for a in offered
    )
    if listed:
        return
    before = copy.deepcopy(game)
    try:
        step.process(action, corp)
    except IllegalAction as refused:
        assert refused.rule
        assert _state(game) == _state(before)
        return
    raise AssertionError(f"{action} was accepted though not offered")


def _same_kind(game: Game1841, a: str, b: str) -> bool:
    x, y = game.share_by_id(a), game.share_by_id(b)
    return (x.corporation, x.percent, x.president, id(x.owner)) == (
        y.corporation,
        y.percent,
        y.president,
        id(y.owner),
    )


def _state(game: Game1841) -> tuple[object, ...]:
    return (
        [
            (
                c.sym,
                c.cash,
                c.share_price.id if c.share_price else None,
                _owner(c.owner),
                sorted(s.id for s in c.all_shares()),
            )
            for c in game.corporations
        ],
        [(p.name, p.cash, sorted(s.id for s in p.all_shares())) for p in game.players],
        sorted(s.id for s in game.pool.all_shares()),
        game.bank.cash,
    )


def _owner(holder: object) -> object:
    return getattr(holder, "sym", None) or getattr(holder, "name", None)
