"""Read a Rails game report (``.report``) of 1835 into a typed list of events.

A report is Rails' test-mode game log: one ``KEY,p1,p2,...`` line per message, the key being a
message key of Rails' LocalisedText.properties (shared/rules/rails-report-format.md §1-2).  Each
line becomes one event carrying its 1-based line number; separator lines (a single space) are
skipped; any other line is a :class:`ReportError` naming the line number.

Conversions (rails-report-format.md §3.2): hex ids are the same in both programs; a tile lay's
Rails orientation name (SW, W, NW, NE, E, SE) becomes an 18xx.games rotation with the tile's
``rails_offset`` from the 1835 tile data.

Price moves are classified by what caused them (format §2.3, §3.3): a dividend, a withheld or
zero revenue, a sale, the sold-out rise at the end of a stock round, or the optional
"adjust price down" action Rails offers after a repeated sale of one company in one turn
(1835 rules §5.3).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from stellwerk.io.rails_events import (
    AllPassed,
    AlsoGets,
    Autopassed,
    BankBroken,
    BankHas,
    BankLoan,
    BankLoanRepaid,
    BankSize,
    BaseTokenExchanged,
    CannotBuyAnything,
    Certificate,
    CompanyBankrupt,
    CompanyClosed,
    CompanyOperates,
    CompanyStarted,
    Event,
    FinalRanking,
    FirstTrainBought,
    Floated,
    FormationRoundEnded,
    FormationRoundStarted,
    GameIs,
    GameOver,
    Has,
    Merged,
    MergedCompanyStarted,
    MinorReceives,
    MustRaiseCash,
    MustSellShares,
    NewTrainAvailable,
    NoDividend,
    NoIncomeForPreviousOperation,
    OperatingRoundEnded,
    OperatingRoundStarted,
    Passed,
    Payout,
    PaysOut,
    PhaseClosesPrivates,
    PhaseStarted,
    PlayerBankrupt,
    PlayerCash,
    PlayerIs,
    PresidentAddsCash,
    PresidentChanged,
    PriceMoved,
    PricePaidToCompany,
    PriceStayed,
    PriorityHolder,
    PrivateClosed,
    PrivateRevenue,
    Ranking,
    ReportError,
    Revenue,
    ShareBought,
    ShareForMinor,
    SharesReleased,
    SharesSold,
    ShortOperatingRound,
    SoldOut,
    Splits,
    StartingPlayer,
    StartItemBought,
    StartRoundStarted,
    StockRoundEnded,
    StockRoundStarted,
    TileLaid,
    TokenLaid,
    TrainBought,
    TrainDiscarded,
    TrainsRusted,
    Winner,
    Withholds,
    WorthIncrease,
)

__all__ = [
    "KEYS",
    "AllPassed",
    "AlsoGets",
    "Autopassed",
    "BankBroken",
    "BankHas",
    "BankLoan",
    "BankLoanRepaid",
    "BankSize",
    "BaseTokenExchanged",
    "CannotBuyAnything",
    "Certificate",
    "CompanyBankrupt",
    "CompanyClosed",
    "CompanyOperates",
    "CompanyStarted",
    "Event",
    "FinalRanking",
    "FirstTrainBought",
    "Floated",
    "FormationRoundEnded",
    "FormationRoundStarted",
    "GameIs",
    "GameOver",
    "Has",
    "Merged",
    "MergedCompanyStarted",
    "MinorReceives",
    "MustRaiseCash",
    "MustSellShares",
    "NewTrainAvailable",
    "NoDividend",
    "NoIncomeForPreviousOperation",
    "OperatingRoundEnded",
    "OperatingRoundStarted",
    "Passed",
    "Payout",
    "PaysOut",
    "PhaseClosesPrivates",
    "PhaseStarted",
    "PlayerBankrupt",
    "PlayerCash",
    "PlayerIs",
    "PresidentAddsCash",
    "PresidentChanged",
    "PriceMoved",
    "PricePaidToCompany",
    "PriceStayed",
    "PriorityHolder",
    "PrivateClosed",
    "PrivateRevenue",
    "Ranking",
    "Report",
    "ReportError",
    "Revenue",
    "ShareBought",
    "ShareForMinor",
    "SharesReleased",
    "SharesSold",
    "ShortOperatingRound",
    "SoldOut",
    "Splits",
    "StartItemBought",
    "StartRoundStarted",
    "StartingPlayer",
    "StockRoundEnded",
    "StockRoundStarted",
    "TileLaid",
    "TokenLaid",
    "TrainBought",
    "TrainDiscarded",
    "TrainsRusted",
    "Winner",
    "Withholds",
    "WorthIncrease",
    "parse_file",
    "parse_lines",
    "parse_text",
]
from stellwerk.titles.g1835.data_load import RAILS_ORIENTATIONS, rails_rotation

# --- parsing --------------------------------------------------------------------------------

_Conv = Callable[[str], object]

_SIMPLE: dict[str, tuple[Callable[..., Event], tuple[_Conv, ...]]] = {
    "GameIs": (GameIs, (str,)),
    "PlayerIs": (PlayerIs, (int, str)),
    "PlayerCash": (PlayerCash, (int,)),
    "BankHas": (BankHas, (int,)),
    "BankSizeIs": (BankSize, (int,)),
    "StartOfPhase": (PhaseStarted, (str,)),
    "StartOfInitialRound": (StartRoundStarted, (int,)),
    "HasPriority": (PriorityHolder, (str,)),
    "FloatsWithCash": (Floated, (str, int)),
    "CannotBuyAnything": (CannotBuyAnything, (str,)),
    "ALL_PASSED": (AllPassed, ()),
    "IS_NOW_PRES_OF": (PresidentChanged, (str, str)),
    "StartStockRound": (StockRoundStarted, (int,)),
    "PriceIsPaidTo": (PricePaidToCompany, (int, str)),
    "START_COMPANY_LOG": (CompanyStarted, (str, str, int, int, int, int, str)),
    "SharesReleased": (SharesReleased, (str, str)),
    "END_SR": (StockRoundEnded, (int,)),
    "START_OR": (OperatingRoundStarted, (str,)),
    "ReceivesFor": (PrivateRevenue, (str, int, str)),
    "ShortORExecuted": (ShortOperatingRound, ()),
    "CompanyOperates": (CompanyOperates, (str, str)),
    "PrivateCloses": (PrivateClosed, (str,)),
    "CompanyRevenue": (Revenue, (str, int)),
    "CompanySplits": (Splits, (str, int)),
    "RECEIVES": (MinorReceives, (str, int)),
    "Payout": (Payout, (str, int, int, int)),
    "BuysTrain": (TrainBought, (str, str, str, int)),
    "FirstTrainBought": (FirstTrainBought, (str,)),
    "NewTrainAvailable": (NewTrainAvailable, (str, str)),
    "TrainsRusted": (TrainsRusted, (str,)),
    "CompanyDiscardsTrain": (TrainDiscarded, (str, str, str)),
    "PresidentAddsCash": (PresidentAddsCash, (str, str, int)),
    "PlayerMustSellShares": (MustSellShares, (str, int)),
    "EndOfOperatingRound": (OperatingRoundEnded, (str,)),
    "ORWorthIncrease": (WorthIncrease, (str, str, int)),
    "NoIncomeForPreviousOperation": (NoIncomeForPreviousOperation, (str, int, str)),
    "StartFormationRound": (FormationRoundStarted, (str,)),
    "StartingPlayer": (StartingPlayer, (str,)),
    "START_MERGED_COMPANY": (MergedCompanyStarted, (str, int, str)),
    "GetShareForMinor": (ShareForMinor, (str, int, str, str, str)),
    "PlayerIsBankrupt": (PlayerBankrupt, (str,)),
    "CompanyIsBankrupt": (CompanyBankrupt, (str,)),
    "CompanyGetsLoanToBuyTrain": (BankLoan, (str, int)),
    "CompanyRepaysBankLoan": (BankLoanRepaid, (str, int, int)),
    "CompanyCloses": (CompanyClosed, (str,)),
    "BankIsBrokenReportText": (BankBroken, ()),
    "GameOver": (GameOver, ()),
    "Has": (Has, (str, int)),
}
"""Keys whose fields convert one to one: key -> (event class, field converters)."""

_RANKING = re.compile(r"^(\d+)\. (-?\d+) (.+)$")
_CERT_KEYS = {"CERT_NAME": False, "PRES_CERT_NAME": True}
_DIVIDEND_CAUSE = {
    "CompanyPaysOutFull": "payout",
    "CompanyWithholds": "withhold",
    "CompanyDoesNotPayDividend": "withhold",
}

KEYS: frozenset[str] = frozenset(
    {
        *_SIMPLE,
        "BuysItemFor",
        "ALSO_GETS",
        "Floats",
        "PASSES",
        "Autopasses",
        "BUY_SHARE_LOG",
        "SELL_SHARE_LOG",
        "SELL_SHARES_LOG",
        "PRICE_MOVES_LOG",
        "PRICE_STAYS_LOG",
        "SoldOut",
        "LaysTileAt",
        "LaysTileAtFor",
        "LAYS_TOKEN_ON",
        "LAYS_FREE_TOKEN_ON",
        "PhaseClosesAllPrivates",
        "CompanyPaysOutFull",
        "CompanyWithholds",
        "CompanyDoesNotPayDividend",
        "PlayerMustRaiseCash",
        "MERGE_MINOR_LOG",
        "ExchangesBaseToken",
        "EndOfFormationRound",
        "EndOfFormationRoundNoInterrupt",
    }
)
"""Every line key the parser understands (besides the end-of-game ranking lines)."""


_TURN_BREAKS = (
    StockRoundStarted,
    StockRoundEnded,
    OperatingRoundStarted,
    CompanyOperates,
    OperatingRoundEnded,
)
"""Lines after which no sale continues the previous seller's turn."""


