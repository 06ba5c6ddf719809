"""The seeds' own case by mail: 1841 with the house rules of 18xx und Zugzwang (seed 003).

Four players -- Anna, Bernd, Clara and Dieter -- play 1841 (second edition) with the option
preset ``zugzwang`` by mail with the GM, all in German.  Their mails are written by a seeded
driver standing in for the people: for each decision the game waits for, one of the legal
actions (``stellwerk.selfplay.choose_action``) written as a German order
(``stellwerk.gm.phrase``), delivered into a Maildir (as a mail server would) and read by the
GM (what ``stellwerk gm fetch`` does).  A period is a round of the game (the "ZAT"): at its end
the GM sends every player's report (German throughout) into the outbox folder.

The game goes through

* the concession auction of the second edition (by mail the group keeps the original
  concession round, seed 003 H1's note),
* stock and operating rounds until a corporation may merge with another player's
  corporation: its president proposes the merger by mail (the driver prefers such a merger
  once it is offered, until one asks a question of another player), and another player
  answers the merger's question by mail (his share exchange, rules/1841.md 2.3.11, or as the
  new corporation's president the tokens it gives up),
* a missed deadline in that merger: the player to decide next sends nothing, and the deadline
  (``stellwerk gm deadline``) settles his decisions by seed 003's default orders (cash
  instead of shares, no token purchases, the GM's draw among equal choices; rules/1841.md 6.7,
  ``stellwerk.gm.defaults``), marked in every report.

Everything is in ``OUT``: ``gm.toml``, ``gm.db``, ``maildir/``, ``outbox/``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

from stellwerk.api import Game
from stellwerk.core.flow.base import Action
from stellwerk.gm.demo import fresh_folders
from stellwerk.gm.look import asked
from stellwerk.gm.mail import GMConfig, deliver_maildir, read_maildir
from stellwerk.gm.master import GameMaster
from stellwerk.gm.offers import answers as offer_answers
from stellwerk.gm.phrase import order_text
from stellwerk.gm.understand import player_of
from stellwerk.selfplay import choose_action, lay_picker

PLAYERS = [("Anna", "anna@example.org"), ("Bernd", "bernd@example.org"),
           ("Clara", "clara@example.org"), ("Dieter", "dieter@example.org")]  # fmt: skip
KEY = "zugzwang1841"
OPTIONS = ["zugzwang"]
GM_ADDRESS = "Spielleitung <gm@example.org>"
ANSWERS = ("choose", "remove_token")
"""The action types that answer a procedure's question (the exchange choices, the new
corporation's token removal: rules/1841.md 2.3.11)."""
MAX_PERIODS = 40
"""A bound on the rounds played (the merger comes within about 15 with the default seed)."""


@dataclass
class Story:
    """What the demonstration went through, for its caller and its test."""

    reports: list[Path] = field(default_factory=list)
    auction_mails: int = 0
    merger: str | None = None
    """The merger order as the proposing president wrote it (the one whose question another
    player answered)."""
    proposal: str | None = None
    """The latest merger order, while no other player has answered one of its questions."""
    proposer: object = None
    """The player who wrote ``proposal``."""
    answer: str | None = None
    """The other president's answer to the merger question, as written."""
    missed: str | None = None
    """The player whose decision in the merger the deadline settled."""
    defaults: int = 0
    """How many default orders the deadline gave."""


def write_config(out: Path) -> GMConfig:
    """``OUT/gm.toml``: orders from ``maildir/``, reports into ``outbox/``, German players."""
    lines = [
        "[gm]", f'address = "{GM_ADDRESS}"', "",
        "[incoming]", 'kind = "maildir"', 'path = "maildir"', "",
        "[outgoing]", 'kind = "outbox"', 'folder = "outbox"', "",
        f"[games.{KEY}]", 'lang = "de"', "",
        f"[games.{KEY}.players]",
        *(f'{name} = {{ address = "{address}", lang = "de" }}' for name, address in PLAYERS),
    ]  # fmt: skip
    path = out / "gm.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return GMConfig.load(path)


