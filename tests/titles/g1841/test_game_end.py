"""1841's game end and final score (rules/1841.md 1.4; seed 000 item 2.27; seed 003 H4)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from stellwerk.api import Game
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.rounds import StockRound
from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.titles.g1841 import game_end
from stellwerk.titles.g1841.game import Game1841

sys.path.insert(0, str(Path(__file__).parent))
from setup_helpers import new_game, operating, players, start
from trace_state import FIXTURES, apply_state, fixture, live_actions, load_json, read_trace
from trace_state import trace_path as trace_of


def reach_516(game: Game1841) -> None:
    """SFTG's marker onto the L.516 cell (the end-game trigger, rules/1841.md 1.2)."""
    p1, _, _ = players(game)
    corp = start(game, "SFTG", "340,0,14", p1)
    for _ in range(4):
        game.move_price(corp, "right")
    game.phases.index = len(game.phases.all) - 1  # phase 8: the "n" cells do not cap
    while corp.share_price is not None and corp.share_price.price < 516:
        game.move_price(corp, "right")
    assert game.market.end_reached


@pytest.mark.skipif(not FIXTURES.exists(), reason="../shared fixtures absent")
@pytest.mark.parametrize(
    "name", ["1841_game_end_bank", "1841_game_end_bankrupt", "1841_game_end_offboards"]
)
def test_final_score_of_the_three_games(name: str) -> None:
    """rules/1841.md 1.4 "Final score": cash + certificates at market price times their
    shares + concessions - loans, from each game's final state, equals its ``result``."""
    path = fixture(name)
    data = load_json(path)
    lines = read_trace(trace_of(path))
    final = next(s for s in reversed(lines) if isinstance(s.get("action_id"), int))
    players_ = [(p["id"], p["name"]) for p in data["players"]]
    game = Game1841(players_, list(data["settings"].get("optional_rules") or []), 1)
    apply_state(game, final, live_actions(path), 10**9)
    assert game.result() == {k: int(v) for k, v in data["result"].items()}


def test_score_counts_share_units_concessions_and_loans() -> None:
    """rules/1841.md 1.4: a minor's 40 % president's certificate counts twice its price, a 20 %
    share once; a major's 20 % twice, 10 % once; corporations not started nothing;
    concessions L.50; each bankruptcy loan (L.500, 2.6) is subtracted."""
    game = new_game(3)
    p1, p2, _ = players(game)
    for player in (p1, p2):
        player.cash = 0
    start(game, "SFMA", "100,3,5", p1, {p1: 20})
    start(game, "SFTG", "68,4,2", p2, {p1: 10})
    game.company("Bayard").owner = p2
    p2.companies.append(game.company("Bayard"))
    assert game.player_value(p1) == 2 * 100 + 100 + 68
    assert game.player_value(p2) == 2 * 68 + 50
    bank = game.bank.cash
    game_end.take_bankruptcy_loan(game, p2)
    assert p2.cash == 500 and game.bank.cash == bank - 500
    assert game.player_value(p2) == 2 * 68 + 50


@pytest.mark.parametrize("worthless", [False, True])
def test_shares_of_a_closed_corporation_count_at_68_as_18xx_games_or_nothing(
    worthless: bool,
) -> None:
    """A corporation closed while players hold its shares (a corporation's bankruptcy closes
    the ones it presides): 18xx.games counts each share unit at the lowest par price, L.68
    (its defect K, random game version_1 3 players seed 41002: 1002's SSFL 10 % and 1003's
    SFL 20 % of a first-edition minor count L.68 each); with ``closed_shares_worthless`` they
    count nothing (rules/1841.md 1.4: certificates at their market price)."""
    game = new_game(3, ["closed_shares_worthless"] if worthless else [])
    p1, p2, _ = players(game)
    p1.cash = p2.cash = 0
    sftg = start(game, "SFTG", "100,3,5", p2, {p1: 10})
    assert game.player_value(p1) == 100
    sftg.closed = True
    sftg.share_price = None
    assert game.player_value(p1) == (0 if worthless else 68)
    assert game.player_value(p2) == (0 if worthless else 2 * 68)


def test_bankruptcy_of_all_but_one_ends_at_once() -> None:
    """rules/1841.md 1.4: the game ends immediately when all players but one are bankrupt;
    one bankrupt of three does not end it."""
    game = new_game(3)
    p1, p2, _ = players(game)
    p1.bankrupt = True
    assert game.check_game_end() == (None, None)
    p2.bankrupt = True
    assert game.check_game_end() == ("bankrupt", "immediate")


