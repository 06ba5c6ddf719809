"""1835 route rules as hooks for core/routes (rules/1835.md 8.5).

* ``N`` trains count every stop; ``N+N`` trains run up to N cities/off-boards plus up to N towns
  (Rails majorStops/minorStops; 18xx.games lets surplus towns use the city allowance - UNSURE,
  we follow Rails).
* Hamburg ferry: on the brown Hamburg tile a route crossing the Elbe (an exit of the south-west
  group and one of the north-east group) earns 10M less (both programs).
* Elsass-Lothringen is removed from the map for routes while it is worth 0 (Rails
  ElsasModifier; 18xx.games instead groups M5 and N4 as one off-board - DISAGREE).
* Berlin: one of its cities per route (city group in the map data, core check).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from stellwerk.core.jsondata import JSONValue, as_object, integer, is_int, text, texts
from stellwerk.core.map.tiles import NodeKind
from stellwerk.core.routes.legs import INTRA
from stellwerk.core.routes.model import (
    RouteRules,
    RouteWalk,
    RunContext,
    TrainSpec,
    fail,
    marker_bonus,
    printed_value,
)
from stellwerk.titles.g1835.data_load import game_data


@dataclass(frozen=True, slots=True)
class Ferry:
    """The Hamburg ferry (``[operating] hamburg_ferry``, rules/1835.md 8.5): on ``tile`` at
    ``hex``, a route using an exit of each group pays ``penalty`` less."""

    hex: str
    tile: str
    south_west: frozenset[int]
    north_east: frozenset[int]
    penalty: int


def _edges(value: JSONValue, what: str) -> frozenset[int]:
    if not isinstance(value, list) or not all(is_int(edge) for edge in value):
        raise ValueError(f"hamburg_ferry.{what} must be a list of edges, not {value!r}")
    return frozenset(edge for edge in value if is_int(edge))


@cache
def _ferry() -> Ferry:
    """The ferry of ``data/game.toml``; another shape raises ValueError."""
    operating = as_object(game_data().get("operating"), "operating", ValueError)
    ferry = as_object(operating.get("hamburg_ferry"), "hamburg_ferry", ValueError)
    return Ferry(
        text(ferry, "hex", ValueError),
        text(ferry, "tile", ValueError),
        _edges(ferry.get("south_west"), "south_west"),
        _edges(ferry.get("north_east"), "north_east"),
        integer(ferry, "penalty", ValueError),
    )


@cache
def _elsass_hexes() -> frozenset[str]:
    """The Elsass-Lothringen hexes of ``data/game.toml`` (``[operating] elsass_hexes``)."""
    operating = as_object(game_data().get("operating"), "operating", ValueError)
    return frozenset(texts(operating, "elsass_hexes", ValueError))


def is_plus_train(train: TrainSpec) -> bool:
    """``N+N`` trains (towns counted separately)."""
    return "+" in train.name


def plus_distance(ctx: RunContext, route: RouteWalk, train: TrainSpec) -> int:
    """Stops counted against the train: all stops for N trains; for N+N trains the larger of
    (cities and off-boards) and towns, each limited to N (rules/1835.md 8.5)."""
    stops = set(route.stops)
    if not is_plus_train(train):
        return len(stops)
    towns = sum(1 for s in stops if ctx.node(s).kind is NodeKind.TOWN)
    return max(towns, len(stops) - towns)


def ferry_bonus(ctx: RunContext, route: RouteWalk, train: TrainSpec) -> int:
    """-10M for crossing the Elbe on brown Hamburg (rules/1835.md 8.5), plus marker bonuses."""
    ferry = _ferry()
    hex_id = ferry.hex
    state = ctx.board.hexes.get(hex_id)
    bonus = marker_bonus(ctx, route, train)
    if state is None or state.tile.name != ferry.tile:
        return bonus
    edges = {e for leg in route.legs for h, e in leg.track if h == hex_id and e < INTRA}
    if edges & ferry.south_west and edges & ferry.north_east:
        bonus -= ferry.penalty
    return bonus


def check_elsass(ctx: RunContext, route: RouteWalk, train: TrainSpec) -> None:
    """Elsass-Lothringen may not be used while it is worth 0 (Rails ElsasModifier)."""
    hexes = _elsass_hexes()
    for stop in route.stops:
        if stop[0] in hexes and printed_value(ctx, stop, train) == 0:
            raise fail(f"{stop[0]} is worth nothing now and cannot be used", "1835 rules §8.5")
    for leg in route.legs:
        if any(h in hexes for h in leg.hexes) and not any(s[0] in hexes for s in leg.nodes):
            raise fail("Elsass-Lothringen cannot be passed", "1835 rules §8.5")


def route_rules() -> RouteRules:
    """1835's route hooks."""
    return RouteRules(distance=plus_distance, bonus=ferry_bonus, check=check_elsass)
