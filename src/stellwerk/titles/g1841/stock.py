"""1841's stock round (rules/1841.md 2.2): who may start which corporation at which prices,
the extra IPO purchases after a major's start, buying (IPO, pool, a president's certificate
from the pool, concessions from the bank, with player-to-player purchases from other players) and
selling under 1841's limits (60 % counted over controlled corporations, certificate limit,
operated corporations only, 50 % pool, dumps, frozen historical presidencies, no circular
control), forced sales, and the end of the round (2.2.2).  The start of a corporation (home
tokens, token purchase) is :mod:`.start`'s."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol

from stellwerk.core import moves
from stellwerk.core.entities import Company, Corporation, Entity, Holder, Player, Share, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.events import Event, SharesBought, SharesSold, ref
from stellwerk.core.flow.base import (
    Action,
    Round,
    act,
    any_action_blocks,
    remembered,
    remembered_tests,
)
from stellwerk.core.flow.rounds import StockRound
from stellwerk.core.flow.stock import (
    BuySellParShares,
    bundle_from_action,
    share_turn_tests,
    turn_menu,
)
from stellwerk.core.market import Cell
from stellwerk.core.shares import Bundle
from stellwerk.titles.g1841 import journal
from stellwerk.titles.g1841.decisions import Decisions, ProcedureGame
from stellwerk.titles.g1841.ownership import (
    RULE_CIRCLE,
    circle_refused,
    frozen,
    historical,
    move_bundle,
    move_bundle_between_players,
    phase_number,
    pool_president_buyable,
    presidency_may_change,
)
from stellwerk.titles.g1841.start import (
    CorporationStart,
    begin_start,
    has_home_city,
    printed_home_city,
)

if TYPE_CHECKING:
    from stellwerk.core.game import Game
    from stellwerk.titles.g1841.decisions import DecidingGame
    from stellwerk.titles.g1841.ports import Charters

RULE = "rules/1841.md 2.2.1"

BAYARD_PAYS = 20
"""What the concession without a corporation pays its owner at the end of every stock round
(rules/1841.md 1.2, 2.2.2)."""

EXTRA_BUYS_BELOW = 40
"""After starting a major its president may buy more IPO shares of it in the same turn while
he holds less than this percentage (rules/1841.md 2.2.1)."""

NON_HISTORICAL_FROM_PHASE = 3
"""Non-historical corporations may start from phase 3 (rules/1841.md 1.3, 2.2.1)."""

CONCESSIONS_UNTIL_PHASE = 4
"""Historical corporations need their concession before phase 4 (rules/1841.md 2.2.1)."""


def new_stock_round(game: Game) -> Round[Entity]:
    """The stock round's steps (rules/1841.md 2.2): the start of a corporation first (home
    tokens, token purchase: the questions of :mod:`.start`'s procedure), then the player's
    turn."""
    return StockRound1841(game, [Decisions, Shares1841])


def concession_of(game: Charters, corp: Corporation) -> Company | None:
    """The concession that entitles its owner to start ``corp`` (rules/1841.md 1.2)."""
    found = game.data.concession_for(corp.sym)
    return game.company(found.sym) if found is not None else None


def corporation_of(game: StockGame, company: Company) -> Corporation | None:
    """The corporation a concession entitles to start (none for Bayard; rules/1841.md 1.2)."""
    found = game.data.company_by_sym(company.sym)
    if found is None:
        raise KeyError(f"no concession {company.sym}")
    sym = found.corporation
    return game.corporation_or_none(sym) if sym is not None else None


def startable(game: StockGame, corp: Corporation) -> bool:
    """A historical corporation that a concession or a par may start: those the data marks
    startable, and those formed in the game -- SB/SFV and SFL once the secession has begun,
    SFLi once the Tuscan merge has begun (rules/1841.md 2.4.1, 2.4.2; 18xx.games marks them
    startable then).  Live play keeps to the data (rules/1841.md 2.2.1: these corporations
    are formed by the events, never started by a par); the formed ones count only in a
    replay (``game.policy.printed_starts`` off), where a closed one may be started
    (:func:`reopen_on_replay`)."""
    if game.specs[corp.sym].startable:
        return True
    if game.policy.printed_starts:
        return False
    return corp.sym in formed_in_game(game)


@dataclass
class FormedSeen:
    """What :func:`formed_in_game` has read of the game's journal (typed state of the game,
    ``Game1841.formed_seen``, copied and saved with it): how many events, the last of them
    (to notice a journal cut back and grown again, as a tried share move does), and the
    corporations they formed."""

    read: int = 0
    last: Event | None = None
    formed: frozenset[str] = frozenset()


class StockGame(ProcedureGame, Protocol):
    """What the long procedures use of the game, with what the journal told of formed
    corporations (:attr:`formed_seen`) and whether a corporation has floated: what this
    module uses of the game (rules/1841.md 2.2)."""

    @property
    def formed_seen(self) -> FormedSeen: ...

    def is_floated(self, corp: Corporation) -> bool: ...


if TYPE_CHECKING:

    class StockStepGame(DecidingGame, StockGame):
        """The game of this module's steps (see :class:`.decisions.DecidingGame`): only a
        name for type checking."""


def formed_in_game(game: StockGame) -> frozenset[str]:
    """The corporations formed in the game so far: SB and SFV by the secession, SFLi by the
    Tuscan merge (rules/1841.md 2.4.1, 2.4.2), as the journal tells.  The journal only grows,
    so only the events since the last call are read (:func:`startable` asks after every
    stock action); a journal that is shorter, or has another event where the last read one
    was, is read again from its start."""
    events = game.journal
    seen = game.formed_seen
    if seen.read > len(events) or (seen.read and events[seen.read - 1] != seen.last):
        seen.read, seen.last, seen.formed = 0, None, frozenset()
    if seen.read == len(events):
        return seen.formed
    new: set[str] = set()
    for event in events[seen.read :]:
        if isinstance(event, journal.Seceded):
            new.update((event.a, event.b))
        elif isinstance(event, journal.TuscanMergeStarted):
            new.add(event.formed)
    if new:
        seen.formed = seen.formed | new
    seen.read, seen.last = len(events), events[-1]
    return seen.formed


def formed_startable(game: StockGame, corp: Corporation) -> bool:
    """A corporation the events formed (SB/SFV and SFL once the secession has begun, SFLi
    once the Tuscan merge has begun), which 18xx.games marks startable from then on
    (rules/1841.md 2.4.1, 2.4.2; :func:`formed_in_game`)."""
    return corp.sym in formed_in_game(game)


def can_par(game: StockGame, corp: Corporation, player: Player | None = None) -> bool:
    """Historical corporations start only by the owner of their concession before phase 4;
    non-historical ones from phase 3 by anyone (rules/1841.md 2.2.1), and only while some city
    could take their home token (2.2.3: a corporation starts by placing it; 18xx.games lets
    the par through and then waits for a token nobody can place, which a replay follows).
    Without ``player``: whether someone may start it.

    A closed historical corporation may not be started (2.2.1, 2.4 item 1) -- except in a
    replay (``game.policy.printed_starts`` off): 18xx.games' ``can_par?`` never looks at
    ``closed`` and its interface offers such starts, so real files contain them.  This is a
    reference-engine deviation kept only so that those files replay faithfully (see
    :func:`reopen_on_replay` and ``stellwerk.api``); live play refuses it."""
    if corp.ipoed or (corp.closed and game.policy.printed_starts):
        return False
    spec = game.specs[corp.sym]
    phase = phase_number(game)
    if not spec.historical:
        # a replay takes 18xx.games' par without a city for the home token: that game then
        # waits for the token for good (a random game of its engine ends so)
        return phase >= NON_HISTORICAL_FROM_PHASE and (
            not game.policy.printed_starts or has_home_city(game, corp)
        )
    if not startable(game, corp):
        return False
    if phase >= CONCESSIONS_UNTIL_PHASE:
        return True
    concession = concession_of(game, corp)
    if concession is None or not isinstance(concession.owner, Player):
        return False
    return player is None or concession.owner is player


def reopened_price(game: StockGame, bundle: Bundle) -> int:
    """What a certificate of a closed corporation costs in 18xx.games: a corporation without a
    price sells at the market's least par price a share, whatever par was named."""
    lowest = par_cells(game)[-1].price  # the cells come highest price first
    return lowest * bundle.percent // bundle.corporation.share_unit


