"""Tile-lay legality and cost (common rules §6.3), with hooks for title rules.

``check_lay`` is pure: it returns the cost or raises ``IllegalAction(reason, rule)``.  With a
policy whose ``lay_position`` is off (``stellwerk.core.policy.RECORDED``) it runs only the
checks the reference engine keeps while replaying a file (supply, colour, shape, frozen hexes;
common rules §3.6) and skips connectivity, rotation, blocked hexes and the new-track rule.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from mypy_extensions import mypyc_attr

from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.board import Board
from stellwerk.core.map.graph import (
    NO_LIMITS,
    GraphCache,
    WalkLimits,
    may_reach_any_path,
    reaches_any_path,
)
from stellwerk.core.map.state import HexState
from stellwerk.core.map.tiles import COLORS, RotatedTile, RPath, TileDef
from stellwerk.core.map.upgrades import path_kept_by, rotation_error, upgrade_shape_error
from stellwerk.core.native import fields_state, set_fields_state
from stellwerk.core.policy import LIVE, Policy

RULE = "common rules §6.3"


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(frozen=True, slots=True)
class LayContext:
    """Everything a title hook may look at for one candidate lay."""

    board: Board
    corp: str
    hex: HexState
    old: RotatedTile
    new: RotatedTile
    connected_edges: frozenset[int]
    teleport: bool
    limits: WalkLimits = NO_LIMITS
    """The walk limits of the corporation's graph (the new-track rule walks with them)."""

    def __getstate__(self) -> list[object]:
        """Pickle and copy, as ``dataclasses`` does for a slotted class (``core.native``)."""
        return fields_state(self)

    def __setstate__(self, state: list[object]) -> None:
        set_fields_state(self, state)


def printed_cost(ctx: LayContext) -> int:
    """Generic cost: the terrain printed on the old tile - the hex's terrain while the printed
    tile is there, else a cost printed on the replaced supply tile (common rules §6.3.8)."""
    return ctx.hex.spec.terrain_cost if ctx.hex.is_preprinted else ctx.old.tile.cost


def any_rotation(ctx: LayContext) -> bool:
    """Generic: no title restriction on rotations."""
    return True


def never_waived(ctx: LayContext) -> bool:
    """Generic: every lay must reach new track or a changed value (common rules §6.3.6)."""
    return False


def shape_rule(state: HexState, tile: TileDef) -> str | None:
    """Generic upgrade rule: the rotation-free shape check of common rules §6.3.1-4."""
    return upgrade_shape_error(state.placed, tile)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(frozen=True, slots=True)
class TrackRules:
    """Title hooks for track laying: ``legal_rotation`` (extra rotation rule, e.g. gauge
    matching), ``lay_cost`` (money paid to the bank), ``upgrade_error`` (which tile may
    replace the one on a hex: None if allowed, else the reason; generic: the shape check) and
    ``new_track_waived`` (whether a lay is excused from reaching new track or a changed value,
    common rules §6.3.6; it must still keep every old city and town; generic: never)."""

    legal_rotation: Callable[[LayContext], bool] = any_rotation
    lay_cost: Callable[[LayContext], int] = printed_cost
    upgrade_error: Callable[[HexState, TileDef], str | None] = shape_rule
    new_track_waived: Callable[[LayContext], bool] = never_waived

    def __getstate__(self) -> list[object]:
        """Pickle and copy, as ``dataclasses`` does for a slotted class (``core.native``)."""
        return fields_state(self)

    def __setstate__(self, state: list[object]) -> None:
        set_fields_state(self, state)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(frozen=True, slots=True)
