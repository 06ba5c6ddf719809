"""The answers 1849 keeps to replay fast (issue 7 item 6: who may act is computed once per state
change) are the answers computed afresh, at every position of the recorded 18xx.games game and
of a selfplay game: each active step's ``blocking`` and ``offers_current`` as remembered, the
stock turn's remembered tests (common rules §6.6: sell, buy, start, forced sale) and the token
step's existence test (common rules §6.4) against the whole menus computed again, the
networks that test puts off against networks computed at once, and the
bundles made one at a time for existence tests (sales, issues and redemptions, 1849 rules §§2.2,
4.9) against the listed ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.conftest import net_contents

from stellwerk.api import Game
from stellwerk.core.actions import action_id
from stellwerk.core.entities import Holder, Player
from stellwerk.core.flow.operating import Token
from stellwerk.core.flow.stock import BuySellParShares
from stellwerk.core.game import Game as Engine
from stellwerk.core.map.graph import GraphCache, compute_network
from stellwerk.core.shares import Bundle, interchangeable
from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.selfplay import play

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared"
FIXTURE = SHARED / "fixtures" / "18xx.games" / "1849" / "1849_game_end_bank.json"

KINDS = (
    "pass",
    "sell_shares",
    "buy_shares",
    "par",
    "lay_tile",
    "place_token",
    "run_routes",
    "dividend",
    "buy_train",
    "buy_company",
    "choose",
    "payoff_debt",
    "take_loan",
    "payoff_loan",
    "bankrupt",
)


def _asked(engine: Engine) -> list[tuple[str, bool, list[bool]]]:
    return [
        (step.description, step.blocking(), [step.offers_current(kind) for kind in KINDS])
        for step in engine.round.steps
        if step.active()
    ]


def _check_menus(engine: Engine) -> None:
    """The routing's questions of each active step, answered from what the steps remember
    for the state the last action left, are the whole menus' answers computed afresh; so are
    the stock turn's tests and the token step's menu."""
    with engine.remembering():
        assert engine.memo_key is not None
        remembered = _asked(engine)
        stock = [
            (step._test(name, player), name)
            for step in engine.round.steps
            if isinstance(step, BuySellParShares) and step.active()
            for player in [step.current_entity()]
            if isinstance(player, Player)
            for name in ("can_sell", "can_buy", "can_par", "must_sell")
        ]
    engine.changing()
    fresh = []
    for step in engine.round.steps:
        if step.active():
            menu = step._current_actions()
            fresh.append((step.description, step.blocks and bool(menu), [k in menu for k in KINDS]))
    assert remembered == fresh
    for step in engine.round.steps:
        if isinstance(step, BuySellParShares) and step.active():
            player = step.current_entity()
            assert isinstance(player, Player)
            computed = {
                "can_sell": step.can_sell_any(player),
                "can_buy": step.can_buy_any(player),
                "can_par": step.can_par_any(player),
                "must_sell": step.must_sell(player),
            }
            assert all(found == computed[name] for found, name in stock), player.name
        if isinstance(step, Token) and step.active():
            corp = step.current_entity()
            if corp is not None:
                listed = bool(step.choices(corp))
                assert bool(step.actions(corp)) == listed, corp.sym


def _shape(bundle: Bundle) -> tuple[int, int, tuple[int, ...]]:
    return (id(bundle.owner), bundle.percent, tuple(s.percent for s in bundle.shares))


def _check_bundles(engine: Engine) -> None:
    """The bundles made one at a time are the listed bundles; an issue or a redemption is
    accepted exactly when an interchangeable bundle is listed."""
    holders: list[Holder] = [*engine.players, *engine.corporations, engine.pool]
    for corp in engine.corporations:
        for holder in holders:
            made = sorted(_shape(b) for b in engine.sale_bundles(holder, corp))
            listed = sorted(_shape(b) for b in engine.bundles_for_corporation(holder, corp))
            assert made == listed, (holder, corp.sym)
        issuable = engine.issuable_bundles(corp)
        redeemable = engine.redeemable_bundles(corp)
        for bundle in engine.bundles_for_corporation(corp, corp):
            expected = any(interchangeable(bundle, b) for b in issuable)
            assert engine.issuable_like(corp, bundle) == expected, corp.sym
        for bundle in engine.bundles_for_corporation(engine.pool, corp):
            expected = any(interchangeable(bundle, b) for b in redeemable)
            assert engine.redeemable_like(corp, bundle) == expected, corp.sym


def _replayed_checked(game_file_data: dict[str, object]) -> int:
    game_file = load_game_file(game_file_data)
    game = Game.create(game_file.title, game_file.players, game_file.optional_rules, game_file.seed)
    checked = 0
    for action in game_file.live:
        game.process(action, replay=True)
        active = game.active_entities()
        _check_menus(game._engine)
        assert game.active_entities() == active  # asked afresh: the same
        _check_bundles(game.engine)
        checked += 1
    return checked


def test_kept_answers_are_fresh_answers_in_the_recorded_game() -> None:
    """After every action of 18xx.games' recorded 1849 game the remembered answers of who may
    act and what (common rules §6) are the answers computed afresh."""
    if not FIXTURE.exists():
        pytest.skip(f"{FIXTURE} is absent")
    data = read_game_file(FIXTURE)
    assert _replayed_checked(dict(data)) == len(load_game_file(data).live)


ELECTRIC = ["electric_dreams", "bonds", "acquiring_station_tokens"]


@pytest.mark.parametrize(("players", "seed", "options"), [(5, 2, []), (4, 7, ELECTRIC)])
def test_kept_answers_are_fresh_answers_in_a_selfplay_game(
    players: int, seed: int, options: list[str]
) -> None:
    """The same at every position of a selfplay game (forced sales, bankruptcies and bond
    debts come up there more than in the recorded game), replayed from its file."""
    game = Game.create("1849", [(n, f"Player {n}") for n in range(1, players + 1)], options, seed)
    play(game, seed, max_actions=700)
    data = game.to_file()
    assert _replayed_checked(dict(data)) == len(load_game_file(data).live) > 300


def _contents(graph: GraphCache) -> tuple[object, ...]:
    """What the cache holds, the networks it put off computed now (what ``settle`` would
    leave, found without changing the cache)."""
    nets = {corp: net_contents(net) for corp, net in graph._nets.items()}
    tokenable = dict(graph._tokenable)
    routes = dict(graph._routes)
    for corp in graph._deferred:
        net = compute_network(graph.board, corp, limits=graph.limits)
        nets[corp] = net_contents(net)
        tokenable[corp] = graph._token_spots(corp, net)
        old = routes.get(corp, (False, False))
        routes[corp] = (old[0] or net.route_available, old[1] or net.route_train_purchase)
    return nets, tokenable, routes


def _put_off_matches_eager(game_file_data: dict[str, object]) -> int:
    game_file = load_game_file(game_file_data)
    args = (game_file.title, game_file.players, game_file.optional_rules, game_file.seed)
    putting_off, eager = Game.create(*args), Game.create(*args)
    eager_graph = eager._engine.map.graph

    eager_graph.puts_off = False  # the token test walks the network at once
    put_off = 0
    for action in game_file.live:
        putting_off.process(action, replay=True)
        eager.process(action, replay=True)
        graph = putting_off._engine.map.graph
        put_off += bool(graph._deferred)
        assert _contents(graph) == _contents(eager_graph), action_id(action)
        assert putting_off.active_entities() == eager.active_entities()
        assert graph.stale == 0
    return put_off


def test_put_off_networks_are_the_networks_computed_at_once() -> None:
    """common rules §6.4: the token step's test that stops at the first city with a free slot
    puts the corporation's network off; computed later (before the board changes), the graph
    cache holds exactly what computing it at once leaves, at every position of the recorded
    game, and the same players are to act."""
    if not FIXTURE.exists():
        pytest.skip(f"{FIXTURE} is absent")
    assert _put_off_matches_eager(dict(read_game_file(FIXTURE))) > 10


def test_put_off_networks_in_a_selfplay_game_with_token_purchases() -> None:
    """The same in a selfplay game with station tokens bought and E-tokens (1849 rules §7.3,
    §7.5), where other corporations' tokens change hands."""
    game = Game.create("1849", [(n, f"Player {n}") for n in range(1, 5)], ELECTRIC, 7)
    play(game, 7, max_actions=700)
    assert _put_off_matches_eager(dict(game.to_file())) > 10
