"""``api.Game.routes_through``: routes named by their stops become run_routes routes with
their revenues (``core/routes/stops.py``, common rules §6.1).  Along the 1849 fixture, the
optimiser's run named by its own stops is found again with the same revenues, and a run that
breaks a rule is refused with the rule; on 1841's and 1835's boards the same round trip along
seeded selfplay games."""

from __future__ import annotations

import contextlib

import pytest
from tests.conftest import cut_fixture

from stellwerk.api import Game
from stellwerk.core.errors import IllegalAction
from stellwerk.core.jsondata import JSONObject
from stellwerk.pictures.scene import route_lines


def cut(actions: int) -> Game:
    return Game.from_file(cut_fixture("1849/1849_game_end_bank.json", actions))


@pytest.mark.parametrize("actions", [67, 99, 130, 269, 337])
def test_the_best_run_named_by_its_stops_earns_the_same(actions: int) -> None:
    game = cut(actions)
    listed = next(a for a in game.legal_actions() if a["type"] == "run_routes")
    corp = str(listed["entity"])
    best = [r for r in listed["routes"] if isinstance(r, dict)]  # type: ignore[union-attr]
    lines = route_lines(game.board, corp, best)
    named = [(line.label, [f"{h}.{n}" for h, n in line.stops]) for line in lines]
    found = game.routes_through(corp, named)
    assert [(r["train"], r["revenue"]) for r in found] == [(r["train"], r["revenue"]) for r in best]
    game.verify({**listed, "routes": found})


def test_a_run_breaking_a_rule_is_refused_with_the_rule() -> None:
    game = cut(99)  # ATA: 4H N8-M9-N10-M11, 4H M13-M11, 6H M13-K13-L14
    with pytest.raises(IllegalAction) as too_long:
        game.routes_through("ATA", [("4H-1", ["N8", "M9", "N10", "M11", "M13"])])
    assert too_long.value.rule == "common rules §6.1.8"
    with pytest.raises(IllegalAction) as reused:
        game.routes_through("ATA", [("6H-1", ["M13", "K13"]), ("4H-2", ["M13", "K13"])])
    assert reused.value.rule == "common rules §6.1.7"
    with pytest.raises(IllegalAction) as one_stop:
        game.routes_through("ATA", [("4H-1", ["M13"])])
    assert one_stop.value.rule == "common rules §6.1.1"
    assert game.routes_through("ATA", [("4H-1", [])]) == []  # an idle train


class _Enough(Exception):
    """Enough positions found: the game is played no further."""


def _run_positions(title: str, players: int, seed: int, wanted: int) -> list[Game]:
    """Positions of a seeded selfplay game of ``title`` where a run is offered and the best
    run has routes (each the game file up to there, loaded anew), ``wanted`` of them at most."""
    from stellwerk.selfplay import play

    names = [(i, f"P{i}") for i in range(1, players + 1)]
    game = Game.create(title, names, [], seed=seed)
    found: list[Game] = []

    def look(played: object, action: object, rng: object) -> None:
        run = next((a for a in game.legal_actions() if a["type"] == "run_routes"), None)
        if run is not None and _best(game, run):
            found.append(Game.from_file(game.to_file()))
            if len(found) >= wanted:
                raise _Enough

    with contextlib.suppress(_Enough):
        play(game, seed, max_actions=1500, after_action=look)
    return found


def _best(game: Game, listed: JSONObject) -> list[JSONObject]:
    """The offered run's routes, or (a title that lists the run without them, 1835) the
    optimiser's."""
    listed_routes = listed.get("routes")
    if isinstance(listed_routes, list) and listed_routes:
        return [r for r in listed_routes if isinstance(r, dict)]
    return [dict(r) for r in game.best_routes(str(listed["entity"])).routes]


@pytest.mark.parametrize(("title", "players", "seed"), [("1841", 4, 11), ("1835", 4, 7)])
def test_the_best_run_named_by_its_stops_in_1841_and_1835(
    title: str, players: int, seed: int
) -> None:
    """The same round trip on 1841's and 1835's boards (their route rules: 1841's
    regions and borders, 1835's Hamburg ferry and towns): the optimiser's run named by its
    stops earns the same, train by train, and is accepted."""
    positions = _run_positions(title, players, seed, 3)
    assert positions, f"no run with routes in the {title} game"
    for game in positions:
        listed = next(a for a in game.legal_actions() if a["type"] == "run_routes")
        corp = str(listed["entity"])
        best = _best(game, listed)
        lines = route_lines(game.board, corp, best)  # type: ignore[arg-type]
        named = [(line.label, [f"{h}.{n}" for h, n in line.stops]) for line in lines]
        found = game.routes_through(corp, named)
        assert [(r["train"], r["revenue"]) for r in found] == [
            (r["train"], r["revenue"]) for r in best
        ]
        game.verify({**listed, "routes": found})
