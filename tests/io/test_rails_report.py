"""The Rails report parser (shared/rules/rails-report-format.md): every line of the eleven 1835
reports becomes one event; hand-written snippets for each line type; errors name the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from stellwerk.io import rails_report as rr

REPORTS = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "rails" / "1835"

HAS_LINES = {
    "1835_AfterEmergency1": 220,
    "1835_AfterEmergency2d": 220,
    "1835_CorrectPrussianSharePriceinShareSellingRound": 251,
    "1835_Correct_Sell_Pass": 192,
    "1835_Forced_Selling_PR_5_Shares": 224,
    "1835_Issue129done": 260,
    "1835_SellDoubleShare": 287,
    "1835_SellPresidency": 204,
    "1835_ShareSelling_Test": 192,
    "1835_Stoll_12": 244,
    "1835_changePresidentAtStart": 11,
}


def _report(name: str) -> rr.Report:
    path = REPORTS / f"{name}.report"
    if not path.is_file():
        pytest.skip(f"Rails reports not found at {REPORTS}")
    return rr.parse_file(path)


def _at(report: rr.Report, line: int) -> rr.Event:
    return next(e for e in report.events if e.line == line)


# --- the real reports ---------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(HAS_LINES))
def test_every_line_parses(name: str) -> None:
    """Each line but the single-space separators yields exactly one event, in order."""
    report = _report(name)
    lines = (REPORTS / f"{name}.report").read_text(encoding="utf-8").split("\n")[:-1]
    content = [n for n, text in enumerate(lines, start=1) if text != " "]
    assert [e.line for e in report.events] == content
    assert len(report.of(rr.Has)) == HAS_LINES[name]


def test_reports_are_all_present() -> None:
    if not REPORTS.is_dir():
        pytest.skip(f"Rails reports not found at {REPORTS}")
    assert sorted(p.stem for p in REPORTS.glob("*.report")) == sorted(HAS_LINES)


def test_stoll_start_packet_lines() -> None:
    """Snake game Stoll_12: players, starting cash, first purchases, the BY director item."""
    r = _report("1835_Stoll_12")
    assert r.players == ["Eyal", "Marco", "Nick", "Christian"]
    assert _at(r, 6) == rr.PlayerCash(6, 475)
    assert _at(r, 12) == rr.StartItemBought(12, "Eyal", "M1", None, 80)
    assert _at(r, 13) == rr.Floated(13, "M1", 80)
    assert _at(r, 15) == rr.AlsoGets(15, "Marco", rr.Certificate("SX", 20, True))
    by = [
        e for e in r.of(rr.StartItemBought) if isinstance(e, rr.StartItemBought) and e.certificate
    ]
    assert [(e.item, e.price, e.player) for e in by] == [("BY_D", 184, "Christian")]
    first_block = r.checkpoints()[0]
    assert [(h.entity, h.cash) for h in first_block][-4:] == [
        ("Eyal", 5),
        ("Marco", 45),
        ("Nick", 55),
        ("Christian", 111),
    ]


def test_tile_lays_converted_to_18xx_rotation() -> None:
    """Format §3.2 examples: 201 on H2 SW -> 5; 8 on E17 NW -> 2; 57 on G5 SW -> 0."""
    r = _report("1835_AfterEmergency1")
    assert _at(r, 79) == rr.TileLaid(79, "M1", "201", "H2", "SW", 5, 0)
    assert _at(r, 85) == rr.TileLaid(85, "M2", "8", "E17", "NW", 2, 0)
    assert _at(r, 94) == rr.TileLaid(94, "M4", "57", "G5", "SW", 0, 0)
    costs = [e.cost for e in r.of(rr.TileLaid) if isinstance(e, rr.TileLaid)]
    assert set(costs) <= {0, 50, 70}


def test_prussian_formation_lines() -> None:
    """AfterEmergency1 OR 7.1: PR forms, BB via 'no' fields, M5 without token exchange."""
    r = _report("1835_AfterEmergency1")
    assert _at(r, 1156) == rr.MergedCompanyStarted(1156, "PR", 154, "154")
    assert _at(r, 1157) == rr.Floated(1157, "PR", 616)
    assert _at(r, 1161) == rr.Merged(1161, "Nick", "BB", "PR", None, None)
    assert _at(r, 1173) == rr.Merged(1173, "Eyal", "M5", "PR", 0, 1)
    assert _at(r, 1160) == rr.BaseTokenExchanged(1160, "PR", "M2", "E19", 1)
    assert _at(r, 1182) == rr.FormationRoundEnded(1182, "PR", "OperatingRound 7.1")
    assert _at(r, 1183) == rr.PresidentChanged(1183, "Eyal", "PR")


def test_repeated_sale_and_adjust_down() -> None:
    """Format §3.3: AfterEmergency2d SR 8, Marco sells SX twice at 108; the second price line is
    his optional 'adjust down' action."""
    r = _report("1835_AfterEmergency2d")
    assert _at(r, 1348) == rr.SharesSold(1348, "Marco", 1, 10, "SX", 108, False)
    assert _at(r, 1349) == rr.PriceMoved(1349, "SX", 108, "D2", 100, "D3", "sale")
    assert _at(r, 1350) == rr.SharesSold(1350, "Marco", 1, 10, "SX", 108, True)
    assert _at(r, 1351) == rr.PriceMoved(1351, "SX", 100, "D3", 94, "D4", "adjust_down")
    causes = {e.cause for e in r.events if isinstance(e, rr.PriceMoved | rr.PriceStayed)}
    assert causes == {"payout", "withhold", "sale", "sold_out", "adjust_down"}


def test_only_one_adjust_down_in_all_reports() -> None:
    """Format §3.3: the adjust action occurs exactly once in the reports."""
    if not REPORTS.is_dir():
        pytest.skip(f"Rails reports not found at {REPORTS}")
    found = []
    for path in sorted(REPORTS.glob("*.report")):
        for e in rr.parse_file(path).events:
            if isinstance(e, rr.PriceMoved) and e.cause == "adjust_down":
                found.append((path.stem, e.line))
    assert found == [("1835_AfterEmergency2d", 1351)]


def test_short_or_and_all_passed() -> None:
    """Clemens with minors waiting for BY: start rounds end unsold, short ORs follow."""
    r = _report("1835_CorrectPrussianSharePriceinShareSellingRound")
    assert _at(r, 38) == rr.AllPassed(38)
    assert _at(r, 56) == rr.ShortOperatingRound(56)


def test_emergency_selling_lines() -> None:
    """Format §2.4: PlayerMustRaiseCash / PlayerMustSellShares then sales, cash, train."""
    r = _report("1835_AfterEmergency1")
    raises = [e for e in r.events if isinstance(e, rr.MustRaiseCash)]
    assert raises and all(e.amount > 0 for e in raises)
    i = r.events.index(raises[0])
    assert isinstance(r.events[i + 1], rr.MustSellShares)


# --- snippets for each line type ----------------------------------------------------------


def _one(text: str) -> rr.Event:
    (event,) = rr.parse_lines([text]).events
    return event


@pytest.mark.parametrize(
    ("text", "event"),
    [
        ("GameIs,1835", rr.GameIs(1, "1835")),
        ("PlayerIs,2,Sven K.", rr.PlayerIs(1, 2, "Sven K.")),
        ("PlayerIs,3,Klaus-Jürgen", rr.PlayerIs(1, 3, "Klaus-Jürgen")),
        ("PlayerCash,475", rr.PlayerCash(1, 475)),
        ("BankHas,10100", rr.BankHas(1, 10100)),
        ("BankSizeIs,10100", rr.BankSize(1, 10100)),
        ("StartOfPhase,4+4", rr.PhaseStarted(1, "4+4")),
        ("StartOfInitialRound,2", rr.StartRoundStarted(1, 2)),
        ("HasPriority,Eyal", rr.PriorityHolder(1, "Eyal")),
        ("BuysItemFor,Eyal,PfB,150", rr.StartItemBought(1, "Eyal", "PfB", None, 150)),
        (
            "BuysItemFor,Christian,PRES_CERT_NAME,BY,20,184",
            rr.StartItemBought(1, "Christian", "BY_D", rr.Certificate("BY", 20, True), 184),
        ),
        ("ALSO_GETS,Nick,CERT_NAME,BY,10", rr.AlsoGets(1, "Nick", rr.Certificate("BY", 10, False))),
        ("FloatsWithCash,BY,460", rr.Floated(1, "BY", 460)),
        ("Floats,PR", rr.Floated(1, "PR", None)),
        ("CannotBuyAnything,Dan", rr.CannotBuyAnything(1, "Dan")),
        ("PASSES,Marco", rr.Passed(1, "Marco")),
        ("ALL_PASSED", rr.AllPassed(1)),
        ("IS_NOW_PRES_OF,Helmut,BA", rr.PresidentChanged(1, "Helmut", "BA")),
        ("StartStockRound,3", rr.StockRoundStarted(1, 3)),
        ("BUY_SHARE_LOG,Basti,10,BA,IPO,84", rr.ShareBought(1, "Basti", 10, "BA", "IPO", 84)),
        (
            "BUY_SHARE_LOG,Basti,10,BA,Stefan,165",
            rr.ShareBought(1, "Basti", 10, "BA", "Stefan", 165),
        ),
        ("PriceIsPaidTo,92,BY", rr.PricePaidToCompany(1, 92, "BY")),
        (
            "START_COMPANY_LOG,Basti,BA,84,168,2,20,BANK",
            rr.CompanyStarted(1, "Basti", "BA", 84, 168, 2, 20, "BANK"),
        ),
        ("SharesReleased,40%,PR", rr.SharesReleased(1, "40%", "PR")),
        ("SELL_SHARE_LOG,Basti,20,HE,220", rr.SharesSold(1, "Basti", 1, 20, "HE", 220, False)),
        ("SELL_SHARES_LOG,Basti,3,5,15,PR,189", rr.SharesSold(1, "Basti", 3, 5, "PR", 189, False)),
        ("Autopasses,Dan", rr.Autopassed(1, "Dan")),
        ("END_SR,4", rr.StockRoundEnded(1, 4)),
        ("SoldOut,BY", rr.SoldOut(1, "BY")),
        ("START_OR,0.1", rr.OperatingRoundStarted(1, "0.1")),
        ("ReceivesFor,Eyal,30,HB", rr.PrivateRevenue(1, "Eyal", 30, "HB")),
        ("ShortORExecuted", rr.ShortOperatingRound(1)),
        ("CompanyOperates,MS,Volker Kuhnle", rr.CompanyOperates(1, "MS", "Volker Kuhnle")),
        ("LaysTileAt,BA,16,I5,SE", rr.TileLaid(1, "BA", "16", "I5", "SE", 5, 0)),
        ("LaysTileAtFor,BA,201,I3,NE,50", rr.TileLaid(1, "BA", "201", "I3", "NE", 2, 50)),
        ("LAYS_TOKEN_ON,BA,H2,80", rr.TokenLaid(1, "BA", "H2", 80, False)),
        ("LAYS_FREE_TOKEN_ON,BY,L14", rr.TokenLaid(1, "BY", "L14", 0, True)),
        ("PrivateCloses,OBB", rr.PrivateClosed(1, "OBB")),
        ("PhaseClosesAllPrivates,", rr.PhaseClosesPrivates(1)),
        ("CompanyRevenue,BA,0", rr.Revenue(1, "BA", 0)),
        ("CompanyPaysOutFull,BY,150", rr.PaysOut(1, "BY", 150)),
        ("CompanyWithholds,BY,150", rr.Withholds(1, "BY", 150)),
        ("CompanySplits,M1,50", rr.Splits(1, "M1", 50)),
        ("RECEIVES,M1,25", rr.MinorReceives(1, "M1", 25)),
        ("CompanyDoesNotPayDividend,HE", rr.NoDividend(1, "HE")),
        ("Payout,Lonny,210,7,10", rr.Payout(1, "Lonny", 210, 7, 10)),
        ("BuysTrain,HE,2+2,M1,1", rr.TrainBought(1, "HE", "2+2", "M1", 1)),
        ("FirstTrainBought,3+3", rr.FirstTrainBought(1, "3+3")),
        ("NewTrainAvailable,2,2+2", rr.NewTrainAvailable(1, "2", "2+2")),
        ("TrainsRusted,2", rr.TrainsRusted(1, "2")),
        ("CompanyDiscardsTrain,BA,3,Pool", rr.TrainDiscarded(1, "BA", "3", "Pool")),
        ("PresidentAddsCash,BA,Eyal,588", rr.PresidentAddsCash(1, "BA", "Eyal", 588)),
        ("PlayerMustRaiseCash,Eyal,11,6", rr.MustRaiseCash(1, "Eyal", 11, "6")),
        ("PlayerMustSellShares,Eyal,11", rr.MustSellShares(1, "Eyal", 11)),
        ("EndOfOperatingRound,2.1", rr.OperatingRoundEnded(1, "2.1")),
        ("ORWorthIncrease,Basti,1.1,-9", rr.WorthIncrease(1, "Basti", "1.1", -9)),
        (
            "NoIncomeForPreviousOperation,Eyal,5,PR",
            rr.NoIncomeForPreviousOperation(1, "Eyal", 5, "PR"),
        ),
        ("StartFormationRound,PR", rr.FormationRoundStarted(1, "PR")),
        ("StartingPlayer,Nick", rr.StartingPlayer(1, "Nick")),
        ("START_MERGED_COMPANY,PR,154,154", rr.MergedCompanyStarted(1, "PR", 154, "154")),
        ("MERGE_MINOR_LOG,Basti,M3,PR,56,0", rr.Merged(1, "Basti", "M3", "PR", 56, 0)),
        ("MERGE_MINOR_LOG,Eyal,HB,PR,no,no", rr.Merged(1, "Eyal", "HB", "PR", None, None)),
        ("GetShareForMinor,Basti,5,PR,IPO,M1", rr.ShareForMinor(1, "Basti", 5, "PR", "IPO", "M1")),
        ("ExchangesBaseToken,PR,M6,C11/1", rr.BaseTokenExchanged(1, "PR", "M6", "C11", 1)),
        (
            "EndOfFormationRound,PR,OperatingRound 4.2",
            rr.FormationRoundEnded(1, "PR", "OperatingRound 4.2"),
        ),
        ("EndOfFormationRoundNoInterrupt,PR", rr.FormationRoundEnded(1, "PR", None)),
        ("PlayerIsBankrupt,Dan", rr.PlayerBankrupt(1, "Dan")),
        ("CompanyIsBankrupt,BA", rr.CompanyBankrupt(1, "BA")),
        ("CompanyGetsLoanToBuyTrain,BA,120", rr.BankLoan(1, "BA", 120)),
        ("CompanyRepaysBankLoan,BA,100,20", rr.BankLoanRepaid(1, "BA", 100, 20)),
        ("CompanyCloses,BA", rr.CompanyClosed(1, "BA")),
        ("BankIsBrokenReportText", rr.BankBroken(1)),
        ("GameOver", rr.GameOver(1)),
        ("EoGWinnerLonny!", rr.Winner(1, "Lonny")),
        ("EoGFinalRanking :", rr.FinalRanking(1)),
        ("1. 8554 Lonny", rr.Ranking(1, 1, 8554, "Lonny")),
        ("4. 3210 Sven K.", rr.Ranking(1, 4, 3210, "Sven K.")),
        ("Has,Christian,111", rr.Has(1, "Christian", 111)),
    ],
)
def test_line_types(text: str, event: rr.Event) -> None:
    assert _one(text) == event


def test_every_key_is_covered_by_a_snippet() -> None:
    """The snippet table above exercises each key the parser knows."""
    source = Path(__file__).read_text(encoding="utf-8")
    for key in rr.KEYS:
        assert f'"{key},' in source or f'"{key}"' in source, key


def test_price_causes_from_context() -> None:
    """Payout/withhold/sold-out/sale set the cause of the next price line of that company."""
    lines = [
        "CompanyPaysOutFull,BY,150",
        "PRICE_MOVES_LOG,BY,92,C3,100,D3",
        "CompanyWithholds,BY,150",
        "PRICE_MOVES_LOG,BY,100,D3,92,C3",
        "END_SR,1",
        "SoldOut,BY",
        "PRICE_STAYS_LOG,BY,148,F1",
        "StartStockRound,2",
        "SELL_SHARE_LOG,A,10,SX,90",
        "PRICE_MOVES_LOG,SX,90,D5,86,C5",
        "PASSES,A",
        "SELL_SHARE_LOG,A,10,SX,86",
        "PRICE_MOVES_LOG,SX,86,C5,82,C6",
    ]
    events = rr.parse_lines(lines).events
    causes = [e.cause for e in events if isinstance(e, rr.PriceMoved | rr.PriceStayed)]
    assert causes == ["payout", "withhold", "sold_out", "sale", "sale"]


def test_price_move_without_cause_is_an_error() -> None:
    with pytest.raises(rr.ReportError, match="line 2"):
        rr.parse_lines(["GameIs,1835", "PRICE_MOVES_LOG,BY,92,C3,100,D3"])


def test_unknown_line_names_its_number() -> None:
    with pytest.raises(rr.ReportError) as info:
        rr.parse_lines(["GameIs,1835", " ", "SomethingNew,1"])
    assert info.value.line == 3
    assert "line 3" in str(info.value)


@pytest.mark.parametrize(
    "text",
    [
        "PlayerIs,1",
        "PlayerCash,lots",
        "BuysItemFor,Eyal,M1",
        "ALSO_GETS,Nick,SHARE,BY,10",
        "LaysTileAt,BA,999,I5,SE",
        "LaysTileAt,BA,16,I5,UP",
        "SELL_SHARES_LOG,Basti,3,5,20,PR,189",
        "ExchangesBaseToken,PR,M6,C11",
        "PhaseClosesAllPrivates,x",
        "",
    ],
)
def test_malformed_lines_are_errors(text: str) -> None:
    with pytest.raises(rr.ReportError, match="line 1"):
        rr.parse_lines([text])


def test_parse_text_handles_final_newline() -> None:
    report = rr.parse_text("GameIs,1835\nPlayerIs,1,A\n \nHas,A,5\n")
    assert [e.line for e in report.events] == [1, 2, 4]
    assert report.checkpoints() == [[rr.Has(4, "A", 5)]]
