"""Who sent a mail, and that every mail from a player's address is answered: the receiving
server's Authentication-Results, the players' secret words, the size limit, the lines a mail
client writes above a quote, and the answers of one ``gm fetch`` run (docs/gm.md)."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner

from stellwerk.cli.main import main
from stellwerk.gm.mail import (
    Checks,
    ConfigError,
    GMConfig,
    IncomingMail,
    authentication_refusal,
    parse_mail,
    secret_words,
)
from stellwerk.gm.master import GameMaster

PLAYERS = [("Anna", "anna@example.org", "de"), ("Ben", "ben@example.org", "en"),
           ("Clara", "clara@example.org", "de")]  # fmt: skip
TRUSTED = "mx.example.org"


def write_config(folder: Path, keys: tuple[str, ...] = ("g1",), checks: str = "") -> Path:
    """A GM configuration: Maildir ``box``, outbox ``out``, the players of games ``keys``
    and the ``[checks]`` lines given."""
    lines = ["[gm]", 'address = "GM <gm@example.org>"', "[incoming]", 'kind = "maildir"',
             'path = "box"', "[outgoing]", 'kind = "outbox"', 'folder = "out"']  # fmt: skip
    if checks:
        lines += ["[checks]", checks]
    for key in keys:
        lines.append(f"[games.{key}.players]")
        lines += [f'{n} = {{ address = "{a}", lang = "{lang}" }}' for n, a, lang in PLAYERS]
    path = folder / "gm.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for sub in ("new", "cur", "tmp"):
        (folder / "box" / sub).mkdir(parents=True, exist_ok=True)
    return path


def message(sender: str, body: str, subject: str = "[1849 #g1] Befehle", number: int = 1,
            auth: tuple[str, ...] = ()) -> EmailMessage:  # fmt: skip
    out = EmailMessage()
    for value in auth:
        out["Authentication-Results"] = value
    out["From"] = sender
    out["Subject"] = subject
    out["Message-ID"] = f"<{number}@mail.example.org>"
    out.set_content(body)
    return out


def deliver(folder: Path, *messages: EmailMessage) -> None:
    for number, item in enumerate(messages):
        (folder / "box" / "new" / f"{number}.mail").write_bytes(bytes(item))


def fetch(tmp_path: Path, config: Path) -> tuple[int, str]:
    result = CliRunner().invoke(
        main, ["gm", "fetch", "--db", str(tmp_path / "gm.db"), "--config", str(config)]
    )
    return result.exit_code, result.output


def outbox(folder: Path) -> list[tuple[str, str, EmailMessage]]:
    """(recipient, plain text, message) of every mail in the outbox folder, in order."""
    out = []
    for path in sorted(folder.glob("*.eml")):
        parsed = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        body = parsed.get_body(preferencelist=("plain",))
        assert body is not None
        out.append((str(parsed["To"]), str(body.get_content()), parsed))
    return out


def new_game(tmp_path: Path, config: Path, key: str = "g1") -> tuple[str, str, str]:
    """Game ``key`` started; the (name, address, lang) of the player it waits for."""
    master = GameMaster(tmp_path / "gm.db", GMConfig.load(config))
    master.new_from_config(key, "1849", seed=3)
    first = master.session(key)[0].waiting_for()[0]
    master.close()
    return PLAYERS[int(first) - 1]


# -- the lines a mail client writes above a quote -----------------------------------------------
@pytest.mark.parametrize(
    "line",
    [
        "Am 01.12.2026 um 10:00 schrieb Spielleitung <gm@example.org>:",
        "On Mon, Dec 1, 2026 at 10:00 AM GM <gm@x> wrote:",
        "On Mon, Dec 1, 2026 at 10:00 AM GM <gm@example.org>\nwrote:",
        "Am Mo., 1. Dez. 2026 um 10:00 Uhr schrieb Spielleitung <\ngm@example.org>:",
    ],
)
def test_a_quote_attribution_is_no_order(line: str) -> None:
    body = f"passe\n\n{line}\n> Auswertung für Anna\n> kaufe SFA\n"
    assert IncomingMail("a@x", "", body, "").own_text == "passe\n"


def test_a_quoted_original_without_quote_marks_is_no_order() -> None:
    body = "pass\n\n-----Ursprüngliche Nachricht-----\nVon: GM\nkaufe SFA\n"
    assert IncomingMail("a@x", "", body, "").own_text == "pass\n"
    body = "pass\n-----Original Message-----\nbuy SFA\n"
    assert IncomingMail("a@x", "", body, "").own_text == "pass\n"


def test_an_outlook_quote_is_no_order() -> None:
    body = ("passe\n\n________________________________\nVon: Spielleitung <gm@example.org>\n"
            "Gesendet: Montag, 1. Dezember 2026 10:00\nAn: anna@example.org\n"
            "Betreff: [1849 #g1] Auswertung\n\nAuswertung für Anna\nkaufe SFA\n")  # fmt: skip
    assert IncomingMail("a@x", "", body, "").own_text == "passe\n"
    body = "pass\nFrom: GM <gm@x>\nSent: Monday\nTo: a@x\nbuy SFA\n"
    assert IncomingMail("a@x", "", body, "").own_text == "pass\n"


def test_an_order_line_like_an_attribution_stays() -> None:
    body = "pass\nATA: buy train 4H\n"
    assert IncomingMail("a@x", "", body, "").own_text == body


# -- configuration -------------------------------------------------------------------------------
def test_checks_load_and_default(tmp_path: Path) -> None:
    plain = GMConfig.load(write_config(tmp_path))
    assert plain.checks == Checks(None, False, False, 256 * 1024)
    checked = GMConfig.load(write_config(tmp_path, checks=(
        f'authserv_id = "{TRUSTED}"\nrequire_pass = true\nsecret_word = true\nmax_size = 4096'
    )))  # fmt: skip
    assert checked.checks == Checks(TRUSTED, True, True, 4096)


@pytest.mark.parametrize(
    ("lines", "key"),
    [
        ("require_pass = true", "checks.require_pass"),
        ('secret_word = "yes"', "checks.secret_word"),
        ("max_size = 10", "checks.max_size"),
        ('authserv_id = "mx; dkim=pass"', "checks.authserv_id"),
        ("secret = true", "checks.secret"),
    ],
)
def test_bad_checks_name_the_key(tmp_path: Path, lines: str, key: str) -> None:
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        GMConfig.load(write_config(tmp_path, checks=lines))


# -- Authentication-Results ----------------------------------------------------------------------
def checked(*headers: str, sender: str = "anna@example.org",
            require_pass: bool = False) -> str | None:  # fmt: skip
    mail = parse_mail(bytes(message(sender, "pass\n", auth=headers)))
    return authentication_refusal(Checks(TRUSTED, require_pass), mail)


def test_the_trusted_servers_pass_is_taken() -> None:
    ok = f"{TRUSTED}; dkim=pass header.d=example.org; spf=pass smtp.mailfrom=example.org; " \
         "dmarc=pass (p=reject) header.from=example.org"  # fmt: skip
    assert checked(ok) is None
    assert checked(ok, require_pass=True) is None
    assert checked(f"{TRUSTED.upper()} 1; dmarc=pass header.from=example.org") is None


@pytest.mark.parametrize(
    "header",
    [
        f"{TRUSTED}; dmarc=fail (p=none) header.from=example.org",
        f"{TRUSTED}; dkim=fail (bad signature) header.d=example.org",
        f"{TRUSTED}; spf=fail smtp.mailfrom=anna@example.org",
    ],
)
def test_a_failure_refuses(header: str) -> None:
    reason = checked(header)
    assert reason is not None and "=fail for example.org" in reason


def test_only_the_trusted_authserv_id_counts() -> None:
    """A sender can write any Authentication-Results into his mail: another server's pass
    (forged) is no verdict, and a mail without the trusted one is refused."""
    forged = "mx.evil.example; dmarc=pass header.from=example.org"
    reason = checked(forged)
    assert reason == f"the mail carries no Authentication-Results of {TRUSTED}"
    assert checked(forged, f"{TRUSTED}; dmarc=fail header.from=example.org") is not None
    # another server's failure does not refuse what the trusted one passed
    assert checked("mx.other.example; dkim=fail", f"{TRUSTED}; dmarc=pass") is None


def test_a_third_partys_failed_signature_does_not_refuse() -> None:
    header = f"{TRUSTED}; dkim=fail header.d=lists.example.net; dkim=pass header.d=example.org"
    assert checked(header, require_pass=True) is None


def test_require_pass_needs_a_pass_of_the_from_domain() -> None:
    none = f"{TRUSTED}; spf=none smtp.mailfrom=example.org; dkim=none"
    assert checked(none) is None
    reason = checked(none, require_pass=True)
    assert reason is not None and "no DMARC, DKIM or SPF pass for example.org" in reason
    other = f"{TRUSTED}; dkim=pass header.d=evil.example; spf=pass smtp.mailfrom=evil.example"
    assert checked(other, require_pass=True) is not None
    sub = f"{TRUSTED}; dkim=pass header.d=mail.example.org"
    assert checked(sub, require_pass=True) is None


def test_a_forged_mail_changes_nothing_and_the_player_is_told(tmp_path: Path) -> None:
    """A mail from Anna's address that the trusted server found forged: nothing applied,
    answered in the same run to Anna's configured address alone, in German."""
    config = write_config(tmp_path, checks=f'authserv_id = "{TRUSTED}"')
    name, address, _ = new_game(tmp_path, config)
    forged = message(address, "passe\n",
                     auth=(f"{TRUSTED}; dmarc=fail header.from=example.org",))  # fmt: skip
    deliver(tmp_path, forged)
    master = GameMaster(tmp_path / "gm.db", GMConfig.load(config))
    before = master.store.count("g1")
    master.close()
    code, text = fetch(tmp_path, config)
    assert code == 0, text
    assert "refused" in text
    master = GameMaster(tmp_path / "gm.db", GMConfig.load(config))
    assert master.store.count("g1") == before
    assert master.status("g1")["pending"] == []
    master.close()
    sent = outbox(tmp_path / "out")
    assert [to for to, _, _ in sent] == [address]
    body = sent[0][1]
    lang = dict((n, lang) for n, _, lang in PLAYERS)[name]
    assert ("meldet dmarc=fail für example.org" if lang == "de" else "dmarc=fail") in body
    assert sent[0][2]["In-Reply-To"] == "<1@mail.example.org>"


