"""Property: live play accepts an action exactly when the legal list offers it or it lies in
the space a listed action describes (issue 12, item 1).

Random legal 1849 games are played (``stellwerk.selfplay``); after each action a listed action
is mutated in one field (price +-1/+5/0/-100, percent, certificates doubled or swapped, another
entity, company or corporation, an unknown tile or rotation, another city or slot, a bogus choice
or dividend kind, an unknown field) and sent live.  The expectation is computed here from the
legal list and from the rules' price ranges, not from the gate's code:

* listed (all fields but bookkeeping equal to a listed action, lays asked for the hex): accept;
* a listed move with another price: accept iff the price lies in the rules' range
  (1849 rules §1.5 bids, §1.4 private purchases, §4.7 trains from corporations, §7.3 tokens);
* a certificate swapped for an equal one (same owner, corporation, size, president flag): accept
  (the rules do not tell equal certificates apart);
* anything else: refuse, and the state is exactly as before.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stellwerk.api import Game
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.auction import WaterfallAuction
from stellwerk.selfplay import play

Action = dict[str, Any]
PLAYERS = [(1, "A"), (2, "B"), (3, "C")]
BOOKKEEPING = {"id", "created_at", "user", "auto_actions"}
OPTION_SETS: list[list[str]] = [[], ["acquiring_station_tokens"], ["bonds"]]
MUTATIONS = [
    "price+1", "price+5", "price-1", "price0", "price-100", "percent5", "percent-double",
    "shares-doubled", "shares-other", "entity", "company", "corporation", "tile-unknown",
    "tile-other", "rotation", "rotation7", "city", "slot", "choice", "kind", "extra-field",
    "extra-revenue",
]  # fmt: skip


def core(action: Action) -> Action:
    return {k: v for k, v in action.items() if k not in BOOKKEEPING}


def mutate(game: Game, action: Action, how: str, rng: random.Random) -> Action | None:
    """``action`` changed in one field, or None when the mutation does not apply."""
    eng = game.engine
    bad = dict(action)
    if how.startswith("price") and isinstance(bad.get("price"), int):
        delta = {"price+1": 1, "price+5": 5, "price-1": -1}.get(how)
        bad["price"] = bad["price"] + delta if delta is not None else int(how[5:])
    elif how == "percent5" and "percent" in bad:
        bad["percent"] = 5
    elif how == "percent-double" and "percent" in bad:
        bad["percent"] = 2 * bad["percent"]
    elif how == "shares-doubled" and bad.get("shares"):
        bad["shares"] = bad["shares"] * 2
    elif how == "shares-other" and bad.get("shares"):
        every = [s.id for h in eng.holders() for s in h.all_shares()]
        bad["shares"] = [rng.choice(every)]
    elif how == "entity" and bad.get("entity_type") == "player":
        bad["entity"] = rng.choice([p for p, _ in PLAYERS if p != bad["entity"]])
    elif how == "entity" and bad.get("entity_type") == "corporation":
        bad["entity"] = rng.choice([c.sym for c in eng.corporations if c.sym != bad["entity"]])
    elif how == "company" and "company" in bad:
        bad["company"] = rng.choice([c.sym for c in eng.companies if c.sym != bad["company"]])
    elif how == "corporation" and "corporation" in bad:
        others = [c.sym for c in eng.corporations if c.sym != bad["corporation"]]
        bad["corporation"] = rng.choice(others)
    elif how == "tile-unknown" and "tile" in bad:
        bad["tile"] = "999-0"
    elif how == "tile-other" and "tile" in bad:
        bad["tile"] = rng.choice(["7-0", "8-1", "9-2", "57-0", "14-0", "15-1", "23-0"])
    elif how == "rotation" and "rotation" in bad:
        bad["rotation"] = (bad["rotation"] + rng.randrange(1, 6)) % 6
    elif how == "rotation7" and "rotation" in bad:
        bad["rotation"] = 7
    elif how == "city" and "city" in bad:
        bad["city"] = rng.choice(["B16-0-0", "E17-0-0", "H12-0-0", "L14-0-0", "X1-0-0"])
    elif how == "slot" and "slot" in bad:
        bad["slot"] = bad["slot"] + 1
    elif how == "choice" and "choice" in bad:
        bad["choice"] = "bogus"
    elif how == "kind" and "kind" in bad:
        bad["kind"] = "half"
    elif how == "extra-field":
        bad["exchange"] = "2H-0"
    elif how == "extra-revenue" and bad.get("type") == "run_routes":
        bad["extra_revenue"] = 10
    else:
        return None
    return bad


def price_range(game: Game, listed: Action) -> tuple[int, int]:
    """The prices the rules allow for the listed action's move."""
    eng = game.engine
    kind = listed["type"]
    entity = eng.entity(listed)
    if kind == "bid":
        step = next(s for s in eng.round.steps if isinstance(s, WaterfallAuction))
        company = eng.company(listed["company"])
        auction_running = len(step.bids.get(step.auctioning, [])) > 1 if step.auctioning else False
        if not auction_running and step.companies and step.companies[0] is company:
            return (listed["price"], listed["price"])  # §1.5: the cheapest at its price
        other_bids = sum(
            p for c, bids in step.bids.items() if c is not company for who, p in bids
            if who is entity
        )  # fmt: skip
        return (listed["price"], entity.cash - other_bids)
    if kind == "buy_company":
        company = eng.company(listed["company"])
        return (company.min_price, min(company.max_price(), entity.cash))
    if kind == "buy_train":
        train = eng.train_by_id(listed["train"])
        if train.owner is eng.depot:
            return (train.price, train.price)
        return (1, entity.cash)
    if kind == "buy_token":
        return (1, entity.cash)
    return (listed["price"], listed["price"])


