"""A malformed, ambiguous or illegal order gets a reply naming the problem, and the game is
unchanged (issue 10, "How it will be checked"; issue 10 item 1)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from stellwerk.api import Game
from stellwerk.gm.phrase import order_text
from stellwerk.gm.session import Session
from stellwerk.gm.understand import player_of
from stellwerk.selfplay import choose_action, lay_picker


def position(seed: int, actions: int) -> Game:
    """A 1849 game after ``actions`` seeded random actions."""
    game = Game.create("1849", [(1, "A"), (2, "B"), (3, "C")], [], seed)
    rng = random.Random(seed)
    for number in range(actions):
        game.process(choose_action(game.legal_actions(), rng, lay_picker(game, rng, number)))
    return game


def record(game: Game) -> str:
    return json.dumps(game.to_file(), sort_keys=True)


def answer(game: Game, player: Any, text: str) -> Any:
    session = Session(game)
    answers = session.receive(player, text)
    answers += session.advance()
    assert len(answers) == 1
    return answers[0]


def acting_player(game: Game) -> Any:
    return player_of(game, game.active_entities()[0])


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("kaufe", "buy what"),
        ("gründe ATA", "par ATA at 100"),
        ("fahre nach Palermo", "cannot read route"),
        ("fliege nach Palermo", "unknown order"),
        ("bid 10 on", "bid 120 on SCE"),
    ],
)
def test_a_malformed_order_is_answered_and_changes_nothing(text: str, problem: str) -> None:
    game = position(3, 0)
    before = record(game)
    reply = answer(game, acting_player(game), text)
    assert reply.refused is not None and problem in reply.refused
    assert reply.understood is None
    assert record(game) == before


def test_an_illegal_bid_is_refused_by_the_engine_naming_the_rule() -> None:
    """A bid below the minimum: the engine's IllegalAction names the rule (common rules
    §6.7 or the title's rule); nothing changes."""
    game = position(3, 0)
    before = record(game)
    bid = next(a for a in game.legal_actions() if a["type"] == "bid")
    reply = answer(game, acting_player(game), f"bid 1 on {bid['company']}")
    assert reply.refused is not None and "§" in reply.refused
    assert record(game) == before


def test_an_order_for_a_corporation_of_another_player_is_refused() -> None:
    """An order for a corporation another player presides, of which the sender holds no
    certificate, is refused as it arrives (it cannot become his decision unless the mail
    buys into it first); the rest of the mail is used."""
    game = position(3, 38)
    snap = game.snapshot()
    player = acting_player(game)
    mine = next(p["shares"] for p in snap["players"] if p["id"] == player)
    other = next(
        c["id"]
        for c in snap["corporations"]
        if c.get("president") not in (None, player) and c["id"] not in mine
    )
    session = Session(game)
    answers = session.receive(player, f"{other}: pass\npass")
    assert [a.refused for a in answers] == [f"you do not preside {other}"]
    assert not session.pending[1:] and session.pending[0].text == "pass"
    answers = session.advance()
    assert answers[0].understood is not None  # the plain pass answers the stock turn
    assert not session.pending


def test_an_order_for_a_corporation_the_mail_buys_first_waits() -> None:
    """A mail that buys into another player's corporation before ordering for it: the
    order waits (the buy may make the sender president)."""
    game = position(3, 38)
    snap = game.snapshot()
    player = acting_player(game)
    other = next(c["id"] for c in snap["corporations"] if c.get("president") not in (None, player))
    session = Session(game)
    answers = session.receive(player, f"buy {other}\n{other}: pass")
    assert answers == [] and [p.text for p in session.pending] == [f"buy {other}", f"{other}: pass"]


def test_an_ambiguous_source_is_refused_naming_the_choices() -> None:
    """CTL is for sale from the IPO and the pool here: "buy CTL" takes the IPO (the issue:
    the listed buy from the IPO), "buy CTL from pool" the pool; an unknown source is refused
    with the sources named."""
    game = position(3, 38)
    player = acting_player(game)
    before = record(game)
    reply = answer(game, player, "buy CTL from Timbuktu")
    assert reply.refused is not None and "ipo" in reply.refused and "pool" in reply.refused
    assert record(game) == before
    reply = answer(game, player, "kaufe CTL aus Pool")
    assert reply.understood == "buy CTL from pool"


def test_issue10_an_ambiguous_tile_lay_is_refused_naming_the_rotations() -> None:
    """Tile 79 fits L12 in more than one rotation: without a rotation the order is refused
    naming them; with one of them it is understood."""
    game = position(3, 16)
    corp = game.active_entities()[0]
    player = player_of(game, corp)
    before = record(game)
    reply = answer(game, player, f"{corp}: lay 79 on L12")
    assert reply.refused is not None and reply.refused.startswith("ambiguous")
    assert "rotation" in reply.refused
    assert record(game) == before
    lays = [
        a
        for a in game.legal_actions(hex_id="L12")
        if a["type"] == "lay_tile" and a["tile"].startswith("79-")
    ]
    text = order_text(game, lays[0], "de")
    reply = answer(game, player, text)
    assert reply.understood is not None and reply.refused is None


def test_a_tile_that_does_not_fit_is_refused_naming_the_tiles_that_do() -> None:
    game = position(3, 16)
    corp = game.active_entities()[0]
    before = record(game)
    reply = answer(game, player_of(game, corp), f"{corp}: lege 9999 auf L12 drehung 0")
    assert reply.refused is not None and "fits:" in reply.refused and "79" in reply.refused
    assert record(game) == before


def test_an_order_that_fits_no_decision_waits_and_changes_nothing() -> None:
    """A train order in the private auction is kept for later, not refused."""
    game = position(3, 0)
    before = record(game)
    session = Session(game)
    session.receive(acting_player(game), "SFA: buy train 4H")
    assert session.advance() == []
    assert len(session.pending) == 1
    assert record(game) == before