# -- answering every mail --------------------------------------------------------------------------
def test_a_player_of_two_games_naming_none_is_told(tmp_path: Path) -> None:
    config = write_config(tmp_path, keys=("g1", "k"))
    new_game(tmp_path, config, "g1")
    new_game(tmp_path, config, "k")
    deliver(tmp_path,
            message("Anna <anna@example.org>", "passe\n", subject="Befehle", number=1),
            message("mallory@example.net", "pass\n", subject="orders", number=2))  # fmt: skip
    code, text = fetch(tmp_path, config)
    assert code == 0, text
    sent = outbox(tmp_path / "out")
    assert [to for to, _, _ in sent] == ["anna@example.org"]  # the stranger: no answer
    _, body, note = sent[0]
    assert "Deine Mail wurde nicht gelesen" in str(note["Subject"])
    assert "anna@example.org spielt in den Partien g1, k" in body
    assert "Es wurde nichts geändert." in body
    assert note["In-Reply-To"] == "<1@mail.example.org>"


def test_a_refusal_alone_is_answered_by_the_senders_report(tmp_path: Path) -> None:
    """A refused mail of a player of the game (one naming another player) and no order
    taken: his report answers it in the same run, nobody else gets one."""
    config = write_config(tmp_path)
    new_game(tmp_path, config)
    deliver(tmp_path, message("ben@example.org", "player: Anna\npass\n"))
    code, text = fetch(tmp_path, config)
    assert code == 0, text
    sent = outbox(tmp_path / "out")
    assert [to for to, _, _ in sent] == ["ben@example.org"]
    assert "claims to be for player Anna" in sent[0][1]


