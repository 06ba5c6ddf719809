"""The live gate: in live play an action is accepted only if the rules list it now.

The rule: an action accepted live is one that the legal-action list offers, or one
that lies in the space a listed action describes.  ``check_live`` finds the step that would take
the action (the routing of common rules §6: the first active step accepting its type, unless a
blocking step comes first), asks that step only for its choices of that type (so the gate costs
one step's menu, not the whole list), and compares field by field:

* bookkeeping fields (``id``, ``created_at``, ``user``, ``auto_actions``) are not compared;
* ``price`` lies in the step's ``price_space`` (``Step.price_space``: a bid between the minimum
  and the bidder's free cash, a train bought from another corporation for 1 up to the buyer's
  cash, ...), or equals the listed price where the step has no space;
* ``bids`` (a sealed list of bids, ``blind_bid``) is any list the step's ``bids_problem``
  accepts;
* ``shares`` name the listed certificates or interchangeable ones (same owner, corporation,
  sizes and president flag: the rules do not tell equal certificates apart), and ``percent``
  is the listed one (left out, it is the certificates' sum);
* ``train``: another corporation's train may be any of its trains of the listed kind (the list
  shows one per kind); a depot train is the listed one (the depot sells them in order);
* ``lay_tile`` must be one of the legal lays of its hex (``legal_actions(hex_id=...)``), asked
  for the one lay (``Track.lay_offered`` / ``Game.lay_is_legal``) without listing them all;
* ``run_routes`` are checked by the route checker when processed; only ``extra_revenue`` and
  ``subsidy`` must be 0 here;
* every other field must equal the listed one; a field the list does not have must be empty
  (``None``, 0, ``False``, ``[]``, ``""``), except ``variant`` (the train's name) and
  ``tokener`` (the acting corporation): 18xx.games reads fields we ignore (e.g. ``exchange``),
  so a value we do not understand is refused rather than stored.

A refused action names the rule of its type (a title's ``Game.live_rules``, else
:data:`RULES`) or the turn order, unless the step that would take it (or, when no step takes
it now, any step of the round) names the rule forbidding the move itself
(``Step.why_refused``, e.g. a merger partner across a border).

Site actions (``message``, ``log``, ``program_*``, ``end_game``) are not moves: any player of
the game may send them (``actions.check_site``).  Replay (loading a file) does not pass this gate;
see ``stellwerk.api.Game.process`` for what replay accepts beyond it.
"""

from __future__ import annotations

from collections.abc import Callable

from stellwerk.core.actions import SITE_TYPES, check_site
from stellwerk.core.entities import Entity, Share
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, Step, act
from stellwerk.core.flow.operating import Track
from stellwerk.core.game import Game
from stellwerk.core.legal import candidates
from stellwerk.core.moves import parse

TURN_RULE = "common rules §6 (turn order)"

BOOKKEEPING = frozenset(
    {"type", "entity", "entity_type", "id", "created_at", "user", "auto_actions"}
)
"""Fields that do not define a move (common rules §3.2)."""

MAY_OMIT = frozenset({"percent", "extra_revenue", "target_type", "tokener", "loan", "slot"})
"""Listed fields a sender may leave out: the engine then uses the listed value's meaning
(``percent`` the certificates' sum, ``slot`` the first free slot, the rest a default)."""

RULES: dict[str, str] = {
    "bid": "common rules §6.7 (private auction)",
    "buy_company": "common rules §6.7",
    "par": "common rules §6.6",
    "buy_shares": "common rules §6.6",
    "sell_shares": "common rules §6.6",
    "lay_tile": "common rules §6.3",
    "place_token": "common rules §6.4",
    "run_routes": "common rules §6.1",
    "buy_train": "common rules §6 (train purchase)",
}
"""Fallback rule per action type; a title names its own in ``Game.live_rules``."""


def rule_for(game: Game, kind: str) -> str:
    """The rule a refusal of ``kind`` names: the title's, else the common rules'."""
    return game.live_rules.get(kind) or RULES.get(kind) or TURN_RULE


