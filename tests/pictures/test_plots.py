"""The plots of a game's course (``stellwerk.history``, ``stellwerk.pictures.plots``): the
players' worth and the share prices after every round, each corporation's revenue in every
operating round, checked against the game's own record and result."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from stellwerk.api import Game
from stellwerk.cli.main import main
from stellwerk.history import history
from stellwerk.pictures.plots import price_plot, revenue_plot, round_label, worth_plot
from stellwerk.pictures.style import corporation_colors
from stellwerk.selfplay import play

NAMES = [(1, "Ann"), (2, "Ben"), (3, "Cid")]
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module", params=["1849", "1841", "1835"])
def played(request: pytest.FixtureRequest) -> Game:
    """A whole (or long) selfplay game of each title."""
    title = str(request.param)
    names = NAMES if title != "1835" else [*NAMES, (4, "Dan")]
    game = Game.create(title, names, [], seed=11)
    play(game, 11, max_actions=1500)
    return game


def test_rounds_come_in_order_and_end_with_the_game_as_it_is(played: Game) -> None:
    course = history(played)
    seqs = [p.seq for p in course.rounds]
    assert seqs == sorted(set(seqs)) and seqs[0] == 1
    assert seqs[-1] == played.round.seq
    assert course.rounds[-1].current is not played.finished
    last = course.rounds[-1]
    if played.finished:  # the worth after the last round is the game's result
        assert {str(k): v for k, v in last.worth.items()} == {
            str(k): v for k, v in played.result.items()
        }


def test_revenues_add_up_to_the_routes_run(played: Game) -> None:
    """Every route run in the record is counted in its operating round, once."""
    course = history(played)
    run = 0
    for action in played.actions:
        if action.get("type") == "run_routes":
            routes = action.get("routes")
            assert isinstance(routes, list)
            run += sum(int(r["revenue"]) for r in routes if isinstance(r, dict))
    counted = sum(sum(p.revenues.values()) for p in course.rounds)
    assert counted == run
    assert all(not p.revenues for p in course.rounds if p.kind != "operating")


def test_the_plots_draw_a_line_per_player_and_corporation(played: Game) -> None:
    course = history(played)
    colors = corporation_colors(played.title, course.corporations)
    worth = ET.fromstring(worth_plot(course, played.title, "de"))
    assert len(worth.findall(f"{SVG}g")) == len(course.players)
    assert "Vermögen der Spieler" in (worth.findtext(f"{SVG}title") or "")
    prices = ET.fromstring(price_plot(course, played.title, colors))
    assert len(prices.findall(f"{SVG}g")) == len(course.corporations)
    revenue = ET.fromstring(revenue_plot(course, played.title, colors))
    ran = {sym for p in course.rounds for sym in p.revenues}
    assert len(revenue.findall(f"{SVG}g")) == len(ran)


def test_a_new_game_has_nothing_to_plot_but_the_players() -> None:
    game = Game.create("1849", NAMES, [], seed=3)
    course = history(game)
    assert len(course.rounds) == 1 and course.rounds[0].current
    assert "Nothing to show yet" in price_plot(course, "1849", {})
    assert "Noch nichts zu zeigen" in revenue_plot(course, "1849", {}, "de")


def test_round_names_in_both_languages() -> None:
    game = Game.create("1849", NAMES, [], seed=3)
    point = history(game).rounds[0]
    assert round_label(point, "en") in ("Auction", f"SR {point.turn}")


def test_the_cli_draws_each_plot(tmp_path: Path, played: Game) -> None:
    """``stellwerk plot KIND GAME -o FILE``: each plot of a game file, in both languages; an
    unknown kind is a usage error."""
    game_file = tmp_path / "game.json"
    game_file.write_text(json.dumps(played.to_file()), encoding="utf-8")
    for kind, lang, title in (("worth", "en", "Players' worth"), ("prices", "de", "Aktienkurse"),
                              ("revenues", "en", "Revenue")):  # fmt: skip
        out = tmp_path / f"{kind}.svg"
        result = CliRunner().invoke(main, ["plot", kind, str(game_file), "-o", str(out),
                                           "--lang", lang])  # fmt: skip
        assert result.exit_code == 0, result.output
        assert title in (ET.fromstring(out.read_text()).findtext(f"{SVG}title") or "")
    bad = CliRunner().invoke(main, ["plot", "cash", str(game_file), "-o", str(out)])
    assert bad.exit_code == 2
