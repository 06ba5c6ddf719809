"""What the acting player may do, as a page shows it: built from
``game.legal_actions()`` and nothing else, so the pages offer exactly the engine's moves.

:func:`build_choices` sorts the legal actions of the entities a viewer may act for into

* ``lays``: tile lays grouped by hex, each tile with the rotations legal for it (a click on a
  hex opens them; ``legal_actions(hex_id)`` per hex of ``lay_hexes()``, as ``stellwerk show``);
* ``tokens``: station tokens by city (``"H12:0"``, the map's ``data-city``: hex and city index),
  so a click on a city picks its action;
* ``routes``: the optimiser's run (the listed ``run_routes`` carries the engine's best routes,
  ``Game.suggest_routes``, the library call behind ``stellwerk routes``); "accept" sends it;
* ``buttons``: everything else (passes, pars, bids, buys, sales, trains, dividends, merger and
  formation answers, loans), grouped by what they are about.

Every choice carries the exact action JSON to send.  Labels are English or German: names,
hexes and money come from :class:`stellwerk.words.Narrator` (the log's own names and currency),
the verbs from :data:`LABELS`; an answer to a question the rules ask (``Game.question``: a
procedure's share offer, token purchase, exchange, the Prussian formation, ...) is the
title's sentence of what it does (``Game.choice_text``), and ``Choices.question`` says what
is asked.  A bid's or a price-space purchase's price may be raised by the
player (``price_min``): the engine's live gate checks the amount (``stellwerk.core.live``).
Nothing here changes the game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from stellwerk.api import Game
from stellwerk.core.jsondata import (
    JSONObject,
    JSONValue,
    first_text,
    integer,
    list_at,
    objects_at,
    optional_integer,
)
from stellwerk.views import Choice as QuestionChoice
from stellwerk.views import Question
from stellwerk.words import Narrator
from stellwerk.words.catalog import percent

Action = JSONObject

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "pass": "Pass",
        "pass_step": "Pass ({step})",
        "bid": "Bid on {target}",
        "blind_bid": "Hand in sealed bids: {pairs}",
        "par": "Start {corporation} at {price}",
        "buy_shares": "Buy {shares} from {source}",
        "sell_shares": "Sell {shares}",
        "buy_company": "Buy {company} for {price}",
        "buy_train": "Buy a {train}-train from {source} for {price}",
        "buy_train_open": "Buy a {train}-train from {source}",
        "discard_train": "Discard the {train}-train",
        "dividend_payout": "Pay out",
        "dividend_withhold": "Withhold",
        "dividend_half": "Pay half",
        "choose": "Choose: {choice}",
        "merge": "Merge with {corporation}",
        "assign": "Assign to {target}",
        "bankrupt": "Declare bankruptcy",
        "take_loan": "Take a loan",
        "payoff_loan": "Pay off a loan",
        "payoff_debt": "Pay off the debt",
        "destination_connection": "Connect to the destination",
        "place_token": "Station in {city}",
        "buy_token": "Buy {owner}'s station in {city}",
        "remove_token": "Remove the station in {city}",
        "run_routes": "Run the best routes for {revenue}",
        "no_routes": "Run (no route)",
        "city": "{hex}, city {index}",
        "rotation": "rotation {rotation}",
        "tile": "tile {tile}",
        "other": "{type}",
        "ipo": "the IPO",
        "pool": "the pool",
        "depot": "the bank",
        "decline": "decline",
        "lower_price": "lower the price",
        "fold_in": "fold in",
        "buy_private": "Buy {company} ({low} to {high})",
        "buy_item": "Buy {target} for {price}",
        "bid_on": "Bid on {target}",
        "row_buy": "Buy {percent} from {source}",
        "row_sell": "Sell {percent}",
        "row_par": "{price}",
        "for_entity": "{entity}: {label}",
    },
    "de": {
        "pass": "Passen",
        "pass_step": "Passen ({step})",
        "bid": "Gebot auf {target}",
        "blind_bid": "Verdeckte Gebote abgeben: {pairs}",
        "par": "{corporation} zu {price} gründen",
        "buy_shares": "{shares} kaufen von {source}",
        "sell_shares": "{shares} verkaufen",
        "buy_company": "{company} für {price} kaufen",
        "buy_train": "{train}-Zug von {source} für {price} kaufen",
        "buy_train_open": "{train}-Zug von {source} kaufen",
        "discard_train": "{train}-Zug abgeben",
        "dividend_payout": "Ausschütten",
        "dividend_withhold": "Einbehalten",
        "dividend_half": "Halb ausschütten",
        "choose": "Wählen: {choice}",
        "merge": "Mit {corporation} fusionieren",
        "assign": "{target} zuweisen",
        "bankrupt": "Bankrott erklären",
        "take_loan": "Kredit aufnehmen",
        "payoff_loan": "Kredit zurückzahlen",
        "payoff_debt": "Schulden begleichen",
        "destination_connection": "Ziel verbinden",
        "place_token": "Station in {city}",
        "buy_token": "Station von {owner} in {city} kaufen",
        "remove_token": "Station in {city} entfernen",
        "run_routes": "Beste Strecken fahren: {revenue}",
        "no_routes": "Fahren (keine Strecke)",
        "city": "{hex}, Stadt {index}",
        "rotation": "Drehung {rotation}",
        "tile": "Plättchen {tile}",
        "other": "{type}",
        "ipo": "der Erstausgabe",
        "pool": "dem Pool",
        "depot": "der Bank",
        "decline": "ablehnen",
        "lower_price": "Kurs senken",
        "fold_in": "einbringen",
        "buy_private": "{company} kaufen ({low} bis {high})",
        "buy_item": "{target} für {price} kaufen",
        "bid_on": "Auf {target} bieten",
        "row_buy": "{percent} aus {source} kaufen",
        "row_sell": "{percent} verkaufen",
        "row_par": "{price}",
        "for_entity": "{entity}: {label}",
    },
}
"""The verbs of the buttons; names and money are the log's (``stellwerk.words``)."""

