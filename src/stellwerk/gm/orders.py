"""The order language of play by mail: one order per line, typed values.

A line is normalised first (:func:`normalise`): ``#`` starts a comment, case does not matter,
umlauts may be written ``ae``/``oe``/``ue`` (``ß`` as ``ss``), and runs of blanks are one.
English and German keywords are both read, in any mix.  An order may name the corporation it
is for with a ``SYM:`` prefix (``ATA: lay 57 on H12 rotation 2``); orders of an operating turn
without the prefix are for whichever of the player's corporations operates next.

The parser knows no title and no position: it turns text into an :class:`Order` or raises
:class:`OrderError` naming what it could not read.  Turning an order into an engine action is
the *understanding* step (``stellwerk.gm.understand``), which asks the game's legal actions.

Forms (English / German; ``[...]`` optional):

* ``pass`` / ``passe``
* ``bid 120 on SCE`` / ``biete 120 auf SCE``
* ``bids SFTG=60 SB=20`` / ``gebote SFTG=60 SB=20`` (sealed bids, 1841 first edition)
* ``par ATA at 100`` / ``gründe ATA zu 100``
* ``buy ATA [from ipo|pool|CORP|PLAYER] [20%]`` / ``kaufe ATA [aus ipo|pool|...] [20%]``
  (the percent tells a president's certificate in the pool from a share)
* ``sell 2 ATA [30%]`` / ``verkaufe 2 ATA [30%]`` (the percent tells bundles apart)
* ``lay 57 on H12 rotation 2`` / ``lege 57 auf H12 drehung 2``
* ``token H12 [city 1]`` / ``marke H12 [stadt 1]``: the city is 18xx.games' number, the last
  part of its city id (``H12-0-1`` is city 1 of H12, also where H12 has no other city), or
  the whole city id (``token H12 city H12-0-1``, ``marke H12 stadt 57-0-0``); the same for
  ``remove token`` and ``buy token``
* ``run best`` / ``fahre optimal``; ``run H12-J10-L12 with 4H[; K7-L8 with 2H]`` /
  ``fahre H12-J10-L12 mit 4H``
* ``payout`` / ``ausschütten``, ``withhold`` / ``einbehalten``, ``half`` / ``halb``
* ``buy train 6H [from CTL] [for 200]`` / ``kaufe zug 6H [von CTL] [für 200]``
* ``buy private SCE [for 40]`` / ``kaufe privat SCE [für 40]`` (a corporation buys a company)
* ``take cash`` / ``nimm geld``, ``take shares`` / ``nimm aktien``, ``take presidency`` /
  ``nimm direktor`` (a merger's president's certificate), ``take SB`` / ``nimm SB`` (which new
  corporation's share an exchange gives), ``take lower price`` / ``nimm niedrigeren kurs``
  (``higher`` / ``hoeheren``: a merger's price choice)
* ``yes`` / ``ja``, ``no`` / ``nein`` (an offered share, another offer round, an upgrade)
* ``buy 2 tokens`` / ``kaufe 2 marken``, ``buy no tokens`` / ``kaufe keine marken`` (how many
  tokens a new or transformed corporation buys)
* ``merge with SFTG [into CTS]`` / ``fusioniere mit SFTG [zu CTS]``, ``merge into CTS`` /
  ``fusioniere zu CTS``, ``transform into CTS`` / ``wandle in CTS um`` (merger proposals and
  transformations; ``with X into Y`` is read as the two steps ``with X`` and ``into Y``)
* ``remove token H12 [city 1]`` / ``entferne marke H12 [stadt 1]`` (a merger's tokens),
  ``keep tokens`` / ``behalte marken`` (keep all the others, when the rules allow)
* ``buy token H12 [city 1] [from CORP] [for 50]`` / ``kaufe marke H12 [stadt 1] [von CORP]
  [für 50]`` (token acquisition from another corporation)
* ``discard 4H`` / ``wirf 4H ab`` (also ``discard train 4H``, ``abwerfen 4H``): a corporation
  over its train limit gives a train back (``discard_train``)
* ``assign A5`` / ``weise A5 zu`` (also ``assign to A5``, ``zuweisen A5``): a company's
  ability put on a hex or a corporation (``assign``: 1849's CNM puts its +20 marker on a port)
* ``pay debt`` / ``zahle schulden`` (``payoff_debt``: a president pays the debt of his
  corporation, 1849 bonds variant)
* ``issue bond`` / ``gib anleihe aus`` (``take_loan``), ``repay bond`` / ``zahle anleihe
  zurück`` (``payoff_loan``): 1849's bond variant
* 1835's Prussian formation (rules/1835.md 10): ``M2: form PR`` / ``M2: bilde PR`` (the
  starting minor forms it), ``M4: exchange`` / ``M4: tausche`` (a paper folds in),
  ``M4: decline`` / ``M4: lehne ab``; after a repeated sale, ``lower the price`` /
  ``senke den kurs`` (1835's optional price drop, ``choose lower_price``)
* ``choose TEXT`` / ``wähle TEXT`` (any other listed choice, by its text)
* trade offers (``stellwerk.gm.offers``): ``accept offer 3`` / ``nimm angebot 3 an``
  (``angebot 3 annehmen``), ``decline offer 3`` / ``lehne angebot 3 ab`` (``angebot 3
  ablehnen``), ``withdraw offer 3`` / ``ziehe angebot 3 zurück`` (``angebot 3
  zurückziehen``); the number may be left out when only one offer is open to the sender
* ``bankrupt`` / ``bankrott`` (when the rules offer it); ``bankrupt resign`` / ``bankrott
  aufgeben`` and ``bankrupt loan`` / ``bankrott kredit`` where the rules offer both
  (18xx.games' bankruptcy options 0 and 1, rules/1841.md 2.6)
* standing orders: ``pass until end of round`` / ``passe bis rundenende``;
  ``buy ATA until 60%`` / ``kaufe ATA bis 60%``, ``buy ATA until floated`` /
  ``kaufe ATA bis gegründet``; ``bid up to 150 on SCE`` / ``biete bis 150 auf SCE``;
  ``always take cash`` / ``immer geld``; ``ATA: always run best and pay out`` /
  ``ATA: immer optimal fahren und ausschütten``; ``cancel standing orders`` /
  ``daueraufträge löschen``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from stellwerk.gm.mail import PLAYER_LINE

UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}


class OrderError(ValueError):
    """A line that is not an order; the message says what could not be read."""


def normalise(line: str) -> str:
    """The line without its comment, lower case, umlauts as ``ae``/``oe``/``ue``, ``ß`` as
    ``ss``, other accents dropped, blanks collapsed."""
    text = line.split("#", 1)[0]
    for _ in range(3):  # until stable: a decomposition may bring new upper case letters
        before = text
        text = unicodedata.normalize("NFC", text).casefold()
        for char, plain in UMLAUTS.items():
            text = text.replace(char, plain)
        text = "".join(
            c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)
        )
        if text == before:
            break
    return " ".join(text.split())


@dataclass(frozen=True)
class Order:
    """An order as written; ``corp`` is the ``SYM:`` prefix (upper case) or None."""

    corp: str | None = field(default=None, kw_only=True)


@dataclass(frozen=True)
class Pass(Order):
    """Pass the current decision (for ``corp``: its current step)."""


@dataclass(frozen=True)
class Bid(Order):
    amount: int
    target: str


@dataclass(frozen=True)
class SealedBids(Order):
    bids: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Par(Order):
    target: str
    price: int


@dataclass(frozen=True)
class Buy(Order):
    """Buy one certificate of ``target``; ``source`` is ``ipo``, ``pool``, a corporation
    symbol or a player name (as written, normalised), or None for whichever is listed."""

    target: str
    source: str | None = None
    percent: int | None = None


@dataclass(frozen=True)
class Sell(Order):
    """Sell ``count`` certificates of ``target`` (``percent``, if given, in all)."""

    count: int
    target: str
    percent: int | None = None


@dataclass(frozen=True)
class Lay(Order):
    tile: str
    hex: str
    rotation: int | None = None


@dataclass(frozen=True)
class Token(Order):
    """A token on ``hex``; ``city`` is 18xx.games' city number there (the last part of its
    city id), ``city_id`` the whole city id as written (lower case), either or neither."""

    hex: str
    city: int | None = None
    city_id: str | None = None


@dataclass(frozen=True)
class RunRoute:
    """One route of a ``run`` order: its stop hexes in order and the train's name."""

    hexes: tuple[str, ...]
    train: str


