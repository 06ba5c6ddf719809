"""The 1841 forms that can be played now (issue 10 item 1; 1841 replays up to its first
operating round): concession bids, sealed bids of the first edition (``version_1``), pars
and buys from a recorded game, and the buy-tokens answer (``choose``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stellwerk.api import Game
from stellwerk.gm import orders as o
from stellwerk.gm.phrase import order_text
from stellwerk.gm.session import Session
from stellwerk.gm.understand import player_of
from stellwerk.io.gamefile import load_game_file, read_game_file

PLAYERS: list[tuple[int | str, str]] = [(1, "A"), (2, "B"), (3, "C")]


def test_1841_concession_bids_in_both_languages() -> None:
    """rules/1841.md, the concession auction: a bid names the concession and the amount."""
    session = Session(Game.create("1841", PLAYERS, [], 1))
    session.receive(1, "biete 25 auf SFTG")
    session.receive(2, "bid 30 on SFTG  # more")
    answers = session.advance()
    assert [a.understood for a in answers] == ["bid 25 on SFTG", "bid 30 on SFTG"]
    bids = [a for a in session.game.actions if a["type"] == "bid"]
    assert [(a["entity"], a["company"], a["price"]) for a in bids] == [
        (1, "SFTG", 25), (2, "SFTG", 30),
    ]  # fmt: skip


def test_1841_first_edition_sealed_bids_land_on_their_items() -> None:
    """version_1: each player hands in one sealed list of bids, one per concession in the
    fixed item order; the order names items, the GM puts each amount at its item."""
    game = Game.create("1841", PLAYERS, ["version_1"], 1)
    session = Session(game)
    session.receive(1, "gebote SFTG=60 SFLP=20")
    answers = session.advance()
    assert answers[0].refused is None, answers[0]
    sealed = game.actions[-1]
    assert sealed["type"] == "blind_bid"
    assert sealed["bids"] == [0, 20, 0, 0, 0, 0, 60, 0]  # items: Bayard, SFLP, ..., SFTG, IRSFF
    assert answers[0].understood == "bids SFLP=20 SFTG=60"


def test_1841_sealed_bids_for_an_unknown_item_are_refused_naming_the_items() -> None:
    game = Game.create("1841", PLAYERS, ["version_1"], 1)
    session = Session(game)
    session.receive(1, "bids XYZ=60")
    answers = session.advance()
    assert answers[0].refused is not None and "SFTG" in answers[0].refused
    assert game.actions == []


def live_actions(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    data = read_game_file(path)
    return data, list(load_game_file(data).live)


def test_1841_recorded_auction_and_stock_round_by_orders(fixtures_18xx: Path) -> None:
    """The recorded 1841 game's concession auction and its first stock round (bids, pars,
    buys, the tokens bought at par), played by orders written in alternating languages,
    give the recorded actions."""
    data, live = live_actions(fixtures_18xx / "1841" / "1841_game_end_bank.json")
    game = Game.from_file({**data, "actions": []})
    session = Session(game)
    kinds = set()
    for number, recorded in enumerate(live[:60]):
        if "Operating" in str(game.snapshot()["round"]):
            break
        text = order_text(game, recorded, "de" if number % 2 else "en")
        session.receive(player_of(game, recorded["entity"]), text)
        answers = session.advance()
        assert answers and answers[-1].refused is None, (number, text, answers)
        played = {k: v for k, v in game.actions[-1].items() if k not in ("id", "auto_actions")}
        wanted = {k: v for k, v in recorded.items()
                  if k not in ("id", "auto_actions", "created_at", "user")}  # fmt: skip
        assert played == wanted, (number, text)
        kinds.add(recorded["type"])
    assert {"bid", "pass", "par", "buy_shares", "choose"} <= kinds


@pytest.mark.parametrize("lang", ["en", "de"])
def test_1841_phrases_read_back(lang: str) -> None:
    """Every listed action of the opening position, written as an order, reads back to
    itself (the phrase and the parser agree)."""
    from stellwerk.gm.orders import parse_order
    from stellwerk.gm.understand import understand

    game = Game.create("1841", PLAYERS, [], 1)
    for action in game.legal_actions():
        order = parse_order(order_text(game, action, lang))
        assert order is not None
        assert understand(game, 1, order, 1).action == action


FORMS_1841 = [
    ("take cash", "nimm geld", o.Take("cash")),
    ("take shares", "nimm aktien", o.Take("shares")),
    ("take presidency", "nimm direktor", o.Take("president")),
    ("take lower price", "nimm niedrigeren kurs", o.Take("lower")),
    ("take higher price", "nimm höheren Kurs", o.Take("higher")),
    ("take SB", "nimm SB", o.Take("SB")),
    ("yes", "ja", o.Answer(True)),
    ("no", "nein", o.Answer(False)),
    ("CTS: buy 3 tokens", "CTS: kaufe 3 Marken", o.TokenCount(3, corp="CTS")),
    ("SB: buy no tokens", "SB: kaufe keine Marken", o.TokenCount(0, corp="SB")),
    ("ICSF: merge with SFTG", "ICSF: fusioniere mit SFTG", o.Merge("SFTG", corp="ICSF")),
    ("ICSF: merge into CTS", "ICSF: fusioniere zu CTS", o.Merge("CTS", corp="ICSF")),
    ("SFLP: transform into AFI", "SFLP: wandle in AFI um", o.Merge("AFI", corp="SFLP")),
    ("CTS: remove token H4 city 1", "CTS: entferne Marke H4 Stadt 1",
     o.RemoveToken("H4", 1, corp="CTS")),
    ("CTS: keep tokens", "CTS: behalte Marken", o.KeepTokens(corp="CTS")),
    ("ATA: buy token Q15 city 0 from SFLi for 29", "ATA: kaufe Marke Q15 Stadt 0 von SFLi für 29",
     o.BuyToken("Q15", 0, "SFLI", 29, corp="ATA")),
    ("SFLP: bankrupt loan", "SFLP: bankrott Kredit", o.Bankrupt(1, corp="SFLP")),
    ("SFLP: bankrupt resign", "SFLP: bankrott aufgeben", o.Bankrupt(0, corp="SFLP")),
    ("buy IFAI from pool 20%", "kaufe IFAI aus pool 20%", o.Buy("IFAI", "pool", 20)),
]  # fmt: skip
"""rules/1841.md 5.3-5.4: every decision of 1841's procedures has an order in English and
German (mergers 2.3.11, transformations 2.3.12, the secession 2.4.1, token purchase 2.2.3
and 2.5, bankruptcy 2.6)."""


@pytest.mark.parametrize(("english", "german", "order"), FORMS_1841)
def test_1841_decisions_have_english_and_german_orders(
    english: str, german: str, order: o.Order
) -> None:
    assert o.parse_order(english) == order
    assert o.parse_order(german) == order


def test_1841_merge_with_into_is_two_orders() -> None:
    """A merger proposal names the partner, then the new corporation (rules/1841.md 2.3.11:
    two ``merge`` actions); one line says both."""
    lines = o.parse_text("ICSF: fusioniere mit SFTG zu CTS\n")
    assert [line.order for line in lines] == [
        o.Merge("SFTG", corp="ICSF"), o.Merge("CTS", corp="ICSF"),
    ]  # fmt: skip
    assert [o.parse_order(line.text) for line in lines] == [line.order for line in lines]
