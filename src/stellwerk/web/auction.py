"""Auctions as cards: each private company, concession or start
item of the auction a card -- what it is and does (its face value, its revenue, what the
title's data says it does), the standing bid and bidder, and the player's bid with a field
starting at the legal minimum, or "Buy for M.x" where the price is fixed -- and a sealed-bid
auction (1841's first edition) as one form with an amount field per item.

Read from the API's views (``Game.view``: companies, corporations, the step's bids, the
sealed auction) and the page's choices; nothing here reads the engine or changes the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from stellwerk.core.jsondata import JSONObject
from stellwerk.views import (
    AbilityView,
    BidView,
    CompanyView,
    CorporationView,
    SealedBidsView,
)
from stellwerk.web.choices import Choice, Choices
from stellwerk.words.catalog import money, percent

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "value": "Face value {value}",
        "revenue": "pays {revenue} per operating round",
        "concession": "The concession to start {sym}",
        "certificate": "The president's certificate of {sym}",
        "blocks": "Blocks {hexes} while a player owns it",
        "extra_share": "Comes with {percent} of {company}",
        "tile_lay": "Lays a tile in {hexes}",
        "token": "Places a station in {hexes}",
        "ability": "{kind} in {hexes}",
        "times": " ({count}×)",
        "standing": "{price} by {bidder}",
        "no_bid": "no bid yet",
        "owner": "Owned by {owner}",
    },
    "de": {
        "value": "Nennwert {value}",
        "revenue": "zahlt {revenue} je Betriebsrunde",
        "concession": "Die Konzession zur Gründung der {sym}",
        "certificate": "Das Direktorzertifikat der {sym}",
        "blocks": "Sperrt {hexes}, solange ein Spieler sie besitzt",
        "extra_share": "Mit {percent} der {company}",
        "tile_lay": "Legt ein Plättchen in {hexes}",
        "token": "Setzt eine Station in {hexes}",
        "ability": "{kind} in {hexes}",
        "times": " ({count}×)",
        "standing": "{price} von {bidder}",
        "no_bid": "noch kein Gebot",
        "owner": "Im Besitz von {owner}",
    },
}
"""The cards' own words per language (names and money are the game's)."""


@dataclass(frozen=True)
class Card:
    """One item of the auction: ``facts`` say what it is and does, ``standing`` the bids on
    it (bidder and amount, as money text), ``choices`` the player's bid or purchase."""

    sym: str
    name: str
    facts: tuple[str, ...]
    standing: tuple[str, ...]
    choices: tuple[Choice, ...]
    bids: int = 0
    """How many standing bids there are on it."""


@dataclass(frozen=True)
class SealedItem:
    """One field of the sealed-bid form: the item, what it is, its opening bid."""

    sym: str
    name: str
    facts: tuple[str, ...]
    opening: int


@dataclass(frozen=True)
class SealedForm:
    """The sealed-bid form: an amount per item (0 or empty: no bid), sent as one
    ``blind_bid`` (``action`` is the listed one without bids; the page posts ``bid`` fields
    in item order)."""

    items: tuple[SealedItem, ...]
    action: JSONObject


@dataclass(frozen=True)
class Auction:
    """The auction's cards and, while sealed lists are collected, the sealed form."""

    cards: tuple[Card, ...]
    sealed: SealedForm | None

    @property
    def empty(self) -> bool:
        return not self.cards and self.sealed is None


def _ability(ability: AbilityView, words: dict[str, str], lang: str) -> str:
    hexes = ", ".join(ability.hexes)
    if ability.kind == "extra_share":
        share = percent(ability.percent, lang) if ability.percent is not None else "?"
        return words["extra_share"].format(percent=share, company=ability.company)
    template = words.get(ability.kind, words["ability"])
    text = template.format(kind=ability.kind, hexes=hexes)
    if ability.count and ability.count > 1:
        text += words["times"].format(count=ability.count)
    return text


