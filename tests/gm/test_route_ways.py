"""Routes named by their stops where the stops allow more than one legal route
(gm/routefind.py): the GM takes the one paying most, as the player would ask, instead of
refusing the order (issue 10 item 1: ``ATA: run H12-J10-L12 with 4H``)."""

from __future__ import annotations

from gm_scripted import script

from stellwerk.api import Game
from stellwerk.gm.session import Session

ROUTE_LINE = 661
"""In this seeded 1841lite game the order at this line names O17-N16-L16-K15-L14-N16 for
CGTF's 3-train: the stops can be run two ways (found by playing it through orders)."""


def test_named_stops_with_two_ways_take_the_route_paying_most() -> None:
    reference, lines = script("1841", 3, 4, ROUTE_LINE + 1, options=["lite"])
    player, text = lines[ROUTE_LINE]
    assert text.startswith("CGTF: fahre O17-N16-L16-K15-L14-N16")
    data = reference.to_file()
    recorded = data["actions"][ROUTE_LINE]
    data["actions"] = data["actions"][:ROUTE_LINE]
    session = Session(Game.from_file(data))
    session.receive(player, text)
    answers = session.advance()
    taken = [a for a in answers if a.text == text]
    assert taken and taken[0].refused is None and taken[0].action_id is not None
    run = session.game.to_file()["actions"][-1]
    assert run["type"] == "run_routes" and run["entity"] == "CGTF"
    paid = sum(r["revenue"] for r in run["routes"])
    assert paid == sum(r["revenue"] for r in recorded["routes"])
    assert "O17" in run["routes"][0]["hexes"] and run["routes"][0]["hexes"][-1] in ("N16", "O17")