def check_live(game: Game, action: Action) -> None:
    """Refuse (``IllegalAction``) an action that is not listed now nor in a listed space."""
    move = parse(action)
    kind = action["type"]
    if game.finished and kind != "message":
        raise IllegalAction("the game is over", "common rules §4.2")
    if kind in ("undo", "redo"):
        return
    entity = game.entity(move)
    if kind in SITE_TYPES:
        check_site(action)
        return
    if entity not in candidates(game):
        raise IllegalAction(f"{_name(entity)} may not act now", TURN_RULE)
    try:
        step = routing_step(game, entity, kind)
    except IllegalAction as general:
        specific = next(
            (r for s in game.round.steps if (r := s.why_refused(entity, move)) is not None),
            None,
        )
        if specific is None:
            raise
        raise specific from general
    listed = offered(step, entity, kind, action)
    rule = rule_for(game, kind)
    if not listed:
        raise step.why_refused(entity, move) or IllegalAction(
            f"{_name(entity)} has no {kind} to make now", rule
        )
    if kind == "run_routes":
        _check_run(action, rule)
        return
    reasons = [match(game, step, entity, action, option) for option in listed]
    if any(reason is None for reason in reasons):
        return
    specific = step.why_refused(entity, move)
    if specific is not None:
        raise specific
    close = [r for r in reasons if r is not None and not r.startswith(FAR)]
    if close:
        raise IllegalAction(close[0], rule)
    far = next((r[len(FAR) :] for r in reasons if r is not None), "")
    raise IllegalAction(f"this {kind} is not a legal choice now ({far}); {summary(listed)}", rule)


def routing_step(game: Game, entity: Entity, kind: str) -> Step:
    """The step the round would give the action to (common rules §6), or a refusal."""
    for step in game.round.steps:
        if not step.active():
            continue
        accepts = kind in step.actions_of(entity)
        if accepts:
            return step
        if step.blocking():
            raise IllegalAction(
                f"{kind} is not allowed now: the current step is '{step.description}'", TURN_RULE
            )
    raise IllegalAction(f"no step takes {kind} from {_name(entity)} now", TURN_RULE)


def offered(step: Step, entity: Entity, kind: str, action: Action) -> list[Action]:
    """The step's listed actions of ``kind``; tile lays for the action's hex only (asked for
    the one lay first, ``Track.lay_offered``; all lays of the hex only for a refusal's
    reason); routes are not enumerated (the route checker judges them)."""
    if kind == "run_routes":
        return [{"type": kind}]
    if kind == "lay_tile" and isinstance(step, Track) and "lay_tile" in step.actions(entity):
        lay = (str(action["hex"]), str(action["tile"]), int(action["rotation"]))
        if step.lay_offered(entity, *lay):
            return [act(entity, "lay_tile", hex=lay[0], tile=lay[1], rotation=lay[2])]
    if isinstance(step, Track):
        hex_id = action.get("hex") if kind == "lay_tile" else None
        found = step.choices(entity, str(hex_id) if hex_id is not None else None)
    else:
        found = step.choices(entity)
    return [a for a in found if a.get("type") == kind]


FAR = "\x00"
"""Prefix of a mismatch in a field that identifies the move (another company, hex, ...);
mismatches in amounts only are "close" and give the refusal's reason."""


def match(game: Game, step: Step, entity: Entity, action: Action, listed: Action) -> str | None:
    """None if ``action`` is ``listed`` or lies in its space, else why not."""
    keys = (set(action) | set(listed)) - BOOKKEEPING
    amount_reason: str | None = None
    for key in sorted(keys):
        if key not in action:
            if key in MAY_OMIT:
                continue
            return f"{FAR}the field {key!r} is missing"
        value = action[key]
        if key not in listed:
            if not _harmless_extra(game, entity, action, key, value):
                return f"{FAR}the field {key!r} is not allowed here ({value!r})"
            continue
        check = FIELD_CHECKS.get(key)
        if check is not None:
            reason = check(game, step, entity, action, listed)
            if reason is not None:
                if reason.startswith(FAR):
                    return reason
                amount_reason = amount_reason or reason
            continue
        if not _same_value(value, listed[key]):
            return f"{FAR}{key} {value!r} is not offered"
    return amount_reason


def _same_value(given: object, listed: object) -> bool:
    if isinstance(given, bool) or isinstance(listed, bool):
        return given is listed
    return bool(given == listed and type(given) is type(listed))


def _is_empty(value: object) -> bool:
    """A field value that says nothing: ``None``, 0, ``False``, ``[]``, ``""`` or ``{}``
    (a float 0.0 is not: 18xx.games writes no float into a field we do not read)."""
    return value in (None, 0, False, [], "", {}) and not isinstance(value, float)


def _harmless_extra(game: Game, entity: Entity, action: Action, key: str, value: object) -> bool:
    if _is_empty(value):
        return True
    if key == "variant":
        try:
            return bool(game.train_by_id(str(action.get("train"))).name == value)
        except IllegalAction:
            return False
    if key == "tokener":
        return bool(value == getattr(entity, "sym", None))
    return False