GROUPS = (
    "turn", "auction", "shares", "tokens", "dividend", "trains", "routes", "other", "companies",
)  # fmt: skip
"""Sections of the buttons, in the page's order: the turn's step first (an operating turn in
rule order: dividend, then trains), a private company's purchase -- possible during several
steps -- last, as a small control."""

GROUP_OF = {
    "pass": "turn",
    "bid": "auction",
    "blind_bid": "auction",
    "buy_company": "companies",
    "par": "shares",
    "buy_shares": "shares",
    "sell_shares": "shares",
    "buy_train": "trains",
    "discard_train": "trains",
    "dividend": "dividend",
    "run_routes": "routes",
}

CARD_KINDS = frozenset({"bid", "blind_bid"})
"""Moves the auction's cards show (``web.auction``), not the list of buttons."""

OPEN_PRICE = frozenset({"bid", "buy_company"})
"""Action types whose price the player names (at least the listed one; common rules §6.7)."""


@dataclass(frozen=True)
class Choice:
    """One button: its label, the action to send, and for an amount the player names the
    least price (the page shows a number field starting there)."""

    kind: str
    label: str
    action: Action
    group: str = "other"
    price_min: int | None = None
    price_max: int | None = None
    """The most the player may name (None: no upper bound listed)."""
    price_default: int | None = None
    """The amount the price field starts at (None: ``price_min``)."""
    also: tuple[Action, ...] = ()
    """Further listed actions this one form stands for: the same move at the other listed
    prices (a private or another corporation's train between L.1 and its price); the
    player's amount picks among them."""
    about: str | None = None
    """The corporation a share move is about (a par, a buy, a sale): the stock table shows
    it in that corporation's row, with ``short``; None for other moves."""
    short: str = ""
    """The label in the corporation's row (the corporation left out: ``Buy 10% (IPO)``)."""


@dataclass(frozen=True)
class TileChoice:
    """One tile for a hex and its legal rotations (rotation -> the lay_tile action)."""

    tile: str
    name: str
    rotations: Mapping[int, Action]


@dataclass(frozen=True)
class HexLays:
    """The tile lays of one hex."""

    hex: str
    label: str
    tiles: tuple[TileChoice, ...]


@dataclass(frozen=True)
class CityTokens:
    """The token actions of one city (``key`` = ``"HEX:INDEX"``, the map's ``data-city``)."""

    key: str
    hex: str
    index: int
    label: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class RouteOffer:
    """The optimiser's run for a corporation: its routes, total revenue and the action."""

    corporation: str
    revenue: int
    routes: tuple[JSONObject, ...]
    choice: Choice


