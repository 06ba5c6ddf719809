"""Trades that need the seller's consent.

The printed rules let a corporation buy a train from another corporation, or a private
company from its owner, "at a price both agree on"; which purchases need whose consent is
``stellwerk.consent``'s to say (shared with the game master).  In live play on the web such a
purchase, when another player decides for the seller, is not
made at once but offered: the seller's player accepts it (it is then made, recorded as the
buyer's move) or declines it; the buyer may withdraw it.  An offer stands for the position
it was made in: any other move of the game voids it (the price was agreed for that moment).
A purchase from a holding the buyer's own player decides for, from the bank or depot, or at
the table (everybody sits there) needs nobody's consent.  Replayed 18xx.games files stay as
recorded: consent is asked only of moves sent live.

Open offers are kept in the store's annex beside the game (``web-offers``), never in the
game file.  The live feed (``web.service``, ``/api/games/{id}/events``) reads them with the
action count (``stamp``: the open offers' ids), so an offer made, declined or withdrawn
reaches the other pages of the game, also those another server process on the same store
serves.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from stellwerk.consent import KINDS as KINDS
from stellwerk.consent import consent_of as consent_of
from stellwerk.consent import seller_of as seller_of
from stellwerk.core.entities import PlayerId
from stellwerk.core.jsondata import JSONObject, JSONValue, as_list, is_int
from stellwerk.web.errors import WebError

if TYPE_CHECKING:
    from stellwerk.store import GameStore

ANNEX = "web-offers"


class OfferMade(WebError):
    """A purchase that needs the seller's consent was offered instead of made: 202."""

    status = 202

    def __init__(self, offer: Offer, message: str) -> None:
        super().__init__(message)
        self.offer = offer


class OfferGone(WebError):
    """An offer answered, withdrawn or voided by another move: 410."""

    status = 410


@dataclass(frozen=True)
class Offer:
    """A purchase offered: its ``action`` (as it will be sent), the action count it was
    made at (``base``), the buying and the selling player."""

    id: str
    action: JSONObject
    base: int
    buyer: PlayerId
    seller: PlayerId

    def to_json(self) -> JSONObject:
        return {"id": self.id, "action": self.action, "base": self.base,
                "buyer": self.buyer, "seller": self.seller}  # fmt: skip

    @staticmethod
    def from_json(value: JSONValue) -> Offer | None:
        """An offer read back from the annex; None for anything else."""
        if not isinstance(value, dict):
            return None
        action, base = value.get("action"), value.get("base")
        buyer, seller = value.get("buyer"), value.get("seller")
        if not (isinstance(action, dict) and is_int(base) and isinstance(value.get("id"), str)):
            return None
        if not (isinstance(buyer, str) or is_int(buyer)):
            return None
        if not (isinstance(seller, str) or is_int(seller)):
            return None
        return Offer(str(value["id"]), action, int(base), buyer, seller)


def offers(store: GameStore, key: str, count: int) -> list[Offer]:
    """The open offers of game ``key``, now at ``count`` actions: those made at an earlier
    count are void and left out."""
    found = [Offer.from_json(v) for v in as_list(store.annex_get(key, ANNEX) or [], "offers")]
    return [o for o in found if o is not None and o.base == count]


def stamp(open_offers: Sequence[Offer]) -> str:
    """What the live feed and the game page compare to tell a change of the open offers:
    their ids, sorted, comma-separated ("" for none).  Every offer has a new id, so one
    made, declined, withdrawn or replaced changes it."""
    return ",".join(sorted(o.id for o in open_offers))


def save(store: GameStore, key: str, kept: list[Offer]) -> None:
    store.annex_put(key, ANNEX, [o.to_json() for o in kept])


def make(store: GameStore, key: str, action: JSONObject, base: int, buyer: PlayerId,
         seller: PlayerId) -> Offer:  # fmt: skip
    """Record an offer (replacing one of the same buyer at this count)."""
    offer = Offer(secrets.token_hex(8), action, base, buyer, seller)
    kept = [o for o in offers(store, key, base) if o.buyer != buyer]
    save(store, key, [*kept, offer])
    return offer
