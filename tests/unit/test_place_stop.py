"""``api.Game.place_stop``: a stop added to a train's route goes where the run stays legal and
pays most -- either end or between two consecutive stops; ties the end, then the earliest
place (``core/routes/place.py``, common rules §6.1).  On the 1849 fixture cut before ATA's run
(action 99: 4H N8-M9-N10-M11, 4H M13-M11, 6H M13-K13-L14) and on seeded 1841 and 1835 selfplay
positions (``test_routes_through``'s): stops prepended, put back in the middle, clicked out of
walking order, the best-paying place taken, impossible and hostile stops refused with the
routes unchanged."""

from __future__ import annotations

import dataclasses

import pytest
from tests.unit.test_routes_through import _best, _run_positions, cut

from stellwerk.api import Game
from stellwerk.core.errors import IllegalAction
from stellwerk.core.routes.model import RouteWalk, RunContext, TrainSpec
from stellwerk.core.routes.place import place_stop, places
from stellwerk.core.routes.stops import MAX_STOPS, ProposedRoute, routes_through, stop_of
from stellwerk.pictures.scene import route_lines

BEST = {
    "4H-1": ["N8.0", "M9.0", "N10.0", "M11.0"],
    "4H-2": ["M13.0", "M11.0"],
    "6H-1": ["M13.0", "K13.0", "L14.0"],
}
Named = list[tuple[str, list[str]]]


def run_with(**routes: list[str]) -> Named:
    """The best run of action 99 with some trains' routes replaced (``4H_1`` for ``4H-1``)."""
    chosen = {**BEST, **{k.replace("_", "-"): v for k, v in routes.items()}}
    return list(chosen.items())


def route_of(placed: Named, train: str) -> list[str]:
    return dict(placed)[train]


@pytest.fixture(scope="module")
def game() -> Game:
    return cut(99)


def test_places_are_tried_end_first_then_from_the_start() -> None:
    assert places(0) == [0]
    assert places(3) == [3, 0, 1, 2]


def test_a_stop_before_the_first_is_prepended(game: Game) -> None:
    placed = game.place_stop("ATA", run_with(**{"6H_1": ["K13", "L14"]}), "6H-1", "M13")
    assert route_of(placed, "6H-1") == BEST["6H-1"]
    assert route_of(placed, "4H-1") == BEST["4H-1"]  # the other trains as they were
    found = game.routes_through("ATA", placed)
    assert [(r["train"], r["revenue"]) for r in found] == [("4H-1", 70), ("4H-2", 40), ("6H-1", 90)]


def test_a_stop_taken_out_of_the_middle_goes_back_into_it(game: Game) -> None:
    """N8-N10-M11 has no track between N8 and N10; M9 fits only between them."""
    gap = ["N8.0", "N10.0", "M11.0"]
    with pytest.raises(IllegalAction, match="no track joins N8 and N10"):
        game.routes_through("ATA", run_with(**{"4H_1": gap}))
    placed = game.place_stop("ATA", run_with(**{"4H_1": gap}), "4H-1", "M9")
    assert route_of(placed, "4H-1") == BEST["4H-1"]


def test_stops_clicked_out_of_walking_order_land_in_their_places(game: Game) -> None:
    """M9, N10, N8, M11 clicked one after the other (appended they would be M9-N10-N8-M11,
    no route) give N8-M9-N10-M11, the route of 70: each step a legal route (through ATA's
    token at M9), N8 put before M9, M11 after N10."""
    routes = run_with(**{"4H_1": []})
    for stop in ["M9.0", "N10.0", "N8.0", "M11.0"]:
        routes = game.place_stop("ATA", routes, "4H-1", stop)
    assert route_of(routes, "4H-1") == BEST["4H-1"]
    found = game.routes_through("ATA", routes)
    assert [r["revenue"] for r in found if r["train"] == "4H-1"] == [70]
    with pytest.raises(IllegalAction):
        game.routes_through("ATA", run_with(**{"4H_1": ["M9.0", "N10.0", "N8.0", "M11.0"]}))


def test_a_first_stop_is_the_route_and_a_second_goes_to_the_end_on_a_tie(game: Game) -> None:
    one = game.place_stop("ATA", run_with(**{"4H_2": []}), "4H-2", "M13")
    assert route_of(one, "4H-2") == ["M13.0"]
    two = game.place_stop("ATA", one, "4H-2", "M11")
    assert route_of(two, "4H-2") == ["M13.0", "M11.0"]  # M11-M13 pays the same: the end


def test_a_train_without_a_route_gets_one(game: Game) -> None:
    placed = game.place_stop("ATA", [("4H-1", BEST["4H-1"])], "4H-2", "M13.0")
    assert placed == [("4H-1", BEST["4H-1"]), ("4H-2", ["M13.0"])]


