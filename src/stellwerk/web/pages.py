"""The web app's HTML pages (docs/web.md "Pages").

Server-rendered with Jinja2 (``web/templates/``), one small script (``web/static/app.js``) and
one stylesheet usable on a phone.  Pages read games only through the service
(``web.service.GameService.with_game``, on the store's thread after the token check), change
them only with ``GameService.act``, and show the engine's own words:

* ``/`` the games, an import form; ``/new`` a new game (title, players, options with their
  labels from the title's declarations, seed); the links of a new game are shown once.
* ``/play/{game}/{token}`` a player's page, ``/watch/{game}/{token}`` the spectators': the map
  (``stellwerk.pictures``: every hex ``data-hex``, every city ``data-city``), market, charters,
  players, the log (``stellwerk.words``) and, for the player, his choices
  (``web.choices``): a click on a hex opens its tile lays (tile, then rotation), a click on a
  city its token; every other move is a button; the optimiser's run is drawn and accepted with
  one click.  Other players' moves, and trade offers made to or answered by others
  (``web.offers``), arrive through the live feed (``/api/games/{id}/events``): the script
  fetches the page again and replaces its parts.  ``/games/{id}?token=T`` (the
  API's link) redirects to the right one.
* Deadlines (the game master's, ``web.deadlines``): a new game may have hours per decision;
  the page shows when the open decision is due and, once it is, any player may have the
  default order applied (the server's ticker does so too).
* Standing orders (the game master's, ``web.standing``): a player gives "pass for the rest of
  this stock round" or "buy shares of X each turn until it floats / N shares" and cancels
  them on his page; they are 18xx.games' ``program_*`` actions, sent like any move.
* Undo: while the game's last move is the player's own (nobody else acted since), his page
  offers "undo my last move" (``web.service.may_undo``): an ``undo`` sent like any move.
* ``?lang=de|en`` switches the language (kept in a cookie).

Forms: every POST carries a signed token in a hidden field (``web.security.Csrf``, its scope
the form's purpose -- a seat's token digest for moves -- and the nonce of a ``SameSite=Strict``,
``HttpOnly`` cookie) and must come from this site (``same_origin`` on ``Origin``, and
``Sec-Fetch-Site`` where the browser sends it; the pages' referrer policy is ``same-origin``,
so a form post names its origin while the secret links never leave the site); otherwise 403
and nothing is done.  A refused move is shown as the rule's sentence (``IllegalAction.reason``
and ``rule``), never a traceback (the app's ``Guard``).
"""

from __future__ import annotations

import functools
import json
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from jinja2 import pass_context
from jinja2.runtime import Context
from starlette.datastructures import FormData, State, UploadFile
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from stellwerk.core.entities import PlayerId
from stellwerk.core.errors import GameFileError, IllegalAction
from stellwerk.core.jsondata import JSONObject, JSONValue
from stellwerk.pictures.style import TRAIN_COLORS
from stellwerk.store import (
    GameMovedOn,
    GameStore,
    StoredGame,
    StoreError,
    actions_of,
    players_of,
)
from stellwerk.web.auction import Auction, Card, auction, company_cards
from stellwerk.web.choices import Choices, build_choices
from stellwerk.web.deadlines import deadline_seconds, due_at
from stellwerk.web.errors import BadRequest, Forbidden, NotFound, WebError
from stellwerk.web.laying import WORDS as LAY_WORDS
from stellwerk.web.laying import HexPage, hex_page
from stellwerk.web.offers import Offer, OfferGone, OfferMade, stamp
from stellwerk.web.seats import ANNEX, Access, digest
from stellwerk.web.security import Csrf, same_origin
from stellwerk.web.service import (
    Created,
    GameService,
    decider,
    last_mover,
    may_undo,
    player_names,
    undo_of,
)
from stellwerk.web.stock import StockTable, stock_table
from stellwerk.words import money, step_name
from stellwerk.words.catalog import WORDS

if TYPE_CHECKING:
    from stellwerk.api import Game
    from stellwerk.core.map.board import Board
    from stellwerk.titles.registry import TitleInfo
    from stellwerk.words.view import GameView

HERE = Path(__file__).parent
TEMPLATES = Jinja2Templates(directory=str(HERE / "templates"))


@pass_context
def _cash(context: Context, amount: object) -> str:
    """Money in the page's title currency and language (``stellwerk.words.money``); ``-``
    for none."""
    if not isinstance(amount, int) or isinstance(amount, bool):
        return "-" if amount is None else str(amount)
    page = context.get("page")
    title = str(getattr(page, "title", ""))
    return money(title, amount, str(context.get("lang", "en")))


TEMPLATES.env.filters["cash"] = _cash

LANGS = ("en", "de")
STANDING_ANNEX = "web-standing"
"""The annex of ``web.standing``: the game master's standing orders of a game."""
STANDING_KINDS = {"share_pass": "program_share_pass", "buy_shares": "program_buy_shares"}
NONCE_COOKIE = "stellwerk_csrf"
LANG_COOKIE = "stellwerk_lang"
LOG_LINES = 40

