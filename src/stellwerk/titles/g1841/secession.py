"""The Ferdinandea Secession (rules/1841.md 2.4.1): at the first 4-train IRSFF splits into
SB ("a"; first edition: the minor SFV) and SFL ("b").

:func:`start` runs the automatic part at once -- skip conditions, prices, tokens, trains,
cash, treasury shares, the president's certificates and the pairs -- and queues a
:class:`Secession` that asks the rest: which president's
certificate a president below 40 % takes (``pick_exchange_pres``), which share each single
IRSFF share becomes (``pick_exchange_corp``), the share offers (``share_offer``) and further
offer rounds (``offer_again``), the second edition's extra tokens at L.50 (``buy_tokens``).
At its end SB and SFL take IRSFF's place in this operating round unless IRSFF has operated
or is operating (seed 000 item 2.24), IRSFF closes, and a Tuscan merge that waited starts.

Holders are asked from the decider (IRSFF's controlling player, or the controlling player of
the corporation operating when IRSFF is frozen): players in seat order, each followed by the
corporations he controls (definition order, or by share value with
``settings.holder_corporation_order``; seed 000 items 1.16, 2.12), then the pool, then frozen
corporations (seed 000 item 2.25).

The questions run on the core mechanism (:mod:`stellwerk.core.procedure`): their rules are a
:class:`Seceding` machine, where they stand a frozen stage (:class:`PickingPresident`,
:class:`ExchangingSingles`, :class:`Offering`, :class:`OfferingAgain`, :class:`BuyingTokens`,
:class:`Stalled`; ``None`` once done), and :class:`Secession` is the procedure the decisions
queue runs (:class:`~.decisions.OnMachine`).  Holders are named by keys (``"player:<id>"``,
``"corp:<sym>"``, ``"pool"``), corporations by symbol.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.asking import Facts
from stellwerk.core.entities import (
    Corporation,
    Holder,
    Player,
    Share,
    SharePool,
    controller,
    move_share,
    transfer,
)
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.core.map.graph import compute_network, token_nodes
from stellwerk.core.procedure import Machine
from stellwerk.core.shares import Bundle, ChangePresident, transfer_bundle
from stellwerk.titles.g1841 import frozen, journal, token_order
from stellwerk.titles.g1841.data_load import pass_tiles
from stellwerk.titles.g1841.decisions import OnMachine, Question, queue, share_offer_facts
from stellwerk.titles.g1841.ownership import holders_in_order
from stellwerk.titles.g1841.start import tokens_bought

if TYPE_CHECKING:
    from stellwerk.titles.g1841.decisions import ProcedureGame

RULE = "rules/1841.md 2.4.1"

OLD = "IRSFF"
MILANO = "F8"
VENEZIA = "F16"
OPTIONAL_TOKEN_PRICE = 50
"""What SB and SFL pay per extra token after the split (second edition; rules/1841.md 3)."""
MAX_TOKENS = 5
MIN_TOKENS = 2
MINOR_MAX_COLUMN = 10
"""First edition: the minors SFV and SFL take a price of this column at most (rules/1841.md
2.4.1, 1.2 "m")."""
KEEPS_BOTH_PRESIDENCIES = 40
"""IRSFF's president holding this much takes both president's certificates (2.4.1)."""


# -- holders by key (plain data) -----------------------------------------------------------
def key_of(holder: Holder) -> str:
    """A holder's key in the procedure's plain data."""
    if isinstance(holder, Player):
        return f"player:{holder.id}"
    if isinstance(holder, Corporation):
        return f"corp:{holder.sym}"
    if isinstance(holder, SharePool):
        return "pool"
    raise ValueError(f"{holder.name} holds no shares in the secession")


def holder_of(game: ProcedureGame, key: str) -> Holder:
    """The holder a key names."""
    kind, _, name = key.partition(":")
    if kind == "player":
        return game.player_by_id(name)
    if kind == "corp":
        return game.corporation(name)
    return game.pool


def controlled_by(game: ProcedureGame, player: Player) -> list[Corporation]:
    """The corporations ``player`` controls, in definition order or, with
    ``holder_corporation_order == "share_value"``, in operating order (seed 000 items 1.16,
    2.12)."""
    corps = [c for c in game.corporations if not c.closed and controller(c) is player]
    return holders_in_order(game, corps)


def seats_from(game: ProcedureGame, first: Player) -> list[Player]:
    """The players in seat order starting with ``first`` (bankrupt ones included, as
    18xx.games rotates its player list)."""
    players = game.players
    start = players.index(first) if first in players else 0
    return players[start:] + players[:start]


def exchange_holders(
    game: ProcedureGame, decider: Player, corp: Corporation, least: int
) -> list[str]:
    """Holders with at least ``least`` % of ``corp`` in exchange order: from the decider,
    each player followed by his corporations; the pool; frozen corporations, in definition
    order or, with ``holder_corporation_order == "share_value"``, in descending share value
    (rules/1841.md 2.4.1, 5.4; seed 000 items 1.16, 2.25).  Each holder exchanges once: a
    corporation its player controls again while its frozen state is held (not yet brought up
    to date, ``Game1841.frozen_held``) is not listed a second time among the frozen ones
    (18xx.games lists it twice and fails at the second exchange, the share gone; our selfplay
    game, 3 players, seed 3, SFTG at action 669)."""
    out: list[Holder] = []
    for player in seats_from(game, decider):
        if player.percent_of(corp.sym) >= least:
            out.append(player)
        mine = controlled_by(game, player)
        out.extend(c for c in mine if c is not corp and c.percent_of(corp.sym) >= least)
    if game.pool.percent_of(corp.sym) >= least:
        out.append(game.pool)
    out.extend(
        c
        for c in holders_in_order(game, [c for c in game.corporations if frozen.is_frozen(game, c)])
        if c is not corp and c.percent_of(corp.sym) >= least and c not in out
    )
    return [key_of(h) for h in out]


def offer_holders(game: ProcedureGame, first: Player, corp: Corporation) -> list[str]:
    """Who is offered a share of ``corp``: its holders from ``first`` in seat order, each
    player followed by the corporations he controls that hold it (rules/1841.md 2.4.1)."""
    out: list[Holder] = []
    for player in seats_from(game, first):
        if player.shares_of(corp.sym):
            out.append(player)
        mine = controlled_by(game, player)
        out.extend(c for c in mine if c is not corp and c.shares_of(corp.sym))
    return [key_of(h) for h in out]


def in_chain(holder: Holder, corp: Corporation) -> bool:
    """``corp`` is ``holder`` itself or above it in its chain of control."""
    entity: Holder | None = holder
    seen: set[int] = set()
    while isinstance(entity, Corporation) and id(entity) not in seen:
        if entity is corp:
            return True
        seen.add(id(entity))
        entity = entity.owner
    return False


def can_buy_offer(game: ProcedureGame, holder: Holder, corp: Corporation) -> bool:
    """An offered share can be bought: one is in the IPO, the holder has the market price,
    ``corp`` is not in its chain of control, the certificate limit and the 60 % limit hold
    (rules/1841.md 2.4.1, 2.3.12 "skipped automatically")."""
    cell = corp.share_price
    if not corp.treasury_shares() or cell is None or holder.cash < cell.price:
        return False
    if in_chain(holder, corp):
        return False
    return game.within_cert_limit(holder) and game.controlled_percent(holder, corp) + 10 <= (
        game.max_holding_percent
    )


def split_off(share: Share, corp: Corporation) -> None:
    """An IRSFF certificate goes back to IRSFF's treasury (no payment, no president change)."""
    move_share(share, corp)


