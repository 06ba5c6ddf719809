"""The events of a Rails 1835 game report, one typed record per report line
(shared/rules/rails-report-format.md §2); read by :mod:`stellwerk.io.rails_report`."""

from __future__ import annotations

from dataclasses import dataclass


class ReportError(ValueError):
    """A line the parser does not understand; ``line`` is its 1-based number."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Certificate:
    """A certificate named inside a line: ``CERT_NAME``/``PRES_CERT_NAME``,company,percent."""

    company: str
    percent: int
    president: bool


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events: ``line`` is the 1-based line number in the report."""

    line: int


# --- game setup (format §2.1) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameIs(Event):
    """``GameIs,game``: the title, first line."""

    game: str


@dataclass(frozen=True, slots=True)
class PlayerIs(Event):
    """``PlayerIs,seat,name``: seat 1..n in table order."""

    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class PlayerCash(Event):
    """``PlayerCash,amount``: every player's starting cash."""

    amount: int


@dataclass(frozen=True, slots=True)
class BankHas(Event):
    """``BankHas,amount``: bank cash after paying the players."""

    amount: int


@dataclass(frozen=True, slots=True)
class BankSize(Event):
    """``BankSizeIs,amount``."""

    amount: int


@dataclass(frozen=True, slots=True)
class PhaseStarted(Event):
    """``StartOfPhase,phase``: a phase begins (Rails phase id "2" … "6+6")."""

    phase: str


# --- start rounds (format §2.2) -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartRoundStarted(Event):
    """``StartOfInitialRound,n``."""

    number: int


@dataclass(frozen=True, slots=True)
class PriorityHolder(Event):
    """``HasPriority,player``: first to act in this start or stock round."""

    player: str


@dataclass(frozen=True, slots=True)
class StartItemBought(Event):
    """``BuysItemFor,player,item,price`` (action); the BY director's item is written as a
    certificate and has ``item`` "BY_D" and ``certificate`` set."""

    player: str
    item: str
    certificate: Certificate | None
    price: int


@dataclass(frozen=True, slots=True)
class AlsoGets(Event):
    """``ALSO_GETS,player,CERT``: the extra certificate of the item just bought."""

    player: str
    certificate: Certificate


@dataclass(frozen=True, slots=True)
class Floated(Event):
    """``FloatsWithCash,company,amount`` (``amount`` None for ``Floats,company``)."""

    company: str
    amount: int | None


@dataclass(frozen=True, slots=True)
class CannotBuyAnything(Event):
    """``CannotBuyAnything,player``: automatic pass in the start round (1835 rules §3.3)."""

    player: str


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """``PASSES,player`` (action)."""

    player: str


@dataclass(frozen=True, slots=True)
class AllPassed(Event):
    """``ALL_PASSED``: the start round ends unsold."""


@dataclass(frozen=True, slots=True)
class PresidentChanged(Event):
    """``IS_NOW_PRES_OF,player,company``."""

    player: str
    company: str


# --- stock rounds (format §2.3) -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StockRoundStarted(Event):
    """``StartStockRound,n``."""

    number: int


@dataclass(frozen=True, slots=True)
class ShareBought(Event):
    """``BUY_SHARE_LOG,player,percent,company,source,price`` (action): source IPO, Pool or a
    player's name (nationalisation); price = total paid."""

    player: str
    percent: int
    company: str
    source: str
    price: int


@dataclass(frozen=True, slots=True)
class PricePaidToCompany(Event):
    """``PriceIsPaidTo,amount,company``: the last IPO purchase paid the company."""

    amount: int
    company: str


@dataclass(frozen=True, slots=True)
class CompanyStarted(Event):
    """``START_COMPANY_LOG,player,company,start price,paid,units,percent,receiver`` (action)."""

    player: str
    company: str
    start_price: int
    amount: int
    units: int
    percent: int
    receiver: str


@dataclass(frozen=True, slots=True)
class SharesReleased(Event):
    """``SharesReleased,what,company``: ``All`` or e.g. ``40%`` (PR's buyable shares)."""

    what: str
    company: str


@dataclass(frozen=True, slots=True)
class SharesSold(Event):
    """``SELL_SHARE_LOG,player,percent,company,amount`` (``count`` 1) or
    ``SELL_SHARES_LOG,player,count,percent,total,company,amount`` (action); ``repeated`` when the
    player already sold this company in this turn or emergency (no price move of its own)."""

    player: str
    count: int
    percent: int
    company: str
    amount: int
    repeated: bool


