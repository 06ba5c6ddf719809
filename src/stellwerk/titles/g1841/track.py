"""1841 track: how many tiles a corporation lays, from which bases, where and at what cost
(rules/1841.md 2.3.3).

The lay check and its options are the board port's (``MapPort.lay_options``: the core lay
check with 1841's hooks, :mod:`.rules.track`); the track step differs from the default port's
lay (``BoardPort.lay_tile``) as below, so its lays are made here: several lays a turn, each
from a base no earlier lay of the turn used, on the selected graph (not the full one), and
both graphs cleared after a lay.

* Tile lays cost nothing but the terrain printed on the hex (or on a laid pass tile).
* Minors lay one tile.  Majors lay one per railhead (a placed token in a city that is not a
  mountain pass): in phase 2 one per railhead, in phases 3-4 at most two, from phase 5 one
  (the phases' status in game.toml).  Each lay must connect to a railhead no earlier lay of
  the turn used ("must connect to a different base"); a hex laid this turn is not laid again.
* In phase 2 track is traced on the region graph (no political border crossed); later on the
  full graph (``MapPort.selected``, chosen at the start of every turn).
* Pass tiles upgrade only to pass tiles of the same size; tile 601 only in rotation 0.

Replays check only what 18xx.games checks while loading a file (supply, colour, shape, the
hex laid twice); connection, rotation and bases are checked when the game's policy checks the
lay's position (``Policy.lay_position``: live play).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Step, remembered
from stellwerk.core.map.graph import GraphCache, Network, NodeKey, compute_network
from stellwerk.core.map.lay import candidate_hexes, check_lay, costed_lays
from stellwerk.core.map.state import city_map
from stellwerk.core.map.tiles import RotatedTile
from stellwerk.core.map.upgrades import path_kept_by
from stellwerk.core.policy import Policy
from stellwerk.titles.g1841 import token_order
from stellwerk.titles.g1841.ports import Charters
from stellwerk.titles.g1841.rules.track import NO_ROTATION_TILES
from stellwerk.titles.g1841.token_order import TokenOrderGame


class TrackGame(TokenOrderGame, Charters, Protocol):
    """The board with its token order, the table with the rules, and the checks that run:
    what this module uses of the game (rules/1841.md 2.3.3)."""

    @property
    def policy(self) -> Policy: ...


RULE = "rules/1841.md 2.3.3"


@dataclass
class TurnLays:
    """The lays of the current turn: each hex and the tile it had before (to tell which
    base a lay used)."""

    hexes: list[str] = field(default_factory=list)
    old_tiles: list[RotatedTile] = field(default_factory=list)


def railheads(game: TrackGame, corp: Corporation) -> list[NodeKey]:
    """(hex, node) of the corporation's placed tokens in cities that are not passes
    (rules/1841.md 2.3.3: tokens on passes are no bases), in charter order: a new track that
    two unused bases reach uses the first (:mod:`.token_order`)."""
    board = game.map.board
    out = []
    placed = board.tokens_by_corporation().get(corp.sym, ())  # board order, a hex per token
    for hid in dict.fromkeys(placed):
        if game.map.is_pass(hid):
            continue
        state = board.hexes[hid]
        for index, city in enumerate(state.cities):
            if corp.sym in city.tokens:
                out.append((hid, state.tile.city_nodes[index]))
    return token_order.ordered(game, corp.sym, out)


def lays_allowed(game: TrackGame, corp: Corporation) -> int:
    """Lays this turn: minors 1; majors one per railhead in phase 2, at most 2 in phases
    3-4, 1 from phase 5 (rules/1841.md 2.3.3, 2.4)."""
    if game.specs[corp.sym].type != "major":
        return 1
    status = game.phases.current.status
    if "one_tile_per_base" in status:
        return len(railheads(game, corp))
    if "one_tile_per_base_max_2" in status:
        return min(len(railheads(game, corp)), 2)
    return 1  # (the railheads are not looked up: the track step asks after every action)


def token_network(game: TrackGame, corp: Corporation, base: NodeKey, graph: GraphCache) -> Network:
    """What one base reaches on ``graph`` (18xx.games ``connected_*_by_token``)."""
    return compute_network(game.map.board, corp.sym, starts=[base], limits=graph.limits)


def base_used(
    game: TrackGame,
    corp: Corporation,
    bases: list[NodeKey],
    hex_id: str,
    old: RotatedTile,
    bases_before_lay: bool = True,
) -> NodeKey | None:
    """The base a lay on ``hex_id`` (which had ``old``) connects to, on the full graph: one
    that reaches a new path of the tile, else one that reaches a city or town of it (an
    upgraded city, rules/1841.md 2.3.3 and seed 000 rule change 3.2).  ``bases`` name nodes of
    the board before the lay (``bases_before_lay``, a trial lay) or after it (an earlier lay
    of this turn); the base returned is one of ``bases`` as given.

    A base's network is walked only when the answer needs it (the first base that connects
    is the answer, so later ones are often never walked): on a dense late map each walk is
    costly and a turn's menu asks this once per candidate lay."""
    if not bases:
        return None
    board = game.map.board
    full = game.map.graph
    new = board.hexes[hex_id].placed
    nets: dict[NodeKey, Network] = {}

    def net(base: NodeKey) -> Network:
        if base not in nets:
            start = moved_base(base, hex_id, old, new) if bases_before_lay else base
            nets[base] = token_network(game, corp, start, full)
        return nets[base]

    reached = compute_network(board, corp.sym, limits=full.limits).paths if old.paths else None
    for np in new.paths:
        if reached is not None and (hex_id, np.index) not in reached:
            continue
        if any(path_kept_by(np, new.tile, op, old.tile) for op in old.paths):
            continue
        for base in bases:
            if (hex_id, np.index) in net(base).paths:
                return base
    for node in range(len(new.tile.nodes)):
        for base in bases:
            if (hex_id, node) in net(base).nodes:
                return base
    return None