def item_facts(
    sym: str,
    company: CompanyView | None,
    corporation: CorporationView | None,
    title: str,
    lang: str,
) -> tuple[str, ...]:
    """What an auction item is and does, in words."""
    words = WORDS.get(lang, WORDS["en"])
    facts: list[str] = []
    if company is not None:
        if corporation is not None:
            facts.append(words["concession"].format(sym=sym))
        value = words["value"].format(value=money(title, company.value, lang))
        if company.revenue:
            value += ", " + words["revenue"].format(revenue=money(title, company.revenue, lang))
        facts.append(value)
        facts.extend(_ability(a, words, lang) for a in company.abilities)
        if company.owner is not None:
            facts.append(words["owner"].format(owner=company.owner.name))
    elif corporation is not None:
        facts.append(words["certificate"].format(sym=sym))
        if corporation.name and corporation.name != sym:
            facts.append(corporation.name)
    return tuple(facts)


def company_cards(
    companies: tuple[CompanyView, ...],
    corporations: tuple[CorporationView, ...],
    title: str,
    lang: str = "en",
) -> tuple[Card, ...]:
    """Every private company or concession still in the game as a card saying what it is,
    what it does and who owns it (the page's "Private companies" section)."""
    by_corp = {c.sym: c for c in corporations}
    return tuple(
        Card(
            sym=c.sym,
            name=c.name,
            facts=item_facts(c.sym, c, by_corp.get(c.sym), title, lang),
            standing=(),
            choices=(),
        )
        for c in companies
        if not c.closed
    )


def auction(
    companies: tuple[CompanyView, ...],
    corporations: tuple[CorporationView, ...],
    bids: tuple[BidView, ...],
    sealed: SealedBidsView | None,
    choices: Choices,
    title: str,
    lang: str = "en",
    offered: tuple[str, ...] = (),
) -> Auction:
    """The cards of the items on offer (``offered``: the items the acting player may bid on,
    as the engine lists them, so that every seat and the spectators see the auction) and
    those that carry a standing bid; the player's own bids on them; the sealed form when
    the player is to hand in his list."""
    words = WORDS.get(lang, WORDS["en"])
    by_company = {c.sym: c for c in companies}
    by_corp = {c.sym: c for c in corporations}
    on: dict[str, list[str]] = {}
    for bid in bids:
        on.setdefault(str(bid.item.key), []).append(
            words["standing"].format(price=money(title, bid.price, lang), bidder=bid.bidder.name)
        )
    # the items the player may bid on in the engine's order of its list, then the others
    # with standing bids in the game's order
    wanted: list[str] = [sym for sym in offered if sym]
    for choice in choices.buttons:
        action = choice.action
        target = str(
            action.get("company") or action.get("corporation") or action.get("minor") or ""
        )
        if choice.kind == "bid" and target and target not in wanted:
            wanted.append(target)
    wanted = list(dict.fromkeys(wanted))
    wanted += [c.sym for c in companies if c.sym in on and c.sym not in wanted]
    cards = []
    for sym in wanted:
        company = by_company.get(sym)
        corporation = by_corp.get(sym)
        name = company.name if company is not None else sym
        cards.append(
            Card(
                sym=sym,
                name=name,
                facts=item_facts(sym, company, corporation, title, lang),
                standing=tuple(on.get(sym, ())) or (words["no_bid"],),
                choices=tuple(choices.bids_on(sym)),
                bids=len(on.get(sym, ())),
            )
        )
    form = None
    blind = [c for c in choices.buttons if c.kind == "blind_bid"]
    if sealed is not None and blind:
        items = tuple(
            SealedItem(
                sym=str(item.item.key),
                name=item.item.name,
                facts=item_facts(
                    str(item.item.key),
                    by_company.get(str(item.item.key)),
                    by_corp.get(str(item.item.key)),
                    title,
                    lang,
                ),
                opening=item.opening,
            )
            for item in sealed.items
        )
        template: JSONObject = {k: v for k, v in blind[0].action.items() if k != "bids"}
        form = SealedForm(items, template)
    return Auction(tuple(cards), form)
