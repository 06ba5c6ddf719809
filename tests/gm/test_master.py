"""The game master end to end (issue 10 items 3, 5-7): games in the SQLite store, mails from a
Maildir, refusals of unknown senders, corrections, the deadline settled by marked defaults,
reports with the map and the game file, and the ``stellwerk gm`` commands."""

from __future__ import annotations

import json
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner

from stellwerk.cli.main import main
from stellwerk.gm.inbox import InMail, read_maildir
from stellwerk.gm.master import GameMaster
from stellwerk.store import SqliteStore

PLAYERS = [("Anna", "anna@example.org", "de"), ("Ben", "ben@example.org", "en"),
           ("Clara", "clara@example.org", "de")]  # fmt: skip


@pytest.fixture
def gm(tmp_path: Path) -> GameMaster:
    master = GameMaster(tmp_path / "gm.db")
    master.new("g1", "1849", PLAYERS, seed=3)
    return master


def mail(sender: str, body: str, subject: str = "g1 Züge", number: int = 0) -> InMail:
    return InMail(sender, subject, body, f"<{number}.{sender}>")


def test_issue10_item5_orders_from_a_maildir_are_applied_and_stored(tmp_path: Path) -> None:
    master = GameMaster(tmp_path / "gm.db")
    master.new("g1", "1849", PLAYERS, seed=3)
    box = tmp_path / "box"
    for sub in ("new", "cur", "tmp"):
        (box / sub).mkdir(parents=True)
    session, _ = master.session("g1")
    first = session.waiting_for()[0]
    name, address, _ = PLAYERS[first - 1]
    message = EmailMessage()
    message["From"] = f"{name} <{address.upper()}>"
    message["Subject"] = "g1"
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
    assert results[0].refused is not None and "unknown sender" in results[0].refused
    assert results[1].refused is not None and "another player" in results[1].refused
    assert gm.store.count("g1") == before
    session, _ = gm.session("g1")
    assert any("another player" in e.text for e in session.events)


def test_issue10_item1_a_correction_replaces_the_unused_orders(gm: GameMaster) -> None:
    session, _ = gm.session("g1")
    waiting = session.waiting_for()[0]
    later = next(p for p in PLAYERS if PLAYERS.index(p) + 1 != waiting)
    gm.take_mails([mail(later[1], "passe\nkaufe SFA", number=1)])
    gm.take_mails([mail(later[1], "Änderung\npasse", subject="g1 Änderung", number=2)])
    status = gm.status("g1")
    assert status["pending"] == [f"{later[0]}: passe"]


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
    assert "[VORGABE]" in reports["Anna"].text and "[DEFAULT]" in reports["Ben"].text
    names = [name for name, _, _ in reports["Ben"].attachments]
    assert "g1.json" in names and any(n.startswith("map.") for n in names)
    game_file = json.loads(dict((n, d) for n, _, d in reports["Ben"].attachments)["g1.json"])
    assert len(game_file["actions"]) == gm.store.count("g1")
    assert "<svg" in reports["Ben"].html
    again = gm.reports("g1")  # nothing new since: no orders repeated
    assert "[DEFAULT]" not in again["Ben"].text


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


def test_issue10_item6_the_gm_commands(tmp_path: Path) -> None:
    db = str(tmp_path / "gm.db")
    out = tmp_path / "out"
    code, text = run(["gm", "new", "k", "--db", db, "--title", "1849", "--seed", "3",
                      "--player", "Anna:anna@example.org:de", "--player", "Ben:ben@example.org",
                      "--player", "Clara:clara@example.org:de"])  # fmt: skip
    assert code == 0, text
    code, text = run(["gm", "status", "k", "--db", db, "--json"])
    status = json.loads(text)
    assert code == 0 and status["waiting_for"]
    waiting = status["waiting_for"][0]
    orders = tmp_path / "orders.txt"
    orders.write_text("# my orders\npass\nfly away\n", encoding="utf-8")
    code, text = run(["gm", "orders", "k", str(orders), "--db", db, "--player", waiting])
    assert code == 0, text
    assert "'pass' understood as: pass" in text and "'fly away' refused" in text
    code, text = run(["gm", "deadline", "k", "--db", db, "--out", str(out)])
    assert code == 0, text
    assert "[default]" in text and list(out.glob("k-001-*.eml"))
    code, text = run(["gm", "correct", "k", "--db", db, "--reason", "test"])
    assert code == 0 and "GM correction: test" in text
    code, text = run(["gm", "report", "k", "--db", db, "--out", str(out)])
    assert code == 0 and "k-002-Anna.eml" in text
    assert "GM correction: test" in (out / "k-002-Anna.txt").read_text(encoding="utf-8")
    code, text = run(["gm", "status", "nope", "--db", db])
    assert code == 2 and "no GM game" in text
    code, text = run(["gm", "new", "k2", "--db", db, "--title", "1841",
                      "--player", "A:a@x", "--player", "B:b@x", "--player", "C:c@x"])  # fmt: skip
    assert code == 2


def test_issue10_item7_the_demonstration_game(tmp_path: Path) -> None:
    """The main job's demo: 1849 by mail, German and English, one missed deadline settled
    by defaults, reports with the map in out/."""
    from stellwerk.gm.demo import run as demo

    written = demo(tmp_path / "gm", periods=4)
    assert len(written) == 12
    clara = (tmp_path / "gm" / "outbox" / "demo1849-004-Clara.txt").read_text(encoding="utf-8")
    assert "[VORGABE]" in clara
    ben = (tmp_path / "gm" / "outbox" / "demo1849-002-Ben.txt").read_text(encoding="utf-8")
    assert "understood as" in ben and "refused" in ben
    assert list((tmp_path / "gm" / "outbox").glob("*.map.*"))


def test_issue10_item6_gm_orders_reads_a_mail_file_and_refuses_a_stranger(tmp_path: Path) -> None:
    db = str(tmp_path / "gm.db")
    master = GameMaster(db)
    master.new("k", "1849", PLAYERS, seed=3)
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
    code, text = run(["gm", "orders", "k", str(tmp_path / "1.eml"), "--db", db])
    assert code == 0 and "'passe' understood as: passe" in text, text
    code, text = run(["gm", "orders", "k", str(tmp_path / "2.eml"), "--db", db])
    assert code == 0 and "refused: unknown sender 'eve@example.org'" in text, text


def test_issue10_item6_gm_fetch_reads_the_mailbox_and_writes_reports(tmp_path: Path) -> None:
    db = str(tmp_path / "gm.db")
    master = GameMaster(db)
    master.new("k", "1849", PLAYERS, seed=3)
    waiting = master.session("k")[0].waiting_for()[0]
    master.close()
    box = tmp_path / "box"
    for sub in ("new", "cur", "tmp"):
        (box / sub).mkdir(parents=True)
    name, address, _ = PLAYERS[waiting - 1]
    message = EmailMessage()
    message["From"] = f"{name} <{address}>"
    message["Subject"] = "k"
    message["Message-ID"] = "<f1@example.org>"
    message.set_content("pass\n")
    (box / "new" / "1.mail").write_bytes(bytes(message))
    out = tmp_path / "out"
    code, text = run(["gm", "fetch", "--db", db, "--maildir", str(box), "--out", str(out)])
    assert code == 0, text
    assert "understood as: pass" in text
    assert len(list(out.glob("k-001-*.eml"))) == 3
    code, text = run(["gm", "fetch", "--db", db, "--maildir", str(box), "--out", str(out)])
    assert code == 0 and "understood" not in text  # the mail was read before
