"""Understanding an order: which engine action it means now.

The rules are never re-implemented here: every order is matched against what
``stellwerk.api.Game.legal_actions()`` lists for the sender now (tile lays asked hex by hex,
``legal_actions(hex_id=...)``), or, where the list describes a space (a bid's amount, a price),
the named value is put into the listed action and the engine's live gate checks it when the
action is processed.  An order that matches nothing is refused with the reason; an order that
matches several different actions (two tiles fit, two rotations, two sources) is refused naming
the choices, since the GM must not guess.

Who may order what: a player orders for himself and for the corporations he presides
(``SYM:`` prefix, or none in an operating turn: the operating corporation of his).  Symbols
are read without regard to case and matched to the game's spelling (1841's ``SFLi``).

1841's procedure questions (rules/1841.md 5.4) are ``choose`` actions whose values the
question's topic explains (``look.asked``): ``take cash`` is ``cash``, ``take shares`` a
merger's ``full`` (or an offered share's ``yes``), ``take presidency`` ``pres``, ``take lower
price`` ``first``, ``take SB`` the secession's ``a`` when SB is its first new corporation,
``yes``/``no`` an offer's ``yes``/``y``/``no``/``n``, ``buy 2 tokens`` the number 2.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from stellwerk.api import Game
from stellwerk.core.entities import EntityId, PlayerId
from stellwerk.core.jsondata import JSONObject, JSONValue, first_text, list_at, optional_integer
from stellwerk.gm import orders as o
from stellwerk.gm.look import asked, hexes, legal
from stellwerk.gm.mail import fold
from stellwerk.gm.orders import normalise

Action = JSONObject

PLAYER_KINDS: dict[type[o.Order], tuple[str, ...]] = {
    o.Bid: ("bid",),
    o.SealedBids: ("blind_bid",),
    o.Par: ("par",),
    o.Buy: ("buy_shares",),
    o.Sell: ("sell_shares",),
    o.PayDebt: ("payoff_debt",),
}
"""Orders a player gives for himself, and the action types they become."""

CORP_KINDS: dict[type[o.Order], tuple[str, ...]] = {
    o.Lay: ("lay_tile",),
    o.Token: ("place_token",),
    o.Run: ("run_routes",),
    o.Dividend: ("dividend",),
    o.BuyTrain: ("buy_train",),
    o.Merge: ("merge",),
    o.BuyToken: ("buy_token",),
    o.IssueBond: ("take_loan",),
    o.RepayBond: ("payoff_loan",),
}
"""Orders for a corporation's operating turn, and the action types they become."""

EITHER_KINDS: dict[type[o.Order], tuple[str, ...]] = {
    o.Pass: ("pass",),
    o.Take: ("choose",),
    o.Choose: ("choose",),
    o.Bankrupt: ("bankrupt",),
    o.BuyCompany: ("buy_company",),
    o.Answer: ("choose",),
    o.TokenCount: ("choose",),
    o.RemoveToken: ("remove_token",),
    o.KeepTokens: ("pass",),
    o.Discard: ("discard_train",),
    o.Assign: ("assign",),
    o.Formation: ("choose",),
    o.PriceDown: ("choose",),
}
"""Orders for whoever of the sender's entities decides now."""

CASH_CHOICES = ("cash", "no", "n", "decline", "money", "geld", "0")
"""``choose`` answers that mean "take the cash, not the share" (merger, exchange, swap)."""
SHARE_CHOICES = ("shares", "share", "full", "yes", "y", "exchange", "form", "fold_in")
"""``choose`` answers that mean "take the share" (1841's ``full``: pay half the price for a
whole share instead of the cash, rules/1841.md 2.3.11)."""
PRESIDENT_CHOICES = ("pres", "president")
"""``choose`` answers that mean "take the president's certificate" (1841 mergers)."""
PRICE_CHOICES = {"lower": "first", "higher": "last"}
"""A merger's price choice: 18xx.games' ``first`` is the lower, ``last`` the higher price
(rules/1841.md 5.4)."""
YES_CHOICES = ("yes", "y")
NO_CHOICES = ("no", "n")


