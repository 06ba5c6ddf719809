"""1835 bankruptcy and the bank loan (rules/1835.md 8.8; Rails Bankruptcy style _1835).

The position is made by playing a seeded random game to the first train purchase of a major and
then emptying the director's pockets, so that no train and no share sale is within reach."""

from __future__ import annotations

import random

import pytest

from stellwerk.api import Game
from stellwerk.core.entities import Corporation, Player, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.moves import parse
from stellwerk.core.shares import move_share
from stellwerk.selfplay import choose_action
from stellwerk.titles.g1835.bankruptcy import loan_of
from stellwerk.titles.g1835.entities import Minor, c35
from stellwerk.titles.g1835.game import Game1835
from stellwerk.titles.g1835.steps_operating import Dividend1835
from stellwerk.titles.g1835.steps_trains import BuyTrain1835

TOTAL_CASH = 12000


def cash_total(e: Game1835) -> int:
    return e.bank.cash + sum(p.cash for p in e.all_players) + sum(c.cash for c in e.corporations)


def at_major_train_purchase(seed: int = 3) -> tuple[Game, Corporation]:
    """A random 4-player game at the first buy-train step of a major."""
    game = Game.create("1835", [(i + 1, f"P{i + 1}") for i in range(4)], ["standard"], seed)
    rng = random.Random(seed)
    for _ in range(3000):
        e = game.engine
        step = e.round.active_step()
        corp = getattr(e.round, "current_operator", None)
        if isinstance(step, BuyTrain1835) and corp is not None and not isinstance(corp, Minor):
            return game, corp
        game.process(choose_action(game.legal_actions(all_lays=True), rng))
    raise AssertionError("no major reached its train purchase")


def broke(game: Game, corp: Corporation, keep_director_share_only: bool = True) -> Player:
    """Take the company's trains and cash and the director's cash and other certificates."""
    e = game.engine
    assert isinstance(e, Game1835)
    for train in list(corp.trains):
        e.reclaim_train(train)
    transfer(corp, e.bank, corp.cash)
    director = corp.owner
    assert isinstance(director, Player)
    transfer(director, e.bank, director.cash)
    if keep_director_share_only:
        for share in list(director.all_shares()):
            if not share.president and not isinstance(e.corporation(share.corporation), Minor):
                move_share(share, e.pool)
    return director


def test_bankruptcy_is_offered_only_when_nothing_else_is_possible() -> None:
    """§8.8: bankruptcy only when no train can be paid for and no share may be sold."""
    game, corp = at_major_train_purchase()
    kinds = {a["type"] for a in game.legal_actions()}
    assert "bankrupt" not in kinds
    with pytest.raises(IllegalAction):
        game.process({"type": "bankrupt", "entity": corp.sym, "entity_type": "corporation"})
    corp = game.engine.corporation(corp.sym)  # a refused action rebuilds the engine
    broke(game, corp)
    legal = game.legal_actions()
    assert [a["type"] for a in legal] == ["bankrupt"]


def test_bankrupt_director_leaves_and_the_bank_lends_the_train() -> None:
    """§8.8: the bankrupt's certificates go to the pool, nobody holding enough means a forced
    director, and the bank lends the company the rest of the cheapest bank train."""
    game, corp = at_major_train_purchase()
    e = game.engine
    assert isinstance(e, Game1835)
    director = broke(game, corp)
    cash_before = cash_total(e)
    cheapest = min(t.price for t in e.depot.depot_trains(e.phases))
    game.process({"type": "bankrupt", "entity": corp.sym, "entity_type": "corporation"})
    assert director.bankrupt and director not in e.players
    assert not director.all_shares() and director.cash == 0 and not director.companies
    # nobody holds 20 %: the first player clockwise holding one share unit is made director
    after = e.all_players[(e.all_players.index(director) + 1) % 4 :] + e.all_players
    one_unit = [p for p in after if p is not director and p.percent_of(corp.sym) == 10]
    assert corp.owner is (one_unit[0] if one_unit else e.priority)
    assert len(corp.trains) == 1
    assert loan_of(corp) == cheapest
    assert cash_total(e) == cash_before
    for c in e.corporations:
        held = sum(s.percent for h in [*e.all_players, *e.corporations, e.pool]
                   for s in h.shares_of(c.sym))  # fmt: skip
        assert held == (0 if c.closed else 100)


def test_loan_forces_withholding_and_is_repaid() -> None:
    """§8.6, 8.8: a company with a bank loan must withhold; the withheld revenue repays it."""
    game, corp = at_major_train_purchase()
    e = game.engine
    assert isinstance(e, Game1835)
    c35(corp).bank_loan = 50
    step = next(s for s in e.round.steps if isinstance(s, Dividend1835))
    assert step.kinds(corp) == ("withhold",)
    bank = e.bank.cash
    corp_cash = corp.cash
    e.round.state.revenue = 80
    step.process_dividend(parse({"type": "dividend", "entity": 0, "kind": "withhold"}), corp)
    assert loan_of(corp) == 0
    assert corp.cash == corp_cash + 80 - 50
    assert e.bank.cash == bank - 80 + 50


def test_payout_is_refused_while_a_loan_is_outstanding() -> None:
    game, corp = at_major_train_purchase()
    e = game.engine
    assert isinstance(e, Game1835)
    c35(corp).bank_loan = 50
    step = next(s for s in e.round.steps if isinstance(s, Dividend1835))
    e.round.state.revenue = 80
    with pytest.raises(IllegalAction):
        step.process_dividend(parse({"type": "dividend", "entity": 0, "kind": "payout"}), corp)


def test_last_player_standing_ends_the_game() -> None:
    """Our choice (rules silent): with one player left the game is over."""
    e = Game.create("1835", [(1, "A"), (2, "B"), (3, "C")], ["standard"], 1).engine
    assert isinstance(e, Game1835)
    for p in e.players[1:]:
        p.bankrupt = True
    e.players = e.players[:1]
    assert e.end_condition("bankrupt")


def test_a_player_with_the_directors_share_size_takes_over_without_a_loan() -> None:
    """§8.8 (Rails processPlayerBankruptcy): a player holding at least the director's
    certificate's size becomes director, swapping certificates; no loan, the purchase goes on
    with the new director."""
    game, corp = at_major_train_purchase()
    e = game.engine
    assert isinstance(e, Game1835)
    director = broke(game, corp)
    heir = next(p for p in e.players if p is not director)
    while heir.percent_of(corp.sym) < 20:
        move_share(next(s for s in corp.shares_of(corp.sym) if s.percent == 10), heir)
    game.process({"type": "bankrupt", "entity": corp.sym, "entity_type": "corporation"})
    assert corp.owner is heir
    assert any(s.president for s in heir.shares_of(corp.sym))
    assert loan_of(corp) == 0
    assert not corp.trains
    assert game.active_entities() == [corp.sym] or heir.id in game.active_entities()
