"""Trades need consent by mail too (stellwerk.gm.offers): a mailed order buying another
player's corporation's train is offered, not made; the seller's player accepts it by mail
(made as the buyer's move) or declines it, the buyer may withdraw it, another move voids
it, a deadline declines it; hostile answers change nothing; a replayed file is as recorded.
The position is reached as the web's tests reach it (tests/web/test_offers.py): a seeded
1849 game played until a corporation may buy a train of another player's corporation."""

from __future__ import annotations

import email
import email.policy
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from test_master import PLAYERS, mail, write_config
from tests.conftest import trade_between_presidents

from stellwerk.api import Game
from stellwerk.core.jsondata import JSONObject
from stellwerk.gm.mail import GMConfig, deliver_maildir
from stellwerk.gm.mailbox import MaildirBox
from stellwerk.gm.master import GameMaster
from stellwerk.gm.orders import OfferAnswer, parse_order
from stellwerk.gm.phrase import order_text
from stellwerk.gm.report import Report
from stellwerk.gm.runner import RunSettings, run_once


def _position() -> tuple[Game, JSONObject]:
    """The 1849 game (Anna, Ben, Clara; seed 1) at a trade between presidents: the
    purchase at its highest listed price."""
    game, trade = trade_between_presidents([p[0] for p in PLAYERS])
    return game, trade


class Table:
    """A GM game at the trade, with the buyer's and the seller's addresses."""

    def __init__(self, tmp_path: Path) -> None:
        game, trade = _position()
        self.trade = trade
        self.buyer = game.decider_of(str(trade["entity"]))
        owner = game.view.train(str(trade["train"])).owner
        assert owner is not None
        self.seller = game.decider_of(owner.key)
        assert self.buyer is not None and self.seller is not None
        self.other = next(pid for pid, _ in game.players if pid not in (self.buyer, self.seller))
        self.gm = GameMaster(tmp_path / "gm.db", GMConfig.load(write_config(tmp_path)))
        self.gm.new_from_config("g1", "1849", start=game.to_file())
        self.base = self.gm.store.count("g1")
        self.order = order_text(game, trade, "en")
        self.number = 0

    def address(self, player: object) -> str:
        return next(p[1] for n, p in enumerate(PLAYERS, 1) if n == player)

    def send(self, player: object, body: str) -> None:
        self.number += 1
        self.gm.take_mails([mail(self.address(player), body, number=self.number)])

    def offer(self) -> int:
        self.send(self.buyer, self.order)
        session, _ = self.gm.session("g1")
        assert self.gm.store.count("g1") == self.base  # offered, not made
        assert len(session.offers) == 1
        return session.offers[0].number

    def answers(self, player: object) -> list[tuple[str, str | None, str | None]]:
        session, _ = self.gm.session("g1")
        return [(x.text, x.understood, x.refused) for x in session.outcomes if x.player == player]

    def report(self, player: object) -> Report:
        name = PLAYERS[int(str(player)) - 1][0]
        return self.gm.reports("g1", name, mark=False)[name]


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)


def test_answer_orders_in_both_languages() -> None:
    for english, german, expected in (
        ("accept offer 3", "nimm Angebot 3 an", OfferAnswer("accept", 3)),
        ("decline offer 3", "lehne Angebot 3 ab", OfferAnswer("decline", 3)),
        ("withdraw offer 3", "ziehe Angebot 3 zurück", OfferAnswer("withdraw", 3)),
        ("accept offer", "Angebot annehmen", OfferAnswer("accept")),
        ("decline the offer", "angebot ablehnen", OfferAnswer("decline")),
    ):
        assert parse_order(english) == expected
        assert parse_order(german) == expected
    assert parse_order("decline") != OfferAnswer("decline")  # 1835's formation keeps its word


def test_a_mailed_trade_is_offered_and_made_when_the_seller_accepts(table: Table) -> None:
    number = table.offer()
    seller_report = table.report(table.seller)
    assert f"accept offer {number}" in seller_report.text
    assert f"decline offer {number}" in seller_report.html
    assert table.order.split(": ")[1] in seller_report.text  # what, at what price
    assert "Anna offers ATA: buy train 4H from SFA for 100" in seller_report.text
    assert "(an offer to answer)" in seller_report.subject
    buyer_report = table.report(table.buyer)  # Anna reads German
    assert f"ziehe angebot {number} zurück" in buyer_report.text
    assert "Handelsangebote" in buyer_report.text
    assert table.gm.session("g1")[0].waiting_for() == [table.seller]
    table.send(table.seller, f"accept offer {number}")
    data = table.gm.store.export("g1")
    made = data["actions"][-1]
    assert table.gm.store.count("g1") == table.base + 1
    assert made["type"] == "buy_train" and made["train"] == table.trade["train"]
    assert made["price"] == table.trade["price"] and made["entity"] == table.trade["entity"]
    owner = Game.from_file(data).view.train(str(table.trade["train"])).owner
    assert owner is not None and owner.key == table.trade["entity"]
    assert table.gm.session("g1")[0].offers == []
    assert any(u and f"Angebot {number} von Ben angenommen" in u
               for _, u, _ in table.answers(table.buyer))  # fmt: skip
    assert f"offer {number} accepted" in str(table.answers(table.seller)[-1][1])
    # answered twice: no such offer any more, nothing changes
    table.send(table.seller, f"accept offer {number}")
    assert table.gm.store.count("g1") == table.base + 1
    assert "there is no open offer" in str(table.answers(table.seller)[-1][2])


