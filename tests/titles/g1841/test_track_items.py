"""Track on the real map (rules/1841.md 2.3.3; seed 000 items 1.8, 1.9, 1.10, 2.14, 2.15,
2.16, 2.17): which lays are offered from which tokens, and refusals that name the rule and
change nothing.  Positions are built with core functions; lays go through the 1841 Track
step."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from stellwerk.core.entities import Corporation
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.core.moves import LayTile
from stellwerk.titles.g1841 import track
from stellwerk.titles.g1841.decisions import Decisions
from stellwerk.titles.g1841.game import Game1841
from stellwerk.titles.g1841.operating import Track1841

from .setup_helpers import new_game, start


def set_phase(game: Game1841, name: str) -> None:
    game.phases.index = next(i for i, p in enumerate(game.phases.all) if p.name == name)
    game.map.set_phase(name)


def with_corporation(
    sym: str, phase: str, tokens: tuple[str, ...] = (), options: tuple[str, ...] = ()
) -> tuple[Game1841, Corporation, Track1841]:
    """``sym`` started (its printed homes placed, L.500) with extra tokens in ``tokens``
    (first city), at the Track step of an operating round in ``phase``."""
    game = new_game(3, list(options))
    set_phase(game, phase)
    corp = start(game, sym, "100,3,5", game.players[0], cash=500)
    for hid in tokens:
        game.map.board.place_token_at(hid, 0, sym)
    corp.num_tokens = max(corp.num_tokens, len(game.map.board.token_hexes(sym)))
    game.map.clear_graphs()
    rnd = OperatingRound(game, [Decisions, Track1841], 1)
    rnd.entity_index = rnd.entities.index(corp)
    rnd.current_operator = corp
    game.round = rnd
    step = rnd.step_of(Track1841)
    assert isinstance(step, Track1841)
    step.setup()
    return game, corp, step


def lay(corp: Corporation, hex_id: str, tile: str, rotation: int) -> LayTile:
    return LayTile(
        entity=corp.sym, entity_type="corporation", hex=hex_id, tile=tile, rotation=rotation
    )


def board_state(game: Game1841) -> tuple[object, ...]:
    board = game.map.board
    return (
        {hid: (s.placed.tile.name, s.placed.rotation) for hid, s in board.hexes.items()},
        [(c.sym, c.cash) for c in game.corporations],
        game.bank.cash,
    )


def refused(
    game: Game1841,
    step: Track1841,
    corp: Corporation,
    action: dict[str, object],
    match: str | None = None,
) -> str:
    """The refusal's rule (the 1841 track rule or the common tile rule it applies); the
    board, the treasuries and the bank are as before."""
    before = board_state(game)
    with pytest.raises(IllegalAction, match=match) as error:
        step.process(action, corp)
    assert board_state(game) == before
    rule = error.value.rule
    assert "2.3.3" in rule or "common rules §" in rule
    return rule


def offered(game: Game1841, corp: Corporation, hex_id: str | None = None) -> list[tuple]:
    return track.legal_lays(game, corp, track.TurnLays(), hex_id)


# Alessandria (J6) - I7 - the pass K7 - Genova (M7): a line from SFTG's home J6.
ALESSANDRIA = ("J6", "57-0", 1)


def test_seed_000_item_1_8_a_token_on_a_pass_is_no_base_for_track() -> None:
    """seed 000 item 1.8, rules/1841.md 2.3.3: new track must be reached from a city with
    one of the corporation's tokens; a token on a pass does not count.  AFI with a token on
    the pass K7 only has no base and no lay; the lay beside it is refused.  A token in
    Genova (M7) gives it a base and lays."""
    game, afi, _ = with_corporation("AFI", "4", ("K7",))
    assert track.railheads(game, afi) == []
    assert offered(game, afi) == []
    before = board_state(game)
    with pytest.raises(IllegalAction, match="AFI cannot reach I7") as error:
        track.check(game, afi, lay(afi, "I7", "7-0", 0), track.TurnLays())
    assert board_state(game) == before
    assert error.value.rule == track.RULE or "common rules" in error.value.rule
    game, afi, _ = with_corporation("AFI", "4", ("K7", "M7"))
    assert [hid for hid, _ in track.railheads(game, afi)] == ["M7"]
    assert offered(game, afi, "M7")


@pytest.mark.parametrize(("on_pass", "allowed"), [(None, True), ("SFTG", True), ("ATFA", False)])
def test_seed_000_item_1_9_no_connection_through_a_pass_full_of_others_tokens(
    on_pass: str | None, allowed: bool
) -> None:
    """seed 000 item 1.9, rules/1841.md 2.3.3: SFTG's way from its home J6 to Genova (M7)
    runs over the one-slot pass K7.  Free, or holding SFTG's own token, it lets SFTG upgrade
    Genova; full with another corporation's token (ATFA) it does not, and the lay is refused."""
    game, sftg, step = with_corporation("SFTG", "4")
    board = game.map.board
    for hid, tile, rotation in (ALESSANDRIA, ("I7", "7-0", 0), ("K7", "613-0", 0)):
        board.lay_tile(hid, tile, rotation)
    if on_pass == "ATFA":
        start(game, "ATFA", "100,3,5", game.players[1])
    if on_pass is not None:
        board.place_token_at("K7", 0, on_pass)
        sftg.num_tokens += on_pass == "SFTG"
    game.map.clear_graphs()
    genova = [(h, t, r) for h, t, r in offered(game, sftg, "M7")]
    assert bool(genova) is allowed
    if allowed:
        step.process(lay(sftg, *genova[0]), sftg)
        assert board.hexes["M7"].placed.tile.name == genova[0][1].split("-")[0]
    else:
        refused(game, step, sftg, lay(sftg, "M7", "612-0", 0), match="SFTG cannot reach M7")


