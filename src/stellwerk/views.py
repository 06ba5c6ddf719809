"""Read-only views of a game for the front ends: frozen values, no engine objects.

``stellwerk.api.Game`` hands these out (``Game.view``, ``Game.round``); the CLI, the web
pages, the words and the pictures read a game only through them and the API's actions, so
what they show cannot change the game and does not depend on how a title's rules keep their
state.  Each value is a copy of the game as it was when it was read: read it anew after an
action.  Nothing here imports the engine.

Names follow the rulebooks: a corporation's *president* holds its president's certificate
(a player, or in 1841 another corporation); the *chain of control* goes from the president
upwards while presidents are corporations; the *controller* is the player at its end.
Money is in the title's unit, percentages are whole numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from stellwerk.core.jsondata import JSONObject

EntityKey = int | str
"""A player's id (as the game file gives it) or a corporation's or company's symbol."""

FactValue = int | str
"""A fact of a question or an answer: an amount of money, a count or a percentage (whole
numbers), or a name (a corporation's symbol, a hex)."""


@dataclass(frozen=True)
class EntityRef:
    """Who someone is, for showing and for naming him in an action.

    ``kind``: ``player``, ``corporation``, ``company``, ``pool`` (the open market), ``bank``
    or ``depot`` (the bank's trains); ``key``: the player's id or the corporation's or
    company's symbol (the holder's own name for the pool and bank, ``depot`` for the
    depot); ``name``: what players call him -- a player's or company's name, a
    corporation's symbol, the pool's name."""

    kind: str
    key: EntityKey
    name: str


@dataclass(frozen=True)
class RoundView:
    """The round a game is in, as front ends tell rounds apart.

    ``seq`` is the round's place in the game's sequence of rounds (1 for the first round,
    then one more for every round begun, whatever its kind): no two rounds of a game share
    it, so a standing order, a deadline or a default order given for one round can never
    apply in another.  ``number`` (the operating round of a set) and ``turn`` do not tell
    rounds apart: ``number`` is 1 in every stock round, and stock rounds may follow each
    other in one turn (an 1841 game in which no corporation operates).  The step of the
    round that acts now, who acts and the standing bids are :class:`StepView`
    (``Game.view.step()``)."""

    seq: int
    kind: str
    """``auction``, ``stock``, ``operating`` or a title's own kind (1835's ``start`` and
    ``formation``)."""
    name: str
    """The reference engine's round name (``Round::Stock``)."""
    turn: int
    number: int

    @property
    def key(self) -> str:
        """A short stable name of the round for stores and logs (``r12``)."""
        return f"r{self.seq}"


@dataclass(frozen=True)
class BidView:
    """A standing bid in an auction: ``bidder`` offers ``price`` for ``item`` (a private
    company, a concession or a start item)."""

    item: EntityRef
    bidder: EntityRef
    price: int


@dataclass(frozen=True)
class StepView:
    """The part of the round's turn sequence that is asked now (its first active step that
    blocks), who may act, and the auction's standing bids.

    ``description``: the step's name as the reference engine shows it (``Bid on Companies``,
    ``Lay/Upgrade Track``); None when no step blocks (as when the game is over).
    ``acting``: who may send an action now.  ``bids``: the standing bids of the round's
    auction steps, by item, in the order they were made (sealed bids are secret and never
    listed)."""

    description: str | None
    acting: tuple[EntityRef, ...]
    bids: tuple[BidView, ...]


@dataclass(frozen=True)
class SealedItemView:
    """One item of a sealed-bid auction (1841's first edition): the ``item`` (a concession
    or private) and its ``opening`` bid (a bid is 0 or at least this)."""

    item: EntityRef
    opening: int


@dataclass(frozen=True)
class SealedBidsView:
    """A sealed-bid auction collecting lists: its ``items`` in the order a ``blind_bid``'s
    ``bids`` names them (one whole number per item), and whose list is asked now."""

    items: tuple[SealedItemView, ...]
    bidder: EntityRef | None


@dataclass(frozen=True)
class HoldingView:
    """One holder's part of a corporation: ``percent`` of its shares, in ``certificates``
    certificates; ``president`` when the president's certificate is among them."""

    holder: EntityRef
    percent: int
    certificates: int
    president: bool


