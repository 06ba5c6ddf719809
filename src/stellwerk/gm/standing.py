"""Standing orders: orders that act by themselves until they end.

Kinds, and where they are kept:

* ``share_pass`` -- pass for the rest of the stock round: 18xx.games' ``program_share_pass``,
  so it is in the game file.  Cancelled as the site cancels it: when, after it was given,
  another player sells shares, starts a corporation, or buys into a corporation the holder
  presides (18xx.games, ``should_stop_applying_program``: "shenanigans"); and it ends with
  the stock round it was given in.
* ``buy_shares`` -- buy one certificate of a corporation per turn until the holder has N %
  or it floats: ``program_buy_shares`` (``until_condition``: a number of shares or
  ``"float"``, ``from_market`` for the pool), in the game file.  Ends when its condition is met
  or no certificate can be bought from the source; after buying, the holder's turn is passed.
* ``auction_bid`` -- bid the lowest allowed amount on an item while it stays at or below a
  maximum; 18xx.games has ``program_auction_bid`` but does not offer it in our titles (the
  engine refuses it live), so it is our own, kept in the GM store.  Ends when the item is
  sold or the price passes the maximum.
* ``take_cash`` -- always take the cash in mergers, exchanges and swaps (our own).
* ``run_best`` -- a corporation always runs its best routes and pays out (our own).

Every firing and every cancellation is written to the GM log with its reason; a cancelled
program of the game file gets a ``program_disable`` action naming the reason.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from stellwerk.api import Game
from stellwerk.core.actions import action_id
from stellwerk.core.entities import EntityId, PlayerId
from stellwerk.core.jsondata import (
    JSONObject,
    JSONValue,
    as_object,
    first_text,
    ident,
    integer,
    optional_integer,
    optional_text,
    text,
)
from stellwerk.gm.look import snap
from stellwerk.gm.understand import CASH_CHOICES, Refused, _choose_by, player_of, share_source

Action = JSONObject

PROGRAM_OF = {"share_pass": "program_share_pass", "buy_shares": "program_buy_shares"}
"""Our kinds kept as 18xx.games programmed actions."""


@dataclass
class Standing:
    """One standing order of a player."""

    id: int
    player: PlayerId
    kind: str
    target: str | None = None
    amount: int | None = None
    source: str | None = None
    since: int = 0
    """The game's action count when it was given (cancellation triggers look after it)."""
    round_key: str = ""
    text: str = ""
    active: bool = True
    program_id: int | None = None
    extra: JSONObject = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: JSONValue) -> Standing:
        """A standing order as stored (``dataclasses.asdict`` written as JSON); a malformed
        one raises ``ShapeError``."""
        obj = as_object(data, "a standing order")
        return cls(
            id=integer(obj, "id"),
            player=ident(obj, "player"),
            kind=text(obj, "kind"),
            target=optional_text(obj, "target"),
            amount=optional_integer(obj, "amount"),
            source=optional_text(obj, "source"),
            since=optional_integer(obj, "since") or 0,
            round_key=optional_text(obj, "round_key") or "",
            text=optional_text(obj, "text") or "",
            active=obj.get("active", True) is not False,
            program_id=optional_integer(obj, "program_id"),
            extra=as_object(obj.get("extra") or {}, "'extra'"),
        )

    def to_json(self) -> JSONObject:
        """The stored form (read back by :meth:`from_json`)."""
        out: JSONObject = {**dataclasses.asdict(self)}
        return out


def round_key(game: Game) -> str:
    """The round now, as a standing order records it: ``RoundView.key`` (``r12``), its place
    in the game's sequence of rounds, so every round is told from every other."""
    return game.round.key


def same_round(game: Game, key: str) -> bool:
    """Whether the game is still in the round ``key`` names.  A key stored before rounds
    were told apart (``Round::Stock#1#3``: name, number, turn) names the round by all three,
    which stock rounds of one turn share (so such an old order may live one round too long,
    never fire in a later turn)."""
    now = game.round
    if "#" not in key:
        return key == now.key
    return key.split("#")[:3] == [now.name, str(now.number), str(now.turn)]


def is_stock_round(game: Game) -> bool:
    """Whether the game is in a stock round."""
    return game.round.kind == "stock"


