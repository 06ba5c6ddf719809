"""The API's reading of a title game: the views of :mod:`stellwerk.views`, found in the
engine.  Part of the API: front ends get a :class:`Reader` from ``stellwerk.api.Game.view``
and never see what it reads.

A reader reads the engine it was given and changes nothing (who may act is asked the way the
API asks it, inside ``CoreGame.remembering``); the views it hands out are frozen copies, their
mappings read-only.  Corporations owned by
corporations (1841) and frozen corporations need no title knowledge here: the chain of
control is the core's (``stellwerk.core.entities.chain_of_control``, ``Game.controller``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

from stellwerk.core.entities import Company, Corporation, Holder, Player, chain_of_control
from stellwerk.core.events import Event
from stellwerk.core.map.board import Board
from stellwerk.core.map.tiles import NodeKind
from stellwerk.core.moves import parse
from stellwerk.views import (
    AbilityView,
    BidView,
    BuyingLimitsView,
    CertificateView,
    Choice,
    CompanyView,
    CorporationView,
    EntityKey,
    EntityRef,
    HoldingView,
    MapFacts,
    MarketCellView,
    MarketView,
    OutcomeView,
    PlayerView,
    Question,
    SealedBidsView,
    SealedItemView,
    StepView,
    TableView,
    TrainNeedView,
    TrainView,
)

if TYPE_CHECKING:
    from stellwerk.core.game import Game as CoreGame


def ref(holder: Holder) -> EntityRef:
    """How a holder is named: a player by id and name, a corporation or company by symbol
    (a corporation's name is its symbol, what players call it), others by their own name."""
    if isinstance(holder, Player):
        return EntityRef("player", holder.id, holder.name)
    if isinstance(holder, Company):
        return EntityRef("company", holder.sym, holder.name)
    if isinstance(holder, Corporation):
        return EntityRef("corporation", holder.sym, holder.sym)
    return EntityRef(holder.kind, holder.name, holder.name)


DEPOT = EntityRef("depot", "depot", "depot")
"""The bank's trains as an owner."""


class Reader:
    """The views of one title game.  A reader answers each question for the game as it was
    when the question was first asked of it (the players and corporations are read once):
    take a new one after an action (``api.Game.view``), never keep one."""

    def __init__(self, engine: CoreGame) -> None:
        self._engine = engine
        self._players: dict[int, PlayerView] | None = None
        self._corporations: tuple[CorporationView, ...] | None = None

    # -- the table ----------------------------------------------------------------------
    @property
    def title(self) -> str:
        return self._engine.title

    def table(self) -> TableView:
        engine = self._engine
        return TableView(
            title=engine.title,
            turn=engine.turn,
            phase=engine.phases.name,
            bank=engine.bank.cash,
            depot=MappingProxyType(engine.depot.counts()),
            priority=self.priority(),
            finished=engine.finished,
            game_end_reason=engine.game_end_reason,
        )

    def priority(self) -> EntityRef | None:
        """The holder of the priority deal: a title that keeps it apart from the seat order
        names it in its game's ``priority`` (1835); else the first player in seat order who
        is not bankrupt."""
        engine = self._engine
        holder = getattr(engine, "priority", None)
        if isinstance(holder, Player):
            return ref(holder)
        active = [p for p in engine.players if not p.bankrupt]
        return ref(active[0]) if active else None

    # -- players, corporations, companies ------------------------------------------------
    def players(self) -> tuple[PlayerView, ...]:
        """Every player who started the game (bankrupt ones too), in seat order."""
        return tuple(self._player_view(p) for p in self._engine.all_players)

    def _player_view(self, player: Player) -> PlayerView:
        if self._players is None:
            self._players = {id(p): self._player(p) for p in self._engine.all_players}
        found = self._players.get(id(player))
        return found if found is not None else self._player(player)

    def seating(self) -> tuple[PlayerView, ...]:
        """The players at the table in seat order as the game keeps it now: from the holder
        of the priority deal where the title passes it round by turning the seats (1849,
        1841), else as seated (1835 keeps the deal apart: :meth:`priority`); a player who has
        left the game after a bankruptcy is no longer seated where the title removes him."""
        return tuple(self._player_view(p) for p in self._engine.players)

    def _player(self, player: Player) -> PlayerView:
        engine = self._engine
        return PlayerView(
            id=player.id,
            name=player.name,
            cash=player.cash,
            shares=MappingProxyType(
                {sym: sum(s.percent for s in cs) for sym, cs in player.shares.items() if cs}
            ),
            companies=tuple(ref(c) for c in player.companies),
            certificates=engine.num_certs(player),
            certificate_limit=engine.cert_limit(player),
            worth=engine.player_value(player),
            bankrupt=player.bankrupt,
        )

    def certificate_limit(self) -> int:
        """The players' certificate limit by the title's table now (a player's own limit may
        differ: ``PlayerView.certificate_limit``)."""
        return self._engine.cert_limit()

    def corporations(self) -> tuple[CorporationView, ...]:
        """Every corporation of the game (majors and minors, closed ones too), in the game's
        order."""
        if self._corporations is None:
            engine = self._engine
            found = getattr(getattr(engine, "map", None), "board", None)
            board = found if isinstance(found, Board) else None
            self._corporations = tuple(self._corporation(c, board) for c in engine.corporations)
        return self._corporations

    def symbols(self) -> tuple[str, ...]:
        """The symbols of every corporation of the game, in the game's order."""
        return tuple(c.sym for c in self._engine.corporations)

    def corporation(self, sym: str) -> CorporationView | None:
        """The corporation ``sym``; None for an unknown symbol."""
        return next((c for c in self.corporations() if c.sym == sym), None)

    def _corporation(self, corp: Corporation, board: Board | None) -> CorporationView:
        engine = self._engine
        chain = chain_of_control(corp)
        links = tuple(ref(h) for h in chain if h is not None)
        controller = engine.controller(corp)
        holders = []
        for holder, percent in corp.share_holders.items():
            certs = holder.shares_of(corp.sym)
            holders.append(
                HoldingView(ref(holder), percent, len(certs), any(s.president for s in certs))
            )
        tokens = board.token_hexes(corp.sym) if board is not None else engine.token_hexes(corp)
        home = corp.home if isinstance(corp.home, str) else None
        city = getattr(corp, "city", 0)
        return CorporationView(
            sym=corp.sym,
            name=corp.full_name,
            president=ref(corp.owner) if corp.owner is not None else None,
            chain=links,
            controller=ref(controller) if controller is not None else None,
            circular=isinstance(chain[-1], Corporation),
            price=corp.share_price.price if corp.share_price is not None else None,
            par=corp.par_price.price if corp.par_price is not None else None,
            cash=corp.cash,
            trains=tuple(t.name for t in corp.trains),
            tokens=tuple(tokens),
            token_count=corp.num_tokens,
            ipo_percent=corp.percent_of(corp.sym),
            pool_percent=engine.pool.percent_of(corp.sym),
            holders=tuple(holders),
            companies=tuple(ref(c) for c in corp.companies),
            started=corp.ipoed,
            floated=corp.floated,
            closed=corp.closed,
            home=home,
            home_city=city if isinstance(city, int) else 0,
        )

    def companies(self) -> tuple[CompanyView, ...]:
        """Every private company of the game, closed ones too, in the game's order, with
        what the title's data says it does."""
        declared = _company_data(getattr(self._engine, "data", None))
        return tuple(
            CompanyView(
                sym=c.sym,
                name=c.name,
                owner=ref(c.owner) if c.owner is not None else None,
                value=c.value,
                revenue=c.revenue,
                closed=c.closed,
                abilities=_abilities(declared.get(c.sym)),
            )
            for c in self._engine.companies
        )

    def holders_of(self, sym: str) -> tuple[HoldingView, ...]:
        """Who holds shares of the corporation ``sym`` (treasury and pool included); () for
        an unknown symbol."""
        corp = self.corporation(sym)
        return corp.holders if corp is not None else ()

    def declared_colors(self) -> dict[str, tuple[str, str]]:
        """The colours the title's data names per corporation symbol (fill, text); empty
        where the title leaves colours to the pictures' palette."""
        data = getattr(self._engine, "data", None)
        return _declared_colors(data if isinstance(data, Mapping) else None)

    def certificate(self, share_id: str) -> CertificateView:
        """The certificate ``share_id`` (``SFA_3``); an unknown one is refused with
        ``IllegalAction``."""
        share = self._engine.share_by_id(share_id)
        return CertificateView(
            id=share.id,
            corporation=share.corporation,
            percent=share.percent,
            president=share.president,
            holder=ref(share.owner) if share.owner is not None else None,
        )

    def train(self, train_id: str) -> TrainView:
        """The train ``train_id`` (``4-1``); an unknown one is refused with
        ``IllegalAction``."""
        train = self._engine.train_by_id(train_id)
        owner = train.owner
        found = None if owner is None else ref(owner) if isinstance(owner, Holder) else DEPOT
        return TrainView(id=train.id, name=train.name, owner=found)

    def price_space(self, action: Mapping[str, object]) -> tuple[int, int] | None:
        """The amounts (least, greatest) the player may name in the listed ``action``'s
        ``price``, as the live gate checks them (``Step.price_space`` of the step that takes
        it): equal for a fixed price (1835's start items, the cheapest private of a waterfall
        auction), a range for a bid or a purchase between two prices.  None when no step
        takes the action or it has no price."""
        from stellwerk.core.errors import IllegalAction
        from stellwerk.core.live import routing_step

        if not isinstance(action.get("price"), int):
            return None
        engine = self._engine
        try:
            with engine.remembering(), engine.looking_ahead():
                entity = engine.entity(dict(action))
                step = routing_step(engine, entity, str(action.get("type")))
                low, high = step.price_space(entity, dict(action))
        except (IllegalAction, KeyError, ValueError, TypeError):
            return None
        return int(low), int(high)

    def outcome(self, action: Mapping[str, object]) -> OutcomeView | None:
        """What the legal ``action`` would change for its acting entity (:class:`OutcomeView`),
        tried on a copy of the game; the game itself is untouched.  None when the entity is
        unknown or the try is refused.  A copy costs tens of milliseconds: ask it for the few
        bare choices that need it (``choose``), not for every action."""
        import copy

        engine = self._engine
        before = _entity(engine, action.get("entity"))
        if before is None:
            return None
        from stellwerk.core.policy import LIVE

        trial = copy.deepcopy(engine)
        trial.policy = LIVE
        try:
            trial.resume()
            trial.process_action(parse({**action, "id": 1 << 30}))
        except Exception:  # a refused or unknown action: no outcome to tell
            return None
        after = _entity(trial, action.get("entity"))
        if after is None:
            return None
        counts = (
            (before.num_tokens, after.num_tokens)
            if isinstance(before, Corporation) and isinstance(after, Corporation)
            else (None, None)
        )
        return OutcomeView(
            spent=before.cash - after.cash, token_count=counts[1], token_count_before=counts[0]
        )

    # -- market, step, bids ------------------------------------------------------------------
    def market(self) -> MarketView:
        return MarketView(
            tuple(
                tuple(
                    None
                    if cell is None
                    else MarketCellView(
                        cell.row,
                        cell.column,
                        cell.price,
                        frozenset(cell.types),
                        tuple(cell.corporations),
                    )
                    for cell in row
                )
                for row in self._engine.market.rows
            )
        )

    def step(self) -> StepView:
        """The step asked now, who acts, and the standing bids."""
        engine = self._engine
        rnd = engine.round
        with engine.remembering():
            step = rnd.active_step()
            acting = tuple(ref(e) for e in rnd.active_entities())
        return StepView(
            description=step.description if step is not None else None,
            acting=acting,
            bids=self.bids(),
        )

    def question(self) -> Question | None:
        """The decision asked now as a set of named answers (``stellwerk.core.legal.question``:
        a procedure's or a step's question with the meaning of each answer); None when no
        step asks one (ordinary moves: ``Game.legal_actions()``)."""
        from stellwerk.core.legal import question

        engine = self._engine
        with engine.remembering(), engine.looking_ahead():
            asked = question(engine)
        if asked is None:
            return None
        return Question(
            who=ref(asked.entity),
            topic=asked.topic,
            facts=asked.facts,
            choices=tuple(Choice(dict(a.action), a.kind, a.facts) for a in asked.answers),
        )

    def train_need(self) -> TrainNeedView | None:
        """The train the operating corporation must buy now and cannot pay from its treasury
        (common rules §6, emergency purchase; :class:`TrainNeedView`); None when the step
        asked now is not a train purchase, the corporation need not buy one, or its cash
        pays the cheapest train the bank sells."""
        from stellwerk.core.flow.operating import BuyTrain

        engine = self._engine
        with engine.remembering():
            step = engine.round.active_step()
            if not isinstance(step, BuyTrain):
                return None
            corp = step.current_entity()
            if not isinstance(corp, Corporation) or not step.must_buy(corp):
                return None
            cheapest = engine.min_depot_train(corp)
            if cheapest is None or corp.cash >= cheapest.price:
                return None
            payer = step.paying_player(corp)
        return TrainNeedView(
            corporation=corp.sym,
            cash=int(corp.cash),
            train=cheapest.name,
            price=int(cheapest.price),
            payer=ref(payer) if payer is not None else None,
        )

    def buying_limits(self, holder: EntityKey, sym: str) -> BuyingLimitsView | None:
        """The limits on ``holder`` (a player's id or a corporation's symbol) buying a
        certificate of ``sym`` now, as the engine's own checks answer them; None for an
        unknown holder or corporation."""
        engine = self._engine
        found: Holder | None = next((p for p in engine.all_players if p.id == holder), None)
        if found is None:
            found = engine.corporation_or_none(str(holder))
        corp = engine.corporation_or_none(sym)
        if found is None or corp is None:
            return None
        cell = corp.share_price
        return BuyingLimitsView(
            holder=ref(found),
            corporation=corp.sym,
            certificates=engine.num_certs(found),
            certificate_limit=engine.cert_limit(found),
            within_limit=engine.within_cert_limit(found),
            percent=found.percent_of(corp.sym),
            holding_allowed=engine.holding_ok(found, corp, extra=10),
            max_percent=engine.max_holding_percent,
            cash=found.cash,
            price=int(cell.price) if cell is not None else None,
        )

    def sealed_bids(self) -> SealedBidsView | None:
        """The round's sealed-bid auction while it collects the players' lists (its items in
        the order of a ``blind_bid``'s ``bids``, their opening bids); None otherwise.  An
        auction step that collects sealed lists says so (``sealing()``) and keeps its items
        (``all_items``) and their ``opening_bid``."""
        engine = self._engine
        for step in engine.round.steps:
            sealing = getattr(step, "sealing", None)
            items = getattr(step, "all_items", None)
            opening = getattr(step, "opening_bid", None)
            if not (callable(sealing) and callable(opening) and isinstance(items, list)):
                continue
            with engine.remembering():
                if not step.active() or not sealing():
                    continue
                acting = tuple(ref(e) for e in engine.round.active_entities())
            return SealedBidsView(
                items=tuple(SealedItemView(ref(item), int(opening(item))) for item in items),
                bidder=acting[0] if acting else None,
            )
        return None

    def bids(self) -> tuple[BidView, ...]:
        """The standing bids of the round's auction steps (an auction step keeps them in its
        ``bids``: per item, a list of (player, price) or a mapping player -> price, None for
        one who has joined but not bid yet)."""
        out: list[BidView] = []
        for step in self._engine.round.steps:
            bids = getattr(step, "bids", None)
            if not isinstance(bids, dict):
                continue
            for item, standing in bids.items():
                pairs = standing.items() if isinstance(standing, dict) else standing
                for player, price in pairs:
                    if price is None:
                        continue
                    out.append(BidView(_item_ref(item), ref(player), int(price)))
        return tuple(out)

    # -- the log, the map --------------------------------------------------------------------
    def journal(self) -> Sequence[Event]:
        """What happened, in order (``stellwerk.core.events``: frozen records; the engine's
        own list, read it only)."""
        return self._engine.journal

    def board(self) -> Board:
        """The map as it stands (``stellwerk.core.map.board``; read it, do not change it)."""
        return self._engine.map.board

    def map_facts(self) -> MapFacts:
        """What a picture of the map needs beside the board (:class:`MapFacts`)."""
        engine = self._engine
        board = engine.map.board
        return _facts(engine, board, engine.title, engine.phases.name, engine.turn)


def _company_data(data: object) -> dict[str, Mapping[str, object]]:
    """The title data's entries of its private companies by symbol (a title's data is a
    mapping, or typed data keeping the file's mapping in ``raw``); empty when it has none."""
    mapping = data if isinstance(data, Mapping) else getattr(data, "raw", None)
    if not isinstance(mapping, Mapping):
        return {}
    entries = mapping.get("companies", ()) or ()
    out: dict[str, Mapping[str, object]] = {}
    for entry in entries if isinstance(entries, list | tuple) else ():
        if isinstance(entry, Mapping) and "sym" in entry:
            out[str(entry["sym"])] = entry
    return out


def _hexes(value: object) -> tuple[str, ...]:
    return tuple(str(h) for h in value) if isinstance(value, list | tuple) else ()


def _abilities(entry: Mapping[str, object] | None) -> tuple[AbilityView, ...]:
    """A company's data entry as abilities: its blocked hexes, an extra share it comes
    with, and its declared abilities (type, hexes, count)."""
    if entry is None:
        return ()
    out: list[AbilityView] = []
    blocked = _hexes(entry.get("blocks_hexes"))
    if blocked:
        out.append(AbilityView("blocks", blocked))
    extra = entry.get("extra_share")
    if isinstance(extra, Mapping) and "company" in extra:
        percent = extra.get("percent")
        out.append(
            AbilityView(
                "extra_share",
                company=str(extra["company"]),
                percent=percent if isinstance(percent, int) else None,
            )
        )
    abilities = entry.get("abilities", ()) or ()
    for ability in abilities if isinstance(abilities, list | tuple) else ():
        if not isinstance(ability, Mapping) or "type" not in ability:
            continue
        count = ability.get("count")
        out.append(
            AbilityView(
                str(ability["type"]),
                _hexes(ability.get("hexes")),
                count if isinstance(count, int) and not isinstance(count, bool) else None,
            )
        )
    return tuple(out)


def _entity(engine: CoreGame, key: object) -> Player | Corporation | None:
    """The player (by id) or corporation (by symbol) an action's ``entity`` names."""
    for player in engine.all_players:
        if player.id == key:
            return player
    for corp in engine.corporations:
        if corp.sym == key:
            return corp
    return None


def _item_ref(item: object) -> EntityRef:
    if isinstance(item, Holder):
        return ref(item)
    return EntityRef("item", str(item), str(item))


# -- map facts: read from a title game or from a map port alone (a board rebuilt without a
# game, as 1841's positions from a state trace) ------------------------------------------------


def port_map_facts(port: object, title: str) -> MapFacts:
    """The map facts of a title's map port alone (no game around it: 1841's positions rebuilt
    from a state trace): its phase, its political borders, its data's corporations."""
    board = getattr(port, "board", None)
    if not isinstance(board, Board):
        raise TypeError(f"{type(port).__name__} has no board")
    phase = getattr(port, "phase", None)
    return _facts(port, board, title, str(phase) if phase is not None else None, None)


def _facts(game: object, board: Board, title: str, phase: str | None, turn: int | None) -> MapFacts:
    corporations = list(getattr(game, "corporations", ()) or ())
    symbols = [str(c.sym) for c in corporations]
    data = getattr(game, "data", None)
    mapping = data if isinstance(data, Mapping) else None
    if mapping is not None:
        for key in ("minors", "corporations"):
            symbols += [str(e["sym"]) for e in mapping.get(key, ()) or () if "sym" in e]
    port = getattr(game, "map", game)
    port_corps = getattr(getattr(port, "data", None), "corporations", None)
    if port_corps:
        symbols += [str(getattr(c, "sym", "")) for c in port_corps]
    for state in board.hexes.values():
        for city in state.cities:
            symbols += [s for s in (*city.tokens, *city.reservations) if s is not None]
    return MapFacts(
        title=title,
        phase=phase,
        turn=turn,
        political=_political(port),
        active_column=_active_column(game, port, corporations, board),
        homes=MappingProxyType(_homes(corporations, board)),
        symbols=tuple(symbols),
        declared_colors=MappingProxyType(_declared_colors(mapping)),
    )


def _declared_colors(data: Mapping[str, object] | None) -> dict[str, tuple[str, str]]:
    """The colours a title's data table names (``color``, ``text_color``) per symbol."""
    declared: dict[str, tuple[str, str]] = {}
    if not data:
        return declared
    for key in ("corporations", "minors"):
        entries = data.get(key, ()) or ()
        for entry in entries if isinstance(entries, list | tuple) else ():
            if isinstance(entry, Mapping) and entry.get("color"):
                declared[str(entry["sym"])] = (
                    str(entry["color"]),
                    str(entry.get("text_color", "#fff")),
                )
    return declared


def _political(port: object) -> frozenset[tuple[str, int]]:
    """Political borders in force (1841's map port has them), else none."""
    borders = getattr(port, "political_borders", None)
    if callable(borders):
        return frozenset((str(h), int(e)) for h, e in borders())
    return frozenset()


def _homes(corporations: Sequence[object], board: Board) -> dict[str, tuple[tuple[str, int], ...]]:
    """Home stations of corporations not on the board yet and without a reservation."""
    placed: set[str] = set()
    for state in board.hexes.values():
        for city in state.cities:
            placed.update(s for s in (*city.tokens, *city.reservations) if s is not None)
    out: dict[str, list[tuple[str, int]]] = {}
    for corp in corporations:
        home = getattr(corp, "home", None)
        sym = str(getattr(corp, "sym", ""))
        if getattr(corp, "closed", False) or sym in placed or not isinstance(home, str):
            continue
        home_state = board.hexes.get(home)
        if home_state is None or not home_state.cities:
            continue
        index = getattr(corp, "city", 0)
        index = index if isinstance(index, int) and 0 <= index < len(home_state.cities) else 0
        out.setdefault(home, []).append((sym, index))
    return {hex_id: tuple(found) for hex_id, found in out.items()}


def _active_column(
    game: object, port: object, corporations: Sequence[object], board: Board
) -> str | None:
    """The column of phase revenues that pays now: the one whose value the title's route
    rules give an off-board (None when that cannot be told)."""
    rules = getattr(game, "route_rules", None) or getattr(port, "route_rules", None)
    run_context = getattr(port, "run_context", None)
    if rules is None or run_context is None:
        return None
    from stellwerk.core.routes.model import TrainSpec

    try:
        ctx = run_context(corporations[0] if corporations else "")
    except Exception:  # a title whose run context needs more than a corporation
        return None
    train = TrainSpec("2-0", "2", 2)
    for hid, state in board.hexes.items():
        for i, node in enumerate(state.tile.nodes):
            if node.kind is not NodeKind.OFFBOARD or not node.phase_revenue:
                continue
            try:
                value = rules.stop_value(ctx, (hid, i), train)
            except Exception:
                return None
            columns = [c for c, v in node.phase_revenue if v == value]
            if len(columns) == 1:
                return str(columns[0])
    return None


def reader_of(game: object) -> Reader:
    """A reader itself, the reader of an API game, or that of a title game handed over by a
    caller not yet moved onto the API's views (the game master passes the engine; it moves in
    a later change)."""
    if isinstance(game, Reader):
        return game
    from stellwerk.api import Game

    if isinstance(game, Game):
        return game.view
    from stellwerk.core.game import Game as CoreGame

    if isinstance(game, CoreGame):
        return Reader(game)
    raise TypeError(f"{type(game).__name__} is not a game")


__all__ = ["Reader", "port_map_facts", "reader_of", "ref"]
