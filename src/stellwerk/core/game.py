"""The game: one mutable aggregate of everything on the table, driven by actions.

``Game`` knows the generic 18xx procedures (common rules §§4, 6): round sequence, operating
order, private revenue, floating, selling with price drops, train purchase with phase
changes and rusting, game end and final values.  A title subclasses it once, supplies its
data and step lists, binds the abstract methods (its rounds, certificate limit and board)
and overrides the small hook methods named ``hooks_*`` or documented as hooks below.  No
title name appears here.
"""

from __future__ import annotations

import contextlib
import itertools
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import ClassVar, Generic, Protocol

from mypy_extensions import mypyc_attr
from typing_extensions import TypeVar

from stellwerk.core import moves
from stellwerk.core.actions import TEXT_TYPES
from stellwerk.core.entities import (
    Bank,
    Company,
    Corporation,
    Entity,
    Holder,
    Player,
    Share,
    SharePool,
    Train,
    controller,
    transfer,
)
from stellwerk.core.errors import IllegalAction
from stellwerk.core.events import (
    Acted,
    CompanyClosed,
    CorporationClosed,
    Event,
    Floated,
    GameEnded,
    Parred,
    PhaseChanged,
    PlayerBankrupt,
    PresidentChanged,
    PriceMoved,
    Ref,
    RoundStarted,
    SharesBought,
    SharesSold,
    Spent,
    TrainBought,
    TrainsRusted,
    ref,
)
from stellwerk.core.flow.base import ANNOUNCING, Round, announces_changes
from stellwerk.core.flow.rounds import OperatingRound, StockRound
from stellwerk.core.jsondata import JSONObject
from stellwerk.core.map.board import Board
from stellwerk.core.market import Cell, Market, move_corporation
from stellwerk.core.native import set_state, state_of
from stellwerk.core.policy import LIVE, RECORDED, Policy
from stellwerk.core.rng import Rng
from stellwerk.core.routes.model import RouteData, RouteSearch, RouteView
from stellwerk.core.routes.optimize import BestRun
from stellwerk.core.shares import (
    Bundle,
    ChangePresident,
    all_bundles,
    generic_change_president,
    interchangeable,
    iter_bundles,
    move_share,
    seat_distance,
    transfer_bundle,
)
from stellwerk.core.trains import Depot, PhaseDef, Phases


class MemoCache(Protocol):
    """A title's cache outside the state that remembered answers may ask (its graph cache):
    it names its contents (``stamp``) and counts the questions asked of it (``reads``)."""

    @property
    def stamp(self) -> object: ...

    @property
    def reads(self) -> int: ...

    @reads.setter
    def reads(self, value: int) -> None: ...


class MapView(Protocol):
    """What the engine's users read of a title's map port: the board as it stands (tiles,
    tokens, reservations; ``core.map.board``)."""

    @property
    def board(self) -> Board: ...


MapT = TypeVar("MapT", bound=MapView, default=MapView, covariant=True)
"""The type of a game's map port (``Game.map``): a title's game names its own port as
``Game[ItsPort]`` instead of narrowing the attribute, which a compiled title module may not
(docs/native-build.md, rule 3); a bare ``Game`` is ``Game[MapView]``."""

