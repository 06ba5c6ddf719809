"""1849's closings: corporations in the 0 cell, bankruptcy and the player loan choice
(rules/1849.md §§5, 6), with the order and turn effects 18xx.games gives them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Entity, Player, retire_certificates, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.events import CorporationClosed
from stellwerk.core.flow.base import Round, Step, announces_changes
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.core.game import Game
from stellwerk.core.shares import Bundle
from stellwerk.titles.g1849.entities import c49

if TYPE_CHECKING:
    from stellwerk.titles.g1849.data_load import CorporationSpec, TitleData
    from stellwerk.titles.g1849.mapport import MapPort


BOND_INTEREST = 50
"""What an issued bond costs its corporation each OR (1849 rules §7.4)."""


class ClosingRules(Game):
    """Closing and bankruptcy of 1849, bound into :class:`~stellwerk.titles.g1849.game.Game1849`."""

    data: TitleData
    map: MapPort
    closing_queue: list[Corporation]
    corporations_are_closing: bool
    forced_next: bool
    rsa_corporation: str | None
    loan_choice_player: Player | None
    moved_this_turn: list[Corporation]

    def _new_corporation(self, c: CorporationSpec) -> Corporation:
        raise NotImplementedError

    def update_garibaldi(self) -> None:
        raise NotImplementedError

    def reorder_corps(self) -> None:
        raise NotImplementedError

    @announces_changes
    def action_processed(self, action: moves.Move) -> None:
        """A corporation in the 0 cell closes (1849 rules §5)."""
        if not self._in_close_cell():
            return
        self.changing()
        # the step and entity that were acting before the closing: if the closing took away
        # everything that entity could do, its turn ends (18xx.games action_processed)
        step = self.round.active_step()
        entity = self.round.current_entity()
        self.forced_next = False
        self.close_corporations_in_close_cell(step)
        if self.forced_next:
            # the closing corporation was operating: the round moved on afresh
            step = self.round.active_step()
            current = self.round.current_entity()
            if step is not None and (current is None or not step.actions(current)):
                self.round.skip_steps()
                self.round.next_entity()
            return
        if step is None:
            return
        # that engine asks its remembered step who acts *now*
        now = step.active_entities()
        entity = now[0] if now else None
        if entity is None and getattr(step, "needs_entity", False):
            # its emergency-money step fails when the closing ended the cash crisis
            raise IllegalAction(
                "the closing would leave the debt step without a debtor (18xx.games refuses this)",
                "1849 rules §7.4",
            )
        if entity is None or not step.actions(entity):
            # 18xx.games keeps the step it computed before the closing as "active" until the
            # next action; the next entity's turn starts under that stale view, so a next
            # entity with nothing to do is not skipped (the game then waits).  Mirrored so
            # that every game we write is accepted by it.
            self.round.stale_step = step
            self.round.skip_steps()
            self.round.next_entity()

    def sale_closes(self, bundle: Bundle) -> bool:
        """Selling ``bundle`` moves its corporation into the 0 cell, which closes it (1849
        rules §5; one row down per 10 % sold, rules §2.2)."""
        cell = bundle.corporation.share_price
        if cell is None:
            return False
        coords = cell.coordinates
        for _ in range(bundle.percent // 10):
            coords = self.market.down(coords)
        target = self.market.cell(coords)
        return target is not None and "c" in target.types

    def sale_strands_debt(self, bundle: Bundle) -> bool:
        """Selling ``bundle`` closes a corporation that is, or by its bond interest at once
        becomes, the debtor of the emergency money step: the closing writes the debt off
        (rules §5) and leaves that step without a debtor, which 18xx.games cannot process
        (``action_processed``).  Such sales are not offered.  Two ways lead there (1849 rules
        §§5, 7.4): the operating corporation issues shares and cannot then pay the bond
        interest due right after the issue step; or the president sells shares of the
        corporation whose debt he is raising money for."""
        corp = bundle.corporation
        if not self.sale_closes(bundle):
            return False
        if bundle.owner is corp:
            return c49(corp).bond and corp.cash + bundle.price < BOND_INTEREST
        return corp.cash < 0

    def sellable_bundles(
        self, player: Player, corp: Corporation, rnd: Round[Entity]
    ) -> list[Bundle]:
        """Bundles the player may sell now: those the round's current blocking step allows.
        A step that sells nothing (e.g. track laying) allows none (18xx.games
        ``sellable_bundles``)."""
        step = rnd.active_step()
        if getattr(step, "pending_choice", False):
            # 18xx.games cannot value shares while a presidency, loan or SMS choice is
            # pending (those steps answer the sale question wrongly and the action fails)
            raise IllegalAction("not while a choice is pending", "1849 rules §§2.2, 4.6, 6")
        can_sell = getattr(step, "can_sell", None)
        if can_sell is None:
            return []
        return [b for b in self.bundles_for_corporation(player, corp) if can_sell(player, b)]

    def can_go_bankrupt(self, corp: Corporation, rnd: Round[Entity]) -> bool:
        """Corporation cash + president's cash + the most he may sell of each corporation is
        less than the cheapest depot train (1849 rules §6, 18xx.games ``can_go_bankrupt?``)."""
        player = corp.owner
        if not isinstance(player, Player):
            return False
        power = player.cash + corp.cash
        for c in self.corporations:
            if player.shares.get(c.sym):
                power += max((b.price for b in self.sellable_bundles(player, c, rnd)), default=0)
        return power < self.min_depot_price(corp)

    def _in_close_cell(self) -> list[Corporation]:
        return [
            c
            for c in self.corporations
            if not c.closed and c.share_price is not None and "c" in c.share_price.types
        ]

    def close_corporations_in_close_cell(self, view: Step | None = None) -> None:
        """Close every corporation whose price is in the 0 cell, one after the other; a
        closing that happens while another one is under way is queued (18xx.games
        close_corporations_in_close_cell!)."""
        for corp in self._in_close_cell():
            if corp not in self.closing_queue:
                self.closing_queue.append(corp)
        if self.corporations_are_closing:
            return
        self.corporations_are_closing = True
        while self.closing_queue:
            self.close_corporation(self.closing_queue.pop(0), view)
        self.corporations_are_closing = False

    def close_corporation(self, corp: Corporation, view: Step | None = None) -> None:
        """Close a corporation (1849 rules §5): tokens off the map, cash to the bank, trains
        and companies gone, certificates void; a fresh copy joins the end of the queue.
        ``view`` is the step the round saw acting before the event: 18xx.games asks that step,
        once the cash is gone, whether the closing corporation is the one acting, and if so
        cuts its turn short."""
        if view is None:
            view = self.round.active_step()
        if self.rsa_corporation == corp.sym:
            self.rsa_corporation = None
        self.map.remove_all_tokens(corp)
        if corp.cash >= 0:
            transfer(corp, self.bank, corp.cash)
        else:  # a debt from bond interest is written off by the bank
            transfer(self.bank, corp, -corp.cash)
        acting = view.active_entities() if view is not None else []
        was_operating = (
            isinstance(self.round, OperatingRound) and bool(acting) and acting[0] is corp
        )
        for train in list(corp.trains):
            corp.trains.remove(train)
            train.owner = None
        for company in list(corp.companies):
            company.close()
        if was_operating:
            self.forced_next = True
            self.round.force_next_entity()
        retire_certificates(corp)
        if corp.share_price is not None and corp.sym in corp.share_price.corporations:
            corp.share_price.corporations.remove(corp.sym)
        corp.closed = True
        self.journal.append(CorporationClosed(corp.sym))
        corp.floated = False
        corp.ipoed = False
        self.set_president(corp, None)  # nobody presides over a closed one
        idx = self.corporations.index(corp)
        self.corporations.pop(idx)
        if corp in self.closing_queue:
            self.closing_queue.remove(corp)
        # others that reached the 0 cell close now, before this one rejoins the queue
        self.close_corporations_in_close_cell(None if was_operating else view)
        for _ in self.data.corporation_order:
            self.rng.draw()
        fresh = self._new_corporation(self.data.corporation(corp.sym))
        if fresh.home:
            self.map.reserve_home(fresh)
        self.corporations.append(fresh)
        c49(fresh).closed_recently = True
        index = len(self.corporations) - 1
        prev = self.corporations[index - 1]
        if not c49(prev).slot_open:
            # it may skip ahead of a blocked AFG (1849 rules §5)
            c49(prev).next_to_par = False
            self.corporations[index - 1], self.corporations[index] = fresh, prev
        if self.corporations[index - 1].floated:
            c49(fresh).next_to_par = True
        self.update_garibaldi()

    def bankrupt(self, corp: Corporation, rnd: Round[Entity]) -> None:
        """The president sells what he legally may, gives all cash to the corporation, and it
        closes; with no shares left he chooses a loan or leaves (1849 rules §6)."""
        player = corp.owner
        assert isinstance(player, Player)
        if not self.can_go_bankrupt(corp, rnd):
            raise IllegalAction(
                f"{corp.sym} and {player.name} can still afford a train", "1849 rules §6"
            )
        for c in sorted(
            (c for c in self.corporations if player.shares_of(c.sym) and c.share_price),
            key=lambda c: c.sort_key(),
        ):
            sellable = self.sellable_bundles(player, c, rnd)
            if not sellable:
                continue
            bundle = max(sellable, key=lambda b: b.price)
            before = c.share_price
            self.sell_shares_and_change_price(bundle)
            if before is not c.share_price:
                self.moved_this_turn.append(c)
        if player.cash > 0:
            transfer(player, corp, player.cash)
        self.close_corporation(corp)
        self.reorder_corps()
        if not player.all_shares():
            self.loan_choice_player = player
