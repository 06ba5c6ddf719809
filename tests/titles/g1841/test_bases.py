"""Which railhead a tile lay uses (rules/1841.md 2.3.3): a base on an upgraded two-city hex,
and the charter order of the tokens that decides which of two bases a new track uses
(:mod:`stellwerk.titles.g1841.token_order`); differences found against 18xx.games' engine."""

from __future__ import annotations

from stellwerk.core.moves import parse
from stellwerk.titles.g1841 import merger, token_order, track
from stellwerk.titles.g1841.game import Game1841

from .setup_helpers import new_game, start


def at_phase(game: Game1841, name: str) -> None:
    game.phases.index = next(i for i, p in enumerate(game.phases.all) if p.name == name)


def test_rules_2_3_3_base_on_torino_follows_its_token_to_the_green_city() -> None:
    """rules/1841.md 2.3.3: SFTN's home is Torino's second city (H4, node 1); green 606 has
    one city, which takes both tokens.  Upgrading its own home hex is a lay from that base:
    it is listed, and the base it uses is SFTN's (the base moves to the new city)."""
    game = new_game()
    sftn = start(game, "SFTN", "100,3,5", game.players[0])
    at_phase(game, "3")
    bases = track.railheads(game, sftn)
    assert bases == [("H4", 1)]
    lays = track.legal_lays(game, sftn, track.TurnLays(), "H4")
    assert [tile for _, tile, _ in lays] == ["606-0"]
    board = game.map.board
    old = board.hexes["H4"].placed
    _, tile, rotation = lays[0]
    with board.trial_lay("H4", tile, rotation):
        assert track.base_used(game, sftn, bases, "H4", old) == ("H4", 1)


def test_rules_2_3_3_charter_order_fills_freed_places_first() -> None:
    """A token placed takes the first free place of the charter: one that left the map (e.g.
    bought by another corporation) is refilled before the end (18xx.games' next token)."""
    assert token_order.placed(["A1", "B2", "C3"], ["A1", "C3", "D4"]) == ["A1", "D4", "C3"]
    assert token_order.placed(["A1"], ["A1", "B2"]) == ["A1", "B2"]
    assert token_order.placed(["A1", "B2"], []) == [None, None]


def test_rules_2_3_3_railheads_in_charter_order_not_board_order() -> None:
    """rules/1841.md 2.3.3: a major's bases are its tokens in the order they were placed;
    a later token on a hex that comes first on the board stays behind the home token, so a
    new track both reach is charged to the home token (18xx.games' railheads order)."""
    game = new_game()
    sftg = start(game, "SFTG", "100,3,5", game.players[0])  # homes H4 and J6
    game.action_processed(parse({"type": "pass", "entity": 0}))
    first = track.railheads(game, sftg)
    assert [hid for hid, _ in first] == ["H4", "J6"]
    game.token_order["SFTG"] = ["J6", "H4"]  # J6 placed first
    assert [hid for hid, _ in track.railheads(game, sftg)] == ["J6", "H4"]
    # a token placed later (not yet in the order) comes after those in it
    game.map.board.place_token_at("E9", 0, "SFTG")
    assert [hid for hid, _ in track.railheads(game, sftg)] == ["J6", "H4", "E9"]
    assert token_order.updated(game)["SFTG"] == ["J6", "H4", "E9"]


def test_rules_2_3_3_first_of_two_reaching_bases_is_used() -> None:
    """rules/1841.md 2.3.3: the base charged for a lay is the first in charter order that
    reaches the new track.  With I5 joining SFTG's homes H4 and J6, a tile on J6 is reached
    from both: it uses H4 when H4 comes first, J6 when J6 does -- which decides whether a
    second lay from J6 is still allowed this turn."""
    game = new_game()
    sftg = start(game, "SFTG", "100,3,5", game.players[0])  # homes H4 and J6
    at_phase(game, "2")
    board = game.map.board
    board.lay_tile("I5", "4-0", 2)
    game.map.clear_graphs()
    old = board.hexes["J6"].placed
    charged = {}
    for order in (["H4", "J6"], ["J6", "H4"]):
        game.token_order["SFTG"] = list(order)
        with board.trial_lay("J6", "5-0", 1):
            used = track.base_used(game, sftg, track.railheads(game, sftg), "J6", old)
        assert used is not None
        charged[order[0]] = used[0]
    assert charged == {"H4": "H4", "J6": "J6"}


def test_faq_1_11_a_port_or_a_pass_never_makes_a_route() -> None:
    """rules/1841.md 2.3.5, FAQ 1.11 (common mistake 5.2): a route needs two stops that are
    neither passes nor ports; Genova (M7) joined only to its port (O7) and a pass (L6) has no
    route, so the route step is skipped and no train must be bought (18xx.games
    ``route:never``, its passes' default).  A second stop on the
    track (Savona, a town) makes one."""
    game = new_game()
    afi = start(game, "AFI", "100,3,5", game.players[0])  # no printed home: Genova
    at_phase(game, "3")
    board = game.map.board
    board.place_token_at("M7", 0, "AFI")
    board.lay_tile("M7", "612-0", 0)
    board.lay_tile("L6", "610-0", 2)  # a pass tile joined to Genova
    game.map.clear_graphs()
    reached = game.map.selected.network("AFI").nodes
    assert ("O7", 0) in reached and ("L6", 0) in reached and game.map.is_pass("L6")
    assert game.route_info(afi) == (False, False)
    board.lay_tile("N6", "4-0", 1)  # Savona, a town, joined to Genova
    game.map.clear_graphs()
    assert game.route_info(afi) == (True, True)


def test_rules_2_3_11_restarted_corporation_forgets_its_routes() -> None:
    """rules/1841.md 2.3.11-2.3.12: a corporation restarted after a merger or transformation
    starts afresh; the graph's kept "a train must be bought" flag of its former life goes
    with it (18xx.games clears the graph for it), so a new start joined only to a port has no
    route."""
    game = new_game()
    afi = start(game, "AFI", "100,3,5", game.players[0])
    at_phase(game, "3")
    game.map.select_graph(game.phases.current.status)  # the full graph, as from phase 3
    board = game.map.board
    board.place_token_at("M7", 0, "AFI")
    board.lay_tile("M7", "612-0", 0)
    board.lay_tile("N6", "4-0", 1)
    game.map.clear_graphs()
    assert game.route_info(afi) == (True, True)
    merger.restart_corporation(game, afi)
    board.reset_hex("N6", return_tile=True)
    afi = start(game, "AFI", "100,3,5", game.players[1])
    board.place_token_at("M7", 0, "AFI")
    game.map.clear_graphs()
    assert game.route_info(afi) == (False, False)