@dataclass(frozen=True)
class Run(Order):
    """``best`` or the routes named; an empty run (``routes`` empty, not best) is not read."""

    best: bool = False
    routes: tuple[RunRoute, ...] = ()


@dataclass(frozen=True)
class Dividend(Order):
    kind: str
    """``payout``, ``withhold`` or ``half`` (18xx.games' dividend kinds)."""


@dataclass(frozen=True)
class BuyTrain(Order):
    train: str
    source: str | None = None
    price: int | None = None


@dataclass(frozen=True)
class BuyCompany(Order):
    target: str
    price: int | None = None


@dataclass(frozen=True)
class Take(Order):
    what: str
    """``cash`` or ``shares``."""


@dataclass(frozen=True)
class Answer(Order):
    """``yes`` / ``no`` to an offer or a question the rules ask."""

    yes: bool


@dataclass(frozen=True)
class TokenCount(Order):
    """How many tokens a corporation buys when it starts (or transforms, or secedes)."""

    count: int


@dataclass(frozen=True)
class Merge(Order):
    """A merger proposal's partner, its target, or a transformation's target (one
    ``merge`` action each; the name tells which, since partners are started corporations
    and targets are not)."""

    target: str


@dataclass(frozen=True)
class MergeBoth(Order):
    """``merge with X into Y``: read as the two orders ``merge with X``, ``merge into Y``
    (:func:`parse_text` splits it)."""

    partner: str
    target: str