def moved_base(base: NodeKey, hex_id: str, old: RotatedTile, new: RotatedTile) -> NodeKey:
    """Where a base on ``hex_id`` stands once ``old`` is replaced by ``new``: its token moves
    to the new city that takes the old city's exits (a two-city tile upgraded to one city,
    Torino's yellow to green; core ``city_map``), so its node index may change; bases
    elsewhere stay."""
    base_hex, node = base
    if base_hex != hex_id or old.tile is new.tile:
        return base
    old_cities = old.tile.city_nodes
    if node not in old_cities:
        return base
    target = city_map(old, new)[old_cities.index(node)]
    return base if target is None else (hex_id, new.tile.city_nodes[target])


def unused_bases(game: TrackGame, corp: Corporation, lays: TurnLays) -> list[NodeKey]:
    """The railheads no earlier lay of this turn used."""
    bases = railheads(game, corp)
    for hex_id, old in zip(lays.hexes, lays.old_tiles, strict=True):
        used = base_used(game, corp, bases, hex_id, old, bases_before_lay=False)
        if used is not None:
            bases.remove(used)
    return bases


class BaseView(GraphCache):
    """The selected graph as seen from some bases only: the hexes they reach (what a lay
    may connect to, 18xx.games ``railhead_connected``)."""

    def __init__(self, game: TrackGame, corp: Corporation, bases: list[NodeKey]) -> None:
        selected = game.map.selected
        super().__init__(game.map.board, follow_board=False, limits=selected.limits)
        net = Network()
        for base in bases:
            part = token_network(game, corp, base, selected)
            for hid, edges in part.hexes.items():
                net.hexes.setdefault(hid, set()).update(edges)
            net.nodes |= part.nodes
            net.paths |= part.paths
        self._view = net

    def network(self, corp: str) -> Network:
        self.ledger.reads += 1
        return self._view


def base_view(
    game: TrackGame, corp: Corporation, bases: list[NodeKey], step: Step | None = None
) -> BaseView:
    """The :class:`BaseView` of ``bases``, remembered on the track ``step`` for the state
    (:func:`.flow.base.remembered`): a function of the board, which holds still between
    actions (a trial lay puts it back), so one state's menus walk each base's network once.
    A late map's walks cost seconds per base, and the random driver asks the lays of one hex
    at a time, each listing making the view again (selfplay 6 players, SFLi run variant,
    seed 76119 with the oracle's veto: 4-40 s per hex from action 2150).  Without a step,
    or while the state changes (no ``memo_key``), the view is made anew."""
    if step is None:
        return BaseView(game, corp, bases)
    view: BaseView = remembered(
        step, f"base_view {corp.sym} {bases!r}", lambda: BaseView(game, corp, bases)
    )
    return view


