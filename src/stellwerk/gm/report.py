"""The game master's report (Auswertung) to one player after a processing.

What a GM of a play-by-mail group sends every player after each deadline, in the player's
language (English or German):

* what happened since the player's last report: the log (``stellwerk.words.story``) of the
  actions after ``since_action`` and their consequences; the steps skipped automatically are
  left out, they are noise in a mail;
* corrections the GM made by hand (``gm correct``), which every report shows, and the GM's
  own log since the last report (standing orders fired or cancelled, draws);
* the player's orders as the GM understood them: "understood as ...", "refused: ..." or
  "kept for a later decision", with default orders (missed deadline) and standing orders
  marked;
* who must act next and on what decision, with the deadline, and whether it is this player
  (directly or as president of the corporation to act);
* the players' table and the corporations (charters) as text tables;
* the map, the market, the charters and the players' table as pictures
  (``stellwerk.pictures``): SVG inline in the HTML part, PNG attached (SVG attached instead
  when cairosvg, the ``pictures`` extra, is missing: the report still goes out, and that is
  logged) -- each only when it changed since the player's last report (the report names
  the unchanged ones);
* the 18xx.games game file (``Game.to_file``) attached as JSON, so any player can load the
  game elsewhere: when the caller asks for it (the GM does at the end of every round, at the
  end of the game and when the player asked for it);
* a size limit (``max_bytes``): attachments are left out until the report fits, the least
  needed first (``LEAVE_OUT``: charters, players' table, game file, market, map), and the
  report says which.

The text and HTML parts are Jinja2 templates (``stellwerk/gm/templates``); this module only
gathers the facts and the words.  It reads the game through the public API and never changes
it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr
from functools import lru_cache
from typing import TypedDict

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from stellwerk.api import Game
from stellwerk.core.actions import action_id
from stellwerk.core.entities import PlayerId
from stellwerk.core.jsondata import JSONObject, first_text, objects_at
from stellwerk.words import LANGUAGES, money, render, story
from stellwerk.words.catalog import percent
from stellwerk.words.narrate import Narrator
from stellwerk.words.view import CorporationView, GameView, player_view

Cash = Callable[[int | None], str]
"""Money as the report writes it (``-`` for none)."""


class OrderLine(TypedDict):
    """One answered order as the report template shows it."""

    text: str
    status: str
    detail: str
    marks: list[str]


LOG = logging.getLogger("stellwerk.gm.report")

PNG_SCALE = 1.0
"""PNG pictures at their natural size: the map is about 250 KB, four pictures about 400 KB."""

MAX_REPORT_BYTES = 1_500_000
"""The GM's default size limit of one report (text, HTML with the inline pictures and the
attachments, before the mail's transfer encoding)."""

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "report": "Report",
        "subject": "[{title} #{game}] Report after action {action}: {where}",
        "your_turn": "your turn",
        "game_over": "game over",
        "hello": "Report for {player}",
        "state": "{where}, step: {step}, phase {phase}, bank {bank}",
        "since": "What happened since your last report",
        "since_start": "What happened since the start of the game",
        "nothing": "Nothing happened.",
        "corrections": "Corrections by the game master",
        "gm_log": "Game master's log",
        "in_force": "Your standing orders in force",
        "waiting": "Your orders kept for a later decision",
        "offers": "Trade offers",
        "offer_to_answer": "an offer to answer",
        "orders": "Your orders",
        "no_orders": "No orders from you were processed.",
        "understood": "understood as {what}",
        "refused": "refused: {why}",
        "pending": "kept for a later decision",
        "default": "default order",
        "standing": "standing order",
        "next": "Next to act",
        "acts_on": "{who}: {step}",
        "nobody": "nobody",
        "you_act": "It is your turn.",
        "deadline": "Deadline: {when}",
        "no_deadline": "No deadline is set.",
        "finished": "The game is over ({reason}).",
        "result": "Result",
        "players": "Players",
        "corporations": "Corporations",
        "not_started": "not started: {syms}",
        "companies": "Private companies",
        "bank_owned": "bank",
        "pictures": "Pictures",
        "attached": "Attached",
        "unchanged": "Unchanged since your last report (not attached): {what}",
        "left_out": "Left out to keep this report under {limit} KB: {what}",
        "map": "Map",
        "market": "Stock market",
        "charters": "Charters",
        "players_table": "Players' table",
        "plot_worth": "Players' worth",
        "plot_prices": "Share prices",
        "plot_revenues": "Revenues",
        "game_file": "the game file for 18xx.games",
        "h_name": "Player",
        "h_cash": "Cash",
        "h_certs": "Certificates",
        "h_shares": "Shares",
        "h_companies": "Companies",
        "h_corp": "Corporation",
        "h_president": "President",
        "h_treasury": "Treasury",
        "h_par": "Par",
        "h_price": "Price",
        "h_ipo": "IPO",
        "h_pool": "Pool",
        "h_trains": "Trains",
        "h_tokens": "Tokens",
        "bankrupt": "bankrupt",
        "date": "%Y-%m-%d %H:%M",
        "secret_title": "Your secret word",
        "secret": "Your secret word is {word}. Every order mail of yours must carry it in a "
        "line of its own, secret: {word} (or in the subject); a mail without it is refused. "
        "Tell it nobody.",
    },
    "de": {
        "report": "Auswertung",
        "subject": "[{title} #{game}] Auswertung nach Aktion {action}: {where}",
        "your_turn": "du bist am Zug",
        "game_over": "Spielende",
        "hello": "Auswertung für {player}",
        "state": "{where}, Schritt: {step}, Phase {phase}, Bank {bank}",
        "since": "Was seit deiner letzten Auswertung geschah",
        "since_start": "Was seit Spielbeginn geschah",
        "nothing": "Nichts geschah.",
        "corrections": "Korrekturen der Spielleitung",
        "gm_log": "Protokoll der Spielleitung",
        "in_force": "Deine gültigen Daueraufträge",
        "waiting": "Deine Befehle für spätere Entscheidungen",
        "offers": "Handelsangebote",
        "offer_to_answer": "ein Angebot zu beantworten",
        "orders": "Deine Befehle",
        "no_orders": "Von dir wurden keine Befehle verarbeitet.",
        "understood": "verstanden als {what}",
        "refused": "abgelehnt: {why}",
        "pending": "für eine spätere Entscheidung aufbewahrt",
        "default": "Standardbefehl",
        "standing": "Dauerauftrag",
        "next": "Als Nächste am Zug",
        "acts_on": "{who}: {step}",
        "nobody": "niemand",
        "you_act": "Du bist am Zug.",
        "deadline": "Abgabetermin (ZAT): {when}",
        "no_deadline": "Kein Abgabetermin gesetzt.",
        "finished": "Das Spiel ist zu Ende ({reason}).",
        "result": "Ergebnis",
        "players": "Spieler",
        "corporations": "Gesellschaften",
        "not_started": "nicht gegründet: {syms}",
        "companies": "Privatbahnen",
        "bank_owned": "Bank",
        "pictures": "Bilder",
        "attached": "Anhänge",
        "unchanged": "Unverändert seit deiner letzten Auswertung (nicht angehängt): {what}",
        "left_out": "Weggelassen, damit die Auswertung unter {limit} KB bleibt: {what}",
        "map": "Karte",
        "market": "Kurstabelle",
        "charters": "Gesellschaften",
        "players_table": "Spielertafel",
        "plot_worth": "Vermögen",
        "plot_prices": "Kurse",
        "plot_revenues": "Einnahmen",
        "game_file": "die Spieldatei für 18xx.games",
        "h_name": "Spieler",
        "h_cash": "Geld",
        "h_certs": "Zertifikate",
        "h_shares": "Aktien",
        "h_companies": "Privatbahnen",
        "h_corp": "Gesellschaft",
        "h_president": "Direktor",
        "h_treasury": "Kasse",
        "h_par": "Nennwert",
        "h_price": "Kurs",
        "h_ipo": "Erstausgabe",
        "h_pool": "Pool",
        "h_trains": "Züge",
        "h_tokens": "Stationen",
        "bankrupt": "bankrott",
        "date": "%d.%m.%Y %H:%M",
        "secret_title": "Dein Geheimwort",
        "secret": "Dein Geheimwort ist {word}. Jede deiner Befehlsmails muss es in einer "
        "eigenen Zeile tragen, geheim: {word} (oder im Betreff); eine Mail ohne es wird "
        "abgelehnt. Verrate es niemandem.",
    },
}
"""The report's own words per language (the log's sentences are ``stellwerk.words``')."""


