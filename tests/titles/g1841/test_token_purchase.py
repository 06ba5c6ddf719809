"""Token acquisition and token placement (rules/1841.md 2.3.4, 2.5; seed 000 items 1.12,
2.18, 2.19, 5.4, 5.5; seed 003 H14) on the real map, positions built with core functions and
the operating round's BuyToken and Token steps."""

from __future__ import annotations

import pytest

from stellwerk.core import moves
from stellwerk.core.entities import Corporation
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.titles.g1841 import tokens
from stellwerk.titles.g1841.decisions import Decisions
from stellwerk.titles.g1841.game import Game1841
from stellwerk.titles.g1841.operating import (
    BuyToken,
    Dividend,
    Route1841,
    Token1841,
    new_operating_round,
)

from .setup_helpers import new_game, start

# Alessandria (J6, green two-slot 14) - I7 - the pass K7 - Genova (M7, green 612): SFTG's
# home J6 reaches Genova once the Piedmont-Genoa borders are gone (phase 4).
PIEDMONT = [("J6", "14-0", 0), ("I7", "7-0", 0), ("K7", "613-0", 0), ("M7", "612-0", 0)]


def set_phase(game: Game1841, name: str) -> None:
    game.phases.index = next(i for i, p in enumerate(game.phases.all) if p.name == name)
    game.map.set_phase(name)


def position(phase: str = "4") -> tuple[Game1841, Corporation, Corporation]:
    """SFTG (homes Torino H4 and J6, one token left to place, L.300) and AFI (tokens in
    Genova M7, E9 and beside SFTG in J6, L.100), both with a player president."""
    game = new_game()
    p1, p2, _ = game.players
    set_phase(game, phase)
    sftg = start(game, "SFTG", "100,3,5", p1, cash=300)
    afi = start(game, "AFI", "100,3,5", p2, cash=100)
    board = game.map.board
    for hid, tile, rotation in PIEDMONT:
        board.lay_tile(hid, tile, rotation)
    for hid in ("M7", "E9", "J6"):
        board.place_token_at(hid, 0, "AFI")
    sftg.num_tokens, afi.num_tokens = 3, 3
    game.map.clear_graphs()
    return game, sftg, afi


def turn_at(game: Game1841, corp: Corporation, step_class: type) -> object:
    """An operating round with ``corp`` at the step ``step_class``."""
    rnd = OperatingRound(game, [Decisions, step_class], 1)
    rnd.entity_index = rnd.entities.index(corp)
    rnd.current_operator = corp
    game.round = rnd
    return rnd.step_of(step_class)


def buy(corp: Corporation, city: str, price: int, slot: int = 0) -> moves.BuyToken:
    return moves.BuyToken(
        entity=corp.sym, entity_type="corporation", city=city, slot=slot, price=price
    )


def state(game: Game1841) -> tuple[object, ...]:
    board = game.map.board
    return (
        {hid: [list(c.tokens) for c in s.cities] for hid, s in board.hexes.items() if s.cities},
        [(c.sym, c.cash, c.num_tokens) for c in game.corporations],
        game.bank.cash,
    )


def lift(game: Game1841, hid: str, sym: str) -> None:
    """Take ``sym``'s token off the first city of ``hid``."""
    board = game.map.board
    board.remove_token(board.city_id(hid, 0), board.hexes[hid].cities[0].tokens.index(sym))


def genova(game: Game1841) -> str:
    return game.map.board.city_id("M7", 0)


def test_seed_000_item_1_12_only_the_right_to_place_a_token_is_bought() -> None:
    """seed 000 item 1.12, rules/1841.md 2.5: the buyer pays the seller any price from L.1,
    puts one of its unplaced tokens in the seller's place, and the seller's token goes back
    to its charter (it has one more to place; no token is created or lost)."""
    game, sftg, afi = position()
    step = turn_at(game, sftg, BuyToken)
    assert isinstance(step, BuyToken)
    assert (genova(game), 0) in tokens.buy_choices(game, sftg)
    before = (game.map.unplaced_tokens(sftg), game.map.unplaced_tokens(afi), sftg.cash, afi.cash)
    step.process(buy(sftg, genova(game), 40), sftg)
    assert game.map.board.hexes["M7"].cities[0].tokens == ["SFTG"]
    assert (game.map.unplaced_tokens(sftg), game.map.unplaced_tokens(afi)) == (
        before[0] - 1,
        before[1] + 1,
    )
    assert (sftg.cash, afi.cash) == (before[2] - 40, before[3] + 40)
    assert (sftg.num_tokens, afi.num_tokens) == (3, 3)


def test_seed_000_item_1_12_a_buyer_without_an_unplaced_token_is_refused() -> None:
    """seed 000 item 1.12: the buyer needs an unplaced token; with all its tokens on the map
    the step offers nothing and a purchase is refused naming rule 2.5, nothing changed."""
    game, sftg, _ = position()
    sftg.num_tokens = 2
    step = turn_at(game, sftg, BuyToken)
    assert isinstance(step, BuyToken)
    assert step.actions(sftg) == [] and tokens.buy_choices(game, sftg) == []
    before = state(game)
    with pytest.raises(IllegalAction) as refused:
        tokens.buy(game, sftg, buy(sftg, genova(game), 40))
    assert "2.5" in refused.value.rule
    assert state(game) == before


