"""German reports are German throughout: the GM's own lines (standing orders given, fired,
cancelled; defaults and their notes; refused mails; corrections) in the player's language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from stellwerk.gm.mail import GMConfig, IncomingMail
from stellwerk.gm.master import GameMaster
from stellwerk.gm.refusals import in_language

PLAYERS = [("Anna", "anna@example.org", "de"), ("Ben", "ben@example.org", "en")]

ENGLISH = re.compile(
    r"standing order|default|refused|understood|GM correction|mail from|earlier orders|"
    r"kept for|later decision|cancelled|actions after|taken back|claims to be|no bids|"
    r"\(pass\)|: pass\b",
    re.IGNORECASE,
)


def test_a_german_report_has_no_english_gm_text(tmp_path: Path) -> None:
    config = tmp_path / "gm.toml"
    config.write_text(
        '[gm]\naddress = "GM <gm@example.org>"\n[incoming]\nkind = "maildir"\npath = "box"\n'
        '[outgoing]\nkind = "outbox"\nfolder = "out"\n[games.g1.players]\n'
        + "".join(f'{n} = {{ address = "{a}", lang = "{lang}" }}\n' for n, a, lang in PLAYERS)
        + 'Clara = { address = "clara@example.org", lang = "de" }\n',
        encoding="utf-8",
    )
    gm = GameMaster(tmp_path / "gm.db", GMConfig.load(config))
    gm.new_from_config("g1", "1849", seed=3)
    gm.reports("g1")

    def mail(body: str, number: int) -> IncomingMail:
        return IncomingMail("anna@example.org", "[1849 #g1] Befehle", body, f"<{number}@x>")

    gm.take_mails([
        mail("passe bis rundenende\ndauerauftraege loeschen\nATA: kaufe zug\nkaufe XYZ\n", 1),
        mail("Spieler: Ben\npasse\n", 2),
        mail("Änderung\npasse\n", 3),
    ])  # fmt: skip
    gm.deadline("g1")
    last = gm.session("g1")[0].game.next_id() - 1
    gm.correct("g1", "Versehen", undo_to=last - 1)
    reports = gm.reports("g1")
    anna = reports["Anna"].text
    for needle in (
        "Dauerauftrag erteilt",
        "beendet: vom Spieler gelöscht",
        "Mail von",
        "Korrektur der Spielleitung: Versehen",
        "Aktionen nach",
        "(Vorgabe: ",
    ):
        assert needle in anna or needle in reports["Clara"].text, needle  # fmt: skip
    found = ENGLISH.findall(anna) + ENGLISH.findall(reports["Clara"].text)
    assert found == []
    assert "GM correction: Versehen" in reports["Ben"].text  # the English player's stays
    gm.close()


@pytest.mark.parametrize(
    ("note", "german"),
    [
        ("no bids", "keine Gebote"),
        ("drawn 2 of 3 (seed 7)", "gezogen: 2 von 3 (Startwert 7)"),
        (
            "buy no tokens beyond the 2 the rules require (house rule)",
            "kaufe keine Marken über die 2 hinaus, die die Regeln verlangen (Hausregel)",
        ),
        ("CTS has floated", "CTS ist in Betrieb"),
        ("the price of SCE (30) is above 20", "der Preis von SCE (30) liegt über 20"),
        ("Ben sold shares", "Ben hat Aktien verkauft"),
    ],
)
def test_default_notes_and_standing_ends_in_german(note: str, german: str) -> None:
    assert in_language(note, "de") == german
    assert in_language(note, "en") == note


def test_a_standing_order_the_engine_refuses_is_ended_in_german() -> None:
    """A standing order whose action the engine refuses ends; a German player reads the
    engine's reason in German (``refusals.engine_reason``), an English one in English."""
    from stellwerk.api import Game
    from stellwerk.gm.session import Session
    from stellwerk.gm.standing import Firing, Standing

    game = Game.create("1849", [(1, "Anna"), (2, "Ben"), (3, "Clara")], [], 3)
    session = Session(game, langs={1: "en", 2: "de", 3: "de"})
    waiting = session.waiting_for()[0]
    other = next(p for p in (1, 2, 3) if p != waiting)
    standing = Standing(id=1, player=other, kind="share_pass", text="passe bis rundenende")
    session.standing.append(standing)
    refused = {"type": "pass", "entity": other, "entity_type": "player"}
    assert session._fire(Firing(standing, action=refused), other)
    assert not standing.active
    event = session.events[-1]
    assert event.text.startswith("standing order 'passe bis rundenende' cancelled: ")
    german = event.in_language("de")
    assert german.startswith("Dauerauftrag 'passe bis rundenende' beendet: ")
    assert "englisch" not in german and "Regel:" in german, german