@dataclass(frozen=True)
class ReportOrder:
    """One order line as the GM understood it.

    ``text`` is the line as the player wrote it; ``understood`` what the GM made of it (the
    action, in words) when it was applied, ``refused`` why it was not; neither: the order is
    kept for a decision the game has not reached yet.  ``default`` marks an order the GM
    chose for a player who missed the deadline, ``standing`` one that fired from a standing
    order."""

    text: str
    understood: str | None = None
    refused: str | None = None
    default: bool = False
    standing: bool = False


@dataclass
class Report:
    """One player's report: ``subject``, the ``text`` and ``html`` parts and the
    ``attachments`` (file name, MIME type, content).  ``player`` is the player's name,
    ``last_action`` the id of the last action it reports: the ``since_action`` of the next
    report."""

    subject: str
    text: str
    html: str
    attachments: list[tuple[str, str, bytes]] = field(default_factory=list)
    player: str = ""
    last_action: int = 0
    pictures: dict[str, str] = field(default_factory=dict)
    """The digest of each picture the player has once this report is sent (attached now,
    or unchanged since an earlier report): the ``sent_pictures`` of his next report."""
    has_game_file: bool = False
    """Whether the game file is attached."""
    secret: bool = False
    """Whether the report gives the player his secret word."""


def player_name(game: Game, player: str | int) -> str:
    """The name of ``player``, given by name or by id (the name first, then the id, then the
    name without regard to case).  Unknown: ValueError naming the players."""
    for _pid, name in game.players:
        if name == player:
            return name
    for pid, name in game.players:
        if str(pid) == str(player):
            return name
    for _pid, name in game.players:
        if name.casefold() == str(player).casefold():
            return name
    names = ", ".join(name for _, name in game.players)
    raise ValueError(f"no player {player!r} in this game (players: {names})")


