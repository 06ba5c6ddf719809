"""An engine action written as an order of the order language, in English or German.

The GM's replies say "understood as ..." with this text, so a player sees exactly what will
be done in the words he would write himself; and every phrase reads back (``parse_order`` and
``understand``) to the same action, which the tests use to play whole games through orders.
"""

from __future__ import annotations

from stellwerk.api import Choice, Game
from stellwerk.core.jsondata import JSONObject, first_text, list_at, objects_at, optional_integer
from stellwerk.gm.look import legal, question
from stellwerk.gm.understand import (
    BANKRUPT_WORDS,
    blind_items,
    city_number,
    city_place,
    share_source,
    tile_name,
    token_owner,
    train_owner,
)

Action = JSONObject

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "pass": "pass", "bid": "bid {price} on {target}", "bids": "bids {pairs}",
        "par": "par {target} at {price}", "buy": "buy {target} from {source}",
        "sell": "sell {count} {target}", "lay": "lay {tile} on {hex} rotation {rotation}",
        "token": "token {hex} city {city}", "run": "run {routes}", "best": "run best",
        "with": "with", "payout": "payout", "withhold": "withhold", "half": "half",
        "train": "buy train {train}", "train_from": "buy train {train} from {source} for {price}",
        "company": "buy private {target} for {price}", "choose": "choose {choice}",
        "bankrupt": "bankrupt", "resign": "bankrupt resign", "loan": "bankrupt loan",
        "tokens": "buy {count} tokens", "no_tokens": "buy no tokens", "cash": "take cash",
        "full": "take shares", "pres": "take presidency", "yes": "yes", "no": "no",
        "take": "take {target}", "first": "take lower price", "last": "take higher price",
        "merge_with": "merge with {target}", "merge_into": "merge into {target}",
        "transform": "transform into {target}", "remove": "remove token {hex} city {city}",
        "buy_token": "buy token {hex} city {city} from {seller} for {price}",
        "discard": "discard {train}", "assign": "assign {target}", "pay_debt": "pay debt",
        "issue_bond": "issue bond", "repay_bond": "repay bond", "form": "form PR",
        "fold_in": "exchange", "decline": "decline", "lower_price": "lower the price",
    },
    "de": {
        "pass": "passe", "bid": "biete {price} auf {target}", "bids": "gebote {pairs}",
        "par": "gründe {target} zu {price}", "buy": "kaufe {target} aus {source}",
        "sell": "verkaufe {count} {target}", "lay": "lege {tile} auf {hex} drehung {rotation}",
        "token": "marke {hex} stadt {city}", "run": "fahre {routes}", "best": "fahre optimal",
        "with": "mit", "payout": "ausschütten", "withhold": "einbehalten", "half": "halb",
        "train": "kaufe zug {train}", "train_from": "kaufe zug {train} von {source} für {price}",
        "company": "kaufe privat {target} für {price}", "choose": "wähle {choice}",
        "bankrupt": "bankrott", "resign": "bankrott aufgeben", "loan": "bankrott kredit",
        "tokens": "kaufe {count} marken", "no_tokens": "kaufe keine marken", "cash": "nimm geld",
        "full": "nimm aktien", "pres": "nimm direktor", "yes": "ja", "no": "nein",
        "take": "nimm {target}", "first": "nimm niedrigeren kurs", "last": "nimm hoeheren kurs",
        "merge_with": "fusioniere mit {target}", "merge_into": "fusioniere zu {target}",
        "transform": "wandle in {target} um", "remove": "entferne marke {hex} stadt {city}",
        "buy_token": "kaufe marke {hex} stadt {city} von {seller} für {price}",
        "discard": "wirf {train} ab", "assign": "weise {target} zu", "pay_debt": "zahle schulden",
        "issue_bond": "gib anleihe aus", "repay_bond": "zahle anleihe zurück",
        "form": "bilde PR", "fold_in": "tausche", "decline": "lehne ab",
        "lower_price": "senke den kurs",
    },
}  # fmt: skip


