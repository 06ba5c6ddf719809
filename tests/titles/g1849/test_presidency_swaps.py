"""1849 presidency changes that used to crash the engine (rules/1849.md §2.2).

Swap choice after closing: a sale can hand the presidency to a player holding the 20 % last
certificate and at least 40 %, which asks the previous president whether he wants two 10 %
certificates instead, and drop the price to 0 in the same action, which closes the corporation
(§5) and voids its certificates.  The choice of two 10 % certificates then has nothing to swap:
it used to crash the engine (``stellwerk selfplay 1849 --players 4 --seed 90122``).  18xx.games
still asks the question and fails on that answer, so only ``One 20% cert`` is offered and the
other answer is refused.

Half of the president's certificate: the seller takes a 10 % certificate back from the pool
after the swap; when the successor holds only the last certificate and the pool has no 10 %
certificate, that is impossible (it crashed with StopIteration; 18xx.games fails too), so the
sale is neither offered nor accepted.
"""

from __future__ import annotations

import pytest

from stellwerk.api import Game
from stellwerk.core.entities import Corporation, Player, Share
from stellwerk.core.errors import IllegalAction
from stellwerk.core.shares import Bundle, move_share
from stellwerk.titles.g1849.entities import c49
from stellwerk.titles.g1849.game import Game1849

PLAYERS3: list[tuple[int | str, str]] = [(1, "A"), (2, "B"), (3, "C")]
TWO_TENS = "Two 10% certs"
ONE_TWENTY = "One 20% cert"


def stock_round_with_sfa() -> tuple[Game1849, Corporation]:
    """A 3-player game in its first stock round with SFA parred by the RSA buyer (§1.4)."""
    game = Game.create("1849", PLAYERS3, [], 27939)
    for sym, price in [("SCE", 20), ("SIGI", 45), ("CNM", 75), ("SMS", 110), ("RSA", 150)]:
        entity = game.active_entities()[0]
        bid = {"type": "bid", "entity": entity, "entity_type": "player", "company": sym}
        game.process({**bid, "price": price})
    engine = game.engine
    assert isinstance(engine, Game1849)
    buyer = engine.company("RSA").owner
    assert isinstance(buyer, Player)
    game.process(
        {
            "type": "par",
            "entity": buyer.id,
            "entity_type": "player",
            "corporation": "SFA",
            "share_price": "100,3,5",
        }
    )
    return engine, engine.corporation("SFA")


def swap_pending(engine: Game1849, corp: Corporation) -> tuple[Player, Player]:
    """The president holds 40 %, the next player 40 % with the last certificate; the
    president sells two 10 % certificates, so the other player takes over with the last
    certificate and the seller is asked about the swap (§2.2).  Returns (seller, successor)."""
    seller = corp.owner
    assert isinstance(seller, Player)
    successor = next(p for p in engine.players if p is not seller)
    treasury = list(corp.shares_of(corp.sym))
    tens = [s for s in treasury if s.percent == 10]
    double = c49(corp).last_cert
    assert double in treasury
    handed = [
        (tens[0], seller),
        (tens[1], seller),
        (double, successor),
        (tens[2], successor),
        (tens[3], successor),
    ]
    for share, holder in handed:
        move_share(share, holder)
    sold = [s for s in seller.shares_of(corp.sym) if not s.president]
    engine.sell_shares(Bundle.of(sold, corp))
    assert corp.owner is successor
    assert engine.swap is not None and engine.swap["player"] is seller
    return seller, successor


def offered_choices(engine: Game1849) -> list[str]:
    """The ``choose`` answers the legal-action API offers."""
    step = engine.round.active_step()
    assert step is not None
    entity = step.active_entities()[0]
    return [str(a["choice"]) for a in step.choices(entity)]


def choose(engine: Game1849, player: Player, choice: str) -> None:
    engine.process_action(
        {"type": "choose", "entity": player.id, "entity_type": "player", "choice": choice}
    )


def test_swap_for_two_tens_while_corporation_open() -> None:
    """§2.2: the previous president may take two 10 % certificates instead of the last
    certificate; both answers are offered."""
    engine, corp = stock_round_with_sfa()
    seller, successor = swap_pending(engine, corp)
    assert offered_choices(engine) == [TWO_TENS, ONE_TWENTY]
    choose(engine, seller, TWO_TENS)
    assert engine.swap is None
    assert c49(corp).last_cert not in seller.shares_of(corp.sym)
    assert seller.percent_of(corp.sym) == 20
    assert c49(corp).last_cert in successor.shares_of(corp.sym)