def player_id(game: Game, name: str) -> PlayerId:
    """The id of the player ``name`` (as :func:`player_name` returns it)."""
    return next(pid for pid, known in game.players if known == name)


def build_report(
    game: Game,
    *,
    player: str,
    lang: str,
    since_action: int,
    orders: list[ReportOrder],
    deadline: datetime | None,
    corrections: list[str] | tuple[str, ...] = (),
    gm_log: list[str] | None = None,
    key: str | None = None,
    standing: list[str] | None = None,
    waiting: list[str] | None = None,
    offers: list[str] | None = None,
    to_answer: bool = False,
    sent_pictures: Mapping[str, str] | None = None,
    with_game_file: bool = True,
    max_bytes: int | None = MAX_REPORT_BYTES,
    secret: str | None = None,
) -> Report:
    """The report to ``player`` (name or id) in ``lang`` ("en" or "de") after a processing.

    The log holds the actions with an id above ``since_action`` (0: the whole game) and their
    consequences.  ``deadline`` is shown as given (a naive time without a zone, an aware one
    with its zone's name).  ``corrections`` are the GM's corrections of the state (every
    report shows them); ``gm_log`` the GM's own log since the last report (standing orders
    fired or cancelled and why, the draws deciding defaults).  ``key`` names the game in the
    subject and the attachments' names (the GM's key of it in the store; default the game
    file's id), so that a reply can be told apart from mails about the GM's other games.
    ``standing``: the player's standing orders in force, as written, listed after the
    orders; ``waiting``: his orders that wait for a later decision, each with what it waits
    for.  ``offers``: the open trade offers he answers or made (``stellwerk.gm.offers``);
    ``to_answer``: one waits for his answer (the subject says so).  ``sent_pictures``: the
    digests of the pictures the player has (``Report.pictures`` of his last report): those
    unchanged are not attached again.  ``with_game_file``: attach
    the game file.  ``max_bytes``: the size limit (None: none; module docstring).
    ``secret``: the player's secret word, which every order mail of his must carry (the
    GM's sender check), given with how to write it."""
    if lang not in LANGUAGES:
        raise ValueError(f"no language {lang!r} (one of {', '.join(LANGUAGES)})")
    name = player_name(game, player)
    words = LABELS[lang]
    view = player_view(game, lang, log=0)
    narrator = Narrator(game, lang)
    title = str(view["title"])
    game_key = key if key is not None else str(game.game_id or game.seed)
    last_action = action_id(game.actions[-1]) if game.actions else 0

    def cash(amount: int | None) -> str:
        return money(title, amount, lang) if amount is not None else "-"

    where = _where(view, narrator)
    step = narrator.step(view["step"]) if view["step"] else "-"
    acting = _acting(view, narrator)
    your_turn = not view["finished"] and _is_to_act(view, name)
    subject = words["subject"].format(title=title, game=game_key, action=last_action, where=where)
    if view["finished"]:
        subject += f" ({words['game_over']})"
    elif to_answer:
        subject += f" ({words['offer_to_answer']})"
    elif your_turn:
        subject += f" ({words['your_turn']})"

    lines = [
        line
        for line in story(game, lang, skipped_steps=False)
        if (line.action_id is None and since_action <= 0)
        or (line.action_id is not None and line.action_id > since_action)
    ]
    drawn = _pictures(game, lang)
    digests = {kind: _digest(svg) for kind, svg in drawn.items()}
    had = dict(sent_pictures or {})
    pictures = {kind: svg for kind, svg in drawn.items() if had.get(kind) != digests[kind]}
    unchanged = [words[PICTURE_LABELS[kind]] for kind in drawn if kind not in pictures]
    stem = re.sub(r"[^\w.-]+", "-", f"{title}_{game_key}_{last_action}")
    files: dict[str, tuple[str, str, bytes]] = {}
    for kind, svg in pictures.items():
        png = _png(svg)
        if png is None:
            files[kind] = (f"{stem}_{kind}.svg", "image/svg+xml", svg.encode("utf-8"))
        else:
            files[kind] = (f"{stem}_{kind}.png", "image/png", png)
    if with_game_file:
        game_file = json.dumps(game.to_file(), ensure_ascii=False, indent=1)
        files["game"] = (f"{stem}.json", "application/json", game_file.encode("utf-8"))
    left_out: list[str] = []
    if max_bytes is not None:
        for kind in _to_leave_out(files, pictures, max_bytes):
            del files[kind]
            pictures.pop(kind, None)
            left_out.append(words["game_file"] if kind == "game" else words[PICTURE_LABELS[kind]])
    attachments = list(files.values())
    now_has = {kind: digest for kind, digest in had.items() if kind in digests}
    now_has.update({kind: digests[kind] for kind in pictures})

    players = _player_rows(view, words, cash, lang)
    corporations = [c for c in view["corporations"] if c["par"] is not None or c["floated"]]
    corp_rows = _corporation_rows(corporations, cash, lang)
    unstarted = [c["sym"] for c in view["corporations"] if c not in corporations]
    context: dict[str, object] = {
        "t": words,
        "lang": lang,
        "title": title,
        "game": game_key,
        "player": name,
        "state": words["state"].format(
            where=where, step=step, phase=view["phase"], bank=cash(view["bank"])
        ),
        "since": words["since_start"] if since_action <= 0 else words["since"],
        "log": [(line.text, line.auto) for line in lines],
        "log_text": render(lines),
        "corrections": list(corrections),
        "gm_log": list(gm_log or ()),
        "standing": list(standing or ()),
        "waiting": list(waiting or ()),
        "offers": list(offers or ()),
        "orders": [_order(order, words) for order in orders],
        "acting": acting,
        "your_turn": your_turn,
        "deadline": _when(deadline, words) if deadline is not None else None,
        "finished": bool(view["finished"]),
        "reason": _reason(view, narrator),
        "result": _result(view, cash),
        "player_header": PLAYER_HEADER,
        "player_rows": players,
        "player_table": _text_table([words[h] for h in PLAYER_HEADER], players),
        "corp_header": CORP_HEADER,
        "corp_rows": corp_rows,
        "corp_table": _text_table([words[h] for h in CORP_HEADER], corp_rows),
        "not_started": words["not_started"].format(syms=", ".join(unstarted))
        if unstarted
        else None,
        "companies": [
            f"{c['name']} ({c['owner'] or words['bank_owned']})" for c in view["companies"]
        ],
        "pictures": [(words[PICTURE_LABELS[k]], Markup(svg)) for k, svg in pictures.items()],
        "attachments": [(n, _describe(n, words)) for n, _, _ in attachments],
        "unchanged": words["unchanged"].format(what=", ".join(unchanged)) if unchanged else None,
        "left_out": words["left_out"].format(
            limit=(max_bytes or 0) // 1000, what=", ".join(left_out)
        )
        if left_out
        else None,
        "secret": words["secret"].format(word=secret) if secret else None,
        "legal_title": ORDER_WORDS[lang]["title"],
        "legal": [] if view["finished"] else legal_orders(game, player_id(game, name), lang),
    }
    text = _environment(False).get_template("report.txt.j2").render(context)
    html = _environment(True).get_template("report.html.j2").render(context)
    return Report(subject, text, html, attachments, name, last_action, now_has, "game" in files,
                  secret is not None)  # fmt: skip