@dataclass(frozen=True)
class Choices:
    """Everything a viewer may do now (empty for a spectator or when others are to act)."""

    acting: tuple[str, ...] = ()
    buttons: tuple[Choice, ...] = ()
    lays: Mapping[str, HexLays] = field(default_factory=dict)
    tokens: Mapping[str, CityTokens] = field(default_factory=dict)
    routes: RouteOffer | None = None
    question: str = ""
    """What the rules ask of the viewer now, in the page's language (``Game.question_text``;
    empty for ordinary moves)."""

    @property
    def empty(self) -> bool:
        return not (self.buttons or self.lays or self.tokens or self.routes)

    def grouped(self) -> list[tuple[str, list[Choice]]]:
        """The buttons by section (:data:`GROUPS` order), sections without buttons left out;
        share moves about a corporation are left to the stock table (:meth:`about`)."""
        out: list[tuple[str, list[Choice]]] = []
        for group in GROUPS:
            found = [
                c
                for c in self.buttons
                if c.group == group and c.about is None and c.kind not in CARD_KINDS
            ]
            if found:
                out.append((group, found))
        return out

    @property
    def share_moves(self) -> bool:
        """Whether some move is about a corporation's shares (the stock table's rows)."""
        return any(c.about is not None for c in self.buttons)

    def bids_on(self, sym: str) -> list[Choice]:
        """The bids (or fixed-price purchases) on the auction's item ``sym``."""
        return [c for c in self.buttons if c.kind == "bid" and _target(c.action) == sym]

    def about(self, sym: str, kind: str | None = None) -> list[Choice]:
        """The share moves about corporation ``sym`` (of ``kind`` only: ``par``), in listed
        order: the stock table's row."""
        return [c for c in self.buttons if c.about == sym and kind in (None, c.kind)]

    def to_dict(self) -> JSONObject:
        """JSON for the page's script: lays by hex, tokens by city (the buttons are HTML)."""
        return {
            "lays": {
                hid: {
                    "label": lays.label,
                    "tiles": [
                        {
                            "tile": t.tile,
                            "name": t.name,
                            "rotations": {str(r): a for r, a in t.rotations.items()},
                        }
                        for t in lays.tiles
                    ],
                }
                for hid, lays in self.lays.items()
            },
            "tokens": {
                key: {
                    "hex": city.hex,
                    "label": city.label,
                    "choices": [{"label": c.label, "action": c.action} for c in city.choices],
                }
                for key, city in self.tokens.items()
            },
        }


def _target(action: Action) -> str:
    """The item a bid names (a company, or a corporation's or minor's certificate)."""
    return str(action.get("company") or action.get("corporation") or action.get("minor") or "")


def tile_name(tile_id: str) -> str:
    """A tile's printed name from its id (``57-0`` is copy 0 of tile ``57``)."""
    name, sep, copy = tile_id.rpartition("-")
    return name if sep and copy.isdigit() else tile_id


