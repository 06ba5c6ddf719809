"""1841's merger of two corporations into a new major (rules/1841.md 2.3.11; seed 000 items
1.3, 1.16, 1.19, 2.1, 2.25, 2.26, 3.6, 3.7, mistake 5.3; seed 003 H12, H13).

Two majors (or two minors) that have operated, are not frozen and -- if historical -- merge
only from phase 4, form a non-historical major that has not been started (the *target*).
The procedure runs as 18xx.games runs it:

1. the new price (the conversion table, 6.6; both majors above L.250 with different prices:
   the acting corporation chooses, ``choose`` first/last);
2. the target starts at that price; cash, trains and holdings of third corporations move to
   it; the two old corporations' shares of each other go back to their own IPOs;
3. the exchange: majors in two passes (pairs, then single shares, ``choose`` pres/no and
   cash/full/pres), minors automatically;
4. a merger that leaves the target without a president or makes a new circular chain of
   control (seed 000 item 3.1, unless that rule is switched off) is refused before anything
   changes (the exchange is tried on a copy of the game);
5. tokens: duplicates go, on a two-city tile one must go (``remove_token``), then between a
   lower and an upper bound of the map tokens (``remove_token``, ``pass``);
6. the old corporations close (historical) or become available again (non-historical).

The merger runs on the core mechanism (:mod:`stellwerk.core.procedure`): its rules are a
:class:`Merging` machine, where it stands a frozen stage (:class:`ChoosingPrice`,
:class:`Exchanging`, :class:`RemovingTokens`, :class:`Judged`; ``None`` once done), and
:class:`Merger` is the procedure the decisions queue runs (:class:`~.decisions.OnMachine`).

The Tuscan merge (:mod:`.tuscan`) runs the same procedure with its own decider, price chooser,
token rules and the pool taking an unclaimed president's certificate.

What the operating round owns is reached through small functions here, so the round's own
bookkeeping can replace them: :func:`has_operated`, :func:`is_frozen`, :func:`mark_done`,
:func:`region_reach`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
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
    arrival_order,
    controller,
    is_circular,
    move_share,
    transfer,
)
from stellwerk.core.errors import IllegalAction
from stellwerk.core.market import Cell
from stellwerk.core.procedure import Machine
from stellwerk.titles.g1841 import frozen, journal, token_order
from stellwerk.titles.g1841.data_load import pass_tiles
from stellwerk.titles.g1841.decisions import OnMachine, Question, city_meaning
from stellwerk.titles.g1841.ownership import holders_in_order, loops_forbidden
from stellwerk.titles.g1841.trial import light_copy

if TYPE_CHECKING:
    from stellwerk.titles.g1841.decisions import ProcedureGame

RULE = "rules/1841.md 2.3.11"
MAJOR_SUM_CAP = 250
"""The summed prices of two majors count at most this much (rules/1841.md 2.3.11)."""
MAX_TOKENS = 5
"""A corporation has at most five tokens (rules/1841.md 1.2 "Tokens"; seed 000 item 1.19)."""
TUSCAN_TOKEN_HEXES = ("Q11", "R14")
"""Pisa and Firenze: SFLi always keeps its tokens there (rules/1841.md 2.4.2)."""


# -- what the operating round owns (swap these for the round's bookkeeping) -------------------
def has_operated(game: ProcedureGame, corp: Corporation) -> bool:
    """Whether ``corp`` has completed an operating turn (rules/1841.md 2.3.9; seed 000 items
    1.3, 2.1): the core's operating history, cleared when a corporation restarts."""
    return corp.sym in game.operated_corps


def is_frozen(game: ProcedureGame, corp: Corporation) -> bool:
    """A started corporation whose chain of control does not end at a player (2.3.9)."""
    return corp.ipoed and controller(corp) is None


def mark_done(game: ProcedureGame, corp: Corporation) -> None:
    """``corp`` does not operate (any more) in this operating round (2.3.11, 2.3.12)."""
    game.done_this_round.add(corp.sym)


def region_reach(game: ProcedureGame, corp: Corporation) -> set[tuple[str, int]]:
    """(hex, city index) of the cities ``corp`` reaches on the region graph (rules/1841.md
    2.3.11, seed 000 item 3.7: never across a current province border).

    Stand-in until the operating round's region graph exists: the track network from the
    corporation's tokens, not yet stopped at province borders."""
    board = game.map.board
    out: set[tuple[str, int]] = set()
    for hid, node in game.map.region_graph.network(corp.sym).nodes:
        index = board.hexes[hid].city_index(node)
        if index is not None:
            out.add((hid, index))
    return out


# -- small facts ------------------------------------------------------------------------------
def is_historical(game: ProcedureGame, corp: Corporation) -> bool:
    return game.specs[corp.sym].historical


def is_major(game: ProcedureGame, corp: Corporation) -> bool:
    return game.specs[corp.sym].type == "major"


def phase_number(game: ProcedureGame) -> int:
    return int(game.phases.current.name)


def is_pass_hex(game: ProcedureGame, hex_id: str) -> bool:
    """A city on a mountain pass tile (rules/1841.md 1.2; passes are not railheads)."""
    return game.map.board.hexes[hex_id].tile.name in pass_tiles(game.map.variant)


def mergeable(game: ProcedureGame, corp: Corporation) -> bool:
    """May take part in a merger (rules/1841.md 2.3.11): not historical before phase 4, has
    operated (seed 000 mistake 5.3, seed 003 H12), not frozen, not closed.  Frozen as the
    states were last brought up to date (:mod:`.frozen`), as 18xx.games asks its kept flags
    here: while they are held (``Game1841.frozen_held``) they can differ from the chain as it
    is now (:func:`hold_frozen_after_restart`)."""
    return (
        (not is_historical(game, corp) or phase_number(game) >= 4)
        and corp.ipoed
        and has_operated(game, corp)
        and not frozen.is_frozen(game, corp)
        and not corp.closed
    )


def merge_target(game: ProcedureGame, corp: Corporation) -> bool:
    """May be formed by a merger or transformation: a non-historical major that is neither
    started nor closed (rules/1841.md 2.3.11, 2.3.12)."""
    return (
        not is_historical(game, corp)
        and not corp.ipoed
        and is_major(game, corp)
        and not corp.closed
    )


def targets(game: ProcedureGame) -> list[Corporation]:
    return [c for c in game.corporations if merge_target(game, c)]


def partners(game: ProcedureGame, corp: Corporation) -> list[Corporation]:
    """Corporations ``corp`` may merge with: of its type, mergeable, with a token in a
    non-pass city it reaches on the region graph (rules/1841.md 2.3.11; seed 000 items 2.26,
    3.7), in the order their tokens are found."""
    board = game.map.board
    found: list[Corporation] = []
    for hid, index in sorted(region_reach(game, corp)):
        if is_pass_hex(game, hid):
            continue
        for sym in board.hexes[hid].cities[index].tokens:
            if sym is None or sym == corp.sym:
                continue
            other = game.corporation(sym)
            if other in found or game.specs[sym].type != game.specs[corp.sym].type:
                continue
            if mergeable(game, other):
                found.append(other)
    return found


