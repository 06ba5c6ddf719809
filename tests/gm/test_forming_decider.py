"""A corporation a merger forms has to discard trains before anyone took its presidency
(1841: the trains move to the target before the shares are exchanged, rules/1841.md 2.3.11):
the merger's deciding player decides for it, so the game goes on by orders."""

from __future__ import annotations

from gm_scripted import script

from stellwerk.api import Game
from stellwerk.gm.session import Session

SEED = 2
DISCARD_LINE = 780
"""In this seeded 1841 game ICSF (Player 2's) merges with ATFA into CTS at the lines before;
CTS is over its train limit and discards at this line, while the exchange has yet to ask
Player 2 whether he takes CTS's presidency (found by playing the slow whole game by orders;
the driver's games change with its choices, so a change there may move the line)."""


def test_the_merger_decider_discards_for_a_target_without_president() -> None:
    reference, lines = script("1841", 3, SEED, DISCARD_LINE + 1)
    player, text = lines[DISCARD_LINE]
    assert text.startswith("CTS: ")
    data = reference.to_file()
    recorded = data["actions"][DISCARD_LINE]
    assert recorded["type"] == "discard_train"
    data["actions"] = data["actions"][:DISCARD_LINE]
    game = Game.from_file(data)
    assert game.decider_of("CTS") == player == 2
    session = Session(game)
    assert session.waiting_for() == [2]
    session.receive(player, text)
    answers = session.advance()
    taken = [a for a in answers if a.text == text]
    assert taken and taken[0].refused is None and taken[0].action_id is not None
    done = session.game.to_file()["actions"][-1]
    assert (done["type"], done["entity"]) == ("discard_train", "CTS")
    assert done["train"] == recorded["train"]
