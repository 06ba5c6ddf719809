"""Issue 10 items 1 and 4: the GM's own refusal reasons are written in the player's language;
the engine's reasons (naming their rule) stay English (docs/gm.md)."""

from __future__ import annotations

import pytest

from stellwerk.api import Game
from stellwerk.gm.refusals import FORMS_DE, in_language
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


def test_an_engine_reason_stays_english() -> None:
    """The engine's reason names its rule: it is passed on as written (docs/gm.md)."""
    reasons = []
    for lang in ("en", "de"):
        game = Game.create("1849", [(1, "Anna"), (2, "Ben"), (3, "Clara")], [], 3)
        session = Session(game, langs={1: lang, 2: lang, 3: lang})
        player = session.waiting_for()[0]
        answers = session.receive(player, "biete 1 auf SCE") + session.advance()
        assert len(answers) == 1 and answers[0].refused is not None
        reasons.append(answers[0].refused)
    assert reasons[0] == reasons[1] and "1849 rules" in reasons[0]
    assert in_language("write: pass", "en") == "write: pass"
