"""One processing of a game by the GM: orders in, actions applied, answers out.

The GM keeps, per player, a queue of *pending* orders (from mails, in the order written).  The
game is advanced as far as the orders reach (:meth:`Session.advance`):

* For each decision of the game (an entity that must act, and the player who decides for it,
  ``understand.player_of``), the player's first pending order that answers this decision is
  taken (``understand.fits``: addressed to this entity, and its action type is listed now), so
  a mail may hold orders for several decisions ahead -- stock round and operating round
  orders mixed -- each used when the game reaches its decision, in the order written.
* The order is understood (``understand.understand``) and processed by the engine in live
  mode.  A refused order (not understood, ambiguous, or refused by the engine, whose
  ``IllegalAction`` names the rule) changes nothing; its answer says why, and it is used up.
* A corporation's turn step the orders say nothing about is passed when the same
  corporation has an order for a later step pending (``ATA: token ...`` without a lay means
  "no tile"), since a GM reads such a mail so; the answer marks it.
* Without an order, the player's standing orders are asked (``stellwerk.gm.standing``).
* Otherwise the game waits for that player -- unless the deadline has passed
  (``defaults=True``): then the default order of the decision is applied, marked
  (``stellwerk.gm.defaults``), until the round in which the deadline processing began ends;
  the next round is left for the next deadline.  Defaults that bring back a position seen in
  this processing (everybody passing in an auction that the rules let go round) stop there,
  logged: the game waits for orders or the GM.

**Rounds.**  A round is named by its place in the game's sequence of rounds
(``api.Game.round``, :class:`stellwerk.api.RoundView`): every round is distinct, whatever its
kind and number.  A deadline's defaults never run on past the round they began in (they are
counted, and the reports say how many were given); a standing pass ends with the stock
round it was given in, at once when that round ends.

**Waiting orders end when their decision has passed.**  A player's orders for one decision
maker are used in the order written, so an order that is still waiting when the decision it
was written for is settled otherwise will never be meant again.  An order ends, answered
"ended: ..." in the sender's next report, when for the same decision maker

* a later-written order of the sender was used (an order for ``SYM:``: one for the same
  corporation or company; an order of his own turn in a share round -- bid, sealed bids,
  par, buy, sell, pass: a later one of these, in a share round; any other order -- an answer
  to a procedure's question, take cash, bankrupt, ...: a later one of the same kind), or
* a standing order or a default order settled such a decision for him (for ``SYM:`` in its
  turn; for his own turn in a share round);

and every waiting order ends when the game ends.  While it waits, every report lists it with
what it waits for.  An order the sender may not give is refused at once, when it arrives:
any order for a game that has ended, and an order for a corporation (or company) another
player decides for, unless an earlier line of the same mail buys or starts it.

**Trades need consent** (``stellwerk.gm.offers``).  An order buying another player's
corporation's train or private company is offered, not made; while an offer is open the
game waits for its answer (no order, standing order or default moves it), except that a
deadline declines it.  ``accept offer N``, ``decline offer N`` and ``withdraw offer N`` are
not queued with the orders: the processing that reads them applies each as soon as the
offer it names is open (also one an order of the same processing makes), and refuses at its
end one that names no open offer.

Everything that happens is recorded as :class:`Outcome` (one per order line or standing
firing or default) and :class:`Event` (the GM log: firings, cancellations, draws), which the
reports show.  A mail marked ``Änderung``/``correction`` first drops the player's pending
orders (:meth:`Session.receive`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from stellwerk.api import Game, IllegalAction
from stellwerk.consent import consent_of
from stellwerk.core.actions import action_id
from stellwerk.core.entities import EntityId, PlayerId
from stellwerk.core.jsondata import (
    JSONObject,
    ident,
    integer,
    is_int,
    optional_integer,
    optional_text,
    text,
)
from stellwerk.gm import orders as o
from stellwerk.gm.defaults import default_action
from stellwerk.gm.look import legal, snap
from stellwerk.gm.offers import Offer, answers, say
from stellwerk.gm.phrase import order_text, run_note
from stellwerk.gm.refusals import engine_reason, in_language
from stellwerk.gm.standing import (
    Firing,
    Standing,
    disable_action,
    fire,
    program_action,
    round_key,
    same_round,
)
from stellwerk.gm.understand import (
    Refused,
    addresses,
    fits,
    is_corp_order,
    player_of,
    symbol,
    understand,
)

Action = JSONObject
MAX_STEPS = 5000
"""A bound on actions per processing (a game has a few thousand at most)."""

FILE_REQUEST = frozenset({
    "game file", "send game file", "send the game file", "spieldatei", "schicke spieldatei",
    "sende spieldatei", "spieldatei bitte",
})  # fmt: skip
"""Lines (normalised) that ask for the game file with the next report; a report carries it
anyway at the end of each round and of the game."""

CLOSING_ANSWERS = {"withdraw": ("withdrawn", "zurückgezogen"), "decline": ("declined", "abgelehnt")}
"""The answers to a trade offer that end it unmade, with what the answer reads (English,
German); ``accept`` makes the purchase."""

SHARE_ROUNDS = frozenset({"auction", "start", "stock"})
"""The kinds of round in which players act for themselves in turn (``RoundView.kind``): the
auctions (a start round is one) and the stock rounds."""

STOCK_ORDERS = (o.Bid, o.SealedBids, o.Par, o.Buy, o.Sell, o.Pass)
"""Orders of a player's own turn in a share round (when written without ``SYM:``)."""