def test_declined_and_withdrawn_offers_change_nothing(table: Table) -> None:
    number = table.offer()
    table.send(table.seller, f"decline offer {number}")
    assert table.gm.store.count("g1") == table.base
    assert table.gm.session("g1")[0].offers == []
    assert f"Angebot {number} von Ben abgelehnt" in str(table.answers(table.buyer)[-1][2])
    second = table.offer()
    assert second == number + 1
    table.send(table.buyer, "ziehe Angebot zurück")
    assert table.gm.store.count("g1") == table.base
    assert table.gm.session("g1")[0].offers == []
    assert f"Angebot {second} zurückgezogen" in str(table.answers(table.buyer)[-1][1])


def test_hostile_answers_are_refused_and_change_nothing(table: Table) -> None:
    number = table.offer()
    for player, body, why in (
        (table.other, f"accept offer {number}", "ist nicht an dich: Ben beantwortet es"),
        (table.buyer, f"accept offer {number}", "ist nicht an dich"),
        (table.seller, f"withdraw offer {number}", "not yours to answer"),
        (table.seller, "accept offer 99", "there is no open offer 99"),
        (table.other, "decline offer", "0 Angebote sind für dich offen"),
        (table.seller, "accept offer 1 2", "write: accept offer 3"),
    ):
        table.send(player, body)
        assert why in str(table.answers(player)[-1][2]), table.answers(player)[-1]
        assert table.gm.store.count("g1") == table.base
        assert [x.number for x in table.gm.session("g1")[0].offers] == [number]


def test_another_move_voids_the_offer(table: Table) -> None:
    number = table.offer()
    table.gm.correct("g1", "a move taken back", undo_to=table.base - 1)
    assert table.gm.session("g1")[0].offers == []
    assert f"Angebot {number} hinfällig" in str(table.answers(table.buyer)[-1][2])
    table.send(table.seller, f"accept offer {number}")
    assert "there is no open offer" in str(table.answers(table.seller)[-1][2])
    assert table.gm.store.export("g1")["actions"][-1]["type"] == "undo"  # nothing bought


def test_the_deadline_declines_an_open_offer_and_the_game_goes_on(table: Table) -> None:
    number = table.offer()
    table.gm.deadline("g1")
    session, count = table.gm.session("g1")
    assert session.offers == []
    assert "hat bis zum Abgabetermin nicht geantwortet" in str(
        next(r for t, _, r in table.answers(table.buyer) if t == table.order and r)
    )
    assert count > table.base  # the defaults went on
    actions = table.gm.store.export("g1")["actions"][table.base :]
    assert not any(a["type"] == "buy_train" and a.get("train") == table.trade["train"]
                   and a.get("price") == table.trade["price"] for a in actions)  # fmt: skip
    assert number == 1


def test_a_replayed_file_stays_as_recorded(tmp_path: Path) -> None:
    game, trade = _position()
    game.process(trade)  # at the table: made at once
    master = GameMaster(tmp_path / "gm.db", GMConfig.load(write_config(tmp_path)))
    master.new_from_config("g1", "1849", start=game.to_file())
    session, count = master.session("g1")
    assert count == len(game.raw_actions) and session.offers == []
    assert master.store.export("g1")["actions"][-1]["train"] == trade["train"]


def test_the_game_master_left_running_mails_the_offer_and_settles_it_at_the_deadline(
    table: Table, tmp_path: Path
) -> None:
    """``gm run``'s passes: the buyer's mail makes the offer, the seller gets a report saying
    so; once the deadline has passed, the next pass declines it and the game goes on."""
    box = MaildirBox(tmp_path / "box")
    settings = RunSettings(every=0.0, remind_before=None, deadline_every=timedelta(days=2))
    now = datetime(2026, 12, 7, 12, 0).astimezone()
    table.gm.tables.set_deadline("g1", (now + timedelta(hours=1)).isoformat(timespec="minutes"))
    message = EmailMessage()
    message["From"] = f"Anna <{table.address(table.buyer)}>"
    message["Subject"] = "[1849 #g1] Züge"
    message["Message-ID"] = "<offer.run@example.org>"
    message.set_content(table.order + "\n")
    deliver_maildir(tmp_path / "box", [message])
    run_once(table.gm, box, settings, now=now)
    assert table.gm.store.count("g1") == table.base
    assert len(table.gm.session("g1")[0].offers) == 1
    sent = [
        email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        for p in sorted((tmp_path / "out").glob("*.eml"))
    ]  # fmt: skip
    to_seller = [m for m in sent if table.address(table.seller) in str(m["To"])]
    assert to_seller and "(an offer to answer)" in str(to_seller[-1]["Subject"])
    body = to_seller[-1].get_body(("plain",))
    assert body is not None and "accept offer 1" in body.get_content()
    done = run_once(table.gm, box, settings, now=now + timedelta(hours=2))
    assert done.deadlines == ["g1"]
    assert table.gm.session("g1")[0].offers == []
    assert table.gm.store.count("g1") > table.base


def test_an_answer_read_with_the_order_that_makes_the_offer_applies_to_it(table: Table) -> None:
    """Mails read in one processing: the buyer's order makes offer 1, the seller's accept
    read with it answers it (its orders are applied after the mails are read); a second
    accept of the same offer is refused at the end and changes nothing."""
    table.gm.take_mails([
        mail(table.address(table.buyer), table.order, number=1),
        mail(table.address(table.seller), "accept offer 1\naccept offer 1", number=2),
    ])  # fmt: skip
    assert table.gm.store.count("g1") == table.base + 1
    made = table.gm.store.export("g1")["actions"][-1]
    assert made["type"] == "buy_train" and made["train"] == table.trade["train"]
    seller = table.answers(table.seller)
    assert "offer 1 accepted" in str(seller[-2][1])
    assert "there is no open offer 1" in str(seller[-1][2])
