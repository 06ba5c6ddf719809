"""The game master's report to each player (issue 10 item 4).

A selfplay game made here (so these run without ../shared) and the real 1849 fixture; the
expectations are computed from the game itself (its log, its players and corporations, who
acts), never written down.
"""

from __future__ import annotations

import email
import email.policy
import json
import re
from datetime import UTC, datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stellwerk.api import Game
from stellwerk.gm.report import LABELS, Report, ReportOrder, build_report, to_email
from stellwerk.selfplay import play
from stellwerk.words import money, render, story

FIXTURE_1849 = (
    Path(__file__).resolve().parents[2]
    / ".."
    / "shared"
    / "fixtures"
    / "18xx.games"
    / "1849"
    / "1849_game_end_bank.json"
)
NAMES = [(501, "Alice"), (502, "Bob"), (503, "Jürgen")]
DEADLINE = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)
ORDERS = [
    ReportOrder("bid 120 on SCE", "Alice bids L.120 for SCE", None, False, False),
    ReportOrder("kaufe zug 9H", None, "no 9H train in this game", False, False),
    ReportOrder("pass", "Alice passes", None, True, False),
    ReportOrder("ATA: run best", "ATA runs its best routes", None, False, True),
    ReportOrder("ATA: payout", None, None, False, False),
]


def selfplay(actions: int, seed: int = 5) -> Game:
    game = Game.create("1849", NAMES, [], seed=seed)
    play(game, seed, max_actions=actions)
    return game


@pytest.fixture(scope="module")
def game() -> Game:
    return selfplay(120)


def section(text: str, heading: str) -> list[str]:
    """The lines of the text part's section ``== heading ==``."""
    lines = text.splitlines()
    start = lines.index(f"== {heading} ==") + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("== ")), len(lines))
    return [line for line in lines[start:end] if line]


def report(game: Game, lang: str = "en", since: int = 0, **kwargs: Any) -> Report:
    arguments: dict[str, Any] = {
        "player": "Alice",
        "lang": lang,
        "since_action": since,
        "orders": ORDERS,
        "deadline": DEADLINE,
    }
    arguments.update(kwargs)
    return build_report(game, **arguments)


def acting_players(game: Game) -> set[str]:
    """Who is to act in person or as president of the corporation to act."""
    engine = game.engine
    out = set()
    with engine.remembering():
        for entity in engine.round.active_entities():
            owner = getattr(entity, "owner", None)
            out.add(getattr(owner, "name", None) or getattr(entity, "name", ""))
    return out


