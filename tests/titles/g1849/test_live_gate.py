"""Strict live play in 1849 (issue 12, item 1): an action is accepted live only when
``legal_actions()`` lists it or it lies in the space a listed action describes; a refusal
names the rule and changes nothing (state and game file byte-identical)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from stellwerk.api import Game
from stellwerk.core.errors import IllegalAction

PLAYERS = [(1, "A"), (2, "B"), (3, "C")]


def new_game() -> Game:
    return Game.create("1849", PLAYERS, [], 27939)


def to_stock_round() -> Game:
    """Buy the cheapest private each turn, par SFA with RSA: player 3 then acts in SR 1
    (at 100, so an SFA certificate costs 100)."""
    game = new_game()
    while "Stock" not in type(game.engine.round).__name__:
        legal = game.legal_actions()
        bids = [a for a in legal if a["type"] == "bid"]
        if bids:
            game.process(min(bids, key=lambda a: a["price"]))
        else:
            game.process(next(a for a in legal if a.get("share_price") == "100,3,5"))
    assert game.active_entities() == [3]
    return game


def assert_refused(game: Game, action: dict[str, Any], rule: str, words: str = "") -> str:
    """The action is refused naming ``rule``; state and file are exactly as before."""
    state = json.dumps(game.snapshot(), sort_keys=True)
    record = json.dumps(game.to_file(), sort_keys=True)
    with pytest.raises(IllegalAction) as error:
        game.process(action)
    assert rule in error.value.rule, error.value
    assert words in error.value.reason, error.value
    assert json.dumps(game.snapshot(), sort_keys=True) == state
    assert json.dumps(game.to_file(), sort_keys=True) == record
    return error.value.reason


def bid(player: int, company: str, price: Any) -> dict[str, Any]:
    return {"type": "bid", "entity": player, "entity_type": "player", "company": company,
            "price": price}  # fmt: skip


@pytest.mark.parametrize("price", [0, -100, 15, 25, 1000])
def test_cheapest_private_is_bought_at_its_price_only(price: int) -> None:
    """1849 rules §1.5: the cheapest private is bought at its current price (SCE: 20); a bid
    of 0 or -100 took it for nothing before the live gate."""
    game = new_game()
    assert_refused(game, bid(1, "SCE", price), "1849 rules §1.5", "is 20")


@pytest.mark.parametrize("price", [45, 49, 0, -100, 501, 10_000])
def test_bid_on_another_private_lies_between_minimum_and_cash(price: int) -> None:
    """1849 rules §1.5: a bid on a private that is not the cheapest is at least face value
    + 5 (SIGI: 50) and at most the bidder's free cash (500)."""
    game = new_game()
    assert_refused(game, bid(1, "SIGI", price), "1849 rules §1.5", "at least the minimum 50")


@pytest.mark.parametrize("price", [50, 53, 500])
def test_any_bid_in_the_space_is_accepted(price: int) -> None:
    """1849 rules §1.5: increments of any size ≥ 5 are allowed, up to the bidder's cash."""
    game = new_game()
    game.process(bid(1, "SIGI", price))
    assert game.actions[-1]["price"] == price


def test_open_bids_are_committed() -> None:
    """1849 rules §1.5: a new bid may not exceed cash less the player's other open bids."""
    game = new_game()
    game.process(bid(1, "RSA", 400))
    game.process({"type": "pass", "entity": 2, "entity_type": "player"})
    game.process({"type": "pass", "entity": 3, "entity_type": "player"})
    assert_refused(game, bid(1, "SIGI", 101), "1849 rules §1.5", "at most 100")
    game.process(bid(1, "SIGI", 100))


def test_only_the_acting_player_may_bid() -> None:
    """Common rules §6: player 2 may not act in player 1's turn."""
    assert_refused(new_game(), bid(2, "SIGI", 50), "common rules §6")


def test_two_certificates_in_one_stock_turn_are_refused() -> None:
    """1849 rules §2.2: one certificate per turn (after a par the president's extra buys
    are separate actions)."""
    game = to_stock_round()
    two = {"type": "buy_shares", "entity": 3, "entity_type": "player",
           "shares": ["SFA_1", "SFA_2"], "percent": 20}  # fmt: skip
    assert_refused(game, two, "1849 rules §2.2")
    doubled = dict(two, shares=["SFA_1", "SFA_1"], percent=20)
    assert_refused(game, doubled, "1849 rules §2.2")


def test_a_second_purchase_in_the_same_turn_is_refused() -> None:
    """1849 rules §2.2 / common rules §6.6: after one purchase only selling or passing."""
    game = to_stock_round()
    one = {"type": "buy_shares", "entity": 3, "entity_type": "player", "shares": ["SFA_1"],
           "percent": 10}  # fmt: skip
    game.process(one)
    assert_refused(game, dict(one, shares=["SFA_2"]), "common rules §6")


@pytest.mark.parametrize("percent", [5, 20, 0, -10, 10.0])
def test_percent_must_be_the_certificate_size(percent: Any) -> None:
    """1849 rules §2.2: a 10 % certificate is 10 %; "percent": 5 paid half before."""
    game = to_stock_round()
    action = {"type": "buy_shares", "entity": 3, "entity_type": "player", "shares": ["SFA_1"],
              "percent": percent}  # fmt: skip
    assert_refused(game, action, "1849 rules §2.2")


