"""1841's stock rounds after the first (rules/1841.md 2.2, 1.2, 2.3.9, 2.3.10, 4.3): starting
non-historical corporations, home tokens and token purchase (2.2.3), buying and selling under
1841's limits, forced sales, the end of the round.  Positions are set up directly (the
operating round is another module's); the fixtures' traces give the expected numbers."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from stellwerk.core.entities import Corporation, move_share
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import act
from stellwerk.core.moves import parse
from stellwerk.core.shares import Bundle
from stellwerk.titles.g1841 import frozen as stellwerk_frozen
from stellwerk.titles.g1841 import start, stock
from stellwerk.titles.g1841.data_load import pass_tiles
from stellwerk.titles.g1841.events import close_corporation
from stellwerk.titles.g1841.game import Game1841
from stellwerk.titles.g1841.ownership import circular_set, creates_circle, frozen
from stellwerk.titles.g1841.stock import Shares1841, can_par

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "18xx.games" / "1841"


def game_in_sr(
    phase: str = "3", players: int = 3, options: list[str] | None = None, turn: int = 2
) -> Game1841:
    """A fresh game moved to a stock round of ``turn`` in ``phase``."""
    game = Game1841([(i, f"p{i}") for i in range(1, players + 1)], options or [], 1)
    while game.phases.current.name != phase:
        game.phases.advance()
    game.map.phase = phase
    game.turn = turn
    game.round = game.new_stock_round()
    game.round.setup()
    return game


def par(game: Game1841, holder: Any, sym: str, price: str) -> Corporation:
    """Start ``sym`` at ``price`` for ``holder`` by core moves (no round rules)."""
    corp = game.corporation(sym)
    cell = game.market.cell_by_id(price)
    assert cell is not None
    game.set_par(corp, cell)
    game.buy_shares(holder, Bundle.of([corp.treasury_shares()[0]], corp))
    return corp


def give(game: Game1841, corp: Corporation, holder: Any, count: int) -> None:
    """Move ``count`` ordinary IPO certificates of ``corp`` to ``holder``."""
    for share in [s for s in corp.treasury_shares() if not s.president][:count]:
        move_share(share, holder)
    corp.floated = True


def step(game: Game1841) -> Shares1841:
    found = game.round.step_of(Shares1841)
    assert isinstance(found, Shares1841)
    return found


def send(game: Game1841, entity: Any, kind: str, **fields: Any) -> None:
    game.process_action(act(entity, kind, **fields))


# -- starting corporations (2.2.1) -------------------------------------------------------------


def test_non_historical_corporations_start_from_phase_3() -> None:
    """rules/1841.md 1.3, 2.2.1: non-historical corporations are available from phase 3."""
    early = game_in_sr(phase="2")
    assert not can_par(early, early.corporation("AFI"), early.players[0])
    game = game_in_sr(phase="3")
    player = game.players[0]
    assert can_par(game, game.corporation("AFI"), player)
    assert can_par(game, game.corporation("CTLP"), player)
    pars = [a for a in step(game).choices(player) if a["type"] == "par"]
    assert {a["share_price"] for a in pars if a["corporation"] == "AFI"} == {
        "68,4,2",
        "100,3,5",
        "144,2,8",
        "216,1,11",
        "340,0,14",
    }
    assert {a["share_price"] for a in pars if a["corporation"] == "CTLP"} == {
        "68,4,2",
        "100,3,5",
        "144,2,8",
    }


def test_minors_start_only_at_prices_whose_double_the_player_can_pay() -> None:
    """rules/1841.md 2.2.1: a minor's president certificate costs 2x par; only affordable
    par prices are offered."""
    game = game_in_sr(phase="3")
    player = game.players[0]
    player.cash = 250
    pars = [a for a in step(game).choices(player) if a["type"] == "par"]
    assert {a["share_price"] for a in pars if a["corporation"] == "CTLP"} == {"68,4,2", "100,3,5"}


def test_historical_corporations_need_their_concession_before_phase_4() -> None:
    """rules/1841.md 2.2.1: a historical corporation starts only by its concession's owner
    before phase 4."""
    game = game_in_sr(phase="3")
    other = game.round.current_entity()
    owner = game.players[1] if other is not game.players[1] else game.players[2]
    concession = game.company("SFTG")
    concession.owner = owner
    owner.companies.append(concession)
    sftg = game.corporation("SFTG")
    assert can_par(game, sftg, owner)
    assert not can_par(game, sftg, other)
    with pytest.raises(IllegalAction, match="may not start SFTG"):
        send(game, other, "par", corporation="SFTG", share_price="100,3,5")


# -- home tokens (2.2.3) ------------------------------------------------------------------------


def test_home_hexes_of_a_non_historical_major_before_phase_4() -> None:
    """rules/1841.md 2.2.3: any zone city but Lugano, the historical cities and Austria
    (Lombardy, Veneto) before phase 4; the second token in the first one's zone."""
    game = game_in_sr(phase="3")
    afi = game.corporation("AFI")
    assert start.home_hexes(game, afi) == ["M7", "S11", "K11", "L12", "K13", "L14", "K15"]
    game.map.board.place_token_at("K11", 0, "AFI")
    assert start.home_hexes(game, afi) == ["L12", "K13", "L14", "K15"]


def test_second_home_token_is_skipped_when_no_hex_is_left() -> None:
    """rules/1841.md 2.2.3, fixture 1841_game_end_bank 110: a major starting in Genova (M7)
    before phase 4 has no second home in Piedmont; the second token is skipped."""
    game = game_in_sr(phase="3")
    afi = par(game, game.players[0], "AFI", "216,1,11")
    procedure = start.begin_start(game, afi)
    asked = procedure.question(game)
    assert asked is not None and asked.kinds == ("place_token",)
    procedure.answer(
        game, parse(act(afi, "place_token", city=game.map.board.city_id("M7", 0), slot=0))
    )
    asked = procedure.question(game)
    assert asked is not None and asked.topic == "buy_tokens"