@dataclass(frozen=True)
class RemoveToken(Order):
    """A merger's token removed from ``hex`` (``city``, ``city_id`` as for :class:`Token`)."""

    hex: str
    city: int | None = None
    city_id: str | None = None


@dataclass(frozen=True)
class KeepTokens(Order):
    """Remove no more tokens (a merger's ``pass`` once the least number has gone)."""


@dataclass(frozen=True)
class BuyToken(Order):
    """Buy another corporation's token on the map (``buy_token``)."""

    hex: str
    city: int | None = None
    seller: str | None = None
    price: int | None = None
    city_id: str | None = None


@dataclass(frozen=True)
class Discard(Order):
    """Give back a train of ``train``'s name, over the train limit (``discard_train``)."""

    train: str


@dataclass(frozen=True)
class Assign(Order):
    """Put a company's ability on ``target``, a hex or a corporation (``assign``)."""

    target: str


@dataclass(frozen=True)
class PayDebt(Order):
    """The president pays his corporation's debt from his own cash (``payoff_debt``)."""


@dataclass(frozen=True)
class IssueBond(Order):
    """The corporation issues its bond (``take_loan``, 1849 rules §7.4)."""


@dataclass(frozen=True)
class RepayBond(Order):
    """The corporation repays its bond (``payoff_loan``, 1849 rules §7.4)."""


@dataclass(frozen=True)
class Formation(Order):
    """A paper's answer in 1835's Prussian formation: ``form`` (the starting minor forms PR),
    ``fold_in`` (exchange it for PR shares) or ``decline`` (rules/1835.md 10)."""

    what: str


@dataclass(frozen=True)
class PriceDown(Order):
    """Drop the price one more row after a repeated sale (1835's ``lower_price`` choice)."""


@dataclass(frozen=True)
class Choose(Order):
    choice: str


@dataclass(frozen=True)
class OfferAnswer(Order):
    """An answer to a trade offer (``stellwerk.gm.offers``): ``accept`` or ``decline`` (the
    seller's player), ``withdraw`` (the buyer's); ``number`` None: the one open offer."""

    answer: str
    number: int | None = None


@dataclass(frozen=True)
class Bankrupt(Order):
    """Declare the corporation (or the player) bankrupt when the rules offer it; ``option``
    names 18xx.games' bankruptcy option where there are several (0 resign, 1 loan)."""

    option: int | None = None


@dataclass(frozen=True)
class StandingPass(Order):
    """Pass for the rest of the stock round (``program_share_pass``)."""


@dataclass(frozen=True)
class StandingBuy(Order):
    """Buy ``target`` until ``percent`` is held, or until it floats (``percent`` None)
    (``program_buy_shares``)."""

    target: str
    percent: int | None = None
    source: str | None = None


@dataclass(frozen=True)
class StandingBid(Order):
    """Bid on ``target`` up to ``maximum`` (``program_auction_bid``)."""

    maximum: int
    target: str


@dataclass(frozen=True)
class StandingCash(Order):
    """Always take cash in mergers, exchanges and swaps (our own standing order)."""


@dataclass(frozen=True)
class StandingRun(Order):
    """Always run the best routes and pay out (our own standing order)."""


@dataclass(frozen=True)
class CancelStanding(Order):
    """Cancel every standing order (``program_disable`` and our own)."""


STANDING = (StandingPass, StandingBuy, StandingBid, StandingCash, StandingRun, CancelStanding)