@dataclass
class _State:
    """What the parser remembers between lines: pending price-move causes per company and the
    sales of the current stock-round turn or emergency (1835 rules §5.3, §8.8)."""

    cause: dict[str, str] = field(default_factory=dict)
    turn_player: str | None = None
    sold: set[str] = field(default_factory=set)

    def turn(self, player: str | None) -> None:
        """A line by ``player`` in a stock round; a new player starts a new turn."""
        if player != self.turn_player:
            self.turn_player = player
            self.sold = set()


def _convert(line: int, key: str, convs: Sequence[_Conv], args: Sequence[str]) -> list[object]:
    if len(args) != len(convs):
        raise ReportError(line, f"{key} needs {len(convs)} fields, has {len(args)}")
    try:
        return [conv(arg) for conv, arg in zip(convs, args, strict=True)]
    except ValueError as exc:
        raise ReportError(line, f"{key}: bad field ({exc})") from None


def _cert(line: int, parts: Sequence[str]) -> Certificate:
    if len(parts) != 3 or parts[0] not in _CERT_KEYS:
        raise ReportError(line, f"bad certificate {','.join(parts)!r}")
    try:
        percent = int(parts[2])
    except ValueError:
        raise ReportError(line, f"bad certificate percent {parts[2]!r}") from None
    return Certificate(parts[1], percent, _CERT_KEYS[parts[0]])


