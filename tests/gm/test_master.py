"""The game master end to end (issue 10 items 3, 5-7): games in the SQLite store, mails from a
Maildir, refusals of unknown senders, corrections, the deadline settled by marked defaults,
reports with the map and the game file, and the ``stellwerk gm`` commands."""

from __future__ import annotations

import email
import email.policy
import json
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner

from stellwerk.cli.main import main
from stellwerk.gm.mail import GMConfig, IncomingMail, parse_mail, read_maildir
from stellwerk.gm.master import GameMaster
from stellwerk.store import SqliteStore

PLAYERS = [("Anna", "anna@example.org", "de"), ("Ben", "ben@example.org", "en"),
           ("Clara", "clara@example.org", "de")]  # fmt: skip


def write_config(folder: Path, keys: tuple[str, ...] = ("g1", "k")) -> Path:
    """A GM configuration: Maildir ``box``, outbox ``out``, the players of games ``keys``."""
    lines = ["[gm]", 'address = "GM <gm@example.org>"', "[incoming]", 'kind = "maildir"',
             'path = "box"', "[outgoing]", 'kind = "outbox"', 'folder = "out"']  # fmt: skip
    for key in keys:
        lines.append(f"[games.{key}.players]")
        lines += [f'{n} = {{ address = "{a}", lang = "{lang}" }}' for n, a, lang in PLAYERS]
    path = folder / "gm.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for sub in ("new", "cur", "tmp"):
        (folder / "box" / sub).mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def gm(tmp_path: Path) -> GameMaster:
    master = GameMaster(tmp_path / "gm.db", GMConfig.load(write_config(tmp_path)))
    master.new_from_config("g1", "1849", seed=3)
    return master


def mail(sender: str, body: str, subject: str = "[1849 #g1] Züge", number: int = 0
         ) -> IncomingMail:  # fmt: skip
    return IncomingMail(sender, subject, body, f"<{number}.{sender}>")


def test_issue10_item5_orders_from_a_maildir_are_applied_and_stored(tmp_path: Path) -> None:
    master = GameMaster(tmp_path / "gm.db", GMConfig.load(write_config(tmp_path)))
    master.new_from_config("g1", "1849", seed=3)
    box = tmp_path / "box"
    session, _ = master.session("g1")
    first = session.waiting_for()[0]
    name, address, _ = PLAYERS[first - 1]
    message = EmailMessage()
    message["From"] = f"{name} <{address.upper()}>"
    message["Subject"] = "[1849 #g1]"
    message["Message-ID"] = "<m1@example.org>"
    message.set_content("passe  # erstmal abwarten\n")
    (box / "new" / "1.mail").write_bytes(bytes(message))
    results = master.take_mails(read_maildir(box))
    assert results[0].refused is None and results[0].player == first
    assert [a.understood for a in master.advanced["g1"]] == ["passe"]
    assert read_maildir(box) == []  # read once: moved to cur
    stored = SqliteStore(tmp_path / "gm.db").export("g1")
    assert stored["actions"][-1]["type"] == "pass"
    assert stored["actions"][-1]["entity"] == first
    master.close()


def test_issue10_item5_unknown_sender_and_other_player_are_refused_and_logged(
    gm: GameMaster,
) -> None:
    before = gm.store.count("g1")
    results = gm.take_mails([
        mail("mallory@example.org", "pass", number=1),
        mail("anna@example.org", "Spieler: Ben\npasse", number=2),
    ])  # fmt: skip
    assert results[0].refused is not None and "no player's" in results[0].refused
    assert results[1].refused is not None and "claims to be for player Ben" in results[1].refused
    assert gm.store.count("g1") == before
    session, _ = gm.session("g1")
    assert any("claims to be for player Ben" in e.text for e in session.events)
    assert any("mallory@example.org" in e.text for e in session.events)


def test_issue10_item5_a_player_line_naming_the_sender_is_no_order(gm: GameMaster) -> None:
    """``Spieler: Anna`` in Anna's mail names her: it is checked, not answered as an order;
    the quoted report and the signature are not read (``IncomingMail.own_text``)."""
    session, _ = gm.session("g1")
    first = session.waiting_for()[0]
    name, address, _ = PLAYERS[first - 1]
    body = f"Spieler: {name}\npasse\n> kaufe SFA\n-- \n{name}\nkaufe CTL\n"
    results = gm.take_mails([mail(address, body, number=7)])
    assert results[0].refused is None and results[0].answers == []
    assert [a.understood for a in gm.advanced["g1"]] == ["passe"]
    assert gm.status("g1")["pending"] == []


def test_issue10_item1_a_correction_replaces_the_unused_orders(gm: GameMaster) -> None:
    session, _ = gm.session("g1")
    waiting = session.waiting_for()[0]
    later = next(p for p in PLAYERS if PLAYERS.index(p) + 1 != waiting)
    gm.take_mails([mail(later[1], "passe\nkaufe SFA", number=1)])
    gm.take_mails([mail(later[1], "Änderung\npasse", subject="[1849 #g1] Änderung", number=2)])
    status = gm.status("g1")
    waits = "waits for your turn in a stock round or auction"
    assert status["pending"] == [f"{later[0]}: passe ({waits})"]


