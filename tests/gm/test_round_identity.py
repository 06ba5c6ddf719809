"""Rounds told apart by the engine's own round sequence (``api.Game.round``): standing
orders, deadlines and default orders apply to exactly the round they were given for, and
waiting orders end when their decision has passed (``stellwerk.gm.session``)."""

from __future__ import annotations

import random

import pytest

from stellwerk.api import Game
from stellwerk.gm.session import Session
from stellwerk.gm.standing import same_round
from stellwerk.selfplay import choose_action, lay_picker


def new(title: str, players: int, options: list[str] | None = None, seed: int = 5) -> Game:
    return Game.create(title, [(i, f"P{i}") for i in range(1, players + 1)], options or [], seed)


@pytest.mark.parametrize(("title", "options"), [("1849", []), ("1835", []), ("1841", ["lite"])])
def test_every_round_of_a_game_has_its_own_sequence_number(title: str, options: list[str]) -> None:
    """Through a random game the round's ``seq`` changes exactly when a new round begins,
    only ever upwards, so no two rounds share it -- while (name, number, turn) repeat."""
    game = new(title, 4, options, seed=11)
    rng = random.Random(11)
    seen: dict[int, tuple[str, int, int]] = {}
    names: list[tuple[str, int, int]] = []
    last = game.round.seq
    for number in range(300):
        legal = game.legal_actions()
        if game.finished or not legal:
            break
        game.process(choose_action(legal, rng, lay_picker(game, rng, number)))
        now = game.round
        assert now.seq >= last
        if now.seq != last:
            assert now.seq not in seen
            seen[now.seq] = (now.name, now.number, now.turn)
            names.append(seen[now.seq])
        last = now.seq
    assert len(seen) >= 3
    assert game.round.key == f"r{game.round.seq}"


def test_a_deadline_settles_one_round_where_stock_rounds_follow_each_other() -> None:
    """1841lite without a corporation: stock round follows stock round (the operating
    rounds have nobody to operate).  Each deadline gives the defaults of its own round only,
    says how many, and never runs on to finish the game."""
    game = new("1841", 4, ["lite"])
    session = Session(game)
    session.advance(defaults=True)  # the concession auction
    for _ in range(3):
        before = game.round
        assert before.kind == "stock"
        answers = session.advance(defaults=True)
        assert len(answers) == 4 and all(a.default for a in answers)
        assert game.round.kind == "stock" and game.round.seq > before.seq
        assert not game.finished
        assert session.events[-1].text == "deadline: 4 default orders given"
        assert session.events[-1].in_language("de") == "Abgabetermin: 4 Vorgaben gegeben"


def test_a_standing_pass_ends_with_its_stock_round_and_never_fires_in_the_next() -> None:
    """``pass until end of round`` given in one stock round: when that round ends it is
    cancelled at once (logged, ``program_disable`` in the game file), so in the next stock
    round -- same name, number 1 -- the player decides again."""
    game = new("1841", 4, ["lite"])
    session = Session(game)
    session.advance(defaults=True)
    holder = game.active_entities()[0]
    given = game.round
    answers = session.receive(holder, "pass until end of round")
    assert answers[0].standing and answers[0].refused is None
    session.advance(defaults=True)
    assert game.round.seq > given.seq and game.round.name == given.name
    standing = session.standing[0]
    assert not standing.active
    assert not same_round(game, standing.round_key)
    assert any("the stock round it was given in has ended" in e.text for e in session.events)
    assert any(a["type"] == "program_disable" for a in game.raw_actions)
    assert session.advance() == []  # nothing decides for anybody in the new round


def test_an_old_round_key_names_its_round_by_name_number_and_turn() -> None:
    """Keys stored before rounds had a sequence (``Round::Stock#1#3``) still compare: by
    all three parts, so an order of turn 3 never applies in turn 4."""
    game = new("1849", 3)
    now = game.round
    assert same_round(game, f"{now.name}#{now.number}#{now.turn}")
    assert not same_round(game, f"{now.name}#{now.number}#{now.turn + 1}")
    assert same_round(game, now.key) and not same_round(game, f"r{now.seq + 1}")


def test_an_order_passed_over_ends_and_says_so() -> None:
    """A waiting order whose decision was settled by a later order of the same kind ends
    with a line saying so, instead of firing in a later round (1849's private auction: a
    ``buy`` written before a ``bid`` waits while the bid is used)."""
    game = new("1849", 3)
    session = Session(game)
    player = game.active_entities()[0]
    bid = next(a for a in game.legal_actions() if a["type"] == "bid" and a["entity"] == player)
    session.receive(player, f"buy SFA\nbid {bid['price']} on {bid['company']}")
    answers = session.advance()
    assert answers[0].refused == "ended: its decision has passed (a later order was used)"
    assert answers[1].understood is not None and not session.pending


def test_waiting_orders_are_listed_with_what_they_wait_for() -> None:
    game = new("1849", 3)
    session = Session(game, langs={2: "de"})
    waiting = next(p for p, _ in game.players if p not in game.active_entities())
    session.receive(waiting, "passe")
    pending = session.pending[0]
    assert pending.given_in == game.round.seq
    german = "wartet auf deinen Zug in einer Aktien- oder Versteigerungsrunde"
    assert pending.waits_for("de") == german
    assert pending.waits_for("en") == "waits for your turn in a stock round or auction"


def test_a_mail_after_the_game_ended_is_refused_at_once() -> None:
    game = new("1849", 3)
    game.process({"type": "end_game", "entity": 1, "entity_type": "player"})
    assert game.finished
    session = Session(game, langs={1: "de"})
    answers = session.receive(1, "pass\npass until end of round")
    assert [a.refused for a in answers] == ["das Spiel ist zu Ende"] * 2
    assert not session.pending and not session.standing