class LayOptions:
    """Per-call inputs from the flow.

    ``phase_colors``: tile colours of the current phase.  ``blocked``: hexes blocked by a private
    (skipped on replay).  ``frozen``: hexes that may not be upgraded now (checked on replay too).
    ``teleport``: if given, the lay needs no connection but must be on one of these hexes.
    ``policy``: the game's checks policy; its ``lay_position`` decides whether the blocked
    hexes, the connection and the rotation are checked (common rules §3.6).
    """

    phase_colors: Collection[str]
    blocked: Collection[str] = ()
    frozen: Collection[str] = ()
    teleport: Collection[str] | None = None
    policy: Policy = LIVE
    rules: TrackRules = field(default_factory=TrackRules)

    def __getstate__(self) -> list[object]:
        """Pickle and copy, as ``dataclasses`` does for a slotted class (``core.native``)."""
        return fields_state(self)

    def __setstate__(self, state: list[object]) -> None:
        set_fields_state(self, state)


def _fail(reason: str, rule: str = RULE) -> IllegalAction:
    return IllegalAction(reason, rule)


def check_lay(
    board: Board, graph: GraphCache, corp: str, hex_id: str, tile_id: str, rotation: int,
    opts: LayOptions,
) -> int:  # fmt: skip
    """Return the cost of laying ``tile_id`` on ``hex_id`` with ``rotation`` for ``corp``, or
    raise IllegalAction naming the rule (common rules §6.3)."""
    state = board.hex(hex_id)
    tile = board.supply_tile(tile_id)
    if not 0 <= rotation <= 5:
        raise _fail(f"Rotation {rotation} is not 0..5", "common rules §1.3")
    if hex_id in opts.frozen:
        raise _fail(f"{hex_id} may not be upgraded now")
    if tile.color not in opts.phase_colors:
        raise _fail(f"{tile.color} tiles are not available in this phase", "common rules §6.3.1")
    old = state.placed
    error = opts.rules.upgrade_error(state, tile)
    if error:
        raise _fail(f"{hex_id}: {error}")
    new = tile.rotated(rotation)
    teleport = opts.teleport is not None
    connected: frozenset[int] = frozenset(range(6))
    if opts.policy.lay_position:
        if hex_id in opts.blocked:
            raise _fail(f"{hex_id} is blocked by a private company", "common rules §6.3.7")
        if opts.teleport is not None:
            if hex_id not in opts.teleport:
                raise _fail(f"The lay must be on one of {', '.join(opts.teleport)}")
        else:
            edges = graph.network(corp).hexes.get(hex_id)
            if not edges:
                raise _fail(f"{corp} cannot reach {hex_id}", "common rules §6.3.5")
            connected = frozenset(edges)
    ctx = LayContext(board, corp, state, old, new, connected, teleport, graph.limits)
    if opts.policy.lay_position:
        _check_rotation(board, ctx, opts)
    return opts.rules.lay_cost(ctx)


def _check_rotation(board: Board, ctx: LayContext, opts: LayOptions) -> None:
    hex_id = ctx.hex.spec.id
    if not opts.rules.legal_rotation(ctx):
        raise _fail(f"The new track on {hex_id} does not join the network with a matching gauge")
    error = rotation_error(ctx.old, ctx.new, lambda e: board.neighbor(hex_id, e) is not None)
    if error:
        raise _fail(f"{hex_id}: {error}", "common rules §6.3.5")
    if not ctx.new.exits & ctx.connected_edges:
        raise _fail(f"No new exit on {hex_id} is reached by {ctx.corp}", "common rules §6.3.5")
    if not ctx.teleport:
        check_new_track(board, ctx, opts.rules.new_track_waived(ctx))


