"""Stock-round steps: buying, selling and starting corporations; home token choices.

Rules (common rules §6.6): sell first, then one purchase (buy one certificate or start a
corporation); no buying what one sold this round; 60 % holding and certificate limits;
a player over the certificate limit must sell first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol, TypeVar

from mypy_extensions import mypyc_attr

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Entity, Player, Share
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import (
    Action,
    CorporationStep,
    PendingToken,
    PlayerStep,
    act,
    any_action_blocks,
    remembered,
    remembered_tests,
)
from stellwerk.core.shares import Bundle, can_dump

if TYPE_CHECKING:
    from stellwerk.core.game import Game

RULE = "common rules §6.6"
_PURCHASES = frozenset(("buy_shares", "par", "buy_company"))
"""The action types that are a turn's purchase (common rules §6.6: one purchase per turn)."""


def bundle_from_action(game: Game, action: moves.BuyShares | moves.SellShares) -> Bundle:
    """The certificates a share move names, as one bundle (common rules §6.6: of one
    corporation and one owner)."""
    return bundle_of_ids(game, action.shares, action.percent)


def bundle_of_ids(game: Game, ids: Sequence[str], percent: float | None = None) -> Bundle:
    """The certificates ``ids`` as one bundle of ``percent`` (None: all of them); refused
    unless they are of one corporation and one owner (common rules §6.6)."""
    if not ids:
        raise IllegalAction("no certificates named", RULE)
    shares: list[Share] = [game.share_by_id(sid) for sid in ids]
    corp = game.corporation(shares[0].corporation)
    if any(s.corporation != corp.sym for s in shares) or len({id(s.owner) for s in shares}) > 1:
        raise IllegalAction("certificates must be of one corporation and one owner", RULE)
    return Bundle.of(shares, corp, int(percent) if percent is not None else None)


def turn_menu(
    must_sell: bool,
    can_sell: bool,
    can_buy: Callable[[], bool],
    can_par: Callable[[], bool],
    extras: Callable[[], list[str]] = lambda: [],
) -> list[str]:
    """The action types of a share turn (common rules §6): a forced sale alone; otherwise buys,
    pars, a title's further purchases (``extras``), sales, and ``pass`` when anything is
    offered.  The stock step and a title's corporate share step list their turns with it."""
    if must_sell:
        return ["sell_shares"]
    out: list[str] = []
    if can_buy():
        out.append("buy_shares")
    if can_par():
        out.append("par")
    out.extend(extras())
    if can_sell:
        out.append("sell_shares")
    if out:
        out.append("pass")
    return out


_KIND_TESTS = {"sell_shares": "can_sell", "buy_shares": "can_buy", "par": "can_par"}
"""The test of the stock turn that offers each kind of action (``pass`` comes with any)."""


EntityT = TypeVar("EntityT", bound=Entity, contravariant=True)


class ShareTurn(Protocol[EntityT]):
    """A share step's four tests of the entity to act (common rules §6.6): what
    :func:`share_turn_tests` asks."""

    def can_sell_any(self, entity: EntityT, /) -> bool: ...

    def can_buy_any(self, entity: EntityT, /) -> bool: ...

    def can_par_any(self, entity: EntityT, /) -> bool: ...

    def must_sell_now(self, entity: EntityT, /) -> bool: ...


