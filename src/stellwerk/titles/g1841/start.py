"""The start of a corporation: its home token(s) and the tokens it buys (rules/1841.md 2.2.3),
after a player's par in a stock round or a corporation's par in an operating round.

A historical corporation's home tokens go on its printed homes at once (SFMA of the second
edition chooses its Firenze city).  A non-historical corporation chooses its home
(``place_token``; a major may place a second home token or ``pass``), then every corporation
buys its tokens (``choose`` N: majors 2-5, minors 1-2).  The price of a token is L.50 for a
historical corporation; for a non-historical one it depends on how far its home is from track
already connected (L.200 / 100 / 50 / 25 for distance 0 / 1 / 2 / more, the dearer of two
homes).  If the corporation cannot pay the minimum, it sells its own IPO shares to the pool at
half price first, without an action.

:func:`begin_start` queues a :class:`CorporationStart` procedure (:mod:`.decisions`); the
round's ``Decisions`` step asks its questions.  The operating round's corporate par calls the
same function.  The start runs on the core mechanism (:mod:`stellwerk.core.procedure`): the
machine :class:`Starting`, the frozen stages :class:`ChoosingHome`, :class:`SecondHome` and
:class:`TokenPurchase` (``None`` once done).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.asking import Facts
from stellwerk.core.entities import Corporation, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.events import SharesSold, ref
from stellwerk.core.map.board import RULE_TOKEN
from stellwerk.core.map.geometry import opposite
from stellwerk.core.procedure import Machine
from stellwerk.core.shares import Bundle
from stellwerk.titles.g1841 import journal
from stellwerk.titles.g1841.decisions import CityMeanings, OnMachine, Question, queue
from stellwerk.titles.g1841.emergency import half_total
from stellwerk.titles.g1841.ownership import historical, major, phase_number
from stellwerk.titles.g1841.rules.borders import borders_in_force

if TYPE_CHECKING:
    from stellwerk.titles.g1841.decisions import ProcedureGame

RULE = "rules/1841.md 2.2.3"

HISTORICAL_TOKEN_PRICE = 50
"""What a historical corporation pays per token at its start (rules/1841.md 2.2.3)."""

TOKENS_BOUGHT = {"major": (2, 5), "minor": (1, 2)}
"""How many tokens a starting corporation buys, least and most (rules/1841.md 2.2.3)."""

PRICE_BY_DISTANCE = {0: 200, 1: 100, 2: 50}
"""A non-historical corporation's token price by the distance of its home from connected
track; farther (or none within 2 hexes): :data:`FAR_PRICE` (rules/1841.md 2.2.3)."""

FAR_PRICE = 25

SEARCH_RADIUS = 2

LUGANO = "C7"
"""Lugano (Switzerland): never a home (rules/1841.md 1.2 "Zones", 2.2.3)."""

ZONE_ORDER = ("piedmont", "tuscany", "conservative_zone", "lombardia", "veneto")
"""The five zones of home cities (rules/1841.md 1.2 "Zones"); Lombardy and Veneto are
Austrian before phase 4."""


# -- where a home may go ---------------------------------------------------------------------


def _zones(game: ProcedureGame) -> list[tuple[str, ...]]:
    return [tuple(game.data.zones[name]) for name in ZONE_ORDER]


def _excluded(game: ProcedureGame) -> set[str]:
    """Lugano always; before phase 4 also the historical cities and Austria (Lombardy and
    Veneto) (rules/1841.md 2.2.3)."""
    out = {LUGANO}
    if phase_number(game) < 4:
        out |= set(game.data.zones["historical_cities"])
        out |= set(game.data.zones["lombardia"]) | set(game.data.zones["veneto"])
    return out


def _on_map(game: ProcedureGame, hexes: list[str]) -> list[str]:
    return [h for h in hexes if h in game.map.board.hexes]


def home_hexes(game: ProcedureGame, corp: Corporation) -> list[str]:
    """The hexes where ``corp`` may place its (next) chosen home token (rules/1841.md 2.2.3):

    * SFMA (second edition): its printed home hex;
    * a non-historical major: any city of the five zones except the exclusions; its second
      token before phase 4 in the zone of the first, in phase 4 anywhere but Veneto if the
      first is outside Veneto (else only Veneto), from phase 5 anywhere, never the first hex;
    * a non-historical minor: not a major city, not excluded, no token on the hex."""
    spec = game.specs[corp.sym]
    if historical(game, corp):
        return [hid for hid, city in spec.homes if city < 0]
    zones = _zones(game)
    everywhere = [h for zone in zones for h in zone]
    excluded = _excluded(game)
    board = game.map.board
    if major(game, corp):
        placed = board.token_hexes(corp.sym)
        if placed:
            first = placed[0]
            index = next(i for i, z in enumerate(zones) if first in z)
            phase = phase_number(game)
            veneto = zones[ZONE_ORDER.index("veneto")]
            if phase < 4:
                pool = list(zones[index])
            elif phase == 4:
                outside = [h for h in everywhere if h not in veneto]
                pool = list(veneto) if first in veneto else outside
            else:
                pool = list(everywhere)
            pool = [h for h in pool if h != first]
        else:
            pool = everywhere
        return _on_map(game, [h for h in pool if h not in excluded])
    majors = set(game.data.zones["major_cities"])
    return [
        h
        for h in _on_map(game, [h for h in everywhere if h not in excluded and h not in majors])
        if not any(any(t is not None for t in city.tokens) for city in board.hexes[h].cities)
    ]


def home_cities(game: ProcedureGame, corp: Corporation, hexes: list[str]) -> list[str]:
    """City ids of ``hexes`` with a free slot for ``corp`` (no second token on a tile)."""
    board = game.map.board
    out: list[str] = []
    for hid in hexes:
        for index in range(len(board.hexes[hid].cities)):
            if board.can_place_token(hid, index, corp.sym):
                out.append(board.city_id(hid, index))
    return out


def has_home_city(game: ProcedureGame, corp: Corporation) -> bool:
    """Whether a non-historical ``corp`` has a city with a free slot for its first home token
    now (rules/1841.md 2.2.3); without one it cannot start.  The stock turn asks this of every
    corporation after every action: the answer depends on the board (tiles, tokens and
    reservations: its version), the phase and the corporation only, so the game keeps it for
    them (``Game1841.home_city_kept``, :mod:`.kept`), and the search stops at the first such
    city."""
    return game.home_city_kept.get(
        game.map.board, phase_number(game), corp.sym, lambda: home_city_exists(game, corp)
    )


def home_city_exists(game: ProcedureGame, corp: Corporation) -> bool:
    """:func:`has_home_city` computed afresh."""
    board = game.map.board
    return any(
        board.can_place_token(hid, index, corp.sym)
        for hid in home_hexes(game, corp)
        for index in range(len(board.hexes[hid].cities))
    )


# -- what a token costs ----------------------------------------------------------------------


def hex_distance(a: str, b: str) -> int:
    """Distance between two hexes of the 1841 map (letter = row, doubled coordinates)."""
    if a == b:
        return 0
    xa, ya = int(a[1:]), ord(a[0]) - ord("A")
    xb, yb = int(b[1:]), ord(b[0]) - ord("A")
    dx, dy = abs(xa - xb), abs(ya - yb)
    return dx + max(0, (dy - dx) // 2)


def _closed_edges(game: ProcedureGame, hid: str) -> set[int]:
    """Edges of a hex that the search may not cross: impassable and province borders in
    force (rules/1841.md 2.2.3)."""
    spec = game.map.board.hexes[hid].spec
    political = borders_in_force(game.phases.current.name, game.map.variant)
    return set(spec.borders) | {e for h, e in political if h == hid}


def connected_hex(game: ProcedureGame, hid: str) -> bool:
    """A hex counts as connected track if a tile was laid on it, or it is printed with track
    and a city, or printed with track that a laid tile next to it joins (rules/1841.md
    2.2.3)."""
    board = game.map.board
    state = board.hexes[hid]
    if not state.is_preprinted:
        return True
    if not state.tile.paths:
        return False
    if state.tile.city_nodes:
        return True
    closed = _closed_edges(game, hid)
    for edge in state.placed.exits:
        if edge in closed:
            continue
        other = state.spec.neighbors[edge]
        if other is None:
            continue
        nb = board.hexes[other]
        if not nb.is_preprinted and opposite(edge) in nb.placed.exits:
            return True
    return False


def hex_price(game: ProcedureGame, home: str) -> int:
    """The token price for a home at ``home`` (:func:`search_price`), kept on the game
    (``Game1841.hex_price_kept``, :mod:`.kept`) while the board (its version) and the phase
    (the borders in force) stay: a start's question is asked after every action until it is
    answered."""
    return game.hex_price_kept.get(
        game.map.board, game.phases.current.name, home, lambda: search_price(game, home)
    )


def search_price(game: ProcedureGame, home: str) -> int:
    """The token price for a home at ``home``: search the hexes within distance 2, not
    crossing impassable or province borders, for the nearest connected one (rules/1841.md
    2.2.3)."""
    board = game.map.board
    seen = {home}
    frontier = [home]
    best = SEARCH_RADIUS + 1
    while frontier:
        hid = frontier.pop()
        distance = hex_distance(hid, home)
        if connected_hex(game, hid):
            best = min(best, distance)
        if distance >= SEARCH_RADIUS:
            continue
        closed = _closed_edges(game, hid)
        for edge, other in enumerate(board.hexes[hid].spec.neighbors):
            if other is None or other in seen or edge in closed:
                continue
            if hex_distance(other, home) > SEARCH_RADIUS:
                continue
            seen.add(other)
            frontier.append(other)
    return PRICE_BY_DISTANCE.get(best, FAR_PRICE)


def token_price(game: ProcedureGame, corp: Corporation) -> int:
    """L.50 for a historical corporation; else the price of its home hex, the dearer of two
    (rules/1841.md 2.2.3)."""
    if historical(game, corp):
        return HISTORICAL_TOKEN_PRICE
    homes = game.map.board.token_hexes(corp.sym)
    return max((hex_price(game, h) for h in homes), default=FAR_PRICE)


def tokens_bought(sym: str, count: int, total: int, price: int | None) -> tuple[str, Facts]:
    """What buying ``count`` station tokens for ``total`` means (``price`` each, None when
    they cost differently), as a procedure's answer (:class:`.decisions.Question`)."""
    if count == 0:
        return "buy_no_tokens", (("corporation", sym),)
    facts: Facts = (("corporation", sym), ("count", count), ("total", total))
    if price is None:
        return "buy_tokens_total", facts
    return "buy_tokens", (*facts, ("price", price))


