"""The order language (issue 10 item 1): every form of the table, both languages, case and
umlauts (``ue`` for ``ü``), ``#`` comments, corrections."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stellwerk.gm import orders as o
from stellwerk.gm.orders import OrderError, is_correction, normalise, parse_order, parse_text

TABLE = [
    ("pass", "passe", o.Pass()),
    ("bid 120 on SCE", "biete 120 auf SCE", o.Bid(120, "SCE")),
    ("bids SFTG=60 SB=20", "gebote SFTG=60 SB=20", o.SealedBids((("SFTG", 60), ("SB", 20)))),
    ("par ATA at 100", "gründe ATA zu 100", o.Par("ATA", 100)),
    ("buy ATA", "kaufe ATA", o.Buy("ATA")),
    ("buy ATA from pool", "kaufe ATA aus pool", o.Buy("ATA", "pool")),
    ("buy ATA from ipo", "kaufe ATA aus ipo", o.Buy("ATA", "ipo")),
    ("buy ATA from CTL", "kaufe ATA aus CTL", o.Buy("ATA", "ctl")),
    ("sell 2 ATA", "verkaufe 2 ATA", o.Sell(2, "ATA")),
    ("ATA: lay 57 on H12 rotation 2", "ATA: lege 57 auf H12 drehung 2",
     o.Lay("57", "H12", 2, corp="ATA")),
    ("ATA: token H12", "ATA: marke H12", o.Token("H12", corp="ATA")),
    ("ATA: token H12 city 2", "ATA: marke H12 stadt 2", o.Token("H12", 2, corp="ATA")),
    ("ATA: run best", "ATA: fahre optimal", o.Run(best=True, corp="ATA")),
    ("ATA: run H12-J10-L12 with 4H", "ATA: fahre H12-J10-L12 mit 4H",
     o.Run(routes=(o.RunRoute(("H12", "J10", "L12"), "4H"),), corp="ATA")),
    ("ATA: payout", "ATA: ausschütten", o.Dividend("payout", corp="ATA")),
    ("ATA: withhold", "ATA: einbehalten", o.Dividend("withhold", corp="ATA")),
    ("ATA: half", "ATA: halb", o.Dividend("half", corp="ATA")),
    ("ATA: buy train 6H", "ATA: kaufe zug 6H", o.BuyTrain("6H", corp="ATA")),
    ("ATA: buy train 6H from CTL for 200", "ATA: kaufe zug 6H von CTL für 200",
     o.BuyTrain("6H", "ctl", 200, corp="ATA")),
    ("take cash", "nimm geld", o.Take("cash")),
    ("take shares", "nimm aktien", o.Take("shares")),
    ("ATA: pass", "ATA: passe", o.Pass(corp="ATA")),
]  # fmt: skip


@pytest.mark.parametrize(("english", "german", "expected"), TABLE)
def test_issue10_item1_every_form_of_the_table_in_both_languages(
    english: str, german: str, expected: o.Order
) -> None:
    assert parse_order(english) == expected
    assert parse_order(german) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("GRUENDE ATA ZU 100", o.Par("ATA", 100)),
        ("gruende ata zu 100", o.Par("ATA", 100)),
        ("ATA: AUSSCHUETTEN", o.Dividend("payout", corp="ATA")),
        ("ata: kaufe zug 6h von ctl fuer 200", o.BuyTrain("6H", "ctl", 200, corp="ATA")),
        ("  Kaufe   ATA   aus  Pool  ", o.Buy("ATA", "pool")),
        ("buy ATA # the last one I can afford", o.Buy("ATA")),
        ("ATA: lege 57 auf H12 Drehung 2  # Richtung Palermo", o.Lay("57", "H12", 2, corp="ATA")),
    ],
)
def test_issue10_item1_case_umlauts_and_comments(text: str, expected: o.Order) -> None:
    assert parse_order(text) == expected


@pytest.mark.parametrize("text", ["", "   ", "# only a comment", "  # Zug 3"])
def test_a_blank_or_comment_line_is_no_order(text: str) -> None:
    assert parse_order(text) is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("fly to the moon", "unknown order 'fly'"),
        ("bid lots on SCE", "is not a number"),
        ("par ATA", "par ATA at 100"),
        ("ATA: lay 57 on H12 rotation 9", "rotations are 0 to 5"),
        ("ATA: lay 57 H12", "lay 57 on H12"),
        ("ATA: token 57-0", "is not a hex"),
        ("ATA: run H12 with 4H", "fewer than two stops"),
        ("bids", "without bids"),
        ("bids SFTG:60", "SFTG=60"),
        ("take everything", "take cash"),
        ("pass now", "takes nothing more"),
    ],
)
def test_a_malformed_order_is_refused_naming_the_problem(text: str, problem: str) -> None:
    with pytest.raises(OrderError, match=problem.replace("(", r"\(")):
        parse_order(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("pass until end of round", o.StandingPass()),
        ("passe bis Rundenende", o.StandingPass()),
        ("buy ATA until 60%", o.StandingBuy("ATA", 60)),
        ("kaufe ATA bis 60 %", o.StandingBuy("ATA", 60)),
        ("buy ATA until floated", o.StandingBuy("ATA", None)),
        ("kaufe ATA bis gegründet", o.StandingBuy("ATA", None)),
        ("bid up to 150 on SCE", o.StandingBid(150, "SCE")),
        ("biete bis 150 auf SCE", o.StandingBid(150, "SCE")),
        ("always take cash", o.StandingCash()),
        ("immer Geld nehmen", o.StandingCash()),
        ("ATA: always run best and pay out", o.StandingRun(corp="ATA")),
        ("ATA: immer optimal fahren und ausschütten", o.StandingRun(corp="ATA")),
        ("cancel standing orders", o.CancelStanding()),
        ("Daueraufträge löschen", o.CancelStanding()),
    ],
)
def test_issue10_item2_standing_orders_in_both_languages(text: str, expected: o.Order) -> None:
    assert parse_order(text) == expected


def test_issue10_item1_a_mail_reads_line_by_line_quotes_and_signature_left_out() -> None:
    body = "Änderung\n# meine Züge\nkaufe ATA\n> quoted old line\nfly\n\npasse\n--\nAnna\n"
    lines = parse_text(body)
    assert [(line.number, line.order) for line in lines if line.order] == [
        (3, o.Buy("ATA")),
        (7, o.Pass()),
    ]
    assert [line.text for line in lines if line.error] == ["fly"]


@pytest.mark.parametrize(
    ("subject", "body", "expected"),
    [
        ("Änderung", "kaufe ATA", True),
        ("Re: Aenderung der Zuege", "kaufe ATA", True),
        ("orders", "Correction:\nbuy ATA", True),
        ("orders", "buy ATA\ncorrection", False),
        ("Züge", "kaufe ATA", False),
    ],
)
def test_issue10_item1_a_correction_is_marked_in_subject_or_first_line(
    subject: str, body: str, expected: bool
) -> None:
    assert is_correction(subject, body) is expected


@given(st.sampled_from([row[0] for row in TABLE] + [row[1] for row in TABLE]),
       st.lists(st.booleans(), min_size=60, max_size=60))  # fmt: skip
def test_property_case_never_changes_an_order(text: str, upper: list[bool]) -> None:
    mixed = "".join(c.upper() if u else c.lower() for c, u in zip(text, upper * 3, strict=False))
    assert parse_order(mixed) == parse_order(text)


@given(st.text(max_size=40))
def test_property_normalise_is_idempotent_and_never_fails(text: str) -> None:
    once = normalise(text)
    assert normalise(once) == once
    assert "#" not in once