def _optional_int(value: str) -> int | None:
    return None if value == "no" else int(value)


class _Parser:
    """Turns lines into events; one instance per report."""

    def __init__(self) -> None:
        self.state = _State()

    def parse(self, n: int, text: str) -> Event | None:
        if text == " ":
            return None
        if text.startswith("EoGWinner") and text.endswith("!"):
            return Winner(n, text[len("EoGWinner") : -1])
        if text == "EoGFinalRanking :":
            return FinalRanking(n)
        match = _RANKING.match(text)
        if match:
            return Ranking(n, int(match.group(1)), int(match.group(2)), match.group(3))
        key, *args = text.split(",")
        if key in _SIMPLE:
            cls, convs = _SIMPLE[key]
            event = cls(n, *_convert(n, key, convs, args))
            self._track(event)
            return event
        special = getattr(self, f"_k_{key}", None)
        if special is None:
            shown = text if len(text) <= 80 else f"{text[:77]}..."
            raise ReportError(n, f"unknown line {shown!r}")
        result: Event = special(n, key, args)
        return result

    def _track(self, event: Event) -> None:
        """Context kept for price-move causes and repeated sales."""
        if isinstance(event, _TURN_BREAKS):
            self.state.turn(None)

    # start round and stock round

    def _k_BuysItemFor(self, n: int, key: str, args: list[str]) -> Event:
        if len(args) == 3:
            player, item, price = _convert(n, key, (str, str, int), args)
            return StartItemBought(n, str(player), str(item), None, int(str(price)))
        if len(args) == 5:
            cert = _cert(n, args[1:4])
            price = _convert(n, key, (int,), args[4:])[0]
            item = f"{cert.company}_D" if cert.president else cert.company
            return StartItemBought(n, args[0], item, cert, int(str(price)))
        raise ReportError(n, f"{key} needs 3 or 5 fields, has {len(args)}")

    def _k_ALSO_GETS(self, n: int, key: str, args: list[str]) -> Event:
        if len(args) != 4:
            raise ReportError(n, f"{key} needs 4 fields, has {len(args)}")
        return AlsoGets(n, args[0], _cert(n, args[1:]))

    def _k_Floats(self, n: int, key: str, args: list[str]) -> Event:
        (company,) = _convert(n, key, (str,), args)
        return Floated(n, str(company), None)

    def _k_PASSES(self, n: int, key: str, args: list[str]) -> Event:
        (player,) = _convert(n, key, (str,), args)
        self.state.turn(None)
        return Passed(n, str(player))

    def _k_Autopasses(self, n: int, key: str, args: list[str]) -> Event:
        (player,) = _convert(n, key, (str,), args)
        self.state.turn(None)
        return Autopassed(n, str(player))

    def _k_BUY_SHARE_LOG(self, n: int, key: str, args: list[str]) -> Event:
        f = _convert(n, key, (str, int, str, str, int), args)
        self.state.turn(str(f[0]))
        return ShareBought(n, str(f[0]), int(str(f[1])), str(f[2]), str(f[3]), int(str(f[4])))

    def _sale(
        self, n: int, player: str, count: int, percent: int, company: str, amount: int
    ) -> Event:
        s = self.state
        s.turn(player)
        repeated = company in s.sold
        s.sold.add(company)
        s.cause[company] = "adjust_down" if repeated else "sale"
        return SharesSold(n, player, count, percent, company, amount, repeated)

    def _k_SELL_SHARE_LOG(self, n: int, key: str, args: list[str]) -> Event:
        f = _convert(n, key, (str, int, str, int), args)
        return self._sale(n, str(f[0]), 1, int(str(f[1])), str(f[2]), int(str(f[3])))

    def _k_SELL_SHARES_LOG(self, n: int, key: str, args: list[str]) -> Event:
        f = _convert(n, key, (str, int, int, int, str, int), args)
        count, percent, total = int(str(f[1])), int(str(f[2])), int(str(f[3]))
        if count * percent != total:
            raise ReportError(n, f"{key}: {count} x {percent}% is not {total}%")
        return self._sale(n, str(f[0]), count, percent, str(f[4]), int(str(f[5])))

    def _cause(self, n: int, company: str) -> str:
        cause = self.state.cause.pop(company, None)
        if cause is None:
            raise ReportError(n, f"price of {company} moves without a cause")
        return cause

    def _k_PRICE_MOVES_LOG(self, n: int, key: str, args: list[str]) -> Event:
        f = _convert(n, key, (str, int, str, int, str), args)
        company = str(f[0])
        return PriceMoved(
            n,
            company,
            int(str(f[1])),
            str(f[2]),
            int(str(f[3])),
            str(f[4]),
            self._cause(n, company),
        )

    def _k_PRICE_STAYS_LOG(self, n: int, key: str, args: list[str]) -> Event:
        f = _convert(n, key, (str, int, str), args)
        company = str(f[0])
        return PriceStayed(n, company, int(str(f[1])), str(f[2]), self._cause(n, company))

    def _k_SoldOut(self, n: int, key: str, args: list[str]) -> Event:
        (company,) = _convert(n, key, (str,), args)
        self.state.cause[str(company)] = "sold_out"
        return SoldOut(n, str(company))

    # operating rounds

    def _tile(self, n: int, args: list[str], cost: int) -> Event:
        company, tile, hex_id, orientation = args[:4]
        if orientation not in RAILS_ORIENTATIONS:
            raise ReportError(n, f"unknown orientation {orientation!r}")
        try:
            rotation = rails_rotation(tile, orientation)
        except KeyError:
            raise ReportError(n, f"unknown tile {tile!r}") from None
        return TileLaid(n, company, tile, hex_id, orientation, rotation, cost)

    def _k_LaysTileAt(self, n: int, key: str, args: list[str]) -> Event:
        _convert(n, key, (str, str, str, str), args)
        return self._tile(n, args, 0)

    def _k_LaysTileAtFor(self, n: int, key: str, args: list[str]) -> Event:
        f = _convert(n, key, (str, str, str, str, int), args)
        return self._tile(n, args, int(str(f[4])))

    def _k_LAYS_TOKEN_ON(self, n: int, key: str, args: list[str]) -> Event:
        f = _convert(n, key, (str, str, int), args)
        return TokenLaid(n, str(f[0]), str(f[1]), int(str(f[2])), False)

    def _k_LAYS_FREE_TOKEN_ON(self, n: int, key: str, args: list[str]) -> Event:
        f = _convert(n, key, (str, str), args)
        return TokenLaid(n, str(f[0]), str(f[1]), 0, True)

    def _k_PhaseClosesAllPrivates(self, n: int, key: str, args: list[str]) -> Event:
        if args not in ([], [""]):
            raise ReportError(n, f"{key} has unexpected fields")
        return PhaseClosesPrivates(n)

    def _dividend(self, n: int, key: str, args: list[str], with_amount: bool) -> Event:
        convs: tuple[_Conv, ...] = (str, int) if with_amount else (str,)
        f = _convert(n, key, convs, args)
        company = str(f[0])
        self.state.cause[company] = _DIVIDEND_CAUSE[key]
        if key == "CompanyPaysOutFull":
            return PaysOut(n, company, int(str(f[1])))
        if key == "CompanyWithholds":
            return Withholds(n, company, int(str(f[1])))
        return NoDividend(n, company)

    def _k_CompanyPaysOutFull(self, n: int, key: str, args: list[str]) -> Event:
        return self._dividend(n, key, args, True)

    def _k_CompanyWithholds(self, n: int, key: str, args: list[str]) -> Event:
        return self._dividend(n, key, args, True)

    def _k_CompanyDoesNotPayDividend(self, n: int, key: str, args: list[str]) -> Event:
        return self._dividend(n, key, args, False)

    def _k_PlayerMustRaiseCash(self, n: int, key: str, args: list[str]) -> Event:
        f = _convert(n, key, (str, int, str), args)
        self.state.turn(None)
        self.state.turn(str(f[0]))
        return MustRaiseCash(n, str(f[0]), int(str(f[1])), str(f[2]))

    # Prussian formation

    def _k_MERGE_MINOR_LOG(self, n: int, key: str, args: list[str]) -> Event:
        f = _convert(n, key, (str, str, str, _optional_int, _optional_int), args)
        cash, trains = f[3], f[4]
        return Merged(
            n,
            str(f[0]),
            str(f[1]),
            str(f[2]),
            cash if isinstance(cash, int) else None,
            trains if isinstance(trains, int) else None,
        )

    def _k_ExchangesBaseToken(self, n: int, key: str, args: list[str]) -> Event:
        f = _convert(n, key, (str, str, str), args)
        hex_id, _, station = str(f[2]).partition("/")
        if not station.isdigit():
            raise ReportError(n, f"{key}: bad station {f[2]!r}")
        return BaseTokenExchanged(n, str(f[0]), str(f[1]), hex_id, int(station))

    def _k_EndOfFormationRound(self, n: int, key: str, args: list[str]) -> Event:
        f = _convert(n, key, (str, str), args)
        return FormationRoundEnded(n, str(f[0]), str(f[1]))

    def _k_EndOfFormationRoundNoInterrupt(self, n: int, key: str, args: list[str]) -> Event:
        f = _convert(n, key, (str,), args)
        return FormationRoundEnded(n, str(f[0]), None)