# -- keywords (normalised spelling) ---------------------------------------------------------
PASS = {"pass", "passe", "passen", "passt"}
BID = {"bid", "biete", "bieten", "gebot"}
BIDS = {"bids", "gebote"}
PAR = {"par", "gruende", "grunde", "gruenden"}
BUY = {"buy", "kaufe", "kaufen", "kauf"}
SELL = {"sell", "verkaufe", "verkaufen", "verkauf"}
LAY = {"lay", "lege", "legen"}
TOKEN = {"token", "marke", "station", "setze"}
RUN = {"run", "fahre", "fahren", "fahrt"}
TAKE = {"take", "nimm", "nehme"}
CHOOSE = {"choose", "waehle", "wahl", "wahle"}
YES = {"yes", "ja", "y", "j"}
NO = {"no", "nein", "n"}
TOKENS = {"token", "tokens", "marke", "marken", "stationen", "station"}
NONE = {"no", "none", "keine", "kein", "0"}
MERGE = {"merge", "fusioniere", "fusionieren", "fusion"}
TRANSFORM = {"transform", "wandle", "umwandeln", "verwandle"}
INTO = {"into", "zu", "in", "to", "nach"}
REMOVE = {"remove", "entferne", "entfernen"}
KEEP = {
    "keep tokens",
    "keep the other tokens",
    "keep the rest",
    "behalte marken",
    "behalte die anderen marken",
    "behalte den rest",
    "keine weiteren marken entfernen",
}
PRESIDENCY = {
    "presidency",
    "president",
    "pres",
    "director",
    "direktor",
    "direktorat",
    "direktorposten",
    "praesident",
    "praesidentschaft",
    "vorsitz",
}
PRICE_WORDS = {"price", "kurs", "preis"}
LOWER = {"lower", "low", "niedrigeren", "niedrigere", "niedriger", "tieferen", "first"}
HIGHER = {"higher", "high", "hoeheren", "hoehere", "hoeher", "last"}
RESIGN = {"resign", "aufgeben", "ausscheiden", "0"}
LOAN = {"loan", "kredit", "darlehen", "1"}
ON = {"on", "auf", "for", "fuer", "fur"}
AT = {"at", "zu", "bei", "auf", "for", "fuer", "@"}
FROM = {"from", "aus", "von"}
FOR = {"for", "fuer", "fur", "zu"}
WITH = {"with", "mit"}
ROTATION = {"rotation", "drehung", "rot", "dreh"}
CITY = {"city", "stadt"}
TRAIN = {"train", "zug"}
PRIVATE = {"private", "privat", "privatbahn", "company", "gesellschaft"}
BEST = {"best", "optimal", "optimum", "beste", "bestens"}
UNTIL = {"until", "bis"}
ALWAYS = {"always", "immer"}
CASH = {"cash", "geld", "money", "bar"}
SHARES = {"shares", "share", "aktien", "aktie", "anteile", "anteil"}
FLOATED = {"floated", "float", "floats", "gegruendet", "fahrbereit", "flott"}
ROUND_END = {"end of round", "end of the round", "rundenende", "ende der runde", "round end"}
DIVIDENDS = {
    "payout": "payout", "pay": "payout", "pay out": "payout", "ausschuetten": "payout",
    "ausschuettung": "payout",
    "withhold": "withhold", "einbehalten": "withhold", "behalten": "withhold",
    "half": "half", "halb": "half", "haelfte": "half",
}  # fmt: skip
DISCARD = {"discard", "abwerfen", "wirf"}
ASSIGN = {"assign", "zuweisen", "weise"}
TO = {"to", "on", "an", "auf", "nach", "zu"}
PAY_DEBT = {
    "pay debt", "pay the debt", "pay off debt", "pay off the debt", "payoff debt",
    "zahle schulden", "zahle die schulden", "bezahle schulden", "bezahle die schulden",
    "schulden zahlen", "schulden bezahlen", "begleiche schulden", "schulden begleichen",
}  # fmt: skip
ISSUE_BOND = {
    "issue bond", "issue the bond", "take bond", "gib anleihe aus", "gib die anleihe aus",
    "anleihe ausgeben", "anleihe aufnehmen", "nimm anleihe", "gebe anleihe aus",
}  # fmt: skip
"""Issuing 1849's bond (18xx.games' ``take_loan``); "loan" is not among the words, since
1849's bankrupt player's "Take L.500 loan" and 1841's ``bankrupt loan`` are other loans."""
REPAY_BOND = {
    "repay bond", "repay the bond", "redeem bond", "pay off bond", "pay off the bond",
    "zahle anleihe zurueck", "zahle die anleihe zurueck", "anleihe zurueckzahlen",
    "anleihe tilgen", "tilge anleihe", "tilge die anleihe", "loese anleihe ein",
    "anleihe einloesen",
}  # fmt: skip
"""Repaying 1849's bond (18xx.games' ``payoff_loan``)."""
FORMATION = {
    "form pr": "form", "form prussia": "form", "form the pr": "form", "bilde pr": "form",
    "bilde preussen": "form", "bilde die pr": "form", "pr bilden": "form",
    "exchange": "fold_in", "exchange for pr": "fold_in", "fold in": "fold_in",
    "tausche": "fold_in", "tausche ein": "fold_in", "tausche gegen pr": "fold_in",
    "eintauschen": "fold_in", "umtauschen": "fold_in", "tausche um": "fold_in",
    "decline": "decline", "lehne ab": "decline", "ablehnen": "decline",
}  # fmt: skip
PRICE_DOWN = {
    "lower the price", "lower price", "price down", "drop the price", "senke den kurs",
    "senke kurs", "kurs senken", "den kurs senken",
}  # fmt: skip
CANCEL = {
    "cancel standing orders", "cancel standing", "cancel", "dauerauftraege loeschen",
    "dauerauftraege aufheben", "loesche dauerauftraege", "keine dauerauftraege",
}  # fmt: skip

OFFER = {"offer", "angebot"}
OFFER_VERBS = {
    "accept": "accept", "nimm": "accept", "annehmen": "accept", "akzeptiere": "accept",
    "decline": "decline", "reject": "decline", "refuse": "decline", "lehne": "decline",
    "ablehnen": "decline", "withdraw": "withdraw", "ziehe": "withdraw",
    "zurueckziehen": "withdraw", "zurueckzuziehen": "withdraw",
}  # fmt: skip
OFFER_PARTICLES = {"an", "ab", "zurueck", "the", "das", "my", "mein", "dein", "your", "no", "nr"}