@dataclass(frozen=True)
class CorporationView:
    """A corporation (major or minor) as its charter shows it.

    ``president``: who holds the president's certificate (None: nobody, as before its
    start); ``chain``: the presidents from ``president`` upwards while they are corporations
    -- in 1841 a corporation may preside over another -- ending at a player, the pool, a
    corporation already in the chain (a circular chain) or where nobody presides;
    ``controller``: the player at the end of the chain (None for a frozen corporation, whose
    chain ends at the pool or loops, or one without president); ``circular``: the chain
    loops.  ``price`` / ``par``: the share price and par price (None before the start);
    ``cash``: the treasury; ``trains``: train names in the order bought; ``tokens``: the hexes
    of its placed station tokens; ``token_count``: how many station tokens it has in all;
    ``ipo_percent`` / ``pool_percent``: shares in its treasury (IPO) and in the open market;
    ``holders``: who holds its shares (the treasury and the pool included), in register order;
    ``companies``: the private companies it owns; ``started``: its president's
    certificate has been bought (it is parred); ``floated``: it has floated and operates."""

    sym: str
    name: str
    president: EntityRef | None
    chain: tuple[EntityRef, ...]
    controller: EntityRef | None
    circular: bool
    price: int | None
    par: int | None
    cash: int
    trains: tuple[str, ...]
    tokens: tuple[str, ...]
    token_count: int
    ipo_percent: int
    pool_percent: int
    holders: tuple[HoldingView, ...]
    companies: tuple[EntityRef, ...]
    started: bool
    floated: bool
    closed: bool
    home: str | None
    """The hex of its home station (None: chosen during play or none)."""
    home_city: int
    """The index of the home city on the home hex (0 on a hex with one city)."""

    def percent_of(self, kind: str, key: EntityKey) -> int:
        """What the holder ``kind``/``key`` has of this corporation (0: none)."""
        return sum(h.percent for h in self.holders if (h.holder.kind, h.holder.key) == (kind, key))


@dataclass(frozen=True)
class PlayerView:
    """A player at the table: ``cash``; ``shares``: percent per corporation symbol (only
    those he holds), in the order received; ``companies``: his private companies;
    ``certificates``: what counts toward his certificate limit, ``certificate_limit`` his
    limit now; ``worth``: cash, the market value of his shares and his companies' face values
    less penalties (common rules §4.1, the game's result at its end); ``bankrupt``."""

    id: EntityKey
    name: str
    cash: int
    shares: Mapping[str, int]
    companies: tuple[EntityRef, ...]
    certificates: int
    certificate_limit: int
    worth: int
    bankrupt: bool

    @property
    def ref(self) -> EntityRef:
        return EntityRef("player", self.id, self.name)


@dataclass(frozen=True)
class CertificateView:
    """One share certificate (its id as actions name it, ``SFA_3``): of ``corporation``,
    ``percent`` of it, the ``president``'s certificate or not, and its ``holder`` -- the
    corporation itself while it lies in the treasury (IPO), the pool, a player or another
    corporation (None: not yet issued)."""

    id: str
    corporation: str
    percent: int
    president: bool
    holder: EntityRef | None


@dataclass(frozen=True)
class TrainView:
    """One train (its id as actions name it, ``4-1``): its ``name`` (type) and ``owner`` --
    a corporation, or the depot (``kind`` ``depot``) while the bank sells it (None: removed
    from the game)."""

    id: str
    name: str
    owner: EntityRef | None


@dataclass(frozen=True)
class AbilityView:
    """What a private company does, as the title's data declares it: ``kind`` is the
    data's ability type (``tile_lay``, ``token``, ...) or ``blocks`` (it blocks ``hexes``
    while owned by a player) or ``extra_share`` (it comes with ``percent`` of ``company``);
    ``hexes`` where it acts, ``count`` how often (None: not limited or not said)."""

    kind: str
    hexes: tuple[str, ...] = ()
    count: int | None = None
    company: str | None = None
    percent: int | None = None


@dataclass(frozen=True)
class CompanyView:
    """A private company: ``owner`` (None: still with the bank), face ``value``, ``revenue``
    paid to its owner each operating round, ``closed``; ``abilities`` what the title's data
    says it does (empty where the data says nothing)."""

    sym: str
    name: str
    owner: EntityRef | None
    value: int
    revenue: int
    closed: bool
    abilities: tuple[AbilityView, ...] = ()


@dataclass(frozen=True)
class OutcomeView:
    """What one legal action would change for its acting entity, found by trying it on a
    copy of the game (``Reader.outcome``): ``spent`` the cash it would pay (negative: would
    receive), ``token_count`` how many station tokens a corporation would have after it
    (None: not a corporation).  Front ends word a bare choice with it (1841's ``choose``
    of how many station tokens to buy: "Buy 2 station tokens for L.100")."""

    spent: int
    token_count: int | None
    token_count_before: int | None


@dataclass(frozen=True)
class TrainNeedView:
    """The operating ``corporation`` must buy a train now and its treasury does not pay the
    cheapest one the bank sells (common rules §6, emergency train purchase): its ``cash``,
    that ``train`` (name) and its ``price``, and the ``payer`` who adds the rest and sells
    shares for it (the controlling player; None: nobody controls the corporation).  What
    raising the money may do is the title's rule; the moves are the legal actions."""

    corporation: str
    cash: int
    train: str
    price: int
    payer: EntityRef | None

    @property
    def shortfall(self) -> int:
        """What the treasury lacks."""
        return max(self.price - self.cash, 0)