@pytest.mark.parametrize("options", [[], ["version_1"]])
def test_printed_home_on_torino_after_its_cities_were_joined_by_an_upgrade(
    options: list[str],
) -> None:
    """rules/1841.md 1.2, 2.2.3: SFTN's printed home is Torino H4 city 1 (a city of the
    pre-printed two-city tile).  Once SFTG has upgraded Torino to green tile 606 (one city,
    two slots) that city index is gone; SFTN's home token goes into the city holding its
    reservation (selfplay 1841 version_1: "SFTN cannot place a token in H4")."""
    game = game_in_sr(phase="3", options=options)
    board = game.map.board
    sftg = par(game, game.players[0], "SFTG", "100,3,5")
    start.place_printed_homes(game, sftg)
    board.lay_tile("H4", "606-0", 4)
    assert len(board.hex("H4").cities) == 1
    sftn = par(game, game.players[1], "SFTN", "100,3,5")
    assert start.place_printed_homes(game, sftn) == []
    assert board.hex("H4").cities[0].tokens == ["SFTG", "SFTN"]


def test_home_hexes_by_phase_for_the_second_token() -> None:
    """rules/1841.md 2.2.3: in phase 4 a second token anywhere but Veneto if the first is
    outside it (else only Veneto); from phase 5 anywhere but the first hex and Lugano."""
    game = game_in_sr(phase="4")
    afi = game.corporation("AFI")
    game.map.board.place_token_at("K11", 0, "AFI")
    second = start.home_hexes(game, afi)
    assert "F8" in second and "H4" in second
    assert not set(second) & {"H12", "G13", "F14", "G15", "F16", "D16", "C7", "K11"}
    atfa = game.corporation("ATFA")
    game.map.board.place_token_at("G13", 0, "ATFA")
    assert start.home_hexes(game, atfa) == ["H12", "F14", "G15", "F16", "D16"]
    late = game_in_sr(phase="5")
    late.map.board.place_token_at("G13", 0, "ATFA")
    assert "K11" in start.home_hexes(late, late.corporation("ATFA"))
    assert "C7" not in start.home_hexes(late, late.corporation("ATFA"))


def _fill_cities(game: Game1841, hexes: list[str], fillers: list[str]) -> None:
    """Fill every slot of every city of ``hexes`` with tokens of ``fillers`` (one a hex each)."""
    board = game.map.board
    for hid in hexes:
        for index in range(len(board.hexes[hid].cities)):
            for sym in fillers:
                if board.can_place_token(hid, index, sym):
                    board.place_token_at(hid, index, sym)


def test_no_start_without_a_free_city_for_the_home_token() -> None:
    """rules/1841.md 2.2.3: a non-historical corporation starts by placing its home token in
    a city of the zones; when every such city is full it cannot be started (listed nor
    accepted), instead of a par that waits for a token nobody can place (selfplay seed 2)."""
    game = game_in_sr(phase="3")
    player = game.round.current_entity()
    afi = game.corporation("AFI")
    assert can_par(game, afi, player)
    _fill_cities(game, start.home_hexes(game, afi), ["SFTG", "SFTN", "SSFL", "SFLP", "SFTC"])
    assert start.home_hexes(game, afi)  # the hexes are there, their cities are full
    assert not start.home_cities(game, afi, start.home_hexes(game, afi))
    assert not can_par(game, afi, player)
    cash = player.cash
    listed = {a["corporation"] for a in step(game).choices(player) if a["type"] == "par"}
    assert "AFI" not in listed
    assert "SFTG" not in listed  # a historical one still needs its concession
    with pytest.raises(IllegalAction, match=r"AFI|par is not allowed"):
        send(game, player, "par", corporation="AFI", share_price="100,3,5")
    assert not afi.ipoed and not game.procedures and player.cash == cash


def _held_elsewhere(cash: int) -> tuple[Game1841, Any]:
    """AFI holds the only ATFA share not held by a player; neither has IPO shares left; the
    player to act has ``cash`` and nothing to sell (first stock round: no concessions)."""
    game = game_in_sr(phase="3", turn=1)
    player = game.round.current_entity()
    other = next(p for p in game.players if p is not player)
    afi = par(game, other, "AFI", "68,4,2")
    atfa = par(game, other, "ATFA", "68,4,2")
    move_share(atfa.treasury_shares()[-1], afi)
    give(game, afi, other, len(afi.treasury_shares()))
    give(game, atfa, other, len(atfa.treasury_shares()))
    assert not afi.treasury_shares() and not atfa.treasury_shares()
    assert afi.percent_of("ATFA") == 10
    player.cash = cash
    return game, player


def test_a_share_held_by_another_corporation_keeps_the_turn_open() -> None:
    """rules/1841.md 2.2.1, 5.1: a player never buys a share a corporation holds of another,
    but 18xx.games counts such a share when it asks whether a purchase is left, so the turn
    stays open until the player passes (selfplay seed 2, action 400); without the cash for
    it the player has nothing left and is skipped."""
    game, player = _held_elsewhere(68)
    assert step(game).actions(player) == ["buy_shares", "pass"]
    assert [a["type"] for a in step(game).choices(player)] == ["pass"]
    poor, player = _held_elsewhere(67)
    assert step(poor).actions(player) == []


def test_a_cheaper_percent_share_held_by_a_minor_hides_its_ipo_share() -> None:
    """rules/1841.md 2.2.1, 5.1 as 18xx.games asks it: a treasury counts by its smallest
    certificate, so a minor's 20 % IPO share the player could pay is hidden behind a 10 %
    share of a dearer major that the minor holds, and the turn ends (selfplay seed 13 with
    ``sfli_run_variant``, action 283); with the cash for the major's price it is listed."""

    def position(cash: int) -> tuple[Game1841, Any, Corporation]:
        game = game_in_sr(phase="3", turn=1)
        player = game.round.current_entity()
        other = next(p for p in game.players if p is not player)
        ctlp = par(game, other, "CTLP", "68,4,2")
        afi = par(game, other, "AFI", "100,3,5")
        give(game, afi, other, len(afi.treasury_shares()) - 1)
        move_share(afi.treasury_shares()[0], ctlp)
        player.cash = cash
        return game, player, ctlp

    game, player, ctlp = position(90)
    assert step(game).can_buy(player, Bundle.of([ctlp.treasury_shares()[0]], ctlp))
    assert step(game).actions(player) == []
    rich, player, ctlp = position(100)
    bought = [a["shares"] for a in step(rich).choices(player) if a["type"] == "buy_shares"]
    assert [ctlp.treasury_shares()[0].id] in bought