PREFIX = re.compile(r"^([a-z0-9][a-z0-9&'.-]*)\s*:\s*(.*)$")
WORD = re.compile(r"^[a-z0-9&'._/-]+$")


def parse_order(line: str) -> Order | None:
    """The order on one line, or None for a line with nothing but blanks or a comment.
    ``OrderError`` for a line that is not an order."""
    text = normalise(line)
    if not text:
        return None
    corp: str | None = None
    match = PREFIX.match(text)
    if match and match.group(2):
        corp, text = match.group(1).upper(), match.group(2)
    return _parse(text.split(" "), text, corp)


def _parse(words: list[str], text: str, corp: str | None) -> Order:
    head = words[0]
    rest = words[1:]
    if text in CANCEL:
        return CancelStanding(corp=corp)
    if head in ALWAYS:
        return _always(rest, corp)
    if OFFER & set(words):
        return _offer_answer(words, corp)
    if head in PASS:
        if rest and " ".join(rest[1:]) in ROUND_END and rest[0] in UNTIL:
            return StandingPass(corp=corp)
        _no_more(rest, "pass")
        return Pass(corp=corp)
    if head in BIDS:
        return SealedBids(tuple(_pair(w) for w in rest) or _missing("bids", "SFTG=60"), corp=corp)
    if head in BID:
        if rest and rest[0] in UNTIL and len(rest) >= 2 and rest[1] in {"to", "zu"}:
            rest = rest[1:]  # "bid up to", "biete bis zu"
        if rest and rest[0] in UNTIL | {"up"}:
            tail = rest[1:]
            if tail and tail[0] in {"to", "zu"}:
                tail = tail[1:]
            amount, target = _amount_on(tail, "bid up to")
            return StandingBid(amount, target, corp=corp)
        amount, target = _amount_on(rest, "bid")
        return Bid(amount, target, corp=corp)
    if head in PAR:
        if len(rest) == 3 and rest[1] in AT:
            return Par(_sym(rest[0]), _number(rest[2], "par price"), corp=corp)
        raise OrderError("write: par ATA at 100 / gründe ATA zu 100")
    if head in SELL:
        percent: int | None = None
        if rest and rest[-1].endswith("%") and len(rest) >= 2:
            percent, rest = _number(rest[-1][:-1], "percent"), rest[:-1]
        if len(rest) == 2:
            count = _number(rest[0], "number of certificates")
            return Sell(count, _sym(rest[1]), percent, corp=corp)
        if len(rest) == 1:
            return Sell(1, _sym(rest[0]), percent, corp=corp)
        raise OrderError("write: sell 2 ATA [20%] / verkaufe 2 ATA [20%]")
    if head in BUY:
        return _buy(rest, corp)
    if head in LAY:
        return _lay(rest, corp)
    if head in TOKEN:
        return _token(rest, corp)
    if head in RUN:
        return _run(rest, corp)
    if text in DIVIDENDS:
        return Dividend(DIVIDENDS[text], corp=corp)
    if head in {"bankrupt", "bankrott", "konkurs"}:
        if not rest:
            return Bankrupt(corp=corp)
        option = " ".join(w for w in rest if w not in {"option", "and", "und", "take", "nimm"})
        if option in RESIGN:
            return Bankrupt(0, corp=corp)
        if option in LOAN or option in {"take loan", "a loan", "einen kredit"}:
            return Bankrupt(1, corp=corp)
        raise OrderError("write: bankrupt [resign|loan] / bankrott [aufgeben|kredit]")
    if text in YES:
        return Answer(True, corp=corp)
    if text in NO:
        return Answer(False, corp=corp)
    if text in KEEP:
        return KeepTokens(corp=corp)
    if head in MERGE | TRANSFORM:
        return _merge(head, rest, corp)
    if head in REMOVE:
        if rest and rest[0] in TOKENS:
            token = _token(rest[1:], corp)
            assert isinstance(token, Token)
            return RemoveToken(token.hex, token.city, token.city_id, corp=corp)
        raise OrderError("write: remove token H12 [city 1] / entferne marke H12 [stadt 1]")
    if text in FORMATION:
        return Formation(FORMATION[text], corp=corp)
    if text in PRICE_DOWN:
        return PriceDown(corp=corp)
    if text in PAY_DEBT:
        return PayDebt(corp=corp)
    if text in ISSUE_BOND:
        return IssueBond(corp=corp)
    if text in REPAY_BOND:
        return RepayBond(corp=corp)
    if head in DISCARD:
        return _discard(head, rest, corp)
    if head in ASSIGN:
        return _assign(head, rest, corp)
    if head in TAKE:
        return _take(rest, corp)
    if head in CHOOSE:
        if not rest:
            raise OrderError("choose what? write: choose TEXT / wähle TEXT")
        return Choose(" ".join(rest), corp=corp)
    raise OrderError(f"unknown order {head!r}")