def is_stock_order(order: o.Order) -> bool:
    """Whether ``order`` is for a player's own turn in a share round."""
    return order.corp is None and isinstance(order, STOCK_ORDERS)


def same_decision(earlier: o.Order, used: o.Order) -> bool:
    """Whether an order ``used`` settles the decision maker that ``earlier`` waits for
    (module docstring; both orders of one player)."""
    if earlier.corp is not None or used.corp is not None:
        return earlier.corp == used.corp
    if is_stock_order(earlier) or is_stock_order(used):
        return is_stock_order(earlier) and is_stock_order(used)
    return type(earlier) is type(used)


@dataclass
class Pending:
    """An order waiting for its decision."""

    id: int
    player: PlayerId
    text: str
    order: o.Order
    mail: str = ""
    given_in: int | None = None
    """The ``RoundView.seq`` of the round it arrived in (None: stored before rounds were
    told apart)."""

    def to_json(self) -> JSONObject:
        """The stored form: the order as its text (read back by :meth:`from_json`)."""
        return {
            "id": self.id, "player": self.player, "text": self.text, "mail": self.mail,
            "given_in": self.given_in,
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: JSONObject) -> Pending | None:
        """A stored pending order (None when its text no longer reads as an order)."""
        line = text(data, "text")
        order = o.parse_order(line)
        if order is None:
            return None
        mail = optional_text(data, "mail") or ""
        return cls(
            integer(data, "id"), ident(data, "player"), line, order, mail,
            optional_integer(data, "given_in"),
        )  # fmt: skip

    def waits_for(self, lang: str) -> str:
        """What the order waits for, in ``lang``, for the player's report."""
        de = lang == "de"
        if self.order.corp is not None:
            corp = self.order.corp
            return f"wartet auf den Zug von {corp}" if de else f"waits for {corp}'s turn"
        if is_stock_order(self.order):
            return ("wartet auf deinen Zug in einer Aktien- oder Versteigerungsrunde" if de
                    else "waits for your turn in a stock round or auction")  # fmt: skip
        return ("wartet auf die Entscheidung, die er beantwortet" if de
                else "waits for the decision it answers")  # fmt: skip


@dataclass
class Outcome:
    """The answer to one order line, standing firing or default."""

    player: PlayerId
    text: str
    understood: str | None = None
    refused: str | None = None
    default: bool = False
    standing: bool = False
    action_id: int | None = None
    mail: str = ""

    @classmethod
    def from_json(cls, data: JSONObject) -> Outcome:
        """An answer as stored (``dataclasses.asdict`` written as JSON)."""
        return cls(
            player=ident(data, "player"),
            text=text(data, "text"),
            understood=optional_text(data, "understood"),
            refused=optional_text(data, "refused"),
            default=data.get("default") is True,
            standing=data.get("standing") is True,
            action_id=optional_integer(data, "action_id"),
            mail=optional_text(data, "mail") or "",
        )


@dataclass
class Event:
    """A line of the GM log (standing orders fired or cancelled, defaults, draws,
    corrections)."""

    action_count: int
    player: PlayerId | None
    """The player concerned (None: the game as a whole)."""
    kind: str
    text: str
    text_de: str = ""
    """The line in German ('' when it has none: ``text`` serves every language)."""

    @classmethod
    def from_json(cls, data: JSONObject) -> Event:
        """A GM log line as stored (``dataclasses.asdict`` written as JSON)."""
        player = data.get("player")
        return cls(
            action_count=integer(data, "action_count"),
            player=None if player is None else ident(data, "player"),
            kind=text(data, "kind"),
            text=text(data, "text"),
            text_de=optional_text(data, "text_de") or "",
        )

    def in_language(self, lang: str) -> str:
        """The line in ``lang`` (German where it has a German text)."""
        return self.text_de if lang == "de" and self.text_de else self.text


