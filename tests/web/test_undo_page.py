"""Undo on the game page (common rules §3.4, docs/web.md "Undo"; web/service.py
``may_undo``): a player may take back his own last move while nobody else has acted since;
the page offers exactly that and nothing more, the API says it (``may_undo``), and an undo
of another's move is refused (403) and changes nothing."""

from __future__ import annotations

import html
import warnings
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_pages import count_of, create, csrf_of, forms, post_move, turn_forms

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2 for its TestClient
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from stellwerk.core.errors import GameFileError
from stellwerk.io.undo import live_mask
from stellwerk.web.app import create_app
from stellwerk.web.errors import Forbidden
from stellwerk.web.seats import Access, digest
from stellwerk.web.service import GameService, check_own_moves, last_mover, may_undo, undo_of


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None), raise_server_exceptions=False) as c:
        yield c


def undo_forms(page: str) -> list[dict[str, object]]:
    return [f for f in forms(page) if f["kind"] == "undo"]


def api_view(client: TestClient, link: str) -> dict[str, object]:
    key, token = link.split("/")[2:4]
    view: dict[str, object] = client.get(
        f"/api/games/{key}", headers={"authorization": f"Bearer {token}"}
    ).json()
    return view


def bid_of(client: TestClient, link: str) -> tuple[str, dict[str, object]]:
    page = client.get(link).text
    return page, next(f["action"] for f in turn_forms(page) if f["kind"] == "bid")


def test_a_player_undoes_his_own_last_move_from_his_page_common_rules_3_4(
    client: TestClient,
) -> None:
    """Nobody may undo at the start; after Ann's bid her page (only hers) offers the undo;
    it takes the bid back (recorded as an ``undo`` with her id) and the offer goes."""
    links = create(client)
    assert not any(undo_forms(client.get(link).text) for link in links.values())
    page, bid = bid_of(client, links["Ann"])
    assert post_move(client, links["Ann"], csrf_of(page), bid, 0).status_code == 303
    ann = client.get(links["Ann"]).text
    offered = undo_forms(ann)
    assert [f["action"] for f in offered] == [
        {"type": "undo", "entity": 1, "entity_type": "player"}
    ]
    assert 'id="undo"' in ann and "Undo my last move" in ann
    assert not undo_forms(client.get(links["Bob"]).text)
    assert 'id="undo"' not in client.get(links["spectator"]).text
    assert api_view(client, links["Ann"])["may_undo"] is True
    assert api_view(client, links["Bob"])["may_undo"] is False
    answer = post_move(client, links["Ann"], csrf_of(ann), offered[0]["action"], 1)  # type: ignore[arg-type]
    assert answer.status_code == 303
    after = client.get(links["Ann"]).text
    assert count_of(after) == 2 and not undo_forms(after)
    assert any(f["kind"] == "bid" for f in turn_forms(after))  # her turn again
    key, token = links["Ann"].split("/")[2:4]
    file = client.get(f"/api/games/{key}/file?token={token}").json()
    assert [(a["type"], a["user"]) for a in file["actions"]] == [("bid", 1), ("undo", 1)]


def test_no_undo_once_another_player_acted(client: TestClient) -> None:
    """After Bob's move Ann's page offers no undo (her bid is no longer the last move); an
    undo she sends anyway would take back Bob's move: 403, nothing written."""
    links = create(client)
    page, bid = bid_of(client, links["Ann"])
    assert post_move(client, links["Ann"], csrf_of(page), bid, 0).status_code == 303
    bob, bob_bid = bid_of(client, links["Bob"])
    assert post_move(client, links["Bob"], csrf_of(bob), bob_bid, 1).status_code == 303
    ann = client.get(links["Ann"]).text
    assert not undo_forms(ann) and api_view(client, links["Ann"])["may_undo"] is False
    assert undo_forms(client.get(links["Bob"]).text)
    undo = {"type": "undo", "entity": 1, "entity_type": "player"}
    key, token = links["Ann"].split("/")[2:4]  # her page has no form now: a valid token
    nonce = client.cookies.get("stellwerk_csrf")
    csrf = client.app.state.csrf.token(f"act|{key}|{digest(token)}|{nonce}")  # type: ignore[attr-defined]
    refused = post_move(client, links["Ann"], csrf, undo, 2)
    assert refused.status_code == 403 and "another player's move" in html.unescape(refused.text)
    assert count_of(client.get(links["Ann"]).text) == 2