def _check_price(
    game: Game, step: Step, entity: Entity, action: Action, listed: Action
) -> str | None:
    price = action["price"]
    if isinstance(price, bool) or not isinstance(price, int):
        return "the price must be a whole number"
    low, high = step.price_space(entity, listed)
    if low <= price <= high:
        return None
    what = listed.get("company") or listed.get("train") or listed.get("city") or "this"
    if low == high:
        return f"the price for {what} is {low}, not {price}"
    return (
        f"the price for {what} must be at least the minimum {low} and at most {high}, not {price}"
    )


def _check_shares(
    game: Game, step: Step, entity: Entity, action: Action, listed: Action
) -> str | None:
    given, wanted = action["shares"], listed["shares"]
    if not isinstance(given, list) or not all(isinstance(s, str) for s in given):
        return f"{FAR}shares must be a list of certificate ids"
    if len(set(given)) != len(given):
        return f"{FAR}a certificate is named twice"
    mine = [game.share_by_id(s) for s in given]
    theirs = [game.share_by_id(s) for s in wanted]

    def shape(shares: list[Share]) -> tuple[set[int], tuple[tuple[str, int, bool], ...]]:
        owners = {id(s.owner) for s in shares}
        kinds = sorted((s.corporation, s.percent, bool(s.president)) for s in shares)
        return (owners, tuple(kinds))

    if shape(mine) != shape(theirs):
        return f"{FAR}certificates {given} are not offered"
    percent = action.get("percent", sum(s.percent for s in mine))
    wanted_percent = listed.get("percent", percent)
    if not _same_value(percent, wanted_percent):
        return (
            f"{', '.join(given)} make {listed.get('percent')} %, not {percent} %"
            " (the percent must be the certificates' size)"
        )
    return None


def _check_percent(
    game: Game, step: Step, entity: Entity, action: Action, listed: Action
) -> str | None:
    return None  # judged with the certificates (``_check_shares``)


def _check_train(
    game: Game, step: Step, entity: Entity, action: Action, listed: Action
) -> str | None:
    if action["train"] == listed["train"]:
        return None
    try:
        given = game.train_by_id(str(action["train"]))
        wanted = game.train_by_id(str(listed["train"]))
    except IllegalAction as error:
        return f"{FAR}{error.reason}"
    interchangeable = (
        given.name == wanted.name and given.owner is wanted.owner and given.owner is not game.depot
    )
    if interchangeable:
        return None
    return f"{FAR}train {action['train']} is not offered"


def _check_bids(
    game: Game, step: Step, entity: Entity, action: Action, listed: Action
) -> str | None:
    """A sealed list of bids: any list the step accepts (``bids_problem``), not only the
    listed ones."""
    judge = getattr(step, "bids_problem", None)
    if judge is None:
        return None if action["bids"] == listed["bids"] else f"{FAR}bids are not offered"
    reason = judge(entity, action["bids"])
    return None if reason is None else str(reason)


FIELD_CHECKS: dict[str, Callable[[Game, Step, Entity, Action, Action], str | None]] = {
    "price": _check_price,
    "shares": _check_shares,
    "percent": _check_percent,
    "train": _check_train,
    "bids": _check_bids,
}


def _check_run(action: Action, rule: str) -> None:
    """``run_routes``: the routes are judged when processed; no revenue from elsewhere and
    no field we do not read."""
    for key, value in action.items():
        if key in BOOKKEEPING or key in ("routes", "extra_revenue", "subsidy"):
            continue
        if not _is_empty(value):
            raise IllegalAction(f"the field {key!r} is not allowed here ({value!r})", rule)
    for key in ("extra_revenue", "subsidy"):
        value = action.get(key)
        if value not in (None, 0) or isinstance(value, bool):
            raise IllegalAction(f"{key} must be 0 (revenue comes from the routes)", rule)


def summary(listed: list[Action], limit: int = 6) -> str:
    """A short readable list of offered actions for a refusal."""
    parts = []
    for option in listed[:limit]:
        fields = ", ".join(f"{k}={v}" for k, v in option.items() if k not in BOOKKEEPING)
        parts.append(f"{option['type']}({fields})" if fields else str(option["type"]))
    more = f" and {len(listed) - limit} more" if len(listed) > limit else ""
    return "offered: " + "; ".join(parts) + more


def _name(entity: Entity) -> str:
    return str(getattr(entity, "sym", None) or getattr(entity, "name", entity))
