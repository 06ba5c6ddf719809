"""Standing orders in the browser (the game master's, ``stellwerk.gm.standing``).

A player gives a standing order by sending 18xx.games' programmed action through the API, as
any action: ``program_share_pass`` (pass for the rest of this stock round) or
``program_buy_shares`` (buy ``corporation`` each turn ``until_condition``: a number of shares
or ``"float"``, ``from_market`` for the pool); ``program_disable`` (with ``original_type``)
cancels it.  The web app keeps them as the game master's ``Standing`` records in the store's
annex (``"web-standing"``; the game file has the program actions themselves) and, after every
action it stores, lets them act as the game master does: at each open decision of a player
with an active standing order, ``gm.standing.fire`` says what it does — an action (stored as
the player's, ``"user"`` his id) or its end (the 18xx.games cancellations: the stock round
ended, another player's sale, par or buy into a corporation he presides, the condition met),
recorded as a ``program_disable`` naming the reason.  A fired action the engine refuses ends
the order the same way.  At most ``MAX_FIRINGS`` actions follow one request.

An ``undo`` or ``redo`` (a player taking back or restoring his own moves, which may be the
giving or the cancelling of an order, or what an order did for him) wakes no standing order:
it is the player deciding himself.  After it each order is active again exactly when the log
says so (``follow_log``): its program action is live and no live ``program_disable`` of his
for that kind came after it.

Standing orders never fail the request that woke them: the player's own action is stored
before they run, and an unexpected error while they run is logged, not answered.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from stellwerk.core.actions import action_id
from stellwerk.core.errors import IllegalAction
from stellwerk.core.jsondata import JSONObject, as_list, ident
from stellwerk.io.undo import REDO, UNDO, live_mask
from stellwerk.store import GameMovedOn, actions_of

if TYPE_CHECKING:
    from stellwerk.gm.standing import Standing
    from stellwerk.web.service import Desk

LOG = logging.getLogger("stellwerk.web")

ANNEX = "web-standing"
MAX_FIRINGS = 50
PROGRAMS = {"program_share_pass": "share_pass", "program_buy_shares": "buy_shares"}


def given(action: JSONObject, program_id: int, round_now: str, number: int) -> Standing | None:
    """The standing order a stored ``program_*`` action gives (None for other actions)."""
    from stellwerk.gm.standing import Standing

    kind = PROGRAMS.get(str(action.get("type")))
    if kind is None:
        return None
    standing = Standing(
        id=number, player=ident(action, "entity"), kind=kind, since=program_id,
        round_key=round_now, text=str(action.get("type")), program_id=program_id,
    )  # fmt: skip
    if kind == "buy_shares":
        until = action.get("until_condition")
        standing.target = str(action.get("corporation"))
        standing.amount = 10 * until if isinstance(until, int) else None
        standing.source = "pool" if action.get("from_market") else "ipo"
    return standing


def load(desk: Desk, key: str) -> list[Standing]:
    from stellwerk.gm.standing import Standing

    record = desk.store.annex_get(key, ANNEX) or []
    return [Standing.from_json(item) for item in as_list(record, "the standing orders")]


def save(desk: Desk, key: str, orders: list[Standing]) -> None:
    desk.store.annex_put(key, ANNEX, [order.to_json() for order in orders])


def after_action(desk: Desk, key: str, sent: JSONObject, count: int) -> int:
    """Take note of a standing order given or cancelled by ``sent`` (stored, the game now
    at ``count``), then let the standing orders act; the action count afterwards."""
    try:
        return _after_action(desk, key, sent, count)
    except Exception:
        LOG.exception("%s: standing orders failed after action %s", key, count)
        return desk.store.count(key)


def _after_action(desk: Desk, key: str, sent: JSONObject, count: int) -> int:
    from stellwerk.api import Game
    from stellwerk.gm.standing import round_key

    kind = str(sent.get("type"))
    known = desk.store.annex_get(key, ANNEX)
    if kind not in PROGRAMS and kind != "program_disable" and not known:
        return count  # no standing orders in this game: nothing to do
    orders = load(desk, key)
    stored = desk.stored(key)
    if kind in (UNDO, REDO):
        follow_log(orders, actions_of(stored.data))
        save(desk, key, orders)
        return count
    game = stored.game
    if not isinstance(game, Game):
        return count  # standing orders need the engine (as default orders do)
    if kind in PROGRAMS:
        program_id = action_id(actions_of(stored.data)[-1])
        order = given(sent, program_id, round_key(game), len(orders) + 1)
        if order is not None:
            orders.append(order)
    elif kind == "program_disable":
        for order in orders:
            original = PROGRAMS.get(str(sent.get("original_type")))
            if order.active and order.player == sent.get("entity") and order.kind == original:
                order.active = False
    try:
        return _fire(desk, key, orders)
    finally:
        save(desk, key, orders)


def follow_log(orders: list[Standing], actions: list[JSONObject]) -> None:
    """Set each order's ``active`` from the game's live actions (after an undo or redo): its
    program action is live and no live ``program_disable`` of its player for its kind came
    after it (a player's cancel and every end the orders themselves record are such)."""
    from stellwerk.gm.standing import PROGRAM_OF

    live = [a for a, on in zip(actions, live_mask(actions), strict=True) if on]
    position = {a.get("id"): index for index, a in enumerate(live)}
    for order in orders:
        at = position.get(order.program_id)
        original = PROGRAM_OF.get(order.kind)
        order.active = at is not None and not any(
            a.get("type") == "program_disable"
            and a.get("entity") == order.player
            and a.get("original_type") == original
            for a in live[at + 1 :]
        )


def _fire(desk: Desk, key: str, orders: list[Standing]) -> int:
    """Let ``orders`` act until none has anything to do (or ``MAX_FIRINGS``); the count."""
    from stellwerk.api import Game
    from stellwerk.gm.standing import disable_action, fire
    from stellwerk.web.service import decider

    fired = 0
    count = desk.store.count(key)
    while fired < MAX_FIRINGS:
        stored = desk.stored(key)
        game = stored.game
        if not isinstance(game, Game) or game.finished or not any(o.active for o in orders):
            break
        view = desk.view(key, stored)
        step = None
        for entity in view["active"]:
            player = decider(game, entity)
            for order in orders:
                if order.active and order.player == player:
                    firing = fire(game, order, entity, view["legal"])
                    if firing is not None:
                        step = (firing, player)
                        break
            if step is not None:
                break
        if step is None:
            break
        firing, player = step
        now = int(desk.clock())
        if firing.action is not None:
            action = {**firing.action, "user": player, "created_at": now}
            try:
                count = _append(desk, key, action, stored.count)
                fired += 1
                continue
            except IllegalAction as error:
                reason = error.reason
        else:
            reason = str(firing.cancel)
        firing.standing.active = False
        disable = disable_action(firing.standing, reason)
        if disable is not None:
            disable = {**disable, "user": player, "created_at": now}
            count = _append(desk, key, disable, desk.store.count(key))
        fired += 1
    return count


def _append(desk: Desk, key: str, action: JSONObject, base: int) -> int:
    try:
        after = desk.games[key] = desk.store.append(key, action, base)
    except GameMovedOn as moved:
        raise IllegalAction("the game moved on meanwhile", "standing orders") from moved
    return after.count
