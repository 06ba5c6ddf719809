"""A demonstration game by mail without a mail server.

Three players play 1849 by mail with the GM: Anna and Clara write German, Ben English.  Their
mails are written by a seeded driver standing in for the people -- for each decision the game
waits for, one of the legal actions (``stellwerk.selfplay.choose_action``), written as an order
in the player's language (``stellwerk.gm.phrase``), with comments, ``ue`` spellings, one
standing order, one malformed and one illegal line -- and delivered into a Maildir
(``mail.deliver_maildir``, as a mail server would).  The GM reads the Maildir (what ``stellwerk
gm fetch`` does, ``mail.read_maildir``), applies the orders, and at the end of each period (a
round of the game, the "ZAT") sends every player's report (``stellwerk.gm.report``) into the
outbox folder (``mail.send`` with ``outgoing.kind = "outbox"``).  In one period Clara sends
nothing: the deadline is settled by default orders (``stellwerk gm deadline``), marked in the
reports.

Everything is in ``OUT``: ``gm.toml`` (the GM configuration: addresses, Maildir, outbox),
``gm.db`` (the store and the GM tables), ``maildir/``, ``outbox/`` (one ``.eml`` per player
and period: text and HTML with the pictures inline as SVG, the map, market, charters and
players' table attached as PNG, and the game file).
"""

from __future__ import annotations

import random
import shutil
from email.message import EmailMessage
from pathlib import Path

from stellwerk.core.flow.base import Action
from stellwerk.gm.mail import GMConfig, deliver_maildir, read_maildir
from stellwerk.gm.master import GameMaster
from stellwerk.gm.offers import answers
from stellwerk.gm.phrase import order_text
from stellwerk.gm.understand import player_of
from stellwerk.selfplay import choose_action, lay_picker

PLAYERS = [("Anna", "anna@example.org", "de"), ("Ben", "ben@example.org", "en"),
           ("Clara", "clara@example.org", "de")]  # fmt: skip
KEY = "demo1849"
MISSING = ("Clara", 4)
"""Clara sends nothing in the fourth period (stock round 2): defaults settle her decisions."""


GM_ADDRESS = "Spielleitung <gm@example.org>"


def write_config(out: Path) -> GMConfig:
    """The demo's GM configuration ``OUT/gm.toml``: orders from ``maildir/``, reports into
    ``outbox/``, the three players' addresses and languages; loaded as ``gm fetch`` would."""
    lines = [
        "[gm]", f'address = "{GM_ADDRESS}"', "",
        "[incoming]", 'kind = "maildir"', 'path = "maildir"', "",
        "[outgoing]", 'kind = "outbox"', 'folder = "outbox"', "",
        f"[games.{KEY}.players]",
        *(f'{name} = {{ address = "{address}", lang = "{lang}" }}'
          for name, address, lang in PLAYERS),
    ]  # fmt: skip
    path = out / "gm.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return GMConfig.load(path)