def program_action(standing: Standing) -> Action | None:
    """The ``program_*`` action that records a standing order in the game file, if any."""
    base = {"entity": standing.player, "entity_type": "player"}
    if standing.kind == "share_pass":
        return {"type": "program_share_pass", **base, "unconditional": False, "indefinite": False}
    if standing.kind == "buy_shares":
        until: int | str = "float" if standing.amount is None else max(1, standing.amount // 10)
        return {
            "type": "program_buy_shares", **base, "corporation": standing.target,
            "until_condition": until, "from_market": standing.source == "pool",
            "auto_pass_after": False,
        }  # fmt: skip
    return None


def disable_action(standing: Standing, reason: str) -> Action | None:
    """The ``program_disable`` of a programmed standing order."""
    kind = PROGRAM_OF.get(standing.kind)
    if kind is None:
        return None
    return {
        "type": "program_disable", "entity": standing.player, "entity_type": "player",
        "reason": reason, "original_type": kind,
    }  # fmt: skip


@dataclass
class Firing:
    """What a standing order does at a decision: an action to send, or its end (reason)."""

    standing: Standing
    action: Action | None = None
    cancel: str | None = None


def fire(game: Game, standing: Standing, entity: EntityId, listed: list[Action]) -> Firing | None:
    """What ``standing`` does at the decision of ``entity`` (listed: its legal actions), or
    None when it has nothing to do here."""
    mine = [a for a in listed if a.get("entity") == entity]
    types = {str(a["type"]) for a in mine}
    if standing.kind == "share_pass":
        if entity != standing.player or not is_stock_round(game) or "pass" not in types:
            return None
        if not same_round(game, standing.round_key):
            return Firing(standing, cancel="the stock round it was given in has ended")
        reason = shenanigans(game, standing)
        if reason:
            return Firing(standing, cancel=reason)
        return Firing(standing, action=next(a for a in mine if a["type"] == "pass"))
    if standing.kind == "buy_shares":
        return _buy(game, standing, entity, mine, types)
    if standing.kind == "auction_bid":
        return _bid(game, standing, entity, mine)
    if standing.kind == "take_cash":
        if "choose" not in types:
            return None
        try:
            return Firing(standing, action=_choose_by(mine, CASH_CHOICES, "take cash"))
        except Refused:
            return None
    if standing.kind == "run_best":
        if str(entity) != standing.target:
            return None
        for action in mine:
            if action["type"] == "run_routes":
                return Firing(standing, action=action)
        for action in mine:
            if action["type"] == "dividend" and action.get("kind") == "payout":
                return Firing(standing, action=action)
    return None


def shenanigans(game: Game, standing: Standing) -> str | None:
    """Why a standing pass must stop: another player's sale, new par or buy into a
    corporation the holder presides since it was given (18xx.games' triggers)."""
    names = dict(game.players)
    for action in game.actions:
        if action_id(action) <= standing.since:
            continue
        who = action.get("entity")
        if who == standing.player or action.get("entity_type") != "player":
            continue
        name = str(dict((str(k), v) for k, v in names.items()).get(str(who), who))
        kind = action.get("type")
        if kind == "sell_shares":
            return f"{name} sold shares"
        if kind == "par":
            return f"{name} started {action.get('corporation')}"
        if kind == "buy_shares" and action.get("shares"):
            corp = first_text(action, "shares").rpartition("_")[0]
            if player_of(game, corp) == standing.player:
                return f"{name} bought into {corp}"
    return None


def _buy(
    game: Game, standing: Standing, entity: EntityId, mine: list[Action], types: set[str]
) -> Firing | None:
    if entity != standing.player or not is_stock_round(game):
        return None
    corp_sym = str(standing.target)
    now = snap(game)
    corp = next((c for c in now["corporations"] if c["id"] == corp_sym), None)
    me = next((p for p in now["players"] if p["id"] == standing.player), None)
    held = me["shares"].get(corp_sym, 0) if me is not None else 0
    if standing.amount is None and corp is not None and corp.get("floated"):
        return Firing(standing, cancel=f"{corp_sym} has floated")
    if standing.amount is not None and held >= standing.amount:
        return Firing(standing, cancel=f"{held}% of {corp_sym} held")
    wanted = "pool" if standing.source == "pool" else "ipo"
    buys = [
        a for a in mine
        if a["type"] == "buy_shares" and a.get("shares")
        and first_text(a, "shares").rpartition("_")[0] == corp_sym
        and share_source(game, first_text(a, "shares")) == wanted
    ]  # fmt: skip
    if buys:
        return Firing(standing, action=buys[0])
    last = next((a for a in reversed(game.actions) if a.get("entity_type") == "player"), None)
    if last and last.get("entity") == standing.player and last.get("type") == "buy_shares":
        passes = [a for a in mine if a["type"] == "pass"]
        return Firing(standing, action=passes[0]) if passes else None
    if "pass" in types or "sell_shares" in types:
        return Firing(standing, cancel=f"no certificate of {corp_sym} can be bought from {wanted}")
    return None


def _bid(game: Game, standing: Standing, entity: EntityId, mine: list[Action]) -> Firing | None:
    if entity != standing.player:
        return None
    target = str(standing.target)
    bids = [
        a for a in mine
        if a["type"] == "bid" and str(a.get("company") or a.get("corporation")).upper() == target
    ]  # fmt: skip
    if not bids:
        if any(a["type"] in ("bid", "pass") for a in mine):
            return Firing(standing, cancel=f"{target} is no longer for sale")
        return None
    price = min((optional_integer(a, "price") or 0) for a in bids)
    if price > int(standing.amount or 0):
        reason = f"the price of {target} ({price}) is above {standing.amount}"
        return Firing(standing, cancel=reason)
    return Firing(
        standing, action=next(a for a in bids if (optional_integer(a, "price") or 0) == price)
    )
