"""The answers 1841 keeps to replay fast (issue 8 item 7) are the answers computed afresh, at
every position of the recorded 18xx.games games: who may act (remembered per state), the
board's token index (token hexes, the cities a network walk starts from), the token order,
whether a sale makes a corporation circular (rules/1841.md 2.2.1), whether a corporation has a
home city and what its tokens cost (2.2.3), the corporations formed in the game (2.4.1, 2.4.2),
and the shortcuts of the tests asked after every action (:func:`_check_quick_tests`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stellwerk.api import Game
from stellwerk.core.entities import Corporation
from stellwerk.core.map.graph import token_nodes
from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.titles.g1841 import emergency, game_end, journal, ownership, start, token_order
from stellwerk.titles.g1841.corporate import CorporateShares
from stellwerk.titles.g1841.data_load import title_data
from stellwerk.titles.g1841.game import Game1841
from stellwerk.titles.g1841.stock import (
    Shares1841,
    buy_candidates,
    can_par,
    first_and_smallest,
    formed_in_game,
    treasury_in_filing_order,
)

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "18xx.games" / "1841"
NAMES = ["1841_game_end_bank", "1841_game_end_bankrupt", "1841_game_end_offboards"]


def _token_hexes(engine: Game1841, sym: str) -> list[str]:
    board = engine.map.board
    return sorted(
        hid
        for hid, state in board.hexes.items()
        for city in state.cities
        for holder in city.tokens
        if holder == sym
    )


def _token_nodes(engine: Game1841, sym: str) -> list[tuple[str, int]]:
    return [
        (hid, state.tile.city_nodes[index])
        for hid, state in engine.map.board.hexes.items()
        for index, city in enumerate(state.cities)
        if sym in city.tokens
    ]


def _formed(engine: Game1841) -> set[str]:
    out: set[str] = set()
    for event in engine.journal:
        if isinstance(event, journal.Seceded):
            out |= {event.a, event.b}
        elif isinstance(event, journal.TuscanMergeStarted):
            out.add(event.formed)
    return out


def _check_kept(engine: Game1841) -> None:
    board = engine.map.board
    for corp in engine.corporations:
        assert board.token_hexes(corp.sym) == _token_hexes(engine, corp.sym), corp.sym
        assert token_nodes(board, corp.sym) == _token_nodes(engine, corp.sym), corp.sym
        in_board_order = [h for h, _ in _token_nodes(engine, corp.sym)]
        assert token_order.token_hexes(engine, corp.sym) == list(dict.fromkeys(in_board_order))
        if not engine.specs[corp.sym].historical:
            kept = start.has_home_city(engine, corp)
            assert kept == start.home_city_exists(engine, corp), corp.sym
            for hid in board.token_hexes(corp.sym):
                assert start.hex_price(engine, hid) == start.search_price(engine, hid), hid
    for player in engine.players:
        for sym in list(player.shares):
            corp = engine.corporation(sym)
            for bundle in engine.sale_bundles(player, corp):
                for change in (True, False):
                    quick = ownership.creates_circle(engine, bundle, engine.pool, change)
                    assert quick == ownership.tried_circle(engine, bundle, engine.pool, change)
    assert token_order.updated(engine) == token_order._updated(engine)
    assert token_order.changed(engine) is None  # brought up to date after the action
    assert formed_in_game(engine) == _formed(engine)
    _check_quick_tests(engine)


def _check_quick_tests(engine: Game1841) -> None:
    """The shortcuts of the tests asked after every action (issue 8 item 7) answer what the
    tests they stand for answer: the frozen-state check (rules/1841.md 2.3.10), the train
    limit (1.2), the end conditions (1.4), an emergency sale left to a train buyer's chain
    (2.3.7), a purchase left in a stock turn and in corporate share trading (2.2.1, 2.3.8)."""
    assert engine._frozen_changes() == engine._frozen_changes_walked()
    assert engine.has_crowded_corps() == any(
        len(c.trains) > engine.train_limit(c) for c in engine.corporations
    )
    assert engine.end_checks() == game_end.end_checks(engine)
    assert game_end.all_offboards_connected(engine) == all(
        any(h in engine.offboards_connected for h in members)
        for members in engine.data.offboard_groups.values()
    )
    for corp in engine.corporations:
        held = treasury_in_filing_order(engine, corp)
        expected = (held[0], min(held, key=lambda s: s.percent)) if held else None
        assert first_and_smallest(engine, corp) == expected, corp.sym
    for corp in engine.corporations:
        if corp.floated and not corp.closed and engine.depot.depot_trains(engine.phases):
            listed = bool(emergency.issuable_bundles(engine, corp))
            assert emergency.has_issuable(engine, corp) == listed, corp.sym
    candidates = buy_candidates(engine)
    for step in engine.round.steps:
        if isinstance(step, Shares1841):
            for player in engine.players:
                listed = any(step.can_buy(player, b) for b in candidates if b.owner is engine.pool)
                assert step.pool_buyable(player) == listed, player.name
                _check_share_turn_tests(engine, step, player)
        if isinstance(step, CorporateShares):
            for corp in engine.corporations:
                if corp.floated and not corp.closed:
                    listed = any(step.can_buy(corp, b) for b in candidates)
                    assert step.can_buy_any(corp) == listed, corp.sym


def _check_share_turn_tests(engine: Game1841, step: Shares1841, player: Any) -> None:
    """The player's share-turn tests asked after every action (rules/1841.md 2.2.1, 5.1: a
    player with nothing listed is skipped), which look only where an answer can be, answer
    what their definitions over every corporation and concession answer: a start left
    (before phase 4 only the corporations of his concessions and, from phase 3, the
    non-historical ones can count), a concession to buy, a limit exceeded."""
    every_start = not step.bought() and any(
        step.par_counts(player, corp)
        or (can_par(engine, corp, player) and step.can_afford(player, corp))
        for corp in engine.corporations
    )
    assert step.can_par_any(player) == every_start, player.name
    assert step.can_buy_any_company(player) == bool(step.buyable_companies(player)), player.name
    over = engine.num_certs(player) > engine.cert_limit(player) or any(
        player.shares.get(corp.sym) and not engine.holding_ok(player, corp)
        for corp in engine.corporations
    )
    assert step._over_a_limit(player) == over, player.name


KINDS = ("pass", "sell_shares", "buy_shares", "par", "buy_company", "choose", "lay_tile")


def _check_menus(engine: Any) -> None:
    """The routing's questions of each active step (``offers_current``, ``blocking``), answered
    from what the step remembers, are the whole menu's answers computed afresh."""
    with engine.remembering():  # the answers the last action's state left
        assert engine.memo_key is not None
        remembered = [
            (step.blocking(), [step.offers_current(kind) for kind in KINDS])
            for step in engine.round.steps
            if step.active()
        ]
    engine.changing()
    fresh = []
    for step in engine.round.steps:
        if step.active():
            menu = step._current_actions()
            fresh.append((step.blocks and bool(menu), [kind in menu for kind in KINDS]))
    assert remembered == fresh