# -- the automatic part ---------------------------------------------------------------------
def connected_milano_venezia(game: ProcedureGame, old: Corporation) -> bool:
    """Some corporation's railhead (a token in a city that is not a pass) reaches both
    IRSFF's Milano and Venezia cities on the full, border-ignoring track graph
    (rules/1841.md 2.4.1 skip condition)."""
    board = game.map.board
    targets: set[tuple[str, int]] = set()
    for hid in (MILANO, VENEZIA):
        state = board.hexes[hid]
        for index, city in enumerate(state.cities):
            if old.sym in city.tokens:
                targets.add((hid, state.tile.city_nodes[index]))
    if len(targets) < 2:
        return False
    passes = pass_tiles(game.map.variant)
    for corp in game.corporations:
        for hid, node in token_nodes(board, corp.sym):
            if board.hexes[hid].tile.name in passes:
                continue
            if targets <= compute_network(board, corp.sym, starts=[(hid, node)]).nodes:
                return True
    return False


def start(game: ProcedureGame) -> None:
    """The secession at the first 4-train (rules/1841.md 2.4.1): skipped (SB and SFL close)
    if IRSFF has not floated or Milano and Venezia are connected; otherwise the automatic
    part runs and the questions are queued."""
    from stellwerk.titles.g1841.events import close_corporation

    old = game.corporation(OLD)
    a_sym = "SB" if game.settings.edition == 2 else "SFV"
    a, b = game.corporation(a_sym), game.corporation("SFL")
    if not old.floated or connected_milano_venezia(game, old):
        close_corporation(game, a)
        close_corporation(game, b)
        return
    decider = game.controller(old) or operator_controller(game)
    assert old.share_price is not None
    machine = Seceding(old.sym, a.sym, b.sym, key_of(decider), old.share_price.price)
    game.journal.append(journal.Seceded(old.sym, a.sym, b.sym))
    set_prices(game, old, a, b)
    split_tokens(game, old, a, b)
    split_trains(old, a, b)
    split_cash(old, a, b)
    split_treasury(game, old, a, b)
    queue(game, Secession(machine, machine.begin_exchange(game)))