def deliver(maildir: Path, sender: str, subject: str, body: str, number: int) -> None:
    """Deliver a player's order mail into the Maildir (as a mail server would)."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = GM_ADDRESS
    message["Subject"] = subject
    message["Message-ID"] = f"<{number}.{KEY}@example.org>"
    message.set_content(body)
    deliver_maildir(maildir, [message])


def compose(
    gm: GameMaster, rng: random.Random, name: str, lang: str, number: int, sent: list[int]
) -> str:
    """The orders a player sends for his next decision (the game as it stands); once in the
    demonstration (``sent``: the moves that carried one, the run's own list) an order the
    rules refuse."""
    session, _ = gm.session(KEY)
    game = session.game
    pid = next(p["player"] for p in gm.tables.players(KEY) if p["name"] == name)
    offer = next((x for x in session.offers if x.seller == pid), None)
    if offer is not None:  # a trade waits for his consent (stellwerk.gm.offers): he agrees
        return answers(offer.number, lang)[0] + "\n"
    entities = [e for e in game.active_entities() if player_of(game, e) == pid]
    legal = [a for a in game.legal_actions() if a.get("entity") in entities]
    if not legal:
        return ""
    action = choose_action(legal, rng, lay_picker(game, rng, number))
    line = order_text(game, action, lang, best=action["type"] == "run_routes")
    if lang == "de" and number % 3 == 0:
        line = line.replace("ü", "ue").replace("ä", "ae")  # written without umlauts
    lines = [f"# Zug {number}" if lang == "de" else f"# move {number}", line]
    if number == 5:
        lines.insert(1, "kaufe Aktien von allen" if lang == "de" else "buy everything")
    if number >= 9 and not sent:
        wrong = _illegal(legal, lang)
        if wrong:
            lines.insert(1, wrong)
            sent.append(number)
    return "\n".join(lines) + "\n"


def _illegal(legal: list[Action], lang: str) -> str | None:
    """An order the rules refuse at this decision: a bid below the minimum, or a certificate
    of a corporation that does not exist."""
    bids = [a for a in legal if a["type"] == "bid"]
    if bids:
        company = bids[0]["company"]
        return f"biete 1 auf {company}" if lang == "de" else f"bid 1 on {company}"
    if any(a["type"] == "buy_shares" for a in legal):
        return "kaufe ZZZ aus ipo" if lang == "de" else "buy ZZZ from ipo"
    return None


def fresh_folders(out: Path) -> Path:
    """``out`` emptied (made anew) with an empty Maildir ``out/maildir``, which it returns:
    where a demonstration's mails arrive."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    maildir = out / "maildir"
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True)
    return maildir


def run(out: Path, periods: int = 6, seed: int = 7) -> list[Path]:
    """Play ``periods`` periods of the demo game into ``out``; returns the reports written."""
    maildir = fresh_folders(out)
    config = write_config(out)
    gm = GameMaster(out / "gm.db", config)
    gm.new_from_config(KEY, "1849", seed=seed)
    rng = random.Random(seed)
    illegal_sent: list[int] = []
    reports: list[Path] = []
    number = 0
    langs = {name: lang for name, _, lang in PLAYERS}
    addresses = {name: address for name, address, _ in PLAYERS}
    try:
        for period in range(1, periods + 1):
            session, _ = gm.session(KEY)
            start_round = session.game.round.seq
            missed = False
            for _ in range(400):
                session, _ = gm.session(KEY)
                if session.game.finished or session.game.round.seq != start_round:
                    break
                names = {p["player"]: p["name"] for p in gm.tables.players(KEY)}
                waiting = [names[p] for p in session.waiting_for()]
                sent = 0
                for name in waiting:
                    if (name, period) == MISSING:
                        missed = True
                        continue
                    number += 1
                    body = compose(gm, rng, name, langs[name], number, illegal_sent)
                    if number == 12:
                        body = _standing(gm, name, langs[name]) + body
                    if body:
                        subject = f"[1849 #{KEY}] " + ("Züge" if langs[name] == "de" else "orders")
                        deliver(maildir, addresses[name], subject, body, number)
                        sent += 1
                if not sent:
                    break
                gm.take_mails(read_maildir(maildir))
            if missed:
                gm.deadline(KEY)
            _, written = gm.send_reports(KEY)
            reports.extend(written)
    finally:
        gm.close()
    return reports


def _standing(gm: GameMaster, name: str, lang: str) -> str:
    """A standing order for the player's corporation, if he presides one."""
    session, _ = gm.session(KEY)
    pid = next(p["player"] for p in gm.tables.players(KEY) if p["name"] == name)
    snap = session.game.snapshot()
    corp = next((c["id"] for c in snap["corporations"] if c.get("president") == pid), None)
    if corp is None:
        return "always take cash\n" if lang == "en" else "immer Geld nehmen\n"
    if lang == "de":
        return f"{corp}: immer optimal fahren und ausschütten  # Dauerauftrag\n"
    return f"{corp}: always run best and pay out  # standing order\n"


def main(argv: list[str] | None = None) -> int:
    import sys

    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else Path("out/gm")
    written = run(out)
    print(f"demo: {len(written)} reports in {out / 'outbox'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
