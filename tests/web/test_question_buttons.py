"""The buttons of a question the rules ask (``Game.question``) say what each answer does in
the title's words, in English and German, and the question stands above them; the game
master writes each answer as the order that gives it, with the title's sentence beside it in
the list of possible orders."""

from __future__ import annotations

import json
from pathlib import Path

from stellwerk.api import Game
from stellwerk.gm.phrase import meaning_text, order_text
from stellwerk.gm.report import legal_orders
from stellwerk.io.gamefile import load_game_file
from stellwerk.web.choices import build_choices


def position(path: Path, count: int) -> Game:
    """The game of the file ``path`` after its first ``count`` live actions."""
    found = load_game_file(json.loads(path.read_text()))
    game = Game(found.title, found.players, found.optional_rules, found.seed)
    for action in found.live[:count]:
        game.process(action, replay=True)
    return game


def test_a_share_offer_reads_as_buying_the_share(fixtures_18xx: Path) -> None:
    """1841's secession share offer (rules/1841.md 2.4.1): "Buy the 10% share of SB for
    L.100" and "Decline the share of SB", not "Choose: yes"."""
    game = position(fixtures_18xx / "1841" / "1841_game_end_bankrupt.json", 155)
    english = build_choices(game)
    labels = [c.label for c in english.buttons]
    assert "Buy the 10% share of SB for L.100" in labels
    assert "Decline the share of SB" in labels
    assert not any(label.startswith("Choose") for label in labels)
    assert english.question == "A 10% share of SB is offered at L.100: buy it?"
    german = build_choices(game, "de")
    assert "Die 10 %-Aktie von SB für L.100 kaufen" in [c.label for c in german.buttons]
    assert german.question.startswith("Eine 10 %-Aktie von SB")


def test_the_gm_orders_an_answer_by_its_meaning(fixtures_18xx: Path) -> None:
    """The order for an answer reads back to the same action; its note is the sentence."""
    game = position(fixtures_18xx / "1841" / "1841_game_end_bankrupt.json", 47)
    question = game.question()
    assert question is not None
    for choice in question.choices:
        count = choice.fact("count")
        assert order_text(game, choice.action) == f"IRSFF: buy {count} tokens"
        assert order_text(game, choice.action, "de") == f"IRSFF: kaufe {count} marken"
    three = question.choices[1].action
    assert meaning_text(game, three) == "Buy 3 station tokens for L.150 (L.50 each)"
    assert meaning_text(game, three, "de") == "3 Stationsmarker für L.150 kaufen (je L.50)"
    player = game.decider_of("IRSFF")
    assert player is not None
    lines = legal_orders(game, player, "en")
    assert "IRSFF: buy 3 tokens  # Buy 3 station tokens for L.150 (L.50 each)" in lines