def operator_controller(game: ProcedureGame) -> Player:
    """The controlling player of the corporation operating now (the decider when IRSFF is
    frozen; rules/1841.md 2.4.1); the first player outside an operating round."""
    rnd = game.round
    current = getattr(rnd, "current_operator", None)
    found = game.controller(current) if isinstance(current, Corporation) else None
    return found or next(p for p in game.players if not p.bankrupt)


def set_prices(game: ProcedureGame, old: Corporation, a: Corporation, b: Corporation) -> None:
    """SB and SFL take IRSFF's cell, SB in IRSFF's place in the stack, SFL right after it
    (seed 000 item 1.15).  First edition: if the cell lies right of column 10 (majors only)
    the minors go to column 10 of the same row, appended to its stack (rules/1841.md 2.4.1)."""
    cell = old.share_price
    assert cell is not None
    if game.settings.edition == 1 and cell.column > MINOR_MAX_COLUMN:
        target = game.market.cell((cell.row, MINOR_MAX_COLUMN))
        assert target is not None
        cell.corporations.remove(old.sym)
        target.corporations.extend([a.sym, b.sym])
        cell = target
    else:
        at = cell.corporations.index(old.sym)
        cell.corporations[at : at + 1] = [a.sym, b.sym]
    for corp in (a, b):
        corp.share_price = cell
        corp.par_price = cell
        corp.ipoed = True
        corp.floated = True
    old.share_price = None


def split_tokens(game: ProcedureGame, old: Corporation, a: Corporation, b: Corporation) -> None:
    """IRSFF's tokens in Veneto hexes become SB's, the others SFL's (first edition: at most 2
    each, in IRSFF's charter order; further ones stay IRSFF's, on the map also after it closes
    at the end of the secession, as in 18xx.games); its unplaced tokens go alternately
    to SB and SFL (first edition: up to 2 each); each ends with at least 2 (rules/1841.md 2.4.1)."""
    board = game.map.board
    veneto = set(game.data.zones["secession_veneto"])
    capped = game.settings.edition == 1
    count = {a.sym: 0, b.sym: 0}
    placed = 0
    # in IRSFF's charter order: the first edition's cap keeps the first tokens (as 18xx.games)
    for hid in token_order.ordered_hexes(game, old.sym):
        for city in board.hexes[hid].cities:
            for slot, holder in enumerate(city.tokens):
                if holder != old.sym:
                    continue
                placed += 1
                new = a.sym if hid in veneto else b.sym
                if capped and count[new] >= MIN_TOKENS:
                    continue  # stays IRSFF's until IRSFF closes at the end (18xx.games)
                else:
                    city.tokens[slot] = new
                    count[new] += 1
    board.version += 1
    token_order.split(game, old, [a, b])
    for i in range(max(old.num_tokens - placed, 0)):
        new = a.sym if i % 2 == 0 else b.sym
        if not capped or count[new] < MIN_TOKENS:
            count[new] += 1
    a.num_tokens = max(count[a.sym], MIN_TOKENS)
    b.num_tokens = max(count[b.sym], MIN_TOKENS)


def split_trains(old: Corporation, a: Corporation, b: Corporation) -> None:
    """IRSFF's trains by name, largest first, alternately to SB and SFL (rules/1841.md
    2.4.1)."""
    trains = sorted(old.trains, key=lambda t: t.name)[::-1]
    for i, train in enumerate(trains):
        new = a if i % 2 == 0 else b
        train.owner = new
        new.trains.append(train)
    old.trains.clear()


def split_cash(old: Corporation, a: Corporation, b: Corporation) -> None:
    """SFL receives a tenth of IRSFF's cash (rounded down), SB the rest (rules/1841.md
    2.4.1)."""
    to_b = old.cash // 10
    transfer(old, a, old.cash - to_b, RULE)
    transfer(old, b, to_b, RULE)