def test_the_place_paying_most_is_taken(game: Game) -> None:
    """With a route rule paying 100 more for a route that starts at M11 (as 1835's Hamburg
    ferry makes a route's pay depend on its track), M11 added to the 4H's M13 goes before it,
    though the end is legal too; without it, to the end."""
    search = game.route_search("ATA")
    plain = search.rules.bonus

    def starts_at_m11(ctx: RunContext, walk: RouteWalk, train: TrainSpec) -> int:
        return plain(ctx, walk, train) + (100 if walk.stops[0] == ("M11", 0) else 0)

    rewarded = dataclasses.replace(
        search, rules=dataclasses.replace(search.rules, bonus=starts_at_m11)
    )
    alone = [ProposedRoute("4H-2", (("M13", 0),))]
    assert place_stop(search, alone, "4H-2", ("M11", 0))[0].stops == (("M13", 0), ("M11", 0))
    placed = place_stop(rewarded, alone, "4H-2", ("M11", 0))
    assert placed[0].stops == (("M11", 0), ("M13", 0))
    assert [r["revenue"] for r in routes_through(rewarded, placed)] == [140]


def test_a_stop_with_no_legal_place_is_refused_with_the_rule(game: Game) -> None:
    before = run_with()
    with pytest.raises(IllegalAction) as too_long:  # a 4H reaches no fifth stop
        game.place_stop("ATA", before, "4H-1", "M13")
    assert too_long.value.rule == "common rules §6.1.8"
    with pytest.raises(IllegalAction, match="no track joins M11 and L14"):
        game.place_stop("ATA", before, "4H-1", "L14")  # the end's refusal, as appending it
    with pytest.raises(IllegalAction) as twice:  # K13 is the 6H's
        game.place_stop("ATA", run_with(**{"4H_2": ["M13.0"]}), "4H-2", "K13")
    assert "§6.1" in str(twice.value.rule)
    with pytest.raises(IllegalAction) as again:
        game.place_stop("ATA", before, "6H-1", "K13")
    assert again.value.rule == "common rules §6.1.3"
    assert before == run_with()  # the routes given are not changed


@pytest.mark.parametrize(
    ("train", "stop", "words"),
    [
        ("4H-1", "Z99", "no hex 'Z99'"),
        ("4H-1", "M13.7", "no stop"),
        ("4H-1", "M13.x", "no stop"),
        ("4H-1", "", "no hex"),
        ("9H-0", "M13", "does not own train 9H-0"),
    ],
)
def test_hostile_stops_and_trains_are_refused(
    game: Game, train: str, stop: str, words: str
) -> None:
    with pytest.raises(IllegalAction, match=words):
        game.place_stop("ATA", run_with(), train, stop)


def test_huge_routes_are_refused(game: Game) -> None:
    search = game.route_search("ATA")
    stops = tuple(stop_of(game.board, s) for s in ["M13", "K13"] * MAX_STOPS)[:MAX_STOPS]
    with pytest.raises(IllegalAction, match=f"at most {MAX_STOPS} stops"):
        place_stop(search, [ProposedRoute("6H-1", stops)], "6H-1", ("L14", 0))
    many = [ProposedRoute("6H-1", ())] * 500
    with pytest.raises(IllegalAction, match="at most 20 routes"):
        place_stop(search, many, "6H-1", ("L14", 0))
    with pytest.raises(IllegalAction, match="at most 20 routes"):
        game.place_stop("ATA", [("6H-1", [])] * 500, "6H-1", "L14")


@pytest.mark.parametrize(("title", "players", "seed"), [("1841", 4, 11), ("1835", 4, 7)])
def test_each_stop_of_the_best_run_is_put_back_in_its_place(
    title: str, players: int, seed: int
) -> None:
    """On 1841's and 1835's boards: each stop of the optimiser's run taken off its route and
    added again lands where it was (or the route reversed), and the run earns as much."""
    positions = _run_positions(title, players, seed, 3)
    assert positions, f"no run with routes in the {title} game"
    for game in positions:
        listed = next(a for a in game.legal_actions() if a["type"] == "run_routes")
        corp = str(listed["entity"])
        best = _best(game, listed)
        lines = route_lines(game.board, corp, best)  # type: ignore[arg-type]
        named = [(line.label, [f"{h}.{n}" for h, n in line.stops]) for line in lines]
        pay = sum(r["revenue"] for r in game.routes_through(corp, named))  # type: ignore[misc]
        for train, stops in named:
            for stop in stops:
                without = [
                    (t, [s for s in ss if s != stop] if t == train else ss) for t, ss in named
                ]
                placed = dict(game.place_stop(corp, without, train, stop))
                assert placed[train] in (stops, stops[::-1]), (train, stop, placed[train])
                found = game.routes_through(corp, list(placed.items()))
                assert sum(r["revenue"] for r in found) == pay  # type: ignore[misc]
