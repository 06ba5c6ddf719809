"""The action vocabulary: 18xx.games action JSON, the one format of every front end and of
game files (common rules §3.2-3.3).

Each type lists its required fields with their JSON types; ``check_shape`` refuses an action
of an unknown type or with a missing or mistyped field before any rule looks at it.
"""

from __future__ import annotations

from typing import Any

from stellwerk.core.errors import IllegalAction

RULE = "common rules §3.3 (action fields)"

NUMBER = (int,)
TEXT = (str,)
ID = (int, str)
LIST = (list,)

FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "bid": {"price": NUMBER},
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
    "undo": {},
    "redo": {},
    "program_share_pass": {},
    "program_buy_shares": {},
    "program_disable": {},
    "destination_connection": {},
}
"""Required fields per action type (optional fields are not listed)."""

ENTITY_TYPES = ("player", "corporation", "minor", "company")


def check_shape(action: Any) -> None:
    """Refuse a malformed action, naming the field (common rules §3.2-3.3)."""
    if not isinstance(action, dict):
        raise IllegalAction("an action must be a JSON object", RULE)
    kind = action.get("type")
    if kind not in FIELDS and not (isinstance(kind, str) and kind.startswith("program_")):
        raise IllegalAction(f"unknown action type {kind!r}", RULE)
    if action.get("entity") is None:
        raise IllegalAction(f"{kind} needs an entity", RULE)
    etype = action.get("entity_type", "player")
    if etype not in ENTITY_TYPES:
        raise IllegalAction(f"unknown entity type {etype!r}", RULE)
    for field, types in FIELDS.get(str(kind), {}).items():
        value = action.get(field)
        if value is None:
            raise IllegalAction(f"{kind} needs the field {field!r}", RULE)
        if not isinstance(value, types) or isinstance(value, bool):
            raise IllegalAction(f"{kind}: {field!r} has the wrong type", RULE)