class Labeller:
    """Labels of one game's actions in one language."""

    def __init__(self, game: Game, lang: str = "en") -> None:
        self.game = game
        self.look = game.view
        self.narrator = Narrator(game, lang)
        self.words = LABELS.get(lang, LABELS["en"])
        description = self.look.step().description
        self.step_name = self.narrator.step(description) if description else ""
        """The step asked now in the page's language (a corporation's pass names it)."""

    def money(self, amount: JSONValue) -> str:
        return self.narrator.money(int(amount)) if isinstance(amount, int) else str(amount)

    def word(self, key: str, **fields: object) -> str:
        return self.words[key].format(**fields)

    def code(self, value: JSONValue) -> str:
        """A choice code (``decline``) in words, else the value itself."""
        text = str(value)
        return self.words.get(text, text)

    def entity_name(self, kind: str, key: JSONValue) -> str:
        return self.narrator.name((kind, key))

    def city(self, city_id: str) -> tuple[str, int, str]:
        """(hex, city index, label) of an 18xx.games city id (``"H12-0-0"``)."""
        board = self.game.board
        hex_id, index = board.resolve_city(city_id)
        count = len(board.hexes[hex_id].cities)
        label = self.narrator.hex(hex_id)
        if count > 1:
            label = self.word("city", hex=label, index=index + 1)
        return hex_id, index, label

    def token_owner(self, hex_id: str, index: int, slot: object) -> str:
        """The corporation whose token is in ``slot`` of the city ("" for an empty or unknown
        slot)."""
        cities = self.game.board.hexes[hex_id].cities
        tokens = cities[index].tokens if 0 <= index < len(cities) else []
        if not isinstance(slot, int) or not 0 <= slot < len(tokens):
            return ""
        return tokens[slot] or ""

    def source(self, share_id: str) -> str:
        """Where a certificate is: the IPO, the pool, or its holder's name."""
        share = self.look.certificate(share_id)
        holder = share.holder
        if holder is None:
            return ""
        if holder.kind == "pool":
            return self.words["pool"]
        if holder.kind in ("corporation", "company"):
            return self.words["ipo"] if holder.key == share.corporation else str(holder.key)
        return holder.name

    def train_source(self, train_id: str) -> tuple[str, bool]:
        """Who sells a train (name) and whether it is another corporation (price named)."""
        owner = self.look.train(train_id).owner
        if owner is None or owner.kind not in ("corporation", "company"):
            return self.words["depot"], False
        return str(owner.key), True

    def row_label(self, action: Action) -> tuple[str | None, str]:
        """The corporation a share move is about and its label in that corporation's row
        (None and "" for other moves)."""
        kind = str(action.get("type"))
        if kind not in ("par", "buy_shares", "sell_shares"):
            return None, ""
        if kind == "par":
            price = str(action.get("share_price", "")).split(",")[0]
            amount: JSONValue = int(price) if price.isdigit() else price
            return str(action.get("corporation")), self.word("row_par", price=self.money(amount))
        shares = list_at(action, "shares")
        if not shares:
            return None, ""
        first = str(shares[0])
        sym = self.look.certificate(first).corporation
        amount = action.get("percent")
        if not isinstance(amount, int):
            amount = sum(self.look.certificate(str(s)).percent for s in shares)
        share_text = percent(amount, self.narrator.lang)
        if kind == "sell_shares":
            short = self.word("row_sell", percent=share_text)
        else:
            short = self.word("row_buy", percent=share_text, source=self.source(first))
        if action.get("entity_type") == "corporation":
            short = self.word("for_entity", entity=action.get("entity"), label=short)
        return sym, short

    def question(self) -> Question | None:
        """The decision asked now with the meaning of its answers (``Game.question``),
        asked once per position for every page that shows it."""
        return self.game.kept("web.question", self.game.question)

    def answer(self, action: Action) -> QuestionChoice | None:
        """The answer of the question asked now that ``action`` is (None: an ordinary move)."""
        asked = self.question()
        return asked.choice_for(action) if asked is not None else None

    def answers_tokens(self, action: Action) -> bool:
        """Whether ``action`` answers how many station tokens a corporation buys."""
        asked = self.question()
        return asked is not None and asked.topic == "buy_tokens" and self.answer(action) is not None

    def choose(self, action: Action) -> str:
        """A ``choose`` in words: the sentence of what its answer does, from the title
        (``Game.choice_text``: "Buy 2 station tokens for L.100 (L.50 each)"); a value no
        question explains as the value itself."""
        found = self.answer(action)
        if found is not None:
            return self.game.choice_text(found, self.narrator.lang)
        return self.word("choose", choice=self.code(action.get("choice")))

    def label(self, action: Action) -> str:
        """The button text of a listed action."""
        kind = str(action.get("type"))
        words = self.words
        if kind == "pass":
            answer = self.answer(action)
            if answer is not None:
                return self.game.choice_text(answer, self.narrator.lang)
            if action.get("entity_type") == "corporation" and self.step_name:
                return self.word("pass_step", step=self.step_name)
            return words["pass"]
        if kind == "bid":
            target = action.get("company") or action.get("corporation") or action.get("minor")
            space = self.look.price_space(action)
            if space is not None and space[0] == space[1]:  # a fixed price: a purchase
                return self.word(
                    "buy_item",
                    target=self.entity_name("company", target),
                    price=self.money(space[0]),
                )
            return self.word("bid", target=self.entity_name("company", target))
        if kind == "blind_bid":
            pairs = ", ".join(self.money(b) for b in list_at(action, "bids"))
            return self.word("blind_bid", pairs=pairs)
        if kind == "par":
            price = str(action.get("share_price", "")).split(",")[0]
            amount = int(price) if price.isdigit() else price
            return self.word("par", corporation=action.get("corporation"), price=self.money(amount))
        if kind in ("buy_shares", "sell_shares"):
            shares = self.narrator.shares(action)
            if kind == "sell_shares":
                return self.word("sell_shares", shares=shares)
            first = first_text(action, "shares")
            return self.word("buy_shares", shares=shares, source=self.source(first))
        if kind == "buy_company":
            company = self.entity_name("company", action.get("company"))
            return self.word("buy_company", company=company, price=self.money(action.get("price")))
        if kind == "buy_train":
            train = str(action.get("train", ""))
            source, named = self.train_source(train)
            if named:
                return self.word("buy_train_open", train=tile_name(train), source=source)
            return self.word(
                "buy_train", train=tile_name(train), source=source,
                price=self.money(action.get("price")),
            )  # fmt: skip
        if kind == "discard_train":
            return self.word("discard_train", train=tile_name(str(action.get("train", ""))))
        if kind == "dividend":
            key = f"dividend_{action.get('kind')}"
            return words.get(key, str(action.get("kind")))
        if kind == "choose":
            return self.choose(action)
        if kind == "merge":
            return self.word("merge", corporation=action.get("corporation", ""))
        if kind == "assign":
            return self.word("assign", target=action.get("target", ""))
        if kind in ("place_token", "buy_token", "remove_token"):
            hex_id, index, city = self.city(str(action.get("city")))
            owner = self.token_owner(hex_id, index, action.get("slot"))
            return self.word(kind, city=city, owner=owner, price=self.money(action.get("price", 0)))
        if kind in words:
            return words[kind]
        return self.word("other", type=kind)