def test_issue10_item3_deadline_defaults_are_marked_in_the_reports(gm: GameMaster) -> None:
    """Nobody sends orders: at the deadline every decision of the round gets its default
    (the private auction: drop out), each marked; the reports show it, with the map and the
    game file attached."""
    start = gm.store.count("g1")
    answers = gm.deadline("g1")
    assert answers and all(a.default for a in answers)
    assert gm.store.count("g1") > start
    reports = gm.reports("g1")
    assert set(reports) == {"Anna", "Ben", "Clara"}
    assert "[Standardbefehl]" in reports["Anna"].text and "[default order]" in reports["Ben"].text
    files = {name: data for name, _, data in reports["Ben"].attachments}
    assert any(n.endswith("map.png") for n in files)
    game_file = json.loads(next(d for n, d in files.items() if n.endswith(".json")))
    assert len(game_file["actions"]) == gm.store.count("g1")
    assert "<svg" in reports["Ben"].html
    again = gm.reports("g1")  # nothing new since: no orders repeated
    assert "[default order]" not in again["Ben"].text


def test_issue10_item6_a_correction_is_logged_and_every_report_shows_it(gm: GameMaster) -> None:
    session, _ = gm.session("g1")
    first = session.waiting_for()[0]
    gm.take_mails([mail(PLAYERS[first - 1][1], "pass", number=1)])
    count = gm.store.count("g1")
    last = SqliteStore(gm.path).export("g1")["actions"][-1]["id"]
    text = gm.correct("g1", "pass sent by mistake", undo_to=last - 1)
    assert "pass sent by mistake" in text
    assert gm.store.count("g1") == count + 1  # the undo is recorded, nothing is lost
    reports = gm.reports("g1")
    assert all("pass sent by mistake" in r.text for r in reports.values())


def run(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, args)
    return result.exit_code, result.output