@dataclass(frozen=True)
class BuyingLimitsView:
    """The general limits on ``holder`` buying a certificate of ``corporation`` now (common
    rules: the certificate limit, the holding limit, the cash): ``certificates`` he has
    toward his ``certificate_limit`` and whether one more fits (``within_limit``); the
    ``percent`` of the corporation he controls, whether 10 more stay within ``max_percent``
    (``holding_allowed``); his ``cash`` and the corporation's share ``price`` (None before
    its start)."""

    holder: EntityRef
    corporation: str
    certificates: int
    certificate_limit: int
    within_limit: bool
    percent: int
    holding_allowed: bool
    max_percent: int
    cash: int
    price: int | None


@dataclass(frozen=True)
class MarketCellView:
    """One space of the stock market: ``price``, its place (``row``, ``column``), its zone
    letters (``types``: the title's market legend says what they mean) and the corporations'
    markers on it in arrival order (the first operates first among equals)."""

    row: int
    column: int
    price: int
    types: frozenset[str]
    corporations: tuple[str, ...]


@dataclass(frozen=True)
class MarketView:
    """The stock market: rows of spaces, None where a row has no space."""

    rows: tuple[tuple[MarketCellView | None, ...], ...]


@dataclass(frozen=True)
class TableView:
    """The game at the table: ``title``, ``turn``, the ``phase`` name, the ``bank``'s cash,
    the ``depot`` (trains left per type, in the order they are sold), the ``priority`` deal's
    holder (None: no player left), and whether the game is ``finished`` and why
    (``game_end_reason``)."""

    title: str
    turn: int
    phase: str
    bank: int
    depot: Mapping[str, int]
    priority: EntityRef | None
    finished: bool
    game_end_reason: str | None


@dataclass(frozen=True)
class MapFacts:
    """What a picture of the map needs beside the board: the ``title``, the ``phase`` name
    and ``turn`` (None for a board rebuilt without a game), the political borders in force
    (hex, edge; 1841), the column of phase revenues that pays now (``active_column``: the
    one whose value an off-board earns; None when that cannot be told), the home stations of
    corporations not yet on the board and without a reservation (hex -> (symbol, city index)),
    the corporation symbols to give colours to, and the colours the title's data declares
    (symbol -> (fill, text))."""

    title: str
    phase: str | None
    turn: int | None
    political: frozenset[tuple[str, int]]
    active_column: str | None
    homes: Mapping[str, tuple[tuple[str, int], ...]]
    symbols: tuple[str, ...]
    declared_colors: Mapping[str, tuple[str, str]]


@dataclass(frozen=True)
class Choice:
    """One answer to a :class:`Question`: ``action`` the exact action to send (one of
    ``Game.legal_actions()``), ``kind`` what the answer does (``buy_tokens``, ``buy_share``,
    ``decline``, ``exchange_for``, ``form``, ...) and ``facts`` what it is about (the
    count, the total price, the corporation taken, ...).  ``Game.choice_text`` says it in
    words."""

    action: JSONObject
    kind: str
    facts: tuple[tuple[str, FactValue], ...] = ()

    def fact(self, name: str) -> FactValue | None:
        """The fact ``name`` (None: not given)."""
        return dict(self.facts).get(name)


@dataclass(frozen=True)
class Question:
    """A decision the rules ask now as a set of named answers (a procedure's question, such
    as how many station tokens a new corporation buys, whether a holder takes an offered
    share, whether the Prussian formation starts): ``who`` decides, ``topic`` what is asked
    (a key: ``buy_tokens``, ``share_offer``, ``formation``, ...), ``facts`` what it is
    about (the corporation concerned, the price per item, ...) and the ``choices``, in the
    order ``Game.legal_actions()`` lists them.  ``Game.question_text`` says it in words."""

    who: EntityRef
    topic: str
    facts: tuple[tuple[str, FactValue], ...]
    choices: tuple[Choice, ...]

    def fact(self, name: str) -> FactValue | None:
        """The fact ``name`` (None: not given)."""
        return dict(self.facts).get(name)

    def choice_for(self, action: Mapping[str, object]) -> Choice | None:
        """The choice whose action is ``action`` (ids and automatic follow-ups aside)."""
        wanted = _bare(action)
        return next((c for c in self.choices if _bare(c.action) == wanted), None)


def _bare(action: Mapping[str, object]) -> dict[str, object]:
    """An action without the fields the record adds (its ``id``, ``auto_actions``)."""
    return {k: v for k, v in action.items() if k not in ("id", "auto_actions", "created_at")}