@dataclass(frozen=True)
class Report:
    """A parsed report: every event in line order."""

    events: tuple[Event, ...]

    @property
    def players(self) -> list[str]:
        """Player names in seat order."""
        seats = sorted((e.seat, e.name) for e in self.events if isinstance(e, PlayerIs))
        return [name for _, name in seats]

    def of(self, kind: type[Event]) -> list[Event]:
        """The events of one type, in order."""
        return [e for e in self.events if isinstance(e, kind)]

    def checkpoints(self) -> list[list[Has]]:
        """The ``Has`` lines grouped into blocks (one block per round end)."""
        blocks: list[list[Has]] = []
        last = -2
        for e in self.events:
            if isinstance(e, Has):
                if e.line != last + 1:
                    blocks.append([])
                blocks[-1].append(e)
                last = e.line
        return blocks


def parse_lines(lines: Iterable[str]) -> Report:
    """Parse report lines (without line ends); raises :class:`ReportError` on the first line
    the format does not describe (rails-report-format.md §2)."""
    parser = _Parser()
    events: list[Event] = []
    for n, text in enumerate(lines, start=1):
        event = parser.parse(n, text)
        if event is not None:
            events.append(event)
    return Report(tuple(events))


def parse_text(text: str) -> Report:
    """Parse a whole report given as text (UTF-8 decoded, Unix line ends)."""
    return parse_lines(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"))


def parse_file(path: str | Path) -> Report:
    """Parse a ``.report`` file (UTF-8)."""
    return parse_text(Path(path).read_text(encoding="utf-8"))