# -- refusals: the rule that forbids the move ---------------------------------------------------
RULE_TYPE = "rules/1841.md 2.3.11 (two majors or two minors merge)"
RULE_HISTORICAL = "rules/1841.md 2.3.11 (historical corporations merge only from phase 4)"
RULE_OPERATED = (
    "seed 000 mistake 5.3, seed 003 H12 (no merger before the corporation has operated; "
    "rules/1841.md 2.3.9, 2.3.11)"
)
RULE_FROZEN = "rules/1841.md 2.3.10, 2.3.11 (frozen corporations do not merge)"
RULE_BORDER = "seed 000 item 3.7 (no merger across an existing border)"
RULE_REACH = "rules/1841.md 2.3.11, seed 000 item 2.26 (the partner's station must be reachable)"
RULE_TARGET = "rules/1841.md 2.3.11 (the new corporation: a non-historical major not started)"
RULE_PRESIDENT = "seed 000 item 3.6 (a merger needs a new president; rules/1841.md 2.3.11)"
RULE_PRESIDENT_OR_CIRCLE = (
    "seed 000 items 3.6, 3.1 (a merger needs a new president and makes no circular control; "
    "rules/1841.md 2.3.11)"
)


def not_mergeable(game: ProcedureGame, corp: Corporation) -> IllegalAction | None:
    """Why ``corp`` may not take part in a merger, naming the rule that says so (the
    conditions of :func:`mergeable`, the most specific rule first); None if it may."""
    if not corp.ipoed or corp.closed:
        return IllegalAction(f"{corp.sym} is not a started corporation", RULE)
    if is_historical(game, corp) and phase_number(game) < 4:
        return IllegalAction(f"{corp.sym} is historical: it merges from phase 4", RULE_HISTORICAL)
    if not has_operated(game, corp):
        return IllegalAction(f"{corp.sym} has not completed an operating turn", RULE_OPERATED)
    if is_frozen(game, corp):
        return IllegalAction(f"{corp.sym} is frozen", RULE_FROZEN)
    return None


def reaches_station(
    game: ProcedureGame, corp: Corporation, other: Corporation, network: str
) -> bool:
    """Whether ``corp`` reaches a non-pass city with a token of ``other`` on the region graph
    (``network == "region"``: no current border crossed) or on the full track graph."""
    graph = game.map.region_graph if network == "region" else game.map.graph
    board = game.map.board
    for hid, node in graph.network(corp.sym).nodes:
        index = board.hexes[hid].city_index(node)
        if index is None or is_pass_hex(game, hid):
            continue
        if other.sym in board.hexes[hid].cities[index].tokens:
            return True
    return False


def partner_refusal(game: ProcedureGame, a: Corporation, b: Corporation) -> IllegalAction | None:
    """Why ``a`` may not choose ``b`` as its merger partner, naming the rule that forbids it
    (rules/1841.md 2.3.11; seed 000 items 2.26, 3.1, 3.6, 3.7, mistake 5.3; seed 003 H12):
    its own type, each one mergeable, a station of ``b`` reached without crossing a current
    border, and a merger that can complete; None if nothing forbids it."""
    if b is a:
        return IllegalAction(f"{a.sym} cannot merge with itself", RULE)
    if game.specs[a.sym].type != game.specs[b.sym].type:
        kinds = f"{a.sym} is a {game.specs[a.sym].type}, {b.sym} a {game.specs[b.sym].type}"
        return IllegalAction(f"{kinds}: they may not merge", RULE_TYPE)
    for corp in (a, b):
        refused = not_mergeable(game, corp)
        if refused is not None:
            return refused
    if b not in partners(game, a):
        if reaches_station(game, a, b, "full"):
            return IllegalAction(
                f"{a.sym} reaches {b.sym}'s stations only across an existing border", RULE_BORDER
            )
        return IllegalAction(f"{a.sym} reaches no station of {b.sym}", RULE_REACH)
    found = targets(game)
    if found and not can_begin(game, a, b, found[0]):
        return incomplete(game, a, b)
    return None


def target_refusal(
    game: ProcedureGame, a: Corporation, b: Corporation, target: Corporation
) -> IllegalAction | None:
    """Why ``a`` and ``b`` may not merge into ``target`` (rules/1841.md 2.3.11; seed 000 items
    3.1, 3.6); None if nothing forbids it."""
    if not merge_target(game, target):
        return IllegalAction(f"{target.sym} cannot be formed by a merger", RULE_TARGET)
    refused = partner_refusal(game, a, b)
    if refused is not None:
        return refused
    if not can_begin(game, a, b, target):
        return incomplete(game, a, b)
    return None


def incomplete(game: ProcedureGame, a: Corporation, b: Corporation) -> IllegalAction:
    """No exchange lets the merger of ``a`` and ``b`` complete: it would leave the new
    corporation without a president or (while seed 000 item 3.1 is in force and checked,
    :func:`.ownership.loops_forbidden`) make a circular chain of control."""
    if loops_forbidden(game):
        return IllegalAction(
            f"a merger of {a.sym} and {b.sym} would leave the new corporation without a "
            "president or make a circular chain of control",
            RULE_PRESIDENT_OR_CIRCLE,
        )
    return IllegalAction(
        f"a merger of {a.sym} and {b.sym} would leave the new corporation without a president",
        RULE_PRESIDENT,
    )


# -- the new price (rules/1841.md 2.3.11, 6.6) ------------------------------------------------
def rightmost_below(game: ProcedureGame, value: float) -> Cell:
    """The market cell with a price below ``value`` in the rightmost column such a cell has,
    the topmost there (rules/1841.md 2.3.11; reproduces the seed 000 conversion table 6.6)."""
    best: Cell | None = None
    best_col = -1
    for row in game.market.rows:
        cells = [c for c in row if c is not None]
        if not cells:
            continue
        row_best = cells[0]
        for cell in cells:
            if row_best.price < cell.price < value:
                row_best = cell
        if row_best.column > best_col:
            best_col, best = row_best.column, row_best
    assert best is not None
    return best


def merger_prices(game: ProcedureGame, a: Corporation, b: Corporation) -> list[Cell]:
    """The possible prices of the merged corporation, lower first (rules/1841.md 2.3.11):
    majors both above L.250 keep one of their prices (a choice if they differ), one above
    L.250 keeps its price; otherwise the cell below the sum capped at L.250 (majors) or half
    the sum (minors).  With seed 000's conversion table for every merger of majors (rules/1841.md
    6.6: "243 und + auf 242 (Feld N3)", the table has no row above it) no price above L.250
    is kept: every sum from L.243 up gives L.242."""
    pa, pb = a.share_price, b.share_price
    assert pa is not None and pb is not None
    if is_major(game, a) and not game.settings.merger_keeps_prices_above_250:
        return [rightmost_below(game, min(pa.price + pb.price, MAJOR_SUM_CAP))]
    if is_major(game, a):
        if pa.price > MAJOR_SUM_CAP and pb.price > MAJOR_SUM_CAP:
            if pa.price == pb.price:
                return [pa]
            return sorted([pa, pb], key=lambda c: c.price)
        if pa.price > MAJOR_SUM_CAP:
            return [pa]
        if pb.price > MAJOR_SUM_CAP:
            return [pb]
        return [rightmost_below(game, min(pa.price + pb.price, MAJOR_SUM_CAP))]
    return [rightmost_below(game, (pa.price + pb.price) / 2)]