def certificate_price(game: StockGame, bundle: Bundle) -> int:
    """What ``bundle`` costs from a treasury or the pool: its price, or for a reopened closed
    corporation (replay only) :func:`reopened_price`."""
    return reopened_price(game, bundle) if bundle.corporation.closed else bundle.price


def reopen_on_replay(game: StockGame, buyer: Holder, corp: Corporation) -> None:
    """A replayed start of a closed corporation, as 18xx.games has it (a reference-engine
    deviation kept for faithful replays; live play refuses it, rules/1841.md 2.2.1, 2.4
    item 1).  18xx.games' par of a closed corporation buys the first certificate in its
    treasury (:func:`reopened_price`), paid to the corporation, which stays closed and
    without a price (it becomes ipoed, with a president, only if that certificate is the
    president's).  The turn counts it as a start: the buyer may buy more of its treasury
    certificates while below 40 %, and when the buying is over its printed home tokens are
    placed, its token purchase never asked (:func:`reopened_homes`,
    :func:`stall_token_purchases`)."""
    bundle = Bundle.of([corp.treasury_shares()[0]], corp)
    price = reopened_price(game, bundle)
    if buyer.cash < price:
        raise IllegalAction(f"{buyer.name} cannot pay L.{price}", RULE)
    buy_bundle(game, buyer, bundle, price)
    corp.share_price = None
    corp.par_price = None


def reopened_homes(game: StockGame, corp: Corporation) -> None:
    """The end of a turn that reopened ``corp`` (:func:`reopen_on_replay`): its printed home
    tokens go on the map where there is room (18xx.games places a historical corporation's
    home tokens after its start; a closed one is offered no token purchase), each into the
    city :func:`printed_home_city` finds (an upgrade may have joined the printed cities).  A
    home whose city the corporation chooses (SFMA of the second edition) is left unplaced:
    18xx.games drops that question of a closed corporation at once
    (:func:`stall_token_purchases`).  No room: a clear refusal."""
    board = game.map.board
    for hid, printed in game.specs[corp.sym].homes:
        if printed < 0:
            continue
        board.place_token_at(hid, printed_home_city(game, corp, hid, printed), corp.sym)
    stall_token_purchases(game, corp)


def stall_token_purchases(game: StockGame, corp: Corporation) -> None:
    """After a replayed start of a closed historical corporation 18xx.games queues its token
    purchase like any start's, but never asks it: the question waits for a corporation that
    is closed, and it stays at the head of the round's queue of token purchases, so every later
    one of the round (a start's, a transformation's required token, the secession's) is never
    asked either.  The procedures reaching that point stop there: a transformation is then
    never completed (the minor is not restarted and neither is done for the round), a
    secession never ends.  A reference-engine deviation kept for faithful replays (only a
    replay reopens a closed corporation, :func:`reopen_on_replay`); the next round's queue
    starts empty (``Game1841.new_stock_round``/``new_operating_round``).  A historical
    corporation whose home city is chosen (SFMA of the second edition) is asked for that city
    first in 18xx.games, and its home-token step, finding nothing a closed corporation could
    do, passes the question at once and drops it: no home token, no purchase, nothing waits
    (random game 3 players seed 112)."""
    if not historical(game, corp) or any(city < 0 for _, city in game.specs[corp.sym].homes):
        return
    if game.stalled_token_purchase is None:
        game.stalled_token_purchase = corp.sym