def split_treasury(game: ProcedureGame, old: Corporation, a: Corporation, b: Corporation) -> None:
    """IRSFF's shares of other corporations by value, highest first, alternately to SB and
    SFL; the presidency is settled as after any transfer, and a new president swaps his
    shares with the receiver, as 18xx.games' corporate transfer does (rules/1841.md 2.4.1).
    Shares of equal value go in the reverse of the corporations' definition order (rules
    1.2): 18xx.games lists a holder's shares by corporation in that order, sorts them by
    value and reverses the list (selfplay 1841 seed 505, first edition, SFLi run variant:
    CFCC and CTDA at L.8, CTDA to SFL).

    Only a transfer of the president's certificate itself swaps with the receiver; when an
    ordinary share makes the receiver president, the presidency changes as after any
    transfer and the outgoing president (holding at least the certificate's percentage)
    gets the receiver's ordinary shares back: the holders outside IRSFF keep their
    percentages (18xx.games' corporate transfer swaps with the receiver only for a bundle
    holding the president's certificate; selfplay lite 5 players seed 607, action 1015:
    SFTC's 20 % of SFTG, ATFA's 20 % of RATF)."""
    order = {corp.sym: i for i, corp in enumerate(game.corporations)}
    held = sorted(
        (s for s in old.all_shares() if s.corporation != old.sym),
        key=lambda s: order.get(s.corporation, len(order)),
    )

    def value(share: Share) -> float:
        corp = game.corporation(share.corporation)
        price = corp.share_price.price if corp.share_price is not None else 0
        return price * share.percent / corp.share_unit

    for i, share in enumerate(sorted(held, key=value)[::-1]):
        corp = game.corporation(share.corporation)
        to = a if i % 2 == 0 else b
        swap = game.change_president_for(corp)
        transfer_bundle(
            Bundle.of([share], corp),
            to,
            game,
            game.pool,
            SwapWith(to, swap) if share.president else swap,
            game.handle_partial,
        )


@dataclass
class SwapWith:
    """A presidency change in a corporate transfer: the new president swaps his shares with
    the receiving corporation, as 18xx.games does (rules/1841.md 2.4.1)."""

    receiver: Holder
    swap: ChangePresident

    def __call__(self, pres: Share, _swap_to: Holder, president: Holder, prev: Holder) -> None:
        self.swap(pres, self.receiver, president, prev)


def give_new(game: ProcedureGame, corp: Corporation, to: Holder, president: bool = False) -> None:
    """The first certificate of ``corp``'s treasury (its president's certificate if asked) to
    ``to``, the presidency settled as for any transfer.  The first is whichever lies first,
    as 18xx.games takes it: once the ordinary certificates are gone a single share's
    exchange gets the president's certificate left there (rules/1841.md 2.4.1; selfplay seed
    6, first edition on the small map, action 529).  A president's certificate that lands in
    the pool while nobody holds as much makes the pool the president (18xx.games: the
    corporation "enters receivership"; selfplay lite 5 players seed 415, action 1120: the
    pool's single IRSFF share exchanged for SFL's president's certificate)."""
    treasury = corp.treasury_shares()
    share = next(s for s in treasury if s.president) if president else treasury[0]
    game.transfer_shares(Bundle.of([share], corp), to)
    if share.president and share.owner is game.pool and corp.owner is not game.pool:
        game.set_president(corp, game.pool)


@dataclass(frozen=True)
class PickingPresident:
    """IRSFF's president below 40 % picks the president's certificate he takes for his own
    (``a`` SB, ``b`` SFL; rules/1841.md 2.4.1)."""


@dataclass(frozen=True)
class ExchangingSingles:
    """The single IRSFF shares (rules/1841.md 2.4.1): ``holders`` (keys) still to exchange,
    the first of whom is asked which new share his becomes."""

    holders: tuple[str, ...]


@dataclass(frozen=True)
class Offering:
    """An offer round of ``corp``'s treasury shares (rules/1841.md 2.4.1): ``holders`` (keys)
    still to be offered, the first of whom is asked now (one who can buy).  ``first_round``:
    SB's first round, after which SFL's first follows; ``done_a``/``done_b``: no further
    round for SB/SFL."""

    corp: str
    holders: tuple[str, ...]
    first_round: bool
    done_a: bool
    done_b: bool


@dataclass(frozen=True)
class OfferingAgain:
    """``corp`` is asked whether another offer round follows (rules/1841.md 2.4.1);
    ``done_a``/``done_b`` as in :class:`Offering`."""

    corp: str
    done_a: bool
    done_b: bool


@dataclass(frozen=True)
class BuyingTokens:
    """``corp`` (SB, then SFL) may buy extra tokens at L.50 each (second edition;
    rules/1841.md 2.4.1)."""

    corp: str