def pres_upgrade_cost(price: int, percent: int) -> int:
    """What a holder of ``percent`` old shares pays for the president's certificate:
    floor(P x (40 - x) / 20) (rules/1841.md 2.3.11, 3)."""
    return price * (40 - percent) // 20


def full_upgrade_cost(price: int) -> int:
    """A single old share's buy-in to a new share or cash-out: floor(P / 2)."""
    return price // 2


# -- moving certificates as 18xx.games does -----------------------------------------------------
def transfer_certificates(
    game: ProcedureGame, shares: list[Share], to: Holder, allow_president_change: bool = True
) -> None:
    """Move certificates of one corporation from one holder and settle the presidency as
    1841 on 18xx.games does (president's certificates may lie in the pool; a holder reaching
    the president's percentage while the president's certificate is still in the treasury
    swaps ordinary certificates for it there) (rules/1841.md 2.2.1, 2.3.11)."""
    if not shares:
        return
    corp = game.corporation(shares[0].corporation)
    owner = shares[0].owner
    assert owner is not None
    previous = corp.owner
    with_pres = any(s.president for s in shares)
    for share in shares:
        move_share(share, to)
    if not allow_president_change:
        return
    holders = {h: p for h, p in corp.share_holders.items() if game.may_preside(corp, h)}
    top = max(holders.values(), default=0)
    if top < corp.president_percent and with_pres and to is game.pool:
        game.set_president(corp, game.pool)
        return
    if owner is game.pool and with_pres:
        game.set_president(corp, to)
        return
    if top < corp.president_percent:
        return
    majority = [h for h, p in holders.items() if p == top]
    if previous in majority:
        return
    pres = corp.presidents_share
    president: Holder | None = None
    if previous is None:
        president = next((h for h in majority if pres is not None and h is pres.owner), None)
    if president is None:
        eligible = [h for h in majority if h.percent_of(corp.sym) >= corp.president_percent]
        if eligible:
            if previous is game.pool:
                president = min(eligible, key=lambda h: arrival_order(h, corp.sym))
            else:
                president = min(eligible, key=lambda h: game.president_distance(previous, h))
    if president is None:
        return
    game.set_president(corp, president)
    if to is president and previous is owner and with_pres:
        return
    if owner is corp and not with_pres and previous is None:
        previous = corp
    if owner is president or previous is None:
        return
    cert = next((s for s in shares if s.president), None) or next(
        (s for s in previous.shares_of(corp.sym) if s.president), None
    )
    if cert is None:
        return
    if isinstance(owner, Player) and isinstance(to, Player) and with_pres:
        swap_to: Holder = to
    else:
        swap_to = previous if previous.percent_of(corp.sym) >= cert.percent else game.pool
    count = cert.percent // corp.share_unit
    for share in list(president.shares_of(corp.sym))[:count]:
        move_share(share, swap_to)
    move_share(cert, president)


def return_to_ipo(share: Share, game: ProcedureGame) -> None:
    """An exchanged or cross-held certificate goes back to its corporation's treasury."""
    move_share(share, game.corporation(share.corporation))


# -- references kept as plain data -----------------------------------------------------------
def ref(holder: Holder) -> str:
    """A plain-data name of a holder: ``P:<id>``, ``C:<sym>`` or ``pool``."""
    if isinstance(holder, Player):
        return f"P:{holder.id}"
    if isinstance(holder, Corporation):
        return f"C:{holder.sym}"
    if isinstance(holder, SharePool):
        return "pool"
    raise ValueError(f"{holder.name} holds no shares in exchanges")


def deref(game: ProcedureGame, name: str) -> Holder:
    if name == "pool":
        return game.pool
    kind, key = name.split(":", 1)
    if kind == "C":
        return game.corporation(key)
    return next(p for p in game.all_players if str(p.id) == key)


# -- assets -------------------------------------------------------------------------------------
def move_assets(
    game: ProcedureGame, source: Corporation, other: Corporation | None, target: Corporation
) -> None:
    """Everything but tokens and the source's own treasury moves to the target: certificates
    of third corporations (a presidency the source held stays with the target), cash,
    trains; certificates of ``other`` the source holds go back to ``other``'s treasury
    (rules/1841.md 2.3.11)."""
    if other is not None:
        for share in list(source.shares_of(other.sym)):
            return_to_ipo(share, game)
    for sym in list(source.shares):
        if sym == source.sym or not source.shares.get(sym):
            continue
        held = list(source.shares[sym])
        corp = game.corporation(sym)
        with_pres = any(s.president for s in held)
        transfer_certificates(game, held, target, allow_president_change=not with_pres)
        if with_pres:
            game.set_president(corp, target)
    if source.cash > 0:
        transfer(source, target, source.cash, RULE)
    for train in source.trains:
        train.owner = target
    target.trains.extend(source.trains)
    source.trains.clear()


def restart_corporation(game: ProcedureGame, corp: Corporation) -> None:
    """After a merger or transformation (rules/1841.md 2.3.11; seed 000 item 1.3): a historical
    corporation closes; a non-historical one becomes available again -- not started, no price,
    no president, no history, 2 (major) or 1 (minor) tokens, no trains, its certificates back
    in its treasury in id order."""
    cell = corp.share_price
    if cell is not None and corp.sym in cell.corporations:
        cell.corporations.remove(corp.sym)
    corp.share_price = None
    corp.par_price = None
    corp.ipoed = False
    corp.floated = False
    game.set_president(corp, None)
    corp.trains.clear()
    game.map.board.remove_all_tokens(corp.sym)
    token_order.clear(game, corp)
    # its routes are forgotten: the full graph's kept "must buy a train" flag goes too (as
    # 18xx.games clears the graph for a restarted corporation; the region graph keeps it)
    game.map.graph.clear_for(corp.sym)
    if is_historical(game, corp):
        corp.closed = True
        return
    corp.operating_history.clear()
    game.operated_corps.discard(corp.sym)
    corp.num_tokens = game.specs[corp.sym].min_tokens
    treasury = corp.shares.get(corp.sym)
    if treasury:
        treasury.sort(key=lambda s: s.index)


def start_target(game: ProcedureGame, target: Corporation, cell: Cell) -> None:
    """The target starts (is floated) at ``cell`` (rules/1841.md 2.3.11)."""
    game.set_par(target, cell)
    target.ipoed = True
    target.floated = True


# -- holders -----------------------------------------------------------------------------------
def frozen_corporations(game: ProcedureGame) -> list[Corporation]:
    """The frozen corporations in the order they exchange after the pool: definition order
    (18xx.games) or descending share value (seed 000 item 2.25, option;
    :func:`.ownership.holders_in_order`)."""
    return holders_in_order(game, [c for c in game.corporations if is_frozen(game, c)])


def controlled_in_order(game: ProcedureGame, player: Player) -> list[Corporation]:
    """The corporations ``player`` controls, in the order his corporations decide in
    exchanges: definition order (18xx.games) or descending share value (seed 000 item 1.16,
    option; :func:`.ownership.holders_in_order`)."""
    return holders_in_order(game, [c for c in game.corporations if controller(c) is player])