UI: dict[str, dict[str, str]] = {
    "en": {
        "games": "Games", "new_game": "New game", "title": "Title", "players": "Players",
        "players_hint": "one name per line, in seat order", "options": "Options",
        "seed": "Seed", "seed_hint": "empty: random", "create": "Create",
        "import": "Import a game", "import_hint": "an 18xx.games game file or a Rails 1835 report",
        "upload": "Import", "no_games": "No games yet.", "actions": "actions",
        "finished": "finished", "links": "Links", "links_hint":
        "Each player opens his own secret link; keep them private. They are shown only now.",
        "spectators": "Spectators", "open": "open", "map": "Map", "market": "Market",
        "charters": "Charters", "log": "Log", "corporations": "Corporations",
        "your_move": "Your move", "waiting": "Waiting for", "nobody": "nobody",
        "tile_lays": "Tile lays", "tokens": "Stations", "click_hex":
        "Click a hex with a marked outline on the map to see a tile there, or choose a hex:",
        "click_city": "Click a marked city on the map, or choose here:",
        "routes": "Routes", "accept": "Accept", "price": "Price", "send": "Send",
        "edit_routes": "Change the routes: pick a train, then click cities and towns on the "
        "map to add them to its route; each goes where the route stays legal and pays most, "
        "at either end or between two stops (click again to take one off).",
        "edit_needs_script": "Changing the routes on the map needs JavaScript; without it "
        "run the best routes above.",
        "best_run": "Best run", "run_these": "Run these routes", "total": "Total",
        "no_stops": "no stops",
        "export": "Download the game file (18xx.games)", "round": "Round", "phase": "Phase",
        "bank": "Bank", "spectator": "Spectator", "you_are": "You are", "refused": "Refused",
        "moved_on": "The game moved on meanwhile; here it is as it is now.",
        "game_over": "Game over", "cash": "Cash", "shares": "Shares", "certs": "Certificates",
        "president": "President", "par": "Par", "price_now": "Price", "trains": "Trains",
        "ipo": "IPO", "pool": "Pool", "companies": "Companies", "step": "Step",
        "back": "All games",
        "group_turn": "Turn", "group_auction": "Auction", "group_shares": "Shares",
        "group_trains": "Trains", "group_dividend": "Dividend", "group_routes": "Routes",
        "group_other": "Other", "depot": "Depot", "group_tokens": "Station tokens",
        "group_companies": "Buy a private company (optional)", "live": "live",
        "deadline": "Deadline per decision (hours)", "deadline_hint": "empty: none",
        "due": "Deadline of this decision", "settle": "Deadline passed: apply the default order",
        "standing": "Standing orders", "share_pass": "Pass for the rest of this stock round",
        "buy_until": "Buy shares each turn", "until": "until", "float": "it floats",
        "from_pool": "from the pool", "give": "Give the order", "cancel": "Cancel",
        "order_share_pass": "pass in this stock round", "order_buy_shares": "buy {target}",
        "train_need": "{corp} must buy a train: the bank's cheapest, a {train}-train, costs "
        "{price}; {corp} has {cash}, {short} short.",
        "train_need_payer": "What {corp} and {payer} may do is below.",
        "undo": "Undo my last move", "undo_hint":
        "Possible while nobody else has acted since; the others see it at once.",
        "holders": "Holders", "control": "President / control", "moves": "Your moves",
        "start_at": "Start at", "not_started": "Not started yet", "floated": "floated",
        "auction": "Auction", "bid": "Bid", "standing_bid": "Standing bid",
        "sealed": "Sealed bids", "sealed_hint":
        "One amount per item: 0 or empty for no bid, else at least the opening bid; in "
        "total at most your cash. The others see your bids only when all are in.",
        "opening": "opening bid", "hand_in": "Hand in my sealed bids",
        "see_auction": "Your bids are made on the auction's cards below.",
        "course": "The game's course", "privates": "Private companies and concessions",
        "plot_worth": "The players' worth over the rounds", "plot_prices":
        "The share prices over the rounds", "plot_revenues":
        "Each corporation's revenue per operating round",
        "whole_log": "the whole log, searchable, each position a click away",
        "chat": "Chat", "say": "Send", "say_hint": "a message to everybody in this game",
        "say_empty": "An empty message is not sent", "say_long":
        "A message has at most 500 characters", "no_chat": "No messages yet.",
        "offers": "Offers", "offer_by": "{buyer} offers {seller}", "decline": "Decline",
        "withdraw": "Withdraw", "offer_waits": "waits for {seller}'s consent",
        "table": "Table (one screen for everybody)", "table_hint":
        "The table's link acts for whoever is to act: open it on the one screen the table "
        "shares.", "at_table": "Table", "acts_now": "to act", "bank_sum": "Bank",
        "your_turn": "Your turn", "to_act": "to act", "notify":
        "Tell me when it is my turn (sound and notification)", "seen_here":
        "Games you opened on this device are links; a player's own link is only in his "
        "invitation.",
        "bar_turn": "Turn (r)", "bar_confirm": "Lay (Enter)", "bar_cancel": "Cancel (Esc)",
        "bar_zoom_in": "Zoom in (+)", "bar_zoom_out": "Zoom out (-)",
        "bar_zoom_fit": "Whole map (0)",
        "bar_station": "Place a station here?",
    },
    "de": {
        "games": "Spiele", "new_game": "Neues Spiel", "title": "Titel", "players": "Spieler",
        "players_hint": "ein Name pro Zeile, in Sitzreihenfolge", "options": "Optionen",
        "seed": "Startwert", "seed_hint": "leer: zufällig", "create": "Anlegen",
        "import": "Spiel importieren", "import_hint":
        "eine 18xx.games-Spieldatei oder ein Rails-1835-Bericht",
        "upload": "Importieren", "no_games": "Noch keine Spiele.", "actions": "Aktionen",
        "finished": "beendet", "links": "Links", "links_hint":
        "Jeder Spieler öffnet seinen eigenen geheimen Link; bitte geheim halten. "
        "Sie werden nur jetzt angezeigt.",
        "spectators": "Zuschauer", "open": "öffnen", "map": "Karte", "market": "Kurstafel",
        "charters": "Gesellschaften", "log": "Protokoll", "corporations": "Gesellschaften",
        "your_move": "Du bist am Zug", "waiting": "Am Zug", "nobody": "niemand",
        "tile_lays": "Plättchen legen", "tokens": "Stationen", "click_hex":
        "Klicke auf ein markiertes Feld der Karte, um dort ein Plättchen zu sehen, oder wähle "
        "ein Feld:",
        "click_city": "Klicke auf eine markierte Stadt der Karte oder wähle hier:",
        "routes": "Strecken", "accept": "Annehmen", "price": "Preis", "send": "Senden",
        "edit_routes": "Strecken ändern: einen Zug wählen, dann Städte und Orte auf der Karte "
        "anklicken, um sie in seine Strecke aufzunehmen; jeder Halt kommt dorthin, wo die "
        "Strecke erlaubt bleibt und am meisten einbringt, an ein Ende oder zwischen zwei "
        "Halte (noch einmal anklicken nimmt ihn heraus).",
        "edit_needs_script": "Strecken auf der Karte ändern geht nur mit JavaScript; ohne es "
        "die besten Strecken oben fahren.",
        "best_run": "Beste Strecken", "run_these": "Diese Strecken fahren", "total": "Summe",
        "no_stops": "keine Halte",
        "export": "Spieldatei herunterladen (18xx.games)", "round": "Runde", "phase": "Phase",
        "bank": "Bank", "spectator": "Zuschauer", "you_are": "Du bist", "refused": "Abgelehnt",
        "moved_on": "Das Spiel ist inzwischen weitergegangen; hier ist der neue Stand.",
        "game_over": "Spielende", "cash": "Geld", "shares": "Aktien", "certs": "Zertifikate",
        "president": "Direktor", "par": "Nennwert", "price_now": "Kurs", "trains": "Züge",
        "ipo": "Erstausgabe", "pool": "Pool", "companies": "Privatbahnen", "step": "Schritt",
        "back": "Alle Spiele",
        "group_turn": "Zug", "group_auction": "Versteigerung", "group_shares": "Aktien",
        "group_trains": "Züge", "group_dividend": "Dividende", "group_routes": "Strecken",
        "group_other": "Weiteres", "depot": "Depot", "group_tokens": "Stationsmarker",
        "group_companies": "Eine Privatbahn kaufen (freiwillig)", "live": "live",
        "deadline": "Frist je Entscheidung (Stunden)", "deadline_hint": "leer: keine",
        "due": "Frist dieser Entscheidung", "settle": "Frist abgelaufen: Standardzug ausführen",
        "standing": "Daueraufträge", "share_pass": "Für den Rest dieser Aktienrunde passen",
        "buy_until": "Jede Runde Aktien kaufen", "until": "bis", "float": "sie schwimmt",
        "from_pool": "aus dem Pool", "give": "Auftrag erteilen", "cancel": "Aufheben",
        "order_share_pass": "in dieser Aktienrunde passen", "order_buy_shares": "{target} kaufen",
        "train_need": "{corp} muss einen Zug kaufen: der billigste der Bank, ein {train}-Zug, "
        "kostet {price}; {corp} hat {cash}, es fehlen {short}.",
        "train_need_payer": "Was {corp} und {payer} tun können, steht unten.",
        "undo": "Meinen letzten Zug zurücknehmen", "undo_hint":
        "Möglich, solange seitdem niemand sonst gezogen hat; die anderen sehen es sofort.",
        "holders": "Aktionäre", "control": "Direktor / Kontrolle", "moves": "Deine Züge",
        "start_at": "Gründen zu", "not_started": "Noch nicht gegründet",
        "floated": "in Betrieb",
        "auction": "Versteigerung", "bid": "Gebot", "standing_bid": "Höchstgebot",
        "sealed": "Verdeckte Gebote", "sealed_hint":
        "Ein Betrag je Angebot: 0 oder leer für kein Gebot, sonst mindestens das "
        "Mindestgebot; zusammen höchstens dein Geld. Die anderen sehen deine Gebote erst, "
        "wenn alle abgegeben sind.",
        "opening": "Mindestgebot", "hand_in": "Meine verdeckten Gebote abgeben",
        "see_auction": "Deine Gebote gibst du auf den Karten der Versteigerung unten ab.",
        "course": "Spielverlauf", "privates": "Privatbahnen und Konzessionen",
        "plot_worth": "Das Vermögen der Spieler über die Runden", "plot_prices":
        "Die Aktienkurse über die Runden", "plot_revenues":
        "Die Einnahmen jeder Gesellschaft je Betriebsrunde",
        "whole_log": "das ganze Protokoll, durchsuchbar, jeder Stand einen Klick entfernt",
        "chat": "Chat", "say": "Senden", "say_hint": "eine Nachricht an alle in diesem Spiel",
        "say_empty": "Eine leere Nachricht wird nicht gesendet", "say_long":
        "Eine Nachricht hat höchstens 500 Zeichen", "no_chat": "Noch keine Nachrichten.",
        "offers": "Angebote", "offer_by": "{buyer} bietet {seller} an", "decline": "Ablehnen",
        "withdraw": "Zurückziehen", "offer_waits": "wartet auf die Zustimmung von {seller}",
        "table": "Tisch (ein Bildschirm für alle)", "table_hint":
        "Der Link des Tisches handelt für den, der am Zug ist: auf dem einen Bildschirm "
        "öffnen, den sich der Tisch teilt.", "at_table": "Tisch", "acts_now": "ist am Zug",
        "bank_sum": "Bank",
        "your_turn": "Du bist am Zug", "to_act": "am Zug", "notify":
        "Sag mir, wenn ich am Zug bin (Ton und Benachrichtigung)", "seen_here":
        "Spiele, die du auf diesem Gerät geöffnet hast, sind verlinkt; den eigenen Link hat "
        "jeder Spieler nur in seiner Einladung.",
        "bar_turn": "Drehen (r)", "bar_confirm": "Legen (Enter)", "bar_cancel": "Abbrechen (Esc)",
        "bar_zoom_in": "Vergrößern (+)", "bar_zoom_out": "Verkleinern (-)",
        "bar_zoom_fit": "Ganze Karte (0)",
        "bar_station": "Hier eine Station setzen?",
    },
}  # fmt: skip
"""The pages' own words; the game's are ``stellwerk.words``'."""


