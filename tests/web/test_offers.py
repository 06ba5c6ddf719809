"""Trades need consent (web/offers.py): a corporation's purchase of another corporation's
train, where another player presides over the seller, is an offer -- nothing is written until
the seller's player accepts (then it is made as the buyer's move); he may decline it, the
buyer may withdraw it, any other move voids it, and nobody else may answer it.  The printed
rules: a train changes hands between corporations "at a price both agree on"."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_pages import csrf_of
from tests.conftest import trade_between_presidents

from stellwerk.api import Game
from stellwerk.web.app import create_app
from stellwerk.web.offers import consent_of


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None), raise_server_exceptions=False) as c:
        yield c


def _position() -> tuple[Game, dict[str, Any]]:
    """A seeded 1849 game played until a corporation may buy a train another player's
    corporation owns; that purchase at L.100 (or its least price above it)."""
    game, trade = trade_between_presidents(["Ann", "Bob", "Cid"])
    return game, trade


def _seats(client: TestClient, game: Game) -> tuple[str, dict[str, str]]:
    answer = client.post("/api/games/import", json=game.to_file())
    assert answer.status_code == 201, answer.text
    made = answer.json()
    return made["id"], {p["name"]: p["token"] for p in made["players"]}


def _auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def test_a_trade_waits_for_the_sellers_consent(client: TestClient) -> None:
    game, trade = _position()
    buyer = game.decider_of(str(trade["entity"]))
    names = dict(game.players)
    train = game.view.train(str(trade["train"]))
    assert train.owner is not None
    seller = game.decider_of(train.owner.key)
    other = next(pid for pid, _ in game.players if pid not in (buyer, seller))
    key, tokens = _seats(client, game)
    count = client.get(f"/api/games/{key}", headers=_auth(tokens[names[buyer]])).json()
    base = count["action_count"]
    offered = client.post(
        f"/api/games/{key}/actions", json={"action": trade, "base": base},
        headers=_auth(tokens[names[buyer]]),
    )  # fmt: skip
    assert offered.status_code == 202, offered.text
    offer = offered.json()["offer"]
    shown = client.get(f"/api/games/{key}", headers=_auth(tokens[names[other]])).json()
    assert shown["action_count"] == base  # nothing written
    assert [o["id"] for o in shown["offers"]] == [offer["id"]]
    # nobody but the seller's player answers; the buyer only withdraws
    for who, accept in ((other, True), (other, False), (buyer, True)):
        refused = client.post(
            f"/api/games/{key}/offers", json={"offer": offer["id"], "accept": accept},
            headers=_auth(tokens[names[who]]),
        )  # fmt: skip
        assert refused.status_code == 403
    accepted = client.post(
        f"/api/games/{key}/offers", json={"offer": offer["id"], "accept": True},
        headers=_auth(tokens[names[seller]]),
    )  # fmt: skip
    assert accepted.status_code == 200, accepted.text
    data = client.get(f"/api/games/{key}/file", headers=_auth(tokens[names[seller]])).json()
    made = data["actions"][-1]
    assert made["type"] == "buy_train" and made["train"] == trade["train"]
    assert made["user"] == buyer and made["price"] == trade["price"]
    after = Game.from_file(data)
    owner = after.view.train(str(trade["train"])).owner
    assert owner is not None and owner.key == trade["entity"]
    again = client.post(
        f"/api/games/{key}/offers", json={"offer": offer["id"], "accept": True},
        headers=_auth(tokens[names[seller]]),
    )  # fmt: skip
    assert again.status_code == 410


def test_declined_withdrawn_and_voided_offers_change_nothing(client: TestClient) -> None:
    game, trade = _position()
    buyer = game.decider_of(str(trade["entity"]))
    names = dict(game.players)
    owner = game.view.train(str(trade["train"])).owner
    assert owner is not None
    seller = game.decider_of(owner.key)
    key, tokens = _seats(client, game)
    base = client.get(f"/api/games/{key}", headers=_auth(tokens["Ann"])).json()["action_count"]

    def offer() -> str:
        answer = client.post(
            f"/api/games/{key}/actions", json={"action": trade, "base": base},
            headers=_auth(tokens[names[buyer]]),
        )  # fmt: skip
        assert answer.status_code == 202
        return str(answer.json()["offer"]["id"])

    for who in (seller, buyer):  # declined by the seller, withdrawn by the buyer
        made = offer()
        answer = client.post(
            f"/api/games/{key}/offers", json={"offer": made, "accept": False},
            headers=_auth(tokens[names[who]]),
        )  # fmt: skip
        assert answer.status_code == 200 and answer.json()["action_count"] == base
    # the seller's page offers the answer as two buttons; another move voids the offer
    made = offer()
    link = client.get(f"/games/{key}?token={tokens[names[seller]]}", follow_redirects=False)
    page = client.get(link.headers["location"]).text
    assert re.search(rf'data-offer="{made}" data-role="answer"', page)
    assert 'data-kind="accept_offer"' in page and 'data-kind="decline_offer"' in page
    chat = client.post(
        link.headers["location"] + "/say", data={"csrf": csrf_of(page), "message": "no"},
        follow_redirects=False,
    )  # fmt: skip
    assert chat.status_code == 303
    gone = client.post(
        f"/api/games/{key}/offers", json={"offer": made, "accept": True},
        headers=_auth(tokens[names[seller]]),
    )  # fmt: skip
    assert gone.status_code == 410
    data = client.get(f"/api/games/{key}/file", headers=_auth(tokens["Ann"])).json()
    assert [a["type"] for a in data["actions"][base:]] == ["message"]


def test_the_bank_and_ones_own_corporations_need_no_consent() -> None:
    game, trade = _position()
    seller_corp = game.view.train(str(trade["train"])).owner
    assert seller_corp is not None
    seller = game.decider_of(seller_corp.key)
    assert consent_of(game, trade, seller) is None  # the seller's player buys from himself
    depot = next(
        (a for a in game.legal_actions() if a.get("type") == "buy_train"
         and (o := game.view.train(str(a["train"])).owner) is not None and o.kind == "depot"),
        None,
    )  # fmt: skip
    if depot is not None:
        assert consent_of(game, depot, game.decider_of(str(depot["entity"]))) is None


def test_the_seller_accepts_on_his_page(client: TestClient) -> None:
    game, trade = _position()
    buyer = game.decider_of(str(trade["entity"]))
    names = dict(game.players)
    owner = game.view.train(str(trade["train"])).owner
    assert owner is not None
    seller = game.decider_of(owner.key)
    key, tokens = _seats(client, game)
    base = client.get(f"/api/games/{key}", headers=_auth(tokens["Ann"])).json()["action_count"]
    buyer_page = client.get(f"/games/{key}?token={tokens[names[buyer]]}").text
    posted = client.post(
        f"/play/{key}/{tokens[names[buyer]]}/act",
        data={"csrf": csrf_of(buyer_page), "base": str(base), "action": json.dumps(trade)},
        follow_redirects=False,
    )  # fmt: skip
    assert posted.status_code == 303 and posted.headers["location"].endswith("#offers")
    waiting = client.get(f"/play/{key}/{tokens[names[buyer]]}").text
    assert 'data-role="withdraw"' in waiting and "waits for" in waiting
    page = client.get(f"/play/{key}/{tokens[names[seller]]}").text
    made = re.search(r'data-offer="([0-9a-f]+)" data-role="answer"', page)
    assert made
    answer = client.post(
        f"/play/{key}/{tokens[names[seller]]}/offer",
        data={"csrf": csrf_of(page), "offer": made.group(1), "answer": "accept"},
        follow_redirects=False,
    )  # fmt: skip
    assert answer.status_code == 303
    data = client.get(f"/api/games/{key}/file", headers=_auth(tokens["Ann"])).json()
    assert data["actions"][-1]["type"] == "buy_train" and data["actions"][-1]["user"] == buyer


def test_verify_refuses_as_process_would_and_changes_nothing() -> None:
    """``api.Game.verify``: an offer is made only of a move the engine would take now."""
    from stellwerk.core.errors import IllegalAction

    game, trade = _position()
    before = json.dumps(game.to_file(), sort_keys=True)
    game.verify(trade)
    with pytest.raises(IllegalAction) as refused:
        game.verify({**trade, "price": 10**6})
    with pytest.raises(IllegalAction) as processed:
        game.process({**trade, "price": 10**6})
    assert refused.value.rule == processed.value.rule
    assert json.dumps(game.to_file(), sort_keys=True) == before