def test_undo_goes_back_over_several_own_moves_but_not_past_another(
    client: TestClient,
) -> None:
    """Each undo takes back one move; after Ann undid hers back to Bob's move, there is
    nothing of hers left to undo."""
    links = create(client)
    page, bid = bid_of(client, links["Ann"])
    post_move(client, links["Ann"], csrf_of(page), bid, 0)
    ann = client.get(links["Ann"]).text
    post_move(client, links["Ann"], csrf_of(ann), undo_forms(ann)[0]["action"], 1)  # type: ignore[arg-type]
    ann = client.get(links["Ann"]).text
    assert not undo_forms(ann)  # the bid is undone: no live move of hers is left


def test_a_deadlines_default_order_is_not_the_players_to_undo() -> None:
    """A default order applied at a deadline (user ``deadline``) is nobody's own move: no
    player is offered its undo."""
    clock = Clock(1_000)
    app = create_app(service=GameService(None, clock=clock), deadline_interval=0)
    with TestClient(app, raise_server_exceptions=False) as client:
        body = {"title": "1849", "players": ["Ann", "Bob", "Cid"], "seed": 3,
                "deadline_hours": 1}  # fmt: skip
        created = client.post("/api/games", json=body).json()
        key = created["id"]
        clock.now = 5_000
        first = created["players"][0]["token"]
        settled = client.post(
            f"/api/games/{key}/deadline", headers={"authorization": f"Bearer {first}"}
        )
        assert settled.status_code == 200, settled.text
        for seat in created["players"]:
            link = f"/play/{key}/{seat['token']}"
            assert not undo_forms(client.get(link).text)
            assert api_view(client, link)["may_undo"] is False


def test_the_undo_button_speaks_german(client: TestClient) -> None:
    links = create(client)
    page, bid = bid_of(client, links["Ann"])
    post_move(client, links["Ann"], csrf_of(page), bid, 0)
    german = client.get(links["Ann"] + "?lang=de").text
    assert "Meinen letzten Zug zurücknehmen" in html.unescape(german)
    assert [f["action"]["type"] for f in undo_forms(german)] == ["undo"]  # type: ignore[index]


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["pass", "bid", "message", "undo", "redo"]),
        st.sampled_from([1, 2, 3, "deadline", None]),
    ),
    max_size=14,
)


@settings(max_examples=300, deadline=None)
@given(ACTIONS)
def test_the_offered_undo_is_exactly_the_one_the_api_accepts(
    made: list[tuple[str, object]],
) -> None:
    """Property (common rules §3.4): over any log of moves, messages, undos and redos by
    players (or a deadline, or nobody recorded), a player is offered the undo
    (``may_undo``) exactly when there is a live move and ``check_own_moves`` lets his
    ``undo`` through; for a stand-in engine a move without ``user`` is its entity's."""
    actions = [
        {"id": n, "type": kind, "entity": 1 if user in (None, "deadline") else user,
         **({} if user is None else {"user": user})}
        for n, (kind, user) in enumerate(made, start=1)
    ]  # fmt: skip
    try:
        live = live_mask(actions)
    except GameFileError:
        return  # a redo with nothing to redo: not a log
    stored = SimpleNamespace(data={"actions": actions}, game=object())
    any_live = any(on and a["type"] != "message" for a, on in zip(actions, live, strict=True))
    mover = last_mover(stored)  # type: ignore[arg-type]
    for player in (1, 2, 3):
        access = Access("player", player, str(player))
        try:
            check_own_moves(stored, undo_of(access), access)  # type: ignore[arg-type]
            accepted = any_live
        except Forbidden:
            accepted = False
        assert may_undo(access, mover) is accepted
    assert not may_undo(Access("spectator"), mover)