MAX_ORDER_LINES = 20
"""The most lines of a report's list of the player's possible orders; the rest are counted."""

ORDER_WORDS: dict[str, dict[str, str]] = {
    "en": {"title": "Your possible orders", "more": "…and {n} more", "tiles": "possible",
           "rotation": "rotation", "prices": "prices", "minimum": "at least", "to": "to",
           "price": "price", "par": "par"},
    "de": {"title": "Deine möglichen Befehle", "more": "…und {n} weitere", "tiles": "möglich",
           "rotation": "drehung", "prices": "Kurse", "minimum": "mindestens", "to": "bis",
           "price": "Kurs", "par": "Nennwert"},
}  # fmt: skip
"""The words of the list of possible orders (the orders are ``phrase.order_text``'s)."""


def legal_orders(
    game: Game, player: PlayerId, lang: str, limit: int = MAX_ORDER_LINES
) -> list[str]:
    """The orders ``player`` can give now, in the order language of ``lang``: the engine's
    legal actions (``api.Game.legal_actions``, tile lays of every hex) of every entity he
    decides for, each written as the order that means it (``phrase.order_text``), with its
    price or amount after ``#`` (a comment to the order parser, so a line can be copied
    into a mail as it stands).  Condensed: one line per hex for tile lays (the tiles and
    rotations after ``#``), per corporation for a par (its prices), per private company and
    per train of another corporation for a purchase (the lowest price, and the range after
    ``#``), the best run for a run.  A share to buy or sell shows its certificate's
    percentage and the corporation's share price (and its par price, when it differs, for a
    share from the IPO), not a cost: what a share costs differs by title (1849: the IPO at
    par; 1841: at the market price, a minor's 20 % share at one price).  At most ``limit``
    lines, the last saying how many more there are."""
    from stellwerk.gm.phrase import meaning_text, order_text
    from stellwerk.gm.understand import player_of, share_source

    words = ORDER_WORDS.get(lang, ORDER_WORDS["en"])
    title = game.title
    view = player_view(game, lang, log=0)
    corps = {c["sym"]: c for c in view["corporations"]}

    def cash(amount: object) -> str:
        return money(title, int(str(amount)), lang) if str(amount).isdigit() else str(amount)

    def decides(action: JSONObject) -> bool:
        entity = action.get("entity")
        return isinstance(entity, str | int) and player_of(game, entity) == player

    actions = [a for a in game.legal_actions(all_lays=True) if decides(a)]
    groups: dict[tuple[str, ...], list[JSONObject]] = {}
    for index, action in enumerate(actions):
        kind = str(action.get("type"))
        entity = str(action.get("entity"))
        if kind == "lay_tile":
            key: tuple[str, ...] = (entity, kind, str(action.get("hex")))
        elif kind == "par":
            key = (entity, kind, str(action.get("corporation")))
        elif kind in ("bid", "buy_company"):
            key = (entity, kind, str(action.get("company") or action.get("corporation")))
        elif kind == "buy_train":  # another corporation's train: the lowest and highest price
            key = (entity, kind, str(action.get("train")))
        else:
            key = (entity, kind, str(index))
        groups.setdefault(key, []).append(action)
    lines = []
    for (_, kind, _), members in groups.items():
        first = members[0]
        text = order_text(game, first, lang, best=kind == "run_routes")
        note = ""
        if kind == "lay_tile":
            tiles: dict[str, list[str]] = {}
            for action in members:
                tile = str(action.get("tile")).rpartition("-")[0] or str(action.get("tile"))
                tiles.setdefault(tile, []).append(str(action.get("rotation")))
            note = f"{words['tiles']}: " + "; ".join(
                f"{tile} {words['rotation']} {', '.join(turns)}" for tile, turns in tiles.items()
            )
        elif kind == "par":
            prices = sorted({int(str(a.get("share_price", "0")).split(",")[0]) for a in members})
            note = f"{words['prices']}: {', '.join(str(x) for x in prices)}"
        elif kind == "bid":
            note = f"{words['minimum']} {cash(first.get('price'))}"
        elif kind in ("buy_company", "buy_train") and len(members) > 1:
            low = min(members, key=lambda a: int(str(a.get("price", 0))))
            high = max(int(str(a.get("price", 0))) for a in members)
            text = order_text(game, low, lang)
            note = f"{cash(low.get('price'))} {words['to']} {cash(high)}"
        elif kind in ("buy_shares", "sell_shares"):  # the certificate, the share prices
            share = first_text(first, "shares")
            corp = corps.get(share.rpartition("_")[0])
            note = percent(int(str(first.get("percent", 0))), lang)
            if corp is not None and corp["price"] is not None:
                note += f", {words['price']} {cash(corp['price'])}"
            if (
                kind == "buy_shares"
                and corp is not None
                and corp["par"] is not None
                and corp["par"] != corp["price"]
                and share_source(game, share) == "ipo"
            ):
                note += f", {words['par']} {cash(corp['par'])}"
        elif kind in ("buy_company", "buy_train", "buy_token") and first.get("price") is not None:
            note = cash(first.get("price"))
        elif kind == "run_routes":
            revenue = sum(int(str(r.get("revenue", 0))) for r in objects_at(first, "routes"))
            note = cash(revenue + int(str(first.get("extra_revenue") or 0)))
        if kind in ("choose", "pass") and not note:  # an answer: what it does, in the title's words
            note = meaning_text(game, first, lang)
        line = f"{text}  # {note}" if note else text
        if line not in lines:
            lines.append(line)
    if len(lines) > limit:
        rest = len(lines) - (limit - 1)
        lines = [*lines[: limit - 1], words["more"].format(n=rest)]
    return lines