def par_cells(game: StockGame, corp: Corporation | None = None) -> list[Cell]:
    """Par prices: 68, 100, 144 for all, 216 and 340 for majors only (rules/1841.md 1.2
    "Stock market", 2.2.1)."""
    if corp is not None and game.specs[corp.sym].type == "minor":
        return game.market.cells_with_type({"p"})
    return game.market.cells_with_type({"p", "x"})


# -- moving certificates and money -------------------------------------------------------------


def buy_bundle(
    game: StockGame,
    buyer: Holder,
    bundle: Bundle,
    price: int | None = None,
) -> None:
    """``buyer`` pays for ``bundle`` -- to the corporation for its IPO certificates, to a
    player for his, else to the bank -- and takes it; before phase 4 a historical
    corporation's presidency stays where it is; a president's certificate from the pool makes
    the buyer president (rules/1841.md 2.2.1, 4.3).  The journal tells the purchase with its
    price and source (``SharesBought``)."""
    corp = bundle.corporation
    was_floated = corp.floated
    owner = bundle.owner
    cost = bundle.price if price is None else price
    if bundle.presidents_share is not None:
        corp.ipoed = True
    if cost:
        receiver: Holder = owner if isinstance(owner, (Corporation, Player)) else game.bank
        transfer(buyer, receiver, cost, RULE)
    president = bundle.presidents_share is not None
    game.journal.append(
        SharesBought(ref(buyer), corp.sym, bundle.percent, ref(owner), cost, president)
    )
    may_change = presidency_may_change(game, corp)
    if (
        may_change
        and bundle.presidents_share is not None
        and isinstance(owner, Player)
        and isinstance(buyer, Player)
    ):
        move_bundle_between_players(game, bundle, buyer)
    else:
        move_bundle(game, bundle, buyer, may_change)
    if not was_floated and game.is_floated(corp):
        corp.floated = True


def sell_bundle(game: StockGame, bundle: Bundle, drop: bool = True) -> None:
    """Sell ``bundle`` to the pool at the current price; the price drops a row per share
    (minor and major president certificates count 2) unless ``drop`` is off (a corporation's
    sale of others' shares under seed 003 H2); before phase 4 a historical corporation's
    presidency stays (rules/1841.md 2.2.1, 2.3.8).  The journal tells the sale with its price
    (``SharesSold``)."""
    corp = bundle.corporation
    transfer(game.bank, bundle.owner, bundle.price, RULE)
    game.journal.append(SharesSold(ref(bundle.owner), corp.sym, bundle.percent, bundle.price))
    move_bundle(game, bundle, game.pool, presidency_may_change(game, corp))
    if drop:
        game.move_price(corp, "down", _rows(bundle))


def sell_dropping(
    game: StockGame, bundle: Bundle, pending: list[tuple[str, int]], drop: bool = True
) -> None:
    """Sell ``bundle`` (:func:`sell_bundle`); with seed 000 item 2.2
    (``sale_drop_order`` reverse operating order) its price drop waits in ``pending`` until
    the seller's sales are over (:func:`settle_drops`)."""
    if game.settings.sale_drop_order != "reverse_operating_order":
        sell_bundle(game, bundle, drop)
        return
    sell_bundle(game, bundle, drop=False)
    if drop:
        pending.append((bundle.corporation.sym, _rows(bundle)))


def settle_drops(game: StockGame, pending: list[tuple[str, int]]) -> bool:
    """The waiting price drops of a seller's sales, in reverse operating order: lowest value
    first, the top marker of a stack last, so that markers sold together in one stack swap
    their order (seed 000 item 2.2).  Returns whether a price moved (none waiting, as after
    most actions: no)."""
    if not pending:
        return False
    rows: dict[str, int] = {}
    for sym, count in pending:
        rows[sym] = rows.get(sym, 0) + count
    pending.clear()
    order = sorted((game.corporation(sym) for sym in rows), key=lambda c: c.sort_key())
    for corp in reversed(order):
        game.move_price(corp, "down", rows[corp.sym])
    return bool(rows)


