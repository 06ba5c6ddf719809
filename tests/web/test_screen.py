"""The game screen 18xx players prefer (issue 25): the stock round as a table of
corporations with the moves in their rows, read from the API's views; each new form works
without a script (a plain form post)."""

from __future__ import annotations

import html
import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2 for its TestClient
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from stellwerk.web.app import create_app
from stellwerk.words import money

FIXTURES = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "18xx.games"
GAME_1841 = FIXTURES / "1841" / "1841_game_end_bank.json"


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None), raise_server_exceptions=False) as c:
        yield c


def imported(client: TestClient, path: Path, actions: int | None) -> dict[str, str]:
    """The fixture game ``path`` cut after ``actions`` actions (None: whole), imported:
    player name -> his page's link (``spectator``: the spectators')."""
    if not path.exists():
        pytest.skip(f"{path} not found")
    data = json.loads(path.read_text())
    if actions is not None:
        data["actions"] = data["actions"][:actions]
        data.pop("result", None)
        data["status"] = "active"
    answer = client.post("/api/games/import", json=data)
    assert answer.status_code == 201, answer.text
    body = answer.json()
    links = {p["name"]: p["link"] for p in body["players"]}
    links["spectator"] = body["spectator"]["link"]
    return {name: client.get(link).url.path for name, link in links.items()}


def acting_link(client: TestClient, links: dict[str, str]) -> tuple[str, str]:
    """(name, page) of the player whose page offers moves."""
    for name, link in links.items():
        if name == "spectator":
            continue
        page = client.get(link).text
        if 'id="choices"' in page or re.search(r'<td class="row-moves">\s*<form', page):
            return link, page
    raise AssertionError("nobody has moves")


def row(page: str, sym: str) -> str:
    found = re.search(rf'<tr data-corporation="{sym}">(.*?)</tr>', page, flags=re.S)
    assert found, f"no row of {sym}"
    return found.group(1)


def row_forms(text: str) -> list[dict[str, Any]]:
    return [
        json.loads(html.unescape(m)) for m in re.findall(r'name="action" value="([^"]+)"', text)
    ]


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found
    return found.group(1)


def count_of(page: str) -> int:
    found = re.search(r'id="game" data-count="(\d+)"', page)
    assert found
    return int(found.group(1))


def test_stock_round_is_a_table_of_corporations_with_moves_in_their_rows(
    client: TestClient,
) -> None:
    """1841's second stock round: each started corporation a row with price, par, IPO and
    pool shares and its holders; the acting player's buy and sale in the row of the
    corporation they are about, not in a list of buttons."""
    links = imported(client, GAME_1841, 83)
    link, page = acting_link(client, links)
    assert page.index('id="corporations"') < page.index('id="map"'), "the table comes first"
    irsff = row(page, "IRSFF")
    assert "L.90" in irsff and "L.100" in irsff  # price, par (lire)
    assert re.search(r"data-ipo>60%<", irsff)
    assert "Player 4 40% (P)" in irsff
    moves = row_forms(irsff)
    assert [m["type"] for m in moves] == ["buy_shares"]
    assert "Buy 10% from the IPO" in irsff
    sftn = row(page, "SFTN")
    assert [m["type"] for m in row_forms(sftn)] == ["sell_shares"]
    assert "Sell 10%" in sftn
    # the share moves are not offered a second time in the list of buttons
    choices = page[page.index('id="choices"') : page.index('id="corporations"')]
    assert "buy_shares" not in html.unescape(choices)
    # German
    german = client.get(link + "?lang=de").text
    assert "10 % aus der Erstausgabe kaufen" in row(german, "IRSFF")
    assert "Aktionäre" in german