def _digest(svg: str) -> str:
    """A short name of a picture's content (equal pictures, equal names)."""
    return hashlib.sha256(svg.encode("utf-8")).hexdigest()[:16]


TEXT_ALLOWANCE = 100_000
"""What the text and HTML parts of a report take besides the pictures, at most (a long
log since the last report included)."""


LEAVE_OUT = ("revenues", "prices", "worth", "charters", "players", "game", "market", "map")
"""What a report too large leaves out first: the charters and the players' table repeat the
text tables, the game file can be asked for, the market and the map are what players look
at."""


def _to_leave_out(
    files: Mapping[str, tuple[str, str, bytes]], pictures: Mapping[str, str], limit: int
) -> list[str]:
    """The attachments to leave out so that the report fits ``limit``, in ``LEAVE_OUT``'s
    order (a picture counts attached and inline in the HTML part)."""

    def size(kind: str) -> int:
        inline = len(pictures[kind].encode("utf-8")) if kind in pictures else 0
        return len(files[kind][2]) + inline

    total = TEXT_ALLOWANCE + sum(size(kind) for kind in files)
    out: list[str] = []
    for kind in (k for k in LEAVE_OUT if k in files):
        if total <= limit:
            break
        total -= size(kind)
        out.append(kind)
    return out


PLAYER_HEADER = ("h_name", "h_cash", "h_certs", "h_shares", "h_companies")
CORP_HEADER = (
    "h_corp",
    "h_president",
    "h_treasury",
    "h_par",
    "h_price",
    "h_ipo",
    "h_pool",
    "h_trains",
    "h_tokens",
)
PICTURE_LABELS = {
    "map": "map",
    "market": "market",
    "charters": "charters",
    "players": "players_table",
    "worth": "plot_worth",
    "prices": "plot_prices",
    "revenues": "plot_revenues",
}