# -- language and form tokens -------------------------------------------------------------
def language(request: Request) -> str:
    """``?lang=`` if given, else the cookie, else the browser's preference, else English."""
    asked = request.query_params.get("lang")
    if asked in LANGS:
        return str(asked)
    kept = request.cookies.get(LANG_COOKIE)
    if kept in LANGS:
        return str(kept)
    accept = request.headers.get("accept-language", "")
    return "de" if accept.lower().startswith("de") else "en"


def nonce_of(request: Request) -> tuple[str, bool]:
    """The browser's form nonce (cookie) and whether it is new (to be set)."""
    kept = request.cookies.get(NONCE_COOKIE)
    if kept and 16 <= len(kept) <= 64 and kept.replace("-", "").replace("_", "").isalnum():
        return kept, False
    return secrets.token_urlsafe(24), True


def form_token(request: Request, purpose: str, nonce: str) -> str:
    csrf: Csrf = request.app.state.csrf
    return csrf.token(f"{purpose}|{nonce}")


def check_form(request: Request, form: FormData, purpose: str) -> None:
    """A POST must carry this site's signed token of ``purpose`` for the cookie's nonce and
    come from this site (module docstring): ``Forbidden`` otherwise."""
    nonce = request.cookies.get(NONCE_COOKIE)
    value = form.get("csrf")
    csrf: Csrf = request.app.state.csrf
    host = request.headers.get("host", "")
    fetched_from = request.headers.get("sec-fetch-site", "same-origin")
    if (
        not nonce
        or not isinstance(value, str)
        or not csrf.check(value, f"{purpose}|{nonce}")
        or not same_origin(request.headers, host)
        or fetched_from not in ("same-origin", "none")
    ):
        raise Forbidden("this form has expired or did not come from this site; reload the page")


def render(
    request: Request, name: str, context: Mapping[str, object], status: int = 200, nonce: str = ""
) -> Response:
    """A template with the language's words; keeps the language and the form nonce cookies."""
    lang = language(request)
    kept, new = (nonce, False) if nonce else nonce_of(request)
    page = {
        "lang": lang,
        "ui": UI[lang],
        "path": request.url.path,
        **context,
    }
    response = TEMPLATES.TemplateResponse(request, name, page, status_code=status)
    # the pages' own referrer policy: a form post then names its origin (``no-referrer``
    # would send ``Origin: null``), while the secret links still never leave the site
    response.headers["referrer-policy"] = "same-origin"
    if request.query_params.get("lang") in LANGS:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="strict")
    if new or nonce:
        response.set_cookie(
            NONCE_COOKIE, kept, max_age=30 * 86400, httponly=True, samesite="strict"
        )
    return response


def error_page(request: Request, message: str, status: int) -> Response:
    return render(request, "error.html", {"message": message}, status)


# -- the game page's content (on the store's thread) ---------------------------------------
Pictures = tuple[str, str, str]
"""The map, market and charters as SVG."""


