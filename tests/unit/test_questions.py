"""The decision asked now as a typed question (``api.Game.question``): who decides, what is
asked, its facts, and every answer's meaning and action, said in English and German in the
title's words and money.  Checked at real positions of recorded games (the shared 18xx.games
fixtures) where a procedure asks.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from stellwerk.api import Game
from stellwerk.io.gamefile import load_game_file
from stellwerk.selfplay import choose_action, lay_picker
from stellwerk.views import Question


def position(path: Path, count: int) -> Game:
    """The game of the file ``path`` after its first ``count`` live actions."""
    found = load_game_file(json.loads(path.read_text()))
    game = Game(found.title, found.players, found.optional_rules, found.seed)
    for action in found.live[:count]:
        game.process(action, replay=True)
    return game


def check_answers(game: Game, question: Question) -> None:
    """Every choice is a listed action and is accepted in live play (then taken back)."""
    legal = game.legal_actions()
    for choice in question.choices:
        assert choice.action in legal, choice
        game.process(dict(choice.action))
        game.undo()
    assert game.question() == question


def sentences(game: Game, question: Question, lang: str) -> list[str]:
    return [game.choice_text(c, lang) for c in question.choices]


def test_1841_a_new_corporation_buys_station_tokens_at_l50_each(fixtures_18xx: Path) -> None:
    """rules/1841.md 2.2.3: a started historical corporation buys 2 to 5 station tokens at
    L.50 each; the question names the corporation and the price per token, each answer the
    count and the total."""
    game = position(fixtures_18xx / "1841" / "1841_game_end_bankrupt.json", 47)
    question = game.question()
    assert question is not None
    assert question.topic == "buy_tokens"
    assert (question.who.kind, question.who.key) == ("corporation", "IRSFF")
    assert question.fact("corporation") == "IRSFF"
    assert question.fact("price") == 50
    assert [c.fact("count") for c in question.choices] == [2, 3, 4, 5]
    assert [c.fact("total") for c in question.choices] == [100, 150, 200, 250]
    assert {c.kind for c in question.choices} == {"buy_tokens"}
    assert game.question_text(question) == "How many station tokens does IRSFF buy?"
    assert game.question_text(question, "de") == "Wie viele Stationsmarker kauft IRSFF?"
    assert "Buy 3 station tokens for L.150 (L.50 each)" in sentences(game, question, "en")
    assert "3 Stationsmarker für L.150 kaufen (je L.50)" in sentences(game, question, "de")
    check_answers(game, question)


def test_1841_a_secession_share_offer_names_the_share_and_its_price(fixtures_18xx: Path) -> None:
    """rules/1841.md 2.4.1: after the Ferdinandea secession each holder in turn is offered a
    share of a new corporation at its market price; yes buys it, no declines."""
    game = position(fixtures_18xx / "1841" / "1841_game_end_bankrupt.json", 155)
    question = game.question()
    assert question is not None
    assert question.topic == "share_offer"
    assert question.who.kind == "player"
    assert question.facts == (("corporation", "SB"), ("share", 10), ("price", 100))
    assert [(c.kind, c.action["choice"]) for c in question.choices] == [
        ("buy_share", "yes"),
        ("decline_share", "no"),
    ]
    assert game.question_text(question) == "A 10% share of SB is offered at L.100: buy it?"
    assert sentences(game, question, "en") == [
        "Buy the 10% share of SB for L.100",
        "Decline the share of SB",
    ]
    assert sentences(game, question, "de") == [
        "Die 10 %-Aktie von SB für L.100 kaufen",
        "Die Aktie von SB ablehnen",
    ]
    check_answers(game, question)


def test_1841_offer_again_and_token_removal(fixtures_18xx: Path) -> None:
    """rules/1841.md 2.4.1: the new corporation says whether its shares are offered once
    more; 2.4.2/2.3.11: a corporation over its token limit removes station tokens, a pass
    keeping the rest once enough have gone."""
    path = fixtures_18xx / "1841" / "1841_game_end_bankrupt.json"
    game = position(path, 157)
    question = game.question()
    assert question is not None
    assert question.topic == "offer_again"
    assert [c.kind for c in question.choices] == ["offer_again", "end_offers"]
    assert sentences(game, question, "en") == [
        "Offer SB's shares once more",
        "End the offers of SB's shares",
    ]
    assert game.question_text(question, "de") == "Bietet SB ihre Aktien noch einmal an?"
    check_answers(game, question)
    game = position(path, 163)
    question = game.question()
    assert question is not None
    assert question.topic == "remove_tokens"
    assert question.fact("corporation") == "SFLi"
    removal = next(c for c in question.choices if c.kind == "remove_token")
    assert removal.fact("hex") == "P12"
    assert game.choice_text(removal) == "Remove SFLi's station token in P12"
    assert game.choice_text(removal, "de") == "Stationsmarker von SFLi in P12 entfernen"
    assert question.choices[-1].kind == "keep_tokens"
    assert question.choices[-1].action["type"] == "pass"
    check_answers(game, question)


def test_1841_a_home_station_on_a_two_city_hex_names_the_city(fixtures_18xx: Path) -> None:
    """rules/1841.md 2.2.3: a started corporation chooses its home station; on Firenze's
    two-city tile the answers name the city."""
    game = position(fixtures_18xx / "1841" / "1841_game_end_bankrupt.json", 49)
    question = game.question()
    assert question is not None
    assert question.topic == "home_token"
    assert [c.fact("city") for c in question.choices] == [1, 2]
    assert sentences(game, question, "en") == [
        "Place SFMA's home station in R14, city 1",
        "Place SFMA's home station in R14, city 2",
    ]
    assert sentences(game, question, "de")[1] == "Heimatbahnhof von SFMA nach R14, Stadt 2 setzen"
    check_answers(game, question)


def test_1849_the_bankruptcy_loan_and_sms(fixtures_18xx: Path) -> None:
    """1849 rules §6: a bankrupt president without shares takes an L.500 loan or leaves;
    §4.6: SMS's owning corporation may close it to reach any coastal city."""
    path = fixtures_18xx / "1849" / "1849_game_end_bank.json"
    game = position(path, 161)
    question = game.question()
    assert question is not None
    assert question.topic == "bankruptcy_loan"
    assert question.fact("loan") == 500
    assert [c.kind for c in question.choices] == ["take_bankruptcy_loan", "leave_game"]
    assert sentences(game, question, "en") == ["Take a loan of L.500", "Leave the game"]
    assert sentences(game, question, "de") == [
        "Einen Kredit von L.500 aufnehmen",
        "Das Spiel verlassen",
    ]
    check_answers(game, question)
    game = position(path, 137)
    question = game.question()
    assert question is not None
    assert question.topic == "sms_teleport"
    assert question.facts == (("corporation", "SFA"), ("company", "SMS"))
    assert game.question_text(question) == "Does SFA close SMS to reach any coastal city?"
    assert sentences(game, question, "de")[1] == "SMS behalten"
    check_answers(game, question)