def _where(view: GameView, narrator: Narrator) -> str:
    """The round in words: "Stock round 2", "Betriebsrunde 3.1"."""
    short = str(view["round"])
    template = narrator.words.get(f"round:{short}", narrator.words["round:other"])
    return template.format(name=short, turn=view["turn"], num=view["round_num"])


def _acting(view: GameView, narrator: Narrator) -> list[str]:
    """Who acts next and on what: a corporation with its president."""
    if view["finished"]:
        return []
    presidents = {c["sym"]: c["president"] for c in view["corporations"]}
    step = narrator.step(view["step"]) if view["step"] else "-"
    out = []
    for who in view["acting"]:
        president = presidents.get(who)
        label = f"{who} ({president})" if president else str(who)
        out.append(LABELS[narrator.lang]["acts_on"].format(who=label, step=step))
    return out


def _is_to_act(view: GameView, name: str) -> bool:
    """Is the player to act, themselves or as president of the corporation to act?"""
    presidents = {c["sym"]: c["president"] for c in view["corporations"]}
    return any(who == name or presidents.get(who) == name for who in view["acting"])


def _when(deadline: datetime, words: dict[str, str]) -> str:
    text = deadline.strftime(words["date"])
    zone = deadline.tzname()
    return words["deadline"].format(when=f"{text} {zone}" if zone else text)