def build_choices(
    game: Game,
    lang: str = "en",
    allowed: Callable[[Action], bool] | None = None,
) -> Choices:
    """The choices of the entities whose actions ``allowed`` lets through (a player's own and
    those of the corporations he presides; None: every acting entity's, for tests and tools).
    A finished game has none."""
    if game.finished:
        return Choices()
    mine = allowed or (lambda action: True)
    listed = [a for a in game.legal_actions() if a.get("type") != "lay_tile" and mine(a)]
    lays = _lays(game, mine)
    acting = tuple(str(e) for e in game.active_entities())
    if not listed and not lays:
        return Choices(acting=acting)
    names = Labeller(game, lang)
    buttons: list[Choice] = []
    tokens: dict[str, list[Choice]] = {}
    token_labels: dict[str, tuple[str, int, str]] = {}
    routes: RouteOffer | None = None
    for action in listed:
        kind = str(action.get("type"))
        if kind in ("place_token", "buy_token", "remove_token") and action.get("city"):
            hex_id, index, city_label = names.city(str(action["city"]))
            key = f"{hex_id}:{index}"
            token_labels[key] = (hex_id, index, city_label)
            if kind == "buy_token":
                _add_token_purchase(names, tokens.setdefault(key, []), action)
                continue
            tokens.setdefault(key, []).append(Choice(kind, names.label(action), action, "token"))
            continue
        if kind == "run_routes":
            routes = _routes(names, action)
            continue
        about, short = names.row_label(action)
        group = GROUP_OF.get(kind, "other")
        if kind == "choose" and names.answers_tokens(action):
            group = "tokens"
        low = _price_min(names, action)
        high = None
        if kind == "bid" and low is not None:
            space = names.look.price_space(action)
            high = space[1] if space is not None else None
        buttons.append(
            Choice(
                kind,
                names.label(action),
                action,
                group,
                low,
                price_max=high,
                about=about,
                short=short,
            )
        )
    return Choices(
        acting=acting,
        buttons=tuple(_merge_prices(names, buttons)),
        lays={hid: _hex_lays(names, hid, found) for hid, found in lays.items()},
        tokens={
            key: CityTokens(key, *token_labels[key], tuple(found)) for key, found in tokens.items()
        },
        routes=routes,
        question=_question_text(names, listed),
    )


def _add_token_purchase(names: Labeller, found: list[Choice], action: Action) -> None:
    """One form per token another corporation sells (1841 rules 2.5, token acquisition): the
    engine lists it at its least and greatest price (L.1 and the buyer's cash); the page
    shows one price field over the range the live gate allows, starting at the least."""
    slot = (action.get("entity"), action.get("city"), action.get("slot"))
    for i, known in enumerate(found):
        if (known.action.get("entity"), known.action.get("city"), known.action.get("slot")) == slot:
            found[i] = dataclasses.replace(known, also=(*known.also, action))
            return
    space = names.look.price_space(action)
    low, high = space if space is not None else (None, None)
    if low is not None and low == high:
        low = high = None  # a fixed price: no amount to name
    found.append(Choice("buy_token", names.label(action), action, "token", low, price_max=high))


def _question_text(names: Labeller, listed: list[Action]) -> str:
    """What the question asked now asks, when the viewer may answer it (else "")."""
    asked = names.question()
    if asked is None or not any(asked.choice_for(a) is not None for a in listed):
        return ""
    return names.game.question_text(asked, names.narrator.lang)


