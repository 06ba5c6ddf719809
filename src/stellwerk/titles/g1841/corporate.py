"""Corporate share trading (rules/1841.md 2.3.8; 18xx.games' CorporateBuySellParShares): at
the end of its operating turn a corporation, through its controlling player, may sell shares,
then buy one share or start (par) a new corporation.

What it may do, decided here (the sources: rules/1841.md 2.3.8-2.3.9, seed 000 items 1.7,
1.18, 2.8, 2.11, 3.1, 3.5, 4.3, seed 003 H2, H10, H13; the order and the listing follow
18xx.games so that its files replay and its live games accept what we offer):

* **Sell** (before buying): certificates of other corporations it holds, and its own IPO
  (treasury) certificates, whose money goes to itself; only of corporations that have
  completed an operating turn (2.3.9; for its own shares: it has operated itself), at most
  50 % in the pool, a president's certificate only to another holder with as much and never
  a historical corporation's before phase 4, no sale that makes a chain of control loop.  The
  price drops a row per share (president's certificates count 2) as for players.  After a
  sale the corporations still to operate are re-ordered (2.3.1).
* **Buy** one certificate: from another corporation's IPO or from the pool (never from a
  player, never a concession, never its own, never from another corporation's treasury), not
  of a corporation it sold this operating round (the round's sale record, FAQ 3.5), not of a
  corporation in its own chain of control (a controller; seed 003 H13), while it holds fewer
  than five certificates of others (1.2), and only while its controlling player's total of
  that corporation, counted over everything he controls, stays at most 60 %; no purchase that
  makes a chain of control loop (seed 000 item 3.1).
* **Par** instead of buying: a non-historical corporation from phase 3, a historical one only
  from phase 4 (it has no concession; 2.2.1); paid from its treasury, at a par price it can
  pay for the president's certificate; after a major's par more IPO shares of it while it
  holds less than 40 % (as for players, 2.2.1).  When its buying is over the new corporation
  starts (:func:`.start.begin_start`: home token(s) and token purchase from its own
  treasury).  18xx.games lists ``par`` by a rougher test (:meth:`CorporateShares.par_listed`),
  which we follow so that the same turns ask; the started corporation must pass the full one.
* **Forced sales** (only ``sell_shares`` is offered, while something can be sold): over the
  corporate certificate limit, its controlling player over 60 % of a corporation whose
  shares it can sell, or it holds shares of a corporation in its chain of control (seed 000
  item 3.5.2 / rules/1841.md 2.3.8, seed 003 H13).

The options that change this step (read from ``game.settings``): seed 003 H2
(``corporate_sales_of_others_drop_price``: a sale of other corporations' shares moves no
price), seed 003 H10 (``grandchildren_may_par``: a corporation owned by a corporation may not
start one), seed 000 item 4.3 (``corporate_buys_within_borders``: no purchase across an
existing border), seed 000 item 3.5 (``emr_sales_block_corporate_rebuy``: emergency sales,
which :func:`.emergency.sell` then records in the round's sale record, block a rebuy too),
seed 000 item 2.2
(``sale_drop_order``: the price drops of the sales wait until the selling is over and then
happen in reverse operating order, :func:`.stock.settle_drops`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, TypeGuard

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Entity, chain_of_control
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import (
    Action,
    CorporationStep,
    act,
    any_action_blocks,
    remembered,
    remembered_tests,
)
from stellwerk.core.flow.stock import bundle_from_action, share_turn_tests, turn_menu
from stellwerk.core.market import Cell
from stellwerk.core.shares import Bundle, can_dump
from stellwerk.titles.g1841 import countries
from stellwerk.titles.g1841.ownership import (
    RULE_CIRCLE,
    circle_refused,
    historical,
    phase_number,
    pool_president_buyable,
    presidency_may_change,
    sale_drops_price,
)
from stellwerk.titles.g1841.start import CorporationStart, begin_start
from stellwerk.titles.g1841.stock import (
    CONCESSIONS_UNTIL_PHASE,
    EXTRA_BUYS_BELOW,
    NON_HISTORICAL_FROM_PHASE,
    buy_bundle,
    buy_candidates,
    can_par,
    candidates_of,
    par_cells,
    reopen_on_replay,
    reopened_homes,
    reopened_price,
    sell_dropping,
    settle_drops,
    share_action,
    startable,
)

if TYPE_CHECKING:
    from stellwerk.titles.g1841.stock import StockGame, StockStepGame

RULE = "rules/1841.md 2.3.8"
RULE_CHAIN = "rules/1841.md 2.3.8 (no shares of a controller; seed 003 H13)"
RULE_LIMIT = "rules/1841.md 1.2, 2.3.8 (corporate certificate limit 5, 60 % per player)"
RULE_BORDERS = "seed 000 item 4.3 (no purchase across an existing border)"
RULE_GRANDCHILD = "seed 003 H10 (grandchildren may not start corporations)"
RULE_FORCED = "rules/1841.md 2.3.8 (forced sales first; seed 003 H13)"

LOWEST_PAR = 68
"""The lowest par price: 18xx.games offers ``par`` when the treasury holds twice it
(rules/1841.md 1.2 "Stock market")."""


def in_chain(corp: Corporation, other: Corporation) -> bool:
    """Whether ``other`` is one of ``corp``'s controllers (its chain of control, 2.3.9)."""
    return any(entity is other for entity in chain_of_control(corp))