def _offer_answer(words: list[str], corp: str | None) -> Order:
    """``accept offer 3``, ``nimm angebot 3 an``, ``angebot 3 ablehnen``, ... (the number
    may be left out)."""
    verbs = {OFFER_VERBS[w] for w in words if w in OFFER_VERBS}
    numbers = [w for w in words if w.isdigit()]
    others = [w for w in words if w not in OFFER | OFFER_VERBS.keys() | OFFER_PARTICLES
              and not w.isdigit()]  # fmt: skip
    if len(verbs) != 1 or len(numbers) > 1 or others:
        raise OrderError(
            "write: accept offer 3 / nimm angebot 3 an, decline offer 3 / lehne "
            "angebot 3 ab, withdraw offer 3 / ziehe angebot 3 zurück"
        )
    return OfferAnswer(verbs.pop(), int(numbers[0]) if numbers else None, corp=corp)


def _always(rest: list[str], corp: str | None) -> Order:
    text = " ".join(rest)
    if text in CASH or (rest and rest[0] in TAKE and " ".join(rest[1:]) in CASH):
        return StandingCash(corp=corp)
    words = set(rest)
    if words & CASH and not words & (RUN | BEST):
        return StandingCash(corp=corp)
    runs = bool(words & (RUN | {"fahren"}))
    if runs and words & BEST and words & set(DIVIDENDS):
        return StandingRun(corp=corp)
    raise OrderError("write: always take cash / always run best and pay out")


def _discard(head: str, rest: list[str], corp: str | None) -> Order:
    """``discard [train] 4H`` / ``abwerfen [zug] 4H`` / ``wirf [zug] 4H ab`` (``ab`` at the
    end is German word order and means nothing more)."""
    if head == "wirf":
        if not rest or rest[-1] != "ab":
            raise OrderError("write: discard 4H / wirf 4H ab")
        rest = rest[:-1]
    if rest and rest[0] in TRAIN | {"the", "den", "einen"}:
        rest = rest[1:]
    if rest and rest[0] in TRAIN:
        rest = rest[1:]
    if len(rest) != 1 or not WORD.match(rest[0]):
        raise OrderError("write: discard 4H / wirf 4H ab")
    return Discard(rest[0].upper(), corp=corp)


def _assign(head: str, rest: list[str], corp: str | None) -> Order:
    """``assign [to] A5`` / ``zuweisen [an] A5`` / ``weise A5 zu`` (``weise ... zu`` is the
    German word order; ``zu`` at the end means nothing more)."""
    if head == "weise":
        if not rest or rest[-1] != "zu":
            raise OrderError("write: assign A5 / weise A5 zu")
        rest = rest[:-1]
    if len(rest) == 2 and rest[0] in TO:
        rest = rest[1:]
    if len(rest) != 1 or not WORD.match(rest[0]):
        raise OrderError("write: assign A5 / weise A5 zu")
    return Assign(rest[0].upper(), corp=corp)


def _take(rest: list[str], corp: str | None) -> Order:
    words = [w for w in rest if w not in {"the", "den", "die", "das", "a", "einen"}]
    what = " ".join(words)
    if what in CASH:
        return Take("cash", corp=corp)
    if what in SHARES:
        return Take("shares", corp=corp)
    if what in PRESIDENCY:
        return Take("president", corp=corp)
    if len(words) == 2 and words[1] in PRICE_WORDS and words[0] in LOWER | HIGHER:
        return Take("lower" if words[0] in LOWER else "higher", corp=corp)
    if len(words) == 1 and re.fullmatch(r"[a-z][a-z0-9]{1,4}", words[0]):  # a symbol: SB, SFL
        return Take(words[0].upper(), corp=corp)
    raise OrderError("write: take cash / take shares (nimm geld / nimm aktien)")


def _merge(head: str, rest: list[str], corp: str | None) -> Order:
    """``merge with X [into Y]``, ``merge into Y``, ``transform into Y`` / ``wandle in Y um``
    (``um`` at the end is German word order and means nothing more)."""
    if rest and rest[-1] == "um":
        rest = rest[:-1]
    if head in MERGE and len(rest) == 2 and rest[0] in WITH:
        return Merge(_sym(rest[1]), corp=corp)
    if head in MERGE and len(rest) == 4 and rest[0] in WITH and rest[2] in INTO:
        return MergeBoth(_sym(rest[1]), _sym(rest[3]), corp=corp)
    if len(rest) == 2 and rest[0] in INTO:
        return Merge(_sym(rest[1]), corp=corp)
    raise OrderError(
        "write: merge with SFTG [into CTS] / fusioniere mit SFTG [zu CTS], "
        "transform into CTS / wandle in CTS um"
    )