@pytest.mark.parametrize("name", NAMES)
def test_kept_answers_are_fresh_answers(name: str) -> None:
    """After every action of the recorded game: who may act, as remembered, is who may act
    computed afresh (``engine.changing()`` forgets what was remembered); the kept answers
    above equal their fresh computations."""
    path = FIXTURES / f"{name}.json"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    game_file = load_game_file(read_game_file(path))
    game = Game.create(game_file.title, game_file.players, game_file.optional_rules, game_file.seed)
    checked = 0
    for action in game_file.live:
        game.process(action, replay=True)
        active = game.active_entities()
        _check_menus(game._engine)  # its remembered answers, untouched
        engine = game.engine  # taking it forgets the remembered answers
        assert isinstance(engine, Game1841)
        assert game.active_entities() == active
        _check_kept(engine)
        checked += 1
    assert game.finished and checked == len(game_file.live)


def test_home_city_answer_follows_the_board() -> None:
    """rules/1841.md 2.2.3: a home city taken by a token is no longer free; the kept answer
    changes with the board (not a stale one)."""
    game = Game.create("1841", [(n, f"P{n}") for n in range(1, 4)], [], 1)
    engine = game.engine
    assert isinstance(engine, Game1841)
    corp = next(c for c in engine.corporations if not engine.specs[c.sym].historical)
    assert isinstance(corp, Corporation)
    before = start.has_home_city(engine, corp)
    assert before == start.home_city_exists(engine, corp)
    board = engine.map.board
    taken = []
    for hid in start.home_hexes(engine, corp):
        for index in range(len(board.hexes[hid].cities)):
            while board.can_place_token(hid, index, corp.sym):
                other = next(
                    c.sym for c in engine.corporations if not board.hexes[hid].has_token(c.sym)
                )
                board.place_token_at(hid, index, other)
                taken.append(other)
    assert taken
    assert start.has_home_city(engine, corp) is False
    assert start.home_city_exists(engine, corp) is False


@pytest.mark.parametrize(
    "variant", [(), ("first_edition",), ("short_game",), ("first_edition", "short_game")]
)
def test_concession_lookups_are_the_charters(variant: tuple[str, ...]) -> None:
    """rules/1841.md 1.2: each historical corporation starts by its concession, the charter's
    number; the data's lookups (asked after every stock action) answer what a search of the
    charters and concessions answers, in every data variant."""
    data = title_data(variant)
    for spec in data.corporations:
        searched = next((c for c in data.companies if c.number == spec.concession), None)
        assert data.concession_for(spec.sym) == searched, spec.sym
    for company in data.companies:
        assert data.company_by_sym(company.sym) is company
        starts = tuple(s.sym for s in data.corporations if s.concession == company.number)
        assert data.started_by(company.sym) == starts, company.sym
    assert data.company_by_sym("no such concession") is None
    assert data.started_by("no such concession") == ()