def test_a_mail_read_before_is_not_answered_again(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    new_game(tmp_path, config)
    deliver(tmp_path, message("ben@example.org", "player: Anna\npass\n"))
    fetch(tmp_path, config)
    deliver(tmp_path, message("ben@example.org", "player: Anna\npass\n"))
    code, text = fetch(tmp_path, config)
    assert code == 0, text
    assert len(outbox(tmp_path / "out")) == 1


# -- the size limit --------------------------------------------------------------------------------
def test_a_mail_above_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    config = write_config(tmp_path, checks="max_size = 2048")
    _, address, _ = new_game(tmp_path, config)
    big = message(address, "passe\n" + "SPAMSPAM " * 400, subject="Befehle GROSS")
    deliver(tmp_path, big)
    code, text = fetch(tmp_path, config)
    assert code == 0, text
    sent = outbox(tmp_path / "out")
    assert [to for to, _, _ in sent] == [address]
    body = sent[0][1]
    assert "2 KB" in body and "SPAMSPAM" not in body and "GROSS" not in body
    master = GameMaster(tmp_path / "gm.db", GMConfig.load(config))
    assert not any(x.player for x in master.session("g1")[0].outcomes)
    master.close()
    assert parse_mail(bytes(big), 2048).body == ""
    assert parse_mail(bytes(big), 2048).size == len(bytes(big))


# -- the secret word -------------------------------------------------------------------------------
def test_the_secret_word(tmp_path: Path) -> None:
    """The first report gives each player his word; a mail without it is refused, changes
    nothing, and the answer gives the word again; with it (never echoed) the orders go."""
    config = write_config(tmp_path, checks="secret_word = true")
    name, address, lang = new_game(tmp_path, config)
    master = GameMaster(tmp_path / "gm.db", GMConfig.load(config))
    master.send_reports("g1")
    first = {to: body for to, body, _ in outbox(tmp_path / "out")}
    word = master.secret("g1", 1)
    assert word in first["anna@example.org"] and "Dein Geheimwort ist" in first["anna@example.org"]
    words = {master.secret("g1", number) for number in (1, 2, 3)}
    assert len(words) == 3
    assert master.secret("g1", 2) not in first["anna@example.org"]
    master.send_reports("g1")  # the second report does not repeat it
    assert all(word not in body for _, body, _ in outbox(tmp_path / "out")[3:])
    pid = PLAYERS.index((name, address, lang)) + 1
    before = master.store.count("g1")
    master.close()

    deliver(tmp_path, message(address, "passe\npass\n", number=5))
    code, text = fetch(tmp_path, config)
    assert code == 0, text
    assert "lacks your secret word" in text
    master = GameMaster(tmp_path / "gm.db", GMConfig.load(config))
    assert master.store.count("g1") == before
    secret = master.secret("g1", pid)
    master.close()
    answer = outbox(tmp_path / "out")[-1]
    assert answer[0] == address and secret in answer[1]

    deliver(tmp_path, message(address, f"pass\n{'geheim' if lang == 'de' else 'secret'}: "
                              f"{secret.upper()}\n", number=6))  # fmt: skip
    code, text = fetch(tmp_path, config)
    assert code == 0, text
    assert "understood as: pass" in text and secret not in text
    master = GameMaster(tmp_path / "gm.db", GMConfig.load(config))
    assert master.store.count("g1") == before + 1
    master.close()
    assert all(secret.upper() not in body for _, body, _ in outbox(tmp_path / "out"))


def test_secret_words_are_read_from_own_text_and_subject() -> None:
    mail = IncomingMail("a@x", "Re: [1849 #g1] Befehle geheim: Abc234", "pass\n> secret: q\n",
                        "")  # fmt: skip
    assert secret_words(mail) == ["abc234"]
    mail = IncomingMail("a@x", "orders", "pass\nSecret: xyz987\n", "")
    assert secret_words(mail) == ["xyz987"]


def test_orders_the_gm_enters_for_a_player_are_not_checked(tmp_path: Path) -> None:
    """``gm orders KEY FILE --player NAME``: the GM's own input, no mail: neither the
    Authentication-Results nor the secret word is asked for."""
    config = write_config(tmp_path, checks=f'authserv_id = "{TRUSTED}"\nsecret_word = true')
    name, _, _ = new_game(tmp_path, config)
    orders = tmp_path / "orders.txt"
    orders.write_text("pass\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["gm", "orders", "g1", str(orders), "--db",
                                       str(tmp_path / "gm.db"), "--config", str(config),
                                       "--player", name])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "understood as: pass" in result.output and "refused" not in result.output