def share_turn_tests(
    kind: type[EntityT],
) -> dict[str, Callable[[ShareTurn[EntityT], EntityT], bool]]:
    """The four tests of a share turn (:func:`turn_menu`) by name, for
    :func:`~stellwerk.core.flow.base.remembered_tests`, of a step whose entities to act are
    ``kind``: a title's step adds its own."""
    return {
        "can_sell": lambda step, entity: step.can_sell_any(entity),
        "can_buy": lambda step, entity: step.can_buy_any(entity),
        "can_par": lambda step, entity: step.can_par_any(entity),
        "must_sell": lambda step, entity: step.must_sell_now(entity),
    }


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class BuySellParShares(PlayerStep):
    """One player turn of the stock round."""

    description = "Sell then Buy Shares"

    def setup(self) -> None:
        for corps in self.round.state.players_sold.values():
            for key in corps:
                corps[key] = "prev"
        self.round.state.current_actions = []

    # -- predicates -------------------------------------------------------------------------
    def sold(self, player: Player) -> dict[str, str]:
        sold: dict[str, str] = self.round.state.players_sold.setdefault(player, {})
        return sold

    def bought(self) -> bool:
        for action in self.round.state.current_actions:  # noqa: SIM110 (a loop: asked by every test)
            if action.type in _PURCHASES:
                return True
        return False

    def can_buy_multiple(self, player: Player, corp: Corporation) -> bool:
        """Hook: ``player`` may buy another certificate of ``corp`` after this turn's purchase
        (common rules §6.6: one purchase per turn; no title exception)."""
        return False

    def can_gain(self, player: Player, bundle: Bundle) -> bool:
        game = self.game
        return game.holding_ok(player, bundle.corporation, bundle.percent) and (
            game.within_cert_limit(player)
        )

    def can_buy(self, player: Player, bundle: Bundle | None) -> bool:
        if bundle is None:
            return False
        owner = bundle.owner
        if owner is player or isinstance(owner, Player):
            return False
        corp = bundle.corporation
        return (
            player.cash >= bundle.price
            and not self.sold(player).get(corp.sym)
            and (self.can_buy_multiple(player, corp) or not self.bought())
            and self.can_gain(player, bundle)
            and self.game.can_buy_extra(bundle)
        )

    def can_sell(self, player: Player, bundle: Bundle) -> bool:
        if not self.game.may_sell(player, bundle):
            return False
        return (
            self.game.check_sale_timing(bundle.corporation)
            and not self.bought()
            and self.game.fits_in_pool(bundle)
            and can_dump(bundle, player, self.game)
        )

    def can_sell_any(self, player: Player) -> bool:
        if type(self).can_sell is BuySellParShares.can_sell and self.bought():
            return False  # no sale after a purchase, whatever the bundle (checked first: cheap)
        for corp in self.game.corporations:
            if not player.shares.get(corp.sym) or not self.game.check_sale_timing(corp):
                continue
            if any(self.can_sell(player, b) for b in self.game.sale_bundles(player, corp)):
                return True
        return False

    def must_sell(self, player: Player, can_sell_any: bool | None = None) -> bool:
        """Over the certificate or holding limit with something to sell; ``can_sell_any``:
        the caller's answer of :meth:`can_sell_any` for this state, if known."""
        if not (self.can_sell_any(player) if can_sell_any is None else can_sell_any):
            return False
        if self.game.num_certs(player) > self.game.cert_limit(player):
            return True
        return any(
            player.shares.get(c.sym)
            and not self.game.holding_ok(player, c)
            and any(self.can_sell(player, b) for b in self.game.sale_bundles(player, c))
            for c in self.game.corporations
        )

    def smallest_bundle(self, shares: list[Share], corp: Corporation) -> Bundle | None:
        if not shares:
            return None
        smallest = min(shares, key=lambda s: s.percent)
        return Bundle.of([smallest], corp)

    def can_buy_from(self, player: Player, shares: list[Share], corp: Corporation) -> bool:
        if not shares:
            return False
        if self.sold(player).get(corp.sym) or (
            self.bought() and not self.can_buy_multiple(player, corp)
        ):
            return False
        bundle = self.smallest_bundle(shares, corp)
        return bundle is not None and player.cash >= bundle.price and self.can_gain(player, bundle)

    def _no_room(self, player: Player) -> bool:
        """No certificate fits under ``player``'s limit, whatever it is (the generic
        :meth:`can_gain`, asked once instead of for every bundle; common rules §6.6)."""
        return type(self).can_gain is BuySellParShares.can_gain and not (
            self.game.within_cert_limit(player)
        )

    def can_buy_any(self, player: Player) -> bool:
        if self._no_room(player):
            return False
        for corp in self.game.corporations:
            if self.can_buy_from(player, self.game.pool.shares_of(corp.sym), corp):
                return True
        for corp in self.game.corporations:
            if not corp.ipoed:
                continue
            bundle = self.smallest_bundle(corp.treasury_shares(), corp)
            if self.can_buy(player, bundle):
                return True
        return False

    def can_par_any(self, player: Player) -> bool:
        """Whether ``player`` may start some corporation: one not yet started with its
        president's certificate in the treasury, a par price he can pay for it, and room for
        the certificate (common rules §6.6).  The par prices do not depend on the corporation,
        so they are looked at once, when a corporation qualifies."""
        if self.bought() or self._no_room(player):
            return False
        game = self.game
        affordable: bool | None = None
        for corp in game.corporations:
            if game.can_par(corp):
                treasury = corp.treasury_shares()
                if not treasury:
                    continue
                if affordable is None:
                    affordable = game.can_afford_par(player)
                if not affordable:
                    return False
                if self.can_gain(player, Bundle.of([treasury[0]], corp)):
                    return True
        return False

    # -- the turn ------------------------------------------------------------------------------
    # The menu is :func:`turn_menu` of four tests of the current player, each remembered for
    # the state (``remembered``; who may act is found once per state, by
    # existence tests): the skip test (``blocking``) and the routing (``offers_current``)
    # ask only those they need, and the menu asked afterwards reuses them.
    _test: ClassVar[Callable[[BuySellParShares, str, Player], bool]] = remembered_tests(
        share_turn_tests(Player)
    )
    """One of the turn's tests of ``player`` by name, remembered for the state."""

    def must_sell_now(self, player: Player) -> bool:
        """Whether ``player`` must sell now (common rules §6.6): asked only when over a limit
        unless a title's step has its own :meth:`must_sell`."""
        if type(self).must_sell is BuySellParShares.must_sell and not self._over_a_limit(player):
            return False  # a forced sale needs a limit exceeded: no sale to test
        return self.must_sell(player, self._test("can_sell", player))

    def _over_a_limit(self, player: Player) -> bool:
        """Over the certificate limit, or over the holding limit of a corporation held: what
        :meth:`must_sell` asks besides a possible sale (common rules §6.6)."""
        game = self.game
        if game.num_certs(player) > game.cert_limit(player):
            return True
        return any(
            player.shares.get(c.sym) and not game.holding_ok(player, c) for c in game.corporations
        )

    def _plain_menu(self) -> bool:
        """The menu is this class's :meth:`actions` (a title step with its own is asked the
        long way) and the step blocks."""
        return self.blocks and type(self).actions is BuySellParShares.actions

    def blocking(self) -> bool:
        """``bool(current_actions())`` asked as existence tests that stop at the first yes
        (a sale is possible whenever it must be made); a title step with its own
        ``actions`` is asked the long way."""
        if not self._plain_menu():
            return super().blocking()
        found: bool = remembered(self, "blocking", self._any_action)
        return found

    def _any_action(self) -> bool:
        entity = self.current_entity()
        if not self.blocks or not isinstance(entity, Player) or getattr(entity, "closed", False):
            return False
        return (
            self._test("can_buy", entity)
            or self._test("can_par", entity)
            or self._test("can_sell", entity)
        )

    def offers_current(self, kind: str) -> bool:
        """``kind in self.current_actions()`` from the tests it needs (:func:`turn_menu`: a
        forced sale alone, else each purchase and sale by its test, ``pass`` with any)."""
        if not self._plain_menu():
            return super().offers_current(kind)
        entity = self.current_entity()
        if not isinstance(entity, Player) or getattr(entity, "closed", False):
            return False
        if not self.blocking():
            return False  # nothing offered
        if self._test("must_sell", entity):
            return kind == "sell_shares"
        test = _KIND_TESTS.get(kind, "")
        if not test:
            return kind == "pass"
        return self._test(test, entity)

    def actions(self, entity: Entity) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Player):
            return []
        return turn_menu(
            self._test("must_sell", entity),
            self._test("can_sell", entity),
            lambda: self._test("can_buy", entity),
            lambda: self._test("can_par", entity),
        )

    def choices(self, entity: Entity) -> list[Action]:
        """Every distinct sale, one purchase per source and corporation, every par, pass."""
        kinds = self.actions(entity)
        if not kinds or not isinstance(entity, Player):
            return []
        game = self.game
        out: list[Action] = []
        if "sell_shares" in kinds:
            out += sale_choices(game, entity, self.can_sell)
        if "buy_shares" in kinds:
            for corp in game.corporations:
                if not corp.ipoed:
                    continue
                for source in (corp, game.pool):
                    seen: set[int] = set()
                    for share in source.shares_of(corp.sym):
                        if share.percent in seen or share.president:
                            continue
                        bundle = Bundle.of([share], corp)
                        if self.can_buy(entity, bundle):
                            seen.add(share.percent)
                            out.append(_share_action(entity, "buy_shares", bundle))
        if "par" in kinds:
            for corp in game.corporations:
                if game.can_par(corp) and corp.treasury_shares():
                    for cell in game.par_cells():
                        if cell.price * 2 <= entity.cash:
                            out.append(
                                act(entity, "par", corporation=corp.sym, share_price=cell.id)
                            )
        if "pass" in kinds:
            out.append(act(entity, "pass"))
        return out

    # -- processing -------------------------------------------------------------------------
    def track(self, action: moves.Move, player: Player) -> None:
        self.round.state.current_actions.append(action)

    def process_buy_shares(self, action: moves.BuyShares, entity: Player) -> None:
        bundle = bundle_from_action(self.game, action)
        if not self.can_buy(entity, bundle):
            raise IllegalAction(f"{entity.name} may not buy {bundle.corporation.sym} now", RULE)
        self.game.buy_shares(entity, bundle)
        self.track(action, entity)

    def process_sell_shares(self, action: moves.SellShares, entity: Player) -> None:
        bundle = bundle_from_action(self.game, action)
        if not self.can_sell(entity, bundle):
            raise IllegalAction(f"{entity.name} may not sell {bundle.corporation.sym} now", RULE)
        corp = bundle.corporation
        self.sold(entity)[corp.sym] = "now"
        before = corp.share_price
        self.game.sell_shares_and_change_price(bundle)
        self.game.after_player_sale(corp, before)
        self.track(action, entity)

    def process_par(self, action: moves.Par, entity: Player) -> None:
        corp = self.game.corporation(action.corporation)
        if not self.game.can_par(corp):
            raise IllegalAction(
                f"{corp.sym} cannot be started now", "title rules: which corporation may start"
            )
        if self.bought():
            raise IllegalAction("only one purchase per turn", RULE)
        cell = self.game.market.cell_by_id(action.share_price)
        if cell is None or cell not in self.game.par_cells():
            raise IllegalAction(f"{action.share_price} is not a par price now", "par prices")
        share = corp.treasury_shares()[0]
        bundle = Bundle.of([share], corp)
        self.game.set_par(corp, cell)
        if entity.cash < bundle.price or not self.can_gain(entity, bundle):
            corp.share_price = None
            corp.par_price = None
            cell.corporations.remove(corp.sym)
            raise IllegalAction(f"{entity.name} cannot start {corp.sym} at {cell.price}", RULE)
        self.game.buy_shares(entity, bundle)
        self.game.after_par(corp)
        self.track(action, entity)

    def pass_(self) -> None:
        super().pass_()
        player = self.current_entity()
        if player is not None:
            player.passed = not self.round.state.current_actions


