"""Trade offers reach the other pages live (web/offers.py, the feed of web/app.py): the live
feed (``/api/games/{id}/events``) tells of an offer made, declined or withdrawn with an
``offers`` event, though the action count does not change, and of nothing else meanwhile; an
accepted offer is a move, told as a ``count`` event.  The feed reads the offers from the
store's annex, so an offer made through another server process on the same database reaches
it too."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient
from test_offers import _position
from webhelp import bearer, live_server

import stellwerk.web.app as app_module
from stellwerk.web.app import create_app

KEEPALIVE = 0.3
"""The feed's keepalive here: a quiet feed sends a comment this often."""


def next_event(lines: Iterator[str], within: float = 10.0) -> tuple[str, dict[str, Any]]:
    """The next event of the feed that is not a keepalive (within ``within`` seconds): its
    type and data."""
    kind = "message"
    end = time.monotonic() + within
    for line in lines:
        assert time.monotonic() < end, "the feed told nothing"
        if line.startswith("event: "):
            kind = line[len("event: ") :]
        elif line.startswith("data: "):
            return kind, json.loads(line[len("data: ") :])
    raise AssertionError("the feed ended")


def quiet(lines: Iterator[str], seconds: float) -> int:
    """Read the feed for ``seconds``: only keepalives may come; how many came."""
    end = time.monotonic() + seconds
    kept = 0
    for line in lines:
        assert not line.startswith(("event:", "data:")), f"the feed told of {line!r}"
        kept += line == ": keepalive"
        if time.monotonic() > end:
            return kept
    raise AssertionError("the feed ended")


def test_the_feed_tells_of_offers_made_declined_and_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_module, "KEEPALIVE_SECONDS", KEEPALIVE)
    game, trade = _position()
    names = dict(game.players)
    buyer = names[game.decider_of(str(trade["entity"]))]
    owner = game.view.train(str(trade["train"])).owner
    assert owner is not None
    seller = names[game.decider_of(owner.key)]
    other = next(n for n in names.values() if n not in (buyer, seller))
    db = f"sqlite:///{tmp_path / 'web.db'}"
    with live_server(db) as url, httpx.Client(base_url=url, timeout=30) as client:
        made = client.post("/api/games/import", json=game.to_file()).json()
        key = made["id"]
        tokens = {p["name"]: p["token"] for p in made["players"]}
        base = client.get(f"/api/games/{key}", headers=bearer(tokens[seller])).json()
        base = base["action_count"]

        def offer(through: httpx.Client | TestClient) -> str:
            answer = through.post(
                f"/api/games/{key}/actions", json={"action": trade, "base": base},
                headers=bearer(tokens[buyer]),
            )  # fmt: skip
            assert answer.status_code == 202, answer.text
            return str(answer.json()["offer"]["id"])

        def answer(through: httpx.Client | TestClient, who: str, made: str, yes: bool) -> int:
            got = through.post(
                f"/api/games/{key}/offers", json={"offer": made, "accept": yes},
                headers=bearer(tokens[who]),
            )  # fmt: skip
            return got.status_code

        # the seller's page: at the count it shows, with no offer shown
        feed_url = f"/api/games/{key}/events?after={base}&offers="
        with client.stream("GET", feed_url, headers=bearer(tokens[seller])) as feed:
            lines = feed.iter_lines()
            assert quiet(lines, 3 * KEEPALIVE) >= 2  # nothing happened: nothing told
            first = offer(client)
            assert next_event(lines) == ("offers", {"action_count": base, "offers": first})
            # a refused answer and a look at the game change nothing: nothing told
            assert answer(client, other, first, False) == 403
            assert client.get(f"/api/games/{key}", headers=bearer(tokens[other])).is_success
            quiet(lines, 3 * KEEPALIVE)
            assert answer(client, seller, first, False) == 200  # declined
            assert next_event(lines) == ("offers", {"action_count": base, "offers": ""})
            quiet(lines, 3 * KEEPALIVE)
            # another server process on the same database: the feed learns by the store
            with TestClient(create_app(db), raise_server_exceptions=False) as second:
                elsewhere = offer(second)
                assert next_event(lines) == (
                    "offers", {"action_count": base, "offers": elsewhere}
                )  # fmt: skip
                assert answer(second, buyer, elsewhere, False) == 200  # withdrawn
                assert next_event(lines) == ("offers", {"action_count": base, "offers": ""})
            # accepted: the purchase is a move, told as the new count
            last = offer(client)
            assert next_event(lines)[0] == "offers"
            assert answer(client, seller, last, True) == 200
            assert next_event(lines) == ("count", {"action_count": base + 1})
            quiet(lines, 3 * KEEPALIVE)


def test_a_feed_without_offers_named_starts_from_those_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client that names no offers (``?offers=``) is told of none already open when it
    connects, only of changes after: its first event is the count, as before offers."""
    monkeypatch.setattr(app_module, "KEEPALIVE_SECONDS", KEEPALIVE)
    game, trade = _position()
    names = dict(game.players)
    buyer = names[game.decider_of(str(trade["entity"]))]
    with (
        live_server(f"sqlite:///{tmp_path / 'web.db'}") as url,
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        made = client.post("/api/games/import", json=game.to_file()).json()
        key = made["id"]
        tokens = {p["name"]: p["token"] for p in made["players"]}
        base = client.get(f"/api/games/{key}", headers=bearer(tokens[buyer])).json()
        offered = client.post(
            f"/api/games/{key}/actions", json={"action": trade, "base": base["action_count"]},
            headers=bearer(tokens[buyer]),
        )  # fmt: skip
        assert offered.status_code == 202
        feed_url = f"/api/games/{key}/events"
        with client.stream("GET", feed_url, headers=bearer(made["spectator"]["token"])) as feed:
            lines = feed.iter_lines()
            assert next_event(lines) == ("count", {"action_count": base["action_count"]})
            quiet(lines, 3 * KEEPALIVE)
