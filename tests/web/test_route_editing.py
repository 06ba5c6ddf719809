"""Routes edited on the map (``web/runs.py``): the route step's editor on the page, and the
endpoint that prices a proposed run (per train its stops) without changing the game --
a legal run gives its revenues and the action to send, a run the rules refuse names the rule,
input of another shape is refused before the engine.  The 1849 fixture cut before ATA's run
of three trains (action 99: 4H N8-M9-N10-M11 70, 4H M13-M11 40, 6H M13-K13-L14 90)."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2 for its TestClient
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tests.conftest import cut_fixture

from stellwerk.web.app import create_app

CUT = 99
BEST = {
    "4H-1": ["N8.0", "M9.0", "N10.0", "M11.0"],
    "4H-2": ["M13.0", "M11.0"],
    "6H-1": ["M13.0", "K13.0", "L14.0"],
}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def seats(client: TestClient) -> dict[str, str]:
    """name -> page path of the imported cut game (``spectator``: the spectators')."""
    data = cut_fixture("1849/1849_game_end_bank.json", CUT)
    answer = client.post("/api/games/import", json=data)
    assert answer.status_code == 201, answer.text
    body = answer.json()
    links = {p["name"]: p["link"] for p in body["players"]}
    links["spectator"] = body["spectator"]["link"]
    return {name: client.get(link).url.path for name, link in links.items()}


def runner(client: TestClient, seats: dict[str, str]) -> str:
    for name, link in seats.items():
        if name != "spectator" and "route-editor" in client.get(link).text:
            return link
    raise AssertionError("nobody runs routes")


def proposal(**routes: list[str]) -> dict[str, Any]:
    chosen = {**BEST, **{k.replace("_", "-"): v for k, v in routes.items()}}
    return {
        "base": CUT,
        "corporation": "ATA",
        "routes": [{"train": t, "stops": s} for t, s in chosen.items()],
    }


def one(train: str, stops: list[str]) -> dict[str, Any]:
    return {"base": CUT, "corporation": "ATA", "routes": [{"train": train, "stops": stops}]}


def count(client: TestClient, link: str) -> int:
    key, token = link.split("/")[2:4]
    view = client.get(f"/api/games/{key}", headers={"authorization": f"Bearer {token}"})
    return int(view.json()["action_count"])


def test_the_route_step_offers_the_editor_in_english_and_german(
    client: TestClient, seats: dict[str, str]
) -> None:
    link = runner(client, seats)
    page = client.get(link).text
    assert 'data-corporation="ATA"' in page
    assert "needs JavaScript" in page  # said to a browser without the script (noscript)
    assert "Run the best routes for" in page  # the plain form still there
    for train in BEST:
        assert f'data-train="{train}"' in page
    assert 'data-node="M13.0"' in page  # the map's stops can be clicked
    german = client.get(link + "?lang=de").text
    assert "nur mit JavaScript" in german and "Diese Strecken fahren" in german
    watcher = client.get(seats["spectator"]).text
    assert "route-editor" not in watcher


def test_a_legal_run_is_priced_per_train_and_nothing_changes(
    client: TestClient, seats: dict[str, str]
) -> None:
    link = runner(client, seats)
    before = count(client, link)
    answer = client.post(link + "/routes", json=proposal(**{"4H_2": []}))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert [(r["train"], r["revenue"]) for r in body["routes"]] == [("4H-1", 70), ("6H-1", 90)]
    assert body["revenue"] == 160
    assert body["action"]["type"] == "run_routes" and body["action"]["entity"] == "ATA"
    assert 'id="map-routes"' in body["svg"]
    assert count(client, link) == before


def test_a_run_the_rules_refuse_names_the_rule_and_changes_nothing(
    client: TestClient, seats: dict[str, str]
) -> None:
    link = runner(client, seats)
    before = count(client, link)
    too_long = client.post(link + "/routes", json=proposal(**{"4H_1": [*BEST["4H-1"], "M13.0"]}))
    assert too_long.status_code == 422
    assert "too long for a 4H train" in too_long.json()["error"]
    assert too_long.json()["rule"] == "common rules §6.1.8"
    apart = client.post(link + "/routes", json=proposal(**{"4H_1": ["N8.0", "L14.0"]}))
    assert apart.status_code == 422 and "no track joins N8 and L14" in apart.json()["error"]
    twice = client.post(link + "/routes", json=proposal(**{"4H_2": ["M13.0", "K13.0"]}))
    assert twice.status_code == 422, twice.text  # the 6H runs M13-K13 too
    assert "§6.1.7" in twice.json()["rule"]
    assert count(client, link) == before


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ("not json", 400, "not JSON"),
        ([], 400, "JSON object"),
        ({"base": "99", "corporation": "ATA", "routes": []}, 400, "base"),
        ({"base": CUT, "corporation": 7, "routes": []}, 400, "corporation"),
        ({"base": CUT, "corporation": "ATA", "routes": "4H"}, 400, "routes"),
        ({"base": CUT, "corporation": "ATA", "routes": [["4H-1"]]}, 400, "object"),
        ({"base": CUT, "corporation": "ATA", "routes": [{"train": "4H-1", "stops": [1, 2]}]}, 400,
         "stop"),
        ({"base": CUT, "corporation": "ATA", "routes": [{"train": "4H-1", "stops": []}] * 500},
         400, "at most"),
        ({"base": CUT, "corporation": "ATA",
          "routes": [{"train": "4H-1", "stops": ["M13.0"] * 5000}]}, 400, "at most"),
        (one("4H-1", ["Z99", "M13"]), 422, "no hex 'Z99'"),
        (one("4H-1", ["M13.7", "K13"]), 422, "no stop"),
        (one("9H-0", ["M13", "K13"]), 422, "does not own train 9H-0"),
        ({"base": CUT, "corporation": "SFA", "routes": []}, 403, "no run of yours"),
        ({"base": CUT - 1, "corporation": "ATA", "routes": []}, 409, "moved on"),
    ],
)  # fmt: skip
def test_hostile_input_gets_a_clear_refusal(
    client: TestClient, seats: dict[str, str], body: Any, status: int, words: str
) -> None:
    link = runner(client, seats)
    before = count(client, link)
    if isinstance(body, str):
        answer = client.post(link + "/routes", content=body)
    else:
        answer = client.post(link + "/routes", json=body)
    assert answer.status_code == status, answer.text
    assert words in answer.json()["error"]
    assert count(client, link) == before


