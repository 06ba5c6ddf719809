"""Issue 10, "How it will be checked", for 1841: games played through order mails sent to a
real SMTP server on localhost (aiosmtpd) and read back from the GM's Maildir reach the same
state as the same games played by actions; every player gets one report per processing with
the map attached (the map shows the borders of the current phase, rules/1841.md 2.4).

* the first edition (``version_1``) from its start: sealed concession bids (``bids SFTG=60
  SB=20`` / ``gebote ...``), the stock round's pars and buys;
* the second edition from a recorded position (../shared, skipped without it, started with
  ``gm new --from``): a transformation's share offers (``yes``/``ja``, ``no``/``nein``), its
  tokens (``buy 1 tokens`` / ``kaufe 1 marken``), the token removal (``remove token`` /
  ``entferne marke``), and the operating rounds around them;
* (``--slow``) a whole scripted second-edition game from its start.
"""

from __future__ import annotations

import json
import smtplib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from gm_scripted import script
from test_mail_roundtrip import GM, KEY, Server, agree, gm, mail_server, order_mail

from stellwerk.api import Game
from stellwerk.gm.mail import GMConfig
from stellwerk.gm.master import GameMaster
from stellwerk.gm.phrase import order_text
from stellwerk.gm.report import build_report
from stellwerk.gm.understand import player_of
from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.pictures.mapview import render_map
from stellwerk.pictures.scene import map_scene, political_of

__all__ = ["mail_server"]  # the fixture, imported for the tests here


def write_config(folder: Path, port: int, names: list[str]) -> Path:
    lines = [
        "[gm]", f'address = "Spielleitung <{GM}>"',
        "[incoming]", 'kind = "maildir"', 'path = "maildir"',
        "[outgoing]", 'kind = "smtp"', 'host = "127.0.0.1"', f"port = {port}",
        'security = "plain"',
        f"[games.{KEY}.players]",
        *(f'"{name}" = {{ address = "{address(i)}", lang = "{"de" if i % 2 else "en"}" }}'
          for i, name in enumerate(names, start=1)),
    ]  # fmt: skip
    path = folder / "gm.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def address(seat: int) -> str:
    return f"seat{seat}@example.org"


def play_by_mail(
    port: int, server: Server, config: str, db: str, seats: dict[Any, int],
    lines: list[tuple[Any, str]], batch: int,
) -> int:  # fmt: skip
    """Send ``lines`` (player id, order) as mails of ``batch`` lines, fetch after each; every
    player gets one report with the map per processing.  Returns the processings."""
    processings = 0
    number = 0
    for start in range(0, len(lines), batch):
        chunk = lines[start : start + batch]
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            for player in dict.fromkeys(p for p, _ in chunk):
                number += 1
                body = "\n".join(t for p, t in chunk if p == player)
                smtp.send_message(order_mail("1841", address(seats[player]), body, number))
        before = Counter({a: len(m) for a, m in server.inboxes.items()})
        output = gm("fetch", "--db", db, "--config", config)
        processings += 1
        assert "refused" not in output, output
        after = Counter({a: len(m) for a, m in server.inboxes.items()})
        assert after - before == Counter({address(s): 1 for s in seats.values()})
        for seat in seats.values():
            report = server.inboxes[address(seat)][-1]
            names = [str(part.get_filename()) for part in report.iter_attachments()]
            text = report.get_body(preferencelist=("plain",)).get_content()
            unchanged = next((line for line in text.splitlines() if "(not attached)" in line
                              or "(nicht angehängt)" in line), "")  # fmt: skip
            assert sum(n.endswith("_map.png") for n in names) + ("Map" in unchanged
                       or "Karte" in unchanged) == 1, names  # fmt: skip
        number = agree("1841", db, config, port, number, lambda p: address(seats[p]))
    return processings


def finish(db: str, config: str, reference: Game) -> GameMaster:
    master = GameMaster(db, GMConfig.load(config))
    session, _ = master.session(KEY)
    assert session.pending == []
    assert session.game.snapshot() == reference.snapshot()
    return master


