"""Text rendering of a game's state for ``stellwerk show`` (from ``game.snapshot()``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from stellwerk.core.entities import EntityId
    from stellwerk.core.jsondata import JSONObject
    from stellwerk.io.snapshot import Snapshot

MAX_LISTED_ACTIONS = 40


def _percentages(shares: Mapping[str, int]) -> str:
    return ", ".join(f"{corp} {percent}%" for corp, percent in shares.items()) or "-"


def _names(values: Sequence[object]) -> str:
    return ", ".join(str(value) for value in values) or "-"


def _player_lines(state: Snapshot, names: dict[str, str]) -> list[str]:
    lines = ["Players:"]
    for player in state.get("players", []):
        name = names.get(str(player.get("id")), "")
        lines.append(
            f"  {player.get('id')} {name}: cash {player.get('cash')}, "
            f"shares {_percentages(player.get('shares', {}))}, "
            f"companies {_names(player.get('companies', []))}"
        )
    return lines


def _corporation_lines(state: Snapshot) -> list[str]:
    corporations = state.get("corporations", [])
    if not corporations:
        return ["Corporations: none started"]
    lines = ["Corporations:"]
    for corp in corporations:
        lines.append(
            f"  {corp.get('id')}: president {corp.get('president')}, cash {corp.get('cash')}, "
            f"floated {'yes' if corp.get('floated') else 'no'}, "
            f"trains {_names(corp.get('trains', []))}, tokens {_names(corp.get('tokens', []))}, "
            f"companies {_names(corp.get('companies', []))}, pool {corp.get('pool_percent', 0)}%"
        )
    return lines


def _market_lines(state: Snapshot) -> list[str]:
    priced = [corp for corp in state.get("corporations", []) if corp.get("price") is not None]
    priced.sort(key=lambda corp: -(corp["price"] or 0))
    cells = [f"{corp['id']} {corp['price']} at {corp.get('price_cell')}" for corp in priced]
    return [f"Market: {', '.join(cells) or 'no prices yet'}"]


def render(
    state: Snapshot,
    names: dict[str, str],
    active: Sequence[EntityId],
    legal: Sequence[JSONObject],
) -> list[str]:
    """Lines describing the state, who must act and what they may do."""
    lines = [
        f"{state.get('round')}, turn {state.get('turn')}.{state.get('round_num', '')}, "
        f"phase {state.get('phase')}, bank {state.get('bank')}",
        *_market_lines(state),
        *_corporation_lines(state),
        *_player_lines(state, names),
        f"Depot: {_percentages(state.get('depot', {})).replace('%', '')}",
        f"To act: {_names(active) if active else 'nobody'}",
        f"Legal actions ({len(legal)}):",
    ]
    lines += [f"  {json.dumps(action)}" for action in legal[:MAX_LISTED_ACTIONS]]
    if len(legal) > MAX_LISTED_ACTIONS:
        lines.append(f"  ... and {len(legal) - MAX_LISTED_ACTIONS} more")
    return lines