def deliver(maildir: Path, sender: str, body: str, number: int) -> None:
    """A player's order mail into the Maildir, as a mail server would deliver it."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = GM_ADDRESS
    message["Subject"] = f"[1841 #{KEY}] Züge"
    message["Message-ID"] = f"<{number}.{KEY}@example.org>"
    message.set_content(body)
    deliver_maildir(maildir, [message])


def partner_merger(game: Game, legal: list[Action]) -> Action | None:
    """A merger with a corporation another player presides, if one is offered (1841 rules
    2.3.11: the proposing president's corporation merges with the other's, which must
    agree)."""
    for action in legal:
        if action["type"] != "merge" or not isinstance(action.get("corporation"), str):
            continue
        if "fusion" not in order_text(game, action, "de"):
            continue  # a transformation of a minor, not a merger
        mine, theirs = player_of(game, action["entity"]), player_of(game, action["corporation"])
        if mine is not None and theirs is not None and mine != theirs:
            return action
    return None


def run(out: Path, seed: int = 9) -> Story:
    """Play the demonstration into ``out`` (module docstring)."""
    maildir = fresh_folders(out)
    config = write_config(out)
    gm = GameMaster(out / "gm.db", config)
    gm.new_from_config(KEY, "1841", options=OPTIONS, seed=seed)
    rng = random.Random(seed)
    story = Story()
    number = 0
    try:
        for _period in range(MAX_PERIODS):
            session, _ = gm.session(KEY)
            start = session.game.round.seq
            deadline = False
            for _ in range(600):
                session, _ = gm.session(KEY)
                game = session.game
                if game.finished or game.round.seq != start:
                    break
                names = {p["player"]: p["name"] for p in gm.tables.players(KEY)}
                addresses = dict(PLAYERS)
                sent = 0
                for pid in session.waiting_for():
                    name = names[pid]
                    if story.answer is not None and story.missed is None and asked(game):
                        story.missed = name  # he lets the deadline pass
                        deadline = True
                        continue
                    offer = next((x for x in session.offers if x.seller == pid), None)
                    body = (  # a trade waits for his consent (stellwerk.gm.offers): he agrees
                        offer_answers(offer.number, "de")[0] + "\n"
                        if offer is not None
                        else _compose(game, rng, pid, number, story)
                    )
                    if body:
                        number += 1
                        deliver(maildir, addresses[name], body, number)
                        sent += 1
                        if game.round.kind == "auction":
                            story.auction_mails += 1
                    break  # one mail at a time: the next decision depends on it
                if not sent:
                    break
                gm.take_mails(read_maildir(maildir))
            if deadline:
                answers = gm.deadline(KEY)
                story.defaults = sum(1 for a in answers if a.default)
            _, written = gm.send_reports(KEY)
            story.reports.extend(written)
            if story.missed is not None or gm.session(KEY)[0].game.finished:
                break
    finally:
        gm.close()
    return story


def _compose(game: Game, rng: random.Random, pid: object, number: int, story: Story) -> str:
    """The German orders ``pid`` sends for his next decision (module docstring).

    The driver proposes a merger with another player's corporation whenever one is offered
    until another player has answered a question of one (the exchange of his shares: rules
    2.3.11, or the tokens the new corporation gives up when he becomes its president); that
    player's answer is the merger's answer by mail."""
    entities = [e for e in game.active_entities() if player_of(game, e) == pid]
    legal = [a for a in game.legal_actions() if a.get("entity") in entities]
    if not legal:
        return ""
    question = asked(game)
    merger = partner_merger(game, legal) if story.answer is None and question is None else None
    answering = (
        question is not None
        and story.proposal is not None
        and story.answer is None
        and pid != story.proposer
        and any(a["type"] in ANSWERS for a in legal)
    )
    if merger is not None:
        action = merger
    elif answering:
        action = rng.choice([a for a in legal if a["type"] in ANSWERS or a["type"] == "pass"])
    else:
        action = choose_action(legal, rng, lay_picker(game, rng, number))
    line = order_text(game, action, "de", best=action["type"] == "run_routes")
    if merger is not None:
        story.proposal, story.proposer = line, pid
    elif answering:
        story.merger, story.answer = story.proposal, line
    return f"# Zug {number + 1}\n{line}\n"


def main(argv: list[str] | None = None) -> int:
    import sys

    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else Path("out/gm1841")
    story = run(out)
    print(f"demo 1841 (zugzwang): {story.auction_mails} mails in the concession auction; "
          f"merger proposed by mail: {story.merger!r}; answered by mail: {story.answer!r}; "
          f"deadline missed by {story.missed}: {story.defaults} default orders; "
          f"{len(story.reports)} reports in {out / 'outbox'}")  # fmt: skip
    ok = bool(story.merger and story.answer and story.missed and story.defaults)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
