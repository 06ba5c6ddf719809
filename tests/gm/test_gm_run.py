"""``stellwerk gm run``, the game master left running: the mailbox read in two steps, reports
of every game with news, the reminder before a deadline, a deadline applied when due, and a
game master killed with -9 in the middle of a batch that loses no order and applies none
twice, and writes no report twice."""

from __future__ import annotations

import email
import email.policy
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from stellwerk.gm.mail import GMConfig, deliver_maildir, parse_mail
from stellwerk.gm.mailbox import MaildirBox, mailbox_of
from stellwerk.gm.master import GameMaster
from stellwerk.gm.offers import answers
from stellwerk.gm.phrase import order_text
from stellwerk.gm.runner import RunSettings, run_once
from stellwerk.gm.understand import player_of
from stellwerk.selfplay import choose_action, lay_picker
from stellwerk.store import SqliteStore

from .imapserver import ImapServer, available, imap_server
from .test_master import PLAYERS, write_config

KEY = "g1"
SETTINGS = RunSettings(every=0.0, remind_before=timedelta(hours=12), deadline_every=None)


def order_mail(name: str, address: str, body: str, number: int) -> EmailMessage:
    message = EmailMessage()
    message["From"] = f"{name} <{address}>"
    message["Subject"] = f"[1849 #{KEY}] Züge"
    message["Message-ID"] = f"<{number}.run@example.org>"
    message.set_content(body)
    return message


def next_order(gm: GameMaster, rng: random.Random, number: int) -> EmailMessage:
    """The mail of the player the game waits for, with one of his legal actions as an
    order (the seeded driver standing in for him)."""
    game = gm.session(KEY)[0].game
    for offer in gm.session(KEY)[0].offers:  # a trade waits for the seller: he agrees
        name, address, lang = PLAYERS[int(offer.seller) - 1]
        return order_mail(name, address, answers(offer.number, lang)[0] + "\n", number)
    pid = gm.session(KEY)[0].waiting_for()[0]
    entities = [e for e in game.active_entities() if player_of(game, e) == pid]
    legal = [a for a in game.legal_actions() if a.get("entity") in entities]
    action = choose_action(legal, rng, lay_picker(game, rng, number))
    name, address, lang = PLAYERS[int(pid) - 1]
    line = order_text(game, action, lang, best=action["type"] == "run_routes")
    return order_mail(name, address, line + "\n", number)