class Refused(Exception):
    """An order that cannot be carried out now; ``reason`` says why (naming the rule or the
    choices)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Understood:
    """An order turned into the action to send."""

    action: Action
    entity: EntityId


def kinds_of(order: o.Order) -> tuple[str, ...]:
    """The action types an order may become."""
    for table in (PLAYER_KINDS, CORP_KINDS, EITHER_KINDS):
        if type(order) in table:
            return table[type(order)]
    return ()


def is_corp_order(order: o.Order) -> bool:
    """An order of a corporation's operating turn (a company bought by a named corporation
    too; a player buys one in 1841's stock round)."""
    return type(order) in CORP_KINDS or (isinstance(order, o.BuyCompany) and order.corp is not None)


def player_of(game: Game, entity: EntityId | None) -> PlayerId | None:
    """The player who decides for ``entity`` (a player id, a corporation or company symbol):
    the player himself, a corporation's president, a company's owner (or its owner's
    president); None when nobody does (a corporation in receivership, or one whose chain of
    control loops) (``api.Game.decider_of``)."""
    return game.decider_of(entity)


def symbol(game: Game, name: str) -> str:
    """The corporation's symbol as the game spells it (orders are read in upper case, and
    symbols such as 1841's ``SFLi`` are not); ``name`` when no corporation has it."""
    for sym in game.symbols():
        if sym.upper() == name.upper():
            return sym
    return name


def company_owner(game: Game, entity: EntityId) -> str:
    """The symbol of the corporation owning the company ``entity``; '' when ``entity`` is no
    company or no corporation owns it."""
    owner = game.company_owner(str(entity))
    return owner if isinstance(owner, str) else ""


def addresses(game: Game, player: PlayerId, order: o.Order, entity: EntityId) -> bool:
    """Whether ``order`` is meant for a decision of ``entity`` (one of the player's).  An
    ``assign`` is the company's (1849's CNM), and may be prefixed with its own symbol or with
    its owning corporation's (``CNM: assign A5``, ``RCS: assign A5``)."""
    is_player = bool(entity == player)
    if order.corp is not None:
        if isinstance(order, o.Assign) and not is_player:  # "RCS: assign A5" for RCS's CNM
            return order.corp in (str(entity).upper(), company_owner(game, entity).upper())
        return not is_player and str(entity).upper() == order.corp
    if type(order) in PLAYER_KINDS:
        return is_player
    if type(order) in CORP_KINDS:
        return not is_player
    if isinstance(order, o.Pass):
        return is_player  # a corporation's pass is written "ATA: pass"
    return True


def fits(game: Game, player: PlayerId, order: o.Order, entity: EntityId) -> bool:
    """Whether ``order`` answers the decision ``entity`` faces now: it is addressed to it and
    its action type is listed for it (a lay: some hex may take a tile)."""
    if not addresses(game, player, order, entity):
        return False
    kinds = set(kinds_of(order))
    listed = {a["type"] for a in legal(game) if a.get("entity") == entity}
    if "lay_tile" in kinds and hexes(game) and _operating(game) == entity:
        return True
    if isinstance(order, o.KeepTokens):
        return "remove_token" in listed and "pass" in listed
    return bool(kinds & listed)


def _operating(game: Game) -> str | None:
    """The symbol of the corporation operating now (None outside an operating turn)."""
    return game.operating


def understand(game: Game, player: PlayerId, order: o.Order, entity: EntityId) -> Understood:
    """The action ``order`` means for ``entity`` now; ``Refused`` when it means none or
    several."""
    if order.corp is not None and player_of(game, symbol(game, order.corp)) != player:
        raise Refused(f"you do not preside {symbol(game, order.corp)}")
    listed = [a for a in legal(game) if a.get("entity") == entity]
    handler = HANDLERS.get(type(order))
    if handler is None:
        raise Refused("this is a standing order, not an order for a decision")
    action = handler(game, order, listed)
    return Understood(action, entity)


def _one(found: list[Action], what: str, label: Callable[[Action], object] | None = None) -> Action:
    """The single action of ``found`` (duplicates removed); refused when none or several."""
    unique: list[Action] = []
    for action in found:
        if action not in unique:
            unique.append(action)
    if not unique:
        raise Refused(what)
    if len(unique) > 1:
        names = ", ".join(str(label(a)) if label else str(a) for a in unique)
        raise Refused(f"ambiguous: it fits {len(unique)} choices ({names}); name one")
    return dict(unique[0])