def exchange_holders(
    game: ProcedureGame, a: Corporation, b: Corporation, decider: Player, percent: int
) -> list[Holder]:
    """Who exchanges, in order (rules/1841.md 2.3.11, 5.4; seed 000 items 1.16, 2.25): from
    the decider players in seat order, each followed by the corporations he controls (not the
    two merging ones); then the pool; then frozen corporations -- those holding at least
    ``percent`` of the two together."""

    def total(h: Holder) -> int:
        return h.percent_of(a.sym) + h.percent_of(b.sym)

    out: list[Holder] = []
    players = game.players
    start = players.index(decider) if decider in players else 0
    for player in players[start:] + players[:start]:
        if total(player) >= percent:
            out.append(player)
        for corp in controlled_in_order(game, player):
            if corp is a or corp is b:
                continue
            if total(corp) >= percent:
                out.append(corp)
    if total(game.pool) >= percent:
        out.append(game.pool)
    for corp in frozen_corporations(game):
        if corp is not a and corp is not b and total(corp) >= percent:
            out.append(corp)
    return out


def old_shares(holder: Holder, a: str, b: str) -> list[Share]:
    """A holder's certificates of the two merging corporations in the order they are
    exchanged: largest first, equal ones in reverse of holding order (as 18xx.games sorts
    them ascending and reverses; fixture 1841_game_end_bank 552 leaves the first-held 10 %)."""
    held = holder.shares_of(a) + holder.shares_of(b)
    return list(reversed(sorted(held, key=lambda s: s.percent)))


# -- the procedure -------------------------------------------------------------------------------
ANSWER_ORDERS: tuple[tuple[str, ...], ...] = (
    ("first", "pres", "full", "cash", "no"),
    ("last", "full", "pres", "cash", "no"),
    ("first", "cash", "no", "pres", "full"),
)
"""Ways of answering a merger's questions that :meth:`Merger.can_finish` tries, each a
preference order over the choices (price ``first``/``last``, exchange ``pres``/``full``/
``cash``/``no``)."""


@dataclass(frozen=True)
class ChoosingPrice:
    """The acting corporation (in the Tuscan merge the decider) chooses the new price
    (rules/1841.md 2.3.11: two majors above L.250 with different prices): ``cells`` the ids
    of the market cells, lower (``first``) to higher (``last``)."""

    cells: tuple[str, ...]


@dataclass(frozen=True)
class Exchanging:
    """An exchange pass of majors (rules/1841.md 2.3.11): the first (``second`` false) for
    holders of pairs, who may buy the president's certificate, the second for single shares.
    ``holders``: references (:func:`ref`) of everyone who exchanges, in order; ``todo``:
    those still to exchange in this pass, the first of whom is asked now what ``offered``
    lists."""

    second: bool
    holders: tuple[str, ...]
    todo: tuple[str, ...]
    offered: tuple[str, ...]

    def holder(self, game: ProcedureGame) -> Holder:
        """Who is asked now."""
        return deref(game, self.todo[0])


@dataclass(frozen=True)
class RemovingTokens:
    """Tokens of the two corporations leave the map (rules/1841.md 2.3.11; seed 000 item
    1.19): with ``two_city`` one of them on a two-city tile must go, and leaves its
    corporation for good; otherwise between ``least`` and ``most`` of those in ``hexes``,
    the target getting ``token_count`` tokens.  ``removed`` so far; ``duplicates``: the
    tokens the two had in the same places."""

    two_city: bool
    hexes: tuple[str, ...]
    least: int
    most: int
    removed: int = 0
    duplicates: int = 0
    token_count: int = 0

    def may_stop(self) -> bool:
        """Whether enough tokens are gone to stop (``pass``)."""
        return self.removed >= self.least


@dataclass(frozen=True)
class Judged:
    """A try on a light copy (:mod:`.trial`) ends here, its exchange judged: what follows
    only moves tokens on the board the copy shares, and never refuses.  Asks nothing."""


MergerStage = ChoosingPrice | Exchanging | RemovingTokens | Judged
"""Where a merger stands; ``None`` once it is done."""

DECIDING = (ChoosingPrice, Exchanging)
"""The stages whose answers can leave the merger unable to complete (tried on a copy)."""