def lays_of_some_positions() -> Iterator[tuple[Game1841, str, str, int]]:
    """Every lay offered to SSFL (Pisa), AFI in Genova and SFTG in Piedmont, phase 4."""
    for sym, tokens in (("SSFL", ()), ("AFI", ("M7",)), ("SFTG", ())):
        game, corp, _ = with_corporation(sym, "4", tokens)
        for hid, tile, rotation in offered(game, corp):
            yield game, hid, tile, rotation


def test_seed_000_item_1_10_track_leaves_the_map_only_to_ports_and_off_boards() -> None:
    """seed 000 item 1.10, rules/1841.md 1.2 "Map", 2.3.3: no lay offered to SSFL, AFI or
    SFTG has an exit without a neighbour (core ``Board.neighbor``: off the map, across an
    impassable side, or into a sea or off-board hex without track towards it); Genova's
    green 612 turned towards the map edge (edge 4) is refused."""
    count = 0
    for game, hid, tile, rotation in lays_of_some_positions():
        board = game.map.board
        with board.trial_lay(hid, tile, rotation):
            exits = board.hexes[hid].placed.exits
        for edge in exits:
            assert board.neighbor(hid, edge) is not None, (hid, tile, rotation, edge)
        count += 1
    assert count > 50
    game, afi, step = with_corporation("AFI", "3", ("M7",))
    assert game.map.board.neighbor("M7", 4) is None
    assert sorted(offered(game, afi, "M7")) == [("M7", "612-0", 0), ("M7", "612-0", 5)]
    for rotation in (1, 2, 3, 4):
        refused(game, step, afi, lay(afi, "M7", "612-0", rotation), match="off the map")


def test_seed_000_item_2_16_green_genova_in_either_orientation() -> None:
    """seed 000 item 2.16, rules/1841.md 2.3.3: the green Genova tile (612) may be laid in
    either orientation that stays on the map (rotations 0 and 5; on this map both happen to
    reach the port O7, edge 0); each is accepted."""
    for rotation in (0, 5):
        game, afi, step = with_corporation("AFI", "3", ("M7",))
        step.process(lay(afi, "M7", "612-0", rotation), afi)
        placed = game.map.board.hexes["M7"].placed
        assert (placed.tile.name, placed.rotation) == ("612", rotation)


def test_seed_000_item_2_15_yellow_venezia_only_in_the_southern_orientation() -> None:
    """seed 000 item 2.15, rules/1841.md 1.2 "Map", 2.3.3: the yellow Venezia tile (601) is
    laid only in rotation 0; IRSFF at Venezia (F16) is offered that one lay, and every other
    rotation is refused naming the rule."""
    game, irsff, step = with_corporation("IRSFF", "2")
    assert offered(game, irsff, "F16") == [("F16", "601-0", 0)]
    for rotation in range(1, 6):
        rule = refused(game, step, irsff, lay(irsff, "F16", "601-0", rotation), "rotation 0")
        assert rule == track.RULE
    step.process(lay(irsff, "F16", "601-0", 0), irsff)
    assert game.map.board.hexes["F16"].placed.tile.name == "601"


def test_seed_000_item_2_17_the_hex_side_north_of_pisa_is_impassable() -> None:
    """seed 000 item 2.17, rules/1841.md 1.2 "Map": Pisa's (Q11) northern side (edge 3,
    towards O11) is impassable.  No upgrade of Pisa offered to SSFL opens it, and a Pisa
    green tile turned to keep Pisa's sides and open it (15, rotation 3) is refused."""
    game, ssfl, step = with_corporation("SSFL", "3")
    board = game.map.board
    spec = board.hexes["Q11"].spec
    assert spec.neighbors[3] == "O11" and 3 in spec.borders
    assert board.neighbor("Q11", 3) is None
    upgrades = offered(game, ssfl, "Q11")
    assert upgrades
    for hid, tile, rotation in upgrades:
        with board.trial_lay(hid, tile, rotation):
            assert 3 not in board.hexes[hid].placed.exits
    with board.trial_lay("Q11", "15-0", 3):
        assert board.hexes["Q11"].placed.exits == {0, 3, 4, 5}
    refused(game, step, ssfl, lay(ssfl, "Q11", "15-0", 3), match=r"closed edge \(3\)")


