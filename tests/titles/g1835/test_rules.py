"""1835 rules, one test each; docstrings cite rules/1835.md (the printed rules as Rails plays
them) or seed 004."""

from __future__ import annotations

from typing import Any

import pytest

from stellwerk.api import Game
from stellwerk.core.errors import IllegalAction
from stellwerk.titles.g1835.game import Game1835
from stellwerk.titles.g1835.mapport import hex_distances
from stellwerk.titles.g1835.rules.track import upgrade_error
from stellwerk.titles.g1835.steps_start import BuyStartItem, StartRound1835

PLAYERS: list[tuple[int | str, str]] = [(1, "A"), (2, "B"), (3, "C"), (4, "D")]


def engine(options: list[str] | None = None, n: int = 4) -> Game1835:
    game = Game.create("1835", [(i + 1, f"P{i + 1}") for i in range(n)], options or [])
    assert isinstance(game.engine, Game1835)
    return game.engine


def available(e: Game1835) -> list[str]:
    step = e.round.steps[0]
    assert isinstance(step, BuyStartItem)
    return [i.item for i in step.available()]


def test_start_packet_rows() -> None:
    """§3.2: only the uppermost row, plus the next row's first item when one is left."""
    assert available(engine()) == ["NF", "M1"]


def test_clemens_offers_every_item_and_the_last_seat_starts() -> None:
    """§3.2-3.3 Clemens: all items available; the last player acts first."""
    e = engine(["clemens"])
    assert len(available(e)) == 13
    assert e.round.active_entities()[0].name == "P4"


@pytest.mark.parametrize(
    ("variant", "order"),
    [
        ("standard", "123412341234"),
        ("snake", "123443211234"),
        ("clemens", "432112341234"),
    ],
)
def test_start_round_order(variant: str, order: str) -> None:
    """§3.3: Standard, Snake and Clemens orders of start round 1."""
    e = engine([variant])
    rnd = e.round
    assert isinstance(rnd, StartRound1835)
    assert "".join(str(rnd.seat_for(t) + 1) for t in range(12)) == order


def test_buying_a_minor_floats_it_with_its_price() -> None:
    """§3.1: the bank pays the minor's price into its treasury; its token goes home."""
    game = Game.create("1835", PLAYERS)
    game.process(
        {"type": "bid", "entity": 1, "entity_type": "player", "company": "M1", "price": 80}
    )
    m1 = game.engine.corporation("M1")
    assert m1.floated and m1.cash == 80 and m1.owner is game.engine.players[0]
    assert game.engine.map.board.hex("H2").has_token("M1")


def test_wrong_price_is_refused() -> None:
    """§3.1: start items have fixed prices."""
    game = Game.create("1835", PLAYERS)
    with pytest.raises(IllegalAction):
        game.process({"type": "bid", "entity": 1, "entity_type": "player", "company": "NF",
                      "price": 90})  # fmt: skip


def test_token_cost_counts_map_hexes() -> None:
    """§8.4: 20M per hex of distance along the map: BY O15 -> Dresden H20 is 8 hexes."""
    assert hex_distances("O15")["H20"] == 8
    assert hex_distances("L6")["H2"] == 4


def test_upgrade_table_not_shape() -> None:
    """§8.3: only the replacements of Rails' table: 9 -> 18 yes, 9 -> 63 no."""
    e = engine()
    board = e.map.board
    tile_63 = board.tile_defs["63"]
    board.lay_tile("L10", board.available()["9"], 0)
    state = board.hex("L10")
    assert upgrade_error(state, tile_63) is not None
    assert upgrade_error(state, board.tile_defs["18"]) is None


def test_cert_limit_bonus_for_80_percent() -> None:
    """§1: +1 certificate for each major held at 80 % or more."""
    e = engine()
    player = e.players[0]
    base = e.cert_limit(player)
    assert base == 15
    by = e.corporation("BY")
    from stellwerk.core.shares import Bundle

    e.transfer_certificates(Bundle.of(list(by.shares_of("BY"))[:8], by), player, False)
    assert player.percent_of("BY") >= 80
    assert e.cert_limit(player) == base + 1


