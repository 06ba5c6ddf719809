"""Routes named by their stops where the stops allow more than one legal route
(gm/routefind.py): the GM takes the one paying most, as the player would ask, instead of
refusing the order (issue 10 item 1: ``ATA: run H12-J10-L12 with 4H``)."""

from __future__ import annotations

from gm_scripted import script

from stellwerk.api import Game
from stellwerk.gm.orders import RunRoute
from stellwerk.gm.routefind import named_routes
from stellwerk.gm.session import Session

SEED = 1
ROUTE_LINE = 505
"""In this seeded 1841lite game the order at this line names F6-H4-I5-J6 for SFTG's 2-train:
the engine's route enumerator lists two legal routes with those stops (found by listing the
candidates at every run of the game; the driver's games change with its choices, so a change
there may move the line)."""
STOPS = ["F6", "H4", "I5", "J6"]


def test_named_stops_with_two_ways_take_the_route_paying_most() -> None:
    reference, lines = script("1841", 3, SEED, ROUTE_LINE + 1, options=["lite"])
    player, text = lines[ROUTE_LINE]
    assert text.startswith("SFTG: fahre " + "-".join(STOPS))
    data = reference.to_file()
    recorded = data["actions"][ROUTE_LINE]
    data["actions"] = data["actions"][:ROUTE_LINE]
    session = Session(Game.from_file(data))
    session.receive(player, text)
    answers = session.advance()
    taken = [a for a in answers if a.text == text]
    assert taken and taken[0].refused is None and taken[0].action_id is not None
    run = session.game.to_file()["actions"][-1]
    assert run["type"] == "run_routes" and run["entity"] == "SFTG"
    paid = sum(r["revenue"] for r in run["routes"])
    assert paid == sum(r["revenue"] for r in recorded["routes"])
    assert set(STOPS) <= set(run["routes"][0]["hexes"])


SHARED_SEED = 2
SHARED_LINE = 733
"""In this seeded 1841 game the order at this line names three routes of RATF's 2-trains,
``S15-R14-Q13-S11-T10; R14-S11; S11-Q11``: on its own S11-Q11 has two ways paying the same,
and the first the enumerator lists (by T12 and R12) uses track the first route uses, so only
the other (the direct one) runs with the others (found by playing the slow whole game by
orders; the driver's games change with its choices, so a change there may move the line)."""


def test_named_routes_are_taken_together_on_track_not_used_twice() -> None:
    reference, lines = script("1841", 3, SHARED_SEED, SHARED_LINE + 1)
    player, text = lines[SHARED_LINE]
    assert text.startswith("RATF: fahre S15-R14-Q13-S11-T10 mit 2; R14-S11 mit 2; S11-Q11")
    data = reference.to_file()
    recorded = data["actions"][SHARED_LINE]
    data["actions"] = data["actions"][:SHARED_LINE]
    game = Game.from_file(data)
    routes = tuple(RunRoute(tuple(r["hexes"]), "2") for r in recorded["routes"])
    alone = named_routes(game, "RATF", routes[2:])  # S11-Q11 by itself: its first best way
    assert alone[0]["connections"] != recorded["routes"][2]["connections"]
    session = Session(game)
    session.receive(player, text)
    answers = session.advance()
    taken = [a for a in answers if a.text == text]
    assert taken and taken[0].refused is None and taken[0].action_id is not None
    run = session.game.to_file()["actions"][-1]
    assert run["type"] == "run_routes" and run["entity"] == "RATF"
    assert [r["connections"] for r in run["routes"]] == [
        r["connections"] for r in recorded["routes"]
    ]