def test_closed_corporation_offers_only_the_last_certificate_answer() -> None:
    """§§2.2, 5: once the corporation has closed, its certificates are void; the pending
    question is still answered (18xx.games waits for it) but only ``One 20% cert`` is offered."""
    engine, corp = stock_round_with_sfa()
    swap_pending(engine, corp)
    engine.close_corporation(corp)
    assert engine.swap is not None
    assert offered_choices(engine) == [ONE_TWENTY]


def test_closed_corporation_refuses_two_tens_and_changes_nothing() -> None:
    """§§2.2, 5: asking for two 10 % certificates of a closed corporation is refused with a
    reason (it crashed with StopIteration before) and the question stays open."""
    engine, corp = stock_round_with_sfa()
    seller, _ = swap_pending(engine, corp)
    engine.close_corporation(corp)
    holdings = {p.name: list(p.shares_of(corp.sym)) for p in engine.players}
    with pytest.raises(IllegalAction) as refused:
        choose(engine, seller, TWO_TENS)
    assert "closed" in refused.value.reason
    assert engine.swap is not None
    assert {p.name: list(p.shares_of(corp.sym)) for p in engine.players} == holdings
    choose(engine, seller, ONE_TWENTY)
    assert engine.swap is None


def hand_out(corp: Corporation, handed: list[tuple[Share, Player]]) -> None:
    """Give treasury certificates to players (setting up a position, not a rule)."""
    for share, holder in handed:
        move_share(share, holder)


def successor_with_only_the_last_certificate(
    engine: Game1849, corp: Corporation, pool_ten: bool
) -> Player:
    """The president holds only his 20 % certificate; the player after him the 20 % last
    certificate and nothing else; the third player two 10 % certificates; the pool one 10 %
    certificate when ``pool_ten``.  Returns the president."""
    president = corp.owner
    assert isinstance(president, Player)
    seat = engine.players.index(president)
    successor = engine.players[(seat + 1) % len(engine.players)]
    third = engine.players[(seat + 2) % len(engine.players)]
    treasury = list(corp.shares_of(corp.sym))
    tens = [s for s in treasury if s.percent == 10]
    double = c49(corp).last_cert
    assert double in treasury
    hand_out(corp, [(double, successor), (tens[0], third), (tens[1], third)])
    if pool_ten:
        move_share(tens[2], engine.pool)
    assert engine.find_would_be_president(president, corp) is successor
    return president


def half_sales(engine: Game1849, corp: Corporation, seller: Player) -> list[Bundle]:
    return [b for b in engine.bundles_for_corporation(seller, corp) if b.partial]


def test_half_sale_offered_when_the_pool_can_give_a_ten_back() -> None:
    """§2.2: the successor swaps the last certificate for the president's certificate and
    the seller takes a 10 % certificate back from the pool."""
    engine, corp = stock_round_with_sfa()
    seller = successor_with_only_the_last_certificate(engine, corp, pool_ten=True)
    offered = half_sales(engine, corp, seller)
    assert len(offered) == 1
    engine.sell_shares(offered[0])
    assert seller.percent_of(corp.sym) == 10
    assert corp.owner is not seller


def test_half_sale_not_offered_when_only_the_last_certificate_would_be_in_the_pool() -> None:
    """§2.2: no 10 % certificate to give back, so no half sale (it crashed before)."""
    engine, corp = stock_round_with_sfa()
    seller = successor_with_only_the_last_certificate(engine, corp, pool_ten=False)
    assert half_sales(engine, corp, seller) == []
    whole = [b for b in engine.bundles_for_corporation(seller, corp) if b.presidents_share]
    assert whole, "selling the whole president's certificate stays possible"


def test_half_sale_refused_when_only_the_last_certificate_would_be_in_the_pool() -> None:
    """§2.2: the sale asked for anyway is refused with a reason, holdings unchanged."""
    engine, corp = stock_round_with_sfa()
    seller = successor_with_only_the_last_certificate(engine, corp, pool_ten=False)
    pres = next(s for s in seller.shares_of(corp.sym) if s.president)
    before = {p.name: list(p.shares_of(corp.sym)) for p in engine.players}
    with pytest.raises(IllegalAction) as refused:
        engine.sell_shares(Bundle.of([pres], corp, 10))
    assert "10% certificate back" in refused.value.reason
    assert {p.name: list(p.shares_of(corp.sym)) for p in engine.players} == before