def _rows(bundle: Bundle) -> int:
    unit = bundle.corporation.share_unit
    return -(-bundle.percent // unit)


def buy_candidates(game: StockGame) -> list[Bundle]:
    """One certificate per started corporation, source (its IPO, the pool) and certificate
    size -- the pool's president's certificate on its own, never the IPO's -- for the buyers
    of a stock round and of corporate share trading to test (rules/1841.md 2.2.1, 2.3.8)."""
    return [b for corp in game.corporations if corp.ipoed for b in candidates_of(game, corp)]


def candidates_of(game: StockGame, corp: Corporation) -> Iterator[Bundle]:
    """:func:`buy_candidates` of one started corporation, its treasury's first, one at a
    time (a test that finds one need not make the others)."""
    sym = corp.sym
    for shares, treasury in ((corp.shares.get(sym), True), (game.pool.shares.get(sym), False)):
        if not shares:
            continue
        seen: set[tuple[int, bool]] = set()
        for share in shares:
            president = share.president
            if president and treasury:
                continue
            key = (share.percent, president)
            if key in seen:
                continue
            seen.add(key)
            yield Bundle([share], share.percent, corp)  # Bundle.of, inlined


def company_president_share(game: StockGame, company: Company) -> Share | None:
    """The president's certificate that goes with a concession: in the pool for a concession
    bought from the bank, the seller's for one bought from a player (rules/1841.md 2.2.1,
    4.3)."""
    corp = corporation_of(game, company)
    if corp is None:
        return None
    source: Holder = company.owner if isinstance(company.owner, Player) else game.pool
    return next((s for s in source.shares_of(corp.sym) if s.president), None)


def treasury_in_filing_order(
    game: StockGame, corp: Corporation, rank: dict[str, int] | None = None
) -> list[Share]:
    """The certificates ``corp`` holds in the order 18xx.games keeps them, for its test
    whether a purchase is left (:meth:`Shares1841.treasury_counts`): its own certificates
    first, then those of the other corporations in the order the corporations are defined
    (each in the order received).  18xx.games files a holder's certificates by corporation
    in the order it first looked a corporation up for that holder; its trace writer (the
    oracle, and the traces of the real games) looks every corporation up
    for every holder before the first action, after the corporation's own IPO, so that is
    the definition order.  A corporation closed and later held again would be filed last
    there; only a replayed reopening reaches that (live play refuses one), a known, rare
    difference.

    ``rank``: the corporations' places in definition order (symbol -> place), filled here
    when first needed if empty, for a caller asking of several corporations in one state."""
    own = corp.shares.get(corp.sym, [])
    others = [sym for sym in corp.shares if sym != corp.sym]
    if len(others) > 1:  # (one needs no order: the ranks are found only to sort several)
        if rank is None:
            rank = {}
        if not rank:
            rank.update({c.sym: i for i, c in enumerate(game.corporations)})
        last = len(rank)
        others.sort(key=lambda sym: rank.get(sym, last))
    return [*own, *(s for sym in others for s in corp.shares[sym])]


def first_and_smallest(
    game: StockGame, corp: Corporation, rank: dict[str, int] | None = None
) -> tuple[Share, Share] | None:
    """The first certificate ``corp`` holds and the first of the smallest percent, in
    :func:`treasury_in_filing_order` (``rank`` passed on to it; None if it holds none); a
    corporation holding only its own, as most do, is answered without sorting."""
    held_by_corp = corp.shares
    own = held_by_corp.get(corp.sym)
    if len(held_by_corp) == (0 if own is None else 1):  # nothing of other corporations
        if not own:
            return None
        return own[0], min(own, key=_percent)
    held = treasury_in_filing_order(game, corp, rank)
    if not held:
        return None
    return held[0], min(held, key=_percent)


def _percent(share: Share) -> int:
    return share.percent


_SHARE_TURN_TESTS: dict[str, Callable[[Shares1841, Player], bool]] = {
    **share_turn_tests(Player),
    "companies": lambda step, player: step.can_buy_any_company(player),
    "own_concession": lambda step, player: step.own_concession_keeps_turn(player),
}
"""The six tests of the player's share turn (:func:`turn_menu`) by name, computed."""

_OFFER_TESTS: dict[str, str | None] = {
    "pass": None,
    "sell_shares": "can_sell",
    "buy_shares": "can_buy",
    "par": "can_par",
    "buy_company": "companies",
}
"""The test of the share turn that offers each kind of action (``pass`` comes with any)."""


class Shares1841(BuySellParShares):
    """A player's turn (rules/1841.md 2.2.1): sell, then one purchase; after starting a major
    more IPO shares of it while below 40 %.  When the turn's buying is over, a corporation
    started in it goes to its start (:func:`.start.begin_start`)."""

    game: StockStepGame

    def setup(self) -> None:
        super().setup()
        self.released = False
        self.pending_drops: list[tuple[str, int]] = []
        """Price drops waiting for the end of the sales (seed 000 item 2.2)."""

    def settle(self) -> None:
        """The turn's sales are over: waiting price drops happen (seed 000 item 2.2)."""
        settle_drops(self.game, getattr(self, "pending_drops", []))

    # -- purchases ---------------------------------------------------------------------------
    def started(self) -> Corporation | None:
        """The corporation this turn's par started, if any."""
        for action in self.round.state.current_actions:
            if isinstance(action, moves.Par):
                return self.game.corporation(action.corporation)
        return None

    def can_buy_multiple(self, player: Player, corp: Corporation) -> bool:
        started = self.started()
        if started is corp and corp.closed:  # a replayed reopening: minors too (18xx.games)
            return player.percent_of(corp.sym) < EXTRA_BUYS_BELOW
        return (
            started is corp
            and self.game.specs[corp.sym].type == "major"
            and player.percent_of(corp.sym) < EXTRA_BUYS_BELOW
        )

    def can_buy(self, player: Player, bundle: Bundle | None, *, as_listed: bool = False) -> bool:
        """IPO or pool certificates (a president's certificate in the pool only for
        non-historical corporations or from phase 4), one purchase, no corporation sold this
        round, cash, certificate and 60 % limits (rules/1841.md 2.2.1).

        ``as_listed``: the turn's test as 18xx.games makes it, whose engine leaves the pool
        president's certificate of a historical corporation before phase 4 to its user
        interface to hide: it keeps the turn open, though we never offer that purchase
        (:func:`.corporate` likewise; selfplay SFLi run variant 8 players seed 417, action
        865)."""
        if bundle is None:
            return False
        owner = bundle.owner
        corp = bundle.corporation
        if isinstance(owner, Corporation) and owner is not corp:
            return False
        if (
            owner is self.game.pool
            and bundle.presidents_share is not None
            and ((not as_listed and not pool_president_buyable(self.game, corp)) or bundle.partial)
        ):
            return False
        if self.bought() and not (owner is corp and self.can_buy_multiple(player, corp)):
            return False
        if player.cash < certificate_price(self.game, bundle):
            return False
        return super().can_buy(player, bundle)

    def buy_candidates(self, player: Player) -> list[Bundle]:
        """:func:`buy_candidates`, remembered for the state (do not change the list)."""
        found: list[Bundle] = remembered(self, "buy_candidates", lambda: buy_candidates(self.game))
        return found

    def can_buy_any(self, player: Player) -> bool:
        """Whether a purchase is left, the turn's test (rules/1841.md 2.2.1, 5.1: a player
        with nothing listed is skipped): a pool certificate he may buy, a treasury that
        counts (:meth:`treasury_counts`), a share of another player (player-to-player
        purchases)."""
        if self.pool_buyable(player):
            return True
        if self.treasury_counts(player):
            return True
        return bool(self.p2p_share_bundles(player))

    def pool_buyable(self, player: Player) -> bool:
        """Whether he may buy a certificate in the pool, of those :func:`buy_candidates`
        lists (one per started corporation, size and kind), found without listing the
        treasuries' (the turn's test asks this after every action).  A certificate he cannot
        pay at its price is passed over without asking :meth:`can_buy`, which refuses it
        (most are)."""
        if self.bought():
            return False  # a certificate from the pool is never one of the extra purchases
        game = self.game
        sold = self.sold(player)
        cash = player.cash
        for sym, shares in game.pool.shares.items():  # (the pool holds few corporations)
            if not shares or sold.get(sym):
                continue  # (nothing of a corporation he sold this round: can_buy)
            corp = game.corporation_or_none(sym)
            if corp is None or not corp.ipoed:
                continue
            seen: set[tuple[int, bool]] = set()
            for share in shares:
                key = (share.percent, share.president)
                if key in seen:
                    continue
                seen.add(key)
                bundle = Bundle([share], share.percent, corp)
                if cash < bundle.price:
                    continue  # (refused by the generic can_buy's cash test)
                if self.can_buy(player, bundle, as_listed=True):
                    return True
        return False

    def treasury_counts(self, player: Player) -> bool:
        """Whether a treasury counts as a purchase left, as 18xx.games asks it: of each
        started corporation's certificates together (its own IPO and the shares it holds of
        others) it takes the smallest and asks whether the player could gain and pay it.  So
        a share a corporation holds of another keeps the turn open though a player never
        buys one (rules/1841.md 2.2.1), and a cheaper-percent one of those can hide an IPO
        share he could buy (a minor's 20 % behind a major's 10 %): then the turn ends.  Turn
        ends decide whose action is next, so they follow 18xx.games here.  Like it, the
        corporation of the first certificate held decides the sold-this-round test, in the
        order of :func:`treasury_in_filing_order`."""
        game = self.game
        sold = self.sold(player)
        bought = self.bought()
        if bought and self.started() is None:
            return False  # after a purchase only a start buys more (can_buy_multiple)
        rank: dict[str, int] = {}  # (the corporations' places, found once if needed)
        for corp in game.corporations:
            if not corp.ipoed:
                continue
            found = first_and_smallest(game, corp, rank)
            if found is None:
                continue
            first = game.corporation(found[0].corporation)
            if sold.get(first.sym):
                continue
            if bought and not self.can_buy_multiple(player, first):
                continue
            smallest = found[1]
            bundle = Bundle.of([smallest], game.corporation(smallest.corporation))
            if player.cash >= certificate_price(self.game, bundle) and self.can_gain(
                player, bundle
            ):
                return True
        return False

    def can_par_any(self, player: Player) -> bool:
        """Whether a start is left, the turn's test (rules/1841.md 2.2.1, 5.1: a player with
        nothing listed is skipped) as 18xx.games asks it (:meth:`par_counts`); the starts
        listed are those the rules allow (:func:`can_par`, :meth:`can_afford`; on replay a
        closed corporation's par among them, :func:`reopen_on_replay`), which count too."""
        if self.bought():
            return False
        game = self.game
        phase = phase_number(game)
        candidates = (
            game.corporations
            if phase >= CONCESSIONS_UNTIL_PHASE
            else self._par_candidates(player, phase)
        )
        for corp in candidates:  # (a loop: asked after every action)
            if corp.ipoed:
                continue  # (neither test counts a started corporation)
            if self.par_counts(player, corp) or (
                can_par(game, corp, player) and self.can_afford(player, corp)
            ):
                return True
        return False

    def _par_candidates(self, player: Player, phase: int) -> list[Corporation]:
        """Before phase 4 the corporations that :meth:`par_counts` or :func:`can_par` could
        allow ``player``: the historical ones whose concession he holds, and from phase 3
        the non-historical ones (rules/1841.md 2.2.1; the turn's test asks after every
        action, and a player holds few concessions)."""
        game = self.game
        specs = game.specs
        out: list[Corporation] = []
        for company in player.companies:
            for sym in game.data.started_by(company.sym):
                corp = game.corporation_or_none(sym)
                if corp is not None and specs[sym].historical:
                    out.append(corp)
        if phase >= NON_HISTORICAL_FROM_PHASE:
            out.extend(c for c in game.corporations if not specs[c.sym].historical)
        return out

    def par_counts(self, player: Player, corp: Corporation) -> bool:
        """Whether 18xx.games counts a start of ``corp`` as something left for ``player``: a
        corporation not started that its flags let start now (historical: startable -- the
        formed ones too, :func:`formed_startable` -- and its concession his or phase 4;
        non-historical: phase 3), whose first treasury certificate he could pay at the
        least par price and gain.  It never asks whether the corporation is closed nor
        whether a home city is free, so a closed corporation (from phase 4 every historical
        one not started) keeps the turn open though live play never lets one start
        (rules/1841.md 2.2.1, 2.4; selfplay seed 33, a selfplay game, action 509).  Turn
        ends decide whose action is next, so they follow 18xx.games here."""
        game = self.game
        if corp.ipoed or self.sold(player).get(corp.sym):
            return False
        spec = game.specs[corp.sym]
        phase = phase_number(game)
        if spec.historical:
            if not (spec.startable or formed_startable(game, corp)):
                return False
            if phase < CONCESSIONS_UNTIL_PHASE:
                concession = concession_of(game, corp)
                if concession is None or concession.owner is not player:
                    return False
        elif phase < NON_HISTORICAL_FROM_PHASE:
            return False
        own = corp.treasury_shares()
        if not own:
            return False
        first = Bundle.of([own[0]], corp)
        return player.cash >= reopened_price(game, first) and self.can_gain(player, first)

    def can_afford(self, player: Player, corp: Corporation) -> bool:
        """Whether ``player`` could pay and hold the certificate a par of ``corp`` buys: the
        president's at the cheapest par; for a closed corporation (replay only,
        :func:`reopen_on_replay`) the first in its treasury at :func:`reopened_price`, as
        18xx.games asks it."""
        if corp.closed:
            ipo = corp.treasury_shares()
            if not ipo:
                return False
            first = Bundle.of([ipo[0]], corp)
            return player.cash >= reopened_price(self.game, first) and self.can_gain(player, first)
        pres = corp.presidents_share
        if (
            pres is None
            or pres.owner is not corp
            or not self.can_gain(player, Bundle.of([pres], corp))
        ):
            return False
        cheapest = par_cells(self.game, corp)[-1]  # highest price first: the last decides
        return cheapest.price * corp.president_percent // corp.share_unit <= player.cash

    # -- concessions (rules/1841.md 2.2.1, 4.3) -----------------------------------------------
    def company_price(self, company: Company) -> tuple[int, int]:
        """(least price of the concession, extra for the president's certificate that goes
        with it from the pool)."""
        if isinstance(company.owner, Player):
            return (1, 0)
        return self._bank_price(company, company_president_share(self.game, company))

    def _bank_price(self, company: Company, pres: Share | None) -> tuple[int, int]:
        """:meth:`company_price` of a concession the bank holds, ``pres`` the president's
        certificate that goes with it."""
        extra = 0
        if pres is not None:
            corp = self.game.corporation(pres.corporation)
            assert corp.share_price is not None
            extra = corp.share_price.price * pres.percent // corp.share_unit
        return (company.value, extra)

    def can_buy_company(self, player: Player, company: Company) -> bool:
        """A bank-owned concession from the second stock round on, for its face value plus
        the president's certificate in the pool if there is one; with player-to-player purchases one
        of another player for any price from L.1 (rules/1841.md 2.2.1, 4.3)."""
        if self.bought() or company.closed or company.owner is player:
            return False
        owner = company.owner
        if isinstance(owner, Player):
            if not self.game.settings.player_to_player_purchases:
                return False
        elif owner is not None or self.game.turn < 2:
            return False
        pres = company_president_share(self.game, company)
        low, extra = (1, 0) if isinstance(owner, Player) else self._bank_price(company, pres)
        if player.cash < low + extra:
            return False
        if pres is None:
            return True
        return self.can_gain(player, Bundle.of([pres], self.game.corporation(pres.corporation)))

    def price_space(self, entity: Entity, listed: Action) -> tuple[int, int]:
        """A concession of another player: any price from L.1 to the buyer's cash; from the
        bank its face value (rules/1841.md 2.2.1, 4.3)."""
        if listed.get("type") == "buy_company":
            company = self.game.company(str(listed["company"]))
            if isinstance(company.owner, Player):
                return (1, entity.cash)
        return super().price_space(entity, listed)

    def buyable_companies(self, player: Player) -> list[Company]:
        return [c for c in self.game.companies if self.can_buy_company(player, c)]

    def can_buy_any_company(self, player: Player) -> bool:
        """Whether :meth:`buyable_companies` lists one (the turn's test, asked after every
        action: it stops at the first)."""
        if self.bought():
            return False
        return any(self.can_buy_company(player, c) for c in self.game.companies)

    def own_concession_keeps_turn(self, player: Player) -> bool:
        """With player-to-player purchases 18xx.games counts a player's own concessions among
        those he may buy from players (its test skips no owner), so a player holding one he
        could buy -- L.1 in cash, not yet bought this turn, and the president's certificate
        that goes with it within his limits -- is never skipped for having nothing to do: he
        passes (rules/1841.md 2.2.1, 4.3; selfplay 1841 seed 501, first edition, lite
        p2p purchases, 4 players: a player at 60 % of both corporations holding Bayard).
        Buying one's own concession changes nothing, so it is not offered; only ``pass``."""
        if not self.game.settings.player_to_player_purchases or self.bought() or player.cash < 1:
            return False
        for company in self.game.companies:
            if company.closed or company.owner is not player:
                continue
            pres = company_president_share(self.game, company)
            if pres is None:
                return True
            if self.can_gain(player, Bundle.of([pres], self.game.corporation(pres.corporation))):
                return True
        return False

    def process_buy_company(self, action: moves.BuyCompany, entity: Entity) -> None:
        company = self.game.company(str(action.company))
        price = action.price
        if not isinstance(entity, Player) or not self.can_buy_company(entity, company):
            raise IllegalAction(f"{entity.name} may not buy {company.sym} now", RULE)
        owner = company.owner
        low, extra = self.company_price(company)
        if price < low or (owner is None and price != company.value):
            raise IllegalAction(f"{company.sym} costs L.{company.value}", RULE)
        if entity.cash < price + extra:
            raise IllegalAction(f"{entity.name} cannot pay for {company.sym}", RULE)
        pres = company_president_share(self.game, company)
        self.settle()
        transfer(entity, owner if isinstance(owner, Player) else self.game.bank, price, RULE)
        if isinstance(owner, Player):
            owner.companies.remove(company)
        company.owner = entity
        entity.companies.append(company)
        if pres is not None:
            corp = self.game.corporation(pres.corporation)
            if extra:
                transfer(entity, self.game.bank, extra, RULE)
            self.game.transfer_shares(Bundle.of([pres], corp), entity, allow_president_change=False)
            self.game.set_president(corp, entity)
            if not self.game.settings.transformation_updates_frozen:
                # 18xx.games brings no frozen state up to date for this presidency: a frozen
                # corporation has its frozen turn until the next update (our selfplay game of
                # the lite map, 3 players, seed 76001: Player 1 buys SFTC's concession with its
                # president's certificate from the pool at action 665, SFTC has a frozen turn
                # at 675; docs/architecture.md, defect I)
                self.game.frozen_held = True
        self.track(action, entity)

    # -- player to player (rules/1841.md 4.3; seed 000 items 2.3, 2.4) ------------------------
    def p2p_share_bundles(self, player: Player) -> list[Bundle]:
        """Single certificates of other players the player may buy (player-to-player purchases)."""
        game = self.game
        if not game.settings.player_to_player_purchases or self.bought() or player.cash <= 0:
            return []
        out: list[Bundle] = []
        for other in game.players:
            if other is player:
                continue
            for sym, shares in other.shares.items():
                corp = game.corporation(sym)
                for share in shares:
                    bundle = Bundle.of([share], corp)
                    if self.can_buy_from_player(player, bundle):
                        out.append(bundle)
        return out

    def can_buy_from_player(self, player: Player, bundle: Bundle) -> bool:
        """Whole certificates of another player (half a president's certificate is not
        offered), no corporation sold this round, a president's certificate only where the
        presidency may change, within the limits (rules/1841.md 4.3)."""
        corp = bundle.corporation
        if self.bought() or self.sold(player).get(corp.sym) or bundle.partial:
            return False
        if bundle.presidents_share is not None and not presidency_may_change(self.game, corp):
            return False
        return self.can_gain(player, bundle)

    # -- sales ----------------------------------------------------------------------------------
    def can_sell_any(self, player: Player) -> bool:
        """No sale after a purchase, whatever the bundle (:meth:`can_sell` asks the generic
        test first, which refuses it): checked first, it is cheap."""
        if self.bought():
            return False
        return super().can_sell_any(player)

    def can_sell(self, player: Player, bundle: Bundle) -> bool:
        """Operated corporations only, before buying, at most 50 % in the pool, a president's
        certificate only to a holder of as much, never a historical one's before phase 4, and
        no circular control (rules/1841.md 2.2.1)."""
        if not super().can_sell(player, bundle):
            return False
        corp = bundle.corporation
        if bundle.presidents_share is not None and not presidency_may_change(self.game, corp):
            return False
        return corp.owner is not player or not circle_refused(
            self.game, bundle, self.game.pool, presidency_may_change(self.game, corp)
        )

    # -- the turn -------------------------------------------------------------------------------
    # The menu is :func:`turn_menu` of six tests of the current player; each is remembered for
    # the state (``remembered``), and the routing and the skip test ask only those they need
    # (``offers_current``, ``blocking``): the menu is asked after every action.
    _test: ClassVar[Callable[[Shares1841, str, Player], bool]] = remembered_tests(_SHARE_TURN_TESTS)
    """One of the six tests of ``entity`` by name, remembered for the state."""

    def must_sell_now(self, player: Player) -> bool:
        """Whether ``player`` must sell now (rules/1841.md 2.2.1): a forced sale needs a limit
        exceeded, and testing that needs no sale tested."""
        return self._over_a_limit(player) and self.must_sell(player, self._test("can_sell", player))

    def _over_a_limit(self, player: Player) -> bool:
        """Over the certificate limit or over the holding limit of some corporation held: a
        forced sale (:meth:`must_sell`) needs one of them, and this needs no sale tested."""
        game = self.game
        if game.num_certs(player) > game.cert_limit(player):
            return True
        for sym, held in player.shares.items():  # (a loop: asked after every action)
            if not held:
                continue
            corp = game.corporation_or_none(sym)
            if corp is not None and not game.holding_ok(player, corp):
                return True
        return False

    def actions(self, entity: Entity) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Player):
            return []
        can_sell = self._test("can_sell", entity)
        menu = turn_menu(
            self._test("must_sell", entity),
            can_sell,
            lambda: self._test("can_buy", entity),
            lambda: self._test("can_par", entity),
            lambda: ["buy_company"] if self._test("companies", entity) else [],
        )
        if not menu and self._test("own_concession", entity):
            return ["pass"]
        return menu

    @any_action_blocks
    def blocking(self) -> bool:
        """Whether :meth:`actions` lists anything for the current player: some purchase,
        start or sale (a forced sale is a sale)."""
        found: bool = remembered(self, "blocking", self._anything)
        return found

    def _anything(self) -> bool:
        entity = self.current_entity()
        if not self.blocks or not isinstance(entity, Player) or getattr(entity, "closed", False):
            return False
        for name in ("can_buy", "can_sell", "can_par", "companies", "own_concession"):
            if self._test(name, entity):  # (a loop: asked after every action)
                return True
        return False

    def offers_current(self, kind: str) -> bool:
        """``kind in self.current_actions()`` from the tests it needs (:func:`turn_menu`)."""
        entity = self.current_entity()
        if not isinstance(entity, Player) or getattr(entity, "closed", False):
            return False
        if not self.blocking():
            return False
        if self._test("must_sell", entity):
            return kind == "sell_shares"
        if kind not in _OFFER_TESTS:
            return False
        name = _OFFER_TESTS[kind]
        return name is None or self._test(name, entity)

    def choices(self, entity: Entity) -> list[Action]:
        if not isinstance(entity, Player):
            return []  # ``actions`` offers nothing to others
        kinds = self.actions(entity)
        out = [
            a
            for a in super().choices(entity)
            if a["type"] != "par" and a["type"] != "buy_shares" and a["type"] != "pass"
        ]
        if "buy_shares" in kinds:
            for bundle in self.buy_candidates(entity):
                if self.can_buy(entity, bundle):
                    out.append(share_action(entity, "buy_shares", bundle))
            for bundle in [b for b in self.p2p_share_bundles(entity) if b.price <= entity.cash]:
                offer = share_action(entity, "buy_shares", bundle)
                offer["total_price"] = bundle.price
                out.append(offer)
        if "par" in kinds:
            for corp in self.game.corporations:
                if not (can_par(self.game, corp, entity) and self.can_afford(entity, corp)):
                    continue
                for cell in par_cells(self.game, corp):
                    if cell.price * corp.president_percent // corp.share_unit <= entity.cash:
                        out.append(act(entity, "par", corporation=corp.sym, share_price=cell.id))
        if "buy_company" in kinds:
            for company in self.buyable_companies(entity):
                low, _ = self.company_price(company)
                out.append(act(entity, "buy_company", company=company.sym, price=low))
        if "pass" in kinds:
            out.append(act(entity, "pass"))
        return out

    def process_par(self, action: moves.Par, entity: Player) -> None:
        corp = self.game.corporation(str(action.corporation))
        if not can_par(self.game, corp, entity):
            raise IllegalAction(f"{entity.name} may not start {corp.sym}", RULE)
        cell = self.game.market.cell_by_id(str(action.share_price))
        if cell is None or cell not in par_cells(self.game, corp):
            raise IllegalAction(
                f"{corp.sym} cannot start at {action.share_price}", "rules/1841.md 1.2"
            )
        if corp.closed:  # only in a replay (can_par)
            if self.bought():
                raise IllegalAction("only one purchase per turn", RULE)
            self.settle()
            reopen_on_replay(self.game, entity, corp)
            self.track(action, entity)
            self.release_if_done(entity)
            return
        self.settle()
        super().process_par(action, entity)
        self.release_if_done(entity)

    def process_buy_shares(self, action: moves.BuyShares, entity: Player) -> None:
        bundle = bundle_from_action(self.game, action)
        owner = bundle.owner
        if isinstance(owner, Player):
            self.buy_from_player(action, entity, bundle)
        else:
            if not self.can_buy(entity, bundle):
                raise IllegalAction(f"{entity.name} may not buy {bundle.corporation.sym} now", RULE)
            self.settle()
            closed = bundle.corporation.closed  # reopened this turn, replay only
            buy_bundle(
                self.game, entity, bundle, reopened_price(self.game, bundle) if closed else None
            )
            self.game.trade_updates_frozen()
            self.track(action, entity)
        self.release_if_done(entity)

    def buy_from_player(self, action: moves.BuyShares, entity: Player, bundle: Bundle) -> None:
        """A purchase from another player at the price named (player-to-player purchases;
        rules/1841.md 4.3)."""
        rule = "rules/1841.md 4.3"
        if not self.game.settings.player_to_player_purchases:
            raise IllegalAction("players may not buy from each other in this game", rule)
        price = action.total_price
        if not isinstance(price, int) or price < 1:
            raise IllegalAction("a purchase from a player needs a price of at least L.1", rule)
        if entity is bundle.owner or entity.cash < price:
            raise IllegalAction(f"{entity.name} cannot pay L.{price}", rule)
        if not self.can_buy_from_player(entity, bundle):
            raise IllegalAction(f"{entity.name} may not buy {bundle.corporation.sym} now", rule)
        self.settle()
        buy_bundle(self.game, entity, bundle, price)
        self.game.trade_updates_frozen()
        self.track(action, entity)

    def process_sell_shares(self, action: moves.SellShares, entity: Player) -> None:
        bundle = bundle_from_action(self.game, action)
        if not self.can_sell(entity, bundle):
            corp = bundle.corporation
            rule = RULE_CIRCLE if corp.owner is entity else RULE
            raise IllegalAction(f"{entity.name} may not sell {corp.sym} now", rule)
        corp = bundle.corporation
        self.sold(entity)[corp.sym] = "now"
        before = corp.share_price
        sell_dropping(self.game, bundle, self.pending_drops)
        self.game.trade_updates_frozen()
        self.game.after_player_sale(corp, before)
        self.track(action, entity)

    def pass_(self) -> None:
        self.settle()
        super().pass_()

    def process_pass(self, action: moves.Pass, entity: Entity) -> None:
        if not isinstance(entity, Player):  # ``actions`` offers the pass to the player in turn
            raise TypeError(f"{entity.name} is not a player in turn")
        super().process_pass(action, entity)
        self.release(entity)

    def release_if_done(self, player: Player) -> None:
        """No more purchase possible: the turn ends as if passed (what the start's half-price
        IPO sales make buyable again does not reopen it), the started corporation starts
        (rules/1841.md 2.2.1, 5.1 automatic skipping)."""
        if self.started() is not None and not self.actions(player):
            self.game.note_turn_end(player, lambda: bool(self.actions(player)))
            self.pass_()
            self.release(player)

    def release(self, player: Player) -> None:
        corp = self.started()
        if corp is None or getattr(self, "released", False):
            return
        procedures = self.game.procedures
        if any(isinstance(p, CorporationStart) and p.corp == corp.sym for p in procedures):
            return
        self.released = True
        if corp.closed:
            reopened_homes(self.game, corp)
            return
        begin_start(self.game, corp)