def _merge_prices(names: Labeller, buttons: list[Choice]) -> list[Choice]:
    """One form per private or train whose price the player names: the engine lists such a
    purchase at its least and its greatest price (L.1 and the face value); the page shows
    one price field from the least to the greatest, starting at the face value (a private's
    face value, a train's greatest listed price), never at L.1."""
    out: list[Choice] = []
    merged: dict[tuple[str, str, str], int] = {}
    for choice in buttons:
        action = choice.action
        what = action.get("company") if choice.kind == "buy_company" else action.get("train")
        if choice.price_min is None or choice.kind not in ("buy_company", "buy_train"):
            out.append(choice)
            continue
        key = (choice.kind, str(action.get("entity")), str(what))
        if key not in merged:
            merged[key] = len(out)
            out.append(choice)
            continue
        first = out[merged[key]]
        group = sorted((first.action, *first.also, action), key=lambda a: integer(a, "price"))
        out[merged[key]] = Choice(
            first.kind,
            first.label,
            group[0],
            first.group,
            integer(group[0], "price"),
            price_max=integer(group[-1], "price"),
            also=tuple(group[1:]),
        )
    return [_priced(names, c) if c.also else c for c in out]


def _priced(names: Labeller, choice: Choice) -> Choice:
    """A merged purchase's label and starting amount."""
    low, high = choice.price_min or 0, choice.price_max or 0
    start = high
    label = choice.label
    if choice.kind == "buy_company":
        sym = str(choice.action.get("company"))
        face = next((c.value for c in names.look.companies() if c.sym == sym), high)
        start = min(max(face, low), high)
        label = names.word(
            "buy_private",
            company=names.entity_name("company", sym),
            low=names.money(low),
            high=names.money(high),
        )
    return dataclasses.replace(choice, label=label, price_default=start)


def _lays(game: Game, mine: Callable[[Action], bool]) -> dict[str, list[Action]]:
    """Hex -> its legal lay_tile actions (of the allowed entities), in ``lay_hexes`` order."""
    out: dict[str, list[Action]] = {}
    for hex_id in game.lay_hexes():
        found = [a for a in game.legal_actions(hex_id) if a["type"] == "lay_tile" and mine(a)]
        if found:
            out[hex_id] = found
    return out


def hex_lays(
    game: Game, hex_id: str, lang: str = "en", allowed: Callable[[Action], bool] | None = None
) -> HexLays | None:
    """The tile lays on one hex of the entities ``allowed`` lets through (as
    :func:`build_choices` finds them, asking only this hex); None when none is legal there."""
    if game.finished or hex_id not in game.lay_hexes():
        return None
    mine = allowed or (lambda action: True)
    found = [a for a in game.legal_actions(hex_id) if a["type"] == "lay_tile" and mine(a)]
    return _hex_lays(Labeller(game, lang), hex_id, found) if found else None


def _hex_lays(names: Labeller, hex_id: str, actions: list[Action]) -> HexLays:
    """One hex's lays: per tile (in listed order) its rotations, each with its action."""
    by_tile: dict[str, dict[int, Action]] = {}
    for action in actions:
        by_tile.setdefault(str(action["tile"]), {})[integer(action, "rotation")] = action
    tiles = tuple(
        TileChoice(tile, tile_name(tile), dict(sorted(rotations.items())))
        for tile, rotations in by_tile.items()
    )
    return HexLays(hex_id, names.narrator.hex(hex_id), tiles)


def _routes(names: Labeller, action: Action) -> RouteOffer:
    """The listed run: its routes (the engine's best) and their total revenue."""
    routes = tuple(objects_at(action, "routes"))
    revenue = sum(optional_integer(r, "revenue") or 0 for r in routes)
    if routes:
        label = names.word("run_routes", revenue=names.money(revenue))
    else:
        label = names.word("no_routes")
    choice = Choice("run_routes", label, action, "routes")
    return RouteOffer(str(action.get("entity")), revenue, routes, choice)


def _price_min(names: Labeller, action: Action) -> int | None:
    """The least price of an amount the player names: a bid, a private's purchase, a train
    bought from another corporation (common rules §6.7; the live gate checks the range)."""
    price = action.get("price")
    if not isinstance(price, int):
        return None
    kind = action.get("type")
    if kind == "bid":
        space = names.look.price_space(action)
        if space is not None and space[0] == space[1]:
            return None  # a fixed price (1835's start items): no amount to name
        return space[0] if space is not None else price
    if kind in OPEN_PRICE:
        return price
    if kind == "buy_train" and names.train_source(str(action.get("train", "")))[1]:
        return price
    return None