def played_until(title: str, seed: int, topic: str, limit: int = 3000) -> Game:
    """A random game of ``title`` (4 players, the selfplay driver) played until the rules
    ask the question ``topic``."""
    game = Game.create(title, [(i, f"P{i}") for i in range(1, 5)], [], seed)
    rng = random.Random(seed)
    for number in range(limit):
        legal = game.legal_actions()
        assert legal and not game.finished, f"no {topic} question in {number} actions"
        if any(a.get("type") == "choose" for a in legal):
            question = game.question()
            if question is not None and question.topic == topic:
                return game
        game.process(choose_action(legal, rng, lay_picker(game, rng, number)))
    raise AssertionError(f"no {topic} question in {limit} actions")


def test_1835_the_prussian_formation_and_the_exchanges() -> None:
    """rules/1835.md 10: in phase 4 M2's owner decides whether PR starts (M2 becomes its
    10 % director's certificate); then each minor's or private's owner may fold it into PR
    for its reserved share."""
    game = played_until("1835", 1, "formation")
    question = game.question()
    assert question is not None
    assert (question.who.kind, question.who.key) == ("corporation", "M2")
    assert question.facts == (("corporation", "PR"), ("paper", "M2"), ("share", 10))
    assert [(c.kind, c.action["choice"]) for c in question.choices] == [
        ("form", "form"),
        ("decline_formation", "decline"),
    ]
    assert game.question_text(question) == "Does M2 start the Prussian railway PR now?"
    assert sentences(game, question, "en") == [
        "Start PR: M2 becomes its director's share",
        "Do not start PR now",
    ]
    assert sentences(game, question, "de") == [
        "PR gründen: M2 wird ihr Direktoranteil",
        "PR jetzt nicht gründen",
    ]
    check_answers(game, question)
    game.process(dict(question.choices[0].action))
    exchange = game.question()
    assert exchange is not None
    assert exchange.topic == "fold_in"
    assert exchange.fact("corporation") == "PR"
    assert [c.kind for c in exchange.choices] == ["fold_in", "keep_paper"]
    paper = exchange.fact("paper")
    share = exchange.fact("share")
    assert game.choice_text(exchange.choices[0]) == f"Exchange {paper} for a {share}% share of PR"
    assert game.choice_text(exchange.choices[0], "de") == (
        f"{paper} gegen eine {share} %-Aktie von PR tauschen"
    )
    check_answers(game, exchange)


def test_1835_a_repeated_sale_asks_whether_the_price_drops() -> None:
    """rules/1835.md 5.3: a repeated sale of one company in a turn leaves its price; the
    seller may lower it one row."""
    game = played_until("1835", 1, "lower_price")
    question = game.question()
    assert question is not None
    sym = question.fact("corporation")
    assert [c.kind for c in question.choices] == ["lower_price"]
    assert game.choice_text(question.choices[0]) == f"Lower the share price of {sym} by one row"
    assert game.choice_text(question.choices[0], "de") == (
        f"Den Kurs von {sym} um eine Reihe senken"
    )
    check_answers(game, question)


def test_no_question_during_ordinary_moves(fixtures_18xx: Path) -> None:
    """A stock turn's buys and sales are ordinary moves: no question is asked."""
    game = position(fixtures_18xx / "1849" / "1849_game_end_bank.json", 20)
    assert not any(a.get("type") == "choose" for a in game.legal_actions())
    assert game.question() is None


def test_a_sentence_the_title_lacks_is_said_by_its_facts() -> None:
    """A key no sentence is written for still reads: its name and facts."""
    game = Game.create("1841", [(1, "A"), (2, "B"), (3, "C")])
    assert game.sentence("choice.unheard_of", [("count", 2)]) == "unheard_of: count 2"
    assert game.sentence("choice.pass", [], "de") == "Passen"


@pytest.mark.parametrize("title", ["1835", "1841", "1849"])
def test_every_sentence_is_written_in_english_and_german(title: str) -> None:
    """Each title's question and answer sentences exist in both languages with the same
    facts."""
    import string

    from stellwerk.titles.registry import TITLES

    sentences = TITLES[title].presentation.sentences
    assert set(sentences["en"]) == set(sentences["de"])

    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    for key, text in sentences["en"].items():
        assert fields(text) == fields(sentences["de"][key]), key