@dataclass
class GamePage:
    """What the game template shows."""

    key: str
    title: str
    count: int
    view: GameView
    map_svg: str
    market_svg: str
    charters_svg: str
    choices: Choices
    access: Access
    names: dict[str, str]
    stock: StockTable
    auction: Auction
    """The auction's cards and sealed-bid form (``web.auction``)."""
    round_text: str = ""
    """The round in the page's language ("Aktienrunde 2", "Operating round 3.1")."""
    step_text: str = ""
    """The step asked now in the page's language ("Strecke bauen"; empty: none)."""
    end_text: str = ""
    """The end of a finished game told in words: the reason, the winner, the scores."""
    companies: tuple[Card, ...] = ()
    """Every private company or concession still in the game, described (``web.auction``)."""
    """The corporations as a table with the player's share moves in their rows
    (``web.stock``)."""
    undo: JSONObject | None = None
    """The ``undo`` the player may send now (``web.service.may_undo``), else None."""
    your_turn: bool = False
    """The player of this page decides something now (the page title says so); at the
    table: somebody does."""
    chat: tuple[tuple[str, str], ...] = ()
    """The last chat messages (who, text), oldest first."""
    acting: tuple[str, ...] = ()
    """Who acts, each with the player deciding for it ("SFA (Ann)"), for the table."""
    offers: tuple[OfferCard, ...] = ()
    """The open trade offers (``web.offers``)."""
    offers_stamp: str = ""
    """Their ``web.offers.stamp``: the live feed tells the page when it changes."""
    route_editor: RouteEditor | None = None
    """The route step's editor on the map (``web.runs``), when the offered run has trains."""
    train_need: str = ""
    """Why the player's corporation must raise money for a train, with the sums
    (:func:`train_need_text`); empty when it need not."""


@dataclass(frozen=True)
class OfferCard:
    """An open trade offer (``web.offers``) as the page shows it: the purchase in words,
    the buyer and seller by name, and what this page's player may do with it: ``answer``
    (he is the seller), ``withdraw`` (he is the buyer) or nothing."""

    id: str
    text: str
    buyer: str
    seller: str
    role: str


def _offer_cards(
    game: Game, access: Access, made: Sequence[Offer], names: Mapping[str, str], lang: str
) -> tuple[OfferCard, ...]:
    from stellwerk.words import Narrator

    narrator = Narrator(game, lang)
    cards = []
    for offer in made:
        role = ""
        if access.is_player and access.player == offer.seller:
            role = "answer"
        elif access.is_player and access.player == offer.buyer:
            role = "withdraw"
        cards.append(
            OfferCard(
                offer.id,
                narrator.action(offer.action, 0),
                names.get(str(offer.buyer), str(offer.buyer)),
                names.get(str(offer.seller), str(offer.seller)),
                role,
            )
        )
    return tuple(cards)


def game_page(
    stored: StoredGame, access: Access, key: str, lang: str, made: Sequence[Offer] = ()
) -> GamePage:
    """Build the game's pictures, words and (for a player) choices (on the store's thread,
    ``GameService.with_game``)."""
    from stellwerk.api import Game
    from stellwerk.pictures.charters import render_charters
    from stellwerk.pictures.mapview import render_map
    from stellwerk.pictures.market import render_market
    from stellwerk.pictures.scene import map_scene, route_lines
    from stellwerk.words.view import player_view

    game = stored.game
    if not isinstance(game, Game):  # a stand-in engine of the API's tests has no pages
        raise BadRequest("this game has no pages")
    current = [o for o in made if o.base == stored.count]  # read before: the game may have moved
    choices = Choices()
    if access.may_act and not game.finished:

        def mine(action: JSONObject) -> bool:
            return access.acts_for(decider(game, action.get("entity")))

        choices = build_choices(game, lang, mine)
    view = player_view(game, lang, LOG_LINES, legal=False)  # the choices list the moves
    view.pop("legal", None)
    offer = choices.routes
    shown = offer.corporation if offer is not None and offer.routes else None
    # every seat's page after a move shows the same pictures: drawn once per position,
    # routes shown and language, kept on the game (``api.Game.kept``: no other game sees them)
    drawn: dict[tuple[str | None, str], Pictures] = game.kept("web.pictures", dict)
    pictures = drawn.get((shown, lang))
    if pictures is None:
        look = game.view  # one reading of the game for the three pictures
        scene = map_scene(look, lang=lang)
        if offer is not None and shown is not None:
            lines = route_lines(scene.board, shown, list(offer.routes))
            scene = map_scene(look, lines, shown, best=True, lang=lang)
        pictures = drawn[(shown, lang)] = (
            render_map(scene),
            render_market(look, lang),
            render_charters(look, game.actions, lang),
        )
    return GamePage(
        key=key,
        title=str(stored.data.get("title")),
        count=stored.count,
        view=view,
        map_svg=pictures[0],
        market_svg=pictures[1],
        charters_svg=pictures[2],
        choices=choices,
        access=access,
        stock=stock_table(game.view.corporations(), choices, lang),
        auction=_auction(game, choices, lang),
        round_text=round_text(view, lang),
        step_text=step_text(view["title"], view["step"], lang),
        end_text=end_text(view, lang) if view["finished"] else "",
        companies=company_cards(
            game.view.companies(), game.view.corporations(), game.view.title, lang
        ),
        names=_names(stored.data),
        # ``last_mover`` walks the whole log, and every seat's page after a move asks it
        undo=undo_of(access, mover)
        if may_undo(access, mover := game.kept("web.last_mover", lambda: last_mover(stored)))
        else None,
        your_turn=not choices.empty,
        chat=tuple(chat_of(stored.data, _names(stored.data))),
        acting=_acting(game, _names(stored.data)),
        offers=_offer_cards(game, access, current, _names(stored.data), lang),
        offers_stamp=stamp(current),
        route_editor=_route_editor(game, choices),
        train_need="" if choices.empty else train_need_text(game, _names(stored.data), lang),
    )


def train_need_text(game: Game, names: Mapping[str, str], lang: str) -> str:
    """The operating corporation must buy a train its treasury cannot pay (common rules §6,
    emergency purchase: ``api.Game.view.train_need``): what it must buy, the sums, and who
    raises the rest; empty when no such purchase is due."""
    need = game.view.train_need()
    if need is None:
        return ""
    ui = UI.get(lang, UI["en"])
    title = game.title
    text = ui["train_need"].format(
        corp=need.corporation,
        train=need.train,
        price=money(title, need.price, lang),
        cash=money(title, need.cash, lang),
        short=money(title, need.shortfall, lang),
    )
    if need.payer is not None:
        payer = names.get(str(need.payer.key), str(need.payer.key))
        text += " " + ui["train_need_payer"].format(corp=need.corporation, payer=payer)
    return text


@dataclass(frozen=True)
class RouteEditor:
    """What the page's route editor starts from: the running corporation, its trains
    (id, name) -- those of the offered run first, in its order, so each keeps the colour the
    map gives it -- and the offered run's stops per train (``"H12.2"``)."""

    corporation: str
    trains: tuple[tuple[str, str], ...]
    best: dict[str, list[str]]