def _buy(rest: list[str], corp: str | None) -> Order:
    if not rest:
        raise OrderError("buy what? write: buy ATA [from ipo|pool]")
    if rest[0] in TRAIN:
        return _buy_train(rest[1:], corp)
    if len(rest) == 2 and rest[1] in TOKENS and (rest[0] in NONE or rest[0].isdigit()):
        return TokenCount(0 if rest[0] in NONE else int(rest[0]), corp=corp)
    if rest[0] in TOKENS:
        return _buy_token(rest[1:], corp)
    if rest[0] in PRIVATE:
        if len(rest) == 2:
            return BuyCompany(_sym(rest[1]), corp=corp)
        if len(rest) == 4 and rest[2] in FOR:
            return BuyCompany(_sym(rest[1]), _number(rest[3], "price"), corp=corp)
        raise OrderError("write: buy private SCE [for 40] / kaufe privat SCE [für 40]")
    target = _sym(rest[0])
    tail = rest[1:]
    if tail and tail[0] in UNTIL:
        return _standing_buy(target, tail[1:], corp)
    percent: int | None = None
    if tail and tail[-1].endswith("%"):
        percent, tail = _number(tail[-1][:-1], "percent"), tail[:-1]
    if not tail:
        return Buy(target, percent=percent, corp=corp)
    if len(tail) >= 2 and tail[0] in FROM:
        return Buy(target, " ".join(tail[1:]), percent, corp=corp)
    raise OrderError("write: buy ATA [from ipo|pool|CORP|PLAYER]")


def _standing_buy(target: str, tail: list[str], corp: str | None) -> Order:
    source: str | None = None
    if len(tail) >= 3 and tail[-2] in FROM:
        source, tail = tail[-1], tail[:-2]
    text = " ".join(tail)
    if text in FLOATED or text in {"it floats", "es faehrt"}:
        return StandingBuy(target, None, source, corp=corp)
    if len(tail) == 1 and tail[0].endswith("%"):
        return StandingBuy(target, _number(tail[0][:-1], "percent"), source, corp=corp)
    if len(tail) == 2 and tail[1] in {"%", "percent", "prozent"}:
        return StandingBuy(target, _number(tail[0], "percent"), source, corp=corp)
    raise OrderError("write: buy ATA until 60% / buy ATA until floated")


def _buy_train(rest: list[str], corp: str | None) -> Order:
    if not rest:
        raise OrderError("which train? write: buy train 6H [from CTL] [for 200]")
    train = rest[0].upper()
    source: str | None = None
    price: int | None = None
    tail = rest[1:]
    while tail:
        if len(tail) >= 2 and tail[0] in FROM:
            source, tail = tail[1], tail[2:]
        elif len(tail) >= 2 and tail[0] in FOR:
            price, tail = _number(tail[1], "price"), tail[2:]
        else:
            raise OrderError(f"cannot read {' '.join(tail)!r}: write from CTL / for 200")
    return BuyTrain(train, source, price, corp=corp)


def _buy_token(rest: list[str], corp: str | None) -> Order:
    form = "write: buy token H12 [city 1] [from CORP] [for 50]"
    if not rest:
        raise OrderError(form)
    hex_id, tail = _hex(rest[0]), rest[1:]
    city: int | None = None
    city_id: str | None = None
    seller: str | None = None
    price: int | None = None
    while tail:
        if len(tail) >= 2 and tail[0] in CITY:
            city, city_id = _city(tail[1])
            tail = tail[2:]
        elif len(tail) >= 2 and tail[0] in FROM:
            seller, tail = _sym(tail[1]), tail[2:]
        elif len(tail) >= 2 and tail[0] in FOR:
            price, tail = _number(tail[1], "price"), tail[2:]
        else:
            raise OrderError(f"cannot read {' '.join(tail)!r}: {form}")
    return BuyToken(hex_id, city, seller, price, city_id, corp=corp)


def _lay(rest: list[str], corp: str | None) -> Order:
    if len(rest) < 3 or rest[1] not in ON:
        raise OrderError("write: lay 57 on H12 rotation 2 / lege 57 auf H12 drehung 2")
    tile, hex_id, tail = rest[0], _hex(rest[2]), rest[3:]
    rotation: int | None = None
    if tail:
        if len(tail) != 2 or tail[0] not in ROTATION:
            raise OrderError(f"cannot read {' '.join(tail)!r}: write rotation 2 / drehung 2")
        rotation = _number(tail[1], "rotation")
        if rotation > 5:
            raise OrderError(f"rotation {rotation}: rotations are 0 to 5")
    return Lay(tile, hex_id, rotation, corp=corp)


def _token(rest: list[str], corp: str | None) -> Order:
    if len(rest) == 1:
        return Token(_hex(rest[0]), corp=corp)
    if len(rest) == 3 and rest[1] in CITY:
        return Token(_hex(rest[0]), *_city(rest[2]), corp=corp)
    raise OrderError("write: token H12 [city 1] / marke H12 [stadt 1]")


CITY_ID = re.compile(r"^[a-z0-9]+(?:-\d+)+$")
"""An 18xx.games city id as written in an order (normalised): ``57-0-0``, ``h12-0-1``."""


