"""Bankruptcy and the bank loan (rules/1835.md 8.8; Rails Bankruptcy style _1835,
GameManager.processPlayerBankruptcy, OperatingRound_1835).

A director whose major must buy a train and who cannot raise the price of the cheapest train
from the bank even after selling every certificate he may sell is bankrupt:

* all his cash goes into the company;
* each major he directs passes to the player holding most of it, at least the director's
  certificate's size (ties: the first clockwise after him), who swaps certificates with him;
  if nobody holds that much, the first player clockwise holding exactly one share unit (10 %,
  PR 5 %), else the priority holder, is made director without the director's certificate;
* if the train-buying company got such a forced director, the bank lends it the amount still
  missing and the company buys the cheapest bank train; while the loan is outstanding it must
  withhold, and every withheld revenue repays the loan first;
* all his certificates go to the pool (the 50 % limit does not apply), and the game goes on
  without him.

Where Rails is silent or tentative we choose, and say so:

* the train bought with the loan is the cheapest train the bank offers (new or from the pool);
  Rails buys the train the director picked before selling (our ``bankrupt`` action names none);
* only the train-buying company gets a loan (Rails' code lends the same amount to every company
  whose directorship had to be forced, an evident slip);
* his minors go to the priority holder, who must direct them (Rails' minor handling for 1835 is
  marked untested; nobody else can hold a minor);
* his private companies close (a private cannot go to the pool; Rails leaves them unhandled);
* with one player left the game ends (Rails plays on with nobody to play against).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stellwerk.core.entities import Corporation, Player, Train, transfer
from stellwerk.core.shares import move_share
from stellwerk.titles.g1835.entities import c35

if TYPE_CHECKING:
    from stellwerk.titles.g1835.game import Game1835

RULE = "1835 rules §8.8"


def loan_of(corp: Corporation) -> int:
    """The company's outstanding bank loan (0 if none)."""
    return c35(corp).bank_loan


def repay_loan(game: Game1835, corp: Corporation, withheld: int) -> int:
    """A withheld revenue repays the loan first (Rails OperatingRound: CompanyRepaysBankLoan);
    returns the amount repaid."""
    loan = loan_of(corp)
    repayment = min(loan, withheld, corp.cash)
    if repayment:
        transfer(corp, game.bank, repayment, RULE)
        c35(corp).bank_loan = loan - repayment
        game.note("loan_repaid", corp=corp.sym, amount=repayment, left=loan - repayment)
    return repayment


def clockwise_after(game: Game1835, player: Player) -> list[Player]:
    """The other seated players, clockwise from the one after ``player``."""
    seats = game.all_players
    i0 = seats.index(player)
    ring = [seats[(i0 + k) % len(seats)] for k in range(1, len(seats))]
    return [p for p in ring if not p.bankrupt and p in game.players]


def successor(game: Game1835, bankrupt: Player, corp: Corporation) -> Player | None:
    """The player holding most of ``corp`` and at least its director's certificate, the first
    clockwise among equals (Rails processPlayerBankruptcy)."""
    best: Player | None = None
    for p in clockwise_after(game, bankrupt):
        pct = p.percent_of(corp.sym)
        if pct >= corp.president_percent and (best is None or pct > best.percent_of(corp.sym)):
            best = p
    return best


def forced_director(game: Game1835, bankrupt: Player, corp: Corporation) -> Player:
    """Nobody can take the directorship normally: the first player holding exactly one share
    unit, else the priority holder (Rails Bankruptcy._1835)."""
    for p in clockwise_after(game, bankrupt):
        if p.percent_of(corp.sym) == corp.share_unit:
            return p
    return game.priority


def cheapest_bank_train(game: Game1835) -> Train | None:
    """The cheapest train the bank offers (new or from the pool); the first of equals."""
    trains = game.depot.depot_trains(game.phases)
    return min(trains, key=lambda t: t.price) if trains else None


def declare(game: Game1835, corp: Corporation) -> Train | None:
    """The director of ``corp`` goes bankrupt while ``corp`` must buy a train.  Returns the
    train the company now buys with a bank loan (None if a new director takes over the
    purchase)."""
    player = corp.owner
    assert isinstance(player, Player)
    train = cheapest_bank_train(game)
    assert train is not None
    if player.cash:
        transfer(player, corp, player.cash, RULE)
    player.bankrupt = True
    game.note("bankrupt", player=player.name, corp=corp.sym)
    if game.priority is player:
        after = clockwise_after(game, player)
        if after:
            game.priority = after[0]
    directed = [c for c in game.majors() if c.owner is player and not c.closed]
    new_directors: dict[str, Player] = {}
    forced: set[str] = set()
    for major in directed:
        heir = successor(game, player, major)
        pres = next((s for s in player.shares_of(major.sym) if s.president), None)
        if heir is not None and pres is not None:
            for share in game.swap_certificates(heir, major, pres.percent):
                move_share(share, player)
            move_share(pres, heir)
        elif heir is None:
            heir = forced_director(game, player, major)
            forced.add(major.sym)
        new_directors[major.sym] = heir
    for minor in [m for m in game.minors() if m.owner is player and not m.closed]:
        for share in list(player.shares_of(minor.sym)):
            move_share(share, game.priority)
        game.set_president(minor, game.priority)
        game.note("president", corp=minor.sym, player=game.priority.name)
    for company in list(player.companies):
        game.close_company(company)
    for share in list(player.all_shares()):
        move_share(share, game.pool)
    for major in game.majors():
        if major.sym in new_directors:
            director = new_directors[major.sym]
            game.set_president(major, director)
            game.note("president", corp=major.sym, player=director.name)
    game.players = [p for p in game.players if p is not player]
    if corp.sym not in forced:
        return None
    loan = train.price - corp.cash
    if loan > 0:
        transfer(game.bank, corp, loan, RULE)
        c35(corp).bank_loan = loan_of(corp) + loan
        game.note("loan", corp=corp.sym, amount=loan)
    return train
