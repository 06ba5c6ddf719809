"""Trades that need the seller's consent, played by mail.

A corporation's purchase of a train from another corporation, or of a private company from
its owner, is made "at a price both agree on" (the printed rules); which purchases need whose
consent is ``stellwerk.consent``'s to say, as for the web app.  When a player's mailed order
means such a purchase and another player decides for the seller, the GM checks it as the
engine would (``api.Game.verify``: a refused one is refused with its rule) and then only
offers it: an :class:`Offer`, numbered in its game, kept in the GM's tables beside the game
(never in the game file).  Every report lists the open offers of its player (the seller's
with the lines that answer it) and the game waits for the answer:

* the seller's player mails ``accept offer N`` (``nimm angebot N an``): the purchase is
  checked again and made as the buyer's move (his corporation's action, answering his
  order, recorded like every action the GM applies); refused now, the seller is told why
  and nothing changes;
* ``decline offer N`` (``lehne angebot N ab``): the buyer is told; his next orders go on;
* the buyer may ``withdraw offer N`` (``ziehe angebot N zurück``);
* any other move of the game voids the open offers (the price was agreed for that
  position), and the buyer is told;
* at a deadline an offer still open is declined: the seller's silence is no consent, and a
  game left to run on its own never hangs on an answer.

A purchase at the table, by a GM correction or in a replayed 18xx.games file needs nobody's
consent: only orders are offered.
"""

from __future__ import annotations

from dataclasses import dataclass

from stellwerk.core.entities import PlayerId
from stellwerk.core.jsondata import JSONObject, JSONValue, is_int

ANSWER_FORMS = {
    "en": ("accept offer {n}", "decline offer {n}", "withdraw offer {n}"),
    "de": ("nimm angebot {n} an", "lehne angebot {n} ab", "ziehe angebot {n} zurück"),
}
"""The orders that answer offer ``n`` (accept, decline, withdraw), as the reports write them."""


@dataclass(frozen=True)
class Offer:
    """An open trade offer: its number in the game, the ``action`` as it will be made, the
    action count it was made at (``base``), the buying and the selling player, and the
    buyer's order as written (with the Message-ID of its mail)."""

    number: int
    action: JSONObject
    base: int
    buyer: PlayerId
    seller: PlayerId
    order: str
    mail: str = ""

    def to_json(self) -> JSONObject:
        return {"number": self.number, "action": self.action, "base": self.base,
                "buyer": self.buyer, "seller": self.seller, "order": self.order,
                "mail": self.mail}  # fmt: skip

    @staticmethod
    def from_json(value: JSONValue) -> Offer | None:
        """An offer as stored; None for anything else."""
        if not isinstance(value, dict):
            return None
        number, action, base = value.get("number"), value.get("action"), value.get("base")
        buyer, seller = value.get("buyer"), value.get("seller")
        order, mail = value.get("order"), value.get("mail", "")
        if not (is_int(number) and isinstance(action, dict) and is_int(base)):
            return None
        if not all(isinstance(p, str) or is_int(p) for p in (buyer, seller)):
            return None
        if not (isinstance(order, str) and isinstance(mail, str)):
            return None
        assert isinstance(buyer, str | int) and isinstance(seller, str | int)
        return Offer(int(number), action, int(base), buyer, seller, order, mail)


def answers(number: int, lang: str) -> tuple[str, str, str]:
    """The orders accepting, declining and withdrawing offer ``number`` in ``lang``."""
    forms = ANSWER_FORMS["de" if lang == "de" else "en"]
    accept, decline, withdraw = (form.format(n=number) for form in forms)
    return accept, decline, withdraw


def say(lang: str, english: str, german: str) -> str:
    """``english`` or, for a German player, ``german``."""
    return german if lang == "de" else english