def _of_type(listed: Iterable[Action], kind: str) -> list[Action]:
    return [a for a in listed if a.get("type") == kind]


def _pass(game: Game, order: o.Order, listed: list[Action]) -> Action:
    return _one(_of_type(listed, "pass"), "there is nothing to pass now")


def _bid(game: Game, order: o.Order, listed: list[Action]) -> Action:
    assert isinstance(order, o.Bid)
    bids = [
        a for a in _of_type(listed, "bid")
        if str(a.get("company") or a.get("corporation") or "").upper() == order.target
    ]  # fmt: skip
    if not bids:
        open_ = sorted(
            {
                str(a.get("company") or a.get("corporation"))
                for a in listed
                if a.get("type") == "bid"
            }
        )
        where = f" (open: {', '.join(open_)})" if open_ else ""
        raise Refused(f"no bid on {order.target} is possible now{where}")
    action = dict(bids[0])
    action["price"] = order.amount
    return action


def blind_items(game: Game) -> list[str]:
    """The items of a sealed-bid auction in the order of the ``bids`` list."""
    sealed = game.view.sealed_bids()
    return [str(i.item.key).upper() for i in sealed.items] if sealed is not None else []


def _sealed(game: Game, order: o.Order, listed: list[Action]) -> Action:
    assert isinstance(order, o.SealedBids)
    offered = _of_type(listed, "blind_bid")
    if not offered:
        raise Refused("no sealed bids are asked for now")
    items = blind_items(game)
    bids: list[JSONValue] = [0] * len(list_at(offered[0], "bids"))
    for name, amount in order.bids:
        if name not in items:
            raise Refused(f"{name} is not for sale here (items: {', '.join(items)})")
        bids[items.index(name)] = amount
    return {**offered[0], "bids": bids}


def _par(game: Game, order: o.Order, listed: list[Action]) -> Action:
    assert isinstance(order, o.Par)
    pars = [a for a in _of_type(listed, "par") if str(a.get("corporation")).upper() == order.target]
    if not pars:
        raise Refused(f"{order.target} cannot be started now")
    at = [a for a in pars if str(a.get("share_price", "")).split(",")[0] == str(order.price)]
    prices = sorted({int(str(a["share_price"]).split(",")[0]) for a in pars})
    if not at:
        raise Refused(
            f"{order.target} cannot be started at {order.price} (possible: "
            f"{', '.join(map(str, prices))})"
        )
    return _one(at, "", lambda a: a["share_price"])


def share_source(game: Game, share_id: str) -> str:
    """Where a certificate is: ``ipo`` (its own treasury), ``pool``, a corporation symbol or
    a player name."""
    share = game.view.certificate(share_id)
    holder = share.holder
    if holder is None:
        return ""
    if holder.kind == "corporation":
        return "ipo" if holder.key == share.corporation else str(holder.key)
    if holder.kind == "player":
        return holder.name
    return holder.kind


IPO_WORDS = {"ipo", "bank", "treasury", "erstausgabe", "emission", "start", "kasse"}
POOL_WORDS = {"pool", "market", "markt", "bankpool", "bank pool"}


def _source_matches(game: Game, source: str, wanted: str) -> bool:
    wanted = normalise(wanted)
    if wanted in IPO_WORDS:
        return source == "ipo"
    if wanted in POOL_WORDS:
        return source == "pool"
    return normalise(source) == wanted or fold(source) == fold(wanted)


def _buy(game: Game, order: o.Order, listed: list[Action]) -> Action:
    assert isinstance(order, o.Buy)
    buys = [
        a for a in _of_type(listed, "buy_shares")
        if first_text(a, "shares").rpartition("_")[0].upper() == order.target
    ]  # fmt: skip
    if not buys:
        if symbol(game, order.target) not in game.symbols():
            raise Refused(f"there is no corporation {order.target}")
        why = why_not(game, listed, symbol(game, order.target))
        raise Refused(f"no certificate of {order.target} can be bought now{why}")
    sourced = [(share_source(game, first_text(a, "shares")), a) for a in buys]
    if order.source is not None:
        chosen = [a for s, a in sourced if _source_matches(game, s, order.source)]
        if not chosen:
            names = ", ".join(sorted({s for s, _ in sourced}))
            raise Refused(f"no certificate of {order.target} from {order.source} (from: {names})")
    else:
        ipo = [a for s, a in sourced if s == "ipo"]
        chosen = ipo or [a for _, a in sourced]
    by_source = {share_source(game, first_text(a, "shares")): a for a in chosen}
    if len(by_source) > 1:
        raise Refused(
            f"ambiguous: {order.target} is for sale from {', '.join(by_source)}; write from ..."
        )
    if order.percent is not None:
        chosen = [a for a in chosen if a.get("percent") == order.percent]
        if not chosen:
            raise Refused(f"no {order.percent}% certificate of {order.target} is for sale there")
    by_percent = {a.get("percent"): a for a in chosen}
    return _one(list(by_percent.values()), "", lambda a: f"{a.get('percent')}%")


