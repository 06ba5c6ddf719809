"""Two cities that become one on an upgrade keep a reserved slot free (common rules §6.3,
§6.4): 1841 first edition reserves Firenze's second city (R14) for SFMA's home; when R14 is
upgraded to 622, whose one city has both slots, the token of the first city and SFMA's
reservation each keep a slot, so no third corporation may take SFMA's (18xx.games plays it
so: our selfplay game of the first edition with player trades, 7 players, seed 31025, action
651)."""

from __future__ import annotations

from stellwerk.core.map.state import CityState
from stellwerk.titles.g1841.game import Game1841


def test_a_reservation_on_a_tokened_slot_moves_to_a_free_one() -> None:
    city = CityState(["CFCC", None], ["SFMA"])
    city.settle_reservations()
    assert city.reservations == [None, "SFMA"]
    assert city.get_slot("SSFL") is None and city.get_slot("SFMA") == 1


def test_a_reservation_stays_where_its_slot_is_free_or_its_own() -> None:
    city = CityState([None, "CFCC"], ["SFMA"])
    city.settle_reservations()
    assert city.reservations == ["SFMA"]
    full = CityState(["CFCC"], ["SFMA"])
    full.settle_reservations()
    assert full.reservations == ["SFMA"]  # no free slot: nothing to move to


def test_firenze_upgraded_keeps_sfmas_slot() -> None:
    game = Game1841([(1, "a"), (2, "b"), (3, "c")], ["version_1"], 1)
    board = game.map.board
    firenze = board.hex("R14")
    reserved = [i for i, c in enumerate(firenze.cities) if "SFMA" in c.reservations]
    assert reserved, "the first edition reserves a Firenze city for SFMA"
    free = next(i for i in range(len(firenze.cities)) if i not in reserved)
    board.place_token_at("R14", free, "CFCC")
    board.lay_tile("R14", next(t for t in board.supply if t.startswith("622-")), 4)
    [city] = board.hex("R14").cities
    assert city.tokens.count("CFCC") == 1 and "SFMA" in city.reservations
    assert not board.can_place_token("R14", 0, "SSFL")
    assert board.can_place_token("R14", 0, "SFMA")
