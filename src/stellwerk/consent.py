"""Which purchases need the seller's consent: shared by the front ends that play live (the
web app's ``web.offers``, the game master's ``gm.offers``).

The printed rules let a corporation buy a train from another corporation, or a private
company from its owner, "at a price both agree on" (1849 and 1835 rules on buying trains and
private companies; 1841 likewise between corporations): the buyer's president names the
price, the seller's president must agree.  The engine checks only the price's range, so a
front end asks the seller's player when another player decides for the seller.  A purchase
from the bank, the depot or the pool, from a holding the buyer's own player decides for, or
from one nobody decides for (a corporation in receivership sells as the bank would) needs
nobody's consent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stellwerk.core.entities import PlayerId
from stellwerk.core.jsondata import JSONObject

if TYPE_CHECKING:
    from stellwerk.api import Game

KINDS = frozenset({"buy_train", "buy_company"})
"""The purchases that may need consent."""


def seller_of(game: Game, action: JSONObject) -> int | str | None:
    """Who sells what ``action`` buys: the corporation owning the train, the player or
    corporation owning the private company; None for the bank, the depot or the pool."""
    look = game.view
    kind = action.get("type")
    owner = None
    if kind == "buy_train" and isinstance(action.get("train"), str):
        try:
            owner = look.train(str(action["train"])).owner
        except (KeyError, ValueError):
            return None
    elif kind == "buy_company":
        company = next((c for c in look.companies() if c.sym == action.get("company")), None)
        owner = company.owner if company is not None else None
    if owner is None or owner.kind not in ("player", "corporation"):
        return None
    return owner.key


def consent_of(game: Game, action: JSONObject, buyer: PlayerId | None) -> PlayerId | None:
    """The player whose consent ``action`` needs (the seller's decider), or None: not a
    trade, sold by the bank, by a holding ``buyer`` decides for, or by one nobody decides
    for (a corporation in receivership sells as the bank would)."""
    if action.get("type") not in KINDS:
        return None
    seller = seller_of(game, action)
    if seller is None:
        return None
    decider = game.decider_of(seller)
    if decider is None or decider == buyer:
        return None
    return decider