def why_not(game: Game, listed: list[Action], sym: str) -> str:
    """Why the deciding entity cannot buy a certificate of the corporation ``sym`` now,
    where the general limits tell (``Reader.buying_limits``; common rules: the certificate
    limit, the 60 % holding limit, the cash for the cheapest certificate); '' when none of
    them is the reason."""
    entity = listed[0]["entity"] if listed else None
    if not isinstance(entity, int | str) or isinstance(entity, bool):
        return ""
    limits = game.view.buying_limits(entity, sym)
    if limits is None:
        return ""
    name = limits.holder.name
    if not _of_type(listed, "buy_shares") and not _of_type(listed, "par"):
        return f": {name} is not to buy now"
    if not limits.within_limit:
        return f": the certificate limit ({limits.certificates} of {limits.certificate_limit} held)"
    if not limits.holding_allowed:
        return f": {name} holds {limits.percent}% of it, at most {limits.max_percent}% are allowed"
    price = limits.price or 0
    if price and limits.cash < price:  # a 10 % certificate at the corporation's price
        return f": {name} has {limits.cash}, the cheapest costs {price}"
    return ""
    return ""


def _sell(game: Game, order: o.Order, listed: list[Action]) -> Action:
    assert isinstance(order, o.Sell)
    sales = [
        a for a in _of_type(listed, "sell_shares")
        if first_text(a, "shares").rpartition("_")[0].upper() == order.target
    ]  # fmt: skip
    if not sales:
        if symbol(game, order.target) not in game.symbols():
            raise Refused(f"there is no corporation {order.target}")
        raise Refused(f"no certificate of {order.target} can be sold now")
    fitting = [a for a in sales if len(list_at(a, "shares")) == order.count]
    if not fitting:
        counts = sorted({len(list_at(a, "shares")) for a in sales})
        raise Refused(
            f"{order.count} of {order.target} cannot be sold now (possible: "
            f"{', '.join(map(str, counts))} certificates)"
        )
    if order.percent is not None:
        fitting = [a for a in fitting if a.get("percent") == order.percent]
        if not fitting:
            raise Refused(f"{order.count} of {order.target} make no {order.percent}% now")
    by_percent = {a.get("percent"): a for a in fitting}
    return _one(list(by_percent.values()), "", lambda a: f"{a.get('percent')}%")


def tile_name(tile_id: str) -> str:
    """A tile's name from its id (``57-0`` is a copy of tile ``57``)."""
    name, sep, copy = tile_id.rpartition("-")
    return name if sep and copy.isdigit() else tile_id


def board_hex(game: Game, name: str) -> str:
    """The id of the hex ``name`` as the map spells it (orders are read in upper case, and a
    few hex ids are not: 1849's port ``a12``, 1841's ``a4``); ``name`` when no hex has it."""
    for hex_id in game.board.hexes:
        if str(hex_id).upper() == name.upper():
            return str(hex_id)
    return name


def _lay(game: Game, order: o.Order, listed: list[Action]) -> Action:
    assert isinstance(order, o.Lay)
    entity = listed[0]["entity"] if listed else _operating(game)
    lays = [
        a for a in game.legal_actions(hex_id=board_hex(game, order.hex))
        if a.get("type") == "lay_tile" and a.get("entity") == entity
    ]  # fmt: skip
    if not lays:
        raise Refused(f"no tile can be laid on {order.hex} now")
    named = [a for a in lays if tile_name(str(a["tile"])).upper() == order.tile.upper()]
    if not named:
        tiles = sorted({tile_name(str(a["tile"])) for a in lays})
        raise Refused(f"tile {order.tile} does not fit on {order.hex} (fits: {', '.join(tiles)})")
    if order.rotation is not None:
        named = [a for a in named if a.get("rotation") == order.rotation]
        if not named:
            raise Refused(
                f"tile {order.tile} cannot be laid on {order.hex} in rotation {order.rotation}"
            )
    by_rotation = {a["rotation"]: a for a in named}
    return _one(list(by_rotation.values()), "", lambda a: f"rotation {a['rotation']}")


