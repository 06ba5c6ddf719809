"""The auction part of the real 18xx.games games in ../shared replayed through the core's
nominated auction in a minimal game: after every auction action the players' cash, their
companies, the bank and who must act equal the recorded trace; after the auction the new
seat order is the order of the players' first turns in the following stock round.

The concessions (the items) are given here in their auction order; the opening bid (20) and
the increment (5) are the ones those games were played with (skipped without ../shared)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stellwerk.core.flow.nominated_auction import NominatedAuction
from stellwerk.io.undo import live_actions

ITEMS = ["Bayard", "SFLP", "SFTC", "SFMA", "SFTN", "SSFL", "SFTG", "IRSFF"]
LITE_LEAVES_OUT = {"SFLP", "SFMA", "SSFL"}
GAMES = ["1841_game_end_bank", "1841_game_end_bankrupt", "1841_game_end_offboards"]


def companies_of(line: dict[str, Any]) -> dict[Any, list[str]]:
    return {p["id"]: sorted(p["companies"]) for p in line["players"]}


def first_turns(lines: list[dict[str, Any]], players: int) -> list[Any]:
    """The seat order of the first stock round: the players in the order of their first
    turns (corporations acting in between left out)."""
    order: list[Any] = []
    for line in lines:
        for pid in line["active"]:
            if isinstance(pid, int) and pid not in order:
                order.append(pid)
        if len(order) == players:
            break
    return order


@pytest.mark.parametrize("name", GAMES)
def test_auction_matches_the_trace(auction_game: Any, fixtures_18xx: Path, name: str) -> None:
    folder = fixtures_18xx / "1841"
    data = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    trace = [json.loads(x) for x in (folder / f"{name}.trace.jsonl").read_text().splitlines()]
    header, start = trace[0], trace[1]
    lines = [line for line in trace[2:] if "action_id" in line]  # not the final result
    assert "version_1" not in header["optional_rules"]
    lite = "lite" in header["optional_rules"]
    items = [sym for sym in ITEMS if not (lite and sym in LITE_LEAVES_OUT)]
    g = auction_game(
        [p["cash"] for p in start["players"]],
        [(sym, 50) for sym in items],
        NominatedAuction,
        ids=[p["id"] for p in data["players"]],
        bank=start["bank"],
        opening_bid=20,
        increment=5,
    )
    assert g.active() == start["active"]
    actions = live_actions(data["actions"])
    assert len(actions) == len(lines)
    count = 0
    for action, line in zip(actions, lines, strict=True):
        assert action["id"] == line["action_id"]
        g.process_action(action)
        count += 1
        where = f"{name} action {action['id']}"
        assert g.cash() == {p["id"]: p["cash"] for p in line["players"]}, where
        assert {pid: sorted(c.sym for c in g.p(pid).companies) for pid in g.cash()} == (
            companies_of(line)
        ), where
        assert g.bank.cash == line["bank"], where
        if line["round"] != "Round::Auction":
            assert not g.in_auction(), where
            assert g.order() == first_turns(lines[count - 1 :], len(g.players)), where
            break
        assert g.in_auction(), where
        assert g.active() == line["active"], where
    assert count > 10
