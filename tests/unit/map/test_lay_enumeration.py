"""The fast tile-lay enumeration lists exactly the lays the single-lay check accepts (common
rules §6.3; issue 7: a lay check looks at what the new tile changes, not the whole network).

Positions come from seeded random games; at every position where a corporation may lay track,
every (hex, tile, rotation) is checked one by one with ``check_lay`` and compared with what the
enumeration lists, and the semi-restrictive rule (§6.3.6) is compared with a plain reference
that walks the whole network after a trial lay."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from stellwerk.api import Game
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.operating import Track
from stellwerk.core.map.graph import compute_network
from stellwerk.core.map.lay import LayContext, check_lay, check_new_track, costed_lays
from stellwerk.core.map.upgrades import path_kept_by
from stellwerk.selfplay import choose_action


def track_positions(title: str, seed: int, actions: int) -> Iterator[tuple[Game, Any]]:
    """Positions of a random game where the active step is the track step: (game, operator)."""
    game = Game.create(title, [(n, f"P{n}") for n in range(1, 5)], [], seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.finished:
            return
        step = game.engine.round.active_step()
        operator = getattr(game.engine.round, "current_operator", None)
        if isinstance(step, Track) and operator is not None:
            yield game, operator
        game.process(choose_action(game.legal_actions(all_lays=True), rng))


def one_by_one(game: Game, corp: Any) -> set[tuple[str, str, int, int]]:
    """Every lay ``check_lay`` accepts on the hexes the corporation's network reaches (or on
    its teleport hexes, when it has some)."""
    port = game.engine.map
    board, graph = port.board, port.graph
    opts = port.lay_options(corp)
    out = set()
    hexes = opts.teleport if opts.teleport is not None else graph.network(corp.sym).hexes
    for hex_id in hexes:
        if hex_id not in board.hexes:
            continue
        for tile_id in board.available().values():
            for rotation in range(6):
                try:
                    cost = check_lay(board, graph, corp.sym, hex_id, tile_id, rotation, opts)
                except IllegalAction:
                    continue
                out.add((hex_id, tile_id, rotation, cost))
    return out


@pytest.mark.parametrize(("title", "seed"), [("1849", 5), ("1835", 2)])
def test_enumeration_lists_exactly_the_lays_check_lay_accepts(title: str, seed: int) -> None:
    """§6.3: the enumeration and the single check agree on every candidate."""
    seen = 0
    for game, corp in track_positions(title, seed, 260):
        port = game.engine.map
        with game.engine.looking_ahead():
            listed = set(costed_lays(port.board, port.graph, corp.sym, port.lay_options(corp)))
            assert listed == one_by_one(game, corp)
        seen += 1
    assert seen >= 3, "the game reached too few track steps to test anything"


def reference_new_track_ok(board: Any, ctx: LayContext) -> bool:
    """§6.3.6 by the book: after the lay, the corporation's whole network reaches a path that
    is new track or changes a stop's value."""
    old, new = ctx.old, ctx.new
    hex_id = ctx.hex.spec.id
    with board.trial_lay(hex_id, f"{new.tile.name}-trial", new.rotation):
        net = compute_network(board, ctx.corp)
    if not old.paths:
        return True
    for np in new.paths:
        if (hex_id, np.index) not in net.paths:
            continue
        op = next((p for p in old.paths if path_kept_by(np, new.tile, p, old.tile)), None)
        if op is None:
            return True
        old_rev = sorted(old.tile.nodes[n].max_revenue for n in op.nodes)
        new_rev = sorted(new.tile.nodes[n].max_revenue for n in np.nodes)
        if old_rev != new_rev:
            return True
    return False


def test_new_track_rule_agrees_with_a_whole_network_walk() -> None:
    """§6.3.6: the shortcuts (empty hex, no gaining path, local test, plain search, walk that
    stops early) decide every candidate as a full walk after a trial lay does."""
    checked = 0
    for game, corp in track_positions("1849", 9, 160):
        board = game.engine.map.board
        network = game.engine.map.graph.network(corp.sym)
        for hex_id, edges in sorted(network.hexes.items()):
            if hex_id not in board.hexes:
                continue
            state = board.hexes[hex_id]
            for tile in {t.name: t for t in board.supply.values()}.values():
                for rotation in range(6):
                    new = tile.rotated(rotation)
                    if not all(
                        any(o <= n for n in new.ct_edges()) for o in state.placed.ct_edges()
                    ):
                        continue  # refused before the rule's walk in both
                    ctx = LayContext(
                        board, corp.sym, state, state.placed, new, frozenset(edges), False
                    )
                    try:
                        check_new_track(board, ctx)
                        fast = True
                    except IllegalAction:
                        fast = False
                    assert fast == reference_new_track_ok(board, ctx), (hex_id, tile.name)
                    checked += 1
    assert checked > 100


@pytest.mark.parametrize(("title", "seed"), [("1849", 5), ("1835", 2)])
def test_lay_hexes_name_every_hex_with_a_lay(title: str, seed: int) -> None:
    """``lay_hexes`` (what the random driver asks hex by hex) names every hex of the full
    listing, and asking one hex lists exactly that hex's lays of the full listing."""
    seen = 0
    for game, _corp in track_positions(title, seed, 260):
        everything = [a for a in game.legal_actions(all_lays=True) if a["type"] == "lay_tile"]
        hexes = game.lay_hexes()
        assert {a["hex"] for a in everything} <= set(hexes)
        for hex_id in hexes:
            one = [a for a in game.legal_actions(hex_id) if a["type"] == "lay_tile"]
            assert one == [a for a in everything if a["hex"] == hex_id]
        seen += 1
    assert seen >= 3