def city_hex(game: Game, city: str) -> str:
    """The hex of a city id (``<tile id>-<part>``) on the board now, in upper case as orders
    name hexes."""
    return str(city_place(game, city)[0]).upper()


def city_place(game: Game, city: str) -> tuple[str, int]:
    """(hex, city index on that hex) of a city id on the board now: the index counts the
    hex's cities only, which is not always 18xx.games' number (:func:`city_number`)."""
    hex_id, index = game.board.resolve_city(city)
    return str(hex_id), int(index)


def city_number(city: str) -> int:
    """18xx.games' number of a city on its hex: the last part of its city id (``H12-0-1`` is
    city 1 of 1849's printed Catania, its only city; ``57-0-0`` city 0).  Orders name cities
    by it (``token H12 city 1``)."""
    return int(city.rpartition("-")[2])


def _in_city(
    game: Game, order: o.Token | o.RemoveToken | o.BuyToken, here: list[Action], doing: str
) -> list[Action]:
    """The actions of ``here`` (all on ``order.hex``) in the city the order names: by 18xx.games'
    number or by the whole city id (without regard to case); all of them when it names none.
    Refused naming the hex's cities when none is that city."""
    if order.city is None and order.city_id is None:
        return here
    if order.city_id is not None:
        found = [a for a in here if str(a["city"]).casefold() == order.city_id.casefold()]
        named = order.city_id
    else:
        found = [a for a in here if city_number(str(a["city"])) == order.city]
        named = str(order.city)
    if not found:
        cities = sorted({f"{city_number(str(a['city']))} = {a['city']}" for a in here})
        raise Refused(
            f"no token can be {doing} in city {named} of {order.hex} "
            f"(possible: {', '.join(cities)})"
        )
    return found


def _token(game: Game, order: o.Order, listed: list[Action]) -> Action:
    assert isinstance(order, o.Token)
    tokens = _of_type(listed, "place_token")
    if not tokens:
        raise Refused("no token can be placed now")
    here = [a for a in tokens if city_hex(game, str(a["city"])) == order.hex]
    if not here:
        hexes = sorted({city_hex(game, str(a["city"])) for a in tokens})
        raise Refused(f"no token can be placed on {order.hex} (possible: {', '.join(hexes)})")
    here = _in_city(game, order, here, "placed")
    by_city = {a["city"]: a for a in here}
    return _one(list(by_city.values()), "", lambda a: f"city {city_number(str(a['city']))}")


def _run(game: Game, order: o.Order, listed: list[Action]) -> Action:
    assert isinstance(order, o.Run)
    runs = _of_type(listed, "run_routes")
    if not runs:
        raise Refused("no train can run now")
    if order.best:
        return dict(runs[0])
    from stellwerk.gm.routefind import named_routes

    return {**runs[0], "routes": [*named_routes(game, str(runs[0]["entity"]), order.routes)]}


def _dividend(game: Game, order: o.Order, listed: list[Action]) -> Action:
    assert isinstance(order, o.Dividend)
    kinds = _of_type(listed, "dividend")
    if not kinds:
        raise Refused("no dividend is to be decided now")
    found = [a for a in kinds if a.get("kind") == order.kind]
    if not found:
        offered = ", ".join(str(a.get("kind")) for a in kinds)
        raise Refused(f"{order.kind} is not allowed now (allowed: {offered})")
    return dict(found[0])