@dataclass(frozen=True, slots=True)
class PriceMoved(Event):
    """``PRICE_MOVES_LOG,company,old price,old cell,new price,new cell``; ``cause`` one of
    payout, withhold, sale, sold_out, adjust_down (the optional action after a repeated sale)."""

    company: str
    old_price: int
    old_cell: str
    new_price: int
    new_cell: str
    cause: str


@dataclass(frozen=True, slots=True)
class PriceStayed(Event):
    """``PRICE_STAYS_LOG,company,price,cell``: a due move was impossible."""

    company: str
    price: int
    cell: str
    cause: str


@dataclass(frozen=True, slots=True)
class Autopassed(Event):
    """``Autopasses,player``: a pass (the player set autopass)."""

    player: str


@dataclass(frozen=True, slots=True)
class StockRoundEnded(Event):
    """``END_SR,n``."""

    number: int


@dataclass(frozen=True, slots=True)
class SoldOut(Event):
    """``SoldOut,company``: sold out at the end of the SR; a price line follows."""

    company: str


# --- operating rounds (format §2.4) ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OperatingRoundStarted(Event):
    """``START_OR,id`` ("S.n")."""

    round_id: str


@dataclass(frozen=True, slots=True)
class PrivateRevenue(Event):
    """``ReceivesFor,player,amount,private``."""

    player: str
    amount: int
    private: str


@dataclass(frozen=True, slots=True)
class ShortOperatingRound(Event):
    """``ShortORExecuted``: only privates paid."""


@dataclass(frozen=True, slots=True)
class CompanyOperates(Event):
    """``CompanyOperates,company,president``: the company's turn begins."""

    company: str
    president: str


@dataclass(frozen=True, slots=True)
class TileLaid(Event):
    """``LaysTileAt,company,tile,hex,orientation`` or ``LaysTileAtFor,…,cost`` (action);
    ``rotation`` is the 18xx.games rotation, ``orientation`` the Rails name."""

    company: str
    tile: str
    hex: str
    orientation: str
    rotation: int
    cost: int


@dataclass(frozen=True, slots=True)
class TokenLaid(Event):
    """``LAYS_TOKEN_ON,company,hex,cost`` or ``LAYS_FREE_TOKEN_ON,company,hex`` (``free``)."""

    company: str
    hex: str
    cost: int
    free: bool


@dataclass(frozen=True, slots=True)
class PrivateClosed(Event):
    """``PrivateCloses,private``."""

    private: str


@dataclass(frozen=True, slots=True)
class PhaseClosesPrivates(Event):
    """``PhaseClosesAllPrivates,``: phase 5 closes NF, OBB, PfB, LD."""


@dataclass(frozen=True, slots=True)
class Revenue(Event):
    """``CompanyRevenue,company,amount``: total train revenue (action)."""

    company: str
    amount: int


@dataclass(frozen=True, slots=True)
class PaysOut(Event):
    """``CompanyPaysOutFull,company,amount`` (action)."""

    company: str
    amount: int


@dataclass(frozen=True, slots=True)
class Withholds(Event):
    """``CompanyWithholds,company,amount`` (action)."""

    company: str
    amount: int


@dataclass(frozen=True, slots=True)
class Splits(Event):
    """``CompanySplits,company,amount``: a minor splits."""

    company: str
    amount: int


@dataclass(frozen=True, slots=True)
class MinorReceives(Event):
    """``RECEIVES,company,amount``: the minor's half of a split."""

    company: str
    amount: int


@dataclass(frozen=True, slots=True)
class NoDividend(Event):
    """``CompanyDoesNotPayDividend,company``: revenue 0."""

    company: str


@dataclass(frozen=True, slots=True)
class Payout(Event):
    """``Payout,recipient,amount,units,unit percent``: dividend to a player or company."""

    recipient: str
    amount: int
    units: int
    unit_percent: int


@dataclass(frozen=True, slots=True)
class TrainBought(Event):
    """``BuysTrain,company,train,seller,price`` (action): seller IPO, Pool or a company."""

    company: str
    train: str
    seller: str
    price: int


@dataclass(frozen=True, slots=True)
class FirstTrainBought(Event):
    """``FirstTrainBought,train``."""

    train: str


@dataclass(frozen=True, slots=True)
class NewTrainAvailable(Event):
    """``NewTrainAvailable,old,new``."""

    old: str
    new: str


@dataclass(frozen=True, slots=True)
class TrainsRusted(Event):
    """``TrainsRusted,train``."""

    train: str