@dataclass
class Session:
    """The GM's working state of one game (the store keeps it between processings)."""

    game: Game
    langs: dict[PlayerId, str] = field(default_factory=dict)
    pending: list[Pending] = field(default_factory=list)
    standing: list[Standing] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    next_order_id: int = 1
    file_requests: set[PlayerId] = field(default_factory=set)
    """The players who asked for the game file with their next report (``FILE_REQUEST``)."""
    offers: list[Offer] = field(default_factory=list)
    """The open trade offers (``stellwerk.gm.offers``)."""
    next_offer: int = 1
    answering: list[tuple[PlayerId, str, o.OfferAnswer, str]] = field(default_factory=list)
    """Answers to offers received and not yet applied (the next :meth:`advance` applies or
    refuses each): an offer made by an order of the same processing can be answered in it."""

    def lang(self, player: PlayerId) -> str:
        return self.langs.get(player, "en")

    def name(self, player: PlayerId) -> str:
        return dict(self.game.players).get(player, str(player))

    # -- receiving ------------------------------------------------------------------------
    def receive(
        self, player: PlayerId, body: str, *, correction: bool = False, mail: str = ""
    ) -> list[Outcome]:
        """Take a mail's orders for ``player``: standing orders are given at once, the others
        queued; lines that are not orders are answered at once.  A correction first drops
        the player's pending orders.  Returns the answers given now."""
        answers: list[Outcome] = []
        if correction:
            dropped = [p for p in self.pending if p.player == player]
            self.pending = [p for p in self.pending if p.player != player]
            if dropped:
                self._event(
                    player,
                    "correction",
                    f"{len(dropped)} earlier orders replaced",
                    f"{len(dropped)} frühere Befehle ersetzt",
                )
        bought: set[str] = set()  # corporations an earlier line of this mail buys or starts
        for line in o.parse_text(body):
            if o.normalise(line.text).rstrip(".!") in FILE_REQUEST:
                self.file_requests.add(player)
                note = (
                    "die Spieldatei kommt mit der nächsten Auswertung"
                    if self.lang(player) == "de"
                    else "the game file comes with the next report"
                )
                answers.append(Outcome(player, line.text, understood=note, mail=mail))
                continue
            if line.order is None:
                reason = in_language(line.error or "", self.lang(player))
                answers.append(Outcome(player, line.text, refused=reason, mail=mail))
                continue
            if self.game.finished:
                reason = in_language("the game has ended", self.lang(player))
                answers.append(Outcome(player, line.text, refused=reason, mail=mail))
                continue
            if isinstance(line.order, o.STANDING):
                answers.append(self._give_standing(player, line.text, line.order, mail))
                continue
            if isinstance(line.order, o.OfferAnswer):  # answered by the next advance
                self.answering.append((player, line.text, line.order, mail))
                continue
            if isinstance(line.order, o.Par | o.Buy | o.Bid | o.BuyCompany):
                bought.add(line.order.target.upper())
            if isinstance(line.order, o.SealedBids):
                bought.update(target.upper() for target, _ in line.order.bids)
            forbidden = self._not_his(player, line.order, bought)
            if forbidden is not None:
                reason = in_language(forbidden, self.lang(player))
                answers.append(Outcome(player, line.text, refused=reason, mail=mail))
                continue
            self.pending.append(Pending(self.next_order_id, player, line.text, line.order, mail,
                                        given_in=self.game.round.seq))  # fmt: skip
            self.next_order_id += 1
        self.outcomes.extend(answers)
        return answers

    def _not_his(self, player: PlayerId, order: o.Order, bought: set[str]) -> str | None:
        """Why ``player`` may not give ``order``, or None: an order for a corporation or
        company another player decides for, in which the sender has no stake that could
        make it his before the order is reached -- he holds no certificate of it (nor does a
        corporation he decides for), and no earlier line of the mail buys, starts or bids
        on it.  (With a stake it waits: other players' sales may make him president.)"""
        if order.corp is None or order.corp in bought:
            return None
        sym = symbol(self.game, order.corp)
        decider = player_of(self.game, sym)
        if decider is None or decider == player:
            return None
        holders = self.game.holders_of(sym)
        if any(holder == player or player_of(self.game, holder) == player for holder in holders):
            return None
        return f"you do not preside {sym}"

    def _give_standing(self, player: PlayerId, text: str, order: o.Order, mail: str) -> Outcome:
        if isinstance(order, o.CancelStanding):
            ended = [s for s in self.standing if s.player == player and s.active]
            for standing in ended:
                self._cancel(standing, "cancelled by the player")
            note = (
                f"{len(ended)} Daueraufträge gelöscht"
                if self.lang(player) == "de"
                else f"{len(ended)} standing orders cancelled"
            )
            return Outcome(player, text, understood=note, standing=True, mail=mail)
        kind, target, amount, source = _standing_fields(order)
        if kind == "run_best" and target is None:
            return Outcome(
                player,
                text,
                mail=mail,
                refused=in_language(
                    "name the corporation: ATA: always run best and pay out", self.lang(player)
                ),
            )
        if target is not None and kind in ("buy_shares", "run_best"):
            if target not in self.game.symbols():
                return Outcome(
                    player,
                    text,
                    mail=mail,
                    refused=in_language(f"there is no corporation {target}", self.lang(player)),
                )
            if kind == "run_best" and player_of(self.game, target) != player:
                return Outcome(
                    player,
                    text,
                    mail=mail,
                    refused=in_language(f"you do not preside {target}", self.lang(player)),
                )
        standing = Standing(
            id=len(self.standing) + 1, player=player, kind=kind, target=target, amount=amount,
            source=source, since=self.game.next_id() - 1, round_key=round_key(self.game),
            text=text,
        )  # fmt: skip
        program = program_action(standing)
        if program is not None:
            try:
                self.game.process(program)
            except IllegalAction as error:
                return Outcome(player, text, refused=_reason(error, self.lang(player)), mail=mail)
            standing.program_id = action_id(self.game.raw_actions[-1])
            standing.since = standing.program_id
        self.standing.append(standing)
        self._event(
            player, "standing", f"standing order given: {text}", f"Dauerauftrag erteilt: {text}"
        )
        label = "Dauerauftrag" if self.lang(player) == "de" else "standing order"
        return Outcome(player, text, understood=f"{label}: {text}", standing=True,
                       action_id=standing.program_id, mail=mail)  # fmt: skip

    # -- advancing ------------------------------------------------------------------------
    def advance(self, *, defaults: bool = False) -> list[Outcome]:
        """Apply pending orders, standing orders and (``defaults``) default orders as far as
        they reach (module docstring): defaults only in the round the processing began in.
        Returns the answers of this processing."""
        start = len(self.outcomes)
        start_round = self.game.round.seq
        given = 0
        seen: set[str] = set()
        self.void_stale()
        self._answer_offers()
        if defaults:
            for offer in list(self.offers):
                self._close_offer(offer, "deadline")
        for _ in range(MAX_STEPS):
            self._end_waiting()
            self.void_stale()
            self._answer_offers()
            if self.game.finished or self.offers:  # an open offer waits for its answer
                break
            if defaults and self.game.round.seq != start_round:
                break
            if defaults:
                position = json.dumps(snap(self.game), sort_keys=True, default=str)
                if position in seen:  # defaults go round in a circle (all pass forever)
                    self._event(None, "default", "the defaults repeat a position: everybody "
                                "passes; the game waits for orders or the GM",
                                "die Vorgaben wiederholen eine Stellung: alle passen; das "
                                "Spiel wartet auf Befehle oder die Spielleitung")  # fmt: skip
                    break
                seen.add(position)
            before = len(self.outcomes)
            if not self._step(defaults):
                break
            given += sum(1 for x in self.outcomes[before:] if x.default)
        self._end_waiting()
        self._answer_offers(final=True)
        if defaults:
            self._event(None, "deadline",
                        f"deadline: {given} default orders given",
                        f"Abgabetermin: {given} Vorgaben gegeben")  # fmt: skip
        return self.outcomes[start:]

    def _end_waiting(self) -> None:
        """Once the game is over, end every waiting order and standing order; end standing
        passes whose stock round is over (module docstring)."""
        if self.game.finished:
            for pending in list(self.pending):
                self._end(pending, "ended: the game is over")
        for standing in self.standing:
            if not standing.active:
                continue
            if self.game.finished:
                self._cancel(standing, "the game is over", program=False)
            elif standing.kind == "share_pass" and not same_round(self.game, standing.round_key):
                self._cancel(standing, "the stock round it was given in has ended")

    def _end(self, pending: Pending, reason: str) -> None:
        """End the waiting order ``pending`` for ``reason`` (answered in the next report)."""
        self.pending.remove(pending)
        self.outcomes.append(
            Outcome(
                pending.player,
                pending.text,
                mail=pending.mail,
                refused=in_language(reason, self.lang(pending.player)),
            )
        )

    def _passed_over(self, used: Pending) -> None:
        """End the orders of ``used``'s sender written before it that wait for the decision
        maker it settled (``same_decision``, module docstring)."""
        for pending in list(self.pending):
            if pending.player != used.player or pending.id >= used.id:
                continue
            if same_decision(pending.order, used.order):
                self._end(pending, "ended: its decision has passed (a later order was used)")

    def _settled(self, player: PlayerId, entity: EntityId, in_share_round: bool) -> None:
        """A standing or default order settled ``entity``'s decision for ``player``: his
        orders waiting for that decision maker end (module docstring)."""
        for pending in list(self.pending):
            if pending.player != player:
                continue
            order = pending.order
            if order.corp is not None:
                if entity != player and str(entity).upper() == order.corp:
                    self._end(pending, "ended: its decision has passed (settled by a standing "
                              "or default order)")  # fmt: skip
            elif is_stock_order(order) and in_share_round and entity == player:
                self._end(pending, "ended: its decision has passed (settled by a standing or "
                          "default order)")  # fmt: skip

    def waiting_for(self) -> list[PlayerId]:
        """The players the game waits for now (who decide for an active entity; while a
        trade offer is open, its seller's player)."""
        out: list[PlayerId] = []
        if self.offers:
            for offer in self.offers:
                if offer.seller not in out:
                    out.append(offer.seller)
            return out
        for entity in self.game.active_entities():
            player = player_of(self.game, entity)
            if player is not None and player not in out:
                out.append(player)
        return out

    def _decisions(self) -> list[tuple[EntityId, PlayerId | None]]:
        """(entity, player) of every decision now: the active entities, and other entities
        with listed actions that a deciding player answers for (a president's sale in an
        operating turn)."""
        active = list(self.game.active_entities())
        out: list[tuple[EntityId, PlayerId | None]] = [(e, player_of(self.game, e)) for e in active]
        players = {p for _, p in out}
        for action in legal(self.game):
            entity = action.get("entity")
            if not (isinstance(entity, str) or is_int(entity)):
                continue
            if entity not in active and all(entity != e for e, _ in out):
                player = player_of(self.game, entity)
                if player in players:
                    out.append((entity, player))
        return out

    def _step(self, defaults: bool) -> bool:
        """Make one move (or use up one order); False when nothing can be done now."""
        decisions = self._decisions()
        deciding = {player for _, player in decisions if player is not None}
        for pending in self.pending:  # the orders in the order written
            if pending.player not in deciding:
                continue
            for entity, player in decisions:
                if player == pending.player and fits(self.game, player, pending.order, entity):
                    self._apply_order(pending, entity)
                    return True
        for entity, player in decisions:
            if player is None:
                continue
            if self._skip_step(entity, player):
                return True
            if self._standing(entity, player):
                return True
        if defaults:
            for entity in self.game.active_entities():
                player = player_of(self.game, entity)
                if player is not None and self._default(entity, player):
                    return True
        return False

    def _apply_order(self, pending: Pending, entity: EntityId) -> None:
        self.pending.remove(pending)
        game = self.game
        share_round = game.round.kind in SHARE_ROUNDS
        if share_round or not is_stock_order(pending.order):
            self._passed_over(pending)
        outcome = Outcome(pending.player, pending.text, mail=pending.mail)
        seller: PlayerId | None = None
        try:
            understood = understand(game, pending.player, pending.order, entity)
            phrase = self._phrase(understood.action, pending.player, pending.order)
            seller = consent_of(game, understood.action, pending.player)
            if seller is not None:  # a trade: checked, then offered (stellwerk.gm.offers)
                game.verify(understood.action)
            else:
                game.process(understood.action)
        except Refused as error:
            outcome.refused = in_language(error.reason, self.lang(pending.player))
        except IllegalAction as error:
            outcome.refused = _reason(error, self.lang(pending.player))
        else:
            if seller is not None:
                offer = self._make_offer(pending, understood.action, seller)
                outcome.understood = say(
                    self.lang(pending.player),
                    f"{phrase}: offered to {self.name(seller)} as offer {offer.number}; "
                    "made when accepted",
                    f"{phrase}: {self.name(seller)} als Angebot {offer.number} angeboten; "
                    "ausgeführt, wenn angenommen",
                )  # fmt: skip
            else:
                outcome.understood = phrase
                outcome.action_id = action_id(game.raw_actions[-1])
        self.outcomes.append(outcome)

    # -- trade offers (stellwerk.gm.offers) -------------------------------------------------
    def _make_offer(self, pending: Pending, action: Action, seller: PlayerId) -> Offer:
        offer = Offer(self.next_offer, action, len(self.game.raw_actions), pending.player,
                      seller, pending.text, pending.mail)  # fmt: skip
        self.next_offer += 1
        self.offers.append(offer)
        buyer = self.name(offer.buyer)
        en, de = self.offer_text(offer, "en"), self.offer_text(offer, "de")
        self._event(seller, "offer", f"{buyer} offers: {en} (offer {offer.number})",
                    f"{buyer} bietet an: {de} (Angebot {offer.number})")  # fmt: skip
        return offer

    def offer_text(self, offer: Offer, lang: str) -> str:
        """The purchase ``offer`` makes, as an order in ``lang``."""
        return order_text(self.game, offer.action, lang)

    def offer_lines(self, player: PlayerId, lang: str) -> list[str]:
        """The open offers ``player`` answers or made, for his report: the seller's with
        the orders that answer them, the buyer's with the one that withdraws it."""
        out = []
        for offer in self.offers:
            accept, decline, withdraw = answers(offer.number, lang)
            what = self.offer_text(offer, lang)
            if offer.seller == player:
                out.append(say(
                    lang,
                    f"offer {offer.number}: {self.name(offer.buyer)} offers {what}; answer "
                    f"with the order '{accept}' or '{decline}'",
                    f"Angebot {offer.number}: {self.name(offer.buyer)} bietet an: {what}; "
                    f"antworte mit dem Befehl '{accept}' oder '{decline}'",
                ))  # fmt: skip
            elif offer.buyer == player:
                out.append(say(
                    lang,
                    f"offer {offer.number} to {self.name(offer.seller)}: {what}; it waits for "
                    f"the answer (withdraw it with '{withdraw}')",
                    f"Angebot {offer.number} an {self.name(offer.seller)}: {what}; es wartet "
                    f"auf die Antwort (zurückziehen mit '{withdraw}')",
                ))  # fmt: skip
        return out

    def void_stale(self) -> None:
        """Void the open offers made at another position: any other move of the game
        voids an offer (its price was agreed for that moment); its buyer is told."""
        for offer in list(self.offers):
            if offer.base != len(self.game.raw_actions):
                self._close_offer(offer, "void")

    def _close_offer(self, offer: Offer, why: str) -> None:
        """End ``offer`` unmade: ``void`` (the game moved on), ``deadline`` (declined at
        the deadline), ``declined`` or ``withdrawn``; the buyer's order is answered and
        the other side is logged."""
        self.offers.remove(offer)
        seller, buyer = self.name(offer.seller), self.name(offer.buyer)
        en = {
            "void": f"offer {offer.number} void: the game moved on before {seller} answered",
            "deadline": f"offer {offer.number} declined: {seller} did not answer by the "
                        "deadline",
            "declined": f"offer {offer.number} declined by {seller}",
            "withdrawn": f"offer {offer.number} withdrawn",
        }[why]  # fmt: skip
        de = {
            "void": f"Angebot {offer.number} hinfällig: das Spiel ging weiter, bevor {seller} "
                    "antwortete",
            "deadline": f"Angebot {offer.number} abgelehnt: {seller} hat bis zum "
                        "Abgabetermin nicht geantwortet",
            "declined": f"Angebot {offer.number} von {seller} abgelehnt",
            "withdrawn": f"Angebot {offer.number} zurückgezogen",
        }[why]  # fmt: skip
        self.outcomes.append(
            Outcome(
                offer.buyer,
                offer.order,
                mail=offer.mail,
                refused=say(self.lang(offer.buyer), en, de),
            )
        )
        if why != "declined":
            self._event(offer.seller, "offer", f"{en} (offered by {buyer})",
                        f"{de} (angeboten von {buyer})")  # fmt: skip

    def _answer_offers(self, final: bool = False) -> None:
        """Apply the answers received (in the order received) whose offers are open now;
        those naming none wait for an offer this processing may still make, unless
        ``final``: then they are refused."""
        waiting = []
        for answer in self.answering:
            outcome = self._answer_offer(*answer, final)
            if outcome is None:
                waiting.append(answer)
            else:
                self.outcomes.append(outcome)
        self.answering = waiting

    def _answer_offer(
        self, player: PlayerId, text: str, order: o.OfferAnswer, mail: str, final: bool
    ) -> Outcome | None:
        """A mailed answer to an offer: accepted (made as the buyer's move), declined or
        withdrawn; an unknown offer, another player's, or one answered before is refused
        and changes nothing.  None: no offer it could answer is open yet (not ``final``)."""
        self.void_stale()
        lang = self.lang(player)
        seller_side = order.answer in ("accept", "decline")
        mine = [o_ for o_ in self.offers
                if (o_.seller if seller_side else o_.buyer) == player]  # fmt: skip
        named = order.number is None or any(o_.number == order.number for o_ in self.offers)
        if not (final or (mine if order.number is None else named)):
            return None
        if order.number is None:
            if len(mine) != 1:
                why = say(lang, "name the offer: " if mine else "", "nenne das Angebot: " if mine
                          else "")  # fmt: skip
                reason = say(lang, f"{why}{len(mine)} offers are open to you",
                             f"{why}{len(mine)} Angebote sind für dich offen")  # fmt: skip
                return Outcome(player, text, refused=reason, mail=mail)
            offer = mine[0]
        else:
            found = next((o_ for o_ in self.offers if o_.number == order.number), None)
            if found is None:
                return Outcome(player, text, mail=mail, refused=say(
                    lang,
                    f"there is no open offer {order.number} (answered, withdrawn, void or "
                    "never made)",
                    f"es gibt kein offenes Angebot {order.number} (beantwortet, "
                    "zurückgezogen, hinfällig oder nie gemacht)",
                ))  # fmt: skip
            if found not in mine:
                return Outcome(player, text, mail=mail, refused=say(
                    lang,
                    f"offer {found.number} is not yours to answer: {self.name(found.seller)} "
                    f"answers it, {self.name(found.buyer)} may withdraw it",
                    f"Angebot {found.number} ist nicht an dich: {self.name(found.seller)} "
                    f"beantwortet es, {self.name(found.buyer)} kann es zurückziehen",
                ))  # fmt: skip
            offer = found
        closed = CLOSING_ANSWERS.get(order.answer)
        if closed is None:
            return self._accept(offer, player, text, mail)
        english, german = closed
        self._close_offer(offer, english)
        understood = say(
            lang, f"offer {offer.number} {english}", f"Angebot {offer.number} {german}"
        )
        return Outcome(player, text, mail=mail, understood=understood)

    def _accept(self, offer: Offer, player: PlayerId, text: str, mail: str) -> Outcome:
        """The seller's player accepts: the purchase is made as the buyer's move, after the
        engine's check (refused now: the seller is told why, nothing changes)."""
        lang = self.lang(player)
        what = self.offer_text(offer, lang)
        try:
            self.game.verify(offer.action)
        except IllegalAction as error:
            return Outcome(player, text, mail=mail, refused=_reason(error, lang))
        bought = self.offer_text(offer, self.lang(offer.buyer))
        self.offers.remove(offer)
        self.game.process(offer.action)  # the buyer's move, as every order the GM applies
        made = action_id(self.game.raw_actions[-1])
        seller = self.name(offer.seller)
        self.outcomes.append(Outcome(
            offer.buyer, offer.order, mail=offer.mail, action_id=made,
            understood=say(self.lang(offer.buyer),
                           f"{bought}: offer {offer.number} accepted by {seller}",
                           f"{bought}: Angebot {offer.number} von {seller} angenommen"),
        ))  # fmt: skip
        return Outcome(player, text, mail=mail, action_id=made, understood=say(
            lang, f"offer {offer.number} accepted: {what}",
            f"Angebot {offer.number} angenommen: {what}"))  # fmt: skip

    def _phrase(self, action: Action, player: PlayerId, order: o.Order | None = None) -> str:
        lang = self.lang(player)
        best = isinstance(order, o.Run) and order.best
        text = order_text(self.game, action, lang, best=False)
        if action.get("type") == "run_routes":
            text = (
                f"{text} ({run_note(action, lang)})"
                if not best
                else (f"{order_text(self.game, action, lang, best=True)}: {run_note(action, lang)}")
            )
        return text

    def _skip_step(self, entity: EntityId, player: PlayerId) -> bool:
        """Pass a corporation's step when its orders are for a later step (module docs)."""
        if entity == player:
            return False
        later = [
            p for p in self.pending
            if p.player == player and is_corp_order(p.order)
            and addresses(self.game, player, p.order, entity)
        ]  # fmt: skip
        if not later:
            return False
        passes = [
            a for a in legal(self.game)
            if a.get("entity") == entity and a.get("type") == "pass"
        ]  # fmt: skip
        if not passes:
            return False
        text = order_text(self.game, passes[0], self.lang(player))
        try:
            self.game.process(passes[0])
        except IllegalAction:
            return False
        note = (
            "kein Auftrag für diesen Schritt"
            if self.lang(player) == "de"
            else ("no order for this step")
        )
        self.outcomes.append(
            Outcome(
                player, f"({note})", understood=text, action_id=action_id(self.game.raw_actions[-1])
            )
        )
        return True

    def _standing(self, entity: EntityId, player: PlayerId) -> bool:
        listed = legal(self.game)
        for standing in self.standing:
            if not standing.active or standing.player != player:
                continue
            firing = fire(self.game, standing, entity, listed)
            if firing is None:
                continue
            if firing.cancel is not None:
                self._cancel(standing, firing.cancel)
                return True
            if self._fire(firing, player):
                return True
        return False

    def _fire(self, firing: Firing, player: PlayerId) -> bool:
        assert firing.action is not None
        text = self._phrase(firing.action, player)
        entity = firing.action.get("entity")
        share_round = self.game.round.kind in SHARE_ROUNDS
        try:
            self.game.process(firing.action)
        except IllegalAction as error:
            self._cancel(firing.standing, _reason(error, "en"), german=_reason(error, "de"))
            return True
        if isinstance(entity, str | int):
            self._settled(player, entity, share_round)
        fired_id = action_id(self.game.raw_actions[-1])
        self._event(
            player,
            "fired",
            f"standing order '{firing.standing.text}' fired: {text}",
            f"Dauerauftrag '{firing.standing.text}' ausgeführt: {text}",
        )
        self.outcomes.append(Outcome(player, firing.standing.text, understood=text,
                                     standing=True, action_id=fired_id))  # fmt: skip
        return True

    def _cancel(
        self, standing: Standing, reason: str, *, program: bool = True, german: str = ""
    ) -> None:
        """End ``standing`` for ``reason``: logged (in German ``german``, else the GM's
        own reason's German form), and a programmed one disabled in the game file
        (``program``; not once the game is over)."""
        standing.active = False
        disable = disable_action(standing, reason) if program else None
        if disable is not None:
            self.game.process(disable)
        de = german or in_language(reason, "de")
        self._event(standing.player, "cancelled",
                    f"standing order '{standing.text}' cancelled: {reason}",
                    f"Dauerauftrag '{standing.text}' beendet: {de}")  # fmt: skip

    def _default(self, entity: EntityId, player: PlayerId) -> bool:
        found = default_action(self.game, entity)
        if found is None:
            return False
        text = self._phrase(found.action, player)
        share_round = self.game.round.kind in SHARE_ROUNDS
        try:
            self.game.process(found.action)
        except IllegalAction as error:  # a default the engine refuses: an engine defect
            self._event(
                player,
                "default",
                f"default refused: {_reason(error, 'en')}",
                f"Vorgabe abgelehnt: {_reason(error, 'de')}",
            )
            return False
        self._settled(player, entity, share_round)
        lang = self.lang(player)
        label = "Vorgabe" if lang == "de" else "default"
        note = in_language(found.note, lang)
        self.outcomes.append(
            Outcome(
                player,
                f"({label}: {note})",
                understood=text,
                default=True,
                action_id=action_id(self.game.raw_actions[-1]),
            )
        )
        if found.note.startswith("drawn"):
            self._event(
                player,
                "draw",
                f"GM's draw for {entity}: {text}, {found.note}",
                f"Ziehung der Spielleitung für {entity}: {text}, {note}",
            )
        return True

    def _event(self, player: PlayerId | None, kind: str, text: str, text_de: str = "") -> None:
        self.events.append(Event(len(self.game.raw_actions), player, kind, text, text_de))


def _standing_fields(order: o.Order) -> tuple[str, str | None, int | None, str | None]:
    if isinstance(order, o.StandingPass):
        return "share_pass", None, None, None
    if isinstance(order, o.StandingBuy):
        return "buy_shares", order.target, order.percent, order.source
    if isinstance(order, o.StandingBid):
        return "auction_bid", order.target, order.maximum, None
    if isinstance(order, o.StandingCash):
        return "take_cash", None, None, None
    if isinstance(order, o.StandingRun):
        return "run_best", order.corp, None, None
    raise ValueError(f"not a standing order: {order}")


def _reason(error: IllegalAction, lang: str) -> str:
    """The engine's reason with its rule, in ``lang`` (``refusals.engine_reason``)."""
    return engine_reason(error.reason, error.rule, lang)
