"""A report lists the orders its player can give now, in his order language, condensed (one
line per hex for tile lays, per corporation for a par, a price range for a purchase), with
prices and amounts after ``#``, at most ``MAX_ORDER_LINES`` lines."""

from __future__ import annotations

import random

import pytest

from stellwerk.api import Game
from stellwerk.gm import orders as o
from stellwerk.gm.report import ORDER_WORDS, build_report, legal_orders
from stellwerk.gm.understand import player_of

NAMES = [(1, "Anna"), (2, "Ben"), (3, "Clara")]


def played(until: str) -> tuple[Game, int]:
    """A seeded 1849 game played at random until a decision listing ``until`` (an action
    type, tile lays of every hex included); the game and the player deciding."""
    game = Game.create("1849", NAMES, [], 3)
    rng = random.Random(1)
    for _ in range(400):
        listed = game.legal_actions(all_lays=True)
        decider = player_of(game, listed[0]["entity"])  # type: ignore[arg-type]
        if any(a["type"] == until for a in listed) and decider is not None:
            return game, int(decider)
        acts = game.legal_actions()
        moves = [a for a in acts if a["type"] != "pass"]
        game.process(rng.choice(moves if moves and rng.random() < 0.7 else acts))
    raise AssertionError(f"no {until} reached")


def test_the_auction_bids_with_their_least_price_in_german() -> None:
    game = Game.create("1849", NAMES, [], 3)
    lines = legal_orders(game, 1, "de")
    assert lines[0] == "passe"
    assert "biete 20 auf SCE  # mindestens L.20" in lines
    assert legal_orders(game, 2, "de") == []  # not his decision
    anna = build_report(game, player="Anna", lang="de", since_action=0, orders=[],
                        deadline=None, with_game_file=False)  # fmt: skip
    assert "== Deine möglichen Befehle ==\npasse\nbiete 20 auf SCE  # mindestens L.20" in anna.text
    assert "<code>biete 20 auf SCE  # mindestens L.20</code>" in anna.html
    ben = build_report(game, player="Ben", lang="en", since_action=0, orders=[],
                       deadline=None, with_game_file=False)  # fmt: skip
    assert ORDER_WORDS["en"]["title"] not in ben.text


def test_tile_lays_one_line_per_hex() -> None:
    game, player = played("lay_tile")
    lays = [a for a in game.legal_actions(all_lays=True) if a["type"] == "lay_tile"]
    hexes = {str(a["hex"]) for a in lays}
    assert len(lays) > len(hexes)  # several tiles or rotations somewhere
    lines = [line for line in legal_orders(game, player, "en") if ": lay " in line]
    assert sorted(line.split(" on ")[1].split()[0] for line in lines) == sorted(hexes)
    assert all("# possible: " in line and " rotation " in line for line in lines)
    german = [line for line in legal_orders(game, player, "de") if ": lege " in line]
    assert len(german) == len(hexes) and all("# möglich: " in x for x in german)


@pytest.mark.parametrize(("kind", "needle"), [
    ("par", " at 100  # prices: 68, 100"),
    ("buy_shares", " from ipo  # 10%, price L."),
    ("sell_shares", "  # 10%, price L."),
    ("buy_train", ": buy train 4H  # L.100"),
])  # fmt: skip
def test_prices_and_amounts(kind: str, needle: str) -> None:
    game, player = played(kind)
    assert any(needle in line for line in legal_orders(game, player, "en"))


def test_every_line_is_an_order_the_gm_reads() -> None:
    for kind in ("bid", "par", "buy_shares", "lay_tile", "buy_train"):
        game, player = played(kind)
        for lang in ("en", "de"):
            lines = legal_orders(game, player, lang)
            parsed = o.parse_text("\n".join(lines))
            assert [line.error for line in parsed if line.order is None] == [], lines


def test_a_long_list_is_cut_with_the_count_of_the_rest() -> None:
    game = Game.create("1849", NAMES, [], 3)
    everything = legal_orders(game, 1, "en", limit=100)
    assert len(everything) == 6
    cut = legal_orders(game, 1, "en", limit=4)
    assert cut == [*everything[:3], "…and 3 more"]
    assert legal_orders(game, 1, "de", limit=4)[-1] == "…und 3 weitere"