def test_seed_000_item_2_18_no_second_token_of_the_buyer_in_a_hex() -> None:
    """seed 000 item 2.18: token acquisition cannot give a corporation two tokens in one
    hex: AFI's token beside SFTG's home in Alessandria (J6) is not for sale to SFTG."""
    game, sftg, _ = position()
    alessandria = game.map.board.city_id("J6", 0)
    assert (alessandria, 1) not in tokens.buy_choices(game, sftg)
    step = turn_at(game, sftg, BuyToken)
    assert isinstance(step, BuyToken)
    before = state(game)
    with pytest.raises(IllegalAction) as refused:
        step.process(buy(sftg, alessandria, 10, slot=1), sftg)
    assert "2.5" in refused.value.rule
    assert state(game) == before


def test_seed_000_item_2_19_the_seller_keeps_a_token_that_is_not_on_a_pass() -> None:
    """seed 000 item 2.19: a corporation may not be left with tokens on passes only.  With
    AFI's other token on the pass L8 alone, its Genova token is not for sale; a token in
    another city makes it buyable again."""
    game, sftg, afi = position()
    board = game.map.board
    lift(game, "E9", "AFI")
    lift(game, "J6", "AFI")
    board.place_token_at("L8", 0, "AFI")
    game.map.clear_graphs()
    assert tokens.buy_choices(game, sftg) == []
    before = state(game)
    with pytest.raises(IllegalAction, match="cannot be bought"):
        tokens.buy(game, sftg, buy(sftg, genova(game), 10))
    assert state(game) == before
    board.place_token_at("E9", 0, "AFI")
    game.map.clear_graphs()
    assert (genova(game), 0) in tokens.buy_choices(game, sftg)
    assert afi.sym in board.hexes["M7"].cities[0].tokens


def test_seed_000_item_5_5_token_acquisition_is_a_step_of_every_turn() -> None:
    """seed 000 item 5.5 ("rule 4.4 is often overlooked"), rules/1841.md 2.5: the operating
    round has the BuyToken step, which offers the purchase at one price from L.1 to the
    buyer's cash, once per turn."""
    game, sftg, _ = position()
    step = turn_at(game, sftg, BuyToken)
    assert isinstance(step, BuyToken)
    assert step.actions(sftg) == ["buy_token", "pass"]
    offered = [a for a in step.choices(sftg) if a["type"] == "buy_token"]
    assert {a["price"] for a in offered if a["city"] == genova(game)} == {1, 300}
    assert step.price_space(sftg, offered[0]) == (1, 300)
    step.process(buy(sftg, genova(game), 1), sftg)
    with pytest.raises(IllegalAction, match="one token purchase per turn"):
        step.process(buy(sftg, genova(game), 1), sftg)


def test_seed_003_h14_token_trading_after_running_over_an_unblocked_network() -> None:
    """seed 003 H14, rules/1841.md 2.3.2, 2.5: token trading comes after the run and the
    dividend; the buyer must reach the token over a network not blocked by tokens: a third
    corporation's token on the one-slot pass K7 cuts SFTG off from Genova."""
    game, sftg, _ = position()
    steps = [type(s) for s in new_operating_round(game, 1).steps]
    assert steps.index(Route1841) < steps.index(Dividend) < steps.index(BuyToken)
    assert (genova(game), 0) in tokens.buy_choices(game, sftg)
    start(game, "ATFA", "100,3,5", game.players[2])
    game.map.board.place_token_at("K7", 0, "ATFA")
    game.map.clear_graphs()
    assert (genova(game), 0) not in tokens.buy_choices(game, sftg)
    with pytest.raises(IllegalAction, match="cannot be bought"):
        tokens.buy(game, sftg, buy(sftg, genova(game), 10))


def test_seed_000_item_5_4_no_token_beyond_a_border_in_force() -> None:
    """seed 000 item 5.4, rules/1841.md 2.3.4: tokens are placed on the region graph, never
    beyond a political border in force.  Before phase 4 the Piedmont-Genoa border at I7
    keeps SFTG from tokening Genova though its track runs there; from phase 4 it may."""
    for phase, allowed in (("3", False), ("4", True)):
        game, sftg, afi = position(phase)
        board = game.map.board
        lift(game, "M7", "AFI")
        afi.num_tokens = 2
        game.map.clear_graphs()
        step = turn_at(game, sftg, Token1841)
        assert isinstance(step, Token1841)
        offered = (genova(game), 0) in tokens.choices(game, sftg)
        assert offered is allowed, phase
        action = {"type": "place_token", "entity": sftg.sym, "city": genova(game), "slot": 0}
        if allowed:
            step.process(action, sftg)
            assert board.hexes["M7"].cities[0].tokens == ["SFTG"]
            continue
        before = state(game)
        with pytest.raises(IllegalAction) as refused:
            step.process(action, sftg)
        assert "2.3.4" in refused.value.rule
        assert state(game) == before