def _reason(view: GameView, narrator: Narrator) -> str:
    reason = view["game_end_reason"]
    if not reason:
        return "-"
    return narrator.words.get(f"reason:{reason}", str(reason))


def _result(view: GameView, cash: Cash) -> list[str]:
    ranked = sorted(view["result"].items(), key=lambda item: -int(item[1]))
    return [f"{name}: {cash(int(value))}" for name, value in ranked]


def _order(order: ReportOrder, words: dict[str, str]) -> OrderLine:
    if order.refused is not None:
        status, detail = "refused", words["refused"].format(why=order.refused)
    elif order.understood is not None:
        status, detail = "understood", words["understood"].format(what=order.understood)
    else:
        status, detail = "pending", words["pending"]
    marks = [words[k] for k, on in (("default", order.default), ("standing", order.standing)) if on]
    return {"text": order.text, "status": status, "detail": detail, "marks": marks}


def _player_rows(view: GameView, words: dict[str, str], cash: Cash, lang: str) -> list[list[str]]:
    rows = []
    for p in view["players"]:
        shares = ", ".join(f"{sym} {percent(pct, lang)}" for sym, pct in p["shares"].items())
        shares = shares or "-"
        name = f"{p['name']} ({words['bankrupt']})" if p["bankrupt"] else p["name"]
        rows.append(
            [
                name,
                cash(p["cash"]),
                f"{p['certificates']}/{p['certificate_limit']}",
                shares,
                ", ".join(p["companies"]) or "-",
            ]
        )
    return rows