def test_a_treasury_is_read_in_filing_order_for_the_turn_test() -> None:
    """rules/1841.md 2.2.1, 5.1 as 18xx.games asks it: the first certificate a treasury
    holds decides the sold-this-round part of the test whether a purchase is left, and
    18xx.games files a holder's certificates by corporation in definition order (its trace
    looks every corporation up before the first action), not in the order received.  AFI
    receives an ATFA share, then an SFTN share: SFTN comes first, so a player who sold ATFA
    this round still has a purchase left, and one who sold SFTN has not (selfplay seed 2,
    action 400)."""

    def position(sold: str) -> tuple[Game1841, Any]:
        game = game_in_sr(phase="3", turn=1)
        player = game.round.current_entity()
        other = next(p for p in game.players if p is not player)
        afi = par(game, other, "AFI", "68,4,2")
        atfa = par(game, other, "ATFA", "68,4,2")
        sftn = par(game, other, "SFTN", "68,4,2")
        move_share(atfa.treasury_shares()[-1], afi)
        move_share(sftn.treasury_shares()[-1], afi)
        for corp in (afi, atfa, sftn):
            give(game, corp, other, len(corp.treasury_shares()))
        assert [s.corporation for s in afi.all_shares()] == ["ATFA", "SFTN"]
        step(game).sold(player)[sold] = "now"
        player.cash = 68
        return game, player

    game, player = position("ATFA")
    assert [
        s.corporation for s in stock.treasury_in_filing_order(game, game.corporation("AFI"))
    ] == [
        "SFTN",
        "ATFA",
    ]
    assert step(game).actions(player) == ["buy_shares", "pass"]
    game, player = position("SFTN")
    assert step(game).actions(player) == []


def test_a_closed_corporation_counts_as_a_start_left_but_is_never_listed() -> None:
    """rules/1841.md 2.2.1, 2.4 item 1: a closed corporation is never started in live play,
    but 18xx.games' test whether a start is left never asks whether a corporation is closed,
    so from phase 4 a closed historical corporation whose first treasury certificate the
    player could pay at the least par price keeps his turn open until he passes (selfplay
    seed 33 with ``version_1``, action 509); with less cash it does not count."""
    game = game_in_sr(phase="4", turn=2)
    player = game.round.current_entity()
    sfma = game.corporation("SFMA")
    close_corporation(game, sfma)
    assert not can_par(game, sfma, player)
    first = sfma.treasury_shares()[0]
    price = 68 * first.percent // sfma.share_unit
    player.cash = price
    assert step(game).par_counts(player, sfma)
    assert "par" in step(game).actions(player)
    listed = [a for a in step(game).choices(player) if a["type"] == "par"]
    assert all(a["corporation"] != "SFMA" for a in listed)
    with pytest.raises(IllegalAction):
        send(game, player, "par", corporation="SFMA", share_price="68,4,2")
    player.cash = price - 1
    assert not step(game).par_counts(player, sfma)


def test_minor_home_avoids_major_cities_and_tokened_hexes() -> None:
    """rules/1841.md 2.2.3: a non-historical minor's home is no major city, not excluded,
    and has no token on its hex."""
    game = game_in_sr(phase="3")
    ctlp = game.corporation("CTLP")
    assert start.home_hexes(game, ctlp) == ["S11", "K11", "L12", "K13", "K15"]
    game.map.board.place_token_at("K13", 0, "AFI")
    assert "K13" not in start.home_hexes(game, ctlp)


def test_faq_1_5_and_5_8_homes_are_cities_never_passes() -> None:
    """Seed 000 items 1.5 and 5.8: corporations start in cities, never on passes; every home
    city offered lies on a non-pass tile."""
    for phase in ("3", "5"):
        game = game_in_sr(phase=phase)
        passes = pass_tiles(game.map.variant)
        for sym in ("AFI", "CTLP"):
            corp = game.corporation(sym)
            cities = start.home_cities(game, corp, start.home_hexes(game, corp))
            assert cities
            for city in cities:
                hid, _ = game.map.board.resolve_city(city)
                assert game.map.board.hexes[hid].tile.name not in passes


def test_faq_1_4_sftn_and_ssfl_start_with_one_token_on_the_map() -> None:
    """Seed 000 item 1.4, rules/1841.md 1.2: SFTN (Torino city 1) and SSFL (Pisa) start with
    only one token on the map, at their printed homes."""
    game = game_in_sr(phase="2", turn=1)
    for sym, home in (("SFTN", "H4"), ("SSFL", "Q11")):
        corp = par(game, game.players[0], sym, "100,3,5")
        start.begin_start(game, corp)
        assert game.map.board.token_hexes(sym) == [home]
    assert game.map.board.hexes["H4"].cities[1].tokens[0] == "SFTN"


# -- token purchase (2.2.3) --------------------------------------------------------------------


def test_token_choices_above_the_minimum_only_if_affordable() -> None:
    """rules/1841.md 2.2.3: 2-5 tokens for a major, more than the minimum only if the
    treasury pays; historical L.50 each."""
    game = game_in_sr(phase="3")
    sftg = par(game, game.players[0], "SFTG", "100,3,5")
    sftg.cash = 160
    assert start.token_choices(game, sftg) == [2, 3]
    sftg.cash = 60
    assert start.token_choices(game, sftg) == [2]


