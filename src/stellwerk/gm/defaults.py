"""Default orders for a player who missed the deadline.

The house rule of seed 003 (H15, rules/1841.md 6.7; the 1841 ``zugzwang`` preset): in mergers
and transformations take the cash, not the share; buy no tokens; keep as many tokens as
possible on the map, the GM's seeded, logged draw deciding which.  Where it is silent, one
documented default per decision kind (the issue's list), chosen among the legal actions:

* sealed bids: no bids (every bid 0); auctions: drop out (``pass``);
* stock round: ``pass``; when passing is not allowed (over the certificate limit, a forced
  sale), the smallest sale listed (fewest percent, then fewest certificates);
* operating round: no tile, no token (``pass``); the best routes (the listed run, which is
  the optimiser's); pay out (``payout`` when listed, else the first kind listed); trains only
  when compulsory, and then the cheapest depot train; failing that, the president's smallest
  forced sale, then the cheapest train another corporation of his offers, then bankruptcy;
* choices (``choose``): the cash answer when there is one (``take cash``; in 1841's merger
  exchanges ``cash``, rules/1841.md 2.3.11), else "no tokens" (a number of tokens to buy: the
  fewest the rules allow, 0 or a new corporation's required 2/1, rules/1841.md 2.2.3, 2.3.12,
  2.4.1), else a declining answer (``decline``, ``no``: no share bought in a transformation's
  or secession's offer, no further offer round, no president's certificate bought in a
  merger's first pass); the house rule applies to every game, since a GM of these groups
  would default so in any title;
* 1841's other questions: a merger or transformation is never proposed by default (the Merge
  and Transform steps' ``pass``); tokens bought from another corporation: none (``pass``);
  a merger's token removals: none beyond the least number the rules demand (``pass`` as soon
  as it is offered), the tokens that must go drawn by the GM; which new corporation's share
  an exchange gives (``a``/``b``) and a merger's price (``first``/``last``) are drawn too;
* anything else with ``pass`` listed: pass;
* otherwise (a choice among equals the rules leave to the player, e.g. which token to keep
  or where a home token goes): the GM's draw, seeded by the game's seed and the action count
  and written to the log with what was drawn from.

A default never buys what another player must agree to sell (``stellwerk.consent``: a train
of a corporation another player decides for, a private company of another player): the
printed rules have such trades "at a price both agree on", and the seller's silence is no
consent (``stellwerk.gm.offers``), so the absent player's default cannot take another
player's train at the least price.  Trades among the corporations one player decides for
stay open to it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from stellwerk.api import Game
from stellwerk.consent import consent_of
from stellwerk.core.entities import EntityId
from stellwerk.core.jsondata import (
    JSONObject,
    JSONValue,
    integer,
    list_at,
    optional_integer,
    optional_number,
)
from stellwerk.gm.look import legal
from stellwerk.gm.orders import normalise
from stellwerk.gm.understand import CASH_CHOICES, player_of, train_owner

Action = JSONObject

DECLINE_CHOICES = ("decline", "no", "n", "none", "keine", "nein", "lower_price")
NO_TOKENS = ("0",)


@dataclass(frozen=True)
class Default:
    """A default action and the note the report shows (e.g. the draw)."""

    action: Action
    note: str


def draw(game: Game, options: list[Action]) -> tuple[Action, str]:
    """The GM's seeded draw among equal choices: ``random.Random`` seeded with the game's
    seed and action count, so the same game draws the same; the note names the pool."""
    rng = random.Random(f"{game.seed}:{len(game.raw_actions)}")
    index = rng.randrange(len(options))
    return dict(options[index]), f"drawn {index + 1} of {len(options)} (seed {game.seed})"


def default_action(game: Game, entity: EntityId) -> Default | None:
    """The default for the decision ``entity`` faces now, or None when it has none listed."""
    buyer = player_of(game, entity)
    mine = [
        a for a in legal(game)
        if a.get("entity") == entity and consent_of(game, a, buyer) is None
    ]  # fmt: skip
    if not mine:
        return None
    by_type: dict[str, list[Action]] = {}
    for action in mine:
        by_type.setdefault(str(action["type"]), []).append(action)
    if "blind_bid" in by_type:
        offered = by_type["blind_bid"][0]
        no_bids: list[JSONValue] = [0] * len(list_at(offered, "bids"))
        return Default({**offered, "bids": no_bids}, "no bids")
    if "choose" in by_type:
        return _choose(game, by_type["choose"])
    if "run_routes" in by_type:
        return Default(dict(by_type["run_routes"][0]), "best routes")
    if "dividend" in by_type:
        kinds = by_type["dividend"]
        payout = [a for a in kinds if a.get("kind") == "payout"]
        return Default(dict((payout or kinds)[0]), "pay out")
    if "pass" in by_type:
        return Default(dict(by_type["pass"][0]), "pass")
    if "buy_train" in by_type:
        depot = [a for a in by_type["buy_train"] if train_owner(game, str(a["train"])) == "depot"]
        if depot:
            cheapest = min(depot, key=lambda a: optional_integer(a, "price") or 0)
            return Default(dict(cheapest), "compulsory train, the cheapest")
    sales = [
        a for a in legal(game)
        if a["type"] == "sell_shares" and a.get("entity") in (entity, player_of(game, entity))
    ]  # fmt: skip
    if sales and "pass" not in by_type:
        smallest = min(
            sales, key=lambda a: (optional_number(a, "percent") or 0, len(list_at(a, "shares")))
        )
        return Default(dict(smallest), "the smallest forced sale")
    if "buy_train" in by_type:
        cheapest = min(by_type["buy_train"], key=lambda a: optional_integer(a, "price") or 0)
        return Default(dict(cheapest), "compulsory train, the cheapest")
    if "bankrupt" in by_type:
        return Default(dict(by_type["bankrupt"][0]), "bankrupt: nothing else is possible")
    action, note = draw(game, [a for a in mine if a["type"] != "bankrupt"] or mine)
    return Default(action, note)


def _choose(game: Game, chooses: list[Action]) -> Default:
    counts = [
        a
        for a in chooses
        if isinstance(a.get("choice"), int) and not isinstance(a.get("choice"), bool)
    ]
    if counts and len(counts) == len(chooses):  # how many tokens: the fewest the rules allow
        fewest = min(counts, key=lambda a: integer(a, "choice"))
        note = (
            "buy no tokens (house rule)"
            if fewest["choice"] == 0
            else (f"buy no tokens beyond the {fewest['choice']} the rules require (house rule)")
        )
        return Default(dict(fewest), note)
    for words, note in (
        (CASH_CHOICES, "take the cash (house rule)"),
        (NO_TOKENS, "buy no tokens (house rule)"),
        (DECLINE_CHOICES, "decline"),
    ):
        for word in words:
            for action in chooses:
                if normalise(str(action.get("choice"))) == word:
                    return Default(dict(action), note)
    action, note = draw(game, chooses)
    return Default(action, note)
