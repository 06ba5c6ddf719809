"""1841's procedures journal what they change and the log tells it in both languages (issue 9
item 3; titles/g1841/journal.py): the concession auction (rules/1841.md 2.1.1), the token
purchase at a start (2.2.3), mergers (2.3.11), transformations (2.3.12), frozen corporations
(2.3.9), the Ferdinandea Secession (2.4.1) and the Tuscan Merge (2.4.2).

Positions come from the fixtures' traces (``traced.py``, ``trace_state.py``); every check
reads the journal the procedures wrote and the sentences ``stellwerk.words.story`` makes of
it, so a procedure that stops journalling, or a sentence that loses its names, fails here.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from stellwerk.api import Game
from stellwerk.core import events as ev
from stellwerk.core.entities import move_share, transfer
from stellwerk.core.game import Game as CoreGame
from stellwerk.titles.g1841 import frozen as frozen_state
from stellwerk.titles.g1841 import journal, merger, transform, tuscan
from stellwerk.titles.g1841.decisions import Decisions, queue
from stellwerk.titles.g1841.merging_steps import MergeStep
from stellwerk.words import story

from .test_merger import fake_round
from .test_transform_tuscan import before_tuscan_merge
from .traced import actions, fixture, game_before, trace_lines

sys.path.insert(0, str(Path(__file__).parent))
from trace_state import live_actions, state_before


def told(game: CoreGame, lang: str) -> str:
    return "\n".join(line.text for line in story(game, lang))


def no_ids(game: CoreGame, text: str) -> None:
    """No certificate id, train id or raw round name where a name exists."""
    assert "Round::" not in text
    for corp in game.corporations:
        for share in corp.certificates:
            assert not re.search(rf"\b{re.escape(share.id)}\b", text), share.id
    for player in game.all_players:
        assert not re.search(rf"(?<![\w.]){re.escape(str(player.id))}(?![\w%])", text)


def test_concession_auction_and_token_purchases_are_told() -> None:
    """rules/1841.md 2.1.1 and 2.2.3: who wins which concession for how much, and how many
    tokens each started corporation buys, from the game file replayed up to the first
    operating round's end."""
    path = fixture("1841_game_end_bank")
    data = json.loads(path.read_text(encoding="utf-8"))
    # up to the first start of a corporation by a corporation (rules/1841.md 2.3.8): the
    # corporations started until then are the players' starts, each with its token purchase
    first = min(
        a["id"]
        for a in data["actions"]
        if a["type"] == "par" and a.get("entity_type") == "corporation"
    )
    kept = [a for a in data["actions"] if a["id"] < first]
    game = Game.from_file({**data, "actions": kept})
    engine = game.engine
    won = [e for e in engine.journal if isinstance(e, ev.CompanyBought)]
    assert len(won) == len(engine.companies) == len({e.company for e in won})
    tokens = [e for e in engine.journal if isinstance(e, journal.TokensBought)]
    started = [c for c in engine.corporations if c.ipoed]
    assert {e.corp for e in tokens} == {c.sym for c in started}
    for event in tokens:
        assert event.price > 0 and event.count == engine.corporation(event.corp).num_tokens
    en, de = told(engine, "en"), told(engine, "de")
    names = {str(p.id): p.name for p in engine.all_players}
    for event in won:
        buyer = names[str(event.buyer[1])]
        name = next(c.name for c in engine.companies if c.sym == event.company)
        assert f"{buyer} wins {name} for L.{event.price}." in en
        assert f"{buyer} ersteigert {name} für L.{event.price}." in de
    for event in tokens:
        assert f"{event.corp} buys {event.count} station token(s) for L.{event.price}." in en
        assert f"{event.corp} kauft {event.count} Station(en) für L.{event.price}." in de
    no_ids(engine, en)
    no_ids(engine, de)