def test_bank_broken_ends_after_the_operating_round() -> None:
    """rules/1841.md 1.4: a broken bank ends the game at the end of the current operating
    round, not at the end of an operating turn."""
    game = new_game(3)
    p1, _, _ = players(game)
    start(game, "SFTG", "100,3,5", p1)
    operating(game)
    game.bank.cash = -1
    assert game.check_game_end() == ("bank", "current_or")
    assert not game_end.after_operating_turn(game) and not game.finished
    assert game.end_now("current_or")


def test_faq_2_27_top_price_ends_after_the_turn_even_with_a_broken_bank() -> None:
    """seed 000 item 2.27, rules/1841.md 1.4: with the bank already broken, a price reaching
    L.516 ends the game at the end of the current operating turn (18xx.games; the FAQ says
    at once); a stock round in which it happens ends the game with it."""
    game = new_game(3)
    game.bank.cash = -1
    game.check_game_end()
    reach_516(game)
    operating(game)
    assert game.check_game_end() == ("stock_market", "current_turn")
    assert game_end.after_operating_turn(game) and game.finished
    assert game.game_end_reason == "stock_market"
    game = new_game(3)
    game.round = StockRound(game, [])
    assert game.end_now("current_turn")


def test_seed_000_item_2_27_option_top_price_ends_at_once_even_with_a_broken_bank() -> None:
    """seed 000 item 2.27 (``end_at_once_top_or_offboards``): "Auch wenn die Bank bereits
    kein Geld mehr hat, endet das Spiel sofort, wenn ein Aktienkursmarker L. 516 erreicht":
    the price's trigger is immediate and outranks the broken bank's end of the operating
    round; the option excludes seed 003 H4 (and so the zugzwang preset)."""
    game = new_game(3, ["end_at_once_top_or_offboards"])
    game.bank.cash = -1
    assert game.check_game_end() == ("bank", "current_or")
    reach_516(game)
    operating(game)
    assert game.check_game_end() == ("stock_market", "immediate")
    for other in (["end_finish_current_or"], ["zugzwang"]):
        with pytest.raises(IllegalAction, match="exclude"):
            new_game(3, ["end_at_once_top_or_offboards", *other])


@pytest.mark.skipif(not FIXTURES.exists(), reason="../shared fixtures absent")
def test_seed_000_item_2_27_option_last_offboard_ends_the_game_at_the_tile_lay() -> None:
    """seed 000 item 2.27 (``end_at_once_top_or_offboards``) in 1841_game_end_offboards:
    ATFA's tile lay (action 679) connects the last off-board group; 18xx.games plays ATFA's
    turn to its end (the game ends after action 686), with the option the game ends right
    after the tile lay, and nothing of the turn after it is accepted."""
    game_file = load_game_file(read_game_file(fixture("1841_game_end_offboards")))
    ends: dict[bool, int] = {}
    for at_once in (False, True):
        options = [*game_file.optional_rules]
        if at_once:
            options.append("end_at_once_top_or_offboards")
        game = Game.create(game_file.title, game_file.players, options, game_file.seed)
        live = iter(game_file.live)
        for action in live:
            game.process(action, replay=True)
            if game.finished:
                ends[at_once] = int(action["id"])
                break
        assert game.finished and game.engine.game_end_reason == "offboards"
        following = next(live, None)
        if following is not None:
            with pytest.raises(IllegalAction):
                game.process(following, replay=True)
    assert ends == {False: 686, True: 679}


def test_seed_003_h4_current_or_is_played_to_its_end() -> None:
    """seed 003 H4 (``end_finish_current_or``): after L.516 or the last off-board group the
    current operating round is played to its end."""
    game = new_game(3, ["end_finish_current_or"])
    reach_516(game)
    operating(game)
    assert game.check_game_end() == ("stock_market", "current_or")
    assert not game_end.after_operating_turn(game) and not game.finished
    assert game.end_now("current_or")


def test_all_offboard_groups_connected_end_the_game() -> None:
    """rules/1841.md 1.4: the game ends (end of the operating turn) once every off-board
    group has a hex some corporation's track reached (the ``destination_connection``
    records); one hex of a group is enough."""
    game = new_game(3, ["lite"])
    operating(game)
    groups = list(game.data.offboard_groups.values())
    for members in groups[:-1]:
        game_end.record_offboards(game, [members[-1]])
    assert game.check_game_end() == (None, None)
    game_end.record_offboards(game, [groups[-1][0], "F8"])
    assert "F8" not in game.offboards_connected
    assert game.check_game_end() == ("offboards", "current_turn")
    assert game_end.after_operating_turn(game) and game.game_end_reason == "offboards"
