"""A corporation that must buy a train its treasury cannot pay (common rules §6, emergency
train purchase): the API's typed view says so with the sums, and the acting player's page
says it in a sentence above the moves (the bank's cheapest train, its price, the cash, what is
missing, and who helps), in English and German."""

from __future__ import annotations

import html
import json
import re
import warnings

from stellwerk.api import Game
from stellwerk.web.pages import train_need_text

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tests.conftest import played_until

from stellwerk.web.app import create_app

from .test_pages import csrf_of


def short_of_a_train(title: str = "1849") -> Game:
    """A seeded selfplay game (3 players) played until a corporation must buy a train its
    treasury cannot pay (1849, seed 1: CTL has bought every 4H, AFG has L.160 for a 6H)."""
    game, _ = played_until(title, ["P1", "P2", "P3"], 1, lambda g: g.view.train_need())
    assert isinstance(game, Game)
    return game


def test_the_view_names_the_train_the_sums_and_the_payer_common_rules_6() -> None:
    game = short_of_a_train()
    need = game.view.train_need()
    assert need is not None
    corp = game.view.corporation(need.corporation)
    assert (
        corp is not None
        and corp.cash == need.cash < need.price
        and need.shortfall == need.price - need.cash
    )
    assert corp is not None and game.operating == need.corporation
    assert need.payer is not None and need.payer == corp.president
    bank_trains = [
        a for a in game.legal_actions() if a["type"] == "buy_train" and a["price"] == need.price
    ]
    assert bank_trains, "the bank's cheapest train is among the purchases offered"


def test_the_sentence_gives_the_sums_in_both_languages() -> None:
    game = short_of_a_train()
    need = game.view.train_need()
    assert need is not None
    names = {str(need.payer.key): "Ann"} if need.payer is not None else {}
    english = train_need_text(game, names, "en")
    assert english.startswith(f"{need.corporation} must buy a train")
    assert f"a {need.train}-train" in english and "Ann" in english
    for amount in (need.price, need.cash, need.shortfall):
        assert str(amount) in english
    german = train_need_text(game, names, "de")
    assert german.startswith(f"{need.corporation} muss einen Zug kaufen") and "Ann" in german


def test_no_sentence_when_the_treasury_pays_or_nothing_must_be_bought() -> None:
    game = Game.create("1849", [(i, f"P{i}") for i in (1, 2, 3)], [], 1)
    assert game.view.train_need() is None and train_need_text(game, {}, "en") == ""


def test_the_acting_players_page_shows_it() -> None:
    game = short_of_a_train()
    need = game.view.train_need()
    assert need is not None and need.payer is not None
    with TestClient(create_app(None), raise_server_exceptions=False) as client:
        home = client.get("/").text
        answer = client.post(
            "/import",
            data={"csrf": csrf_of(home)},
            files={"file": ("game.json", json.dumps(game.to_file()), "application/json")},
        )
        assert answer.status_code == 201, answer.text
        links = re.findall(r'href="(/play/[^"]+)"', answer.text)
        pages = [client.get(html.unescape(link)).text for link in links]
    shown = [p for p in pages if 'id="train-need"' in p]
    assert len(shown) == 1
    assert f"{need.corporation} must buy a train" in html.unescape(shown[0])