def _city(word: str) -> tuple[int | None, str | None]:
    """(18xx.games' city number, None) for a number, (None, the city id) for a whole city id
    (``57-0-0``, ``H12-0-1``: tile id, copy, city number)."""
    if word.isdigit():
        return int(word), None
    if CITY_ID.match(word) and word.count("-") >= 2:
        return None, word
    raise OrderError(f"city {word!r}: write the city's number (city 1) or its id (city 57-0-0)")


def _run(rest: list[str], corp: str | None) -> Order:
    text = " ".join(rest)
    if text in BEST:
        return Run(best=True, corp=corp)
    routes = []
    for part in re.split(r"\s*(?:;|,|\band\b|\bund\b)\s*", text):
        if not part:
            continue
        words = part.split(" ")
        if len(words) != 3 or words[1] not in WITH:
            raise OrderError(f"cannot read route {part!r}: write H12-J10-L12 with 4H")
        hexes = tuple(_hex(h) for h in words[0].split("-"))
        if len(hexes) < 2:
            raise OrderError(f"route {part!r} names fewer than two stops")
        routes.append(RunRoute(hexes, words[2].upper()))
    if not routes:
        raise OrderError("run what? write: run best / run H12-J10-L12 with 4H")
    return Run(routes=tuple(routes), corp=corp)


def _amount_on(rest: list[str], form: str) -> tuple[int, str]:
    if len(rest) == 3 and rest[1] in ON:
        return _number(rest[0], "amount"), _sym(rest[2])
    if len(rest) == 3 and rest[0] in ON:  # "bid on SCE 120"
        return _number(rest[2], "amount"), _sym(rest[1])
    raise OrderError(f"write: {form} 120 on SCE / biete 120 auf SCE")


def _pair(word: str) -> tuple[str, int]:
    name, sep, amount = word.partition("=")
    if not sep or not name:
        raise OrderError(f"cannot read bid {word!r}: write SFTG=60")
    return _sym(name), _number(amount, f"bid on {name.upper()}")


def _missing(form: str, example: str) -> tuple[tuple[str, int], ...]:
    raise OrderError(f"{form} without bids: write {form} {example}")


def _number(word: str, what: str) -> int:
    cleaned = word.strip().rstrip(".").removeprefix("l.").removeprefix("$")
    cleaned = cleaned.removesuffix("m").removesuffix("l")
    if not cleaned.isdigit():
        raise OrderError(f"{what}: {word!r} is not a number")
    return int(cleaned)


def _sym(word: str) -> str:
    if not WORD.match(word):
        raise OrderError(f"{word!r} is not a name")
    return word.upper()


def _hex(word: str) -> str:
    if not re.match(r"^[a-z]{1,2}-?\d{1,3}$", word):
        raise OrderError(f"{word!r} is not a hex (e.g. H12)")
    return word.upper()


def _no_more(rest: list[str], form: str) -> None:
    if rest:
        raise OrderError(f"{form} takes nothing more, found {' '.join(rest)!r}")


@dataclass
class ParsedLine:
    """One line of a mail: its number and text, and its order or why it is not one."""

    number: int
    text: str
    order: Order | None = None
    error: str | None = None


CORRECTION_WORDS = ("aenderung", "correction", "korrektur", "berichtigung")


def is_correction(subject: str, body: str) -> bool:
    """Whether a mail replaces the player's unused orders: its subject or its first
    non-empty line says ``Änderung``/``correction``."""
    first = next((normalise(line) for line in body.splitlines() if normalise(line)), "")
    head = normalise(subject)
    return any(w in head for w in CORRECTION_WORDS) or any(
        first.startswith(w) for w in CORRECTION_WORDS
    )


def parse_text(body: str) -> list[ParsedLine]:
    """Every line of a mail body that holds an order or fails to, in order; blank and
    comment-only lines, a correction marker line, a ``player:``/``spieler:`` line (which
    names the mail's player, ``stellwerk.gm.mail.PLAYER_LINE``; the GM checks it against the
    sender), quoted lines (``>``) and the signature (after ``-- ``) are left out."""
    out: list[ParsedLine] = []
    for number, raw in enumerate(body.splitlines(), start=1):
        if raw.rstrip() == "--":
            break
        if raw.lstrip().startswith(">"):
            continue
        text = raw.split("#", 1)[0].strip()
        norm = normalise(text)
        if not norm or norm.rstrip(":!.") in CORRECTION_WORDS or PLAYER_LINE.match(text):
            continue
        try:
            order = parse_order(text)
        except OrderError as error:
            out.append(ParsedLine(number, text, error=str(error)))
            continue
        if isinstance(order, MergeBoth):
            prefix = f"{order.corp}: " if order.corp else ""
            out.append(
                ParsedLine(
                    number,
                    f"{prefix}merge with {order.partner}",
                    order=Merge(order.partner, corp=order.corp),
                )
            )
            out.append(
                ParsedLine(
                    number,
                    f"{prefix}merge into {order.target}",
                    order=Merge(order.target, corp=order.corp),
                )
            )
        elif order is not None:
            out.append(ParsedLine(number, text, order=order))
    return out