def order_text(game: Game, action: Action, lang: str = "en", best: bool = False) -> str:
    """The order that means ``action`` in the position of ``game`` (before the action).
    ``best``: write a run of the listed best routes as ``run best``."""
    words = WORDS.get(lang, WORDS["en"])
    kind = action.get("type")
    entity = action.get("entity")
    corp_prefix = f"{entity}: " if action.get("entity_type") in ("corporation", "company") else ""
    text: str
    if kind == "pass":
        text = words["pass"]
    elif kind == "bid":
        target = action.get("company") or action.get("corporation")
        text = words["bid"].format(price=action.get("price"), target=target)
    elif kind == "blind_bid":
        items = blind_items(game)
        bids = list_at(action, "bids")
        pairs = [f"{items[i]}={b}" for i, b in enumerate(bids) if b and i < len(items)]
        text = words["bids"].format(pairs=" ".join(pairs or [f"{items[0]}=0"]))
    elif kind == "par":
        price = str(action.get("share_price", "")).split(",")[0]
        text = words["par"].format(target=action.get("corporation"), price=price)
    elif kind == "buy_shares":
        share = first_text(action, "shares")
        source = share_source(game, share)
        text = words["buy"].format(target=share.rpartition("_")[0], source=source)
        percents = {
            a.get("percent") for a in legal(game)
            if a.get("type") == "buy_shares" and a.get("entity") == entity and a.get("shares")
            and first_text(a, "shares").rpartition("_")[0] == share.rpartition("_")[0]
            and share_source(game, first_text(a, "shares")) == source
        }  # fmt: skip
        if len(percents) > 1:
            text += f" {action.get('percent')}%"
    elif kind == "sell_shares":
        target = first_text(action, "shares").rpartition("_")[0]
        text = words["sell"].format(count=len(list_at(action, "shares")) or 1, target=target)
        if _sales_differ(game, action, target):
            text += f" {action.get('percent')}%"
    elif kind == "lay_tile":
        text = words["lay"].format(
            tile=tile_name(str(action.get("tile"))), hex=action.get("hex"),
            rotation=action.get("rotation"),
        )  # fmt: skip
    elif kind == "place_token":
        hex_id, _ = city_place(game, str(action.get("city")))
        text = words["token"].format(hex=hex_id, city=city_number(str(action.get("city"))))
    elif kind == "run_routes":
        text = words["best"] if best else _routes(action, words)
    elif kind == "dividend":
        text = words.get(str(action.get("kind")), str(action.get("kind")))
    elif kind == "buy_train":
        train = str(action.get("train"))
        owner = train_owner(game, train)
        if owner == "depot":
            text = words["train"].format(train=tile_name(train))
        else:
            text = words["train_from"].format(
                train=tile_name(train), source=owner, price=action.get("price")
            )
    elif kind == "buy_company":
        text = words["company"].format(target=action.get("company"), price=action.get("price"))
    elif kind == "choose":
        text = _choice(game, action, words)
    elif kind == "bankrupt":
        text = words["bankrupt"]
        options = {a.get("option") for a in legal(game)
                   if a.get("type") == "bankrupt" and a.get("entity") == entity}  # fmt: skip
        if len(options) > 1:
            text = words.get(BANKRUPT_WORDS.get(optional_integer(action, "option") or 0, ""), text)
    elif kind == "merge":
        target = str(action.get("corporation"))
        view = game.view
        corp = view.corporation(target)
        form = "merge_with" if corp is not None and corp.started else "merge_into"
        if form == "merge_into" and "transform" in str(view.step().description or "").lower():
            form = "transform"
        text = words[form].format(target=target)
    elif kind == "remove_token":
        hex_id, _ = city_place(game, str(action.get("city")))
        text = words["remove"].format(hex=hex_id, city=city_number(str(action.get("city"))))
    elif kind == "buy_token":
        city = str(action.get("city"))
        hex_id, _ = city_place(game, city)
        seller = token_owner(game, city, optional_integer(action, "slot") or 0)
        text = words["buy_token"].format(hex=hex_id, city=city_number(city), seller=seller,
                                         price=action.get("price"))  # fmt: skip
    elif kind == "discard_train":
        text = words["discard"].format(train=tile_name(str(action.get("train"))))
    elif kind == "assign":
        text = words["assign"].format(target=action.get("target"))
    elif kind == "payoff_debt":
        text = words["pay_debt"]
    elif kind == "take_loan":
        text = words["issue_bond"]
    elif kind == "payoff_loan":
        text = words["repay_bond"]
    else:
        text = str(kind)
    return corp_prefix + text