def acting_names(game: Game) -> list[str]:
    """The entities to act as players call them: players by name, corporations by symbol."""
    names = {str(pid): name for pid, name in game.players}
    return [names.get(str(who), str(who)) for who in game.active_entities()]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_log_holds_the_actions_after_since_action(game: Game, lang: str) -> None:
    """Issue 10 item 4: what happened since the player's last report: the sentences of the
    actions after ``since_action``, none of those before."""
    ids = [int(a["id"]) for a in game.actions]
    since = ids[len(ids) // 2]
    lines = story(game.engine, lang, skipped_steps=False)
    expected = render([line for line in lines if (line.action_id or 0) > since])
    heading = LABELS[lang]["since"]
    text = report(game, lang, since).text
    assert section(text, heading) == [line for line in expected if line]
    # the whole game when the player had no report yet
    whole = section(report(game, lang, 0).text, LABELS[lang]["since_start"])
    assert len(whole) > len(expected)
    assert whole[-len(expected) :] == expected
    # nothing new since the last action
    last = report(game, lang, ids[-1])
    assert section(last.text, heading) == [LABELS[lang]["nothing"]]
    assert last.last_action == ids[-1]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_orders_as_understood_with_defaults_and_standing_marked(game: Game, lang: str) -> None:
    """Issue 10 items 1-4: each order line "understood as ..." or why it was refused,
    defaults and standing orders marked, orders for later decisions kept."""
    words = LABELS[lang]
    text = report(game, lang).text
    lines = section(text, words["orders"])
    assert len(lines) == 2 * len(ORDERS)
    for order, (quoted, status) in zip(
        ORDERS, zip(lines[::2], lines[1::2], strict=True), strict=True
    ):
        assert quoted == f"> {order.text}"
        if order.refused:
            assert words["refused"].format(why=order.refused) in status
        elif order.understood:
            assert words["understood"].format(what=order.understood) in status
        else:
            assert words["pending"] in status
        assert (f"[{words['default']}" in status) == order.default
        assert (words["standing"] in status) == order.standing
    html = report(game, lang).html
    assert html.count(f"[{words['default']}]") == sum(o.default for o in ORDERS)
    empty = report(game, lang, orders=[]).text
    assert section(empty, words["orders"]) == [words["no_orders"]]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("actions", [20, 80, 120])
def test_next_to_act_and_deadline(actions: int, lang: str) -> None:
    """Issue 10 item 4: who must act next, with the deadline; the player to act is told so
    (in person or as the president of the corporation to act), the others are not.  The
    positions: a corporation and a player to act in a stock round, one in an operating round."""
    words = LABELS[lang]
    game = selfplay(actions)
    to_act = acting_players(game)
    assert to_act
    for _pid, name in game.players:
        built = report(game, lang, player=name)
        lines = section(built.text, words["next"])
        assert any(who in lines[0] for who in acting_names(game)), lines
        assert lines[-1].startswith(words["deadline"].split("{")[0])
        assert "20:00 UTC" in lines[-1]
        assert (words["you_act"] in lines) == (name in to_act)
        assert (words["your_turn"] in built.subject) == (name in to_act)
    no_deadline = report(game, lang, deadline=None).text
    assert section(no_deadline, words["next"])[-1] == words["no_deadline"]
    local = datetime(2026, 12, 3, 21, 0, tzinfo=timezone(timedelta(hours=1), "MEZ"))
    assert "21:00 MEZ" in report(game, lang, deadline=local).text


@pytest.mark.parametrize("lang", ["en", "de"])
def test_players_and_corporations_tables(game: Game, lang: str) -> None:
    """Issue 10 item 4: the players' table and the charters: every player's cash and
    certificates, every started corporation with its president, treasury and trains."""
    words = LABELS[lang]
    engine = game.engine
    text = report(game, lang).text
    players = section(text, words["players"])[2:]
    assert len(players) == len(engine.all_players)
    for row, player in zip(players, engine.all_players, strict=True):
        assert row.startswith(player.name)
        assert money("1849", player.cash, lang) in row
        assert f"{engine.num_certs(player)}/{engine.cert_limit(player)}" in row
    corps = section(text, words["corporations"])
    started = [c for c in engine.corporations if c.par_price is not None or c.floated]
    assert started
    for corp in started:
        row = next(line for line in corps if line.startswith(corp.sym + " "))
        assert money("1849", corp.cash, lang) in row
        if corp.owner is not None:
            assert corp.owner.name in row
        for train in corp.trains:
            assert train.name in row


def test_pictures_inline_and_attached(game: Game) -> None:
    """Issue 10 item 4: the map and the market (and the charters and players' table) as SVG
    inline in the HTML and as PNG attachments; the game file attached as JSON loads back
    to the same game."""
    built = report(game)
    assert built.html.count("<svg") == len(built.pictures) == 6  # 4 pictures, 2 plots
    kinds = {name.rsplit("_", 1)[-1]: (mime, data) for name, mime, data in built.attachments}
    for kind in ("map.png", "market.png", "charters.png", "players.png", "worth.png",
                 "prices.png"):  # fmt: skip
        mime, data = kinds[kind]
        assert mime == "image/png"
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
    json_files = [(n, d) for n, m, d in built.attachments if m == "application/json"]
    assert len(json_files) == 1
    loaded = Game.from_file(json.loads(json_files[0][1]))
    assert loaded.actions == game.actions
    assert loaded.snapshot() == game.snapshot()


def test_html_escapes_what_players_wrote(game: Game) -> None:
    """An order line is the player's text: it is shown, never taken as HTML."""
    orders = [ReportOrder("<b>pass</b> & more", None, "no such order", False, False)]
    html = report(game, orders=orders).html
    assert "&lt;b&gt;pass&lt;/b&gt; &amp; more" in html
    assert "<b>pass</b>" not in html


def test_corrections_shown(game: Game) -> None:
    """Issue 10 item 6: a logged correction by the GM is shown in every report."""
    corrections = ["Bob erhält L.10 zurück (Rechenfehler in Runde 2)"]
    for lang in ("en", "de"):
        built = report(game, lang, corrections=corrections)
        assert section(built.text, LABELS[lang]["corrections"]) == [f"* {corrections[0]}"]
        assert corrections[0] in built.html
    assert LABELS["en"]["corrections"] not in report(game).text


def test_gm_log_shown(game: Game) -> None:
    """Issue 10 item 2: the report logs each firing and cancellation of a standing order."""
    gm_log = ["Alice: pass for the rest of the round cancelled: Bob sold ATA"]
    for lang in ("en", "de"):
        built = report(game, lang, gm_log=gm_log)
        assert section(built.text, LABELS[lang]["gm_log"]) == [f"* {gm_log[0]}"]
        assert gm_log[0] in built.html
    assert LABELS["en"]["gm_log"] not in report(game).text


def test_standing_orders_in_force_listed(game: Game) -> None:
    """Issue 10 item 2: the player sees the standing orders still in force."""
    standing = ["buy ATA until 60%", "ATA: run best"]
    for lang in ("en", "de"):
        built = report(game, lang, standing=standing)
        assert section(built.text, LABELS[lang]["in_force"]) == [f"* {s}" for s in standing]
        for line in standing:
            assert f"<code>{line}</code>" in built.html
    assert LABELS["en"]["in_force"] not in report(game).text


def test_player_by_name_or_id_and_bad_arguments(game: Game) -> None:
    """``player`` is a name or an id; an unknown player or language is a clear error."""
    by_name = report(game, "de", player="Jürgen")
    by_id = report(game, "de", player="503")
    assert by_name.text == by_id.text
    assert by_name.player == by_id.player == "Jürgen"
    assert "Jürgen" in by_name.text.splitlines()[0]
    with pytest.raises(ValueError, match="no player 'Zoe'"):
        report(game, player="Zoe")
    with pytest.raises(ValueError, match="no language 'fr'"):
        report(game, "fr")


def test_report_changes_nothing(game: Game) -> None:
    """Front-end code: building reports leaves the game exactly as it was."""
    before = (game.snapshot(), json.dumps(game.to_file(), sort_keys=True))
    report(game, "en")
    report(game, "de", player="Bob")
    assert (game.snapshot(), json.dumps(game.to_file(), sort_keys=True)) == before


def parsed(message: EmailMessage) -> EmailMessage:
    """The message as a recipient reads it: serialised and parsed again."""
    again = email.message_from_bytes(message.as_bytes(), policy=email.policy.default)
    assert isinstance(again, EmailMessage)
    return again


def test_email_is_text_and_html_with_attachments(game: Game) -> None:
    """Issue 10 item 4: plain text plus HTML (multipart/alternative), the pictures and the
    game file attached; the umlauts of subject and body survive the trip."""
    built = report(game, "de", player="Jürgen")
    message = parsed(to_email(built, "Spielleitung Süd <gm@example.org>", "juergen@example.org"))
    assert message.get_content_type() == "multipart/mixed"
    alternative = message.get_payload()[0]
    assert alternative.get_content_type() == "multipart/alternative"
    assert [p.get_content_type() for p in alternative.get_payload()] == [
        "text/plain",
        "text/html",
    ]
    assert str(message["Subject"]) == built.subject
    body = message.get_body(preferencelist=("plain",))
    assert body is not None and body.get_content() == built.text
    assert "Jürgen" in body.get_content()
    names = [p.get_filename() for p in message.iter_attachments()]
    assert names == [name for name, _, _ in built.attachments]
    png = next(p for p in message.iter_attachments() if str(p.get_filename()).endswith("map.png"))
    assert png.get_content() == dict((n, d) for n, _, d in built.attachments)[png.get_filename()]
    assert re.fullmatch(r"<[^@>]+@example\.org>", str(message["Message-ID"]))
    threaded = to_email(built, "gm@example.org", "j@example.org", in_reply_to="<o1@x.org>")
    assert threaded["In-Reply-To"] == "<o1@x.org>"


@pytest.fixture(scope="module")
def fixture_data() -> dict[str, Any]:
    if not FIXTURE_1849.exists():
        pytest.skip(f"shared fixture not found at {FIXTURE_1849}")
    data: dict[str, Any] = json.loads(FIXTURE_1849.read_text())
    return data


@pytest.mark.parametrize("lang", ["en", "de"])
def test_real_1849_game_mid_play(fixture_data: dict[str, Any], lang: str) -> None:
    """The report of a real position (the 1849 fixture after 200 actions): the log since the
    given action, the tables, who acts next; the game file attached is that position."""
    data = {**fixture_data, "actions": fixture_data["actions"][:200]}
    game = Game.from_file(data)
    since = int(game.actions[-10]["id"])
    name = game.players[1][1]
    built = build_report(
        game, player=name, lang=lang, since_action=since, orders=ORDERS, deadline=DEADLINE
    )
    words = LABELS[lang]
    lines = story(game.engine, lang, skipped_steps=False)
    expected = [t for t in render([ln for ln in lines if (ln.action_id or 0) > since]) if t]
    assert section(built.text, words["since"]) == expected
    assert len(section(built.text, words["players"])) == 2 + len(game.players)
    assert section(built.text, words["corporations"])
    assert any(who in section(built.text, words["next"])[0] for who in acting_names(game))
    # 4 pictures and the 3 plots of the course (worth, prices, revenues: operating rounds ran)
    assert built.html.count("<svg") == 7
    assert [n.rsplit("_", 1)[-1] for n, _, _ in built.attachments][:7] == [
        "map.png",
        "market.png",
        "charters.png",
        "players.png",
        "worth.png",
        "prices.png",
        "revenues.png",
    ]
    orders = section(built.text, words["orders"])
    assert sum(f"[{words['default']}]" in line for line in orders) == 1
    assert section(built.text, words["next"])[-1] == words["deadline"].format(
        when=DEADLINE.strftime(words["date"]) + " UTC"
    )
    attached = json.loads(built.attachments[-1][2])
    assert Game.from_file(attached).snapshot() == game.snapshot()


def test_real_1849_game_over(fixture_data: dict[str, Any]) -> None:
    """At the end of a real game the report says so, why, and gives the result."""
    game = Game.from_file(fixture_data)
    assert game.finished
    for lang in ("en", "de"):
        words = LABELS[lang]
        built = build_report(
            game, player=game.players[0][0], lang=lang, since_action=0, orders=[], deadline=None
        )
        assert words["game_over"] in built.subject
        lines = section(built.text, words["next"])
        assert lines[0].startswith(words["finished"].split("(")[0])
        for pid, value in game.result.items():
            name = dict((str(p), n) for p, n in game.players)[pid]
            assert f"{name}: {money('1849', value, lang)}" in lines[1]


def test_game_key_in_subject(game: Game) -> None:
    """The GM's key of the game names it in the subject and the attachments."""
    built = report(game, key="ZAT-7")
    assert built.subject.startswith("[1849 #ZAT-7] ")
    assert all(name.startswith("1849_ZAT-7_") for name, _, _ in built.attachments)


@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_log_since_is_a_tail_of_the_whole_log(game: Game, data: st.DataObject) -> None:
    """Property (issue 10 item 4): the log since any action is the tail of the whole game's
    log, and a later ``since_action`` never tells more."""
    last = int(game.actions[-1]["id"])
    first, second = sorted(data.draw(st.integers(1, last)) for _ in range(2))
    whole = section(report(game, since=0).text, LABELS["en"]["since_start"])

    def told(since: int) -> list[str]:
        lines = section(report(game, since=since).text, LABELS["en"]["since"])
        return [] if lines == [LABELS["en"]["nothing"]] else lines

    early, late = told(first), told(second)
    assert len(late) <= len(early) < len(whole)
    for part in (early, late):
        assert part == (whole[-len(part) :] if part else [])


def test_pictures_go_out_only_when_they_changed(game: Game) -> None:
    """A report attaches (and shows inline) only the pictures that differ from those the
    player already has, and names the others as unchanged; after a tile lay the map is
    new again."""
    first = build_report(game, player="Alice", lang="de", since_action=0, orders=[],
                         deadline=None)  # fmt: skip
    assert set(first.pictures) == {"map", "market", "charters", "players", "worth", "prices"}
    again = build_report(game, player="Alice", lang="de", since_action=0, orders=[],
                         deadline=None, sent_pictures=first.pictures)  # fmt: skip
    assert [n for n, _, _ in again.attachments if n.endswith(".png")] == []
    assert "<svg" not in again.html and again.pictures == first.pictures
    assert "Unverändert seit deiner letzten Auswertung (nicht angehängt): Karte" in again.text
    changed = dict(first.pictures, map="something else")
    third = build_report(game, player="Alice", lang="de", since_action=0, orders=[],
                         deadline=None, sent_pictures=changed)  # fmt: skip
    assert [n.rsplit("_", 1)[-1] for n, _, _ in third.attachments if n.endswith(".png")] == [
        "map.png"
    ]


def test_the_game_file_only_when_asked_for(game: Game) -> None:
    with_file = build_report(game, player="Alice", lang="en", since_action=0, orders=[],
                             deadline=None)  # fmt: skip
    without = build_report(game, player="Alice", lang="en", since_action=0, orders=[],
                           deadline=None, with_game_file=False)  # fmt: skip
    assert with_file.has_game_file and any(n.endswith(".json") for n, _, _ in with_file.attachments)
    assert not without.has_game_file
    assert not any(n.endswith(".json") for n, _, _ in without.attachments)


def test_a_report_keeps_its_size_limit(game: Game) -> None:
    """Over the limit, attachments are left out in ``LEAVE_OUT``'s order (the plots first,
    the map last) and the report says which; what was left out is not noted as sent."""
    from stellwerk.gm.report import LEAVE_OUT, TEXT_ALLOWANCE

    full = build_report(game, player="Alice", lang="en", since_action=0, orders=[],
                        deadline=None, max_bytes=None)  # fmt: skip
    sizes = {n: len(data) for n, _, data in full.attachments}
    charters = next(size for name, size in sizes.items() if name.endswith("charters.png"))
    plots = sum(size for name, size in sizes.items() if name.endswith(("worth.png", "prices.png")))
    limit = TEXT_ALLOWANCE + sum(sizes.values()) + len(full.html) - charters - plots
    small = build_report(game, player="Alice", lang="en", since_action=0, orders=[],
                         deadline=None, max_bytes=limit)  # fmt: skip
    assert not any(n.endswith(("charters.png", "worth.png")) for n, _, _ in small.attachments)
    assert "charters" not in small.pictures and "map" in small.pictures
    left = f"Left out to keep this report under {limit // 1000} KB: "
    assert left + "Share prices, Players' worth, Charters" in small.text
    tiny = build_report(game, player="Alice", lang="en", since_action=0, orders=[],
                        deadline=None, max_bytes=1)  # fmt: skip
    assert tiny.attachments == [] and tiny.pictures == {} and LEAVE_OUT[-1] == "map"
