"""Issue 10 for 1841, on the real recorded games (../shared/fixtures, skipped without it):
at every decision of 1841's procedures and steps (rules/1841.md 5.3-5.4: token counts,
merger exchanges, share offers, offer rounds, the secession's picks, token removals, merger
proposals, token purchases, bankruptcy options) the recorded answer, written as an order in
English and in German, is understood as that answer; and the GM's default order there
follows seed 003 (H15: take the cash, buy no tokens, keep as many tokens as possible,
decline what is optional)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stellwerk.api import Game
from stellwerk.gm.defaults import default_action
from stellwerk.gm.look import asked, legal
from stellwerk.gm.orders import parse_order
from stellwerk.gm.phrase import order_text
from stellwerk.gm.understand import player_of, understand
from stellwerk.io.gamefile import load_game_file, read_game_file

FILES = ["1841_game_end_bank.json", "1841_game_end_bankrupt.json",
         "1841_game_end_offboards.json"]  # fmt: skip
DECIDING = ("choose", "remove_token", "merge", "buy_token", "bankrupt")
BOOKKEEPING = ("id", "auto_actions", "created_at", "user")


def decisions(path: Path) -> list[tuple[Game, dict[str, Any], str | None]]:
    """Replays the game and checks each recorded decision where the game stands
    (:func:`yield_check`); returns (game, recorded action, topic) of each (the game is the
    same object, moved on to the end)."""
    data = read_game_file(path)
    live = list(load_game_file(data).live)
    game = Game.from_file({**data, "actions": []})
    out = []
    for recorded in live:
        if recorded["type"] in DECIDING:
            question = asked(game)
            out.append((game, recorded, question.topic if question else None))
            yield_check(game, recorded, question.topic if question else None)
        game.process(recorded, replay=True)
    return out


CHECKED: dict[str, set[str]] = {}


def yield_check(game: Game, recorded: dict[str, Any], topic: str | None) -> None:
    """The checks at one decision (done while the game stands there)."""
    wanted = {k: v for k, v in recorded.items() if k not in BOOKKEEPING}
    entity = recorded["entity"]
    player = player_of(game, entity)
    for lang in ("en", "de"):
        text = order_text(game, wanted, lang)
        order = parse_order(text)
        assert order is not None, text
        got = understand(game, player, order, entity).action
        assert {k: wanted.get(k) for k in got} == got, (text, wanted, got)
        CHECKED.setdefault(recorded["type"] + (f":{topic}" if topic else ""), set()).add(text)
    found = default_action(game, entity)
    assert found is not None
    default = found.action
    listed = [a for a in legal(game) if a.get("entity") == entity]
    choices = [a.get("choice") for a in listed if a["type"] == "choose"]
    if topic == "upgrade":
        assert default["choice"] == ("cash" if "cash" in choices else "no")
    elif topic == "buy_tokens":
        assert default["choice"] == min(choices)
    elif topic in ("share_offer", "offer_again"):
        assert default["choice"] in ("no", "n")
    elif topic == "remove_tokens":
        passes = any(a["type"] == "pass" for a in listed)
        assert default["type"] == ("pass" if passes else "remove_token")
        assert passes or found.note.startswith("drawn")
    elif recorded["type"] in ("merge", "buy_token") and any(a["type"] == "pass" for a in listed):
        assert default["type"] == "pass"


@pytest.mark.parametrize("name", FILES)
def test_issue10_1841_recorded_decisions_by_orders_and_defaults(
    fixtures_18xx: Path, name: str
) -> None:
    CHECKED.clear()
    found = decisions(fixtures_18xx / "1841" / name)
    assert found
    kinds = set(CHECKED)
    assert any(k.startswith("choose:buy_tokens") for k in kinds), kinds
    assert any(k.startswith("merge") for k in kinds), kinds