def _buy_train(game: Game, order: o.Order, listed: list[Action]) -> Action:
    assert isinstance(order, o.BuyTrain)
    offers = _of_type(listed, "buy_train")
    named = [a for a in offers if tile_name(str(a["train"])).upper() == order.train.upper()]
    if not named:
        names = sorted({tile_name(str(a["train"])) for a in offers})
        raise Refused(
            f"no {order.train} train can be bought now"
            + (f" (offered: {', '.join(names)})" if names else "")
        )
    owners = {a["train"]: train_owner(game, str(a["train"])) for a in named}
    if order.source is not None and normalise(order.source) not in {"depot", "bank", "ipo"}:
        named = [a for a in named if owners[a["train"]].upper() == order.source.upper()]
        if not named:
            raise Refused(f"{order.source} has no {order.train} train for sale")
    else:
        depot = [a for a in named if owners[a["train"]] == "depot"]
        if order.source is not None or depot:
            named = depot
        if not named:
            raise Refused(f"the depot has no {order.train} train for sale")
    by_owner = {owners[a["train"]]: a for a in named}
    action = _one(list(by_owner.values()), "", lambda a: owners[a["train"]])
    if order.price is not None:
        action["price"] = order.price
    elif owners[action["train"]] != "depot":
        raise Refused(f"name the price for {owners[action['train']]}'s train: for 200")
    return action


def train_owner(game: Game, train_id: str) -> str:
    """``depot`` or the owning corporation's symbol."""
    owner = game.view.train(train_id).owner
    return str(owner.key) if owner is not None and owner.kind == "corporation" else "depot"


def _buy_company(game: Game, order: o.Order, listed: list[Action]) -> Action:
    assert isinstance(order, o.BuyCompany)
    found = [
        a for a in _of_type(listed, "buy_company") if str(a.get("company")).upper() == order.target
    ]
    if not found:
        raise Refused(f"{order.target} cannot be bought now")
    action = dict(found[0])
    if order.price is not None:
        action["price"] = order.price
    return action


def _take(game: Game, order: o.Order, listed: list[Action]) -> Action:
    """``take cash``, ``take shares``, ``take presidency``, ``take lower/higher price``, or
    ``take SYM``: the share of that corporation where an exchange offers two (the
    procedure's ``a``/``b``, ``look.asked``)."""
    assert isinstance(order, o.Take)
    if order.what == "cash":
        return _choose_by(listed, CASH_CHOICES, "take cash")
    if order.what == "shares":
        return _choose_by(listed, SHARE_CHOICES, "take shares")
    if order.what == "president":
        return _choose_by(listed, PRESIDENT_CHOICES, "take presidency")
    if order.what in PRICE_CHOICES:
        return _choose_by(listed, (PRICE_CHOICES[order.what],), f"take {order.what} price")
    question = asked(game)
    letters = question.names if question is not None else {}
    wanted = [k for k, sym in letters.items() if sym.upper() == order.what]
    return _choose_by(listed, [*wanted, normalise(order.what)], f"take {order.what}")


def _answer(game: Game, order: o.Order, listed: list[Action]) -> Action:
    assert isinstance(order, o.Answer)
    words = YES_CHOICES if order.yes else NO_CHOICES
    return _choose_by(listed, words, "yes" if order.yes else "no")


def _token_count(game: Game, order: o.Order, listed: list[Action]) -> Action:
    assert isinstance(order, o.TokenCount)
    chooses = _of_type(listed, "choose")
    counts = [a for a in chooses if isinstance(a.get("choice"), int)]
    if not counts:
        raise Refused("no tokens are to be bought now")
    found = [a for a in counts if a["choice"] == order.count]
    if not found:
        offered = ", ".join(str(a["choice"]) for a in counts)
        raise Refused(f"{order.count} tokens cannot be bought now (possible: {offered})")
    return dict(found[0])


def _merge(game: Game, order: o.Order, listed: list[Action]) -> Action:
    assert isinstance(order, o.Merge)
    merges = _of_type(listed, "merge")
    if not merges:
        raise Refused("no merger or transformation can be proposed now")
    found = [a for a in merges if str(a.get("corporation")).upper() == order.target]
    if not found:
        offered = ", ".join(str(a.get("corporation")) for a in merges)
        raise Refused(f"{order.target} is not one of the choices ({offered})")
    return dict(found[0])


