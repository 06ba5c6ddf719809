"""Board positions of a recorded 1841 game, rebuilt without the 1841 game flow: a check of the
engine from outside it (the route and picture tests compare the replay's board with these;
``bench/pictures.py`` draws them).  Differential tooling, not part of the product.

An 18xx.games game file records every tile lay, but not the home tokens placed at a par, nor
the tokens that move in mergers, the Ferdinandea secession and the Tuscan merge.  Its state
trace (``NAME.trace.jsonl`` beside the file: the state after every action, ../shared/fixtures
README) lists each corporation's token hexes and the phase.  So the board is rebuilt action by
action: tiles from ``lay_tile`` actions, tokens from the trace's token lists.  A new token
goes into the city a ``place_token`` action names, else the only city of its hex, else the
city of a token that left the hex in the same action (a token handed on in a merger), else
the corporation's printed home city; anything else is an error.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from stellwerk.core.jsondata import (
    JSONObject,
    as_list,
    as_object,
    objects,
    optional_integer,
    text,
    texts,
)
from stellwerk.io.gamefile import action_id, load_game_file, read_game_file
from stellwerk.titles.g1841.mapport import MapPort
from stellwerk.titles.g1841.options import DECLARED
from stellwerk.titles.g1841.settings import Settings1841


@dataclass(frozen=True, slots=True)
class Train:
    """A train as the trace names it, with an id for route specifications."""

    id: str
    name: str


@dataclass(slots=True)
class Owner:
    """A train owner for :meth:`MapPort.train_specs`."""

    trains: list[Train] = field(default_factory=list)


def owner_of(names: list[str]) -> Owner:
    """Trains named ``names`` (``["2", "2", "3"]``) with distinct ids ``"2-0", "2-1", "3-0"``."""
    seen: Counter[str] = Counter()
    trains = []
    for name in names:
        trains.append(Train(f"{name}-{seen[name]}", name))
        seen[name] += 1
    return Owner(trains)


@dataclass(slots=True)
class Position:
    """The board after the action ``after_id`` (None: before any action) and the state the
    trace records then: phase and each started corporation's trains by name."""

    port: MapPort
    after_id: int | None
    trains: Mapping[str, list[str]]


def read_trace(path: Path) -> list[JSONObject]:
    """The trace lines: header, initial state, one state per live action, end line."""
    with path.open(encoding="utf-8") as fh:
        return [
            as_object(json.loads(line), "a trace line", ValueError) for line in fh if line.strip()
        ]


def _corporations(state: JSONObject) -> list[JSONObject]:
    """A trace state's corporations (each with its ``id``, ``trains`` and ``tokens``)."""
    return objects(state.get("corporations"), "'corporations'", ValueError)


def trace_path(game_path: Path) -> Path:
    """``NAME.trace.jsonl`` beside ``NAME.json``."""
    return game_path.with_suffix(".trace.jsonl")


class _Rebuild:
    """The board rebuilt action by action (see the module docstring)."""

    def __init__(self, settings: Settings1841) -> None:
        self.port = MapPort(settings)
        self.homes = {c.sym: c.homes for c in self.port.data.corporations}

    def tokens(self) -> Counter[tuple[str, str]]:
        out: Counter[tuple[str, str]] = Counter()
        for hid, state in self.port.board.hexes.items():
            for city in state.cities:
                for corp in city.tokens:
                    if corp is not None:
                        out[(corp, hid)] += 1
        return out

    def city_index(self, corp: str, hid: str, action: JSONObject, left: dict[str, int]) -> int:
        board = self.port.board
        if action.get("type") == "place_token":
            placed, index = board.resolve_city(str(action["city"]))
            if placed == hid:
                return index
        if len(board.hexes[hid].cities) == 1:
            return 0
        if hid in left:
            return left[hid]
        for home, city in self.homes.get(corp, ()):
            if home == hid and city >= 0:
                return city
        raise ValueError(f"action {action.get('id')}: cannot tell which city of {hid} {corp} is in")

    def apply(self, action: JSONObject, state: JSONObject) -> None:
        board = self.port.board
        if action.get("type") == "lay_tile":
            rotation = optional_integer(action, "rotation", ValueError) or 0
            board.lay_tile(
                text(action, "hex", ValueError), text(action, "tile", ValueError), rotation
            )
        want: Counter[tuple[str, str]] = Counter(
            (text(c, "id", ValueError), hid)
            for c in _corporations(state)
            for hid in texts(c, "tokens", ValueError)
        )
        have = self.tokens()
        left: dict[str, int] = {}
        for corp, hid in have - want:
            for index, city in enumerate(board.hexes[hid].cities):
                if corp in city.tokens:
                    left[hid] = index
            board.remove_corp_token(hid, corp)
        for corp, hid in want - have:
            board.place_token_at(hid, self.city_index(corp, hid, action, left), corp)
        self.port.phase = str(state["phase"])


def positions(game_path: Path) -> Iterator[tuple[JSONObject, Position]]:
    """For every live action of the game file: (the action, the position before it).  The
    position object is updated in place, so copy what must outlive the next step."""
    data = read_game_file(game_path)
    trace = read_trace(trace_path(game_path))
    states = trace[1:]
    live = load_game_file(data).live
    if len(states) < len(live) + 1:
        raise ValueError(f"{trace_path(game_path)} does not cover every action")
    settings = as_object(data.get("settings") or {}, "'settings'", ValueError)
    options = texts(settings, "optional_rules", ValueError)
    players = as_list(data.get("players"), "'players'", ValueError)
    rebuild = _Rebuild(DECLARED.settings(options, len(players)))
    position = Position(rebuild.port, None, {})
    for action, state, after in zip(live, states, states[1:], strict=False):
        position.trains = {
            text(c, "id", ValueError): texts(c, "trains", ValueError) for c in _corporations(state)
        }
        yield action, position
        if after.get("action_id") != action_id(action):
            raise ValueError(f"trace line for action {action['id']} is missing")
        rebuild.apply(action, after)
        position.after_id = action_id(action)


def position_before(game_path: Path, wanted: int) -> tuple[JSONObject, Position]:
    """The first live action with an id of at least ``wanted`` and the position before it."""
    for action, position in positions(game_path):
        if action_id(action) >= wanted:
            return action, position
    raise ValueError(f"{game_path.name} has no live action {wanted}")