def _route_editor(game: Game, choices: Choices) -> RouteEditor | None:
    from stellwerk.web.runs import best_stops, trains_of

    offer = choices.routes
    if offer is None:
        return None
    corporation = offer.corporation
    trains = trains_of(game, corporation)
    if not trains:
        return None
    best = best_stops(game, corporation, list(offer.routes))
    ordered = [t for name in best for t in trains if t[0] == name]
    ordered += [t for t in trains if t not in ordered]
    return RouteEditor(corporation, tuple(ordered), best)


def _acting(game: Game, names: Mapping[str, str]) -> tuple[str, ...]:
    """Each entity to act, with the player who decides for it when that is another."""
    out = []
    for entity in game.view.step().acting:
        player = names.get(str(game.decider_of(entity.key)))
        out.append(entity.name if player in (None, entity.name) else f"{entity.name} ({player})")
    return tuple(out)


def _names(data: JSONObject) -> dict[str, str]:
    return {str(p.get("id")): str(p.get("name")) for p in players_of(data)}


@dataclass
class LayPage:
    """The tile lays of one hex on their own page (``web.laying``), for one seat."""

    key: str
    title: str
    count: int
    lays: HexPage | None


def lay_page(stored: StoredGame, access: Access, key: str, hex_id: str, lang: str) -> LayPage:
    """The lays of ``hex_id`` the seat's player may make now, each drawn on the hex (on the
    store's thread, ``GameService.with_game``)."""
    from stellwerk.api import Game

    game = stored.game
    if not isinstance(game, Game) or not access.may_act:
        raise Forbidden("this link is not for this page")
    lays = None
    if not game.finished and hex_id in game.board.hexes:

        def mine(action: JSONObject) -> bool:
            return access.acts_for(decider(game, action.get("entity")))

        lays = hex_page(game, hex_id, lang, mine)
    return LayPage(key, str(stored.data.get("title")), stored.count, lays)


def round_text(view: GameView, lang: str) -> str:
    """The round in words of ``lang`` ("Stock round 2", "Betriebsrunde 3.1"), as the log
    names rounds (``stellwerk.words``' catalog)."""
    words = WORDS.get(lang, WORDS["en"])
    name = view["round"]
    template = words.get(f"round:{name}", words["round:other"])
    return template.format(name=name, turn=view["turn"], num=view["round_num"])


def step_text(title: str, step: str | None, lang: str) -> str:
    """The step's name in ``lang`` (``stellwerk.words.step_name``: the title's own name of
    a step only it has, the common one, else the reference engine's); empty for none."""
    return step_name(title, step, lang)


END: dict[str, dict[str, str]] = {
    "en": {
        "over": "Game over: {reason}.",
        "wins": "{names} wins with {amount}.",
        "win": "{names} win with {amount}.",
        "scores": "Scores: {scores}.",
    },
    "de": {
        "over": "Spielende: {reason}.",
        "wins": "{names} gewinnt mit {amount}.",
        "win": "{names} gewinnen mit {amount}.",
        "scores": "Ergebnis: {scores}.",
    },
}
"""The end of a game in words; the reasons are ``stellwerk.words``' (``reason:bank``)."""


def end_text(view: GameView, lang: str) -> str:
    """A finished game told in words: why it ended, who won with how much, every score
    ("Game over: the bank is broken. Ann wins with L.1,234. Scores: Ann L.1,234, ...")."""
    words = WORDS.get(lang, WORDS["en"])
    end = END.get(lang, END["en"])
    reason = str(view["game_end_reason"] or "")
    sentence = end["over"].format(reason=words.get(f"reason:{reason}", reason or "?"))
    result = view["result"]
    if not result:
        return sentence
    title = view["title"]
    best = max(result.values())
    winners = [name for name, value in result.items() if value == best]
    joined = f" {words['and']} ".join(winners)
    key = "wins" if len(winners) == 1 else "win"
    sentence += " " + end[key].format(names=joined, amount=money(title, best, lang))
    ranked = sorted(result.items(), key=lambda item: -item[1])
    scores = ", ".join(f"{name} {money(title, value, lang)}" for name, value in ranked)
    return sentence + " " + end["scores"].format(scores=scores)


PLOTS = ("worth", "prices", "revenues")
"""The game's course as charts, in the page's order."""


def _plots(game: Game, lang: str) -> tuple[str, ...]:
    """The game's course (``stellwerk.history``) as the three charts of
    ``stellwerk.pictures.plots`` (:data:`PLOTS`' order), corporations in the market picture's
    colours."""
    from stellwerk.history import history
    from stellwerk.pictures.plots import price_plot, revenue_plot, worth_plot
    from stellwerk.pictures.style import corporation_colors

    look = game.view
    course = history(game)
    colors = corporation_colors(look.title, look.symbols(), look.declared_colors())
    return (
        worth_plot(course, look.title, lang),
        price_plot(course, look.title, colors, lang),
        revenue_plot(course, look.title, colors, lang),
    )


def _auction(game: Game, choices: Choices, lang: str) -> Auction:
    """The auction's cards (``web.auction``) from the game's views; none once it is over."""
    if game.finished:
        return Auction((), None)
    look = game.view
    offered = tuple(
        str(a.get("company") or a.get("corporation") or a.get("minor") or "")
        for a in game.legal_actions()
        if a.get("type") == "bid"
    )
    return auction(
        look.companies(),
        look.corporations(),
        look.step().bids,
        look.sealed_bids(),
        choices,
        look.title,
        lang,
        offered,
    )