def _remove_token(game: Game, order: o.Order, listed: list[Action]) -> Action:
    assert isinstance(order, o.RemoveToken)
    removals = _of_type(listed, "remove_token")
    if not removals:
        raise Refused("no token is to be removed now")
    here = [a for a in removals if city_hex(game, str(a["city"])) == order.hex]
    if not here:
        hexes_ = sorted({city_hex(game, str(a["city"])) for a in removals})
        raise Refused(f"no token can be removed on {order.hex} (possible: {', '.join(hexes_)})")
    here = _in_city(game, order, here, "removed")
    return _one(here, "", lambda a: f"city {city_number(str(a['city']))}")


def _keep_tokens(game: Game, order: o.Order, listed: list[Action]) -> Action:
    if not _of_type(listed, "remove_token"):
        raise Refused("no token is to be removed now")
    return _one(_of_type(listed, "pass"), "more tokens must be removed first")


def token_owner(game: Game, city: str, slot: int) -> str:
    """The corporation whose token is in ``slot`` of ``city`` now ('' when none)."""
    hex_id, index = city_place(game, city)
    tokens = game.board.hexes[hex_id].cities[index].tokens
    holder = tokens[slot] if 0 <= slot < len(tokens) else None
    return "" if holder is None else str(holder)


def _seller(game: Game, offer: Action) -> str:
    """The corporation whose token a ``buy_token`` offer names."""
    return token_owner(game, str(offer["city"]), optional_integer(offer, "slot") or 0)


def _buy_token(game: Game, order: o.Order, listed: list[Action]) -> Action:
    """A token bought from another corporation (rules/1841.md 2.5): the hex, optionally
    the city and the seller name it; the price, where the listing leaves a range, must be
    named (between the listed least and greatest), else the one listed price."""
    assert isinstance(order, o.BuyToken)
    offers = _of_type(listed, "buy_token")
    if not offers:
        raise Refused("no token can be bought now")
    here = [a for a in offers if city_hex(game, str(a["city"])) == order.hex]
    if not here:
        hexes_ = sorted({city_hex(game, str(a["city"])) for a in offers})
        raise Refused(f"no token can be bought on {order.hex} (possible: {', '.join(hexes_)})")
    here = _in_city(game, order, here, "bought")
    if order.seller is not None:
        here = [a for a in here if _seller(game, a).upper() == order.seller]
    if not here:
        raise Refused(f"no such token can be bought on {order.hex}")
    places = {(a["city"], a.get("slot")): a for a in here}
    action = _one(list(places.values()), "", lambda a: _seller(game, a))
    prices = sorted({price for a in here if (price := optional_integer(a, "price")) is not None})
    if order.price is not None:
        action["price"] = order.price
    elif len(prices) > 1:
        raise Refused(f"name the price: for {prices[0]} to {prices[-1]}")
    return action


def _choose_by(listed: list[Action], words: Iterable[str], what: str) -> Action:
    chooses = _of_type(listed, "choose")
    if not chooses:
        raise Refused("there is no choice to make now")
    for word in words:
        for action in chooses:
            text = normalise(str(action.get("choice")))
            if text == word or text.startswith(word + " ") or text.endswith(" " + word):
                return dict(action)
    offered = ", ".join(str(a.get("choice")) for a in chooses)
    raise Refused(f"{what} is not one of the choices ({offered})")


def _choose(game: Game, order: o.Order, listed: list[Action]) -> Action:
    assert isinstance(order, o.Choose)
    chooses = _of_type(listed, "choose")
    if not chooses:
        raise Refused("there is no choice to make now")
    exact = [a for a in chooses if normalise(str(a.get("choice"))) == order.choice]
    if exact:
        return dict(exact[0])
    starts = [a for a in chooses if normalise(str(a.get("choice"))).startswith(order.choice)]
    offered = ", ".join(str(a.get("choice")) for a in chooses)
    if not starts:
        raise Refused(f"{order.choice!r} is not one of the choices ({offered})")
    return _one(starts, "", lambda a: a.get("choice"))


def _bankrupt(game: Game, order: o.Order, listed: list[Action]) -> Action:
    assert isinstance(order, o.Bankrupt)
    offered = _of_type(listed, "bankrupt")
    if order.option is not None:
        offered = [a for a in offered if a.get("option") == order.option]
        if not offered:
            raise Refused("this bankruptcy option is not offered now")
    return _one(
        offered,
        "bankruptcy is not offered now",
        lambda a: "bankrupt " + BANKRUPT_WORDS.get(a.get("option"), str(a.get("option"))),
    )