def token_choices(game: ProcedureGame, corp: Corporation) -> list[int]:
    """How many tokens ``corp`` may buy: the minimum always (paid with half-price IPO sales
    if need be), more only if its treasury pays for them (rules/1841.md 2.2.3)."""
    low, high = TOKENS_BOUGHT[game.specs[corp.sym].type]
    price = token_price(game, corp)
    return [n for n in range(low, high + 1) if n == low or n * price <= corp.cash]


def token_sale(game: ProcedureGame, corp: Corporation, total: int) -> Bundle | None:
    """The IPO shares ``corp`` must sell to pay ``total`` for its tokens (None: its treasury
    pays), checked before anything changes: just enough of its own IPO shares, sold to the
    pool at half price (``ceil(2 * short / price)`` shares as 18xx.games; the total rounded
    as :func:`.emergency.half_total`), must bring what is short (rules/1841.md 2.2.3; seed 000
    item 2.5); else ``IllegalAction``."""
    short = total - corp.cash
    if short <= 0:
        return None
    cell = corp.share_price
    assert cell is not None
    count = math.ceil(2 * short / cell.price)
    ipo = corp.treasury_shares()
    if count > len(ipo):
        raise IllegalAction(f"{corp.sym} cannot raise L.{short} for its tokens", RULE)
    bundle = Bundle.of(list(ipo[:count]), corp)
    if half_total(game, bundle) < short:
        raise IllegalAction(f"{corp.sym} cannot raise L.{short} for its tokens", RULE)
    return bundle