def share_action(entity: Entity, kind: str, bundle: Bundle) -> Action:
    """A ``buy_shares``/``sell_shares`` action of ``entity`` naming ``bundle``."""
    return act(entity, kind, shares=[s.id for s in bundle.shares], percent=bundle.percent)


class StockRound1841(StockRound):
    """End of the stock round (rules/1841.md 2.2.2): the price moves (frozen corporations
    with shares in the pool drop two rows and never rise), Bayard pays L.20 to its owner,
    concessions whose corporation was not started return to the bank."""

    game: StockStepGame

    def end_of_round_price(self, corp: Corporation) -> None:
        """Sold out and not frozen: up a row; shares in the pool: down a row, two if frozen
        (rules/1841.md 2.2.2, 2.3.10)."""
        game = self.game
        is_frozen = frozen(game, corp)
        if game.sold_out(corp) and not is_frozen:
            game.move_price(corp, "up")
        if corp.market_percent() > 0:
            game.move_price(corp, "down", 2 if is_frozen else 1)

    def finish_round(self) -> None:
        super().finish_round()
        game = self.game
        for company in game.companies:
            owner = company.owner
            if not isinstance(owner, Player):
                continue
            corp = corporation_of(game, company)
            if corp is None:
                transfer(game.bank, owner, BAYARD_PAYS, "rules/1841.md 2.2.2")
            elif not corp.ipoed:
                owner.companies.remove(company)
                company.owner = None


class StartCorporation(Decisions):
    """HomeToken's place in a round's step list (18xx.games HomeToken, BuyNewTokens): the
    start of a corporation asks through :class:`.start.CorporationStart` procedures, which
    whichever Decisions step comes first in the round asks (rules/1841.md 2.2.3)."""
