"""The answers 1841 keeps (``titles/g1841/kept.py``: free home cities and token prices,
rules/1841.md 2.2.3; the token order, 2.3.3) live on each game, never in a process-wide table:
games of different variants played in one process (the web server, the game master) never
see each other's answers, and a copy of a game starts with nothing kept."""

from __future__ import annotations

import copy
import pickle
import random

from stellwerk.api import Game
from stellwerk.core.entities import Corporation
from stellwerk.selfplay import apply, choose_action, lay_picker, offered
from stellwerk.titles.g1841 import start, token_order
from stellwerk.titles.g1841.game import Game1841

VARIANTS: tuple[tuple[str, ...], ...] = ((), ("lite",), ("version_1",))
"""The second edition, 1841lite and the first edition: three maps and charters."""


def _engine(game: Game) -> Game1841:
    engine = game.engine
    assert isinstance(engine, Game1841)
    return engine


def _check_kept(engine: Game1841) -> int:
    """Every kept answer of ``engine`` is the answer computed afresh on its own board; the
    number of answers compared."""
    compared = 0
    for corp in engine.corporations:
        assert isinstance(corp, Corporation)
        if engine.specs[corp.sym].historical:
            continue
        assert start.has_home_city(engine, corp) == start.home_city_exists(engine, corp)
        for hid in [*start.home_hexes(engine, corp), *engine.map.board.token_hexes(corp.sym)]:
            assert start.hex_price(engine, hid) == start.search_price(engine, hid), hid
            compared += 1
        compared += 1
    assert token_order.updated(engine) == token_order._updated(engine)
    return compared


def _one_action(game: Game, rng: random.Random, played: int) -> bool:
    """Play one random legal action (the selfplay driver's choice); False if none is left."""
    if game.finished:
        return False
    legal = offered(game, played)
    lay = lay_picker(game, rng, played)
    if not legal and lay is not None and (found := lay()) is not None:
        legal = [found]
    if not legal:
        return False
    apply(game, choose_action(legal, rng, lay), played)
    return True


def test_two_variants_in_one_process_keep_their_own_answers() -> None:
    """rules/1841.md 2.2.3, 2.3.3 (issue 8 item 1): three games of different variants played
    in turns, one action each, in one process; after every action every game's kept answers
    are those found afresh on its own board, and no two games share what they keep."""
    rng = random.Random(41)
    games = [
        Game.create("1841", [(n, f"P{n}") for n in range(1, 5)], list(options), 424)
        for options in VARIANTS
    ]
    engines = [_engine(g) for g in games]
    for attr in ("home_city_kept", "hex_price_kept", "token_order_kept"):
        assert len({id(getattr(e, attr)) for e in engines}) == len(engines), attr
    compared = 0
    moving = list(range(len(games)))
    played = 0
    while moving and played < 120:
        for index in list(moving):
            if not _one_action(games[index], rng, played):
                moving.remove(index)
            for engine in (_engine(g) for g in games):
                compared += _check_kept(engine)
        played += 1
    assert played == 120 and compared > 0
    # the games went different ways on different maps: their kept answers differ
    kept = [e.hex_price_kept.answers for e in (_engine(g) for g in games)]
    assert kept[0] != kept[1] or kept[0] != kept[2]


def test_a_copy_of_the_game_starts_with_nothing_kept() -> None:
    """Kept answers are not state (``titles/g1841/kept.py``): a checkpoint's pickle and a deep
    copy of the game start empty and find the same answers again (rules/1841.md 2.2.3)."""
    game = Game.create("1841", [(n, f"P{n}") for n in range(1, 4)], ["lite"], 7)
    engine = _engine(game)
    corp = next(c for c in engine.corporations if not engine.specs[c.sym].historical)
    assert isinstance(corp, Corporation)
    answer = start.has_home_city(engine, corp)
    assert engine.home_city_kept.answers == {corp.sym: answer}
    for other in (copy.deepcopy(engine), pickle.loads(pickle.dumps(engine))):
        assert other.home_city_kept.answers == {}
        assert other.home_city_kept is not engine.home_city_kept
        twin = other.corporation(corp.sym)
        assert isinstance(twin, Corporation)
        assert start.has_home_city(other, twin) == answer
        assert other.home_city_kept.answers == {corp.sym: answer}