def grandchild(corp: Corporation) -> bool:
    """A corporation whose president is a corporation (two or more levels below a player;
    seed 003 H10)."""
    return isinstance(corp.owner, Corporation)


def may_start(game: StockGame, corp: Corporation) -> bool:
    """What a corporation may start: non-historical ones from phase 3, historical ones (no
    concession) only from phase 4 (rules/1841.md 2.2.1, 2.3.8)."""
    if historical(game, corp) and phase_number(game) < CONCESSIONS_UNTIL_PHASE:
        return False
    return can_par(game, corp)


_OFFER_TESTS: dict[str, str | None] = {
    "pass": None,
    "sell_shares": "can_sell",
    "buy_shares": "can_buy",
    "par": "can_par",
}
"""The test of the corporate share turn that offers each kind of action (``pass`` with any)."""


class CorporateShares(CorporationStep):
    """The corporation's share turn (rules/1841.md 2.3.8): sell, then one purchase or a par
    (with more IPO shares of the started major below 40 %); forced sales first."""

    description = "Corporate Sell then Buy Shares"
    game: StockStepGame

    def setup(self) -> None:
        self.turn: list[moves.Move] = []
        """This turn's share actions."""
        self.released = False
        self.pending_drops: list[tuple[str, int]] = []
        """Price drops waiting for the end of the sales (seed 000 item 2.2)."""

    def settle(self) -> None:
        """The sales are over: waiting price drops happen, the order of the corporations
        still to operate follows (seed 000 item 2.2; rules/1841.md 2.3.1)."""
        if settle_drops(self.game, self.pending_drops):
            self.reorder()

    def reorder(self) -> None:
        recalculate = getattr(self.round, "recalculate_order", None)
        if recalculate is not None:
            recalculate()

    # -- the record -----------------------------------------------------------------------
    def sold(self, corp: Corporation) -> dict[str, str]:
        """The corporations ``corp`` sold in this operating round (the round's record)."""
        sold: dict[str, str] = self.round.state.players_sold.setdefault(corp, {})
        return sold

    def bought(self) -> bool:
        for action in self.turn:  # noqa: SIM110 (a loop: asked by every test of the turn)
            if action.type == "buy_shares" or action.type == "par":
                return True
        return False

    def started(self) -> Corporation | None:
        """The corporation this turn's par started, if any."""
        for action in self.turn:
            if isinstance(action, moves.Par):
                return self.game.corporation(action.corporation)
        return None

    # -- limits ---------------------------------------------------------------------------
    def can_gain(self, corp: Corporation, bundle: Bundle) -> bool:
        """Not a controller, fewer than five certificates of others, the controlling player's
        total at most 60 % (rules/1841.md 1.2, 2.3.8)."""
        game = self.game
        target = bundle.corporation
        return (
            not in_chain(corp, target)
            and game.num_certs(corp) < game.cert_limit(corp)
            and game.controlled_percent(corp, target) + bundle.percent <= game.max_holding_percent
        )

    # -- buying ---------------------------------------------------------------------------
    def can_buy_multiple(self, corp: Corporation, target: Corporation) -> bool:
        return self.started() is target and corp.percent_of(target.sym) < EXTRA_BUYS_BELOW

    def can_buy(self, corp: Corporation, bundle: Bundle, *, as_listed: bool = False) -> bool:
        """Another corporation's IPO or the pool (a president's certificate from the pool
        where 2.2.1 allows it), cash, not sold this round, one purchase, the limits, and the
        options' restrictions (rules/1841.md 2.3.8).  ``as_listed``: the turn's test as
        18xx.games makes it, counting the pool president's certificate of a historical
        corporation before phase 4, which only its user interface hides: the turn stays open
        for a pass (selfplay SFLi run variant 8 players seed 417, action 865: SFMA after a
        sale, SFLP's president's certificate in the pool)."""
        game = self.game
        target = bundle.corporation
        owner = bundle.owner
        reopened = (
            target.closed
            and not game.policy.printed_starts
            and (target.ipoed or target is self.started())
        )
        if reopened and owner is target and target is not corp:
            # a closed corporation a replayed par reopened: its treasury certificates sell at
            # the least par price, as 18xx.games has it (replay only, see reopen_on_replay)
            if corp.cash < reopened_price(game, bundle) or self.sold(corp).get(target.sym):
                return False
            if self.bought() and not self.can_buy_multiple(corp, target):
                return False
            return self.can_gain(corp, bundle)
        if target is corp or not target.ipoed or target.closed:
            return False  # its own, or a corporation not started (that is a par)
        if not (owner is target or owner is game.pool):
            return False
        if bundle.presidents_share is not None and (
            owner is target
            or (not as_listed and not pool_president_buyable(game, target))
            or bundle.partial
        ):
            return False
        if corp.cash < bundle.price or self.sold(corp).get(target.sym):
            return False
        if self.bought() and not self.can_buy_multiple(corp, target):
            return False
        if game.settings.corporate_buys_within_borders and countries.across_border(
            game, corp, target
        ):
            return False
        return self.can_gain(corp, bundle)

    def buy_candidates(self) -> list[Bundle]:
        """:func:`.stock.buy_candidates`, remembered for the state (do not change the list)."""
        found: list[Bundle] = remembered(self, "buy_candidates", lambda: buy_candidates(self.game))
        return found

    def can_buy_any(self, corp: Corporation) -> bool:
        """Whether :meth:`can_buy` allows one of the candidates (:func:`.stock.buy_candidates`),
        asked corporation by corporation: one that fails a test :meth:`can_buy` asks of every
        certificate of it alike (its own, sold this round, the one purchase, in the buyer's
        chain of control, the buyer's certificate limit, closed outside a replay) is passed
        over without making its certificates (the turn's test, asked after every action); a
        certificate of a corporation not closed that it cannot pay at its price is passed over
        without asking :meth:`can_buy`, which refuses it (most are)."""
        game = self.game
        if game.num_certs(corp) >= game.cert_limit(corp):
            return False  # no certificate can be gained (can_gain)
        sold = self.sold(corp)
        bought = self.bought()
        chain = chain_of_control(corp)
        for target in game.corporations:
            if not target.ipoed or target is corp or sold.get(target.sym):
                continue
            if target.closed and game.policy.printed_starts:
                continue
            if bought and not self.can_buy_multiple(corp, target):
                continue
            if any(entity is target for entity in chain):  # in_chain
                continue
            closed = target.closed  # (a reopened one sells at another price: can_buy)
            for bundle in candidates_of(game, target):
                if not closed and corp.cash < bundle.price:
                    continue
                if self.can_buy(corp, bundle, as_listed=True):
                    return True
        return False

    # -- starting a corporation -------------------------------------------------------------
    def may_par(self, corp: Corporation, target: Corporation) -> bool:
        """``corp`` may start ``target`` now: it may be started (:func:`may_start`), its
        president's certificate is in its treasury, the limits allow it and some par price
        is affordable (rules/1841.md 2.2.1, 2.3.8)."""
        if target.closed and not self.game.policy.printed_starts and not target.ipoed:
            return may_start(self.game, target) and not self.sold(corp).get(target.sym)
        pres = target.presidents_share
        if pres is None or pres.owner is not target or target.closed:
            return False
        return (
            may_start(self.game, target)
            and not self.sold(corp).get(target.sym)
            and self.can_gain(corp, Bundle.of([pres], target))
            and bool(self.par_choices(corp, target))
        )

    def par_listed(self, corp: Corporation, target: Corporation) -> bool:
        """Whether 18xx.games lists ``par`` for ``target``: a corporation not started that
        may be started in this phase (historical: startable, from phase 4; non-historical:
        from phase 3 -- closed ones are not excluded there), whose first certificate in its
        treasury the corporation could buy at the lowest par price (L.68 a share) within the
        limits.  Its first certificate is the president's unless the corporation was started
        before; what may really be started is :meth:`may_par`."""
        game = self.game
        if target.ipoed or target is corp:
            return False
        own = target.shares.get(target.sym)
        if not own:
            return False
        share = own[0]
        if corp.cash < LOWEST_PAR * share.percent // target.share_unit:
            return False  # (the cheapest tests first: the turn's test asks every target)
        phase = phase_number(game)
        if game.specs[target.sym].historical:
            if phase < CONCESSIONS_UNTIL_PHASE or not startable(game, target):
                return False
        elif phase < NON_HISTORICAL_FROM_PHASE:
            return False
        first = Bundle([share], share.percent, target)  # Bundle.of, inlined
        return not self.sold(corp).get(target.sym) and self.can_gain(corp, first)

    def can_par_any(self, corp: Corporation) -> bool:
        """Whether :meth:`par_listed` lists a start; none while the corporation is at its
        certificate limit (every start gains a certificate, :meth:`can_gain`)."""
        if self.bought():
            return False
        game = self.game
        if grandchild(corp) and not game.settings.grandchildren_may_par:
            return False
        if game.num_certs(corp) >= game.cert_limit(corp):
            return False
        for target in game.corporations:  # noqa: SIM110 (a loop: the turn's test)
            if self.par_listed(corp, target):
                return True
        return False

    def par_choices(self, corp: Corporation, target: Corporation) -> list[Cell]:
        """The par prices whose president's certificate the treasury can pay."""
        share_count = target.president_percent // target.share_unit
        return [c for c in par_cells(self.game, target) if c.price * share_count <= corp.cash]

    # -- selling ----------------------------------------------------------------------------
    def can_sell(self, corp: Corporation, bundle: Bundle) -> bool:
        """Before buying, operated corporations only (itself for its own IPO shares), at most
        50 % in the pool, a president's certificate only where the presidency may change and
        to a holder of as much, no circular control (rules/1841.md 2.2.1, 2.3.8)."""
        game = self.game
        target = bundle.corporation
        if bundle.owner is not corp or self.bought():
            return False
        if not game.check_sale_timing(target) or not game.fits_in_pool(bundle):
            return False
        if bundle.presidents_share is not None and (
            not presidency_may_change(game, target) or not can_dump(bundle, corp)
        ):
            return False
        return target.owner is not corp or not circle_refused(
            game, bundle, game.pool, presidency_may_change(game, target)
        )

    def sale_bundles(self, corp: Corporation, target: Corporation) -> list[Bundle]:
        return self.game.bundles_for_corporation(corp, target)

    def can_sell_of(self, corp: Corporation, target: Corporation) -> bool:
        if not corp.shares.get(target.sym) or not self.game.check_sale_timing(target):
            return False
        return any(self.can_sell(corp, b) for b in self.sale_bundles(corp, target))

    def can_sell_any(self, corp: Corporation) -> bool:
        for target in self.game.corporations:  # noqa: SIM110 (a loop: the turn's test)
            if self.can_sell_of(corp, target):
                return True
        return False

    def must_sell(self, corp: Corporation) -> bool:
        """Over the certificate limit, its controlling player over 60 % of a corporation it
        can sell, or it holds shares of a controller it can sell (rules/1841.md 2.3.8, seed
        003 H13) -- unless nothing can be sold."""
        if not self.can_sell_any(corp):
            return False
        return self._over_limit(corp, lambda target: self.can_sell_of(corp, target))

    def _over_limit(self, corp: Corporation, counts: Callable[[Corporation], bool]) -> bool:
        """Over the certificate limit, or, among the corporations ``counts`` admits, its
        controlling player over the holding limit of one or one in its chain of control
        (rules/1841.md 2.3.8, seed 003 H13)."""
        game = self.game
        if game.num_certs(corp) > game.cert_limit(corp):
            return True
        player = game.controller(corp)
        for target in game.corporations:
            if target is corp or not counts(target):
                continue
            if player is not None and (
                game.controlled_percent(player, target) > game.max_holding_percent
            ):
                return True
            if in_chain(corp, target):
                return True
        return False

    # -- the turn -------------------------------------------------------------------------
    def acting(self, entity: Entity | None) -> TypeGuard[Corporation]:
        """``entity`` is the operating corporation, not done this round: it trades now."""
        return (
            entity is self.current_entity()
            and isinstance(entity, Corporation)
            and entity.sym not in self.game.done_this_round
        )

    # The menu is :func:`turn_menu` of four tests of the operating corporation; each is
    # remembered for the state (``remembered``), and the routing and the skip test ask only
    # those they need (``offers_current``, ``blocking``).
    _test: ClassVar[Callable[[CorporateShares, str, Corporation], bool]] = remembered_tests(
        share_turn_tests(Corporation)
    )
    """One of the four tests of ``entity`` by name, remembered for the state."""

    def must_sell_now(self, corp: Corporation) -> bool:
        """Whether ``corp`` must sell now: a forced sale needs a limit exceeded and a sale
        possible (rules/1841.md 2.3.8, seed 003 H13)."""
        return self._over_a_limit(corp) and self._test("can_sell", corp) and self.must_sell(corp)

    def _over_a_limit(self, corp: Corporation) -> bool:
        """Over the certificate limit, its controlling player over the holding limit of a
        corporation it holds, or it holds shares of a controller: a forced sale
        (:meth:`must_sell`) needs one of them, and this needs no sale tested.  (The
        corporations held are told by a plain test rather than through :meth:`_over_limit`'s
        callable: asked after every action.)"""
        game = self.game
        if game.num_certs(corp) > game.cert_limit(corp):
            return True
        player = game.controller(corp)
        held = corp.shares
        for target in game.corporations:
            if target is corp or not held.get(target.sym):
                continue
            if player is not None and (
                game.controlled_percent(player, target) > game.max_holding_percent
            ):
                return True
            if in_chain(corp, target):
                return True
        return False

    def actions(self, entity: Entity) -> list[str]:
        if not self.acting(entity):
            return []
        return turn_menu(
            self._test("must_sell", entity),
            self._test("can_sell", entity),
            lambda: self._test("can_buy", entity),
            lambda: self._test("can_par", entity),
        )

    @any_action_blocks
    def blocking(self) -> bool:
        """Whether :meth:`actions` lists anything for the operating corporation: some
        purchase, start or sale (a forced sale is a sale)."""
        found: bool = remembered(self, "blocking", self._anything)
        return found

    def _anything(self) -> bool:
        entity = self.current_entity()
        if not self.blocks or getattr(entity, "closed", False) or not self.acting(entity):
            return False
        for name in ("can_buy", "can_sell", "can_par"):  # noqa: SIM110 (a loop: asked after every action)
            if self._test(name, entity):
                return True
        return False

    def offers_current(self, kind: str) -> bool:
        """``kind in self.current_actions()`` from the tests it needs (:func:`turn_menu`)."""
        entity = self.current_entity()
        if entity is None or entity.closed or not self.blocking():
            return False
        if self._test("must_sell", entity):
            return kind == "sell_shares"
        if kind not in _OFFER_TESTS:
            return False
        name = _OFFER_TESTS[kind]
        return name is None or self._test(name, entity)

    def choices(self, entity: Entity) -> list[Action]:
        if not self.acting(entity):
            return []
        kinds = self.actions(entity)
        out: list[Action] = []
        game = self.game
        if "sell_shares" in kinds:
            for target in game.corporations:
                if not entity.shares.get(target.sym):
                    continue
                for bundle in self.sale_bundles(entity, target):
                    if self.can_sell(entity, bundle):
                        out.append(share_action(entity, "sell_shares", bundle))
        if "buy_shares" in kinds:
            for bundle in self.buy_candidates():
                if self.can_buy(entity, bundle):
                    out.append(share_action(entity, "buy_shares", bundle))
        if "par" in kinds:
            for target in game.corporations:
                if target is entity or not self.may_par(entity, target):
                    continue
                for cell in self.par_choices(entity, target):
                    out.append(act(entity, "par", corporation=target.sym, share_price=cell.id))
        if "pass" in kinds:
            out.append(act(entity, "pass"))
        return out

    def check_offered(self, entity: Entity, kind: str) -> None:
        """The entity is the operating corporation at its share step, and ``kind`` is not
        barred by a forced sale (rules/1841.md 2.3.8).  The round routes an action here only
        when the turn's menu offers it (:meth:`offers_current`, :meth:`actions`: the same
        tests), so an action routed here in the state it is checked in passes at once."""
        if self.routed_here(kind, entity):
            return
        if not self.acting(entity):
            raise IllegalAction(f"{getattr(entity, 'name', entity)} is not trading now", RULE)
        if kind != "sell_shares" and self._over_a_limit(entity) and self.must_sell(entity):
            raise IllegalAction(f"{entity.sym} must sell shares first", RULE_FORCED)
        # no forced sale: ``pass`` is listed when anything else is (:func:`turn_menu`)
        if kind == "pass" and not (
            self.can_buy_any(entity) or self.can_sell_any(entity) or self.can_par_any(entity)
        ):
            raise IllegalAction(f"{entity.sym} has nothing to pass", RULE)

    def process_sell_shares(self, action: moves.SellShares, entity: Corporation) -> None:
        self.check_offered(entity, "sell_shares")
        bundle = bundle_from_action(self.game, action)
        target = bundle.corporation
        if not self.can_sell(entity, bundle):
            circle = target.owner is entity and circle_refused(
                self.game, bundle, self.game.pool, presidency_may_change(self.game, target)
            )
            raise IllegalAction(
                f"{entity.sym} may not sell {target.sym} now", RULE_CIRCLE if circle else RULE
            )
        self.sold(entity)[target.sym] = "now"
        drop = sale_drops_price(self.game, entity, target)
        sell_dropping(self.game, bundle, self.pending_drops, drop=drop)
        self.game.trade_updates_frozen()
        self.reorder()
        self.turn.append(action)

    def process_buy_shares(self, action: moves.BuyShares, entity: Corporation) -> None:
        if not self.acting(entity):
            raise IllegalAction(f"{getattr(entity, 'name', entity)} is not trading now", RULE)
        bundle = bundle_from_action(self.game, action)
        target = bundle.corporation
        if not self.can_buy(entity, bundle):
            raise IllegalAction(
                f"{entity.sym} may not buy {target.sym} now", self.refusal(entity, bundle)
            )
        self.check_offered(entity, "buy_shares")
        if circle_refused(self.game, bundle, entity, presidency_may_change(self.game, target)):
            raise IllegalAction(f"buying {target.sym} makes a circle of control", RULE_CIRCLE)
        self.settle()
        price = reopened_price(self.game, bundle) if target.closed else None
        buy_bundle(self.game, entity, bundle, price)
        self.game.trade_updates_frozen()
        self.turn.append(action)
        self.release_if_done(entity)

    def refusal(self, corp: Corporation, bundle: Bundle) -> str:
        """The rule a refused purchase breaks, as closely as it can be named."""
        target = bundle.corporation
        if in_chain(corp, target):
            return RULE_CHAIN
        if self.game.settings.corporate_buys_within_borders and countries.across_border(
            self.game, corp, target
        ):
            return RULE_BORDERS
        if not self.can_gain(corp, bundle):
            return RULE_LIMIT
        return RULE

    def process_par(self, action: moves.Par, entity: Corporation) -> None:
        if not self.acting(entity):
            raise IllegalAction(f"{getattr(entity, 'name', entity)} is not trading now", RULE)
        game = self.game
        target = game.corporation(str(action.corporation))
        if self.bought():
            raise IllegalAction("one purchase per turn, a start included", RULE)
        if grandchild(entity) and not game.settings.grandchildren_may_par:
            raise IllegalAction(f"{entity.sym} may not start a corporation", RULE_GRANDCHILD)
        if target is entity or not self.may_par(entity, target):
            raise IllegalAction(f"{entity.sym} may not start {target.sym} now", RULE)
        self.check_offered(entity, "par")
        cell = game.market.cell_by_id(str(action.share_price))
        if cell is None or cell not in self.par_choices(entity, target):
            raise IllegalAction(
                f"{entity.sym} cannot start {target.sym} at {action.share_price}",
                "rules/1841.md 1.2, 2.3.8",
            )
        if target.closed:  # only in a replay (may_par)
            self.settle()
            reopen_on_replay(game, entity, target)
            self.turn.append(action)
            self.release_if_done(entity)
            return
        pres = target.presidents_share
        assert pres is not None
        self.settle()
        game.set_par(target, cell)
        game.buy_shares(entity, Bundle.of([pres], target))
        game.after_par(target)
        self.turn.append(action)
        self.release_if_done(entity)

    def process_pass(self, action: moves.Pass, entity: Entity) -> None:
        self.check_offered(entity, "pass")
        self.pass_()

    def pass_(self) -> None:
        """The turn's trading is over (passed, skipped or nothing left): a corporation
        started in it starts now (rules/1841.md 2.2.3, 2.3.8)."""
        self.settle()
        super().pass_()
        self.release()

    def release_if_done(self, corp: Corporation) -> None:
        """After a purchase with nothing more to do the turn's trading ends by itself (as
        18xx.games skips a step without actions)."""
        if self.started() is not None and not self.actions(corp):
            self.game.note_turn_end(corp, lambda: bool(self.actions(corp)))
            self.pass_()

    def release(self) -> None:
        target = self.started()
        if target is None or self.released:
            return
        if any(
            isinstance(p, CorporationStart) and p.corp == target.sym for p in self.game.procedures
        ):
            return
        self.released = True
        if target.closed:
            reopened_homes(self.game, target)
            return
        begin_start(self.game, target)