def equal_certificates(game: Game, given: list[str], listed: list[str]) -> bool:
    eng = game.engine

    def shape(ids: list[str]) -> Any:
        shares = [eng.share_by_id(i) for i in ids]
        return ({id(s.owner) for s in shares}, sorted((s.corporation, s.percent,
                bool(s.president)) for s in shares))  # fmt: skip

    try:
        return len(set(given)) == len(given) and shape(given) == shape(listed)
    except IllegalAction:
        return False


def expected(game: Game, bad: Action, how: str, legal: list[Action]) -> bool:
    if bad.get("type") == "lay_tile":
        legal = legal + game.legal_actions(hex_id=str(bad["hex"]))
    offered = [core(a) for a in legal]
    if core(bad) in offered:
        return True
    price = bad.get("price")
    if isinstance(price, int) and not isinstance(price, bool):
        # any mutation (another company, too) may land in the price range of a listed move
        for listed in legal:
            if "price" in listed and core({**listed, "price": price}) == core(bad):
                low, high = price_range(game, listed)
                if low <= price <= high:
                    return True
    if bad.get("shares"):
        return any(
            core({**a, "shares": bad["shares"]}) == core(bad)
            and equal_certificates(game, bad["shares"], a["shares"])
            for a in legal
            if a.get("shares")
        )
    return False


def check_one(game: Game, rng: random.Random) -> None:
    """Mutate one listed action and send it live; compare with the expectation."""
    if game.finished:
        return
    legal = game.legal_actions(all_lays=rng.random() < 0.3)
    legal = [a for a in legal if a["type"] != "run_routes"] or legal
    if not legal:
        return
    action = rng.choice(legal)
    how = rng.choice(MUTATIONS)
    bad = mutate(game, action, how, rng)
    if bad is None:
        return
    want = expected(game, bad, how, legal)
    state = json.dumps(game.snapshot(), sort_keys=True)
    record = json.dumps(game.to_file(), sort_keys=True)
    try:
        game.process(bad)
    except IllegalAction as error:
        assert not want, f"refused {bad} ({how}): {error}"
        assert error.rule, "a refusal names its rule"
        assert json.dumps(game.snapshot(), sort_keys=True) == state
        assert json.dumps(game.to_file(), sort_keys=True) == record
        return
    assert want, f"accepted {bad} ({how}), which is neither listed nor in a listed space"


def run_game(seed: int, options: list[str], max_actions: int) -> None:
    game = Game.create("1849", PLAYERS, options, seed)

    def after(g: Any, action: Action, rng: random.Random) -> None:
        check_one(g, random.Random(rng.random()))

    play(game, seed, max_actions=max_actions, after_action=after)


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(1, 100_000), options=st.sampled_from(OPTION_SETS))
def test_live_accepts_exactly_the_listed_space(seed: int, options: list[str]) -> None:
    """Mutated actions are accepted iff listed or in a listed space (CI: short games)."""
    run_game(seed, options, max_actions=60)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(1, 100_000), options=st.sampled_from(OPTION_SETS))
def test_live_accepts_exactly_the_listed_space_long(seed: int, options: list[str]) -> None:
    """The same over whole games (``--slow``)."""
    run_game(seed, options, max_actions=3000)
