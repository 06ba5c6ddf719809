"""The API's read-only views (``stellwerk.views`` through ``api.Game.view``) on real positions:
an 1841 corporation presided by a corporation (the chain of control, rules/1841.md 2.3.9),
one whose chain ends at the pool (frozen, no controller), and the standing bids of the 1849
private auction (rules/1849.md 3)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from stellwerk.api import Game, JSONObject
from stellwerk.io.gamefile import load_game_file
from stellwerk.views import BidView, CorporationView, EntityRef

FIXTURES = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "18xx.games"


def _after(title: str, name: str, last_id: int) -> Game:
    """The fixture game ``name`` of ``title`` after its live action ``last_id``."""
    return _after_with_rest(title, name, last_id)[0]


def _after_with_rest(title: str, name: str, last_id: int) -> tuple[Game, list[JSONObject]]:
    """The fixture game after its live action ``last_id``, and the live actions after it."""
    path = FIXTURES / title / f"{name}.json"
    if not path.is_file():
        pytest.skip("../shared fixtures absent")
    game_file = load_game_file(json.loads(path.read_text(encoding="utf-8")))
    game = Game(title, game_file.players, game_file.optional_rules, game_file.seed)
    for i, action in enumerate(game_file.live):
        game.process(action, replay=True)
        if action.get("id") == last_id:
            return game, game_file.live[i + 1 :]
    raise AssertionError(f"no action {last_id} in {name}")


def _corporation(game: Game, sym: str) -> CorporationView:
    found = game.view.corporation(sym)
    assert found is not None
    return found


def test_1841_chain_of_control_through_two_corporations() -> None:
    """After action 414 of the bank-ending game, CTS is presided by AFI, AFI by SFTC and SFTC
    by Player 1: the chain lists them upwards and Player 1 controls CTS."""
    game = _after("1841", "1841_game_end_bank", 414)
    cts = _corporation(game, "CTS")
    player = EntityRef("player", game.players[0][0], "Player 1")
    assert cts.president == EntityRef("corporation", "AFI", "AFI")
    assert cts.chain == (
        EntityRef("corporation", "AFI", "AFI"),
        EntityRef("corporation", "SFTC", "SFTC"),
        player,
    )
    assert cts.controller == player
    assert not cts.circular
    # AFI holds the president's certificate of CTS, and the holders add up to the whole
    afi = [h for h in cts.holders if h.holder.key == "AFI"]
    assert len(afi) == 1 and afi[0].president
    assert sum(h.percent for h in cts.holders) == 100
    assert cts.percent_of("corporation", "AFI") == afi[0].percent
    assert cts.ipo_percent == cts.percent_of("corporation", "CTS")
    # the intermediate corporation's own chain is the tail of CTS's
    assert _corporation(game, "AFI").chain == cts.chain[1:]


def test_1841_chain_ending_at_the_pool_has_no_controller() -> None:
    """After action 596 of the bankruptcy game, ATFA is presided by SB and SB's president's
    certificate lies in the pool: nobody controls ATFA (it is frozen, rules/1841.md 2.3.9)."""
    game = _after("1841", "1841_game_end_bankrupt", 596)
    atfa = _corporation(game, "ATFA")
    assert atfa.president == EntityRef("corporation", "SB", "SB")
    assert [link.kind for link in atfa.chain] == ["corporation", "pool"]
    assert atfa.controller is None
    assert not atfa.circular


def test_views_are_frozen_copies() -> None:
    """A view is a value: it cannot be changed, and it does not follow the game (1849: the
    bids after action 6 stay as they were once action 7 adds one)."""
    game, rest = _after_with_rest("1849", "1849_game_end_bank", 6)
    step = game.view.step()
    with pytest.raises(dataclasses.FrozenInstanceError):
        step.bids = ()  # type: ignore[misc]
    before = [(b.item.key, b.price) for b in step.bids]
    game.process(rest[0], replay=True)
    assert [(b.item.key, b.price) for b in step.bids] == before == [("SMS", 115), ("CNM", 80)]
    assert len(game.view.step().bids) == 3


def test_1849_auction_bids() -> None:
    """In the 1849 private auction, after action 7 Player 1 (115) and Player 3 (120) bid on
    SMS and Player 2 on CNM (80); the bids are listed by item in the order made, and the
    cheapest bidder of the auction being fought (SMS) is to act."""
    game = _after("1849", "1849_game_end_bank", 7)
    step = game.view.step()
    assert step.description == "Bid on Companies"
    assert [(b.item.key, b.bidder.name, b.price) for b in step.bids] == [
        ("SMS", "Player 1", 115),
        ("SMS", "Player 3", 120),
        ("CNM", "Player 2", 80),
    ]
    assert all(isinstance(b, BidView) and b.item.kind == "company" for b in step.bids)
    assert [e.name for e in step.acting] == ["Player 1"]
    assert game.round.kind == "auction"


def test_1849_bids_are_gone_once_the_auction_is_decided() -> None:
    """Action 16 ends the fight for SMS: no bids stand, and SMS has an owner."""
    game = _after("1849", "1849_game_end_bank", 16)
    assert game.view.step().bids == ()
    sms = next(c for c in game.view.companies() if c.sym == "SMS")
    assert sms.owner is not None and sms.owner.kind == "player"


def test_1849_market_and_table() -> None:
    """The market's cells carry their price and the corporations' markers; the table view
    names the phase and who has the priority deal."""
    game = _after("1849", "1849_game_end_bank", 40)
    market = game.view.market()
    markers = [s for row in market.rows for cell in row if cell for s in cell.corporations]
    started = [c.sym for c in game.view.corporations() if c.price is not None]
    assert sorted(markers) == sorted(started) and started
    for corp in game.view.corporations():
        if corp.price is None:
            continue
        cells = [
            cell for row in market.rows for cell in row if cell and corp.sym in cell.corporations
        ]
        assert [cell.price for cell in cells] == [corp.price]
    table = game.view.table()
    assert table.title == "1849" and table.phase
    assert table.priority is not None and table.priority.kind == "player"


def test_1841_outcome_of_a_token_choice_is_tried_on_a_copy() -> None:
    """``Reader.outcome``: a started corporation's answer how many station tokens to buy
    (rules/1841.md 2.2.3) costs L.50 each for a historical corporation; the try leaves the
    game as it was."""
    path = FIXTURES / "1841" / "1841_game_end_bank.json"
    if not path.is_file():
        pytest.skip("../shared fixtures absent")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["actions"] = data["actions"][:49]
    data.pop("result", None)
    data["status"] = "active"
    game = Game.from_file(data)
    chooses = [a for a in game.legal_actions() if a["type"] == "choose"]
    assert [a["choice"] for a in chooses] == [2, 3, 4, 5]
    corp = game.view.corporation(str(chooses[0]["entity"]))
    assert corp is not None
    outcomes = [game.view.outcome(a) for a in chooses]
    assert [(o.spent, o.token_count) for o in outcomes if o] == [
        (100, 2),
        (150, 3),
        (200, 4),
        (250, 5),
    ]
    assert game.view.corporation(corp.sym) == corp, "the game is untouched"
    assert game.legal_actions() == [*chooses]
    assert game.view.outcome({"type": "choose", "entity": "nobody", "choice": 2}) is None


def test_price_space_sealed_bids_and_company_abilities() -> None:
    """``Reader.price_space``: 1835's start items have a fixed price, 1849's bids a range
    from the minimum; ``Reader.sealed_bids``: 1841's first edition collects a list over its
    eight concessions; ``CompanyView.abilities``: what the title's data declares."""
    players: list[tuple[int | str, str]] = [(1, "Ann"), (2, "Bob"), (3, "Cid")]
    start = Game.create("1835", players, [], 5)
    bids = [a for a in start.legal_actions() if a["type"] == "bid"]
    assert bids and all(start.view.price_space(a) == (a["price"],) * 2 for a in bids)
    assert start.view.price_space({"type": "pass", "entity": 1}) is None
    nf = next(c for c in start.view.companies() if c.sym == "NF")
    assert [a.kind for a in nf.abilities] == ["extra_share", "token"]
    assert nf.abilities[0].company == "BY" and nf.abilities[0].percent == 10
    assert nf.abilities[1].hexes == ("L14",)
    auction = Game.create("1849", players, [], 5)
    spaces = {a["company"]: auction.view.price_space(a) for a in auction.legal_actions()
              if a["type"] == "bid"}  # fmt: skip
    assert spaces["SCE"] == (20, 20)  # the cheapest private: bought at its price
    low, high = spaces["SIGI"]
    assert low < high
    assert auction.view.sealed_bids() is None
    sealed = Game.create("1841", players, ["version_1"], 5).view.sealed_bids()
    assert sealed is not None and len(sealed.items) == 8
    assert sealed.bidder is not None and all(i.opening > 0 for i in sealed.items)