def test_a_stop_added_is_placed_where_it_fits_and_priced(
    client: TestClient, seats: dict[str, str]
) -> None:
    """A stop sent as ``add`` goes where the route stays legal: M13 before the 6H's K13-L14,
    M9 back between N8 and N10; the answer gives the new stops beside the priced run."""
    link = runner(client, seats)
    before = count(client, link)
    body = {**proposal(**{"6H_1": ["K13.0", "L14.0"]}), "add": {"train": "6H-1", "stop": "M13"}}
    answer = client.post(link + "/routes", json=body)
    assert answer.status_code == 200, answer.text
    assert answer.json()["stops"] == BEST
    assert answer.json()["revenue"] == 200
    gap = ["N8.0", "N10.0", "M11.0"]
    body = {**proposal(**{"4H_1": gap}), "add": {"train": "4H-1", "stop": "M9.0"}}
    answer = client.post(link + "/routes", json=body)
    assert answer.status_code == 200, answer.text
    assert answer.json()["stops"]["4H-1"] == BEST["4H-1"]
    assert count(client, link) == before


def test_a_stop_without_a_legal_place_is_refused_and_a_first_stop_kept(
    client: TestClient, seats: dict[str, str]
) -> None:
    link = runner(client, seats)
    nowhere = client.post(
        link + "/routes", json={**proposal(), "add": {"train": "4H-1", "stop": "L14"}}
    )
    assert nowhere.status_code == 422
    assert "no track joins M11 and L14" in nowhere.json()["error"]
    assert "stops" not in nowhere.json()  # the route stays as the page has it
    first = client.post(
        link + "/routes", json={**proposal(**{"4H_2": []}), "add": {"train": "4H-2", "stop": "M13"}}
    )
    assert first.status_code == 422  # a route of one stop is not priced yet ...
    assert first.json()["rule"] == "common rules §6.1.1"
    assert first.json()["stops"] == {**BEST, "4H-2": ["M13.0"]}  # ... but kept


@pytest.mark.parametrize(
    ("add", "status", "words"),
    [
        ("M13", 400, "'add' must be an object"),
        ({"train": "4H-2"}, 400, "the added 'stop'"),
        ({"train": 4, "stop": "M13"}, 400, "the added 'train'"),
        ({"train": "4H-2", "stop": "M13" * 50}, 400, "the added 'stop'"),
        ({"train": "4H-2", "stop": "Z99"}, 422, "no hex 'Z99'"),
        ({"train": "9H-0", "stop": "M13"}, 422, "does not own train 9H-0"),
        ({"train": "6H-1", "stop": "K13"}, 422, "twice"),
    ],
)
def test_a_hostile_stop_to_add_gets_a_clear_refusal(
    client: TestClient, seats: dict[str, str], add: Any, status: int, words: str
) -> None:
    link = runner(client, seats)
    answer = client.post(link + "/routes", json={**proposal(), "add": add})
    assert answer.status_code == status, answer.text
    assert words in answer.json()["error"]
    assert "stops" not in answer.json()


def test_spectators_and_other_players_cannot_price_a_run(
    client: TestClient, seats: dict[str, str]
) -> None:
    link = runner(client, seats)
    # the spectators' token on the players' path too (``/watch/.../routes`` is no page)
    others = [seat.replace("/watch/", "/play/") for seat in seats.values() if seat != link]
    for seat in others:
        answer = client.post(seat + "/routes", json=proposal())
        assert answer.status_code == 403, (seat, answer.text)
    key = link.split("/")[2]
    wrong = client.post(f"/play/{key}/not-a-token/routes", json=proposal())
    assert wrong.status_code == 403


def test_the_priced_run_is_sent_as_the_ordinary_move(
    client: TestClient, seats: dict[str, str]
) -> None:
    link = runner(client, seats)
    priced = client.post(link + "/routes", json=proposal(**{"4H_2": []})).json()
    page = client.get(link).text
    form = re.search(r'<form method="post" action="([^"]+)" class="route-run">', page)
    csrf = re.search(r'class="route-run">\s*<input type="hidden" name="csrf" value="([^"]+)"',
                     page)  # fmt: skip
    assert form and csrf
    sent = client.post(
        form.group(1),
        data={"csrf": csrf.group(1), "base": str(CUT), "action": json.dumps(priced["action"])},
        follow_redirects=False,
    )
    assert sent.status_code == 303, sent.text
    key, token = link.split("/")[2:4]
    actions = client.get(f"/api/games/{key}/file?token={token}").json()["actions"]
    run = next(a for a in reversed(actions) if a["type"] == "run_routes")
    assert [r["revenue"] for r in run["routes"]] == [70, 90]
    assert run["entity"] == "ATA"
