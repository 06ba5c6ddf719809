"""A Game1841 at a fixture's traced position inside an operating turn's train step, with
1841's full operating round, for the emergency-money and bankruptcy tests (tests only).

Built like :func:`trace_state.state_before`, plus what the train step needs: the board's
route graph (``game.map`` from the position), the round's order (corporations that acted
earlier in this operating round first, then the operator, then the rest by price), every
step before the train step passed, and every floated corporation counted as operated (the
trace does not record it; the tests that depend on it say so).  Certificates are dealt by
percentage, so the fixture's certificate ids may name other certificates here: a sale is
matched to the listed sale of the same seller, corporation, percentage and president flag.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from positions1841 import position_before
from trace_state import differences, fixture, live_actions, state_before, trace_lines

from stellwerk.core.flow.base import Action
from stellwerk.core.legal import legal_actions
from stellwerk.titles.g1841.game import Game1841
from stellwerk.titles.g1841.operating import new_operating_round
from stellwerk.titles.g1841.options import DECLARED
from stellwerk.titles.g1841.trains import BuyTrain1841


def position(
    name: str,
    first: int,
    operator: str,
    options: Iterable[str] = (),
    done: Iterable[str] = (),
    operated_before: Iterable[str] = (),
    unoperated: Iterable[str] = (),
) -> tuple[Game1841, Path]:
    """The game just before live action ``first`` of fixture ``name``, ``operator`` in its
    train step; ``options`` added to the file's; ``done`` corporations done this round;
    ``operated_before`` corporations that already had their turn this round without an
    action (frozen ones); ``unoperated`` floated corporations in their first operating
    round."""
    path = fixture(name)
    game, _ = state_before(path, first, operator)
    if options:
        game.settings = DECLARED.settings([*game.options, *options], len(game.players))
    _, pos = position_before(path, first)
    game.map = pos.port
    game.map.phase = game.phases.name
    for corp in game.corporations:
        if corp.floated:
            game.operated_corps.add(corp.sym)
    game.operated_corps.difference_update(unoperated)
    game.done_this_round.update(done)
    op = game.corporation(operator)
    rnd = new_operating_round(game, game.round.round_num)
    earlier = [*acted_earlier(path, first, operator), *operated_before]
    before = [c for sym in earlier for c in rnd.entities if c.sym == sym]
    rest = [c for c in rnd.entities if c not in before and c is not op]
    rnd.entities = [*before, op, *rest]
    rnd.entity_index = rnd.entities.index(op)
    rnd.current_operator = op
    game.round = rnd
    for step in rnd.steps:
        if isinstance(step, BuyTrain1841):
            break
        if step.blocks:
            step.pass_()
    return game, path


def acted_earlier(path: Path, first: int, operator: str) -> list[str]:
    """Corporations with actions in this operating round before ``first``, in order."""
    lines = trace_lines(path)
    ids = sorted(i for i in lines if i < first)
    key = (lines[ids[-1]]["turn"], lines[ids[-1]]["round_num"])
    start = ids[-1]
    while ids and lines[ids[-1]]["round"] == "Round::Operating":
        if (lines[ids[-1]]["turn"], lines[ids[-1]]["round_num"]) != key:
            break
        start = ids.pop()
    out: list[str] = []
    for action in live_actions(path):
        entity = action.get("entity")
        if (
            start <= int(action["id"]) < first
            and isinstance(entity, str)
            and not entity.isdigit()
            and entity not in (operator, *out)
        ):
            out.append(entity)
    return out


def _corp_of(share_id: str) -> str:
    return share_id.rsplit("_", 1)[0]


def _key(action: Action) -> tuple[Any, ...]:
    shares = action.get("shares") or []
    if action["type"] == "sell_shares":
        pres = any(s.endswith("_0") for s in shares)
        return ("sell_shares", action["entity"], _corp_of(shares[0]), action["percent"], pres)
    fields = ("type", "entity", "train", "price", "option")
    return tuple(action.get(f) for f in fields)


def offered(game: Game1841, action: Action) -> Action | None:
    """The listed action the fixture's ``action`` is (certificates matched by kind)."""
    want = _key(action)
    return next((a for a in legal_actions(game) if _key(a) == want), None)


def play(game: Game1841, path: Path, first: int, last: int) -> list[str]:
    """Play the fixture's live actions ``first``..``last``; each must be offered; returns the
    differences with the trace after each (empty: all equal) and of the active entities."""
    lines = trace_lines(path)
    problems: list[str] = []
    for action in live_actions(path):
        aid = int(action["id"])
        if not first <= aid <= last:
            continue
        listed = offered(game, action)
        if listed is None:
            problems.append(f"{aid}: {action['type']} of {action['entity']} not offered")
            break
        if "shares" in listed:
            action = {**action, "shares": listed["shares"]}
        game.process_action(action)
        problems += [f"{aid}: {d}" for d in differences(game, lines[aid])]
        if not game.finished:
            active = [getattr(e, "sym", getattr(e, "id", e)) for e in game.round.active_entities()]
            if active != lines[aid]["active"]:
                problems.append(f"{aid}: active {active} != {lines[aid]['active']}")
    return problems
