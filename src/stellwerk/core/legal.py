"""What the acting entity may do now, as 18xx.games action dicts (finite choices listed)."""

from __future__ import annotations

from typing import Any

from stellwerk.core.game import Game


def legal_actions(game: Game) -> list[dict[str, Any]]:
    """Placeholder enumeration: the action types the active entities may send."""
    out: list[dict[str, Any]] = []
    for entity in game.round.active_entities():
        for kind in game.round.actions_for(entity):
            out.append({"type": kind, "entity": getattr(entity, "sym", getattr(entity, "id", None))})
    return out