# -- handlers ---------------------------------------------------------------------------------
def service_of(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


async def home(request: Request) -> Response:
    """The games and the import form."""
    nonce, _ = nonce_of(request)
    games = await service_of(request).games()
    context = {"games": games, "csrf": form_token(request, "import", nonce)}
    return render(request, "list.html", context, nonce=nonce)


def titles_offered() -> list[TitleInfo]:
    """Titles a new game may have (every registered one), with their options (``stellwerk
    options``' data)."""
    from stellwerk.titles.registry import TITLES, title_info

    return [title_info(t) for t in TITLES]


async def new_form(
    request: Request,
    error: str = "",
    status: int = 200,
    title: str | None = None,
    typed: Mapping[str, object] | None = None,
) -> Response:
    """The new-game form for ``title`` or ``?title=`` (the first title by default); after a
    refusal, with what was ``typed`` (names, options, seed, deadline) filled in again."""
    titles = titles_offered()
    wanted = title or request.query_params.get("title")
    chosen = next((t for t in titles if t.id == wanted), titles[0])
    nonce, _ = nonce_of(request)
    context = {
        "titles": titles,
        "chosen": chosen,
        "csrf": form_token(request, "new", nonce),
        "error": error,
        "typed": typed or {},
    }
    return render(request, "new.html", context, status, nonce=nonce)


async def new_game(request: Request) -> Response:
    """Create the game of the form; show every seat's link once."""
    form = await request.form()
    check_form(request, form, "new")
    title = str(form.get("title", ""))
    names = [n.strip() for n in str(form.get("players", "")).splitlines() if n.strip()]
    options = [str(o) for o in form.getlist("option")]
    seed_text = str(form.get("seed", "")).strip()
    hours_text = str(form.get("deadline_hours", "")).strip().replace(",", ".")
    typed = {
        "players": "\n".join(names)[:2000],
        "options": options,
        "seed": seed_text[:40],
        "deadline_hours": hours_text[:40],
    }
    try:
        seed = int(seed_text) if seed_text else None
        hours = float(hours_text) if hours_text else None
        deadline = deadline_seconds(hours)
    except ValueError as error:
        return await new_form(request, f"{error}", 400, title, typed)
    try:
        created = await service_of(request).create(
            title, player_names([*names]), options, seed, deadline
        )
    except WebError as error:
        return await new_form(request, error.message, error.status, title, typed)
    except IllegalAction as error:
        return await new_form(request, f"{error.reason} ({error.rule})", 422, title, typed)
    return created_page(request, created)


def created_page(request: Request, created: Created) -> Response:
    links = [(name, f"/play/{created.key}/{token}") for _pid, name, token in created.players]
    context = {
        "created": created,
        "links": links,
        "spectator": f"/watch/{created.key}/{created.spectator}",
        "table": f"/table/{created.key}/{created.table}" if created.table else None,
    }
    return render(request, "created.html", context, 201)


async def import_game(request: Request) -> Response:
    """An uploaded 18xx.games file (JSON) or Rails report (text) becomes a game."""
    form = await request.form()
    check_form(request, form, "import")
    upload = form.get("file")
    if not isinstance(upload, UploadFile):
        return error_page(request, "choose a file to import", 400)
    raw = await upload.read()
    service = service_of(request)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return error_page(request, "the file is not UTF-8 text", 400)
    try:
        if text.lstrip().startswith("{"):
            data = json.loads(text)
            created = await service.import_file(data)
        else:
            created = await service.import_rails(text)
    except ValueError as error:
        return error_page(request, f"the file is not JSON: {error}", 400)
    except WebError as error:
        return error_page(request, error.message, error.status)
    except (GameFileError, IllegalAction, StoreError) as error:
        return error_page(request, f"the game does not load: {error}", 422)
    return created_page(request, created)


async def seat_redirect(request: Request) -> Response:
    """``/games/{id}?token=T`` (the API's link): to the player's or the spectators' page."""
    key = request.path_params["id"]
    token = request.query_params.get("token")
    access = await service_of(request).access(key, token)
    lang = request.query_params.get("lang")
    keep = f"?lang={lang}" if lang in LANGS else ""  # an invitation in German stays German
    return RedirectResponse(f"/{access.kind}/{key}/{token}{keep}", status_code=303)


async def show(request: Request, error: str = "", status: int = 200) -> Response:
    """The game page of a player, of the table or of the spectators."""
    key = request.path_params["id"]
    token = request.path_params["token"]
    service = service_of(request)
    lang = language(request)
    made = await service.open_offers(key)
    page = await service.with_game(key, token, game_page, key, lang, made)
    access = page.access
    if request.url.path.split("/")[1] != access.kind:
        raise Forbidden("this link is not for this page")
    due = None if page.view["finished"] else await service.run(_due, key)
    orders: list[JSONObject] = []
    if access.player is not None and not page.view["finished"]:
        orders = await service.run(_standing_of, key, access.player)
    nonce, _ = nonce_of(request)
    kind = access.kind
    context = {
        "due": None if due is None else time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(due)),
        "overdue": due is not None and due <= time.time(),
        "deadline_url": f"/play/{key}/{token}/deadline",
        "standing_url": f"/play/{key}/{token}/standing",
        "orders": orders,
        "startable": [
            c["sym"] for c in page.view["corporations"] if c["par"] is not None or c["floated"]
        ],
        "page": page,
        "view": page.view,
        "choices": page.choices,
        "base_url": f"/{kind}/{key}/{token}",
        "act_url": f"/{kind}/{key}/{token}/act",
        "events_url": f"/api/games/{key}/events?token={token}",
        "file_url": f"/api/games/{key}/file?token={token}",
        "csrf": form_token(request, _move_purpose(key, token), nonce),
        "error": error,
        "lays_json": json.dumps(sorted(page.choices.lays)),
        "cities_json": json.dumps(sorted(page.choices.tokens)),
        "train_colors": TRAIN_COLORS,
        "bar_words": json.dumps(
            {
                k: UI[lang][f"bar_{k}"]
                for k in ("turn", "confirm", "cancel", "station", "zoom_in", "zoom_out", "zoom_fit")
            }
        ),
    }
    return render(request, "game.html", context, status, nonce=nonce)


def _standing_of(store: GameStore, key: str, player: PlayerId) -> list[JSONObject]:
    """The player's active standing orders (``web.standing``'s annex record)."""
    record = store.annex_get(key, STANDING_ANNEX) or []
    return [
        order
        for order in (record if isinstance(record, list) else [])
        if isinstance(order, dict) and order.get("active") and order.get("player") == player
    ]


def standing_action(form: FormData, player: JSONValue) -> JSONObject:
    """The programmed action (18xx.games' ``program_*``) a standing-order form asks for:
    ``share_pass`` (pass for the rest of this stock round), ``buy_shares`` (``corporation``
    each turn until ``until``: ``float`` or a number of shares; ``pool`` from the market) or
    ``disable`` (``original``: the order's kind)."""
    kind = str(form.get("kind", ""))
    base: JSONObject = {"entity": player, "entity_type": "player"}
    if kind == "share_pass":
        return {"type": "program_share_pass", **base}
    if kind == "buy_shares":
        corporation = str(form.get("corporation", "")).strip()
        until_text = str(form.get("until", "float")).strip()
        if not corporation:
            raise BadRequest("choose a corporation")
        until: str | int = "float"
        if until_text != "float":
            if not until_text.isdigit() or not 0 < int(until_text) <= 10:
                raise BadRequest("until: 'float' or a number of shares from 1 to 10")
            until = int(until_text)
        return {
            "type": "program_buy_shares", **base, "corporation": corporation,
            "until_condition": until, "from_market": form.get("pool") == "1",
        }  # fmt: skip
    if kind == "disable":
        original = str(form.get("original", ""))
        if original not in STANDING_KINDS:
            raise BadRequest("no such standing order")
        return {"type": "program_disable", **base, "original_type": STANDING_KINDS[original],
                "reason": "cancelled by the player"}  # fmt: skip
    raise BadRequest("no such standing order")


