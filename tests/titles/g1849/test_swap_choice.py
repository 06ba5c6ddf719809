"""1849 presidency swap choice (rules/1849.md §2.2) when the corporation closes (§5) before the
previous president answers.

A sale can hand the presidency to a player holding the 20 % last certificate and at least 40 %,
which asks the previous president whether he wants two 10 % certificates instead, and drop the
price to 0 in the same action, which closes the corporation and voids its certificates.  The
choice of two 10 % certificates then has nothing to swap: it used to crash the engine
(``stellwerk selfplay 1849 --players 4 --seed 90122``).  18xx.games still asks the question and
fails on that answer, so only ``One 20% cert`` is offered and the other answer is refused.
"""

from __future__ import annotations

import pytest

from stellwerk.api import Game
from stellwerk.core.entities import Corporation, Player
from stellwerk.core.errors import IllegalAction
from stellwerk.core.shares import Bundle, move_share
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
    double = next(s for s in treasury if s.last_cert)
    handed = [
        (tens[0], seller),
        (tens[1], seller),
        (double, successor),
        (tens[2], successor),
        (tens[3], successor),
    ]
    for share, holder in handed:
        move_share(share, holder)
        corp.share_holders[corp] = corp.share_holders.get(corp, 0) - share.percent
        corp.share_holders[holder] = corp.share_holders.get(holder, 0) + share.percent
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
    assert not any(s.last_cert for s in seller.shares_of(corp.sym))
    assert seller.percent_of(corp.sym) == 20
    assert any(s.last_cert for s in successor.shares_of(corp.sym))


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
