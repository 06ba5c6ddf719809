"""Helpers of the store tests: toy game files (the toy engine of tests/io/fakegame.py)."""

from __future__ import annotations

from typing import Any

from stellwerk.io.gamefile import build_game_file

KEY = "game.json"


def toy_file(actions: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    data = build_game_file("toy", [(1, "Ann"), (2, "Bob")], 7, [], [])
    data["actions"] = actions or []
    data["description"] = "kept"
    return data


def pass_of(entity: int) -> dict[str, Any]:
    return {"type": "pass", "entity": entity}