def test_faq_2_5_minimum_tokens_paid_by_half_price_ipo_sales() -> None:
    """Seed 000 item 2.5, rules/1841.md 2.2.3: a corporation short of the minimum sells just
    enough IPO shares to the pool at half price (total rounded up), the price dropping a row
    per share."""
    game = game_in_sr(phase="3")
    afi = par(game, game.players[0], "AFI", "100,3,5")
    game.map.board.place_token_at("K11", 0, "AFI")
    price = start.token_price(game, afi)
    afi.cash = 10
    need = 2 * price
    bank = game.bank.cash
    start.buy_tokens(game, afi, 2)
    sold = (need - 10) * 2 // 100 + (1 if (need - 10) * 2 % 100 else 0)
    assert game.pool.percent_of("AFI") == 10 * sold
    assert afi.cash == 10 + -(-sold * 100 // 2) - need
    assert game.bank.cash == bank - (-(-sold * 100 // 2)) + need
    assert afi.share_price is not None and afi.share_price.row == 3 + sold
    assert afi.num_tokens == 2


def test_token_price_by_distance_to_connected_track() -> None:
    """rules/1841.md 2.2.3: distance 0 (a printed city with track: Cuneo M3) L.200, next to
    it L.100; a home far from any track L.25 (L.50 at distance 2: the fixture test below)."""
    game = game_in_sr(phase="3")
    assert start.hex_price(game, "M3") == 200
    assert start.hex_price(game, "L4") == 100
    assert start.hex_price(game, "K13") == 25


def _start_chooses(path: Path) -> list[tuple[int, str, int]]:
    """(action id, corporation, price per token) of the non-historical start purchases in a
    fixture (cash before minus after, per token)."""
    game = json.loads(path.read_text())
    actions = {a["id"]: a for a in game["actions"]}
    lines = [json.loads(line) for line in path.with_suffix(".trace.jsonl").open()]
    out = []
    for before, after in itertools.pairwise(lines[1:-1]):
        action = actions[after["action_id"]]
        if action["type"] != "choose" or not isinstance(action.get("choice"), int):
            continue
        sym = action["entity"]
        if sym in ("SB", "SFL") or not action["choice"]:
            continue
        was = next(c for c in before["corporations"] if c["id"] == sym)
        now = next(c for c in after["corporations"] if c["id"] == sym)
        out.append((after["action_id"], sym, (was["cash"] - now["cash"]) // action["choice"]))
    return out


@pytest.mark.skipif(not FIXTURES.is_dir(), reason="no 1841 fixtures")
@pytest.mark.parametrize(
    "name", ["1841_game_end_bank", "1841_game_end_bankrupt", "1841_game_end_offboards"]
)
def test_start_token_prices_match_the_fixtures(name: str) -> None:
    """rules/1841.md 2.2.3: every start token purchase of the fixtures costs what the board
    before it gives (historical L.50; non-historical by distance, the dearer of two homes)."""
    from positions1841 import position_before

    path = FIXTURES / f"{name}.json"
    options = json.loads(path.read_text())["settings"].get("optional_rules") or []
    checked = 0
    for action_id, sym, paid in _start_chooses(path):
        _, position = position_before(path, action_id)
        game = Game1841([(1, "a"), (2, "b"), (3, "c")], list(options), 1)
        game.map = position.port
        while game.phases.current.name != position.port.phase:
            game.phases.advance()
        corp = game.corporation(sym)
        assert start.token_price(game, corp) == paid, (action_id, sym)
        checked += 1
    assert checked >= 5


@pytest.mark.skipif(not FIXTURES.is_dir(), reason="no 1841 fixtures")
@pytest.mark.parametrize(
    "name", ["1841_game_end_bank", "1841_game_end_bankrupt", "1841_game_end_offboards"]
)
def test_home_token_choices_match_the_fixtures(name: str) -> None:
    """rules/1841.md 2.2.3: every chosen home of a non-historical corporation in the fixtures
    is offered, and a second home is asked exactly when the fixture shows one (a second
    ``place_token`` or a ``pass``)."""
    from positions1841 import positions

    path = FIXTURES / f"{name}.json"
    options = json.loads(path.read_text())["settings"].get("optional_rules") or []
    live = [a for a, _ in ((a, None) for a, _ in positions(path))]
    checked = 0
    for index, (action, position) in enumerate(positions(path)):
        if action["type"] != "place_token" or action.get("entity") in (None,):
            continue
        sym = str(action["entity"])
        game = Game1841([(1, "a"), (2, "b"), (3, "c")], list(options), 1)
        if game.specs.get(sym) is None or game.specs[sym].historical:
            continue
        previous = live[index - 1]
        if previous["type"] == "place_token" and previous["entity"] == sym:
            continue  # a second home: checked with the first
        if previous["type"] not in ("par", "buy_shares", "pass"):
            continue  # an ordinary token lay of the operating round
        game.map = position.port
        while game.phases.current.name != position.port.phase:
            game.phases.advance()
        corp = game.corporation(sym)
        hexes = start.home_hexes(game, corp)
        cities = start.home_cities(game, corp, hexes)
        assert action["city"] in cities, (action["id"], sym, cities)
        hid, city = game.map.board.resolve_city(str(action["city"]))
        game.map.board.place_token_at(hid, city, sym)
        after = live[index + 1]
        asked_again = after["entity"] == sym and after["type"] in ("place_token", "pass")
        if game.specs[sym].type == "major":
            assert bool(start.home_hexes(game, corp)) == asked_again, (action["id"], sym)
        checked += 1
    assert checked >= 2


# -- buying (2.2.1) ------------------------------------------------------------------------------


def test_a_non_historical_start_runs_through_home_tokens_and_token_purchase() -> None:
    """rules/1841.md 2.2.1, 2.2.3, fixture 132002 299: par, two more IPO buys (40 % ends the
    turn), two home tokens in the Conservative Zone, 4 tokens at L.25; then the next
    player."""
    game = game_in_sr(phase="3")
    first, second = game.round.current_entity(), game.players[1]
    send(game, first, "par", corporation="CTDA", share_price="144,2,8")
    send(game, first, "buy_shares", shares=["CTDA_1"], percent=10)
    send(game, first, "buy_shares", shares=["CTDA_2"], percent=10)
    ctda = game.corporation("CTDA")
    assert game.round.current_entity() is ctda
    send(game, ctda, "place_token", city=game.map.board.city_id("K11", 0), slot=0, tokener="CTDA")
    assert game.round.actions_for(ctda) == ["place_token", "pass"]
    send(game, ctda, "place_token", city=game.map.board.city_id("K13", 0), slot=0, tokener="CTDA")
    assert ctda.cash == 4 * 144
    send(game, ctda, "choose", choice=4)
    assert ctda.cash == 4 * 144 - 100
    assert ctda.num_tokens == 4
    assert game.round.current_entity() is second


def test_pool_president_certificate_bought_directly_only_when_allowed() -> None:
    """rules/1841.md 2.2.1: a president's certificate in the pool may be bought directly (2x
    price, the buyer becomes president) only for a non-historical corporation or from
    phase 4."""
    game = game_in_sr(phase="3")
    buyer = game.round.current_entity()
    afi = par(game, game.players[2], "AFI", "100,3,5")
    move_share(game.players[2].shares_of("AFI")[0], game.pool)
    afi.owner = game.pool
    sftg = par(game, game.players[2], "SFTG", "100,3,5")
    move_share(game.players[2].shares_of("SFTG")[0], game.pool)
    sftg.owner = game.pool
    listed = [a["shares"] for a in step(game).choices(buyer) if a["type"] == "buy_shares"]
    assert ["AFI_0"] in listed and ["SFTG_0"] not in listed
    cash = buyer.cash
    send(game, buyer, "buy_shares", shares=["AFI_0"], percent=20)
    assert afi.owner is buyer and buyer.cash == cash - 200
    assert not frozen(game, afi)


def test_concession_bought_from_the_bank_with_its_pool_president_certificate() -> None:
    """rules/1841.md 2.2.1: from the second stock round a bank concession costs L.50, plus 2x
    price and the presidency if its corporation's president certificate is in the pool."""
    game = game_in_sr(phase="3")
    buyer = game.round.current_entity()
    assert "buy_company" in game.round.actions_for(buyer)
    sftg = par(game, game.players[2], "SFTG", "100,3,5")
    move_share(game.players[2].shares_of("SFTG")[0], game.pool)
    sftg.owner = game.pool
    cash = buyer.cash
    send(game, buyer, "buy_company", company="SFTG", price=50)
    assert game.company("SFTG").owner is buyer
    assert buyer.cash == cash - 50 - 200
    assert sftg.owner is buyer and buyer.percent_of("SFTG") == 20


@pytest.mark.parametrize("printed_update", [False, True])
def test_a_frozen_corporation_bought_back_by_its_concession_stays_frozen_until_an_update(
    printed_update: bool,
) -> None:
    """rules/1841.md 2.2.1, 2.3.10: the concession bought with its corporation's president's
    certificate from the pool gives the buyer the presidency, so the corporation is no longer
    frozen.  18xx.games brings no frozen state up to date for it: the corporation stays frozen
    (a frozen turn) until its next update, a share trade (our selfplay game of the lite map,
    3 players, seed 76001, SFTC at actions 665 and 675).  With the printed rules' update
    (the option that takes every change of control at once, rules/1841.md 2.3.9) it is
    thawed at once."""
    options = ["transform_refreshes_frozen"] if printed_update else []
    game = game_in_sr(phase="3", options=options)
    buyer = game.round.current_entity()
    sftg = par(game, game.players[2], "SFTG", "100,3,5")
    move_share(game.players[2].shares_of("SFTG")[0], game.pool)
    game.set_president(sftg, game.pool)
    game.refresh_frozen()
    assert stellwerk_frozen.is_frozen(game, sftg)
    send(game, buyer, "buy_company", company="SFTG", price=50)
    assert sftg.owner is buyer and not frozen(game, sftg)  # controlled by a player now
    assert stellwerk_frozen.is_frozen(game, sftg) is not printed_update
    game.trade_updates_frozen()
    assert not stellwerk_frozen.is_frozen(game, sftg)


def test_no_concession_from_the_bank_in_the_first_stock_round() -> None:
    """rules/1841.md 2.2.1: bank concessions are for sale from the second stock round."""
    for turn, offered in ((1, False), (2, True)):
        game = game_in_sr(phase="3", turn=turn)
        player = game.players[0]
        assert step(game).can_buy_company(player, game.company("SFTG")) is offered


def test_historical_presidency_frozen_before_phase_4() -> None:
    """rules/1841.md 2.2.1: before phase 4 buying more of a historical corporation than its
    president does not take the presidency; from phase 4 it does."""
    for phase, changes in (("3", False), ("4", True)):
        game = game_in_sr(phase=phase)
        buyer = game.round.current_entity()
        president = game.players[2] if buyer is not game.players[2] else game.players[1]
        sftg = par(game, president, "SFTG", "100,3,5")
        give(game, sftg, buyer, 2)
        send(game, buyer, "buy_shares", shares=[sftg.treasury_shares()[0].id], percent=10)
        assert (sftg.owner is buyer) is changes


def test_president_may_not_dump_a_historical_corporation_before_phase_4() -> None:
    """rules/1841.md 2.2.1: no dump of a historical president certificate before phase 4."""
    game = game_in_sr(phase="3")
    seller = game.round.current_entity()
    other = game.players[1] if seller is not game.players[1] else game.players[2]
    sftg = par(game, seller, "SFTG", "100,3,5")
    give(game, sftg, other, 3)
    game.operated_corps.add("SFTG")
    sells = [a["shares"] for a in step(game).choices(seller) if a["type"] == "sell_shares"]
    assert sells == []
    afi = par(game, seller, "AFI", "100,3,5")
    give(game, afi, other, 3)
    game.operated_corps.add("AFI")
    sells = [a["shares"] for a in step(game).choices(seller) if a["type"] == "sell_shares"]
    assert ["AFI_0"] in sells


def test_sixty_percent_counts_controlled_corporations() -> None:
    """rules/1841.md 1.2: the 60 % limit counts the player's shares plus those of the
    corporations he controls."""
    game = game_in_sr(phase="3")
    player = game.round.current_entity()
    afi = par(game, player, "AFI", "100,3,5")
    ctda = par(game, game.players[2], "CTDA", "100,3,5")
    give(game, ctda, player, 3)
    give(game, ctda, afi, 3)  # AFI, controlled by the player, holds 30 %
    offered = [a["shares"] for a in step(game).choices(player) if a["type"] == "buy_shares"]
    assert not any(s[0].startswith("CTDA") for s in offered)
    assert game.controlled_percent(player, ctda) == 60


def test_faq_2_8_corporation_holdings_do_not_count_against_the_president() -> None:
    """Seed 000 item 2.8: shares a corporation owns do not count towards its president's
    certificate limit."""
    game = game_in_sr(phase="3")
    player = game.players[0]
    afi = par(game, player, "AFI", "100,3,5")
    ctda = par(game, game.players[1], "CTDA", "100,3,5")
    give(game, ctda, afi, 3)
    assert game.num_certs(player) == 1


def test_faq_2_10_cert_limit_fixed_when_a_player_leaves() -> None:
    """Seed 000 item 2.10, rules/1841.md 1.2: the limit stays that of the starting player
    count after a bankrupt player leaves."""
    game = game_in_sr(phase="3", players=4)
    limit = game.cert_limit(game.players[0])
    game.players[3].bankrupt = True
    game.players.remove(game.players[3])
    assert game.cert_limit(game.players[0]) == limit == 16


def test_faq_2_9_over_the_limit_must_sell_unless_nothing_can_be_sold() -> None:
    """Seed 000 item 2.9, rules/1841.md 2.2.1: over the certificate limit only sales are
    offered; with nothing sellable (no operated corporation) the player is excused."""
    game = game_in_sr(phase="3")
    player = game.round.current_entity()
    afi = par(game, player, "AFI", "100,3,5")
    give(game, afi, player, 2)
    game.certificate_limit = 2
    assert "sell_shares" not in game.round.actions_for(player)
    game.operated_corps.add("AFI")
    other = game.players[1] if player is not game.players[1] else game.players[2]
    give(game, afi, other, 1)
    assert step(game).actions(player) == ["sell_shares"]


def test_faq_5_3_only_operated_corporations_sell() -> None:
    """Seed 000 item 5.3, rules/1841.md 2.2.1, 2.3.9: shares of a corporation that has not
    operated cannot be sold."""
    game = game_in_sr(phase="3")
    player = game.round.current_entity()
    afi = par(game, player, "AFI", "100,3,5")
    give(game, afi, player, 1)
    with pytest.raises(IllegalAction):
        send(game, player, "sell_shares", shares=["AFI_1"], percent=10)
    game.operated_corps.add("AFI")
    send(game, player, "sell_shares", shares=["AFI_1"], percent=10)
    assert game.pool.percent_of("AFI") == 10


def test_faq_1_2_and_5_1_minor_share_prices_and_sale_drops() -> None:
    """Seed 000 items 1.2 and 5.1: a 20 % minor share costs the market price (the 40 %
    president certificate double); selling one moves the price a row."""
    game = game_in_sr(phase="3")
    player = game.round.current_entity()
    president = game.players[2] if player is not game.players[2] else game.players[1]
    cash = president.cash
    ctlp = par(game, president, "CTLP", "100,3,5")
    assert president.cash == cash - 200
    cash = player.cash
    send(game, player, "buy_shares", shares=["CTLP_1"], percent=20)
    assert player.cash == cash - 100
    again = game_in_sr(phase="3")
    seller = again.round.current_entity()
    other = again.players[2] if seller is not again.players[2] else again.players[1]
    minor = par(again, other, "CTLP", "100,3,5")
    give(again, minor, seller, 1)
    again.operated_corps.add("CTLP")
    send(again, seller, "sell_shares", shares=["CTLP_1"], percent=20)
    assert minor.share_price is not None and minor.share_price.row == 4
    assert ctlp.share_price is not None and ctlp.share_price.row == 3


def test_sale_drops_the_price_a_row_per_share_and_respects_the_pool_limit() -> None:
    """rules/1841.md 2.2.1: each share sold moves the price down a row; at most 50 % in the
    pool."""
    game = game_in_sr(phase="3")
    player = game.round.current_entity()
    afi = par(
        game,
        game.players[2] if player is not game.players[2] else game.players[1],
        "AFI",
        "100,3,5",
    )
    give(game, afi, player, 6)
    game.operated_corps.add("AFI")
    sells = {a["percent"] for a in step(game).choices(player) if a["type"] == "sell_shares"}
    assert max(sells) == 50
    two = [s.id for s in player.shares_of("AFI")[:2]]
    send(game, player, "sell_shares", shares=two, percent=20)
    assert afi.share_price is not None and afi.share_price.row == 5


def test_faq_3_1_sale_creating_circular_control_is_refused() -> None:
    """Seed 000 item 3.1, rules/1841.md 2.2.1: a sale that would make corporations control
    each other is refused, naming the rule."""
    game = game_in_sr(phase="3")
    player = game.round.current_entity()
    a = par(game, player, "AFI", "100,3,5")
    b = par(game, a, "CTDA", "100,3,5")  # AFI presides CTDA
    give(game, a, b, 3)  # CTDA holds 30 % of AFI
    game.operated_corps.add("AFI")
    assert b.owner is a and a.owner is player
    bundle = Bundle.of(player.shares_of("AFI"), a)
    assert creates_circle(game, bundle, game.pool, True)
    assert not step(game).can_sell(player, bundle)
    with pytest.raises(IllegalAction):
        send(game, player, "sell_shares", shares=["AFI_0"], percent=20)
    assert a.owner is player and player.percent_of("AFI") == 20


def test_seed_000_item_3_1_switched_off_the_first_printed_rules_allow_the_circular_sale() -> None:
    """Seed 000 item 3.1 is a rule change of the FAQ ("Regeländerungen"): the first printed
    rules allowed a sale that makes corporations control each other.  Switched off
    (``allow_circular_control``), the sale of the position above goes through: CTDA, holding
    30 % of AFI, becomes its president, and both corporations are circular."""
    game = game_in_sr(phase="3", options=["allow_circular_control"])
    assert not game.settings.circular_control_forbidden
    player = game.round.current_entity()
    a = par(game, player, "AFI", "100,3,5")
    b = par(game, a, "CTDA", "100,3,5")
    give(game, a, b, 3)
    game.operated_corps.add("AFI")
    bundle = Bundle.of(player.shares_of("AFI"), a)
    assert creates_circle(game, bundle, game.pool, True)
    assert step(game).can_sell(player, bundle)
    send(game, player, "sell_shares", shares=["AFI_0"], percent=20)
    assert a.owner is b and b.owner is a
    assert player.percent_of("AFI") == 0
    assert a.sym in circular_set(game) and b.sym in circular_set(game)


# -- player to player (4.3) ---------------------------------------------------------------------


def test_faq_2_3_and_2_4_purchase_from_another_player_with_p2p() -> None:
    """Seed 000 items 2.3, 2.4, rules/1841.md 4.3: with ``p2p_purchases`` a player buys a
    share from another player at an agreed price, even of a corporation that has not
    operated, and it is no sale for the seller; without the option (the default, seed 003
    H6 and H7) it is refused."""
    for options, allowed in (([], False), (["p2p_purchases"], True)):
        game = game_in_sr(phase="3", options=options)
        buyer = game.round.current_entity()
        seller = game.players[1] if buyer is not game.players[1] else game.players[2]
        afi = par(game, seller, "AFI", "100,3,5")
        give(game, afi, seller, 1)
        share = seller.shares_of("AFI")[1].id
        if not allowed:
            with pytest.raises(IllegalAction):
                send(game, buyer, "buy_shares", shares=[share], percent=10, total_price=77)
            continue
        cash = (buyer.cash, seller.cash)
        send(game, buyer, "buy_shares", shares=[share], percent=10, total_price=77)
        assert (buyer.cash, seller.cash) == (cash[0] - 77, cash[1] + 77)
        assert not game.round.state.players_sold.get(seller, {}).get("AFI")


@pytest.mark.parametrize(("options", "menu"), [([], []), (["p2p_purchases"], ["pass"])])
def test_a_player_holding_a_concession_is_not_skipped_with_p2p(
    options: list[str], menu: list[str]
) -> None:
    """rules/1841.md 2.2.1, 4.3: with ``p2p_purchases`` a player who can buy nothing else
    but holds a concession (here Bayard) keeps his turn and passes, as on 18xx.games, whose
    list of concessions for sale from players includes his own (selfplay seed 501,
    version_1 lite p2p_purchases); buying his own concession is not offered.  Without the
    option he has nothing to do and is skipped."""
    game = game_in_sr(phase="2", options=options, turn=1)
    player = game.players[0]
    bayard = game.company("Bayard")
    bayard.owner = player
    player.companies.append(bayard)
    for other in game.players:
        game.bank.cash += other.cash - 1
        other.cash = 1
    game.round = game.new_stock_round()
    game.round.setup()
    assert game.round.current_entity() is (player if menu else None)
    shares = step(game)
    assert shares.actions(player) == menu
    assert [a["type"] for a in shares.choices(player)] == menu
    assert shares.blocking() is bool(menu)


# -- end of the round (2.2.2) -------------------------------------------------------------------


def test_frozen_corporation_with_pool_shares_drops_two_rows_and_never_rises() -> None:
    """rules/1841.md 2.2.2, 2.3.10: at the end of the stock round a frozen corporation with
    shares in the pool drops two rows; it gets no sold-out rise."""
    game = game_in_sr(phase="3")
    player = game.players[0]
    afi = par(game, player, "AFI", "100,3,5")
    give(game, afi, game.pool, 1)
    move_share(player.shares_of("AFI")[0], game.pool)
    afi.owner = game.pool
    assert frozen(game, afi)
    ctda = par(game, player, "CTDA", "100,3,5")
    give(game, ctda, game.players[1], 8)
    game.round.finish_round()
    assert afi.share_price is not None and afi.share_price.row == 5
    assert ctda.share_price is not None and ctda.share_price.row == 2


def test_faq_2_6_stacked_markers_keep_their_order() -> None:
    """Seed 000 item 2.6, rules/1841.md 2.2.2: corporations moving the same way at the end of
    the round keep their relative order in the stack."""
    game = game_in_sr(phase="3")
    first = par(game, game.players[0], "AFI", "100,3,5")
    second = par(game, game.players[1], "CTDA", "100,3,5")
    for corp in (first, second):
        give(game, corp, game.pool, 1)
    game.round.finish_round()
    cell = first.share_price
    assert cell is not None and cell is second.share_price
    assert cell.corporations.index("AFI") < cell.corporations.index("CTDA")


def test_unused_concessions_return_and_bayard_pays() -> None:
    """rules/1841.md 2.2.2: Bayard pays L.20 at the end of a stock round; concessions whose
    corporation was not started return to the bank."""
    game = game_in_sr(phase="3")
    player = game.players[0]
    for sym in ("Bayard", "SFTG"):
        company = game.company(sym)
        company.owner = player
        player.companies.append(company)
    cash = player.cash
    game.round.finish_round()
    assert player.cash == cash + 20
    assert [c.sym for c in player.companies] == ["Bayard"]


def test_faq_1_7_over_sixty_percent_through_controlled_corporations_must_sell() -> None:
    """Seed 000 item 1.7, rules/1841.md 2.2.1: a player controlling more than 60 % of a
    corporation (his shares plus his corporations') may only sell on his turn."""
    game = game_in_sr(phase="3")
    player = game.round.current_entity()
    other = game.players[1] if player is not game.players[1] else game.players[2]
    afi = par(game, player, "AFI", "100,3,5")
    ctda = par(game, other, "CTDA", "100,3,5")
    give(game, ctda, player, 4)
    give(game, ctda, afi, 3)
    game.operated_corps.add("CTDA")
    assert game.controlled_percent(player, ctda) == 70
    assert step(game).actions(player) == ["sell_shares"]
    assert {a["type"] for a in step(game).choices(player)} == {"sell_shares"}


def test_p2p_concession_carries_its_president_certificate() -> None:
    """rules/1841.md 2.2.1, 4.3: with ``p2p_purchases`` a concession bought from another
    player (any price from L.1) carries the president certificate of its corporation."""
    game = game_in_sr(phase="3", options=["p2p_purchases"])
    buyer = game.round.current_entity()
    seller = game.players[1] if buyer is not game.players[1] else game.players[2]
    concession = game.company("SFTG")
    concession.owner = seller
    seller.companies.append(concession)
    sftg = par(game, seller, "SFTG", "100,3,5")
    listed = [
        a
        for a in step(game).choices(buyer)
        if a["type"] == "buy_company" and a["company"] == "SFTG"
    ]
    assert [a["price"] for a in listed] == [1]
    assert step(game).price_space(buyer, listed[0]) == (1, buyer.cash)
    cash = (buyer.cash, seller.cash)
    send(game, buyer, "buy_company", company="SFTG", price=30)
    assert concession.owner is buyer and concession in buyer.companies
    assert (buyer.cash, seller.cash) == (cash[0] - 30, cash[1] + 30)
    assert sftg.owner is buyer and buyer.percent_of("SFTG") == 20
    assert seller.percent_of("SFTG") == 0


def test_faq_2_7_concessions_do_not_count_towards_the_certificate_limit() -> None:
    """Seed 000 item 2.7, rules/1841.md 1.2: a player at the limit in shares may still buy a
    concession from the bank; concessions never count."""
    game = game_in_sr(phase="3")
    player = game.round.current_entity()
    afi = par(game, player, "AFI", "100,3,5")
    give(game, afi, player, 1)
    game.certificate_limit = 2
    assert step(game).can_buy_company(player, game.company("SFTG"))
    send(game, player, "buy_company", company="SFTG", price=50)
    assert game.num_certs(player) == 2


def test_start_ipo_sales_do_not_reopen_the_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """rules/1841.md 2.2.1, 2.2.3, 5.1: a turn that ended because nothing more could be
    bought stays over although the start's half-price IPO sales make a cheap IPO share
    buyable (an oracle game: ICSF started at 68, sold 6 IPO shares for 2 tokens at L.200)."""
    monkeypatch.setattr(start, "token_price", lambda game, corp: 200)
    game = game_in_sr(phase="3")
    first = game.round.current_entity()
    first.cash = 136 + 68 + 50
    send(game, first, "par", corporation="AFI", share_price="68,4,2")
    send(game, first, "buy_shares", shares=["AFI_1"], percent=10)
    afi = game.corporation("AFI")
    assert game.round.current_entity() is afi
    send(game, afi, "place_token", city=game.map.board.city_id("K11", 0), slot=0)
    send(game, afi, "pass")
    send(game, afi, "choose", choice=2)
    assert game.pool.percent_of("AFI") == 60
    assert afi.share_price is not None and afi.share_price.price == 20
    assert afi.cash == 204 + 6 * 34 - 400
    assert game.round.current_entity() is not first


def test_seed_000_2_2_option_player_sales_drop_after_the_sales_in_reverse_order() -> None:
    """seed 000 item 2.2 (``sale_drops_reverse_order``): a player's sales of two
    corporations of one stack drop their prices after his sales, in reverse operating order
    (the stack swaps); by default each price drops at its sale (the stack keeps its order)."""
    for options, expected in (
        ([], ["SFTC", "SFTN"]),
        (["sale_drops_reverse_order"], ["SFTN", "SFTC"]),
    ):
        game = game_in_sr(options=options)
        p1, p2, p3 = game.players
        sftc = par(game, p2, "SFTC", "144,2,8")
        sftn = par(game, p3, "SFTN", "144,2,8")
        for corp in (sftc, sftn):
            give(game, corp, p1, 1)
            game.operated_corps.add(corp.sym)
        cell = sftc.share_price
        assert cell is not None and cell.corporations == ["SFTC", "SFTN"]
        game.round.entity_index = game.round.entities.index(p1)
        for corp in (sftc, sftn):
            share = p1.shares_of(corp.sym)[0]
            send(game, p1, "sell_shares", shares=[share.id], percent=10)
        assert (sftc.share_price is cell) is bool(options)
        send(game, p1, "pass")
        below = sftc.share_price
        assert below is not None and below is sftn.share_price and below is not cell
        assert below.corporations == expected


def test_4_3_a_bought_presidency_swaps_with_the_buyer() -> None:
    """rules/1841.md 4.3 (player-to-player purchases) as 18xx.games settles it: a player who
    buys the president's certificate from another player but holds less than a third holder
    hands it on to that holder, who swaps two ordinary shares with the buyer -- not with the
    seller (selfplay seed 10 with ``p2p_purchases`` and ``lite``, action 896)."""
    game = game_in_sr(phase="3", turn=2, options=["p2p_purchases"])
    buyer = game.round.current_entity()
    seller, third = [p for p in game.players if p is not buyer][:2]
    afi = par(game, seller, "AFI", "68,4,2")
    give(game, afi, seller, 1)
    give(game, afi, third, 4)
    give(game, afi, buyer, 1)
    assert afi.owner is seller
    pres = afi.presidents_share
    assert pres is not None
    buyer.cash = 200
    listed = [a for a in step(game).choices(buyer) if a.get("shares") == [pres.id]]
    assert listed and listed[0].get("total_price")
    step(game).process(listed[0], buyer)
    assert afi.owner is third and pres.owner is third
    assert buyer.percent_of("AFI") == 30 and seller.percent_of("AFI") == 10
    assert third.percent_of("AFI") == 40


def _holding_bayard(options: list[str], cash: int) -> tuple[Game1841, Any]:
    """Second stock round, phase 3: the player to act holds Bayard (no corporation goes with
    it), ``cash`` and no share, with nothing to buy for it."""
    game = game_in_sr(phase="3", options=options)
    player = game.round.current_entity()
    bayard = game.company("Bayard")
    bayard.owner = player
    player.companies.append(bayard)
    player.cash = cash
    return game, player


def test_4_3_p2p_holder_of_a_concession_is_not_skipped() -> None:
    """rules/1841.md 4.3 as 18xx.games plays it: with ``p2p_purchases`` its test of a
    concession purchase from a player does not leave out the buyer's own concessions, so a
    player holding one (here Bayard) with at least L.1 has a turn to pass, he is not
    skipped -- but no purchase of his own concession is offered (selfplay p2p_purchases +
    sfli_run_variant 5 players seed 406, action 1371).  Without the option, or without
    cash, the same player has nothing to do and is skipped."""
    game, player = _holding_bayard(["p2p_purchases"], 1)
    assert step(game).actions(player) == ["pass"]
    assert [a["type"] for a in step(game).choices(player)] == ["pass"]
    assert step(game).blocking()
    send(game, player, "pass")
    assert game.round.current_entity() is not player
    for options, cash in ((["p2p_purchases"], 0), ([], 1)):
        game, player = _holding_bayard(options, cash)
        assert step(game).actions(player) == []


def test_2_2_1_pool_presidency_goes_to_the_first_holder_of_equals() -> None:
    """rules/1841.md 2.2.1 (a president's certificate lying in the pool) as 18xx.games settles
    it: when a transfer lets a holder take AFI from the pool and two hold the same 20 %, the
    one who first held AFI shares takes it -- not the one holding the lower-numbered
    certificates, nor the first in seat order (selfplay lite+p2p+sfli 6 players seed 418,
    action 1476: player 3 before RATF).  He swaps two ordinary certificates for the
    president's certificate in the pool."""
    game = game_in_sr(phase="3", players=3)
    p1, p2, _ = game.players
    afi = game.corporation("AFI")
    cell = game.market.cell_by_id("100,3,5")
    assert cell is not None
    game.set_par(afi, cell)
    afi.ipoed = afi.floated = True
    move_share(afi.presidents_share, game.pool)
    afi.owner = game.pool
    ordinary = sorted((s for s in afi.treasury_shares() if not s.president), key=lambda s: s.id)
    for share in ordinary[4:6]:  # p2 first, the higher-numbered certificates
        move_share(share, p2)
    for share in ordinary[0:2]:
        move_share(share, p1)
    assert list(afi.share_holders)[:2] != [p2, game.pool]  # certificate order: p1 first
    game.transfer_shares(Bundle.of([ordinary[2]], afi), game.pool)
    assert afi.owner is p2
    assert afi.presidents_share is not None and afi.presidents_share.owner is p2
    assert p2.percent_of("AFI") == 20 and p1.percent_of("AFI") == 20