def check_new_track(board: Board, ctx: LayContext, waived: bool = False) -> None:
    """Semi-restrictive rule (common rules §6.3.6): every old city/town keeps its exits, and
    the corporation must reach new track or a city whose value changes (unless ``waived``,
    the title's ``new_track_waived`` hook)."""
    old, new = ctx.old, ctx.new
    for o in old.ct_edges():
        if not any(o <= n for n in new.ct_edges()):
            raise _fail("New track must keep every old city and town", "common rules §6.3.6")
    if not old.paths or waived:
        return  # track on an empty hex is all new: nothing to walk (the rule always holds)
    # which new paths would be new track or change a value, were the corporation to reach them
    gains = [np.index for np in new.paths if _path_gains(old, new, np)]
    if not gains:
        raise _fail("Must use new track or change city value", "common rules §6.3.6")
    hex_id = ctx.hex.spec.id
    if not _locally_reachable(board, ctx, gains):
        raise _fail("Must use new track or change city value", "common rules §6.3.6")
    tile_id = f"{new.tile.name}-trial"
    targets = frozenset((hex_id, index) for index in gains)
    with board.trial_lay(hex_id, tile_id, new.rotation):
        reached = may_reach_any_path(board, ctx.corp, targets, ctx.limits) and reaches_any_path(
            board, ctx.corp, targets, ctx.limits
        )
    if not reached:
        raise _fail("Must use new track or change city value", "common rules §6.3.6")


def _locally_reachable(board: Board, ctx: LayContext, gains: list[int]) -> bool:
    """Whether a walk could enter one of the ``gains`` paths of the new tile at all; False
    proves it cannot, without walking the network.  A walk enters the hex only from a token
    of the corporation on it or across an edge whose neighbour has track at that edge, and
    moves on the hex only along the new tile's paths and through its stops; so the paths it
    can reach lie in the tile's part joined to such edges (blocking cities and gauges can only
    make that part smaller)."""
    state = ctx.hex
    if any(ctx.corp in city.tokens for city in state.cities):
        return True
    new = ctx.new
    frontier: list[int] = []
    for edge, other in enumerate(state.spec.neighbors):
        if other is not None and board.hexes[other].placed.paths_at_edge[(edge + 3) % 6]:
            frontier.extend(new.paths_at_edge[edge])
    seen: set[int] = set()
    stops: set[int] = set()
    while frontier:
        index = frontier.pop()
        if index in seen:
            continue
        seen.add(index)
        for node in new.paths[index].nodes:
            if node not in stops:
                stops.add(node)
                frontier.extend(new.node_paths[node])
    return any(index in seen for index in gains)


def _path_gains(old: RotatedTile, new: RotatedTile, np: RPath) -> bool:
    """A new path that is new track (no old path it keeps) or changes a stop's value."""
    op = next((p for p in old.paths if path_kept_by(np, new.tile, p, old.tile)), None)
    if op is None:
        return True
    old_rev = sorted(old.tile.nodes[n].max_revenue for n in op.nodes)
    new_rev = sorted(new.tile.nodes[n].max_revenue for n in np.nodes)
    return old_rev != new_rev


def legal_lays(
    board: Board, graph: GraphCache, corp: str, hex_id: str, opts: LayOptions
) -> list[tuple[str, int]]:
    """(tile id, rotation) pairs ``corp`` may lay on ``hex_id`` (first free copy of each tile)."""
    tiles = _phase_tiles(board, opts)
    return [(t, r) for t, r, _ in _lays_on(board, graph, corp, hex_id, tiles, opts)]


def lay_hexes(board: Board, graph: GraphCache, corp: str, opts: LayOptions) -> list[str]:
    """Hexes where ``corp`` has at least one legal lay."""
    tiles = _phase_tiles(board, opts)
    return [
        h
        for h in candidate_hexes(board, graph, corp, opts)
        if _lays_on(board, graph, corp, h, tiles, opts)
    ]


def costed_lays(
    board: Board, graph: GraphCache, corp: str, opts: LayOptions, hex_id: str | None = None
) -> list[tuple[str, str, int, int]]:
    """(hex, tile id, rotation, cost) of every lay ``corp`` may make (first free copy of each
    tile), on ``hex_id`` only if given.  The same checks as :func:`check_lay`, but those that do
    not depend on the rotation run once per hex and tile, and the corporation's network is
    looked up once per hex instead of once per candidate (fast decisions)."""
    tiles = _phase_tiles(board, opts)
    hexes = [hex_id] if hex_id is not None else candidate_hexes(board, graph, corp, opts)
    return [
        (h, tile_id, rotation, cost)
        for h in hexes
        for tile_id, rotation, cost in _lays_on(board, graph, corp, h, tiles, opts)
    ]