def test_one_games_unsent_report_does_not_keep_the_others_answers(tmp_path: Path) -> None:
    """The server refuses one report of game g1: g1's other reports and game k's still go
    out in the same run; the command names the unsent one and exits 2."""
    from aiosmtpd.controller import Controller
    from test_gm_gaps import RefusingOnce
    from test_mail_roundtrip import free_port

    handler = RefusingOnce("ben@example.org")
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        config = write_config(tmp_path, keys=("g1", "k"))
        config.write_text(config.read_text(encoding="utf-8").replace(
            '[outgoing]\nkind = "outbox"\nfolder = "out"',
            f'[outgoing]\nkind = "smtp"\nhost = "127.0.0.1"\nport = {port}\nsecurity = "plain"',
        ), encoding="utf-8")  # fmt: skip
        new_game(tmp_path, config, "g1")
        new_game(tmp_path, config, "k")
        deliver(
            tmp_path,
            message("anna@example.org", "passe\n", subject="[1849 #g1] x", number=1),
            message("anna@example.org", "passe\n", subject="[1849 #k] x", number=2),
        )
        code, text = fetch(tmp_path, config)
    finally:
        controller.stop()
    assert code == 2, text
    assert "report to Ben not sent" in text
    assert len(handler.inboxes["anna@example.org"]) == 2
    assert len(handler.inboxes["ben@example.org"]) == 1  # game k's
    assert len(handler.inboxes["clara@example.org"]) == 2


def test_a_reply_with_its_quote_is_answered_for_its_orders_only(tmp_path: Path) -> None:
    """A reply to a report: the attribution line, the quote and a signature get no answer
    (no "unknown order"), the order does."""
    config = write_config(tmp_path)
    _, address, _ = new_game(tmp_path, config)
    master = GameMaster(tmp_path / "gm.db", GMConfig.load(config))
    body = ("passe\n\nAm 01.12.2026 um 10:00 schrieb Spielleitung <gm@example.org>:\n"
            "> Auswertung für Anna\n> biete 20 auf SCE\n-- \nAnna\n")  # fmt: skip
    results = master.take_mails([IncomingMail(address, "Re: [1849 #g1] x", body, "<r@x>")])
    assert results[0].refused is None and results[0].answers == []
    assert [(a.text, a.refused) for a in master.advanced["g1"]] == [("passe", None)]
    master.close()
