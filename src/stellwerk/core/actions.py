"""The action vocabulary: 18xx.games action JSON, the one format of every front end and of
game files (common rules §3.2-3.3).

Each type lists its required fields with their JSON types; ``check_shape`` refuses an action
of an unknown type or with a missing or mistyped field before any rule looks at it.

Besides the moves of the game, 18xx.games writes *site actions* into its files (common rules
§3.3, §3.5): ``message`` and ``log`` (text, no effect on the game; ``log`` is written by a few
titles' steps), the ``program_*`` standing orders (automatic passes and purchases; their
effects are recorded as ``auto_actions`` of later actions), ``end_game`` (a game ended by hand)
and ``undo``/``redo`` (resolved before replay, see ``stellwerk.io.undo``).  All of them load;
only ``end_game`` changes the state.
"""

from __future__ import annotations

from collections.abc import Mapping

from stellwerk.core.errors import IllegalAction
from stellwerk.core.jsondata import JSONObject, is_int

RULE = "common rules §3.3 (action fields)"

NUMBER = (int,)
TEXT = (str,)
ID = (int, str)
LIST = (list,)

PROGRAM_TYPES = frozenset(
    {
        "program_auction_bid",
        "program_buy_shares",
        "program_independent_mines",
        "program_merger_pass",
        "program_harzbahn_draft_pass",
        "program_share_pass",
        "program_close_pass",
        "program_disable",
    }
)
"""Every standing-order type 18xx.games' Program step accepts (lib/engine/step/program.rb);
a game file may hold any of them, so all load (as no-ops, common rules §3.5)."""

TEXT_TYPES = frozenset({"message", "log"})
"""Chat and log lines: kept in the action list, no effect on the game."""

SITE_TYPES = TEXT_TYPES | PROGRAM_TYPES | {"end_game"}
"""Actions of the site rather than moves of the game: any player may send them at any time
(18xx.games routes them to its Message, Program and EndGame steps, which never block)."""

FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "bid": {"price": NUMBER},
    "blind_bid": {"bids": LIST},
    "pass": {},
    "par": {"corporation": TEXT, "share_price": TEXT},
    "buy_shares": {"shares": LIST},
    "sell_shares": {"shares": LIST},
    "buy_company": {"company": TEXT, "price": NUMBER},
    "lay_tile": {"hex": TEXT, "tile": TEXT, "rotation": NUMBER},
    "place_token": {"city": TEXT},
    "remove_token": {"city": TEXT, "slot": NUMBER},
    "buy_token": {"city": TEXT, "slot": NUMBER, "price": NUMBER},
    "run_routes": {"routes": LIST},
    "dividend": {"kind": TEXT},
    "buy_train": {"train": TEXT, "price": NUMBER},
    "discard_train": {"train": TEXT},
    "choose": {"choice": ID},
    "merge": {},
    "assign": {"target": TEXT},
    "bankrupt": {},
    "take_loan": {},
    "payoff_loan": {},
    "payoff_debt": {},
    "end_game": {},
    "message": {},
    "log": {},
    "undo": {},
    "redo": {},
    "destination_connection": {},
    **{kind: {} for kind in PROGRAM_TYPES},
}
"""Required fields per action type (optional fields are not listed).  Loading is lenient
where 18xx.games is: a ``message`` without text loads; live play checks more (``check_site``)."""

ENTITY_TYPES = ("player", "corporation", "minor", "company")


def action_id(action: Mapping[str, object]) -> int:
    """The id of an action of a game's record (every one there has an integer id; the
    API numbers an action that comes without one, common rules §3.2)."""
    value = action.get("id")
    if not is_int(value):
        raise IllegalAction(f"action has no integer id: {value!r}", "common rules §3.2")
    return value


OPTIONAL: dict[str, tuple[type, ...]] = {
    "percent": (int, float),
    "company": TEXT,
    "corporation": TEXT,
    "price": NUMBER,
    "slot": NUMBER,
    "city": TEXT,
    "train": TEXT,
    "variant": TEXT,
    "tokener": TEXT,
    "action_id": NUMBER,
    "extra_revenue": NUMBER,
    "subsidy": NUMBER,
    "option": NUMBER,
}
"""Optional fields the engine reads, with their JSON types (18xx.games' action classes)."""

ROUTE_FIELDS: dict[str, tuple[tuple[type, ...], int]] = {
    "train": (TEXT, 0),
    "revenue": (NUMBER, 0),
    "hexes": (TEXT, 1),
    "nodes": (TEXT, 1),
    "connections": (TEXT, 2),
}
"""The fields of one route of ``run_routes``: element type and list depth (0: a value,
1: a list of them, 2: a list of lists)."""


def _is(value: object, types: tuple[type, ...], depth: int = 0) -> bool:
    """Whether ``value`` is of ``types`` (no booleans for numbers) nested ``depth`` lists deep."""
    if depth:
        if not isinstance(value, list):
            return False
        if depth == 1 and types is TEXT:  # lists of ids, the most common (a str is no bool)
            return all(isinstance(v, str) for v in value)
        return all(_is(v, types, depth - 1) for v in value)
    return isinstance(value, types) and not (isinstance(value, bool) and bool not in types)