def outbox(folder: Path) -> list[tuple[str, str]]:
    out = []
    for path in sorted(folder.glob("*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        out.append((str(message["To"]), str(message["Subject"])))
    return out


def new_master(tmp_path: Path) -> GameMaster:
    master = GameMaster(tmp_path / "gm.db", GMConfig.load(write_config(tmp_path, (KEY,))))
    master.new_from_config(KEY, "1849", seed=3)
    return master


def test_a_pass_applies_the_mails_marks_them_read_and_sends_the_reports(tmp_path: Path) -> None:
    gm = new_master(tmp_path)
    box = MaildirBox(tmp_path / "box")
    first = run_once(gm, box, SETTINGS)
    assert sorted(first.reports[KEY]) == sorted(n for n, _, _ in PLAYERS)  # the first reports
    deliver_maildir(tmp_path / "box", [next_order(gm, random.Random(1), 1)])
    before = gm.store.count(KEY)
    done = run_once(gm, box, SETTINGS)
    assert done.mails == 1 and gm.store.count(KEY) > before
    assert box.peek() == [] and len(os.listdir(tmp_path / "box" / "cur")) == 1
    assert sorted(done.reports[KEY]) == sorted(n for n, _, _ in PLAYERS)
    again = run_once(gm, box, SETTINGS)
    assert again.mails == 0 and again.reports == {}, "nothing new, nothing sent"
    gm.close()


def test_a_mail_read_before_a_crash_is_not_applied_again(tmp_path: Path) -> None:
    """Killed after the orders were saved but before the mails were marked read: the next
    pass finds their Message-IDs known, passes over them and marks them read, and sends the
    reports the crash kept back."""
    gm = new_master(tmp_path)
    box = MaildirBox(tmp_path / "box")
    run_once(gm, box, SETTINGS)
    deliver_maildir(tmp_path / "box", [next_order(gm, random.Random(2), 1)])
    gm.take_mails([u.mail for u in box.peek()])  # ... and the crash: not marked read
    count = gm.store.count(KEY)
    done = run_once(gm, box, SETTINGS)
    assert gm.store.count(KEY) == count and done.mails == 0
    assert box.peek() == []
    assert sorted(done.reports[KEY]) == sorted(n for n, _, _ in PLAYERS)
    gm.close()


def test_orders_and_mail_marks_commit_together(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                               ) -> None:  # fmt: skip
    """A processing that breaks off while saving leaves neither its actions nor the marks
    of its mails: the mail is applied on the next pass, once."""
    gm = new_master(tmp_path)
    box = MaildirBox(tmp_path / "box")
    run_once(gm, box, SETTINGS)
    deliver_maildir(tmp_path / "box", [next_order(gm, random.Random(3), 1)])
    count = gm.store.count(KEY)

    def broken(*_: object) -> None:
        raise OSError("disk gone")

    with monkeypatch.context() as patch:
        patch.setattr(gm.tables, "mark_mail", broken)
        with pytest.raises(OSError):
            gm.take_mails([u.mail for u in box.peek()])
    fresh = GameMaster(tmp_path / "gm.db", gm.config)
    assert fresh.store.count(KEY) == count
    done = run_once(fresh, box, SETTINGS)
    assert done.mails == 1 and fresh.store.count(KEY) > count
    fresh.close()
    gm.close()


def test_the_reminder_goes_once_and_the_deadline_is_applied_when_due(tmp_path: Path) -> None:
    gm = new_master(tmp_path)
    box = MaildirBox(tmp_path / "box")
    run_once(gm, box, SETTINGS)
    now = datetime(2026, 12, 6, 12, 0).astimezone()
    gm.tables.set_deadline(KEY, (now + timedelta(hours=3)).isoformat(timespec="minutes"))
    waiting = gm.session(KEY)[0].waiting_for()
    names = {p["player"]: p["name"] for p in gm.tables.players(KEY)}
    done = run_once(gm, box, SETTINGS, now=now)
    assert done.reminded[KEY] == [names[p] for p in waiting]
    assert run_once(gm, box, SETTINGS, now=now + timedelta(hours=1)).reminded == {}
    subjects = [s for _, s in outbox(tmp_path / "out")]
    assert sum("Reminder" in s or "Erinnerung" in s for s in subjects) == len(waiting)
    settings = RunSettings(every=0.0, remind_before=None, deadline_every=timedelta(hours=48))
    count = gm.store.count(KEY)
    later = now + timedelta(hours=4)
    done = run_once(gm, box, settings, now=later)
    assert done.deadlines == [KEY] and gm.store.count(KEY) > count
    deadline, _ = gm.tables.game(KEY)
    assert deadline == (now + timedelta(hours=51)).isoformat(timespec="minutes")
    count = gm.store.count(KEY)
    assert run_once(gm, box, settings, now=later).deadlines == []
    assert gm.store.count(KEY) == count, "a deadline is applied once"
    gm.close()


def test_the_cli_runs_one_pass(tmp_path: Path) -> None:
    gm = new_master(tmp_path)
    gm.close()
    config = tmp_path / "gm.toml"
    code = subprocess.run(
        [sys.executable, "-m", "stellwerk", "gm", "run", "--db", str(tmp_path / "gm.db"),
         "--config", str(config), "--once", "--log", str(tmp_path / "gm.log")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert code.returncode == 0, code.stderr
    log = (tmp_path / "gm.log").read_text(encoding="utf-8")
    assert "report sent to Anna" in log and "game master stopped" in log


@pytest.mark.long_run
def test_killed_with_9_in_a_batch_loses_no_order_and_doubles_nothing(tmp_path: Path) -> None:
    """A batch of order mails (made by playing the game in a reference game master), read by
    ``gm run`` that is killed with SIGKILL at random moments and started again until the
    mailbox is empty: the game reaches the reference's actions exactly, every mail is read,
    and no report is written twice."""
    reference = tmp_path / "reference"
    reference.mkdir()
    ref = new_master(reference)
    rng = random.Random(5)
    mails = []
    for number in range(1, 41):
        if ref.session(KEY)[0].game.finished:
            break
        message = next_order(ref, rng, number)
        ref.take_mails([parse_mail(message.as_bytes())])
        mails.append(message)
    expected = SqliteStore(reference / "gm.db").export(KEY)["actions"]
    ref.close()

    live = tmp_path / "live"
    live.mkdir()
    new_master(live).close()
    command = [
        sys.executable,
        "-m",
        "stellwerk",
        "gm",
        "run",
        "--db",
        str(live / "gm.db"),
        "--config",
        str(live / "gm.toml"),
        "--every",
        "0.002",
        "--remind-before",
        "off",
    ]
    kills = 0
    chance = random.Random(9)
    waves = [mails[i : i + 8] for i in range(0, len(mails), 8)]
    deadline = time.monotonic() + 240
    index = 0
    while (waves or os.listdir(live / "box" / "new")) and time.monotonic() < deadline:
        for message in waves.pop(0) if waves else []:
            path = deliver_maildir(live / "box", [message])[0]
            os.utime(path, (1_000_000 + index, 1_000_000 + index))  # read in this order
            index += 1
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(chance.uniform(0.4, 1.8))
        assert process.poll() is None, "gm run stopped by itself"
        process.send_signal(signal.SIGKILL)
        process.wait()
        kills += 1
    final = subprocess.run([*command, "--once"], capture_output=True, text=True, timeout=300)
    assert final.returncode == 0, final.stderr
    assert kills >= 2
    assert os.listdir(live / "box" / "new") == []
    actions = SqliteStore(live / "gm.db").export(KEY)["actions"]
    assert [{k: v for k, v in a.items() if k != "created_at"} for a in actions] == [
        {k: v for k, v in a.items() if k != "created_at"} for a in expected
    ]
    sent = outbox(live / "out")
    assert len(sent) == len(set(sent)), "a report written twice"


@pytest.fixture
def imap(tmp_path: Path) -> Iterator[ImapServer]:
    """Debian's dovecot on a free localhost port (skipped without it; CI installs it)."""
    if not available():
        if os.environ.get("CI") == "true":
            pytest.fail("no dovecot (scripts/ci_packages.sh installs dovecot-imapd)")
        pytest.skip("no dovecot as root here (apt-get install dovecot-imapd)")
    with imap_server(tmp_path / "dovecot") as server:
        yield server


def imap_master(tmp_path: Path, server: ImapServer) -> GameMaster:
    write_config(tmp_path, (KEY,))
    text = (tmp_path / "gm.toml").read_text(encoding="utf-8")
    text = text.replace(
        'kind = "maildir"\npath = "box"',
        f'kind = "imap"\nhost = "{server.host}"\nport = {server.port}\nsecurity = "plain"\n'
        f'user = "gm"\npassword = "{server.password}"',
    )
    (tmp_path / "gm.toml").write_text(text, encoding="utf-8")
    master = GameMaster(tmp_path / "gm.db", GMConfig.load(tmp_path / "gm.toml"))
    master.new_from_config(KEY, "1849", seed=3)
    return master


def test_a_pass_reads_a_real_imap_server_and_marks_read_only_after_saving(
    tmp_path: Path, imap: ImapServer
) -> None:
    """Against a real IMAP server: a pass applies the order of an unseen mail and marks it
    seen; a mail peeked and applied but not marked (the crash) is left unseen by the peek,
    passed over by the next pass (known Message-ID) and marked seen then."""
    gm = imap_master(tmp_path, imap)
    assert gm.config is not None
    box = mailbox_of(gm.config)
    run_once(gm, box, SETTINGS)
    imap.append("gm", next_order(gm, random.Random(4), 1).as_bytes())
    count = gm.store.count(KEY)
    done = run_once(gm, box, SETTINGS)
    assert done.mails == 1 and gm.store.count(KEY) > count and imap.unseen("gm") == 0
    imap.append("gm", next_order(gm, random.Random(5), 2).as_bytes())
    gm.take_mails([u.mail for u in box.peek()])  # applied, then the crash
    assert imap.unseen("gm") == 1, "the peek leaves the mail unseen"
    count = gm.store.count(KEY)
    done = run_once(gm, box, SETTINGS)
    assert done.mails == 0 and gm.store.count(KEY) == count and imap.unseen("gm") == 0
    gm.close()


class Collect:
    """An aiosmtpd handler keeping what it receives (recipients, raw mail)."""

    def __init__(self) -> None:
        self.received: list[tuple[list[str], bytes]] = []

    async def handle_DATA(self, server: object, session: object, envelope: Any) -> str:
        self.received.append((list(envelope.rcpt_tos), bytes(envelope.content)))
        return "250 OK"


@pytest.mark.long_run
def test_killed_with_9_between_real_mail_servers(tmp_path: Path, imap: ImapServer) -> None:
    """Orders from a real IMAP server (dovecot), reports to a real SMTP server (aiosmtpd),
    ``gm run`` killed with SIGKILL at random moments: every order applied once (the game
    reaches the reference's actions), every mail marked read, every player's last report
    covers the end; a report is sent twice only if a kill fell between the server taking it
    and the mark (a mail server cannot be asked whether it has a mail): at most once per kill."""
    from aiosmtpd.controller import Controller

    reference = tmp_path / "reference"
    reference.mkdir()
    ref = new_master(reference)
    rng = random.Random(6)
    mails = []
    for number in range(1, 25):
        message = next_order(ref, rng, number)
        ref.take_mails([parse_mail(message.as_bytes())])
        mails.append(message)
    expected = SqliteStore(reference / "gm.db").export(KEY)["actions"]
    ref.close()

    handler = Collect()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        smtp_port = int(sock.getsockname()[1])
    controller = Controller(handler, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    try:
        live = tmp_path / "live"
        live.mkdir()
        master = imap_master(live, imap)
        master.close()
        text = (live / "gm.toml").read_text(encoding="utf-8")
        text = text.replace('kind = "outbox"\nfolder = "out"',
                            f'kind = "smtp"\nhost = "127.0.0.1"\nport = {smtp_port}\n'
                            'security = "plain"')  # fmt: skip
        (live / "gm.toml").write_text(text, encoding="utf-8")
        command = [sys.executable, "-m", "stellwerk", "gm", "run", "--db", str(live / "gm.db"),
                   "--config", str(live / "gm.toml"), "--every", "0.002",
                   "--remind-before", "off"]  # fmt: skip
        chance = random.Random(10)
        kills = 0
        waves = [mails[i : i + 6] for i in range(0, len(mails), 6)]
        deadline = time.monotonic() + 240
        while (waves or imap.unseen("gm")) and time.monotonic() < deadline:
            for message in waves.pop(0) if waves else []:
                imap.append("gm", message.as_bytes())
            process = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)  # fmt: skip
            time.sleep(chance.uniform(0.4, 1.8))
            assert process.poll() is None, "gm run stopped by itself"
            process.send_signal(signal.SIGKILL)
            process.wait()
            kills += 1
        final = subprocess.run([*command, "--once"], capture_output=True, text=True,
                               timeout=300)  # fmt: skip
        assert final.returncode == 0, final.stderr
    finally:
        controller.stop()
    assert imap.unseen("gm") == 0
    actions = SqliteStore(live / "gm.db").export(KEY)["actions"]
    assert [{k: v for k, v in a.items() if k != "created_at"} for a in actions] == [
        {k: v for k, v in a.items() if k != "created_at"} for a in expected
    ]
    sent: list[tuple[str, str]] = []
    for recipients, raw in handler.received:
        message = email.message_from_bytes(raw, policy=email.policy.default)
        sent.append((recipients[0], str(message["Message-ID"])))
    doubles = len(sent) - len(set(sent))
    assert doubles <= kills, (doubles, kills)
    last = max(int(a["id"]) for a in actions)
    for _, address, _ in PLAYERS:
        subjects = [
            str(email.message_from_bytes(raw, policy=email.policy.default)["Subject"])
            for recipients, raw in handler.received
            if recipients[0] == address
        ]
        assert any(f" {last}:" in s or f" {last} " in s for s in subjects), (address, subjects)


def test_a_pass_answers_a_mail_of_no_game_with_a_note(tmp_path: Path) -> None:
    """A player of two games whose mail names neither gets a short note in the same pass;
    a stranger gets nothing (as ``gm fetch``)."""
    write_config(tmp_path, (KEY, "k2"))
    gm = GameMaster(tmp_path / "gm.db", GMConfig.load(tmp_path / "gm.toml"))
    gm.new_from_config(KEY, "1849", seed=3)
    gm.new_from_config("k2", "1849", seed=4)
    box = MaildirBox(tmp_path / "box")
    run_once(gm, box, SETTINGS)
    before = len(outbox(tmp_path / "out"))
    name, address, _ = PLAYERS[0]
    plain = order_mail(name, address, "passe\n", 1)
    del plain["Subject"]
    plain["Subject"] = "Befehle"
    stranger = order_mail("Mallory", "mallory@example.net", "pass\n", 2)
    deliver_maildir(tmp_path / "box", [plain, stranger])
    done = run_once(gm, box, SETTINGS)
    assert done.notes == 1 and done.refused == 2
    sent = outbox(tmp_path / "out")[before:]
    assert [to for to, _ in sent] == [address]
    gm.close()


def test_an_imap_mail_above_the_size_limit_is_refused_from_its_headers(
    tmp_path: Path, imap: ImapServer
) -> None:
    """A mail above ``[checks] max_size`` on the IMAP server is fetched for its headers only,
    refused unread and answered by the sender's report; it changes nothing."""
    gm = imap_master(tmp_path, imap)
    gm.close()
    text = (tmp_path / "gm.toml").read_text(encoding="utf-8") + "[checks]\nmax_size = 2048\n"
    (tmp_path / "gm.toml").write_text(text, encoding="utf-8")
    gm = GameMaster(tmp_path / "gm.db", GMConfig.load(tmp_path / "gm.toml"))
    assert gm.config is not None
    box = mailbox_of(gm.config)
    run_once(gm, box, SETTINGS)
    count = gm.store.count(KEY)
    name, address, _ = PLAYERS[0]
    big = order_mail(name, address, "passe\n" + "SPAMSPAM " * 400, 1)
    imap.append("gm", big.as_bytes())
    [unread] = box.peek()
    assert unread.mail.body == "" and unread.mail.size > 2048
    done = run_once(gm, box, SETTINGS)
    assert done.refused == 1 and gm.store.count(KEY) == count and imap.unseen("gm") == 0
    assert address in [to for to, _ in outbox(tmp_path / "out")[-1:]]
    gm.close()