# marked here, not by decorating the method: mypyc cannot compile a decorated method of a
# native class (rule 8); the mark is the same function (the method descriptor when compiled)
any_action_blocks(BuySellParShares.blocking)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class HomeToken(CorporationStep):
    """A corporation that chooses its home places that token before anything else.  A title
    using this step lists the cities and places the token on its board (its two hooks)."""

    description = "Place Home Token"

    def pending(self) -> PendingToken | None:
        pending = self.round.state.pending_tokens
        return pending[0] if pending else None

    def active(self) -> bool:
        return self.pending() is not None

    def current_entity(self) -> Corporation | None:
        pending = self.pending()
        return pending["entity"] if pending is not None else None

    def active_entities(self) -> Sequence[Entity]:
        corp = self.current_entity()
        return [corp] if corp is not None else []

    def actions(self, entity: Entity) -> list[str]:
        corp = self.current_entity()
        return ["place_token"] if corp is not None and entity is corp else []

    def choices(self, entity: Entity) -> list[Action]:
        pending = self.pending()
        if pending is None or entity is not pending["entity"]:
            return []
        corp = pending["entity"]
        return [
            act(corp, "place_token", city=city, slot=0, tokener=corp.sym)
            for city in self.home_cities(corp, pending["hexes"])
        ]

    def process_place_token(self, action: moves.PlaceToken, entity: Corporation) -> None:
        pending = self.pending()
        assert pending is not None  # ``actions`` offers the lay only while one is pending
        self.place_home(pending["entity"], action, pending["hexes"])
        self.round.state.pending_tokens.pop(0)

    def home_cities(self, corp: Corporation, hexes: list[str]) -> list[str]:
        """Hook: the cities of ``hexes`` where ``corp`` may place its home token."""
        raise NotImplementedError

    def place_home(self, corp: Corporation, action: moves.PlaceToken, hexes: list[str]) -> None:
        """Hook: place ``corp``'s home token in the city ``action`` names, one of ``hexes``."""
        raise NotImplementedError


def sale_choices(
    game: Game, player: Player, can_sell: Callable[[Player, Bundle], bool]
) -> list[Action]:
    """A ``sell_shares`` action for every distinct bundle the player may sell."""
    out: list[Action] = []
    for corp in game.corporations:
        if not player.shares.get(corp.sym):
            continue
        for bundle in game.bundles_for_corporation(player, corp):
            if can_sell(player, bundle):
                out.append(_share_action(player, "sell_shares", bundle))
    return out


def _share_action(entity: Entity, kind: str, bundle: Bundle) -> Action:
    return act(entity, kind, shares=[s.id for s in bundle.shares], percent=bundle.percent)