def test_merger_is_journalled_and_told() -> None:
    """rules/1841.md 2.3.11: the recorded merger of 1841_game_end_bank actions 496-498 (SFTG
    and IFAI into a new major) ends with one ``Merged`` event, told with the three
    corporations and the new price."""
    name, first, last = "1841_game_end_bank", 496, 498
    game = game_before(name, first)
    game.corporation("SFTG").num_tokens, game.corporation("IFAI").num_tokens = 3, 2
    path = fixture(name)
    recorded, lines = actions(path), trace_lines(path)
    op = game.corporation(str(recorded[first]["entity"]))
    rnd = fake_round(game, op)
    step = MergeStep(game, rnd)
    step.setup()
    decisions = Decisions(game, rnd)
    for aid in range(first, last + 1):
        if aid not in recorded or aid not in lines or recorded[aid]["type"] in ("undo", "redo"):
            continue
        if recorded[aid]["type"] == "merge":
            step.process(recorded[aid], op)
        else:
            asked = decisions.asked()
            assert asked is not None
            decisions.process(recorded[aid], asked.entity)
    merged = [e for e in game.journal if isinstance(e, journal.Merged)]
    assert len(merged) == 1
    event = merged[0]
    target = game.corporation(event.target)
    assert target.share_price is not None and event.price == target.share_price.price
    assert {event.a, event.b} == {"SFTG", "IFAI"}
    en, de = told(game, "en"), told(game, "de")
    assert f"{event.a} and {event.b} merge into {event.target} at L.{event.price}." in en
    assert f"{event.a} und {event.b} fusionieren zu {event.target} zum Kurs L.{event.price}." in de
    no_ids(game, en)


def test_tuscan_merge_is_told() -> None:
    """rules/1841.md 2.4.2: SFLP and SFMA form SFLi (1841_game_end_bankrupt, action 200):
    the merge's start, the merger into SFLi, SFLi's forming and the old corporations'
    closing are told."""
    game, rnd = before_tuscan_merge()
    path = fixture("1841_game_end_bankrupt")
    tuscan.start(game)
    Decisions(game, rnd).process(actions(path)[200], game.corporation("SFLi"))
    kinds = [type(e) for e in game.journal]
    assert journal.TuscanMergeStarted in kinds and journal.TuscanMerged in kinds
    assert kinds.index(journal.TuscanMergeStarted) < kinds.index(journal.Merged)
    assert kinds.index(journal.Merged) < kinds.index(journal.TuscanMerged)
    game.watch()
    en, de = told(game, "en"), told(game, "de")
    assert "Tuscan Merge: SFLP and SFMA form SFLi." in en
    assert "Toskanische Fusion: SFLP und SFMA bilden SFLi." in de
    assert "SFLP and SFMA merge into SFLi at L." in en
    assert "SFLi is formed." in en and "SFLi ist entstanden." in de
    assert "SFLP closes." in en and "SFMA wird aufgelöst." in de


def test_frozen_sfli_is_told() -> None:
    """rules/1841.md 2.3.9 and seed 000 item 3.4: SFLi without a president is frozen; the
    log says so."""
    game, _ = before_tuscan_merge()
    for sym in ("SFLP", "SFMA"):
        corp = game.corporation(sym)
        pres = corp.presidents_share
        assert pres is not None
        move_share(pres, game.pool)
        corp.owner = None
    tuscan.start(game)
    frozen_state.update(game)  # what Game1841.action_processed does after every action
    assert merger.is_frozen(game, game.corporation("SFLi"))
    frozen = [e for e in game.journal if isinstance(e, journal.Frozen) and e.corp == "SFLi"]
    assert frozen
    assert "SFLi is frozen" in told(game, "en") and "SFLi ist eingefroren" in told(game, "de")