@pytest.mark.parametrize(("phase", "allowed"), [("2", False), ("3", True)])
def test_seed_000_item_2_14_in_phase_2_track_never_crosses_a_border(
    phase: str, allowed: bool
) -> None:
    """seed 000 item 2.14, rules/1841.md 2.3.3, 2.4: in phase 2 the path from a token to a
    new tile may not cross a political border: from Alessandria (J6) the hex I7 lies beyond
    the Piedmont border (J6 edge 4 / I7 edge 1) and is not offered, its lay refused; in phase
    3 it is offered and accepted."""
    game, sftg, step = with_corporation("SFTG", phase)
    game.map.board.lay_tile(*ALESSANDRIA)
    game.map.clear_graphs()
    step.setup()
    found = offered(game, sftg, "I7")
    assert bool(found) is allowed
    action = lay(sftg, "I7", "7-0", 0)
    if allowed:
        assert ("I7", "7-0", 0) in found
        step.process(action, sftg)
        assert game.map.board.hexes["I7"].placed.tile.name == "7"
    else:
        refused(game, step, sftg, action, match="SFTG cannot reach I7")


@pytest.mark.parametrize(("phase", "allowed"), [("2", False), ("3", True)])
def test_seed_000_item_2_14_not_even_out_and_back(phase: str, allowed: bool) -> None:
    """seed 000 item 2.14 ("not even out and back"), rules/1841.md 2.3.3, 2.4: track leaves
    Piedmont and comes back.  SFTG's Alessandria (J6) runs east into I7 (Lombardy), which
    turns back across the border into H6 (Piedmont again) and on towards G5.  In phase 2 the
    way to H6 crosses the border twice and counts for nothing: H6 and G5 (both in Piedmont)
    are not reached, no lay at G5 is offered and one is refused; in phase 3 borders no longer
    bound track and G5 is offered and laid.  (18xx.games agrees: its phase-2 region graph
    skips every path with an exit on a province border, so I7's curve is never walked.)"""
    game, sftg, step = with_corporation("SFTG", phase)
    board = game.map.board
    for hid, tile, rotation in (ALESSANDRIA, ("I7", "7-0", 1), ("H6", "9-0", 2)):
        board.lay_tile(hid, tile, rotation)
    assert ("J6", 4) in game.map.political_borders() and ("H6", 5) in game.map.political_borders()
    game.map.clear_graphs()
    step.setup()
    reached = {hid for hid, _, _ in offered(game, sftg)}
    assert ({"G5", "H6", "I7"} <= reached) is allowed
    assert not allowed or "G5" in reached
    if not allowed:
        assert not reached & {"G5", "H6", "I7"}
    action = lay(sftg, "G5", "8-0", 3)
    if allowed:
        assert ("G5", "8-0", 3) in offered(game, sftg, "G5")
        step.process(action, sftg)
        assert board.hexes["G5"].placed.tile.name == "8"
    else:
        refused(game, step, sftg, action, match="SFTG cannot reach G5")


def venezia_behind_irsff(*options: str) -> tuple[Game1841, Corporation, Track1841]:
    """AFI in Padova (G15, yellow 57) joined to Venezia (F16, yellow 601), whose one city
    holds IRSFF's home token, phase 3."""
    game, afi, step = with_corporation("AFI", "3", ("G15",), options)
    start(game, "IRSFF", "100,3,5", game.players[1])
    board = game.map.board
    board.lay_tile("G15", "57-0", 1)
    board.lay_tile("F16", "601-0", 0)
    game.map.clear_graphs()
    step.setup()
    assert board.hexes["F16"].cities[0].tokens == ["IRSFF"]
    return game, afi, step


def test_seed_000_item_3_2_option_a_reachable_city_may_be_upgraded() -> None:
    """seed 000 rule change 3.2 (``upgrade_reachable_city``), rules/1841.md 2.3.3: AFI
    reaches Venezia's city, full with IRSFF's token, and so no track beyond it; green 602
    leaves the city's value as it was.  18xx.games (the default) refuses the upgrade ("Must
    use new track or change city value", nothing changes); with the option it is offered
    and laid -- but not when a new exit points at a political border in force."""
    game, afi, step = venezia_behind_irsff()
    assert offered(game, afi, "F16") == []
    refused(game, step, afi, lay(afi, "F16", "602-0", 1), match="Must use new track")
    game, afi, step = venezia_behind_irsff("upgrade_reachable_city")
    assert offered(game, afi, "F16") == [("F16", "602-0", 1)]
    game.map.political_borders = lambda: frozenset({("F16", 3)})  # type: ignore[method-assign]
    refused(game, step, afi, lay(afi, "F16", "602-0", 1), match="Must use new track")
    del game.map.political_borders
    step.process(lay(afi, "F16", "602-0", 1), afi)
    assert game.map.board.hexes["F16"].placed.tile.name == "602"