async def standing(request: Request) -> Response:
    """Give or cancel a standing order (the game master's, ``web.standing``) from the page."""
    key = request.path_params["id"]
    token = request.path_params["token"]
    service = service_of(request)
    access = await service.access(key, token)
    form = await request.form()
    check_form(request, form, _move_purpose(key, token))
    try:
        action = standing_action(form, access.player)
        await service.act(key, token, action, int(str(form.get("base", "-1"))))
    except ValueError as error:
        raise BadRequest("the order could not be read") from error
    except WebError as error:
        return await show(request, error.message, error.status)
    except IllegalAction as error:
        return await show(request, f"{error.reason} ({error.rule})", 422)
    except GameMovedOn:
        return await show(request, UI[language(request)]["moved_on"], 409)
    return RedirectResponse(f"/play/{key}/{token}", status_code=303)


def _due(store: GameStore, key: str) -> float | None:
    """When the open decision's deadline passes (``web.deadlines``; None: no deadline)."""
    return due_at(store.load(key), store.annex_get(key, ANNEX))


async def settle(request: Request) -> Response:
    """The deadline passed: the open decision gets the game master's default order
    (``web.deadlines``; any player of the game may ask, as through the API)."""
    key = request.path_params["id"]
    token = request.path_params["token"]
    service = service_of(request)
    await service.access(key, token)
    form = await request.form()
    check_form(request, form, _move_purpose(key, token))
    try:
        await service.settle(key, token)
    except IllegalAction as error:
        return await show(request, f"{error.reason} ({error.rule})", 422)
    return RedirectResponse(f"/play/{key}/{token}", status_code=303)


def _move_purpose(key: str, token: str) -> str:
    """The form token scope of a seat's moves: the game and the seat (its token's digest)."""
    return f"act|{key}|{digest(token)}"


async def act(request: Request) -> Response:
    """A move from the game page: the action JSON of the chosen button (with the price the
    player named, if the choice has one), based on the count the page showed."""
    key = request.path_params["id"]
    token = request.path_params["token"]
    service = service_of(request)
    access = await service.access(key, token)
    form = await request.form()
    check_form(request, form, _move_purpose(key, token))
    try:
        action = json.loads(str(form.get("action", "")))
        base = int(str(form.get("base", "")))
    except ValueError as error:
        raise BadRequest("the move could not be read") from error
    if not isinstance(action, dict):
        raise BadRequest("the move could not be read")
    if form.get("sealed") == "1":  # the sealed-bid form: an amount per item, in item order
        amounts = [str(v).strip() for v in form.getlist("bid")]
        wrong = [a for a in amounts if a and not a.isdigit()]
        if wrong or not amounts:
            shown = wrong[0] if wrong else ""
            return await show(request, f"{UI[language(request)]['bid']}: {shown}?", 422)
        action["bids"] = [int(a) if a else 0 for a in amounts]
    price = str(form.get("price", "")).strip()
    if price:
        if not price.isdigit():
            return await show(request, f"{UI[language(request)]['price']}: {price}?", 422)
        action["price"] = int(price)
    try:
        await service.act(key, token, action, base)
    except OfferMade:
        return RedirectResponse(f"/{access.kind}/{key}/{token}#offers", status_code=303)
    except IllegalAction as error:
        return await show(request, f"{error.reason} ({error.rule})", 422)
    except GameMovedOn:
        return await show(request, UI[language(request)]["moved_on"], 409)
    except Forbidden as error:
        return await show(request, error.message, 403)
    return RedirectResponse(f"/{access.kind}/{key}/{token}", status_code=303)


async def answer_offer(request: Request) -> Response:
    """Accept, decline or withdraw a trade offer (``web.offers``) from the page."""
    key = request.path_params["id"]
    token = request.path_params["token"]
    service = service_of(request)
    access = await service.access(key, token)
    form = await request.form()
    check_form(request, form, _move_purpose(key, token))
    answer = str(form.get("answer", ""))
    if answer not in ("accept", "decline", "withdraw"):
        raise BadRequest("an offer is answered with accept, decline or withdraw")
    try:
        await service.answer_offer(key, token, str(form.get("offer", "")), answer == "accept")
    except IllegalAction as error:
        return await show(request, f"{error.reason} ({error.rule})", 422)
    except (OfferGone, Forbidden) as error:
        return await show(request, error.message, error.status)
    except GameMovedOn:
        return await show(request, UI[language(request)]["moved_on"], 409)
    return RedirectResponse(f"/{access.kind}/{key}/{token}", status_code=303)


MAX_MESSAGE = 500
"""The longest chat message (characters)."""


async def say(request: Request) -> Response:
    """A chat message from a player's page: stored as the game file's ``message`` action
    (18xx.games' chat), which changes nothing in the game; any player may write at any time."""
    key = request.path_params["id"]
    token = request.path_params["token"]
    service = service_of(request)
    access = await service.access(key, token)
    if not access.is_player:
        raise Forbidden("spectators do not write in the chat")
    form = await request.form()
    check_form(request, form, _move_purpose(key, token))
    text = " ".join(str(form.get("message", "")).split())
    if not text:
        return await show(request, UI[language(request)]["say_empty"], 422)
    if len(text) > MAX_MESSAGE:
        return await show(request, UI[language(request)]["say_long"], 422)
    action: JSONObject = {"type": "message", "entity": access.player, "message": text}
    for _ in range(3):  # a message belongs to no position: another move meanwhile is no reason
        try:
            await service.act(key, token, action, await service.count(key))
            break
        except GameMovedOn:
            continue
        except IllegalAction as error:
            return await show(request, f"{error.reason} ({error.rule})", 422)
    else:
        return await show(request, UI[language(request)]["moved_on"], 409)
    return RedirectResponse(f"/play/{key}/{token}#chat", status_code=303)


def chat_of(data: JSONObject, names: Mapping[str, str], last: int = 30) -> list[tuple[str, str]]:
    """The last ``last`` chat messages of a game file: (who, text), oldest first."""
    out: list[tuple[str, str]] = []
    for action in actions_of(data):
        if action.get("type") == "message" and isinstance(action.get("message"), str):
            who = names.get(str(action.get("entity")), str(action.get("entity")))
            out.append((who, str(action["message"])))
    return out[-last:]


def _plot_svg(stored: StoredGame, access: Access, lang: str, kind: str) -> str:
    from stellwerk.api import Game

    game = stored.game
    if not isinstance(game, Game):
        raise BadRequest("this game has no pages")
    return game.kept(f"web.plots.{lang}", lambda: _plots(game, lang))[PLOTS.index(kind)]