def test_an_equal_certificate_of_the_same_owner_is_interchangeable() -> None:
    """The rules do not tell equal certificates apart: SFA_3 from the IPO is as good as the
    listed SFA_1; left out, the percent is the certificate's size."""
    game = to_stock_round()
    cash = game.engine.player_by_id(3).cash
    game.process({"type": "buy_shares", "entity": 3, "entity_type": "player", "shares": ["SFA_3"]})
    assert game.engine.player_by_id(3).cash == cash - 100


def test_par_price_must_be_offered() -> None:
    """1849 rules §2.2: par only at the listed par prices."""
    game = to_stock_round()
    action = {"type": "par", "entity": 3, "entity_type": "player", "corporation": "IFT",
              "share_price": "90,3,4"}  # fmt: skip
    assert_refused(game, action, "1849 rules §2.2")


def test_unknown_fields_with_a_value_are_refused() -> None:
    """Live play stores no field it does not understand: 18xx.games reads ``exchange`` of a
    train purchase and ``share_price`` of a share purchase."""
    game = to_stock_round()
    action = {"type": "buy_shares", "entity": 3, "entity_type": "player", "shares": ["SFA_1"],
              "percent": 10, "share_price": 1}  # fmt: skip
    assert_refused(game, action, "1849 rules §2.2", "share_price")
    game.process(dict(action, share_price=None, user=2, created_at=5))
    assert game.to_file()["actions"][-1]["user"] == 2


def test_an_id_below_the_next_is_refused() -> None:
    """Common rules §3.2: ids ascend; a stale id would make the file unloadable."""
    game = new_game()
    game.process(bid(1, "SIGI", 50))
    assert_refused(game, dict(bid(2, "CNM", 80), id=1), "common rules §3.2")


def test_site_actions_are_checked_and_kept() -> None:
    """Common rules §3.3/3.5: messages, log lines and standing orders come from players,
    carry their fields, change nothing and are written back in order."""
    game = new_game()
    state = json.dumps(game.snapshot(), sort_keys=True)
    assert_refused(game, {"type": "message", "entity": 1, "entity_type": "player"}, "§3.3")
    assert_refused(game, {"type": "message", "entity": "SFA", "entity_type": "corporation",
                          "message": "hi"}, "§3.5")  # fmt: skip
    assert_refused(game, {"type": "program_buy_shares", "entity": 2, "entity_type": "player",
                          "corporation": "SFA"}, "§3.3", "until_condition")  # fmt: skip
    assert_refused(game, {"type": "program_auction_bid", "entity": 2, "entity_type": "player"},
                   "§3.5")  # fmt: skip
    assert_refused(game, {"type": "message", "entity": 9, "entity_type": "player",
                          "message": "hi"}, "§2.4")  # fmt: skip
    game.process({"type": "message", "entity": 2, "entity_type": "player", "message": "hi"})
    game.process({"type": "log", "entity": 3, "entity_type": "player", "message": "note"})
    game.process({"type": "program_share_pass", "entity": 2, "entity_type": "player",
                  "unconditional": False, "indefinite": False})  # fmt: skip
    game.process({"type": "program_buy_shares", "entity": 2, "entity_type": "player",
                  "corporation": "SFA", "until_condition": 3, "from_market": False,
                  "auto_pass_after": False})  # fmt: skip
    assert json.dumps(game.snapshot(), sort_keys=True) == state
    types = [a["type"] for a in game.to_file()["actions"]]
    assert types == ["message", "log", "program_share_pass", "program_buy_shares"]
    assert [a["id"] for a in game.to_file()["actions"]] == [1, 2, 3, 4]


def test_end_game_ends_the_game_by_hand() -> None:
    """Common rules §4.2: ``end_game`` ends the game (manually_ended); then only chat."""
    game = new_game()
    game.process({"type": "end_game", "entity": 1, "entity_type": "player"})
    assert game.finished and game.game_end_reason == "manually_ended"
    assert_refused(game, {"type": "pass", "entity": 1, "entity_type": "player"}, "§4.2")
    game.process({"type": "message", "entity": 1, "entity_type": "player", "message": "gg"})


def test_undo_and_redo_are_recorded_and_resolved() -> None:
    """Common rules §3.4: undo and redo are appended to the record; the state follows the
    live actions; a redo with nothing to redo is refused."""
    game = new_game()
    start = json.dumps(game.snapshot(), sort_keys=True)
    assert_refused(game, {"type": "redo", "entity": 1, "entity_type": "player"}, "§3.4")
    game.process(bid(1, "SIGI", 50))
    after_bid = json.dumps(game.snapshot(), sort_keys=True)
    game.process({"type": "message", "entity": 3, "entity_type": "player", "message": "oops"})
    game.process({"type": "undo", "entity": 1, "entity_type": "player"})
    assert json.dumps(game.snapshot(), sort_keys=True) == start
    assert [a["type"] for a in game.actions] == ["message"]
    game.process({"type": "redo", "entity": 1, "entity_type": "player"})
    assert json.dumps(game.snapshot(), sort_keys=True) == after_bid
    types = [a["type"] for a in game.to_file()["actions"]]
    assert types == ["bid", "message", "undo", "redo"]
    reloaded = Game.from_file(game.to_file())
    assert json.dumps(reloaded.snapshot(), sort_keys=True) == after_bid