def raise_for_tokens(game: ProcedureGame, corp: Corporation, total: int) -> None:
    """The shortfall for the minimum is raised by selling :func:`token_sale`'s shares to the
    pool at half price, the price dropping a row per share (rules/1841.md 2.2.3; seed 000
    item 2.5).  Checks first: a refusal changes nothing."""
    bundle = token_sale(game, corp, total)
    if bundle is None:
        return
    amount = half_total(game, bundle)
    transfer(game.bank, corp, amount, RULE)
    game.journal.append(SharesSold(ref(corp), corp.sym, bundle.percent, amount))
    game.transfer_shares(bundle, game.pool)
    game.move_price(corp, "down", math.ceil(bundle.num_shares()))
    reorder = getattr(game.round, "recalculate_order", None)
    if callable(reorder):
        reorder()


def buy_tokens(game: ProcedureGame, corp: Corporation, count: int) -> None:
    """``corp`` buys ``count`` tokens at its price, selling IPO shares first if it must
    (rules/1841.md 2.2.3).  Everything is checked before anything changes: the count offered
    and the money (:func:`raise_for_tokens` refuses before its sale if the sale cannot bring
    it; after it the treasury pays)."""
    if count not in token_choices(game, corp):
        raise IllegalAction(f"{corp.sym} cannot buy {count} tokens", RULE)
    total = count * token_price(game, corp)
    raise_for_tokens(game, corp, total)
    transfer(corp, game.bank, total, RULE)
    corp.num_tokens = count
    game.token_count[corp.sym] = count
    game.journal.append(journal.TokensBought(corp.sym, count, total))