async def plot_picture(request: Request) -> Response:
    """``GET /play|table|watch/{game}/{token}/plot/{kind}.svg``: one chart of the game's
    course.  The page embeds the charts as images loaded only when its collapsed section is
    opened (``loading="lazy"``), so a move's page does not replay the game for them; the
    page names the position in the URL (``?at=COUNT``), so a chart is cached for it."""
    kind = request.path_params["kind"]
    if kind not in PLOTS:
        raise NotFound(f"no chart {kind!r} (one of {', '.join(PLOTS)})")
    lang = language(request)
    svg = await service_of(request).with_game(
        request.path_params["id"], request.path_params["token"], _plot_svg, lang, kind
    )
    return Response(
        svg, media_type="image/svg+xml", headers={"cache-control": "private, max-age=86400"}
    )


async def price_routes(request: Request) -> Response:
    """``POST /play|table/{game}/{token}/routes``: a run the player edits on the map, priced
    (``web.runs``), with a stop to add first placed in its route; JSON both ways, nothing
    changes.  Refusals are JSON too: 400 a body of another shape, 403 not this seat's run, 409
    the game moved on, 422 a rule (with the new ``stops`` when a stop was placed in a run
    refused as it stands)."""
    from starlette.responses import JSONResponse

    from stellwerk.web.app import refusal
    from stellwerk.web.runs import Unpriced, price_run, read_proposal

    key = request.path_params["id"]
    token = request.path_params["token"]
    try:
        access = await service_of(request).access(key, token)
        if request.url.path.split("/")[1] != access.kind:
            raise Forbidden("this link is not for this page")
        try:
            body = json.loads(await request.body())
        except ValueError as error:
            raise BadRequest("the routes are not JSON") from error
        proposal = read_proposal(body)
        answer = await service_of(request).with_game(key, token, price_run, key, proposal)
    except Unpriced as placed:
        refused: JSONObject = {
            "error": placed.refused.reason,
            "rule": placed.refused.rule,
            "stops": placed.stops,
        }
        return JSONResponse(refused, status_code=422, headers={"Cache-Control": "no-store"})
    except (WebError, IllegalAction, GameMovedOn) as error:
        found = refusal(error)
        assert found is not None
        status, refused = found
        return JSONResponse(refused, status_code=status, headers={"Cache-Control": "no-store"})
    return JSONResponse(answer, headers={"Cache-Control": "no-store"})


async def lay_on_hex(request: Request) -> Response:
    """``/play|table/{game}/{token}/lay/{hex}``: every legal tile in every legal rotation drawn on
    the hex, each a move's form (the map's tile lay without a script)."""
    key = request.path_params["id"]
    token = request.path_params["token"]
    hex_id = request.path_params["hex"]
    lang = language(request)
    access = await service_of(request).access(key, token)
    if request.url.path.split("/")[1] != access.kind:
        raise Forbidden("this link is not for this page")
    page = await service_of(request).with_game(key, token, lay_page, key, hex_id, lang)
    nonce, _ = nonce_of(request)
    context = {
        "page": page,
        "hex": hex_id,
        "words": LAY_WORDS.get(lang, LAY_WORDS["en"]),
        "base_url": f"/{access.kind}/{key}/{token}",
        "act_url": f"/{access.kind}/{key}/{token}/act",
        "csrf": form_token(request, _move_purpose(key, token), nonce),
    }
    return render(request, "lay.html", context, 200 if page.lays else 404, nonce=nonce)


TILE_RADIUS = 40.0


@functools.lru_cache(maxsize=8)
def _tile_board(title: str) -> Board:
    """A title's board as a new game has it: its tile definitions for the previews."""
    from stellwerk.api import Game
    from stellwerk.titles.registry import player_counts

    players: list[tuple[int | str, str]] = [
        (i, f"P{i}") for i in range(1, min(player_counts(title)) + 1)
    ]
    return Game.create(title, players, [], 1).board


@functools.lru_cache(maxsize=512)
def tile_svg(title: str, name: str, rotation: int) -> str | None:
    """A small picture of tile ``name`` of ``title`` in ``rotation`` (None: no such tile)."""
    from stellwerk.pictures.hexdraw import HexMarks, draw_hex
    from stellwerk.pictures.svg import new_svg, sub, to_string

    board = _tile_board(title)
    tile = board.tile_defs.get(name)
    if tile is None or not 0 <= rotation < 6:
        return None
    size = TILE_RADIUS * 2.2
    root = new_svg(size, size, f"{name} / {rotation}")
    g = sub(root, "g", transform=f"translate({size / 2} {size / 2})", class_="tile")
    marks = HexMarks(hex_id=name, show_coordinate=False)
    draw_hex(g, tile.rotated(rotation), board.spec.layout, TILE_RADIUS, marks, None, {})
    return to_string(root)


async def tile_picture(request: Request) -> Response:
    """``/tile/{title}/{name}/{rotation}.svg``: the preview of a tile lay's choice."""
    from stellwerk.titles.registry import TITLES

    title = request.path_params["title"]
    name = request.path_params["name"]
    rotation = request.path_params["rotation"]
    if title not in TITLES:
        raise NotFound("no such title")
    svg = await service_of(request).run(lambda store: tile_svg(title, name, rotation))
    if svg is None:
        raise NotFound("no such tile")
    return Response(
        svg, media_type="image/svg+xml", headers={"cache-control": "public, max-age=86400"}
    )


def routes(service: GameService, state: State) -> list[BaseRoute]:
    """The pages' routes (``web.app.create_app`` adds them after the API's)."""
    from stellwerk.web.history import routes as history_routes

    return [
        Route("/", home, methods=["GET"]),
        Route("/new", new_form, methods=["GET"]),
        Route("/new", new_game, methods=["POST"]),
        Route("/import", import_game, methods=["POST"]),
        Route("/games/{id}", seat_redirect, methods=["GET"]),
        Route("/tile/{title}/{name}/{rotation:int}.svg", tile_picture, methods=["GET"]),
        Route("/play/{id}/{token}", show, methods=["GET"]),
        Route("/play/{id}/{token}/act", act, methods=["POST"]),
        Route("/play/{id}/{token}/lay/{hex}", lay_on_hex, methods=["GET"]),
        Route("/play/{id}/{token}/routes", price_routes, methods=["POST"]),
        Route("/table/{id}/{token}/routes", price_routes, methods=["POST"]),
        Route("/table/{id}/{token}/lay/{hex}", lay_on_hex, methods=["GET"]),
        Route("/play/{id}/{token}/deadline", settle, methods=["POST"]),
        Route("/play/{id}/{token}/standing", standing, methods=["POST"]),
        Route("/play/{id}/{token}/say", say, methods=["POST"]),
        Route("/play/{id}/{token}/offer", answer_offer, methods=["POST"]),
        Route("/watch/{id}/{token}", show, methods=["GET"]),
        Route("/table/{id}/{token}", show, methods=["GET"]),
        *(
            Route(f"/{kind}/{{id}}/{{token}}/plot/{{kind}}.svg", plot_picture, methods=["GET"])
            for kind in ("play", "table", "watch")
        ),
        Route("/table/{id}/{token}/act", act, methods=["POST"]),
        *history_routes(),
        Mount("/static", app=StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
