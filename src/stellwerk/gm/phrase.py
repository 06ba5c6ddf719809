"""An engine action written as an order of the order language, in English or German.

The GM's replies say "understood as ..." with this text, so a player sees exactly what will
be done in the words he would write himself; and every phrase reads back (``parse_order`` and
``understand``) to the same action, which the tests use to play whole games through orders.
"""

from __future__ import annotations

from typing import Any

from stellwerk.api import Game
from stellwerk.gm.look import legal
from stellwerk.gm.understand import blind_items, city_place, share_source, tile_name, train_owner

Action = dict[str, Any]

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "pass": "pass", "bid": "bid {price} on {target}", "bids": "bids {pairs}",
        "par": "par {target} at {price}", "buy": "buy {target} from {source}",
        "sell": "sell {count} {target}", "lay": "lay {tile} on {hex} rotation {rotation}",
        "token": "token {hex} city {city}", "run": "run {routes}", "best": "run best",
        "with": "with", "payout": "payout", "withhold": "withhold", "half": "half",
        "train": "buy train {train}", "train_from": "buy train {train} from {source} for {price}",
        "company": "buy private {target} for {price}", "choose": "choose {choice}",
        "bankrupt": "bankrupt",
    },
    "de": {
        "pass": "passe", "bid": "biete {price} auf {target}", "bids": "gebote {pairs}",
        "par": "gründe {target} zu {price}", "buy": "kaufe {target} aus {source}",
        "sell": "verkaufe {count} {target}", "lay": "lege {tile} auf {hex} drehung {rotation}",
        "token": "marke {hex} stadt {city}", "run": "fahre {routes}", "best": "fahre optimal",
        "with": "mit", "payout": "ausschütten", "withhold": "einbehalten", "half": "halb",
        "train": "kaufe zug {train}", "train_from": "kaufe zug {train} von {source} für {price}",
        "company": "kaufe privat {target} für {price}", "choose": "wähle {choice}",
        "bankrupt": "bankrott",
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
        bids = list(action.get("bids") or [])
        pairs = [f"{items[i]}={b}" for i, b in enumerate(bids) if b and i < len(items)]
        text = words["bids"].format(pairs=" ".join(pairs or [f"{items[0]}=0"]))
    elif kind == "par":
        price = str(action.get("share_price", "")).split(",")[0]
        text = words["par"].format(target=action.get("corporation"), price=price)
    elif kind == "buy_shares":
        share = str((action.get("shares") or [""])[0])
        text = words["buy"].format(
            target=share.rpartition("_")[0], source=share_source(game, share)
        )
    elif kind == "sell_shares":
        shares = action.get("shares") or [""]
        target = str(shares[0]).rpartition("_")[0]
        text = words["sell"].format(count=len(shares), target=target)
        if _sales_differ(game, action, target):
            text += f" {action.get('percent')}%"
    elif kind == "lay_tile":
        text = words["lay"].format(
            tile=tile_name(str(action.get("tile"))), hex=action.get("hex"),
            rotation=action.get("rotation"),
        )  # fmt: skip
    elif kind == "place_token":
        hex_id, index = city_place(game, str(action.get("city")))
        text = words["token"].format(hex=hex_id, city=index)
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
        text = words["choose"].format(choice=action.get("choice"))
    elif kind == "bankrupt":
        text = words["bankrupt"]
    else:
        text = str(kind)
    return corp_prefix + text


def _sales_differ(game: Game, action: Action, target: str) -> bool:
    """Whether sales of as many certificates of ``target`` differ in percent now."""
    count = len(action.get("shares") or [])
    percents = {
        a.get("percent") for a in legal(game)
        if a.get("type") == "sell_shares" and len(a.get("shares") or []) == count
        and str(a["shares"][0]).rpartition("_")[0] == target
    }  # fmt: skip
    return len(percents) > 1


def _routes(action: Action, words: dict[str, str]) -> str:
    parts = []
    for route in action.get("routes") or []:
        stops = "-".join(str(h) for h in route.get("hexes") or [])
        parts.append(f"{stops} {words['with']} {tile_name(str(route.get('train')))}")
    return words["run"].format(routes="; ".join(parts)) if parts else words["best"]


def run_note(action: Action, lang: str) -> str:
    """A run's routes and revenue, for the reply to ``run best``."""
    routes = action.get("routes") or []
    total = sum(int(r.get("revenue") or 0) for r in routes)
    stops = "; ".join(
        f"{tile_name(str(r.get('train')))} {r.get('revenue_str') or '-'} ({r.get('revenue')})"
        for r in routes
    )
    word = "Ertrag" if lang == "de" else "revenue"
    return f"{stops}, {word} {total}" if stops else f"{word} 0"