def _corporation_rows(
    corporations: list[CorporationView], cash: Cash, lang: str
) -> list[list[str]]:
    return [
        [
            c["sym"],
            c["president"] or "-",
            cash(c["cash"]),
            cash(c["par"]),
            cash(c["price"]),
            percent(c["ipo_percent"], lang),
            percent(c["pool_percent"], lang),
            ", ".join(c["trains"]) or "-",
            ", ".join(c["tokens"]) or "-",
        ]
        for c in corporations
    ]


def _text_table(header: list[str], rows: list[list[str]]) -> list[str]:
    """Rows as aligned text columns under a header and a rule."""
    if not rows:
        return []
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True))

    rule = "  ".join("-" * width for width in widths)
    return [line(header).rstrip(), rule, *(line(r).rstrip() for r in rows)]


def _describe(filename: str, words: dict[str, str]) -> str:
    if filename.endswith(".json"):
        return words["game_file"]
    kind = filename.rsplit("_", 1)[-1].split(".")[0]
    return words[PICTURE_LABELS.get(kind, "map")]


def _pictures(game: Game, lang: str = "en") -> dict[str, str]:
    """The map, market, charters and players' table of the game now, and the plots of its
    course over the rounds ended so far (players' worth, share prices, revenues per
    operating round: they change only when a round ends, so a report attaches them then),
    as SVG."""
    from stellwerk.history import History, history
    from stellwerk.pictures.charters import render_charters, render_players
    from stellwerk.pictures.mapview import render_map
    from stellwerk.pictures.market import render_market
    from stellwerk.pictures.plots import price_plot, revenue_plot, worth_plot
    from stellwerk.pictures.scene import map_scene
    from stellwerk.pictures.style import corporation_colors

    course = history(game)
    ended = History(course.players, course.corporations,
                    tuple(p for p in course.rounds if not p.current))  # fmt: skip
    colors = corporation_colors(game.title, ended.corporations,
                                game.view.declared_colors())  # fmt: skip
    out = {
        "map": render_map(map_scene(game, [], None, False, lang)),
        "market": render_market(game, lang),
        "charters": render_charters(game, game.actions, lang),
        "players": render_players(game, lang),
    }
    if ended.rounds:
        out["worth"] = worth_plot(ended, game.title, lang)
        out["prices"] = price_plot(ended, game.title, colors, lang)
        if any(p.revenues for p in ended.rounds):
            out["revenues"] = revenue_plot(ended, game.title, colors, lang)
    return out


@lru_cache(maxsize=16)
def _png(svg: str) -> bytes | None:
    """The picture as PNG; None without cairosvg (logged).  Cached by the SVG text: every
    player's report of one processing shows the same pictures."""
    from stellwerk.pictures.svg import to_png

    try:
        return to_png(svg, PNG_SCALE)
    except RuntimeError as error:
        LOG.warning("pictures attached as SVG: %s", error)
        return None


@lru_cache(maxsize=2)
def _environment(html: bool) -> Environment:
    """The Jinja2 environment of the text (no escaping) or the HTML templates."""
    return Environment(
        loader=PackageLoader("stellwerk.gm", "templates"),
        autoescape=html,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def to_email(
    report: Report, sender: str, recipient: str, *, in_reply_to: str | None = None
) -> EmailMessage:
    """The report as a mail: a multipart/alternative of the text and the HTML part, in a
    multipart/mixed with the attachments.  ``in_reply_to``: the Message-ID of the player's
    order mail, to keep the thread."""
    message = EmailMessage()
    message["Subject"] = report.subject
    message["From"] = sender
    message["To"] = recipient
    message["Date"] = formatdate(localtime=False, usegmt=True)
    domain = parseaddr(sender)[1].rpartition("@")[2] or "stellwerk.invalid"
    message["Message-ID"] = make_msgid("stellwerk", domain=domain)
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
        message["References"] = in_reply_to
    message.set_content(report.text)
    message.add_alternative(report.html, subtype="html")
    for filename, mime, content in report.attachments:
        maintype, _, subtype = mime.partition("/")
        message.add_attachment(content, maintype=maintype, subtype=subtype, filename=filename)
    return message