def test_payout_rounds_halves_up() -> None:
    """§8.6: each holder gets revenue x percent, halves rounded up (PR 5 % of 170 = 9)."""
    assert (170 * 5 * 2 + 100) // 200 == 9
    assert (170 * 15 * 2 + 100) // 200 == 26


def test_withhold_without_left_cell_moves_down() -> None:
    """§8.6: a withhold at C2 (98) moves down to C3 (92)."""
    e = engine()
    by = e.corporation("BY")
    cell = e.market.cell((1, 2))
    assert cell is not None and cell.price == 98
    by.share_price = cell
    cell.corporations.append("BY")
    e.move_price(by, "left")
    assert by.share_price.price == 92


def settings_of(options: list[str]) -> Any:
    return engine(options).settings


def test_option_ld_income() -> None:
    """§11 LDIncome: LD pays 30."""
    assert engine(["ld_income_30"]).company("LD").revenue == 30
    assert engine().company("LD").revenue == 20


def test_option_by_floats_at_20() -> None:
    """§11 BYFloatsAt: BY floats at 20 %."""
    assert engine(["by_floats_at_20"]).corporation("BY").float_percent == 20


def test_option_minors_wait_for_by() -> None:
    """§11 MinorsRequireFloatedBY: no minor operates before BY floats."""
    assert not engine(["minors_require_floated_by"]).minors_may_operate()
    assert engine().minors_may_operate()


def test_option_free_token_steps() -> None:
    """§11 NF_PfB_Westermann: the free tokens only in the token step."""
    assert settings_of(["nf_pfb_token_only_in_token_step"]).free_token_steps == ("token",)


def test_option_sales_and_sell_restriction() -> None:
    """§11 SeparateSalesAtSamePrice / FirstRoundSellRestriction: with First Stock Round no
    sales in SR 1 even after ORs; by default then allowed."""
    assert not settings_of(["separate_sales_at_lower_price"]).repeated_sale_at_first_price
    for options, allowed in (([], True), (["sell_restriction_first_stock_round"], False)):
        game = engine(options)
        game.packet_sold_in_one_go = False
        assert game.settings.sales_in_first_stock_round(game) is allowed


def test_option_unlimited_tiles() -> None:
    """§11 UnlimitedTiles (test aid): many copies of every tile."""
    assert engine(["unlimited_tiles"]).map.board.available()["201"] == "201-0"
    assert (
        len([t for t in engine(["unlimited_tiles"]).map.board.supply if t.startswith("201-")]) >= 30
    )


def test_option_prussian_reserved_ignored() -> None:
    """§11 PrussianReservedIgnored."""
    assert settings_of(["prussian_reserved_ignored"]).sold_out_ignores_reserved_pr


def test_pr_income_denied_for_what_was_earned_in_its_formation_or() -> None:
    """§10.4 (Rails OperatingRound_1835): when PR pays in an OR a formation round interrupted,
    a player gets no PR dividend on the percentage he already earned in that OR through a minor
    that operated or BB/HB's revenue; the rest he gets as usual."""
    from stellwerk.core.shares import move_share
    from stellwerk.titles.g1835.payouts import pay_dividend

    e = engine()
    pr = e.prussia()
    pr.share_price = pr.par_price
    p1, p2 = e.players[0], e.players[1]
    shares = pr.shares_of(pr.sym)
    for share in shares[1:3]:
        move_share(share, p1)  # 20 %
    move_share(pr.shares_of(pr.sym)[1], p2)  # 10 %
    e.round.interrupted = True  # type: ignore[attr-defined]
    e.round.income_tally = {p1: 5}  # type: ignore[attr-defined]
    cash1, cash2 = p1.cash, p2.cash
    pay_dividend(e, pr, 100, "payout")
    assert p1.cash - cash1 == 15  # 20 % less the 5 % of his minor
    assert p2.cash - cash2 == 10
    e.round.interrupted = False  # type: ignore[attr-defined]
    cash1 = p1.cash
    pay_dividend(e, pr, 100, "payout")
    assert p1.cash - cash1 == 20