def candidate_hexes(board: Board, graph: GraphCache, corp: str, opts: LayOptions) -> list[str]:
    """Hexes a lay may be on: the teleport hexes, else those the network reaches (a superset
    of the hexes with a legal lay, found without checking any lay)."""
    if opts.teleport is not None:
        candidates = sorted(opts.teleport)
    else:
        candidates = sorted(graph.network(corp).hexes)
    return [h for h in candidates if h in board.hexes]


def _reached_edges(
    graph: GraphCache, corp: str, hex_id: str, opts: LayOptions
) -> frozenset[int] | None:
    """The edges by which a lay on ``hex_id`` connects (all six when the policy does not check
    the lay's position, or when teleporting), or None when no lay there can be legal: blocked,
    not a teleport hex, not reached (the rotation-free part of :func:`check_lay`'s connection
    checks)."""
    if not opts.policy.lay_position:
        return frozenset(range(6))
    if hex_id in opts.blocked:
        return None
    if opts.teleport is not None:
        return frozenset(range(6)) if hex_id in opts.teleport else None
    edges = graph.network(corp).hexes.get(hex_id)
    return frozenset(edges) if edges else None


PhaseTile = tuple[str, TileDef, TileDef | None]
"""A tile of the supply a lay may use: its first free id, the supply's definition under that
id and, if it is another object, the definition listed under its name (both are checked)."""


def _phase_tiles(board: Board, opts: LayOptions) -> list[PhaseTile]:
    """The first free copy of each tile whose colour the phase allows (once per enumeration;
    the colour check of :func:`check_lay`)."""
    colors = frozenset(opts.phase_colors)
    out: list[PhaseTile] = []
    for name, tile_id in board.available().items():
        tile = board.supply[tile_id]
        listed = board.tile_defs[name]
        if tile.color not in colors:
            continue
        if listed is tile:
            out.append((tile_id, tile, None))
        elif listed.color in colors:
            out.append((tile_id, tile, listed))
    return out


def _next_colour(tiles: list[PhaseTile], old: TileDef) -> list[PhaseTile]:
    """The tiles of the colour after ``old``'s: the others fail the generic shape rule's first
    test (``upgrades.color_follows``), so it need not be asked."""
    if old.color not in COLORS or old.color == COLORS[-1]:
        return []
    follows = COLORS[COLORS.index(old.color) + 1]
    return [t for t in tiles if t[1].color == follows and (t[2] is None or t[2].color == follows)]


def _lays_on(
    board: Board,
    graph: GraphCache,
    corp: str,
    hex_id: str,
    tiles: list[PhaseTile],
    opts: LayOptions,
) -> list[tuple[str, int, int]]:
    """(tile id, rotation, cost) of the legal lays on one hex; ``tiles`` from
    :func:`_phase_tiles` (computed once per enumeration)."""
    state = board.hex(hex_id)
    if hex_id in opts.frozen:
        return []
    reached = _reached_edges(graph, corp, hex_id, opts)
    if reached is None:
        return []
    teleport = opts.teleport is not None
    old = state.placed
    upgrade_error = opts.rules.upgrade_error
    if upgrade_error is shape_rule:
        tiles = _next_colour(tiles, old.tile)
    out = []
    for tile_id, tile, listed in tiles:
        if upgrade_error(state, tile) or (listed is not None and upgrade_error(state, listed)):
            continue
        for rotation in range(6):
            ctx = LayContext(
                board, corp, state, old, tile.rotated(rotation), reached, teleport, graph.limits
            )
            try:
                if opts.policy.lay_position:
                    _check_rotation(board, ctx, opts)
                cost = opts.rules.lay_cost(ctx)
            except IllegalAction:
                continue
            out.append((tile_id, rotation, cost))
    return out