def _choice(game: Game, action: Action, words: dict[str, str]) -> str:
    """A ``choose`` (or a pass answering a question) as the order that gives it, from what
    the answer does (``Game.question``: the choice's kind and facts): a number of tokens,
    take cash / shares / presidency, yes / no, the share of a named corporation, the lower
    or higher price, form PR / exchange / decline, lower the price; else ``choose VALUE``."""
    choice = action.get("choice")
    found = answer_of(game, action)
    kind = found.kind if found is not None else ""
    if kind in ORDER_OF_KIND:
        return words[ORDER_OF_KIND[kind]]
    if kind in ("buy_tokens", "buy_tokens_total"):
        return words["tokens"].format(count=found.fact("count") if found else choice)
    if kind in ("take_presidency_of", "exchange_for") and found is not None:
        return words["take"].format(target=found.fact("corporation"))
    if kind == "merger_price" and choice in ("first", "last"):
        return words[str(choice)]
    if kind == "exchange_shares" and choice in ("cash", "full"):
        return words[str(choice)]
    return words["choose"].format(choice=choice)


ORDER_OF_KIND = {
    "buy_no_tokens": "no_tokens", "take_cash": "cash", "take_full_share": "full",
    "take_presidency": "pres", "decline_presidency": "no", "buy_share": "yes",
    "decline_share": "no", "offer_again": "yes", "end_offers": "no", "form": "form",
    "fold_in": "fold_in", "decline_formation": "decline", "keep_paper": "decline",
    "lower_price": "lower_price",
}  # fmt: skip
"""The order (a key of :data:`WORDS`) that gives an answer of each kind."""


def answer_of(game: Game, action: Action) -> Choice | None:
    """The answer of the question asked now that ``action`` is (``Game.question``), asked
    once per position (``look.question``); None for an ordinary move."""
    asked = question(game)
    return asked.choice_for(action) if asked is not None else None


def meaning_text(game: Game, action: Action, lang: str = "en") -> str:
    """What an answer to the question asked now does, in the title's sentence
    (``Game.choice_text``: "Buy 3 station tokens for L.150 (L.50 each)"); "" for an
    ordinary move."""
    found = answer_of(game, action)
    return game.choice_text(found, lang) if found is not None else ""


def _sales_differ(game: Game, action: Action, target: str) -> bool:
    """Whether sales of as many certificates of ``target`` differ in percent now."""
    count = len(list_at(action, "shares"))
    percents = {
        a.get("percent") for a in legal(game)
        if a.get("type") == "sell_shares" and len(list_at(a, "shares")) == count
        and first_text(a, "shares").rpartition("_")[0] == target
    }  # fmt: skip
    return len(percents) > 1


def _routes(action: Action, words: dict[str, str]) -> str:
    parts = []
    for route in objects_at(action, "routes"):
        stops = "-".join(str(h) for h in list_at(route, "hexes"))
        parts.append(f"{stops} {words['with']} {tile_name(str(route.get('train')))}")
    return words["run"].format(routes="; ".join(parts)) if parts else words["best"]


def run_note(action: Action, lang: str) -> str:
    """A run's routes and revenue, for the reply to ``run best``."""
    routes = objects_at(action, "routes")
    total = sum(optional_integer(r, "revenue") or 0 for r in routes)
    stops = "; ".join(
        f"{tile_name(str(r.get('train')))} {r.get('revenue_str') or '-'} ({r.get('revenue')})"
        for r in routes
    )
    word = "Ertrag" if lang == "de" else "revenue"
    return f"{stops}, {word} {total}" if stops else f"{word} 0"