def outbox(folder: Path) -> list[tuple[str, str]]:
    """The (recipient, plain text) of every report in an outbox folder, in order."""
    out = []
    for path in sorted(folder.glob("*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        body = message.get_body(preferencelist=("plain",))
        assert body is not None
        out.append((str(message["To"]), body.get_content()))
    return out


def test_issue10_item6_the_gm_commands(tmp_path: Path) -> None:
    db = str(tmp_path / "gm.db")
    config = str(write_config(tmp_path))
    out = tmp_path / "out"
    code, text = run(["gm", "new", "k", "--db", db, "--config", config, "--title", "1849",
                      "--seed", "3"])  # fmt: skip
    assert code == 0, text
    assert "Anna, Ben, Clara" in text
    code, text = run(["gm", "status", "k", "--db", db, "--json"])
    status = json.loads(text)
    assert code == 0 and status["waiting_for"]
    waiting = status["waiting_for"][0]
    orders = tmp_path / "orders.txt"
    orders.write_text("# my orders\npass\nfly away\n", encoding="utf-8")
    code, text = run(["gm", "orders", "k", str(orders), "--db", db, "--config", config,
                      "--player", waiting])  # fmt: skip
    assert code == 0, text
    assert "'pass' understood as: pass" in text and "'fly away' refused" in text
    code, text = run(["gm", "deadline", "k", "--db", db, "--config", config])
    assert code == 0, text
    assert "[default]" in text and len(outbox(out)) == 3
    code, text = run(["gm", "correct", "k", "--db", db, "--reason", "test"])
    assert code == 0 and "GM correction: test" in text
    code, text = run(["gm", "report", "k", "--db", db, "--config", config])
    assert code == 0 and text.count("report: ") == 3
    reports = outbox(out)
    assert len(reports) == 6
    anna = [body for to, body in reports[3:] if "anna@example.org" in to]
    assert len(anna) == 1 and "Korrektur der Spielleitung: test" in anna[0]  # German
    code, text = run(["gm", "status", "nope", "--db", db])
    assert code == 2 and "no GM game" in text
    code, text = run(["gm", "new", "other", "--db", db, "--config", config, "--title", "1849"])
    assert code == 2 and "no game 'other' in the configuration" in text


@pytest.mark.long_run
def test_issue10_item7_the_demonstration_game(tmp_path: Path) -> None:
    """The main job's demo: 1849 by mail, German and English, one missed deadline settled
    by defaults, reports with the map (PNG attached, SVG inline) in the outbox."""
    from stellwerk.gm.demo import run as demo

    written = demo(tmp_path / "gm", periods=4)
    assert len(written) == 12
    reports = outbox(tmp_path / "gm" / "outbox")
    clara = [body for to, body in reports[9:12] if "clara@" in to]
    assert len(clara) == 1 and "[Standardbefehl]" in clara[0]
    ben = [body for to, body in reports[:6] if "ben@" in to]
    assert len(ben) == 2 and all("understood as" in body for body in ben)
    assert any("refused" in body for body in ben)
    message = email.message_from_bytes(written[0].read_bytes(), policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    names = [str(part.get_filename()) for part in message.iter_attachments()]
    assert any(n.endswith("map.png") for n in names)
    html = message.get_body(preferencelist=("html",))
    assert html is not None and "<svg" in html.get_content()


def test_issue10_item6_gm_orders_reads_a_mail_file_and_refuses_a_stranger(tmp_path: Path) -> None:
    db = str(tmp_path / "gm.db")
    config = write_config(tmp_path)
    master = GameMaster(db, GMConfig.load(config))
    master.new_from_config("k", "1849", seed=3)
    waiting = master.session("k")[0].waiting_for()[0]
    master.close()
    name, address, _ = PLAYERS[waiting - 1]
    for sender, number in ((f"{name} <{address}>", 1), ("eve@example.org", 2)):
        message = EmailMessage()
        message["From"] = sender
        message["Subject"] = "k: Züge"
        message["Message-ID"] = f"<{number}@example.org>"
        message.set_content("passe\n")
        (tmp_path / f"{number}.eml").write_bytes(bytes(message))
    args = ["--db", db, "--config", str(config)]
    code, text = run(["gm", "orders", "k", str(tmp_path / "1.eml"), *args])
    assert code == 0 and "'passe' understood as: passe" in text, text
    code, text = run(["gm", "orders", "k", str(tmp_path / "2.eml"), *args])
    assert code == 0 and "refused: the address eve@example.org is no player's" in text, text


def test_issue10_item6_gm_fetch_reads_the_mailbox_and_sends_reports(tmp_path: Path) -> None:
    db = str(tmp_path / "gm.db")
    config = write_config(tmp_path)
    master = GameMaster(db, GMConfig.load(config))
    master.new_from_config("k", "1849", seed=3)
    waiting = master.session("k")[0].waiting_for()[0]
    master.close()
    name, address, _ = PLAYERS[waiting - 1]
    message = EmailMessage()
    message["From"] = f"{name} <{address}>"
    message["Subject"] = "Re: [1849 #k] orders"
    message["Message-ID"] = "<f1@example.org>"
    message.set_content("pass\n")
    (tmp_path / "box" / "new" / "1.mail").write_bytes(bytes(message))
    code, text = run(["gm", "fetch", "--db", db, "--config", str(config)])
    assert code == 0, text
    assert "understood as: pass" in text
    reports = sorted((tmp_path / "out").glob("*.eml"))
    assert len(reports) == 3
    mine = [parse_mail(p.read_bytes()) for p in reports]
    assert all("[1849 #k]" in m.subject for m in mine)
    code, text = run(["gm", "fetch", "--db", db, "--config", str(config)])
    assert code == 0 and "understood" not in text  # the mail was read before: moved to cur
    assert len(list((tmp_path / "out").glob("*.eml"))) == 3


def test_reports_list_waiting_orders_and_the_deadline_count(gm: GameMaster) -> None:
    """A player's order for a later decision is listed in his report with what it waits
    for (German for a German player); a deadline's line says how many defaults it gave."""
    session, _ = gm.session("g1")
    waiting = session.waiting_for()[0]
    later = next(p for p in PLAYERS if PLAYERS.index(p) + 1 != waiting)
    gm.take_mails([mail(later[1], "passe", number=1)])
    report = gm.reports("g1", later[0])[later[0]].text
    if later[2] == "de":
        assert "Deine Befehle für spätere Entscheidungen" in report
        assert "passe (wartet auf deinen Zug" in report
    else:
        assert "Your orders kept for a later decision" in report
        assert "passe (waits for your turn" in report
    answers = gm.deadline("g1")
    given = sum(1 for a in answers if a.default)
    assert given and f"deadline: {given} default orders given" in gm.gm_log("g1")
    assert gm.status("g1")["round_seq"] == gm.session("g1")[0].game.round.seq


def test_the_game_file_goes_out_per_round_and_on_request(gm: GameMaster) -> None:
    """The first report and the first after a round ended carry the game file; one in the
    same round does not, unless the player asked for it ("schicke Spieldatei"); pictures
    that did not change are not sent again."""

    def attached(name: str) -> list[str]:
        return [n for n, _, _ in gm.reports("g1", name)[name].attachments]

    anna = PLAYERS[0][0]
    assert any(n.endswith(".json") for n in attached(anna))
    again = attached(anna)
    assert not any(n.endswith(".json") or n.endswith(".png") for n in again)
    results = gm.take_mails([mail(PLAYERS[0][1], "schicke Spieldatei", number=3)])
    assert results[0].answers[0].understood == "die Spieldatei kommt mit der nächsten Auswertung"
    assert any(n.endswith(".json") for n in attached(anna))
    assert not any(n.endswith(".json") for n in attached(anna))