@dataclass(frozen=True)
class Merging(Machine["ProcedureGame", MergerStage, moves.Move, Question]):
    """The rules of the merger of ``a`` (acting) and ``b`` into ``target`` (rules/1841.md
    2.3.11); ``decider`` (a reference) is the player in control of ``a``, or in the Tuscan
    merge (``tuscan``) its decider; ``tuscan_first``: the first of two Tuscan mergers (into
    the holding corporation), where the target gets four tokens and nobody removes any
    (2.4.2).  ``circular_before``: the corporations in a circular chain of control before
    the merger (a new one refuses it, seed 000 item 3.1)."""

    a: str
    b: str
    target: str
    decider: str
    tuscan: bool = False
    tuscan_first: bool = False
    circular_before: tuple[str, ...] = ()

    rule = RULE
    stages = (ChoosingPrice, Exchanging, RemovingTokens, Judged)

    # -- entities
    def corps(self, game: ProcedureGame) -> tuple[Corporation, Corporation, Corporation]:
        return game.corporation(self.a), game.corporation(self.b), game.corporation(self.target)

    def decider_player(self, game: ProcedureGame) -> Player:
        found = deref(game, self.decider)
        assert isinstance(found, Player)
        return found

    def total(self, game: ProcedureGame, holder: Holder) -> int:
        return holder.percent_of(self.a) + holder.percent_of(self.b)

    def target_pres(self, game: ProcedureGame) -> Share | None:
        target = game.corporation(self.target)
        return next((s for s in target.shares_of(target.sym) if s.president), None)

    def target_normal(self, game: ProcedureGame) -> list[Share]:
        target = game.corporation(self.target)
        return [s for s in target.shares_of(target.sym) if not s.president]

    def token_decider(self, game: ProcedureGame) -> Holder:
        """The target decides if a player controls it, else the decider (2.3.11)."""
        target = game.corporation(self.target)
        return target if controller(target) is not None else self.decider_player(game)

    # -- the machine
    def question(self, game: ProcedureGame, stage: MergerStage) -> Question | None:
        about: Facts = (("corporation", self.target), ("first", self.a), ("second", self.b))
        if isinstance(stage, ChoosingPrice):
            entity: Holder = self.decider_player(game) if self.tuscan else game.corporation(self.a)
            prices = {
                key: game.market.cell_by_id(stage.cells[index])
                for key, index in (("first", 0), ("last", -1))
            }
            return Question(
                entity, ("choose",), "price", RULE, ["first", "last"], facts=about,
                meanings={key: ("merger_price", (("corporation", self.target),
                                                 ("price", cell.price if cell else 0)))
                          for key, cell in prices.items()},
            )  # fmt: skip
        if isinstance(stage, Exchanging):
            holder = stage.holder(game)
            return Question(
                holder, ("choose",), "upgrade", RULE, list(stage.offered),
                facts=(*about, ("held", self.total(game, holder))),
                meanings=self.upgrade_meanings(game, holder),
            )  # fmt: skip
        if isinstance(stage, RemovingTokens):
            kinds = ("remove_token", "pass") if stage.may_stop() else ("remove_token",)
            removable = self.removable(game, stage)
            cities = [city for city, _ in removable]
            target: Facts = (("corporation", self.target),)
            meanings: dict[str | int, tuple[str, Facts]] = {
                c: city_meaning(game, "remove_token", self.target, c) for c in cities
            }
            meanings["pass"] = ("keep_tokens", target)
            return Question(
                self.token_decider(game),
                kinds,
                "remove_tokens",
                RULE,
                cities=cities,
                slots=[slot for _, slot in removable],
                facts=target,
                meanings=meanings,
            )
        return None

    def upgrade_meanings(
        self, game: ProcedureGame, holder: Holder
    ) -> dict[str | int, tuple[str, Facts]]:
        """What each exchange answer of ``holder`` does (rules/1841.md 2.3.11): ``pres``
        pays for the target's president's certificate, ``full`` pays half the price for a
        whole share, ``cash`` takes the cash for the odd old share, ``no`` (the first pass)
        leaves the presidency to the second pass."""
        target = game.corporation(self.target)
        price = target.share_price.price if target.share_price else 0
        about: Facts = (("corporation", self.target),)
        held = self.total(game, holder)
        if held > 10:  # the old shares go two for one; only the presidency is a choice
            swap: tuple[str, Facts] = ("exchange_shares", about)
            return {
                "pres": ("take_presidency", (*about, ("cost", pres_upgrade_cost(price, held)))),
                "full": swap, "cash": swap, "no": ("decline_presidency", about),
            }  # fmt: skip
        return {
            "pres": ("take_presidency", (*about, ("cost", pres_upgrade_cost(price, held)))),
            "full": ("take_full_share", (*about, ("cost", full_upgrade_cost(price)))),
            "cash": ("take_cash", (*about, ("cash", full_upgrade_cost(price)))),
            "no": ("decline_presidency", about),
        }

    def refusal(
        self, game: ProcedureGame, stage: MergerStage, answer: moves.Move
    ) -> IllegalAction | None:
        """Why ``answer`` does not answer ``stage`` at all (pure, no copy): a price or an
        exchange answer not offered, a removal of a token that is not the two corporations'
        or the last one not on a pass (rules/1841.md 2.3.11; seed 000 item 2.19), a stop
        before enough tokens are gone."""
        if isinstance(stage, ChoosingPrice | Exchanging):
            choice = moves.choice_of(answer)
            offered = ("first", "last") if isinstance(stage, ChoosingPrice) else stage.offered
            if choice not in offered:
                return IllegalAction(f"{choice!r} is not offered (choices: {offered})", RULE)
            return None
        if not isinstance(stage, RemovingTokens):
            return IllegalAction("the merger asks nothing now", RULE)
        if isinstance(answer, moves.RemoveToken):
            found = self.removal(game, stage, answer)
            return found if isinstance(found, IllegalAction) else None
        if answer.type == "pass":
            if not stage.may_stop():
                return IllegalAction(f"at least {stage.least} tokens must leave the map", RULE)
            return None
        return IllegalAction(f"{answer.type} does not answer the token removal", RULE)

    def verify(
        self, game: ProcedureGame, stage: MergerStage, answer: moves.Move
    ) -> IllegalAction | None:
        """:meth:`refusal`; then a price or exchange answer is tried on a light copy of the
        game (:mod:`.trial`): an exchange that ends without a president or with a new
        circular chain of control is refused (rules/1841.md 2.3.11, seed 000 items 3.1,
        3.6).  Not in the Tuscan merge, and not while a file is replayed
        (``game.policy.trial_copy`` off: a refusal then ends the replay, and
        ``stellwerk.api.Game.process`` rebuilds the engine from a checkpoint, so the
        half-changed game is never used)."""
        refused = self.refusal(game, stage, answer)
        if refused is not None or self.tuscan or not isinstance(stage, DECIDING):
            return refused
        if not game.policy.trial_copy:
            return None
        trial, _ = light_copy(game)
        try:
            self.advance(trial, stage, answer)
        except IllegalAction as found:
            return found
        return None

    def advance(
        self, game: ProcedureGame, stage: MergerStage, answer: moves.Move
    ) -> MergerStage | None:
        """The price starts the exchange; an exchange answer runs on to the next holder
        asked (or the tokens); a removal takes one token off the map, ``pass`` stops the
        removals.  A merger that cannot complete raises ``IllegalAction`` (only where
        :meth:`verify` did not try it on a copy)."""
        if isinstance(stage, ChoosingPrice):
            first = moves.choice_of(answer) == "first"
            cell = game.market.cell_by_id(stage.cells[0 if first else -1])
            assert cell is not None
            return self.start_exchange(game, cell)
        if isinstance(stage, Exchanging):
            self.exchange(game, stage.holder(game), str(moves.choice_of(answer)))
            return self.run_exchanges(game, stage.second, stage.holders, list(stage.todo[1:]))
        if not isinstance(stage, RemovingTokens):
            raise TypeError(f"the merger takes no answer in {stage}")
        if isinstance(answer, moves.RemoveToken):
            return self.remove_token(game, stage, answer)
        return self.finish_removals(game, stage)

    # -- start
    def begin(self, game: ProcedureGame) -> MergerStage | None:
        """The new price: a choice, or the exchange starts at once (rules/1841.md 2.3.11)."""
        a, b, _ = self.corps(game)
        prices = merger_prices(game, a, b)
        if len(prices) == 1:
            return self.start_exchange(game, prices[0])
        return ChoosingPrice(tuple(c.id for c in prices))

    # -- exchanges
    def start_exchange(self, game: ProcedureGame, cell: Cell) -> MergerStage | None:
        a, b, target = self.corps(game)
        start_target(game, target, cell)
        decider = self.decider_player(game)
        everyone = exchange_holders(game, a, b, decider, 10)
        holders = tuple(ref(h) for h in everyone)
        pairs = [ref(h) for h in everyone if self.total(game, h) >= 20]
        move_assets(game, a, b, target)
        move_assets(game, b, a, target)
        if is_major(game, a):
            return self.run_exchanges(game, False, holders, pairs)
        self.minor_exchange(game, pairs)
        return self.tokens_start(game)

    def run_exchanges(
        self, game: ProcedureGame, second: bool, holders: tuple[str, ...], todo: list[str]
    ) -> MergerStage | None:
        """Exchange automatically until a holder must be asked (or the passes are over)."""
        target = game.corporation(self.target)
        price = target.share_price.price if target.share_price else 0
        while True:
            if not todo:
                if not second:
                    second = True
                    todo = [n for n in holders if self.total(game, deref(game, n)) >= 10]
                    continue
                return self.tokens_start(game)
            holder = deref(game, todo[0])
            tp = self.total(game, holder)
            pres = self.target_pres(game)
            if not second:
                if (
                    tp >= 40
                    or pres is None
                    or not isinstance(holder, Player)
                    or holder.cash < pres_upgrade_cost(price, tp)
                ):
                    self.exchange(game, deref(game, todo.pop(0)), "no")
                    continue
                return Exchanging(second, holders, tuple(todo), ("pres", "no"))
            options = ["cash"]
            has_player = controller(holder) is not None
            if isinstance(holder, Player) and pres and holder.cash >= pres_upgrade_cost(price, tp):
                options.append("pres")
            affordable = holder.cash >= full_upgrade_cost(price)
            if has_player and self.target_normal(game) and affordable:
                options.append("full")
            if (
                has_player
                and not self.target_normal(game)
                and pres is not None
                and holder.shares_of(self.target)
                and affordable
                and "full" not in options
            ):
                options.append("full")
            if len(options) == 1:
                self.exchange(game, deref(game, todo.pop(0)), options[0])
                continue
            return Exchanging(second, holders, tuple(todo), tuple(options))

    def exchange(self, game: ProcedureGame, holder: Holder, answer: str) -> None:
        """One holder's exchange (rules/1841.md 2.3.11; seed 000 item 3.6)."""
        _, _, target = self.corps(game)
        price = target.share_price.price if target.share_price else 0
        old = old_shares(holder, self.a, self.b)
        tp = sum(s.percent for s in old)
        if tp > 10:
            if answer == "pres":
                for share in old:
                    return_to_ipo(share, game)
                pres = self.target_pres(game)
                assert pres is not None
                transfer(holder, target, pres_upgrade_cost(price, tp), RULE)
                transfer_certificates(game, [pres], holder)
                return
            while self.total(game, holder) > 10:
                first = old.pop(0)
                return_to_ipo(first, game)
                if first.percent < 20:
                    return_to_ipo(old.pop(0), game)
                normal = self.target_normal(game)
                pres = self.target_pres(game)
                mine = holder.shares_of(self.target)
                if normal:
                    transfer_certificates(game, [normal[0]], holder)
                elif pres is not None and mine:
                    transfer_certificates(game, [mine[0]], target)
                    transfer_certificates(game, [pres], holder)
                elif not isinstance(holder, SharePool):
                    transfer(game.bank, holder, price, RULE)
            return
        if len(old) != 1:
            raise IllegalAction("inconsistent share count in the exchange", RULE)
        return_to_ipo(old[0], game)
        pres = self.target_pres(game)
        normal = self.target_normal(game)
        cost = full_upgrade_cost(price)
        if answer == "pres":
            assert pres is not None
            transfer(holder, target, pres_upgrade_cost(price, tp), RULE)
            transfer_certificates(game, [pres], holder)
        elif answer == "full":
            transfer(holder, target, cost, RULE)
            if normal:
                transfer_certificates(game, [normal[0]], holder)
            else:
                assert pres is not None
                transfer_certificates(game, [holder.shares_of(self.target)[0]], target)
                transfer_certificates(game, [pres], holder)
        elif not isinstance(holder, SharePool):
            transfer(game.bank, holder, cost, RULE)

    def minor_exchange(self, game: ProcedureGame, names: list[str]) -> None:
        """Minors exchange automatically: a 40 % certificate for the president's certificate
        while it is free, else two shares; a 20 % share for one (rules/1841.md 2.3.11)."""
        for name in names:
            holder = deref(game, name)
            for share in old_shares(holder, self.a, self.b):
                pres = self.target_pres(game)
                normal = self.target_normal(game)
                return_to_ipo(share, game)
                if pres is not None and share.percent > 20:
                    transfer_certificates(game, [pres], holder)
                elif share.percent > 20:
                    if len(normal) < 2:
                        raise IllegalAction("not enough shares for the exchange", RULE)
                    transfer_certificates(game, [normal[0]], holder)
                    transfer_certificates(game, [normal[1]], holder)
                else:
                    if not normal:
                        raise IllegalAction("not enough shares for the exchange", RULE)
                    transfer_certificates(game, [normal[0]], holder)

    # -- after the exchange: president, circularity, tokens
    def tokens_start(self, game: ProcedureGame) -> MergerStage | None:
        """The exchange is over: a merger without a president or with a new circular chain
        is refused (``IllegalAction``; in the Tuscan merge the pool takes the president's
        certificate); duplicates leave the map; on a two-city tile one token must go."""
        a, b, target = self.corps(game)
        # the exchange is over: 18xx.games brings the frozen states up to date here, held
        # ones too (``Game1841.frozen_held``; they are, after this action)
        game.frozen_held = False
        pres = self.target_pres(game)
        if pres is not None:
            if not self.tuscan:
                raise IllegalAction(
                    f"nobody becomes president of {target.sym}: the merger is not allowed",
                    "rules/1841.md 2.3.11 (seed 000 item 3.6)",
                )
            for share in list(game.pool.shares_of(target.sym))[:2]:
                transfer_certificates(game, [share], target, allow_president_change=False)
            transfer_certificates(game, [pres], game.pool)
        if not self.tuscan:
            new = [
                c.sym
                for c in game.corporations
                if c.ipoed and is_circular(c) and c.sym not in self.circular_before
            ]
            if new and loops_forbidden(game):
                raise IllegalAction(
                    f"the merger makes a circular chain of control ({', '.join(new)})",
                    "rules/1841.md 2.3.11 (seed 000 item 3.1)",
                )
            if is_frozen(game, target):
                raise IllegalAction(
                    f"{target.sym} would have no president: the merger is not allowed",
                    "rules/1841.md 2.3.11 (seed 000 item 3.6)",
                )
        if game.shares_board:
            # a try on a light copy (:mod:`.trial`) ends here: what follows only moves tokens
            # and never refuses, and the board is the game's own
            return Judged()
        board = game.map.board
        duplicates = 0
        for state in board.hexes.values():
            for city in state.cities:
                if a.sym in city.tokens and b.sym in city.tokens:
                    city.tokens[city.tokens.index(b.sym)] = None
                    board.version += 1
                    duplicates += 1
        for hid in board.token_hexes(b.sym):
            if board.hexes[hid].has_token(a.sym):
                return RemovingTokens(True, (hid,), 1, 1, 0, duplicates + 1)
        return self.tokens_finish(game, duplicates)

    def tokens_finish(self, game: ProcedureGame, duplicates: int) -> MergerStage | None:
        """How many tokens the target gets and how many map tokens must or may go (2.3.11;
        seed 000 item 1.19; Tuscan merge 2.4.2)."""
        a, b, target = self.corps(game)
        board = game.map.board
        if self.tuscan and self.tuscan_first:
            self.finish(game, 4)
            return None
        hexes = board.token_hexes(a.sym) + board.token_hexes(b.sym)
        on_map = len(hexes)
        if self.tuscan:
            keep = [h for h in hexes if h in TUSCAN_TOKEN_HEXES]
            hexes = [h for h in hexes if h not in TUSCAN_TOKEN_HEXES]
            token_count = MAX_TOKENS
            on_map -= len(keep)
            most = on_map
            least = max(on_map - (MAX_TOKENS - len(keep)), 0)
            if controller(target) is None:
                drop = list(hexes)
                if not keep:
                    cities = [h for h in hexes if not is_pass_hex(game, h)]
                    if cities:
                        first = min(cities, key=lambda h: board.hexes[h].spec.location or h)
                        drop.remove(first)
                for hid in drop:
                    if not board.remove_corp_token(hid, a.sym):
                        board.remove_corp_token(hid, b.sym)
                self.finish(game, token_count)
                return None
        else:
            total = a.num_tokens + b.num_tokens - duplicates
            token_count = min(total, MAX_TOKENS)
            unplaced = total - on_map
            max_unplaced = min(unplaced, token_count - 1)
            min_unplaced = max(token_count - on_map, 0)
            least = on_map - (token_count - min_unplaced)
            most = on_map - (token_count - max_unplaced)
        if most > 0:
            return RemovingTokens(
                False, tuple(sorted(set(hexes))), least, most, 0, duplicates, token_count
            )
        self.finish(game, token_count)
        return None

    def removable(self, game: ProcedureGame, stage: RemovingTokens) -> list[tuple[str, int]]:
        """(city id, slot) of each token of the two merging corporations that may go: never
        the last one not on a pass (:meth:`refusal` refuses it, as 18xx.games does; its
        interface shows it all the same, a live list does not -- a selfplay game, seed 9,
        action 766)."""
        board = game.map.board
        railheads = self.railhead_hexes(game)
        out = []
        for hid in stage.hexes:
            if railheads == [hid]:
                continue
            for index, city in enumerate(board.hexes[hid].cities):
                for slot, sym in enumerate(city.tokens):
                    if sym in (self.a, self.b):
                        out.append((board.city_id(hid, index), slot))
        return out

    def railhead_hexes(self, game: ProcedureGame) -> list[str]:
        """The hexes of the two corporations' tokens on the map that are not on a pass
        (rules/1841.md 2.3.11; seed 000 item 2.19)."""
        board = game.map.board
        return [
            h
            for corp in (self.a, self.b)
            for h in board.token_hexes(corp)
            if not is_pass_hex(game, h)
        ]

    def removal(
        self, game: ProcedureGame, stage: RemovingTokens, action: moves.RemoveToken
    ) -> tuple[str, int, str] | IllegalAction:
        """The token ``action`` removes -- (hex, city index, its corporation) -- or why it
        may not go: ``slot`` names the token (it must be one of the two corporations', as
        18xx.games checks; without one, theirs in the city), in a hex of the removal, never
        the last non-pass one (2.3.11; seed 000 item 2.19); a city not on the map is
        refused too.  Changes nothing and raises nothing."""
        board = game.map.board
        city_id, slot = action.city, action.slot
        try:
            hid, index = board.resolve_city(city_id)
        except IllegalAction as refused:
            return refused
        city = board.hexes[hid].cities[index]
        if slot is None:
            sym = self.a if self.a in city.tokens else self.b if self.b in city.tokens else None
        else:
            sym = city.tokens[slot] if 0 <= slot < len(city.tokens) else None
            if sym is not None and sym not in (self.a, self.b):
                return IllegalAction(f"the token in slot {slot} of {city_id} is {sym}'s", RULE)
        if sym is None or hid not in stage.hexes:
            return IllegalAction(f"no token of {self.a} or {self.b} to remove in {city_id}", RULE)
        if self.railhead_hexes(game) == [hid]:
            return IllegalAction("the last non-pass token cannot be removed", RULE)
        return hid, index, sym

    def remove_token(
        self, game: ProcedureGame, stage: RemovingTokens, action: moves.RemoveToken
    ) -> MergerStage | None:
        """One token leaves the map (:meth:`removal`); after the last that may go, the
        removals end."""
        found = self.removal(game, stage, action)
        if isinstance(found, IllegalAction):
            raise found
        hid, index, sym = found
        board = game.map.board
        city = board.hexes[hid].cities[index]
        city.tokens[city.tokens.index(sym)] = None
        board.version += 1
        if stage.two_city:
            # the token leaves its corporation for good (18xx.games destroys it)
            game.corporation(sym).num_tokens -= 1
        after = dataclasses.replace(stage, removed=stage.removed + 1)
        if after.removed >= after.most:
            return self.finish_removals(game, after)
        return after

    def finish_removals(self, game: ProcedureGame, stage: RemovingTokens) -> MergerStage | None:
        if stage.two_city:
            return self.tokens_finish(game, stage.duplicates)
        self.finish(game, stage.token_count)
        return None

    def finish(self, game: ProcedureGame, token_count: int) -> None:
        """The target's tokens (``token_count`` in all) replace the old ones on the map; the
        old corporations close or restart; all three are done for this operating round
        (2.3.11)."""
        a, b, target = self.corps(game)
        board = game.map.board
        if token_count > 2:
            target.num_tokens = max(target.num_tokens, 2) + token_count - 2
        token_order.adopt(game, target, [a, b])
        for state in board.hexes.values():
            for city in state.cities:
                for i, sym in enumerate(city.tokens):
                    if sym in (a.sym, b.sym):
                        city.tokens[i] = target.sym
        board.version += 1
        # the networks change with the tokens: both graphs start afresh (18xx.games clears
        # its graph and region graph here; a kept region graph left a slot the merger's
        # duplicate removal freed unseen: our selfplay game lite+trades+SFLi variant+first
        # edition, 4 players, seed 31031, CGTF's token at action 1458)
        game.map.region_graph.clear()
        game.map.graph.clear()
        restart_corporation(game, a)
        restart_corporation(game, b)
        hold_frozen_after_restart(game, (a, b))
        for corp in (a, b, target):
            mark_done(game, corp)
        price = target.share_price.price if target.share_price is not None else 0
        game.journal.append(journal.Merged(a.sym, b.sym, target.sym, price))