def _discard(game: Game, order: o.Order, listed: list[Action]) -> Action:
    """A train given back over the train limit (common rules: the corporation chooses which;
    one listed ``discard_train`` per train name): the order names the train."""
    assert isinstance(order, o.Discard)
    offered = _of_type(listed, "discard_train")
    if not offered:
        raise Refused("no train is to be discarded now")
    named = [a for a in offered if tile_name(str(a["train"])).upper() == order.train.upper()
             or str(a["train"]).upper() == order.train.upper()]  # fmt: skip
    if not named:
        names = ", ".join(sorted({tile_name(str(a["train"])) for a in offered}))
        raise Refused(f"no {order.train} train can be discarded (trains: {names})")
    return _one(named, "", lambda a: a["train"])


def _assign(game: Game, order: o.Order, listed: list[Action]) -> Action:
    """A company's ability assigned to a hex or a corporation: the order names the target,
    matched to the listed targets without regard to case (1849's port ``a12``)."""
    assert isinstance(order, o.Assign)
    offered = _of_type(listed, "assign")
    if not offered:
        raise Refused("nothing can be assigned now")
    named = [a for a in offered if str(a.get("target")).upper() == order.target.upper()]
    if not named:
        targets = ", ".join(str(a.get("target")) for a in offered)
        raise Refused(f"{order.target} cannot be assigned to (possible: {targets})")
    return _one(named, "", lambda a: a.get("target"))


def _formation(game: Game, order: o.Order, listed: list[Action]) -> Action:
    """1835's Prussian formation (rules/1835.md 10): ``form PR`` is the choice ``form``,
    ``exchange`` ``fold_in``, ``decline`` ``decline``."""
    assert isinstance(order, o.Formation)
    words = {"form": "form PR", "fold_in": "exchange", "decline": "decline"}
    return _choose_by(listed, (order.what,), words[order.what])


def _price_down(game: Game, order: o.Order, listed: list[Action]) -> Action:
    """1835's optional price drop after a repeated sale (the choice ``lower_price``)."""
    return _choose_by(listed, ("lower_price",), "lower the price")


def _pay_debt(game: Game, order: o.Order, listed: list[Action]) -> Action:
    """The president pays his corporation's debt (1849 rules §7.4, ``payoff_debt``)."""
    return _one(_of_type(listed, "payoff_debt"), "there is no debt you can pay now")


def _issue_bond(game: Game, order: o.Order, listed: list[Action]) -> Action:
    """Issue the bond (1849 rules §7.4, ``take_loan``): offered in the turn's bond step."""
    return _one(_of_type(listed, "take_loan"), "no bond can be issued now")


def _repay_bond(game: Game, order: o.Order, listed: list[Action]) -> Action:
    """Repay the bond (1849 rules §7.4, ``payoff_loan``): offered in the turn's bond step."""
    return _one(_of_type(listed, "payoff_loan"), "no bond can be repaid now")


BANKRUPT_WORDS: dict[object, str] = {0: "resign", 1: "loan"}
"""18xx.games' bankruptcy options as the order language names them (rules/1841.md 2.6)."""


Handler = Callable[[Game, o.Order, list[Action]], Action]
"""Turns an order into the one listed action it means, or raises ``Refused``."""

HANDLERS: dict[type[o.Order], Handler] = {
    o.Pass: _pass,
    o.Bid: _bid,
    o.SealedBids: _sealed,
    o.Par: _par,
    o.Buy: _buy,
    o.Sell: _sell,
    o.Lay: _lay,
    o.Token: _token,
    o.Run: _run,
    o.Dividend: _dividend,
    o.BuyTrain: _buy_train,
    o.BuyCompany: _buy_company,
    o.Take: _take,
    o.Choose: _choose,
    o.Bankrupt: _bankrupt,
    o.Answer: _answer,
    o.TokenCount: _token_count,
    o.Merge: _merge,
    o.RemoveToken: _remove_token,
    o.KeepTokens: _keep_tokens,
    o.BuyToken: _buy_token,
    o.Discard: _discard,
    o.Assign: _assign,
    o.PayDebt: _pay_debt,
    o.Formation: _formation,
    o.PriceDown: _price_down,
    o.IssueBond: _issue_bond,
    o.RepayBond: _repay_bond,
}