_VERSIONS = itertools.count(1)
"""Numbers of states between processed actions (``Game.memo_key``), unique in the process."""


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Game(ABC, Generic[MapT]):
    """Generic game state and procedures.  Titles subclass and bind hooks."""

    title: ClassVar[str] = ""
    market_share_limit = 50
    sell_movement: ClassVar[str] = "down_share"
    bankruptcy_ends_game_after: ClassVar[str] = "one"
    game_end_check: ClassVar[dict[str, str]] = {}
    game_end_priority: ClassVar[list[str]] = ["immediate", "current_round", "current_or", "full_or"]
    live_rules: ClassVar[dict[str, str]] = {}
    """Hook: the title's rule per action type, named when live play refuses an action."""
    map: MapT
    """The title's map port, set by the title's constructor (a game without a board has
    none)."""

    def __getstate__(self) -> dict[str, object]:
        """Pickle and copy: the attributes, also those of a compiled class (``core.native``)."""
        return state_of(self)

    def __setstate__(self, state: dict[str, object]) -> None:
        set_state(self, state)

    def __init__(
        self,
        players: list[tuple[int | str, str]],
        options: list[str],
        seed: int,
    ) -> None:
        self.options = list(options)
        self.seed = seed
        self.rng = Rng(seed)
        self.players = [Player(pid, name) for pid, name in players]
        self.all_players = list(self.players)
        self.bank = Bank("Bank")
        self.pool = SharePool("Market")
        self.turn = 1
        self.finished = False
        self.game_end_reason: str | None = None
        self.end_trigger: tuple[str, str] | None = None
        self._policy = LIVE
        self.recorded_passes: list[Entity] | None = None
        """Live play (``stellwerk.api.Game.process`` sets it to a list for one action and its
        follow-ups, None otherwise): the entities whose turn live play ended for want of a
        move where the recorded rules would have waited for them, in order
        (:meth:`note_turn_end`); the API records a pass of each."""
        self.log: list[str] = []
        self.journal: list[Event] = []
        """What happened, in order (``stellwerk.core.events``; the log players read)."""
        self._seen: set[Entity | tuple[str, Corporation]] = set()
        """Closings, floats and bankruptcies already told (:meth:`watch`)."""
        self.corporations: list[Corporation] = []
        self.companies: list[Company] = []
        self.market: Market = Market([])
        self.depot: Depot = Depot([])
        self.phases: Phases = Phases([PhaseDef("1", [], 1, 4, [])])
        self.operating_rounds = 1
        self.rounds_begun = 0
        """How many rounds were built, the placeholder below included: the next round's
        :attr:`Round.seq`."""
        self.round: Round[Entity] = Round(self, [])
        self._version: int | None = None
        """Names the state while it holds still (:meth:`settle`); None while it changes."""
        self._parked: int | None = None
        """The version of the state a processed action left, kept for :meth:`resume`."""
        self._flows = 0
        """How many flows that remember are under way (an action processed, a call of the
        public API); outside them nothing is remembered (a game built or changed by hand)."""
        self.memo_key: object = None
        """A name for what answers about who may act depend on, or None while the state may
        change or outside a flow: the state's version (:meth:`settle`) and the checks policy.
        Equal keys mean equal answers, so steps and rounds remember them under it (who may
        act is computed once per state change); answers that asked ``memo_cache``
        are kept with its stamp too.  Kept up to date by :meth:`settle`, :meth:`changing`
        and ``policy``."""
        self.memo_cache: MemoCache | None = None
        """Hook: the title's cache outside the state that step answers may ask (its graph
        cache): it counts questions (``reads``) and names its contents (``stamp``)."""

    # -- lookups ----------------------------------------------------------------------------
    def player_by_id(self, pid: object) -> Player:
        for p in self.all_players:
            if p.id == pid or str(p.id) == str(pid):
                return p
        raise IllegalAction(f"no player {pid}", "common rules §2.4")

    _corporation_index: tuple[list[Corporation], dict[str, tuple[int, Corporation]]] | None = None
    """Where each symbol's corporation was in :attr:`corporations` (the list itself, and
    symbol -> (place, corporation), the first of a symbol) when last looked up: a
    corporation still at its place is the one a search finds (a symbol never changes and
    names one corporation of the list); titles append, replace, remove and swap them."""

    def corporation(self, sym: str) -> Corporation:
        found = self._find_corporation(sym)
        if found is None:
            raise IllegalAction(f"no corporation {sym}", "common rules §2.4")
        return found

    def _find_corporation(self, sym: str) -> Corporation | None:
        """The first corporation of :attr:`corporations` with this symbol, by the index
        (:attr:`_corporation_index`) while it holds, else by a search that renews it."""
        corps = self.corporations
        index = self._corporation_index
        if index is not None and index[0] is corps:
            try:
                found = index[1].get(sym)
            except TypeError:  # not a symbol at all (unhashable): the search refuses it
                found = None
            if found is not None and found[0] < len(corps) and corps[found[0]] is found[1]:
                return found[1]
        for c in corps:
            if c.sym == sym:
                table: dict[str, tuple[int, Corporation]] = {}
                for place, corp in enumerate(corps):
                    table.setdefault(corp.sym, (place, corp))
                self._corporation_index = (corps, table)
                return c
        return None

    def company(self, sym: str) -> Company:
        for c in self.companies:
            if c.sym == sym:
                return c
        raise IllegalAction(f"no company {sym}", "common rules §2.4")

    def entity(self, action: moves.Move | Mapping[str, object]) -> Entity:
        """Who acts in ``action`` (a move, or an action object at the edge: the live gate
        reads one before it is parsed)."""
        ent, etype = moves.acting(action)
        if not isinstance(ent, (int, str)):
            raise IllegalAction(f"no entity {ent!r}", "common rules §3.2")
        if etype == "player":
            return self.player_by_id(ent)
        if etype == "corporation":
            return self.corporation(str(ent))
        if etype == "company":
            return self.company(str(ent))
        raise IllegalAction(f"unknown entity type {etype}", "common rules §3.2")

    def share_by_id(self, share_id: str) -> Share:
        """The certificate in play with this id (common rules §2.4)."""
        corp_sym, _, index = share_id.rpartition("_")
        corp = self.corporation(corp_sym)
        for share in corp.certificates:
            if share.index == int(index):
                return share
        raise IllegalAction(f"no certificate {share_id}", "common rules §2.4")

    def holders(self) -> list[Holder]:
        """The players, corporations and pool: where certificates in play are held."""
        return [*self.all_players, *self.corporations, self.pool]

    def train_by_id(self, train_id: str) -> Train:
        for train in self.depot.trains:
            if train.id == train_id:
                return train
        raise IllegalAction(f"no train {train_id}", "common rules §2.3")

    # -- the action loop --------------------------------------------------------------------
    def process_action(self, action: moves.Move | JSONObject) -> None:
        """Process one action and, after it, its recorded automatic actions.  An action
        object is parsed first (``stellwerk.core.moves.parse``: a malformed one is refused
        before anything changes)."""
        move = moves.as_move(action)
        if self.finished and move.type != "message":
            raise IllegalAction("the game is over", "common rules §4.2")
        self.process_single(move)
        for auto in move.auto_actions or ():
            self.process_single(auto)

    @property
    def policy(self) -> Policy:
        """Which checks run (``stellwerk.core.policy``): ``LIVE`` in live play, ``RECORDED``
        while a recorded file is replayed as 18xx.games loads it (common rules §3.6).  Rule
        code asks it by name (``game.policy.token_reach``); the API sets it."""
        return self._policy

    @policy.setter
    def policy(self, value: Policy) -> None:
        self._policy = value
        self._rekey()

    def turn_may_follow_policy(self) -> bool:
        """Hook: whether the checks policy may now decide if an entity has a move at all, so
        that live play (``LIVE``) could end a turn the recorded rules (``RECORDED``) would
        wait in (:meth:`note_turn_end`).  False by default: the policy changes what a move
        may be (a lay, a token, a run), and the steps that offer those offer a pass either
        way.  Asked only when a turn ends for want of a move in live play; a title answers
        from a cheap look at the state."""
        return False

    def note_turn_end(self, entity: Entity | None, offered: Callable[[], bool]) -> None:
        """A step ends ``entity``'s turn (or skips it) because live play offers it nothing
        (``offered()`` is False under the current policy).  While live play records passes
        (:attr:`recorded_passes`), ask ``offered()`` again under ``RECORDED``: if the
        recorded rules offer a move there, 18xx.games would give ``entity`` the turn and
        wait for it, so ``entity`` is noted and the API writes its pass into the file
        (``stellwerk.api.Game.process``).  Only where :meth:`turn_may_follow_policy` says
        the answers may differ."""
        passes = self.recorded_passes
        if passes is None or entity is None or self._policy == RECORDED:
            return
        if not self.turn_may_follow_policy():
            return
        kept = self._policy
        self.policy = RECORDED
        try:
            waits = offered()
        finally:
            self.policy = kept
        if waits:
            passes.append(entity)

    def _rekey(self) -> None:
        """``memo_key`` for the current version, policy and flows."""
        version = self._version
        self.memo_key = None if version is None or not self._flows else (version, self._policy)

    def process_single(self, action: moves.Move) -> None:
        self._flows += 1
        version = self._version  # ``_rekey``, inlined (a flow is on now)
        self.memo_key = None if version is None else (version, self._policy)
        self.journal.append(Acted(action))
        try:
            self._process_single(action)
            self.watch()
        finally:
            self.settle()
            self.park()
            self._flows -= 1

    def watch(self) -> None:
        """Tell what changed without one place to tell it from: companies
        and corporations that closed, corporations that floated, players who went bankrupt
        since the last action (a few flags per entity: cheap)."""
        seen = self._seen
        journal = self.journal
        for company in self.companies:
            if company.closed and company not in seen:
                seen.add(company)
                journal.append(CompanyClosed(company.sym))
        for corp in self.corporations:
            if corp.floated:
                if corp not in seen:
                    seen.add(corp)
                    journal.append(Floated(corp.sym))
                continue
            if corp.closed:
                key = ("closed", corp)
                if key not in seen:
                    seen.add(key)
                    journal.append(CorporationClosed(corp.sym))
            elif corp in seen:  # closed and restarted (a fresh start may float again)
                seen.discard(corp)
        for player in self.all_players:
            if player.bankrupt and player not in seen:
                seen.add(player)
                journal.append(PlayerBankrupt(ref(player)))

    # -- remembering who may act -----------------------------------------------------------
    # While an action is processed, answers are remembered between ``settle`` and
    # ``changing``; the version the action leaves is parked, and the public API resumes it
    # for its calls (menus, the live gate, the next action's routing).  Nothing is remembered
    # outside those flows.  Code that changes the state other than by actions calls
    # ``changing`` (``stellwerk.api.Game.engine`` does it for whoever takes the engine).

    def changing(self) -> None:
        """The state is about to change: answers are no longer remembered until it is settled
        again (the round calls this once it has routed an action, so routing uses the answers
        of the state before it)."""
        self._version = None
        self._parked = None
        self.memo_key = None

    def settle(self) -> None:
        """The state holds still until the next :meth:`changing`: answers found from now on
        are remembered under a new version (kept if it is settled already)."""
        if self._version is None:
            version = self._version = next(_VERSIONS)
            # ``_rekey``, inlined (asked at every step of every action)
            self.memo_key = (version, self._policy) if self._flows else None

    def park(self) -> None:
        """Stop remembering for now, keeping the version for :meth:`resume`."""
        if self._version is not None:
            self._parked = self._version
        self._version = None
        self.memo_key = None

    def resume(self) -> None:
        """Remember again under the parked version: the state is still the one the last
        processed action left (the public API's calls; nobody changed it since)."""
        if self._version is None and self._parked is not None:
            self._version = self._parked
            self._rekey()

    @contextlib.contextmanager
    def remembering(self) -> Iterator[None]:
        """A flow of the public API: :meth:`resume` for the duration of a ``with`` block,
        then :meth:`park`."""
        self._flows += 1
        self.resume()
        self._rekey()
        try:
            yield
        finally:
            self.park()
            self._flows -= 1

    def _process_single(self, action: moves.Move) -> None:
        kind = action.type
        if kind in TEXT_TYPES:
            # chat and log lines: kept in the action list, no effect (common rules §3.3)
            return
        if kind.startswith("program_"):
            # standing orders: their effects are recorded as auto_actions (common rules §3.5);
            # the site keeps them even from a user who is not seated (live play checks that)
            return
        entity = self.entity(action)
        if kind == "end_game":
            # a site user ended the game by hand (common rules §4.2, manually_ended)
            self.changing()
            self.end_game("manually_ended")
            return
        cash = entity.cash
        self.round.process_action(action, entity)
        if entity.cash != cash:
            self.journal.append(Spent(ref(entity), cash - entity.cash))
        if type(self).action_processed not in ANNOUNCING:
            self.changing()
        self.action_processed(action)
        trigger = self.end_trigger
        reason, timing = self.check_game_end()
        if self.end_trigger != trigger:
            self.changing()
        if timing == "immediate" and reason:
            self.changing()
            self.end_game(reason)
        while True:
            # settled: the answers found here serve the next action's routing and menus
            self.settle()
            if not self.round.finished() or self.finished:
                break
            self.changing()
            for ent in self.round.entities:
                if hasattr(ent, "passed"):
                    ent.passed = False
            if self.end_now(timing) and reason:
                self.end_game(reason)
            elif self.turn >= 100:
                self.end_game("dnf")
            else:
                self.next_round()
                rnd = self.round
                self.journal.append(RoundStarted(rnd.name, self.turn, rnd.round_num))
                rnd.setup()

    @announces_changes
    def action_processed(self, action: moves.Move) -> None:
        """Hook after each action (e.g. closing corporations in a close cell).  An override
        marked ``announces_changes`` calls ``changing`` before it changes anything (then
        what the round found after the action is still good when nothing happens)."""

    # -- round sequence ---------------------------------------------------------------------
    def next_round(self) -> None:
        """Auction -> SR -> ORs of the set -> SR ... (common rules §6; ORs per phase)."""
        rnd = self.round
        if isinstance(rnd, StockRound):
            self.operating_rounds = self.phases.current.operating_rounds
            self.reorder_players()
            self.round = self.new_operating_round(1)
        elif isinstance(rnd, OperatingRound):
            if rnd.round_num < self.operating_rounds:
                self.round = self.new_operating_round(rnd.round_num + 1)
            else:
                self.turn += 1
                self.round = self.new_stock_round()
        else:
            self.reorder_players()
            self.round = self.new_stock_round()

    def reorder_players(self) -> None:
        """Priority goes to the player after the last one who acted (after_last_to_act)."""
        active = [p for p in self.players if not p.bankrupt]
        if not active:
            return
        player = active[self.round.entity_index % len(active)]
        idx = self.players.index(player)
        self.players = self.players[idx:] + self.players[:idx]

    @abstractmethod
    def new_stock_round(self) -> Round[Entity]:
        """The title's stock round (its steps)."""

    @abstractmethod
    def new_operating_round(self, round_num: int) -> Round[Entity]:
        """The title's ``round_num``-th operating round of the set (its steps)."""

    def hooks_stock_round_setup(self, rnd: StockRound) -> None:
        """Hook at the start of a stock round."""

    def hooks_stock_turn_start(self, rnd: StockRound) -> None:
        """Hook at the start of every stock-round turn."""

    def hooks_before_next_operator(self, rnd: OperatingRound) -> bool:
        """Hook before the next corporation operates; return True to stop the round."""
        return False

    @contextlib.contextmanager
    def looking_ahead(self) -> Iterator[None]:
        """Hook: computations for menus and automatic actions run inside this; a title whose
        caches must follow the reference engine's timeline restores them afterwards."""
        yield

    # -- game end ---------------------------------------------------------------------------
    def check_game_end(self) -> tuple[str | None, str | None]:
        """The most urgent end condition that holds (common rules §4.2)."""
        trigger = self.end_trigger
        holds = self.end_condition
        priority = self.game_end_priority
        for reason, timing in self.end_checks().items():
            # a condition that could not make the end more urgent is not asked (none of
            # them changes anything)
            if trigger is not None and priority.index(timing) >= priority.index(trigger[1]):
                continue
            if holds(reason):
                trigger = self.end_trigger = (reason, timing)
        return trigger or (None, None)

    def end_checks(self) -> dict[str, str]:
        """Hook: each end condition and its timing; ``game_end_check`` unless the title's
        settings choose the timing."""
        return self.game_end_check

    def end_condition(self, reason: str) -> bool:
        if reason == "bank":
            return self.bank.broken
        if reason == "bankrupt":
            if self.bankruptcy_ends_game_after != "all_but_one":
                return any(p.bankrupt for p in self.players)  # fewer left than seated
            alive = 0
            for player in self.players:
                if not player.bankrupt:
                    alive += 1
                    if alive > 1:
                        return False  # (asked after every action: two are found at once)
            return alive == 1
        if reason == "stock_market":
            return self.market.end_reached
        return self.title_end_condition(reason)

    def title_end_condition(self, reason: str) -> bool:
        """Hook: whether a title's own end condition ``reason`` holds (one the common ones of
        :meth:`end_condition` are not; none by default)."""
        return False

    def end_now(self, timing: str | None) -> bool:
        if timing is None:
            return False
        if timing in ("immediate", "current_round"):
            return True
        if not isinstance(self.round, OperatingRound):
            return False
        if timing == "current_or":
            return True
        return self.round.round_num == self.operating_rounds

    def end_game(self, reason: str) -> None:
        if self.finished:
            return
        self.finished = True
        self.game_end_reason = reason
        self.journal.append(GameEnded(reason))

    def player_value(self, player: Player) -> int:
        """Cash + market value of certificates of started corporations + private face values
        − penalties (common rules §4.1)."""
        value = player.cash - player.penalty
        for share in player.all_shares():
            corp = self.corporation_or_none(share.corporation)
            if corp is None or not corp.ipoed:
                continue
            price = (
                corp.share_price.price
                if corp.share_price is not None
                else (self.unpriced_share_value(corp))
            )
            value += math.ceil(price * share.percent / corp.share_unit)
        value += sum(c.value for c in player.companies)
        return value

    def unpriced_share_value(self, corp: Corporation) -> int:
        """What one share unit of an IPO'd corporation without a share price (closed while
        players still hold its shares) counts in a player's value: nothing (common rules
        §4.1: certificates count at their market value); a title may say otherwise."""
        return 0

    def corporation_or_none(self, sym: str) -> Corporation | None:
        return self._find_corporation(sym)

    def result(self) -> dict[str, int]:
        return {str(p.id): self.player_value(p) for p in self.all_players}

    # -- stock market -----------------------------------------------------------------------
    def move_price(self, corp: Corporation, direction: str, times: int = 1) -> None:
        """Move a corporation's price marker (common rules §6.5)."""
        old = corp.share_price
        for _ in range(times):
            cell = corp.share_price
            assert cell is not None
            coords = cell.coordinates
            target = getattr(self.market, direction)(coords)
            corp.share_price = move_corporation(self.market, corp.sym, cell, target)
            self.after_price_move(corp)
        new = corp.share_price
        if old is not None and new is not None and times:
            self.journal.append(PriceMoved(corp.sym, old.price, new.price, direction))

    def after_price_move(self, corp: Corporation) -> None:
        """Hook after every single price move."""

    def set_par(self, corp: Corporation, cell: Cell) -> None:
        cell.corporations.append(corp.sym)
        corp.share_price = cell
        corp.par_price = cell
        self.journal.append(Parred(corp.sym, cell.price))

    def operating_order(self) -> list[Corporation]:
        return sorted((c for c in self.corporations if c.floated), key=lambda c: c.sort_key())

    # -- shares: ownership and control (common rules §6.6) ----------------------------------
    max_holding_percent = 60
    """Hook: the most a holder may have of one corporation (``max_ownership_percent``)."""
    holding_limit_counts_controlled: ClassVar[bool] = False
    """Hook: the holding limit counts, for the controlling player, his own percentage plus
    what the corporations he controls hold; otherwise the holder's own percentage."""
    corporate_cert_limit = 0
    """Hook: how many certificates of other corporations a corporation may hold."""
    privates_count_in_cert_limit: ClassVar[bool] = True
    """Hook: a player's private companies count towards the certificate limit."""

    def may_preside(self, corp: Corporation, holder: Holder) -> bool:
        """Hook: whether ``holder`` may be president of ``corp``; its holding then also counts
        as sold for the sold-out test.  Players only by default; a title where corporations
        own corporations admits them too (never ``corp`` itself)."""
        return isinstance(holder, Player)

    def president_distance(self, previous: Holder | None, candidate: Holder) -> int:
        """Hook: how far ``candidate`` sits after the previous president; the nearest of equal
        candidates takes the presidency (common rules §6.6: clockwise seat distance between
        players; corporations come after the players, in definition order)."""
        if isinstance(candidate, Player):
            return seat_distance(self.players, previous, candidate)
        if candidate in self.corporations:
            return len(self.players) + self.corporations.index(candidate)
        return len(self.players) + len(self.corporations)

    def controller(self, entity: Holder | None) -> Player | None:
        """The player controlling ``entity`` through its chain of control; None for a
        frozen corporation."""
        return controller(entity)

    def decider(self, entity: Holder | None) -> Player | None:
        """The player who decides for ``entity`` now: its controller (:meth:`controller`);
        a title may name another for a corporation without one while a procedure of the
        title decides for it (a corporation being formed that has no president yet)."""
        return self.controller(entity)

    def controlled_percent(self, holder: Holder, corp: Corporation) -> int:
        """What ``holder`` has of ``corp`` for the holding limit: its own percentage, or with
        ``holding_limit_counts_controlled`` its controlling player's own percentage plus what
        every corporation he controls (other than ``corp``) holds.  (Read from ``corp``'s
        certificates: only corporations holding some are asked who controls them, once each;
        the stock turn asks this often.)"""
        sym = corp.sym
        if not self.holding_limit_counts_controlled:
            return holder.percent_of(sym)
        player = controller(holder)
        if player is None:
            return holder.percent_of(sym)
        total = player.percent_of(sym)
        pool = self.pool
        controls: dict[int, bool] = {}
        for share in corp.certificates:
            other = share.owner
            if other is player or other is corp or other is pool:
                continue  # (counted above, or no corporation: told apart without isinstance)
            if not isinstance(other, Corporation):
                continue
            key = id(other)
            found = controls.get(key)
            if found is None:
                found = controls[key] = controller(other) is player
            if found:
                total += share.percent
        return total

    def holding_ok(self, holder: Holder, corp: Corporation, extra: int = 0) -> bool:
        """At most ``max_holding_percent`` of a corporation, its own treasury aside (common
        rules §6.6)."""
        if holder is corp:
            return True
        return self.controlled_percent(holder, corp) + extra <= self.max_holding_percent

    def num_certs(self, holder: Holder) -> int:
        """Certificates counting towards ``holder``'s limit: a player's certificates and
        privates; a corporation's certificates of other corporations (its own treasury does
        not count)."""
        certs = sum(map(len, holder.shares.values()))
        if isinstance(holder, Corporation):
            return certs - len(holder.shares.get(holder.sym, ()))
        if isinstance(holder, Player) and self.privates_count_in_cert_limit:
            certs += len(holder.companies)
        return certs

    def cert_limit(self, holder: Holder | None = None) -> int:
        """The certificate limit of ``holder``: a corporation's is ``corporate_cert_limit``,
        a player's (also when None) the title's table (:meth:`player_cert_limit`)."""
        if isinstance(holder, Corporation):
            return self.corporate_cert_limit
        return self.player_cert_limit(holder if isinstance(holder, Player) else None)

    @abstractmethod
    def player_cert_limit(self, player: Player | None) -> int:
        """A player's certificate limit (the title's table when ``player`` is None)."""

    def within_cert_limit(self, holder: Holder, extra: int = 1) -> bool:
        """Whether ``holder`` may take ``extra`` more certificates."""
        return self.num_certs(holder) + extra <= self.cert_limit(holder)

    def sold_out(self, corp: Corporation) -> bool:
        """Every certificate is held by holders that may preside: none in the treasury (IPO)
        or the pool (common rules §6.5, end of stock round)."""
        return sum(p for h, p in corp.share_holders.items() if self.may_preside(corp, h)) == 100

    def may_sell(self, holder: Holder, bundle: Bundle) -> bool:
        """Whether ``holder`` may sell ``bundle`` at all: its own certificates, as a player or
        a corporation -- a corporation selling its own treasury issues shares, a title rule
        of its own (common rules §6.6)."""
        return (
            bundle.owner is holder
            and isinstance(holder, (Player, Corporation))
            and holder is not bundle.corporation
        )

    def fits_in_pool(self, bundle: Bundle) -> bool:
        return (
            bundle.percent + self.pool.percent_of(bundle.corporation.sym) <= self.market_share_limit
        )

    def check_sale_timing(self, corp: Corporation) -> bool:
        return corp.operated

    def bundles_for_corporation(self, holder: Holder, corp: Corporation) -> list[Bundle]:
        return all_bundles(holder, corp)

    def sale_bundles(self, holder: Holder, corp: Corporation) -> Iterator[Bundle]:
        """Hook: the bundles of :meth:`bundles_for_corporation` one at a time, in any order,
        for existence tests that stop at the first that qualifies; a title whose bundles are
        dear to build makes them as they are asked for (the generic ones are made so)."""
        if type(self).bundles_for_corporation is Game.bundles_for_corporation:
            return iter_bundles(holder, corp)
        return iter(self.bundles_for_corporation(holder, corp))

    def transfer_shares(
        self, bundle: Bundle, to: Holder, allow_president_change: bool = True
    ) -> None:
        corp = bundle.corporation
        president = corp.owner
        transfer_bundle(
            bundle,
            to,
            self,
            self.pool,
            self.change_president_for(corp),
            self.handle_partial,
            allow_president_change,
        )
        self.tell_president_change(corp, president)

    def set_president(self, corp: Corporation, holder: Holder | None) -> None:
        """Make ``holder`` the president of ``corp`` (common rules §6.6): the one way a
        title's own directorship rules (a director's certificate dumped, a bankruptcy, a
        formation, a start packet) change the presidency outside :meth:`transfer_shares`,
        which settles it by itself.  The title moves the certificates by its rule; this sets
        the president and tells it (``PresidentChanged``)."""
        before = corp.owner
        corp.owner = holder
        self.tell_president_change(corp, before)

    def tell_president_change(self, corp: Corporation, before: Holder | None) -> None:
        """Tell a change of ``corp``'s president from ``before`` (nothing if none): after
        :meth:`transfer_shares`, :meth:`set_president`, or a title's own certificate transfer
        that settles the presidency by its rule (``transfer_bundle`` with its own swap)."""
        if corp.owner is not before and corp.owner is not None:
            old = None if before is None else ref(before)
            self.journal.append(PresidentChanged(corp.sym, old, ref(corp.owner)))

    def change_president_for(self, corp: Corporation) -> ChangePresident:
        return generic_change_president(corp)

    def handle_partial(self, bundle: Bundle, source: Holder, to: Holder) -> None:
        corp = bundle.corporation
        diff = sum(s.percent for s in bundle.shares) - bundle.percent
        for _ in range(diff // corp.share_unit):
            move_share(source.shares_of(corp.sym)[0], to)

    def buy_shares(self, buyer: Holder, bundle: Bundle, price: int | None = None) -> None:
        """Buy a bundle: cash to the corporation for its own certificates (incremental
        capitalisation), otherwise to the seller / bank (common rules §6.6)."""
        corp = bundle.corporation
        was_floated = corp.floated
        if bundle.presidents_share is not None:
            corp.ipoed = True
        cost = bundle.price if price is None else price
        owner = bundle.owner
        if cost:
            receiver: Holder = owner if isinstance(owner, (Corporation, Player)) else self.bank
            transfer(buyer, receiver, cost, "common rules §6.6")
        self.journal.append(
            SharesBought(
                ref(buyer),
                corp.sym,
                bundle.percent,
                ref(owner),
                cost,
                bundle.presidents_share is not None,
            )
        )
        self.transfer_shares(bundle, buyer)
        if not was_floated and self.is_floated(corp):
            corp.floated = True

    def is_floated(self, corp: Corporation) -> bool:
        return corp.percent_of(corp.sym) <= 100 - corp.float_percent

    def sell_shares(self, bundle: Bundle) -> None:
        """Sell a bundle to the pool at the current price."""
        seller = bundle.owner
        transfer(self.bank, seller, bundle.price, "common rules §6.6")
        corp = bundle.corporation
        self.journal.append(SharesSold(ref(seller), corp.sym, bundle.percent, bundle.price))
        self.transfer_shares(bundle, self.pool)

    def sell_shares_and_change_price(self, bundle: Bundle) -> None:
        corp = bundle.corporation
        self.sell_shares(bundle)
        if self.sell_movement == "down_per_10":
            self.move_price(corp, "down", bundle.percent // 10)
        elif self.sell_movement == "down_share":
            self.move_price(corp, "down", math.ceil(bundle.num_shares()))
        elif self.sell_movement == "down_block":
            self.move_price(corp, "down")

    # -- hooks the generic steps call (defaults: no title rule) ---------------------------
    def token_hexes(self, corp: Corporation) -> list[str]:
        """Hexes of the corporation's placed tokens, sorted."""
        return []

    def trace_tiles(self) -> dict[str, str]:
        """Every hex that is not a plain white printed hex: ``tile@rotation``."""
        return {}

    def after_player_sale(self, corp: Corporation, before: Cell | None) -> None:
        """Hook after a player's sale moved (or did not move) a price."""

    def can_buy_extra(self, bundle: Bundle) -> bool:
        """Title restriction on buying a bundle."""
        return True

    def can_par(self, corp: Corporation) -> bool:
        return not corp.ipoed

    def par_cells(self) -> list[Cell]:
        return self.market.cells_with_type({"p"})

    def can_afford_par(self, player: Player) -> bool:
        return any(c.price * 2 <= player.cash for c in self.par_cells())

    def after_par(self, corp: Corporation) -> None:
        """Hook after a corporation is started."""

    def pay_dividend(self, corp: Corporation, revenue: int, kind: str) -> None:
        """Pay out (revenue / number of shares per share, each holder's amount rounded up; the
        corporation's own treasury shares pay it) or withhold (all to the corporation), then
        move the price (common rules §6.1, dividends)."""
        if kind == "withhold":
            if revenue:
                transfer(self.bank, corp, revenue)
        elif revenue:
            per_share = revenue / corp.total_shares
            for holder in [*self.players, *self.corporations]:
                pct = holder.percent_of(corp.sym)
                if not pct:
                    continue
                amount = math.ceil(pct / corp.share_unit * per_share)
                if amount:
                    transfer(self.bank, holder, amount)
        self.dividend_price_move(corp, revenue if kind == "payout" else 0)

    def dividend_price_move(self, corp: Corporation, paid: int) -> None:
        """Generic: paid -> right, else left (common rules §6.1)."""
        self.move_price(corp, "right" if paid > 0 else "left")

    def after_company_sold(self, corp: Corporation, company: Company) -> None:
        """Hook after a corporation bought a company."""

    def after_buy_company(self, player: Player, company: Company, price: int) -> None:
        """Hook after a player bought a company in the auction."""

    def has_usable_company_ability(self, corp: Corporation) -> bool:
        """Hook: the corporation owns a company whose power it may still use this turn (the
        turn then waits for an explicit pass at its end)."""
        return False

    def purchasable_companies(self, corp: Corporation) -> list[Company]:
        """Companies a corporation may buy from their owners (common rules §6.7)."""
        return [c for c in self.companies if isinstance(c.owner, Player) and not c.closed]

    # -- the board: every title binds these to its map ---------------------------------------
    def can_lay_tile(self, corp: Corporation) -> bool:
        """Hook: the corporation may lay track this turn (generic: yes; how many lays is the
        track step's allowance, common rules §6.3)."""
        return True

    @abstractmethod
    def legal_lays(self, corp: Corporation, hex_id: str | None) -> list[tuple[str, str, int]]:
        """(hex, tile id, rotation) of every lay the corporation may make now (on ``hex_id``
        only if given) (common rules §6.3)."""

    def lay_hexes(self, corp: Corporation) -> list[str]:
        """Hook: hexes where ``legal_lays(corp, hex)`` may list lays, in a fixed order; a
        superset is fine (a caller that wants one lay asks them one by one).  By default the
        hexes of every legal lay; titles answer without checking any lay."""
        return sorted({hex_id for hex_id, _, _ in self.legal_lays(corp, None)})

    def lay_is_legal(self, corp: Corporation, hex_id: str, tile_id: str, rotation: int) -> bool:
        """Hook: whether ``legal_lays(corp, hex_id)`` lists this lay.  Titles may answer for
        the one lay without listing every tile and rotation (the live gate asks this)."""
        return (hex_id, tile_id, rotation) in self.legal_lays(corp, hex_id)

    @abstractmethod
    def lay_tile(self, corp: Corporation, action: moves.LayTile) -> None:
        """Lay or upgrade the tile ``action`` names, checked and paid (common rules §6.3)."""

    @abstractmethod
    def can_place_token(self, corp: Corporation) -> bool:
        """The corporation is offered a station token this turn (common rules §6.4)."""

    @abstractmethod
    def token_choices(self, corp: Corporation) -> list[tuple[str, int]]:
        """(city id, slot) of every city where the corporation may place a token now."""

    @abstractmethod
    def place_token(self, corp: Corporation, action: moves.PlaceToken) -> None:
        """Place and pay for the station token ``action`` names (common rules §6.4)."""

    @abstractmethod
    def route_info(self, corp: Corporation) -> tuple[bool, bool]:
        """(the corporation runs: a route exists, a train must be bought) for its network
        (common rules §6.1; MUST_BUY_TRAIN route)."""

    @abstractmethod
    def best_run(self, corp: Corporation, trains: Sequence[Train] | None = None) -> BestRun:
        """The best run of the corporation on the board as it stands, with its own trains or
        with ``trains`` instead (a what-if; common rules §6.1): proven optimal unless the
        search reports it was cut short."""

    @abstractmethod
    def route_search(self, corp: Corporation) -> RouteSearch:
        """The run context, trains and route rules of ``corp`` now, for a search of its
        routes outside a run (the GM's named routes; common rules §6.1)."""

    def suggest_routes(self, corp: Corporation) -> list[RouteData]:
        """The best routes of the corporation's trains (run_routes format, common rules §2.3)."""
        return self.best_run(corp).routes

    @abstractmethod
    def route_revenue(self, corp: Corporation, routes: Sequence[RouteView]) -> int:
        """The revenue of ``routes``, checked (common rules §6.1)."""

    # -- train and share hooks ----------------------------------------------------------------
    def issuable_bundles(self, corp: Corporation) -> list[Bundle]:
        """Treasury shares the corporation may issue now (none generically)."""
        return []

    def redeemable_bundles(self, corp: Corporation) -> list[Bundle]:
        """Pool shares the corporation may redeem now (none generically)."""
        return []

    def can_issue(self, corp: Corporation) -> bool:
        """Hook: whether :meth:`issuable_bundles` lists any (a title may answer faster)."""
        return bool(self.issuable_bundles(corp))

    def can_redeem(self, corp: Corporation) -> bool:
        """Hook: whether :meth:`redeemable_bundles` lists any (a title may answer faster)."""
        return bool(self.redeemable_bundles(corp))

    def issuable_like(self, corp: Corporation, bundle: Bundle) -> bool:
        """Hook: whether :meth:`issuable_bundles` lists a bundle interchangeable with
        ``bundle`` (``shares.interchangeable``; a title may look without listing them all)."""
        return any(interchangeable(bundle, b) for b in self.issuable_bundles(corp))

    def redeemable_like(self, corp: Corporation, bundle: Bundle) -> bool:
        """Hook: whether :meth:`redeemable_bundles` lists a bundle interchangeable with
        ``bundle`` (a title may look without listing them all)."""
        return any(interchangeable(bundle, b) for b in self.redeemable_bundles(corp))

    def depot_trains_for(self, corp: Corporation) -> list[Train]:
        return self.depot.depot_trains(self.phases)

    def other_trains(self, corp: Corporation) -> list[Train]:
        return [t for c in self.corporations if c is not corp for t in c.trains]

    def min_depot_train(self, corp: Corporation | None) -> Train | None:
        trains = self.depot.depot_trains(self.phases)
        return min(trains, key=lambda t: t.price) if trains else None

    def min_depot_price(self, corp: Corporation | None) -> int:
        train = self.min_depot_train(corp)
        return train.price if train else 0

    def must_buy_train_now(self, corp: Corporation) -> bool:
        """No train, trains left, and a route exists (common rules: MUST_BUY_TRAIN route)."""
        return (
            not corp.trains
            and bool(self.depot.depot_trains(self.phases))
            and self.route_info(corp)[1]
        )

    def emergency_sale_timing_ok(self, rnd: Round[Entity], corp: Corporation) -> bool:
        return corp.operated

    def can_go_bankrupt(self, corp: Corporation, rnd: Round[Entity]) -> bool:
        return False

    def bankrupt(self, corp: Corporation, rnd: Round[Entity]) -> None:
        raise IllegalAction("bankruptcy is not possible in this title", "title rules")

    # -- companies --------------------------------------------------------------------------
    def payout_companies(self) -> None:
        """Private revenue to owners: players in seat order, then corporations (§6.7)."""
        owned = [c for c in self.companies if c.owner is not None and c.revenue > 0]

        def key(c: Company) -> tuple[int, int, str, int, str]:
            if isinstance(c.owner, Player):
                return (0, self.players.index(c.owner), "", c.revenue, c.name)
            assert c.owner is not None
            return (1, 0, c.owner.name, c.revenue, c.name)

        for company in sorted(owned, key=key):
            assert company.owner is not None
            transfer(self.bank, company.owner, company.revenue)

    # -- trains -----------------------------------------------------------------------------
    def train_limit(self, corp: Corporation) -> int:
        return self.phases.current.train_limit

    def crowded_corps(self) -> list[Corporation]:
        return [c for c in self.corporations if c.trains and len(c.trains) > self.train_limit(c)]

    def has_crowded_corps(self) -> bool:
        """Whether :meth:`crowded_corps` lists any (asked at every step of every action: the
        generic list is searched only to the first)."""
        if type(self).crowded_corps is not Game.crowded_corps:
            return bool(self.crowded_corps())
        if type(self).train_limit is Game.train_limit:  # one limit for all
            limit = self.phases.current.train_limit
            for corp in self.corporations:  # noqa: SIM110 (a plain loop: asked very often)
                if len(corp.trains) > limit:
                    return True
            return False
        return any(c.trains and len(c.trains) > self.train_limit(c) for c in self.corporations)

    def buy_train(self, corp: Corporation, train: Train, price: int) -> None:
        """Pay for a train and take it; the depot's first sale of a type may change the phase
        and rust older trains (common rules §6)."""
        source = train.owner
        payee: Holder = source if isinstance(source, Corporation) else self.bank  # depot: bank
        transfer(corp, payee, price, "common rules §6 (buy train)")
        self.journal.append(TrainBought(corp.sym, train.name, ref(source), price))
        if source is self.depot:
            self.depot.remove(train)
        elif isinstance(source, Corporation):
            source.trains.remove(train)
        train.owner = corp
        corp.trains.append(train)
        self.after_train_bought(corp, train)
        self.buying_train(train)

    def after_train_bought(self, corp: Corporation, train: Train) -> None:
        """Hook: companies closing when a train is bought."""

    def buying_train(self, train: Train) -> None:
        while self.phases.next_on(train.name):
            self.phases.advance()
            self.journal.append(PhaseChanged(self.phases.name))
        self.rust_trains(train)
        for event in train.events:
            getattr(self, f"event_{event}")()
        train.events = []

    def rust_trains(self, bought: Train) -> None:
        rusted: dict[str, list[Ref]] = {}
        for train in list(self.depot.trains):
            if train.rusted or train.rusts_on != bought.name:
                continue
            train.rusted = True
            owner = train.owner
            rusted.setdefault(train.name, []).append(ref(owner))
            if isinstance(owner, Corporation):
                owner.trains.remove(train)
            elif owner is self.depot:
                self.depot.remove(train)
            train.owner = None
        for name, owners in rusted.items():
            self.journal.append(TrainsRusted(name, tuple(owners)))

    def reclaim_train(self, train: Train) -> None:
        owner = train.owner
        if isinstance(owner, Corporation):
            owner.trains.remove(train)
        self.depot.reclaim(train)