@dataclass(frozen=True)
class Stalled:
    """The token purchase queued behind one 18xx.games never asks
    (:func:`.stock.stall_token_purchases`): never asked, the secession never completes."""


SecessionStage = (
    PickingPresident | ExchangingSingles | Offering | OfferingAgain | BuyingTokens | Stalled
)
"""Where the secession stands; ``None`` once it is done."""


@dataclass(frozen=True)
class Seceding(Machine["ProcedureGame", SecessionStage, moves.Move, Question]):
    """The rules of the secession's questions and their automatic parts in between
    (rules/1841.md 2.4.1): ``old`` (IRSFF) splits into ``a`` (SB; first edition SFV) and
    ``b`` (SFL); ``decider`` (a key) answers where nobody else can; ``price`` is IRSFF's
    price at the split (seed 000 item 3.3 pays unmatched holders at it)."""

    old: str
    a: str
    b: str
    decider: str
    price: int = 0

    rule = RULE
    stages = (PickingPresident, ExchangingSingles, Offering, OfferingAgain, BuyingTokens, Stalled)

    # -- questions ---------------------------------------------------------------------
    def question(self, game: ProcedureGame, stage: SecessionStage) -> Question | None:
        old = game.corporation(self.old)
        if isinstance(stage, PickingPresident):
            owner = old.owner
            if owner is not None and game.controller(old) is not None:
                entity: Holder = owner  # a controlled corporation's president answers
            else:
                entity = self.decider_of(game)
            return Question(
                entity, ("choose",), "pick_exchange_pres", RULE, ["a", "b"],
                facts=(("corporation", self.old), ("first", self.a), ("second", self.b)),
                meanings={k: ("take_presidency_of", (("corporation", c),))
                          for k, c in (("a", self.a), ("b", self.b))},
            )  # fmt: skip
        if isinstance(stage, ExchangingSingles):
            holder = holder_of(game, stage.holders[0])
            entity = self.decider_of(game) if isinstance(holder, SharePool) else holder
            return Question(
                entity, ("choose",), "pick_exchange_corp", RULE, ["a", "b"],
                facts=(("corporation", self.old), ("first", self.a), ("second", self.b)),
                meanings={k: ("exchange_for", (("corporation", c),))
                          for k, c in (("a", self.a), ("b", self.b))},
            )  # fmt: skip
        if isinstance(stage, Offering):
            holder = holder_of(game, stage.holders[0])
            facts = share_offer_facts(game.corporation(stage.corp))
            return Question(
                holder, ("choose",), "share_offer", RULE, ["yes", "no"], facts=facts,
                meanings={"yes": ("buy_share", facts), "no": ("decline_share", facts[:1])},
            )  # fmt: skip
        if isinstance(stage, OfferingAgain):
            corp = game.corporation(stage.corp)
            entity = self.acting_for(game, corp)
            about: Facts = (("corporation", corp.sym),)
            return Question(
                entity, ("choose",), "offer_again", RULE, ["y", "n"], facts=about,
                meanings={"y": ("offer_again", about), "n": ("end_offers", about)},
            )  # fmt: skip
        if isinstance(stage, BuyingTokens):
            corp = game.corporation(stage.corp)
            top = self.max_tokens(corp)
            price = OPTIONAL_TOKEN_PRICE
            return Question(
                self.acting_for(game, corp), ("choose",), "buy_tokens", RULE,
                list(range(top + 1)), facts=(("corporation", corp.sym), ("price", price)),
                meanings={n: tokens_bought(corp.sym, n, n * price, price) for n in range(top + 1)},
            )  # fmt: skip
        return None

    def decider_of(self, game: ProcedureGame) -> Player:
        holder = holder_of(game, self.decider)
        assert isinstance(holder, Player)
        return holder

    def acting_for(self, game: ProcedureGame, corp: Corporation) -> Corporation | Player:
        """A new corporation answers for itself if a player controls it, else the decider."""
        return corp if game.controller(corp) is not None else self.decider_of(game)

    def verify(
        self, game: ProcedureGame, stage: SecessionStage, answer: moves.Move
    ) -> IllegalAction | None:
        """Refuse an answer the secession cannot take: a choice not offered, a share bought
        by a holder who cannot buy it (rules/1841.md 2.4.1: the cash, the limits), a token
        count out of range."""
        choice = moves.choice_of(answer)
        if isinstance(stage, PickingPresident | ExchangingSingles):
            offered: tuple[str, ...] = ("a", "b")
        elif isinstance(stage, Offering):
            corp = game.corporation(stage.corp)
            if choice == "yes" and not can_buy_offer(game, holder_of(game, stage.holders[0]), corp):
                return IllegalAction(f"{stage.holders[0]} cannot buy the offered share", RULE)
            offered = ("yes", "no")
        elif isinstance(stage, OfferingAgain):
            offered = ("y", "n")
        elif isinstance(stage, BuyingTokens):
            corp = game.corporation(stage.corp)
            try:
                count = int(str(choice))
            except ValueError:
                return IllegalAction(f"{choice!r} is not a number of tokens", RULE)
            if not 0 <= count <= self.max_tokens(corp):
                return IllegalAction(f"{corp.sym} cannot buy {count} tokens", RULE)
            return None
        else:
            return IllegalAction("the secession asks nothing now", RULE)
        if choice not in offered:
            return IllegalAction(f"{choice!r} is not offered (choices: {offered})", RULE)
        return None

    def advance(
        self, game: ProcedureGame, stage: SecessionStage, answer: moves.Move
    ) -> SecessionStage | None:
        """Take the answer and run the automatic parts on to the next question (or the
        end)."""
        choice = str(moves.choice_of(answer))
        if isinstance(stage, PickingPresident):
            return self.exchange_president(game, choice)
        if isinstance(stage, ExchangingSingles):
            holders = list(stage.holders)
            self.swap_single(game, holders, choice)
            return self.next_single(game, holders)
        if isinstance(stage, Offering):
            holder = holder_of(game, stage.holders[0])
            if choice == "yes":
                corp = game.corporation(stage.corp)
                share = corp.treasury_shares()[0]
                game.buy_shares(holder, Bundle.of([share], corp))
            return self.next_offer(game, dataclasses.replace(stage, holders=stage.holders[1:]))
        if isinstance(stage, OfferingAgain):
            if choice == "y":
                return self.offer(game, stage.corp, False, stage.done_a, stage.done_b)
            done_a, done_b = self.mark_done(stage.corp, stage.done_a, stage.done_b)
            return self.post_offer(game, stage.corp, False, done_a, done_b)
        if isinstance(stage, BuyingTokens):
            return self.buy_tokens(game, stage.corp, int(choice))
        raise TypeError(f"the secession takes no answer in {stage}")

    # -- presidents and pairs ----------------------------------------------------------
    def corps(self, game: ProcedureGame) -> tuple[Corporation, Corporation, Corporation]:
        return game.corporation(self.old), game.corporation(self.a), game.corporation(self.b)

    def begin_exchange(self, game: ProcedureGame) -> SecessionStage | None:
        """IRSFF's president with 40 % takes both president's certificates for his own and two
        shares; below 40 % he is asked; with IRSFF's president's certificate in the pool both
        go to the pool (18xx.games moves SB's and leaves SFL's in its treasury)
        (rules/1841.md 2.4.1)."""
        old, a, b = self.corps(game)
        owner = old.owner
        pres = old.presidents_share
        if owner is None or (pres is not None and isinstance(pres.owner, SharePool)):
            give_new(game, a, game.pool, president=True)
            game.set_president(a, game.pool)
            return self.begin_singles(game)
        if owner.percent_of(old.sym) >= KEEPS_BOTH_PRESIDENCIES:
            mine = owner.shares_of(old.sym)
            ordinary = [s for s in mine if not s.president]
            for share in [s for s in mine if s.president] + ordinary[:2]:
                split_off(share, old)
            give_new(game, a, owner, president=True)
            give_new(game, b, owner, president=True)
            return self.exchange_pairs(game, b)
        return PickingPresident()

    def exchange_president(self, game: ProcedureGame, choice: str) -> SecessionStage | None:
        """IRSFF's president takes the chosen president's certificate for his own; the first
        pair gets the other one (rules/1841.md 2.4.1)."""
        old, a, b = self.corps(game)
        new, other = (a, b) if choice == "a" else (b, a)
        owner = old.owner
        assert owner is not None
        pres = next(s for s in owner.shares_of(old.sym) if s.president)
        split_off(pres, old)
        give_new(game, new, owner, president=True)
        return self.exchange_pairs(game, other)

    def exchange_pairs(self, game: ProcedureGame, other: Corporation) -> SecessionStage | None:
        """Every pair of IRSFF shares, holders in exchange order: the first pair takes the
        other president's certificate (the pool's pair puts it in the pool), each further one a
        share of each; nobody with a pair: the certificate goes to the pool (rules/1841.md
        2.4.1; seed 003 H5: the first-asked 20 % holders take the directorships)."""
        old, a, b = self.corps(game)
        pending = any(s.president for s in other.treasury_shares())
        for key in exchange_holders(game, self.decider_of(game), old, 20):
            holder = holder_of(game, key)
            while holder.percent_of(old.sym) > 10:
                first, second = holder.shares_of(old.sym)[:2]
                split_off(first, old)
                split_off(second, old)
                if pending:
                    give_new(game, other, holder, president=True)
                    if isinstance(holder, SharePool):
                        game.set_president(other, holder)
                    pending = False
                else:
                    give_new(game, a, holder)
                    give_new(game, b, holder)
        if pending:
            give_new(game, other, game.pool, president=True)
            game.set_president(other, game.pool)
        return self.begin_singles(game)

    # -- single shares -----------------------------------------------------------------
    def begin_singles(self, game: ProcedureGame) -> SecessionStage | None:
        old = game.corporation(self.old)
        holders = exchange_holders(game, self.decider_of(game), old, 10)
        if game.settings.secession_pays_unmatched_holders:
            self.pay_out_singles(game, holders)
            holders = []
        return self.next_single(game, holders)

    def pay_out_singles(self, game: ProcedureGame, holders: list[str]) -> None:
        """Seed 000 item 3.3: holders left with a single IRSFF share are paid its value at
        IRSFF's last price by the bank (no price change); the pool's share is void."""
        old = game.corporation(self.old)
        for key in holders:
            holder = holder_of(game, key)
            for share in list(holder.shares_of(old.sym)):
                split_off(share, old)
                if not isinstance(holder, SharePool):
                    transfer(game.bank, holder, self.price * share.percent // 10, RULE)

    def next_single(self, game: ProcedureGame, holders: list[str]) -> SecessionStage | None:
        """The next single share: asked if both have shares and the holder is a player, a
        player-controlled corporation or the pool (the decider answers); else automatic
        (frozen corporations take SB) (rules/1841.md 2.4.1; seed 000 item 2.25)."""
        _, a, b = self.corps(game)
        while holders:
            holder = holder_of(game, holders[0])
            has_a, has_b = bool(a.treasury_shares()), bool(b.treasury_shares())
            asks = isinstance(holder, SharePool) or game.controller(holder) is not None
            if has_a and has_b and asks:
                return ExchangingSingles(tuple(holders))
            if not (has_a or has_b):
                break
            self.swap_single(game, holders, "a" if has_a else "b")
        return self.offer(game, self.a, True, False, False)

    def swap_single(self, game: ProcedureGame, holders: list[str], choice: str) -> None:
        """The first holder's single share becomes the chosen one (``a`` SB, ``b`` SFL)."""
        old, a, b = self.corps(game)
        holder = holder_of(game, holders.pop(0))
        split_off(holder.shares_of(old.sym)[0], old)
        give_new(game, a if choice == "a" else b, holder)

    # -- share offers ------------------------------------------------------------------
    def offer(
        self, game: ProcedureGame, sym: str, first_round: bool, done_a: bool, done_b: bool
    ) -> SecessionStage | None:
        """An offer round of ``sym``'s treasury shares, from its controlling player (else the
        decider); SB's first round (``first_round``) begins the offers (rules/1841.md
        2.4.1)."""
        corp = game.corporation(sym)
        first = game.controller(corp) or self.decider_of(game)
        holders = tuple(offer_holders(game, first, corp))
        return self.next_offer(game, Offering(sym, holders, first_round, done_a, done_b))

    def next_offer(self, game: ProcedureGame, stage: Offering) -> SecessionStage | None:
        """The first holder left who can buy is asked; none: the round is over."""
        corp = game.corporation(stage.corp)
        holders = list(stage.holders)
        while holders and not can_buy_offer(game, holder_of(game, holders[0]), corp):
            holders.pop(0)
        if holders:
            return dataclasses.replace(stage, holders=tuple(holders))
        return self.post_offer(game, stage.corp, stage.first_round, stage.done_a, stage.done_b)

    def post_offer(
        self, game: ProcedureGame, sym: str, first_round: bool, done_a: bool, done_b: bool
    ) -> SecessionStage | None:
        """After a round: SFL's first round; then, alternately for SB and SFL while someone
        can buy, the corporation is asked whether another round follows (rules/1841.md
        2.4.1)."""
        while True:
            if first_round:
                return self.offer(game, self.b, False, done_a, done_b)
            if done_a and done_b:
                return self.begin_tokens(game)
            sym = self.b if sym == self.a else self.a
            if done_a if sym == self.a else done_b:
                continue
            corp = game.corporation(sym)
            first = game.controller(corp) or self.decider_of(game)
            if any(
                can_buy_offer(game, holder_of(game, k), corp)
                for k in offer_holders(game, first, corp)
            ):
                return OfferingAgain(sym, done_a, done_b)
            done_a, done_b = self.mark_done(sym, done_a, done_b)

    def mark_done(self, sym: str, done_a: bool, done_b: bool) -> tuple[bool, bool]:
        """No further round for ``sym``."""
        return (True, done_b) if sym == self.a else (done_a, True)

    # -- extra tokens (second edition) --------------------------------------------------
    def begin_tokens(self, game: ProcedureGame) -> SecessionStage | None:
        if not game.settings.secession_token_purchase:
            self.finish(game)
            return None
        return self.next_tokens(game, self.a)

    def max_tokens(self, corp: Corporation) -> int:
        return min(corp.cash // OPTIONAL_TOKEN_PRICE, MAX_TOKENS - corp.num_tokens)

    def next_tokens(self, game: ProcedureGame, sym: str) -> SecessionStage | None:
        """SB, then SFL, may buy tokens at L.50 each up to 5 in all, if it has L.50
        (rules/1841.md 2.4.1)."""
        while sym:
            corp = game.corporation(sym)
            if self.max_tokens(corp) > 0:
                # behind a purchase 18xx.games never asks (.stock.stall_token_purchases)
                if game.stalled_token_purchase is not None:
                    return Stalled()
                return BuyingTokens(sym)
            sym = self.b if sym == self.a else ""
        self.finish(game)
        return None

    def buy_tokens(self, game: ProcedureGame, sym: str, count: int) -> SecessionStage | None:
        corp = game.corporation(sym)
        transfer(corp, game.bank, count * OPTIONAL_TOKEN_PRICE, RULE)
        corp.num_tokens += count
        if count:
            game.journal.append(journal.TokensBought(corp.sym, count, count * OPTIONAL_TOKEN_PRICE))
        return self.next_tokens(game, self.b if sym == self.a else "")

    # -- the end -----------------------------------------------------------------------
    def finish(self, game: ProcedureGame) -> None:
        """SB and SFL take IRSFF's place in this operating round (SB, then SFL) unless IRSFF
        has operated or is operating (seed 000 item 2.24); IRSFF closes (rules/1841.md
        2.4.1).  A Tuscan merge that waited starts after it (:meth:`Secession.answer`)."""
        from stellwerk.titles.g1841 import events

        old, a, b = self.corps(game)
        rnd = game.round
        runs = False
        if isinstance(rnd, OperatingRound) and old in rnd.entities:
            at = rnd.entities.index(old)
            runs = at > rnd.entity_index
            if runs:
                rnd.entities[at : at + 1] = [a, b]
        for corp in (a, b):
            if runs:
                game.done_this_round.discard(corp.sym)
            else:
                game.done_this_round.add(corp.sym)
        # first edition: IRSFF's tokens beyond 2 each stay on the map, a closed
        # corporation's, as in 18xx.games (its closing removes no token)
        events.close_corporation(game, old)
        frozen.update(game)


@dataclass
class Secession(OnMachine[SecessionStage]):
    """The secession's questions under way (rules/1841.md 2.4.1): its rules
    (:class:`Seceding`) and where it stands (:data:`SecessionStage`, ``None`` once done).
    ``tuscan_deferred``: a Tuscan merge waits for its end (2.4 item 4) -- set from outside
    while it asks, not a part of its progress."""

    machine: Seceding
    stage: SecessionStage | None
    tuscan_deferred: bool = False

    rule = RULE

    @property
    def old(self) -> str:
        """The corporation that splits (IRSFF)."""
        return self.machine.old

    @property
    def tokens_corp(self) -> str:
        """The corporation asked to buy tokens now ("" when none is)."""
        return self.stage.corp if isinstance(self.stage, BuyingTokens) else ""

    def answer(self, game: ProcedureGame, action: moves.Move) -> None:
        """The machine takes the answer (:meth:`OnMachine.answer`); at the end a Tuscan
        merge that waited starts (rules/1841.md 2.4 item 4)."""
        super().answer(game, action)
        if self.done() and self.tuscan_deferred:
            from stellwerk.titles.g1841 import events

            self.tuscan_deferred = False
            events.start_tuscan_merge(game)


def under_way(game: ProcedureGame) -> Secession | None:
    """The secession while it still asks (the Tuscan merge waits for it, rules/1841.md 2.4
    item 4)."""
    return next((p for p in game.procedures if isinstance(p, Secession) and not p.done()), None)