@dataclass
class Merger(OnMachine[MergerStage]):
    """A merger under way (rules/1841.md 2.3.11): its rules (:class:`Merging`) and where it
    stands (:data:`MergerStage`, ``None`` once done)."""

    machine: Merging
    stage: MergerStage | None

    rule = RULE

    @property
    def a(self) -> str:
        """The acting corporation."""
        return self.machine.a

    @property
    def b(self) -> str:
        """Its partner."""
        return self.machine.b

    @property
    def target(self) -> str:
        """The new corporation."""
        return self.machine.target

    def deciding(self) -> bool:
        """Whether a price or exchange question is asked now (answers that may leave the
        merger unable to complete)."""
        return isinstance(self.stage, DECIDING)

    def choosing_price(self) -> bool:
        """Whether the price is asked now."""
        return isinstance(self.stage, ChoosingPrice)

    def in_first_pass(self) -> bool:
        """Whether the first exchange pass (pairs, the presidency) asks now."""
        return isinstance(self.stage, Exchanging) and not self.stage.second

    def removing_tokens(self) -> bool:
        """Whether tokens are asked to leave the map now."""
        return isinstance(self.stage, RemovingTokens)

    def judged(self) -> bool:
        """Whether a try on a light copy ended here, its exchange judged (:class:`Judged`)."""
        return isinstance(self.stage, Judged)

    def disallowed(self, game: ProcedureGame, action: moves.Move) -> IllegalAction:
        """An exchange answer after which the merger cannot complete: no president, or a
        circular chain (seed 000 items 3.6, 3.1; :func:`incomplete`); another stage's answer
        gets the machine's refusal."""
        if not self.deciding():
            return super().disallowed(game, action)
        a, b, _ = self.machine.corps(game)
        return incomplete(game, a, b)

    def allows(self, game: ProcedureGame, action: moves.Move) -> bool:
        """Whether an answer of the price or exchange stage lets the merger complete (tried
        on a copy, as :meth:`Merging.verify` checks it): an answer that leaves the new
        corporation without a president or makes a circular chain is not allowed
        (rules/1841.md 2.3.11, seed 000 items 3.1, 3.6), so :class:`~.decisions.Decisions`
        does not list it.  Another stage's answer (a token to remove) is allowed when the
        machine's verify takes it; in the Tuscan merge every listed answer is."""
        if not self.deciding():
            return super().allows(game, action)
        if self.machine.tuscan:
            return True
        trial, _ = light_copy(game)
        twin = Merger(self.machine, self.stage)
        try:
            twin.take(trial, action)
        except IllegalAction:
            return False
        return twin.can_finish(trial)

    def take(self, game: ProcedureGame, action: moves.Move) -> None:
        """Take ``action`` on a copy being tried: checked as an answer
        (:meth:`Merging.refusal`), not tried on a further copy; a merger that cannot
        complete raises ``IllegalAction`` with the copy used up."""
        if self.stage is None:
            raise IllegalAction("the merger asks nothing now", RULE)
        refused = self.machine.refusal(game, self.stage, action)
        if refused is not None:
            raise refused
        self.stage = self.machine.advance(game, self.stage, action)

    def can_finish(self, game: ProcedureGame) -> bool:
        """Whether some answers to the rest of the price and exchange questions let the
        merger complete (rules/1841.md 2.3.11, seed 000 item 3.6: without a president it is
        not allowed, and 18xx.games then can only be undone).  Tries a few ways of answering
        (:data:`ANSWER_ORDERS`), each on its own copy; ``game`` itself may be used up by the
        last try.  A way missed by all of them is not listed (a rare, safe omission)."""
        if not self.deciding():
            return True
        for number, order in enumerate(ANSWER_ORDERS):
            last = number == len(ANSWER_ORDERS) - 1
            trial = game if last else light_copy(game)[0]
            if Merger(self.machine, self.stage).answer_through(trial, order):
                return True
        return False

    def answer_through(self, game: ProcedureGame, order: tuple[str, ...]) -> bool:
        """Answer every price and exchange question by the first of ``order`` offered
        (:meth:`take`); whether the merger gets past them without a refusal."""
        try:
            while self.stage is not None and self.deciding():
                asked = self.machine.question(game, self.stage)
                assert asked is not None
                choice = next((c for c in order if c in asked.choices), asked.choices[0])
                self.take(game, moves.Choose(entity=self.target, choice=choice))
        except IllegalAction:
            return False
        return True