def test_transformation_and_its_token_purchase_are_told() -> None:
    """rules/1841.md 2.3.12: SFMA transforms into ATFA, which must buy a token for L.50."""
    game, rnd = before_tuscan_merge()
    sfma, atfa = game.corporation("SFMA"), game.corporation("ATFA")
    transfer(game.bank, sfma, 300)
    queue(game, transform.start_transform(game, sfma, atfa))
    decisions = Decisions(game, rnd)
    while (asked := decisions.asked()) is not None and asked.topic == "share_offer":
        decisions.process({"type": "choose", "entity": 0, "choice": "no"}, asked.entity)
    asked = decisions.asked()
    assert asked is not None
    decisions.process({"type": "choose", "entity": 0, "choice": 1}, asked.entity)
    assert [e for e in game.journal if isinstance(e, journal.Transformed)] == [
        journal.Transformed("SFMA", "ATFA")
    ]
    en, de = told(game, "en"), told(game, "de")
    assert "SFMA transforms into the major ATFA." in en
    assert "SFMA wandelt sich in die große Gesellschaft ATFA um." in de
    price = transform.REQUIRED_TOKEN_PRICE
    assert f"ATFA buys 1 station token(s) for L.{price}." in en


def test_ferdinandea_secession_is_told() -> None:
    """rules/1841.md 2.4.1: the first 4-train of 1841_game_end_bank (action 187) splits
    IRSFF into SB and SFL; the log tells it, and the phase change and rusting with it."""
    path = fixture("1841_game_end_bank")
    game, action = state_before(path, 187)
    corp = game.corporation(str(action["entity"]))
    train = next(t for t in game.depot.upcoming if t.id == action["train"])
    game.buy_train(corp, train, int(action["price"]))
    assert [e for e in game.journal if isinstance(e, journal.Seceded)] == [
        journal.Seceded("IRSFF", "SB", "SFL")
    ]
    en, de = told(game, "en"), told(game, "de")
    assert "Ferdinandea Secession: IRSFF splits into SB and SFL." in en
    assert "Ferdinandea-Abspaltung: IRSFF teilt sich in SB und SFL." in de
    assert "Phase 4 begins." in en
    assert live_actions(path)


def test_share_trades_are_journalled_with_price_and_source() -> None:
    """rules/1841.md 2.2.1, 2.3.8: a corporation's purchase of another's IPO share is
    journalled with its price and source (``SharesBought``), a sale to the pool with its
    price (``SharesSold``), and the log tells both."""
    from stellwerk.core.flow.rounds import OperatingRound
    from stellwerk.titles.g1841.corporate import CorporateShares

    from .setup_helpers import new_game, start

    game = new_game()
    p1, p2, _ = game.players
    game.phases.index = next(i for i, p in enumerate(game.phases.all) if p.name == "3")
    sftg = start(game, "SFTG", "100,3,5", p1, {p1: 20}, cash=500)
    sftc = start(game, "SFTC", "144,2,8", p2, {p2: 40}, cash=100)
    game.operated_corps |= {"SFTG", "SFTC"}
    rnd = OperatingRound(game, [Decisions, CorporateShares], 1)
    rnd.entity_index = rnd.entities.index(sftg)
    rnd.current_operator = sftg
    game.round = rnd
    step = rnd.step_of(CorporateShares)
    assert isinstance(step, CorporateShares)
    before = len(game.journal)
    own = [s.id for s in sftg.treasury_shares() if not s.president][:1]
    step.process(
        {"type": "sell_shares", "entity": "SFTG", "entity_type": "corporation",
         "shares": own, "percent": 10},
        sftg,
    )  # fmt: skip
    other = [s.id for s in sftc.treasury_shares() if not s.president][:1]
    step.process(
        {"type": "buy_shares", "entity": "SFTG", "entity_type": "corporation",
         "shares": other, "percent": 10},
        sftg,
    )  # fmt: skip
    trades = [e for e in game.journal[before:] if isinstance(e, ev.SharesBought | ev.SharesSold)]
    assert trades == [
        ev.SharesSold(("corporation", "SFTG"), "SFTG", 10, 100),
        ev.SharesBought(("corporation", "SFTG"), "SFTC", 10, ("corporation", "SFTC"), 144, False),
    ]
    text = told(game, "en")
    assert "SFTG" in text and "SFTC" in text and "144" in text
    no_ids(game, text)