# -- the procedure ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ChoosingHome:
    """A non-historical corporation (or SFMA of the second edition) places its chosen home
    token on a city of ``hexes`` (rules/1841.md 2.2.3)."""

    hexes: tuple[str, ...]


@dataclass(frozen=True)
class SecondHome:
    """A non-historical major may place a second home token on a city of ``hexes``, or
    ``pass`` (rules/1841.md 2.2.3)."""

    hexes: tuple[str, ...]


@dataclass(frozen=True)
class TokenPurchase:
    """How many tokens the corporation buys (rules/1841.md 2.2.3): the counts and the price
    come from the game as it is when asked (:func:`token_choices`, :func:`token_price`).
    Not asked while a token purchase waits that 18xx.games never asks
    (:func:`.stock.stall_token_purchases`)."""


StartStage = ChoosingHome | SecondHome | TokenPurchase
"""Where a corporation's start stands; ``None`` once it is done."""


@dataclass(frozen=True)
class Starting(Machine["ProcedureGame", StartStage, moves.Move, Question]):
    """The rules of ``corp``'s start after its par: its chosen home token(s), then its
    token purchase (rules/1841.md 2.2.3)."""

    corp: str

    rule = RULE
    stages = (ChoosingHome, SecondHome, TokenPurchase)

    def question(self, game: ProcedureGame, stage: StartStage) -> Question | None:
        corp = game.corporation(self.corp)
        about: Facts = (("corporation", corp.sym),)
        if isinstance(stage, TokenPurchase):
            if game.stalled_token_purchase not in (None, self.corp):
                return None  # never asked (.stock.stall_token_purchases)
            counts = token_choices(game, corp)
            price = token_price(game, corp)
            return Question(
                corp, ("choose",), "buy_tokens", RULE, choices=list(counts),
                facts=(*about, ("price", price)),
                meanings={n: tokens_bought(corp.sym, n, n * price, price) for n in counts},
            )  # fmt: skip
        cities = home_cities(game, corp, list(stage.hexes))
        if isinstance(stage, ChoosingHome):
            return Question(
                corp, ("place_token",), "home_token", RULE, cities=cities, facts=about,
                meanings=CityMeanings(game, "home_token", corp.sym, tuple(cities)),
            )  # fmt: skip
        second = (("pass", ("no_second_home", about)),)
        return Question(
            corp, ("place_token", "pass"), "home_token", RULE, cities=cities, facts=about,
            meanings=CityMeanings(game, "home_token", corp.sym, tuple(cities), second),
        )  # fmt: skip

    def is_asking(self, game: ProcedureGame, stage: StartStage | None) -> bool:
        """Whether :meth:`question` asks in ``stage`` (found without building it): the home
        token always, the token purchase unless it is stalled."""
        if stage is None:
            return False
        game.corporation(self.corp)  # (refused as the question refuses it)
        if isinstance(stage, TokenPurchase):
            return game.stalled_token_purchase in (None, self.corp)
        return True

    def verify(
        self, game: ProcedureGame, stage: StartStage, answer: moves.Move
    ) -> IllegalAction | None:
        """Refuse what this start cannot take, changing nothing: a token count not offered
        or one whose half-price sale cannot bring the money (:func:`token_sale`), a home
        token outside the hexes asked or in a city without room, a ``pass`` of the first
        home token (rules/1841.md 2.2.3)."""
        corp = game.corporation(self.corp)
        if isinstance(stage, TokenPurchase):
            if not isinstance(answer, moves.Choose):
                return IllegalAction(f"{answer.type} does not answer the token purchase", RULE)
            try:
                count = int(str(answer.choice))
            except ValueError:
                return IllegalAction(f"{answer.choice!r} is not a number of tokens", RULE)
            if count not in token_choices(game, corp):
                return IllegalAction(f"{corp.sym} cannot buy {count} tokens", RULE)
            try:
                token_sale(game, corp, count * token_price(game, corp))
            except IllegalAction as refused:
                return refused
            return None
        if answer.type == "pass":
            if isinstance(stage, SecondHome):
                return None
            return IllegalAction(f"{corp.sym} must place its home token", RULE)
        if answer.type != "place_token":
            return IllegalAction(f"{answer.type} does not place a home token", RULE)
        board = game.map.board
        try:
            hid, index = board.resolve_city(str(moves.city_of(answer)))
        except IllegalAction as refused:
            return refused
        if hid not in stage.hexes:
            return IllegalAction(f"{corp.sym} may not place its home token on {hid}", RULE)
        if not board.can_place_token(hid, index, corp.sym):
            return IllegalAction(f"{corp.sym} cannot place a token in {hid}", RULE_TOKEN)
        return None

    def advance(
        self, game: ProcedureGame, stage: StartStage, answer: moves.Move
    ) -> StartStage | None:
        """The tokens bought end the start; a ``pass`` of the second home goes to the token
        purchase; a placed home token goes to a non-historical major's second home (if a
        hex is left for it), else to the token purchase."""
        corp = game.corporation(self.corp)
        if isinstance(answer, moves.Choose):
            buy_tokens(game, corp, int(answer.choice))
            return None
        if answer.type == "pass":
            return TokenPurchase()
        hid, index = game.map.board.resolve_city(str(moves.city_of(answer)))
        game.map.board.place_token_at(hid, index, corp.sym)
        if isinstance(stage, ChoosingHome) and not historical(game, corp) and major(game, corp):
            hexes = home_hexes(game, corp)
            return SecondHome(tuple(hexes)) if hexes else TokenPurchase()
        return TokenPurchase()