@dataclass(frozen=True, slots=True)
class TrainDiscarded(Event):
    """``CompanyDiscardsTrain,company,train,destination`` (forced choice)."""

    company: str
    train: str
    destination: str


@dataclass(frozen=True, slots=True)
class PresidentAddsCash(Event):
    """``PresidentAddsCash,company,president,amount``: emergency train money."""

    company: str
    president: str
    amount: int


@dataclass(frozen=True, slots=True)
class MustRaiseCash(Event):
    """``PlayerMustRaiseCash,player,amount,train``: emergency selling begins."""

    player: str
    amount: int
    train: str


@dataclass(frozen=True, slots=True)
class MustSellShares(Event):
    """``PlayerMustSellShares,player,amount``."""

    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class OperatingRoundEnded(Event):
    """``EndOfOperatingRound,id``."""

    round_id: str


@dataclass(frozen=True, slots=True)
class WorthIncrease(Event):
    """``ORWorthIncrease,player,OR id,amount`` (may be negative)."""

    player: str
    round_id: str
    amount: int


@dataclass(frozen=True, slots=True)
class NoIncomeForPreviousOperation(Event):
    """``NoIncomeForPreviousOperation,player,percent,company`` (1835 rules §10.4)."""

    player: str
    percent: int
    company: str


# --- Prussian formation (format §2.5) -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FormationRoundStarted(Event):
    """``StartFormationRound,PR``."""

    company: str


@dataclass(frozen=True, slots=True)
class StartingPlayer(Event):
    """``StartingPlayer,player``: the M2 owner is asked to form PR."""

    player: str


@dataclass(frozen=True, slots=True)
class MergedCompanyStarted(Event):
    """``START_MERGED_COMPANY,PR,price,space``: PR is started."""

    company: str
    price: int
    space: str


@dataclass(frozen=True, slots=True)
class Merged(Event):
    """``MERGE_MINOR_LOG,player,company,into,cash,trains`` (action); cash/trains None ("no")
    for the private companies BB and HB."""

    player: str
    company: str
    into: str
    cash: int | None
    trains: int | None


@dataclass(frozen=True, slots=True)
class ShareForMinor(Event):
    """``GetShareForMinor,player,percent,company,source,minor``."""

    player: str
    percent: int
    company: str
    source: str
    minor: str


@dataclass(frozen=True, slots=True)
class BaseTokenExchanged(Event):
    """``ExchangesBaseToken,PR,minor,hex/station`` (station: Rails 1-based)."""

    company: str
    minor: str
    hex: str
    station: int


@dataclass(frozen=True, slots=True)
class FormationRoundEnded(Event):
    """``EndOfFormationRound,PR,interrupted round`` or ``EndOfFormationRoundNoInterrupt,PR``
    (``interrupted`` None)."""

    company: str
    interrupted: str | None


# --- bankruptcy and game end (format §2.6; Rails Bankruptcy, GameManager) -------------------


@dataclass(frozen=True, slots=True)
class PlayerBankrupt(Event):
    """``PlayerIsBankrupt,player``."""

    player: str


@dataclass(frozen=True, slots=True)
class CompanyBankrupt(Event):
    """``CompanyIsBankrupt,company``."""

    company: str


@dataclass(frozen=True, slots=True)
class BankLoan(Event):
    """``CompanyGetsLoanToBuyTrain,company,amount`` (1835 rules §8.8)."""

    company: str
    amount: int


@dataclass(frozen=True, slots=True)
class BankLoanRepaid(Event):
    """``CompanyRepaysBankLoan,company,amount,remaining``."""

    company: str
    amount: int
    remaining: int


@dataclass(frozen=True, slots=True)
class CompanyClosed(Event):
    """``CompanyCloses,company``."""

    company: str


@dataclass(frozen=True, slots=True)
class BankBroken(Event):
    """``BankIsBrokenReportText``: the current OR is the last."""


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """``GameOver``."""


@dataclass(frozen=True, slots=True)
class Winner(Event):
    """``EoGWinner<name>!``."""

    name: str


@dataclass(frozen=True, slots=True)
class FinalRanking(Event):
    """``EoGFinalRanking :``: ranking lines follow."""


@dataclass(frozen=True, slots=True)
class Ranking(Event):
    """``r. worth name``: a final ranking line."""

    rank: int
    worth: int
    name: str


# --- checkpoints (format §2.7) --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Has(Event):
    """``Has,entity,cash``: cash checkpoint at the end of a round."""

    entity: str
    cash: int