def test_a_buy_from_the_table_is_a_plain_form_post(client: TestClient) -> None:
    """The row's buy is an ordinary form: posted without a script it buys the share."""
    links = imported(client, GAME_1841, 83)
    link, page = acting_link(client, links)
    (buy,) = row_forms(row(page, "IRSFF"))
    answer = client.post(
        link + "/act",
        data={"csrf": csrf_of(page), "base": str(count_of(page)), "action": json.dumps(buy)},
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text
    after = client.get(link).text
    assert count_of(after) > count_of(page)
    assert re.search(r"data-ipo>50%<", row(after, "IRSFF"))
    # a tampered move changes nothing and says why
    before = count_of(after)
    bad = dict(buy, shares=["IRSFF_99"])
    refused = client.post(
        link + "/act",
        data={"csrf": csrf_of(after), "base": str(before), "action": json.dumps(bad)},
        follow_redirects=False,
    )
    assert refused.status_code in (403, 422)
    assert count_of(client.get(link).text) == before


def test_par_prices_to_choose_in_the_row(client: TestClient) -> None:
    """1841's first stock round: a concession's holder starts its corporation by one of the
    par prices shown in its row."""
    links = imported(client, GAME_1841, 47)
    _link, page = acting_link(client, links)
    pars = [
        (sym, m)
        for sym in re.findall(r'<tr data-corporation="(\w+)">', page)
        for m in row_forms(row(page, sym))
        if m["type"] == "par"
    ]
    assert pars, "some par price is offered"
    sym, par = pars[0]
    assert par["corporation"] == sym
    assert 'class="pars"' in row(page, sym)


def test_a_chain_of_control_and_corporate_holdings_are_shown(client: TestClient) -> None:
    """1841: a corporation presided over by another shows its chain up to the player, and
    the corporation holding its president's certificate among its holders."""
    links = imported(client, FIXTURES / "1841" / "1841_game_end_bankrupt.json", None)
    page = client.get(links["spectator"]).text
    ratf = html.unescape(row(page, "RATF"))
    assert "RATF ← CTDA ← SFTG ← Player 1" in ratf
    assert re.search(r'data-holder="CTDA">CTDA \d+% \(P\)', ratf)
    assert "ATFA ← SB ← Market" in html.unescape(row(page, "ATFA"))


GAME_1849 = FIXTURES / "1849" / "1849_game_end_bank.json"


def choices_of(page: str) -> str:
    """The "Your move" section (up to the next section of the page; the map's panels
    inside it are sections too, indented)."""
    start = page.index('id="choices"')
    end = re.compile(r"\n<(?:section|details) id=").search(page, start)
    assert end
    return page[start : end.start()]


def price_field(form: str) -> dict[str, str]:
    found = re.search(r'<input type="number" name="price"([^>]*)>', form)
    assert found, "a price field"
    return dict(re.findall(r'(\w+)="([^"]*)"', found.group(1)))


def forms_in(text: str) -> list[str]:
    return re.findall(r'<form method="post"[^>]*class="move">.*?</form>', text, flags=re.S)


def test_operating_turn_shows_the_step_first_and_privates_small_below(
    client: TestClient,
) -> None:
    """1849, a corporation's run: the offered routes come first; buying a private is one
    small form per private below, with a price field from the least to the greatest listed
    price starting at its face value -- not two buttons under "Auction"."""
    links = imported(client, GAME_1849, 67)
    _link, page = acting_link(client, links)
    moves = choices_of(page)
    assert "Run Routes" in moves[: moves.index("</h2>")]
    assert "Auction" not in moves
    assert moves.index('id="routes"') < moves.index('id="buy-companies"')
    privates = forms_in(moves[moves.index('id="buy-companies"') :])
    assert len(privates) == 3, "one form per private, not one per listed price"
    for form in privates:
        action = json.loads(html.unescape(re.findall(r'name="action" value="([^"]+)"', form)[0]))
        field = price_field(form)
        assert field["min"] == "1" and int(field["max"]) > 1
        assert int(field["min"]) < int(field["value"]) <= int(field["max"])
        assert action["type"] == "buy_company"
    assert "Buy a private company" in moves


def test_a_train_from_another_corporation_starts_at_its_price(client: TestClient) -> None:
    """1849: a train bought from another corporation: one form, the price field starting at
    the greatest listed price (not L.1)."""
    links = imported(client, GAME_1849, 69)
    _link, page = acting_link(client, links)
    forms = [f for f in forms_in(choices_of(page)) if '"buy_train"' in html.unescape(f)]
    trains = [
        json.loads(html.unescape(re.findall(r'name="action" value="([^"]+)"', f)[0]))["train"]
        for f in forms
    ]
    assert len(trains) == len(set(trains)), "one form per train"
    priced = [price_field(f) for f in forms if 'name="price"' in f]
    assert priced
    for field in priced:
        assert field["value"] == field["max"] and int(field["value"]) > 1


def test_buying_a_private_at_a_named_price_without_a_script(client: TestClient) -> None:
    """The private's form posts the amount typed; text and an amount out of range are
    refused with a sentence and change nothing."""
    links = imported(client, GAME_1849, 67)
    link, page = acting_link(client, links)
    moves = choices_of(page)
    form = forms_in(moves[moves.index('id="buy-companies"') :])[0]
    action = html.unescape(re.findall(r'name="action" value="([^"]+)"', form)[0])
    high = int(price_field(form)["max"])
    base = count_of(page)

    def post(price: str) -> Any:
        return client.post(
            link + "/act",
            data={"csrf": csrf_of(page), "base": str(base), "action": action, "price": price},
            follow_redirects=False,
        )

    for bad in ("lots", str(high + 1)):
        refused = post(bad)
        assert refused.status_code == 422, refused.text
        assert 'id="error"' in refused.text
        assert count_of(client.get(link).text) == base
    assert post(str(high - 1)).status_code == 303
    # bought from another player: an offer his owner accepts on his page (web.offers)
    for other in links.values():
        seller = client.get(other).text
        offered = re.search(r'data-offer="([0-9a-f]+)" data-role="answer"', seller)
        if offered:
            client.post(
                other + "/offer",
                data={"csrf": csrf_of(seller), "offer": offered.group(1), "answer": "accept"},
            )
    after = client.get(link).text
    assert count_of(after) > base
    log = after[after.index('id="log"') :]
    assert f"L.{high - 1}" in log, "the log tells the purchase at the amount typed"


def test_token_purchase_is_a_sentence_with_amounts(client: TestClient) -> None:
    """1841: a started corporation's question how many station tokens to buy reads "Buy 2
    station tokens for L.100", in German too, not "Choose: 2"."""
    links = imported(client, GAME_1841, 49)
    link, page = acting_link(client, links)
    moves = choices_of(page)
    assert "Buy 2 station tokens for L.100" in moves
    assert "Buy 3 station tokens for L.150" in moves
    assert "Choose:" not in moves
    assert "<h3>Station tokens</h3>" in moves
    german = choices_of(client.get(link + "?lang=de").text)
    assert "2 Stationsmarker für L.100 kaufen" in german


def created(client: TestClient, title: str, options: tuple[str, ...] = ()) -> dict[str, str]:
    """A new game of ``title`` made with the new-game form: name -> link."""
    page = client.get(f"/new?title={title}").text
    answer = client.post(
        "/new",
        data={
            "csrf": csrf_of(page),
            "title": title,
            "players": "Ann\nBob\nCid",
            "seed": "5",
            "option": list(options),
        },
    )
    assert answer.status_code == 201, answer.text
    links = dict(re.findall(r'href="(/play/[^"]+)" data-player="([^"]+)"', answer.text))
    return {name: link for link, name in links.items()}


def card(page: str, sym: str) -> str:
    found = re.search(
        rf'<div class="item-card" data-item="{re.escape(sym)}"[^>]*>(.*?)</div>', page, re.S
    )
    assert found, f"no card of {sym}"
    return found.group(1)


def test_auction_as_cards_with_the_legal_minimum(client: TestClient) -> None:
    """1849's private auction: each private a card with its face value and revenue, the bid
    field starting at the legal minimum; the cheapest private is bought at its price ("Buy
    for L.20"), no field; the bids are not in the list of buttons."""
    links = created(client, "1849")
    page = client.get(links["Ann"]).text
    assert 'id="auction"' in page
    sce = card(page, "SCE")
    assert "Face value L.20" in sce and "pays L.5 per operating round" in sce
    assert "Blocks G13" in sce
    assert "Buy Società Corriere Etnee for L.20" in sce and 'name="price"' not in sce
    sigi = card(page, "SIGI")
    field = price_field(sigi)
    (bid,) = row_forms(sigi)
    assert field["min"] == field["value"] == str(bid["price"])
    assert int(field["max"]) >= int(field["min"])
    moves = choices_of(page)
    assert 'data-kind="bid"' not in moves
    german = client.get(links["Ann"] + "?lang=de").text
    assert "Nennwert L.20" in card(german, "SCE")


def test_a_bid_from_a_card_and_the_standing_bid(client: TestClient) -> None:
    """A bid posted from a card's plain form at an amount above the minimum stands on the
    card with its bidder; below the minimum it is refused and nothing changes."""
    links = created(client, "1849")
    page = client.get(links["Ann"]).text
    (bid,) = row_forms(card(page, "SIGI"))
    low = int(price_field(card(page, "SIGI"))["min"])

    def post(price: int) -> Any:
        return client.post(
            links["Ann"] + "/act",
            data={
                "csrf": csrf_of(page),
                "base": str(count_of(page)),
                "action": json.dumps(bid),
                "price": str(price),
            },
            follow_redirects=False,
        )

    assert post(low - 1).status_code == 422
    assert count_of(client.get(links["Ann"]).text) == count_of(page)
    assert post(low + 5).status_code == 303
    after = client.get(links["Bob"]).text
    sigi = card(after, "SIGI")
    assert f"L.{low + 5} by Ann" in sigi
    assert 'data-bids="1"' in after


def test_fixed_price_start_items_are_bought_not_bid_on(client: TestClient) -> None:
    """1835's start packet: an item at a fixed price reads "Buy ... for M.x", no price
    field; a minor's certificate says what it is."""
    links = created(client, "1835")
    page = client.get(links["Ann"]).text
    nf = card(page, "NF")
    assert re.search(r"Buy Nürnberg-Fürth for 100(&nbsp;|\s)?M", html.unescape(nf)), nf
    assert 'name="price"' not in nf
    assert "Comes with 10% of BY" in nf and "Places a station in L14" in nf
    m1 = card(page, "M1")
    assert "The president&#39;s certificate of M1" in m1 or "president's certificate of M1" in m1
    assert "Bid on" not in page[page.index('id="auction"') :]


def test_sealed_bids_are_one_form_with_an_amount_per_concession(client: TestClient) -> None:
    """1841's first edition: the sealed bids are one form with an amount field per
    concession; posted without a script, the amounts typed are the list handed in; a wrong
    amount is refused with a sentence and changes nothing."""
    links = created(client, "1841", ("version_1",))
    acting = next(link for link in links.values() if "sealed-bids" in client.get(link).text)
    page = client.get(acting).text
    form = page[page.index('id="sealed-bids"') : page.index("</form>", page.index("sealed-bids"))]
    fields = re.findall(r'<input type="number" name="bid"', form)
    items = re.findall(r'data-item="(\w+)"', form)
    assert len(fields) == len(items) == 8
    assert "The concession to start SFTC" in card(page, "SFTC")
    action = html.unescape(re.findall(r'name="action" value="([^"]+)"', form)[0])
    base = count_of(page)

    def post(amounts: list[str]) -> Any:
        return client.post(
            acting + "/act",
            data={
                "csrf": csrf_of(page),
                "base": str(base),
                "action": action,
                "sealed": "1",
                "bid": amounts,
            },
            follow_redirects=False,
        )

    for bad in (["x"] + [""] * 7, ["5"] + [""] * 7, ["20"] * 3):
        refused = post(bad)
        assert refused.status_code == 422, (bad, refused.status_code)
        assert 'id="error"' in refused.text
        assert count_of(client.get(acting).text) == base
    assert post(["", "25", "", "", "", "", "", "30"]).status_code == 303
    after = client.get(acting).text
    assert count_of(after) > base
    export = re.search(r'href="(/api/games/[^"]+/file\?token=[^"]+)"', after)
    assert export
    handed = [
        a
        for a in client.get(html.unescape(export.group(1))).json()["actions"]
        if a["type"] == "blind_bid"
    ]
    assert handed[-1]["bids"] == [0, 25, 0, 0, 0, 0, 0, 30]


def test_round_and_step_names_in_german(client: TestClient) -> None:
    """German pages name the round and the step in German, as the log does."""
    links = imported(client, GAME_1849, 67)
    link, _page = acting_link(client, links)
    german = client.get(link + "?lang=de").text
    status = german[german.index('class="status card"') : german.index("</section>")]
    assert "Betriebsrunde 2.1" in status and "Züge fahren" in status
    assert "Run Routes" not in german[: german.index('id="map"')]
    english = client.get(link + "?lang=en").text
    assert "Operating round 2.1" in english and "Run Routes" in english


def test_the_end_told_in_words_with_scores(client: TestClient) -> None:
    """A finished game says why it ended, who won and every score, in English and German;
    the game's course is on the page as three charts in a collapsed section."""
    links = imported(client, GAME_1849, None)
    data = json.loads(GAME_1849.read_text())
    page = client.get(links["spectator"] + "?lang=en").text
    found = re.search(r'<strong id="game-over">([^<]+)</strong>', page)
    assert found
    end = html.unescape(found.group(1))
    assert end.startswith("Game over: the bank is broken.")
    names = {str(p["id"]): p["name"] for p in data["players"]}
    result = {names[k]: v for k, v in data["result"].items()}
    best = max(result, key=lambda n: result[n])
    assert f"{best} wins with L.{result[best]:,}" in end
    assert all(f"{n} {money('1849', v)}" in end for n, v in result.items())  # -L.750 too
    german = client.get(links["spectator"] + "?lang=de").text
    found = re.search(r'<strong id="game-over">([^<]+)</strong>', german)
    assert found and html.unescape(found.group(1)).startswith("Spielende: die Bank ist gesprengt.")
    course = page[
        page.index('<details id="course"') : page.index("</details>", page.index('id="course"'))
    ]
    charts = re.findall(r'<img src="([^"]+)" loading="lazy"', course)
    assert len(charts) == 3  # loaded only when the section is opened
    svgs = [client.get(html.unescape(src)) for src in charts]
    assert all(r.status_code == 200 and r.text.startswith("<svg") for r in svgs)
    assert all(r.headers["content-type"].startswith("image/svg+xml") for r in svgs)
    assert "Players&#39; worth" in svgs[0].text or "Players' worth" in svgs[0].text
    german = client.get(html.unescape(charts[0]).replace("lang=en", "lang=de")).text
    assert german.startswith("<svg") and german != svgs[0].text
    assert client.get(links["spectator"] + "/plot/nothing.svg").status_code == 404


def test_share_moves_outside_a_stock_round_put_the_table_first(client: TestClient) -> None:
    """1849: the par price chosen after the private auction (an auction round) is in the
    table's row, and the table comes before the map then."""
    links = imported(client, GAME_1849, 16)
    _link, page = acting_link(client, links)
    assert page.index('id="corporations"') < page.index('id="map"')
    pars = [
        m
        for sym in re.findall(r'<tr data-corporation="(\w+)">', page)
        for m in row_forms(row(page, sym))
        if m["type"] == "par"
    ]
    assert pars


def test_private_companies_are_described(client: TestClient) -> None:
    """Every private company still in the game is described: face value, revenue, owner."""
    links = imported(client, GAME_1849, 67)
    page = client.get(links["spectator"]).text
    section = page[page.index('<details id="companies"') :]
    sce = re.search(r'data-company="SCE">(.*?)</div>', section, re.S)
    assert sce and "Face value L.20" in sce.group(1) and "Owned by" in sce.group(1)


def test_a_corporations_pass_names_the_step(client: TestClient) -> None:
    """In an operating turn "Pass" says which step it passes, in the page's language."""
    links = imported(client, GAME_1849, 81)
    link, page = acting_link(client, links)
    assert "Pass (Lay/Upgrade Track)" in choices_of(page)
    assert "Passen (Strecke bauen)" in choices_of(client.get(link + "?lang=de").text)


def test_waiting_players_and_spectators_see_the_cards(client: TestClient) -> None:
    """The items on offer are cards on every page, the bid forms only on the bidder's."""
    links = created(client, "1849")
    for name in ("Bob", "Cid"):
        page = client.get(links[name]).text
        assert "Face value L.45" in card(page, "SIGI")
        assert 'data-kind="bid"' not in page