@dataclass
class CorporationStart(OnMachine[StartStage]):
    """A started corporation places the home token(s) it chooses, then buys its tokens
    (rules/1841.md 2.2.3): its rules (:class:`Starting`) and where it stands
    (:data:`StartStage`, ``None`` once done)."""

    machine: Starting
    stage: StartStage | None

    rule = RULE

    @property
    def corp(self) -> str:
        """The corporation that starts."""
        return self.machine.corp


def printed_home_city(game: ProcedureGame, corp: Corporation, hex_id: str, printed: int) -> int:
    """The city of ``hex_id`` that takes ``corp``'s printed home token (rules/1841.md 1.2:
    the home is the printed city, e.g. SFTN's Torino H4 city 1).  The printed city index
    names a city of the pre-printed tile; an upgrade may have joined the cities (Torino's
    two cities become the one city of green tile 606), and the reservation moved with the
    lay.  So the token goes into the city reserved for it, else the printed city if it is
    still there and has room, else the first city with room (18xx.games: the reserved city,
    else the first).  With no room anywhere the printed (or first) city is returned and the
    placement refuses clearly.  A replay follows 18xx.games where no city is reserved (a closed
    historical corporation started again, which only a replay allows: its reservation went
    with the closing, and 18xx.games puts the token in the first city -- its random game 1841
    first edition, 6 players, seed 910: SFMA again in Firenze R14's city 0)."""
    board = game.map.board
    cities = board.hex(hex_id).cities
    reserved = [i for i, c in enumerate(cities) if c.reserved_slot(corp.sym) is not None]
    reopened = corp.closed and not game.policy.printed_starts  # a closed one started again
    still = [printed] if 0 <= printed < len(cities) and (reserved or not reopened) else []
    tried = [*reserved, *still, *range(len(cities))]
    found: int = next((i for i in tried if board.can_place_token(hex_id, i, corp.sym)), tried[0])
    return found


def place_printed_homes(game: ProcedureGame, corp: Corporation) -> list[str]:
    """A historical corporation's home tokens go on its printed homes (into the city
    :func:`printed_home_city` finds); returns the hexes whose city it chooses itself (SFMA
    of the second edition) (rules/1841.md 1.2, 2.2.3)."""
    choose: list[str] = []
    for hid, city in game.specs[corp.sym].homes:
        if city < 0:
            choose.append(hid)
        else:
            game.map.board.place_token_at(hid, printed_home_city(game, corp, hid, city), corp.sym)
    return choose


def begin_start(game: ProcedureGame, corp: Corporation) -> CorporationStart:
    """Start ``corp`` after its par: printed homes at once, else ask for the home(s), then the
    token purchase (rules/1841.md 2.2.3).  The procedure is queued on the game; the round's
    Decisions step asks its questions."""
    stage: StartStage
    if historical(game, corp):
        choose = place_printed_homes(game, corp)
        stage = ChoosingHome(tuple(choose)) if choose else TokenPurchase()
    else:
        stage = ChoosingHome(tuple(home_hexes(game, corp)))
    procedure = CorporationStart(Starting(corp.sym), stage)
    queue(game, procedure)
    return procedure