OPTIONAL_OF: dict[str, dict[str, tuple[type, ...]]] = {
    kind: {field: types for field, types in OPTIONAL.items() if field not in required}
    for kind, required in FIELDS.items()
}
"""The optional fields checked in an action of each type: those it does not require (a
required field's type is checked as such)."""

LISTED = frozenset({"buy_shares", "sell_shares", "blind_bid", "run_routes"})
"""The types with a list field whose inside is checked (certificates, bids, routes)."""


def check_shape(action: object) -> None:
    """Refuse a malformed action, naming the field (common rules §3.2-3.3).  Any
    ``program_*`` type loads, so that a standing order the site adds later does not stop a
    replay (its effects are in the recorded ``auto_actions``)."""
    if not isinstance(action, dict):
        raise IllegalAction("an action must be a JSON object", RULE)
    kind = action.get("type")
    if not isinstance(kind, str) or (kind not in FIELDS and not kind.startswith("program_")):
        raise IllegalAction(f"unknown action type {kind!r}", RULE)
    if action.get("entity") is None:
        raise IllegalAction(f"{kind} needs an entity", RULE)
    etype = action.get("entity_type", "player")
    if etype not in ENTITY_TYPES:
        raise IllegalAction(f"unknown entity type {etype!r}", RULE)
    for field, types in FIELDS.get(kind, {}).items():
        value = action.get(field)
        if value is None:
            raise IllegalAction(f"{kind} needs the field {field!r}", RULE)
        if not isinstance(value, types) or isinstance(value, bool):
            raise IllegalAction(f"{kind}: {field!r} has the wrong type", RULE)
    optional = OPTIONAL_OF.get(kind, OPTIONAL)
    for field, value in action.items():
        wanted = optional.get(field)
        if wanted is None or value is None:
            continue
        if not isinstance(value, wanted) or type(value) is bool:  # no optional field is a bool
            raise IllegalAction(f"{kind}: {field!r} has the wrong type", RULE)
    if kind in LISTED:
        _check_lists(kind, action)


def _check_lists(kind: str, action: JSONObject) -> None:
    """The inside of the list fields the engine reads: certificate ids, bids and routes, so
    that a corrupt file is refused by field name instead of failing inside a rule."""
    if kind in ("buy_shares", "sell_shares") and not _is(action["shares"], TEXT, 1):
        raise IllegalAction(f"{kind}: 'shares' must be a list of certificate ids", RULE)
    if kind == "blind_bid" and not _is(action["bids"], NUMBER, 1):
        raise IllegalAction("blind_bid: 'bids' must be a list of whole numbers", RULE)
    routes = action.get("routes")
    if kind == "run_routes" and isinstance(routes, list):
        for route in routes:
            if not isinstance(route, dict) or not isinstance(route.get("train"), str):
                raise IllegalAction("run_routes: each route needs a train", RULE)
            for field, (types, depth) in ROUTE_FIELDS.items():
                value = route.get(field)
                if value is not None and not _is(value, types, depth):
                    raise IllegalAction(f"run_routes: route {field!r} has the wrong type", RULE)


LIVE_PROGRAMS: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "program_share_pass": {"unconditional": ((bool,), False), "indefinite": ((bool,), False)},
    "program_buy_shares": {
        "corporation": ((str,), True),
        "until_condition": ((int, str), True),
        "from_market": ((bool,), False),
        "auto_pass_after": ((bool,), False),
    },
    "program_disable": {"reason": ((str,), False), "original_type": ((str,), False)},
}
"""The standing orders 18xx.games offers in our titles (``available_programmed_actions``:
buy shares and share pass; disable cancels one), with their fields: (types, required)."""


def check_site(action: JSONObject) -> None:
    """Live play: the fields of a site action (message, log, program, end_game), checked as
    18xx.games' action classes read them (common rules §3.3, §3.5).  The acting entity must
    be a player; the caller checks that it is one of this game's."""
    kind = action["type"]
    if action.get("entity_type", "player") != "player":
        raise IllegalAction(f"only a player can send {kind}", "common rules §3.5")
    if kind in TEXT_TYPES:
        if not isinstance(action.get("message"), str):
            raise IllegalAction(f"{kind} needs the text field 'message'", RULE)
        return
    if kind == "end_game":
        return
    fields = LIVE_PROGRAMS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise IllegalAction(
            f"{kind} is not a standing order offered in this title", "common rules §3.5"
        )
    for field, (types, required) in fields.items():
        value = action.get(field)
        if value is None:
            if required:
                raise IllegalAction(f"{kind} needs the field {field!r}", RULE)
            continue
        if not isinstance(value, types) or (bool not in types and isinstance(value, bool)):
            raise IllegalAction(f"{kind}: {field!r} has the wrong type", RULE)
    condition = action.get("until_condition")
    if kind == "program_buy_shares" and not (
        condition == "float" or (isinstance(condition, int) and condition > 0)
    ):
        raise IllegalAction(
            "until_condition must be a number of shares above 0 or 'float'", "common rules §3.5"
        )