def hold_frozen_after_restart(game: ProcedureGame, restarted: Sequence[Corporation]) -> None:
    """18xx.games brings the frozen states (rules/1841.md 2.3.9, 2.3.10) up to date once a
    merger's exchanges are over (:meth:`Merging.tokens_start`), not after the old corporations
    restart at its end.  By the rules no started corporation is presided by a merged one then
    (its certificates went to the new corporation), but a minor whose transformation never
    completed (:func:`.stock.stall_token_purchases`) still names its old president: when that
    one merges and restarts, 18xx.games leaves the minor's state as it was until its next
    update, and the minor has an ordinary turn, not a frozen one (its random game of the lite
    map with the SFLi variant, 6 players, seed 75506: CTLP, stalled in its transformation into
    AFI, after RSFS merged into RATF, action 619).  So the states are held
    (``Game1841.frozen_held``) when a started corporation is presided by a restarted one,
    unless the settings bring them up to date at once
    (:attr:`.Settings1841.transformation_updates_frozen`)."""
    if game.settings.transformation_updates_frozen:
        return
    if any(c.ipoed and any(c.owner is r for r in restarted) for c in game.corporations):
        game.frozen_held = True


def begin(
    game: ProcedureGame,
    a: Corporation,
    b: Corporation,
    target: Corporation,
    decider: str,
    tuscan: bool = False,
    tuscan_first: bool = False,
) -> Merger:
    """Begin the merger of ``a`` and ``b`` into ``target`` without checking it first (the
    Tuscan merge's, :mod:`.tuscan`, and the tries on a copy); it runs to its first question
    or its end (a merger that cannot complete raises ``IllegalAction``)."""
    circular = tuple(c.sym for c in game.corporations if c.ipoed and is_circular(c))
    machine = Merging(a.sym, b.sym, target.sym, decider, tuscan, tuscan_first, circular)
    return Merger(machine, machine.begin(game))