def check(game: TrackGame, corp: Corporation, action: moves.LayTile, lays: TurnLays) -> int:
    """The cost of the lay ``action`` names, or IllegalAction (rules/1841.md 2.3.3)."""
    hex_id = action.hex
    tile_id = action.tile
    rotation = action.rotation
    if hex_id in lays.hexes:
        raise IllegalAction(f"{hex_id} was already laid on this turn", RULE)
    opts = game.map.lay_options(corp)
    board = game.map.board
    if not game.policy.lay_position:
        return check_lay(board, game.map.selected, corp.sym, hex_id, tile_id, rotation, opts)
    if tile_id.split("-")[0] in NO_ROTATION_TILES and rotation != 0:
        raise IllegalAction(
            f"tile {tile_id.split('-')[0]} is laid only in rotation 0 (seed 000 item 2.15)", RULE
        )
    bases = unused_bases(game, corp, lays)
    view = BaseView(game, corp, bases)
    cost = check_lay(board, view, corp.sym, hex_id, tile_id, rotation, opts)
    old = board.hexes[hex_id].placed
    with board.trial_lay(hex_id, tile_id, rotation):
        used = base_used(game, corp, bases, hex_id, old)
    if used is None:
        raise IllegalAction("Must connect to a different base", RULE)
    return cost


def lay_tile(game: TrackGame, corp: Corporation, action: moves.LayTile, lays: TurnLays) -> None:
    """Lay the tile (checked), pay the terrain to the bank, remember the lay; both graphs
    forget their networks (rules/1841.md 2.3.3)."""
    cost = check(game, corp, action, lays)
    if corp.cash < cost:
        raise IllegalAction(f"{corp.sym} cannot pay {cost} for the terrain", RULE)
    hex_id = action.hex
    board = game.map.board
    old = board.hexes[hex_id].placed
    with game.map.cleared_after():
        board.lay_tile(hex_id, str(action.tile), action.rotation)
    # 18xx.games then checks the new track against the laying corporation's network on the
    # selected graph, on the new board (its track-restriction check, asked in play, not when a
    # finished game is loaded); that walk records the corporation's route flags, and the one
    # that says a train must be bought outlives later clears: a corporation that lost its
    # route afterwards still has a route step (our selfplay game with the SFLi variant,
    # 7 players, seed 76103: SFTG's lay at action 365, its token bought at 451, its route
    # step at 491)
    game.map.selected.walk_for_flags(corp.sym)
    if cost:
        transfer(corp, game.bank, cost, RULE)
    lays.hexes.append(hex_id)
    lays.old_tiles.append(old)


def lay_hexes(
    game: TrackGame, corp: Corporation, lays: TurnLays, step: Step | None = None
) -> list[str]:
    """The hexes where :func:`legal_lays` may list a lay, found without checking one: those
    the bases no earlier lay of this turn used reach, less the hexes laid this turn (a
    superset, core ``Game.lay_hexes``).  Checking every lay here walked each base's network
    once per candidate lay, the bulk of a late game's menus (a first-edition selfplay game,
    5 players, seed 203).  The view is remembered on ``step`` (:func:`base_view`)."""
    bases = unused_bases(game, corp, lays)
    if not bases:
        return []
    view = base_view(game, corp, bases, step)
    hexes = candidate_hexes(game.map.board, view, corp.sym, game.map.lay_options(corp))
    return [h for h in hexes if h not in lays.hexes]


def legal_lays(
    game: TrackGame,
    corp: Corporation,
    lays: TurnLays,
    hex_id: str | None = None,
    step: Step | None = None,
) -> list[tuple[str, str, int]]:
    """(hex, tile id, rotation) of every lay the corporation may make now (live play); the
    view of its bases is remembered on ``step`` (:func:`base_view`)."""
    bases = unused_bases(game, corp, lays)
    if not bases:
        return []
    board = game.map.board
    view = base_view(game, corp, bases, step)
    out = []
    for hid, tile_id, rotation, cost in costed_lays(
        board, view, corp.sym, game.map.lay_options(corp), hex_id
    ):
        if cost > corp.cash or hid in lays.hexes:
            continue
        old = board.hexes[hid].placed
        with board.trial_lay(hid, tile_id, rotation):
            if base_used(game, corp, bases, hid, old) is None:
                continue
        out.append((hid, tile_id, rotation))
    return out
