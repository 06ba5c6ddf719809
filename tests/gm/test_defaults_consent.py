"""A default never makes a trade another player must agree to (``stellwerk.gm.defaults``):
the printed rules sell a train between corporations "at a price both agree on", and the
seller's silence is no consent (``stellwerk.gm.offers``), so an absent president's default
must not take another player's train at the least price."""

from __future__ import annotations

import pytest
from tests.conftest import cut_fixture

from stellwerk.api import Game
from stellwerk.core.jsondata import JSONObject
from stellwerk.gm import defaults


def _position() -> tuple[Game, str, str, str]:
    """A 1849 position (a real game cut after 400 actions) where RCS and IFT have the same
    president and ATA another one, each with trains: (game, buyer, own train, foreign train)."""
    game = Game.from_file(cut_fixture("1849/1849_game_end_bank.json", 400))
    assert game.decider_of("RCS") == game.decider_of("IFT") != game.decider_of("ATA")
    engine = game.engine
    own = engine.corporation("IFT").trains[0].id
    foreign = engine.corporation("ATA").trains[0].id
    return game, "RCS", own, foreign


def _offered(monkeypatch: pytest.MonkeyPatch, actions: list[JSONObject]) -> None:
    """The moves the default picks from (the GM's ``legal``), as given."""
    monkeypatch.setattr(defaults, "legal", lambda game: [dict(a) for a in actions])


def _buy(buyer: str, train: str, price: int) -> JSONObject:
    return {"type": "buy_train", "entity": buyer, "entity_type": "corporation",
            "train": train, "price": price}  # fmt: skip


def test_a_default_does_not_buy_another_players_train(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only another president's train at L.1 and bankruptcy are left: the default goes
    bankrupt rather than take the train without its owner's consent."""
    game, buyer, _own, foreign = _position()
    bankrupt: JSONObject = {"type": "bankrupt", "entity": buyer, "entity_type": "corporation"}
    _offered(monkeypatch, [_buy(buyer, foreign, 1), bankrupt])
    found = defaults.default_action(game, buyer)
    assert found is not None
    assert found.action["type"] == "bankrupt"


def test_with_only_such_a_trade_there_is_no_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not even the GM's draw picks a trade that needs consent: nothing is left to default to."""
    game, buyer, _own, foreign = _position()
    _offered(monkeypatch, [_buy(buyer, foreign, 1), _buy(buyer, foreign, 80)])
    assert defaults.default_action(game, buyer) is None


def test_a_default_may_buy_from_a_corporation_of_the_same_president(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A train of a corporation the buyer's own president decides for needs nobody's
    consent (``stellwerk.consent``): the compulsory purchase takes the cheapest of those."""
    game, buyer, own, foreign = _position()
    _offered(monkeypatch, [_buy(buyer, foreign, 1), _buy(buyer, own, 5), _buy(buyer, own, 9)])
    found = defaults.default_action(game, buyer)
    assert found is not None
    assert found.action == _buy(buyer, own, 5)