@pytest.mark.long_run
def test_issue10_1841_first_edition_by_mail_sealed_bids_and_stock_round(
    tmp_path: Path, mail_server: tuple[int, Server]
) -> None:
    port, server = mail_server
    names = ["P1", "P2", "P3"]
    config = str(write_config(tmp_path, port, names))
    db = str(tmp_path / "gm.db")
    reference, lines = script("1841", 3, 1, 110, ["version_1"])
    texts = [t for _, t in lines]
    assert any(t.startswith(("bids ", "gebote ")) for t in texts)
    assert any(t.startswith(("par ", "gründe ")) for t in texts)
    gm("new", KEY, "--db", db, "--config", config, "--title", "1841", "--option", "version_1",
       "--seed", "1")  # fmt: skip
    played = play_by_mail(port, server, config, db, {1: 1, 2: 2, 3: 3}, lines, 40)
    assert played >= 3
    finish(db, config, reference).close()


def recorded_window(path: Path, start: int, stop: int) -> tuple[dict[str, Any], Game, list[Any]]:
    """The game file cut before live action ``start``, the game at ``stop``, and the order
    lines (player, text) of the actions in between (alternating languages)."""
    data = read_game_file(path)
    live = list(load_game_file(data).live)
    cut = {**data, "actions": live[:start]}
    cut.pop("result", None)
    game = Game.from_file(cut)
    lines = []
    for number, recorded in enumerate(live[start:stop]):
        action = {k: v for k, v in recorded.items()
                  if k not in ("id", "auto_actions", "created_at", "user")}  # fmt: skip
        if action["type"] in ("message",) or action["type"].startswith("program"):
            game.process(recorded, replay=True)
            continue
        lines.append((player_of(game, action["entity"]),
                      order_text(game, action, "de" if number % 2 else "en")))  # fmt: skip
        game.process(recorded, replay=True)
    return cut, game, lines


@pytest.mark.long_run
def test_issue10_1841_second_edition_by_mail_from_a_recorded_position(
    tmp_path: Path, mail_server: tuple[int, Server], fixtures_18xx: Path
) -> None:
    port, server = mail_server
    cut, reference, lines = recorded_window(
        fixtures_18xx / "1841" / "1841_game_end_bankrupt.json", 140, 200
    )
    texts = [t for _, t in lines]
    for english, german in (("yes", "ja"), ("no", "nein"), ("remove token", "entferne marke"),
                            ("tokens", "marken")):  # fmt: skip
        assert any(english in t or german in t for t in texts), english
    names = [str(p["name"]) for p in cut["players"]]
    seats = {p["id"]: seat for seat, p in enumerate(cut["players"], start=1)}
    config = str(write_config(tmp_path, port, names))
    db = str(tmp_path / "gm.db")
    start = tmp_path / "start.json"
    start.write_text(json.dumps(cut), encoding="utf-8")
    gm("new", KEY, "--db", db, "--config", config, "--title", "1841", "--from", str(start))
    play_by_mail(port, server, config, db, seats, lines, 20)
    master = finish(db, config, reference)
    game = master.session(KEY)[0].game  # a report with every picture (none sent before)
    html = build_report(game, player=names[0], lang="en", since_action=0, orders=[],
                        deadline=None).html  # fmt: skip
    drawn = html.count("political-border")
    assert drawn == map_of(reference).count("political-border")
    fresh = Game.create("1841", [(1, "A"), (2, "B"), (3, "C")], [], 1)  # phase 2's borders
    assert map_of(fresh).count("political-border") > drawn or political_of(reference.engine)
    assert (drawn > 0) == bool(political_of(reference.engine))
    master.close()


def map_of(game: Game) -> str:
    """The map picture of the game now (the pictures module's rendering)."""
    return render_map(map_scene(game.engine, [], None, False))


@pytest.mark.slow
def test_issue10_1841_a_whole_second_edition_game_by_mail(
    tmp_path: Path, mail_server: tuple[int, Server]
) -> None:
    port, server = mail_server
    config = str(write_config(tmp_path, port, ["P1", "P2", "P3"]))
    db = str(tmp_path / "gm.db")
    reference, lines = script("1841", 3, 2, 900)
    gm("new", KEY, "--db", db, "--config", config, "--title", "1841", "--seed", "2")
    assert play_by_mail(port, server, config, db, {1: 1, 2: 2, 3: 3}, lines, 80) >= 8
    finish(db, config, reference).close()
