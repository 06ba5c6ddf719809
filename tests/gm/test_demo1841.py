"""The main job's demonstration of the seeds' own case: 1841 with seed 003's house rules
(option preset ``zugzwang``) by mail in German -- the concession auction by mail, a merger
proposed by one president whose question another player answers by mail, and a missed
deadline settled by seed 003's default orders (rules/1841.md 6.7)."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from stellwerk.gm.demo1841 import KEY, run
from stellwerk.gm.master import GameMaster


def _text(path: Path) -> tuple[str, str, str]:
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    body = message.get_body(preferencelist=("plain",))
    assert body is not None
    return str(message["To"]), str(message["Subject"]), body.get_content()


@pytest.mark.long_run
def test_the_seeds_case_by_mail_in_german(tmp_path: Path) -> None:
    out = tmp_path / "gm1841"
    story = run(out)
    assert story.auction_mails > 0, "the concession auction is played by mail"
    assert story.merger is not None and "fusioniere mit" in story.merger
    assert story.answer is not None and story.answer != story.merger
    assert story.missed is not None and story.defaults > 0
    reports = [_text(p) for p in story.reports]
    assert reports and all("Auswertung" in subject for _, subject, _ in reports)
    # every report is the German one: the GM's own lines are German too
    assert not any("understood as" in body or "default order" in body for *_, body in reports)
    # the other president's answer was read from his mail and said back to him in German
    assert any(f"verstanden als {story.answer}" in body for *_, body in reports)
    # the missed deadline: default orders marked in the report of the player who missed it
    missed = [body for to, _, body in reports if story.missed.lower() in to]
    assert any("[Standardbefehl]" in body for body in missed)
    assert any(f"Abgabetermin: {story.defaults} Vorgaben gegeben" in body for *_, body in reports)
    # the game kept in the GM's store is 1841 with the house rules, and the merger is in it
    master = GameMaster(out / "gm.db")
    try:
        game = master.session(KEY)[0].game
        record = game.to_file()
        assert record.get("title") == "1841"
        settings = record.get("settings")
        assert isinstance(settings, dict)
        options = settings.get("optional_rules")
        assert isinstance(options, list) and "zugzwang" in options
        actions = record.get("actions")
        assert isinstance(actions, list)
        assert sum(1 for a in actions if isinstance(a, dict) and a.get("type") == "merge") >= 2
    finally:
        master.close()
