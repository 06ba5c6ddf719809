"""Issue 10 items 1 and 4: the GM's own refusal reasons are written in the player's language;
so are the engine's (gap (c)), with their rule kept; an unknown one stays English with its
rule (docs/gm.md)."""

from __future__ import annotations

import pytest

from stellwerk.api import Game, IllegalAction
from stellwerk.gm.refusals import ENGINE_DE, FORMS_DE, engine_reason, in_language
from stellwerk.gm.session import Session

BAD = [
    "fly away", "kaufe", "biete 1 auf ZZZ", "ATA: lege 57 auf H12 drehung 9", "gründe ATA",
    "ATA: immer optimal fahren und ausschütten", "immer optimal fahren", "ATA: fahre",
    "biete x auf SCE", "passe extra",
]  # fmt: skip
"""Orders the GM refuses itself at the start of 1849 (the private auction): unreadable, no
such bid, not the president (orders for later decisions are kept, not refused)."""


def refusals(lang: str) -> list[str | None]:
    """Each bad order, sent by the first player to act in a new 1849 game, answered."""
    game = Game.create("1849", [(1, "Anna"), (2, "Ben"), (3, "Clara")], [], 3)
    session = Session(game, langs={1: lang, 2: lang, 3: lang})
    player = session.waiting_for()[0]
    out: list[str | None] = []
    for line in BAD:
        answers = session.receive(player, line) + session.advance()
        assert len(answers) == 1, (line, answers)
        out.append(answers[0].refused)
        session.pending.clear()
    assert len(game.actions) == 0  # refused orders change nothing
    return out


def test_issue10_refusals_are_in_the_players_language() -> None:
    english, german = refusals("en"), refusals("de")
    assert all(reason is not None for reason in english + german)
    for line, en, de in zip(BAD, english, german, strict=True):
        assert en != de, (line, en)
        assert de == in_language(str(en), "de"), line
    assert german[0].startswith("unbekannter Befehl")  # type: ignore[union-attr]
    assert str(german[2]).startswith("kein Gebot auf ZZZ ist jetzt möglich (offen: ")
    assert german[5] == "du bist nicht Direktor von ATA"


@pytest.mark.parametrize(("pattern", "german"), FORMS_DE)
def test_every_form_has_its_groups_in_the_german_wording(pattern: str, german: str) -> None:
    """A form whose German wording names a group the pattern lacks would fail at runtime."""
    import re

    groups = set(re.compile(pattern).groupindex)
    assert set(re.findall(r"\{(\w+)\}", german)) <= groups


def test_issue10_gap_c_an_engine_reason_is_given_in_german_with_its_rule() -> None:
    """The engine's reason is rendered in the player's language; the rule is kept as
    written (``Regel: ...``), so both players look up the same section."""
    reasons = []
    for lang in ("en", "de"):
        game = Game.create("1849", [(1, "Anna"), (2, "Ben"), (3, "Clara")], [], 3)
        session = Session(game, langs={1: lang, 2: lang, 3: lang})
        player = session.waiting_for()[0]
        answers = session.receive(player, "biete 1 auf SCE") + session.advance()
        assert len(answers) == 1 and answers[0].refused is not None
        reasons.append(answers[0].refused)
    assert reasons[0] == "the price for SCE is 20, not 1 (1849 rules §1.5)"
    assert reasons[1] == "der Preis für SCE ist 20, nicht 1 (Regel: 1849 rules §1.5)"
    assert in_language("write: pass", "en") == "write: pass"


def test_issue10_gap_c_not_ones_turn_is_given_in_german() -> None:
    """An action of a player who is not to act: the live gate's reason (common rules §6)."""
    game = Game.create("1849", [(1, "Anna"), (2, "Ben"), (3, "Clara")], [], 3)
    waiting = game.active_entities()[0]
    other = next(pid for pid, _ in game.players if pid != waiting)
    try:
        game.process({"type": "pass", "entity": other, "entity_type": "player"})
    except IllegalAction as error:
        german = engine_reason(error.reason, error.rule, "de")
    else:
        raise AssertionError("a pass out of turn was taken")
    assert "ist jetzt nicht am Zug" in german and "(Regel: common rules §6" in german


@pytest.mark.parametrize(
    ("reason", "german"),
    [
        ("SB cannot afford 4", "SB kann sich 4 nicht leisten"),
        ("Anna has 20 and cannot pay 100", "Anna hat 20 und kann 100 nicht bezahlen"),
        ("ATA is at its train limit", "ATA hat sein Zuglimit erreicht"),
        ("Anna may not buy ATA now", "Anna darf ATA jetzt nicht kaufen"),
        ("gray tiles are not available in this phase",
         "Plättchen der Farbe gray gibt es in dieser Phase nicht"),
        ("Route must contain token", "die Strecke muss eine eigene Marke enthalten"),
        ("H12-J10 is too long for a 2 train", "H12-J10 ist zu lang für einen 2-Zug"),
    ],
)  # fmt: skip
def test_issue10_gap_c_common_engine_reasons_in_german(reason: str, german: str) -> None:
    """Cash, limits (train, certificate and 60 % purchases name the engine's rule), tiles
    and routes; the rule follows the German sentence."""
    assert engine_reason(reason, "R §1", "de") == f"{german} (Regel: R §1)"
    assert engine_reason(reason, "R §1", "en") == f"{reason} (R §1)"


def test_issue10_gap_c_an_unknown_engine_reason_falls_back_to_english_with_its_rule() -> None:
    assert engine_reason("a strange thing", "1841 rules 2.6", "de") == (
        "a strange thing (englisch; 1841 rules 2.6)"
    )


@pytest.mark.parametrize(("pattern", "german"), ENGINE_DE)
def test_every_engine_form_has_its_groups_in_the_german_wording(pattern: str, german: str) -> None:
    import re

    groups = set(re.compile(pattern).groupindex)
    assert set(re.findall(r"\{(\w+)\}", german)) <= groups


def test_gm_purchase_refusals_say_why_in_both_languages() -> None:
    """The GM's refusal of a purchase names the certificate limit, the 60 % holding limit or
    the cash when that is why (common rules: certificate limit, holding limit)."""
    for english in (
        "no certificate of ATA can be bought now: the certificate limit (12 of 12 held)",
        "no certificate of ATA can be bought now: Anna holds 60% of it, at most 60% are allowed",
        "no certificate of ATA can be bought now: Anna has 10, the cheapest costs 100",
    ):
        german = in_language(english, "de")
        assert german != english and german.startswith("jetzt kann kein Zertifikat von ATA")