def start_merger(
    game: ProcedureGame, a: Corporation, b: Corporation, target: Corporation
) -> Merger:
    """The acting corporation ``a`` merges with ``b`` into ``target`` (rules/1841.md 2.3.11):
    checked (partner, target) and begun; the caller queues it.

    The start is checked first on a light copy (an illegal merger changes nothing); not while
    a file is replayed (``game.policy.trial_copy`` off): a refusal then ends the replay and
    ``stellwerk.api.Game.process`` rebuilds the engine from a checkpoint, so the
    half-changed game is never used (a copy cost most of a merger's replay time)."""
    if game.specs[a.sym].type != game.specs[b.sym].type:
        raise IllegalAction(f"{b.sym} is not of {a.sym}'s type", RULE_TYPE)
    if not mergeable(game, a) or not mergeable(game, b):
        refused = not_mergeable(game, a) or not_mergeable(game, b)
        raise refused or IllegalAction(f"{a.sym} and {b.sym} may not merge", RULE)
    if not merge_target(game, target):
        raise IllegalAction(f"{target.sym} is not available to merge into", RULE_TARGET)
    decider = controller(a)
    if decider is None:
        raise IllegalAction(f"{a.sym} has no player in control", RULE)
    if game.policy.trial_copy:
        trial, _ = light_copy(game)
        ta, tb, tt = (trial.corporation(c.sym) for c in (a, b, target))
        begin(trial, ta, tb, tt, ref(decider))
    return begin(game, a, b, target, ref(decider))


def can_begin(game: ProcedureGame, a: Corporation, b: Corporation, target: Corporation) -> bool:
    """Whether ``a`` and ``b`` may begin a merger into ``target`` (:func:`start_merger` on a
    copy of the game does not refuse it): a minor merger that leaves nobody president is
    refused at once (rules/1841.md 2.3.11, seed 000 item 3.6); a merger of majors only if
    some exchange answers let it complete (:meth:`Merger.can_finish`)."""
    decider = controller(a)
    if decider is None:
        return False
    trial, _ = light_copy(game)
    try:
        # start_merger's checks and begin, on one copy (begin would copy it again)
        ta, tb, tt = (trial.corporation(s) for s in (a.sym, b.sym, target.sym))
        if game.specs[a.sym].type != game.specs[b.sym].type:
            return False
        if not (mergeable(trial, ta) and mergeable(trial, tb) and merge_target(trial, tt)):
            return False
        started = begin(trial, ta, tb, tt, ref(decider))
    except IllegalAction:
        return False
    return started.can_finish(trial)


def describe(holder: object) -> str:
    return str(getattr(holder, "sym", None) or getattr(holder, "id", None) or holder)
