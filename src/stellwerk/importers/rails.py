"""Turn a Rails 1835 report into our actions, replay them and check every checkpoint.

The report (parsed by :mod:`stellwerk.io.rails_report`) is walked line by line with the engine in
the loop: each decision line becomes an 18xx.games action dict built from the current state
(certificate, train and city ids), and each effect line is compared with what the engine did.
Decisions Rails does not log (passes after a purchase, declined formation offers, skipped track
or token steps) are inferred: before an action, the entities that must act first are passed
(rails-report-format.md 3.1).  Revenue is replayed as the claimed total (the report has no
routes); optionally the route optimiser checks that legal routes earn at least that much.

Choices the report does not record (rails-report-format.md 3.3): the city of a token on a
hex with several cities, and the city a token is relaid to when a city without track is
upgraded (BA's home on L6).  The importer takes a city the company's network reaches, else the
first (for a relay: the city the token stood on), records each such choice, and when a later
tile lay of that company lies off its network - Rails only lets a company build where it
reaches - it imports again with the latest open choice moved to its next city.  This settles
all four claimed revenues that our proven best routes could not reach (NF's free token on L14,
BA's relaid home on L6); with ``check_routes`` every claimed revenue is compared with them.

Checkpoints (rails-report-format.md 3.4): every ``Has`` line at the end of each round, float
amounts, payouts (as a multiset per dividend), price moves, train purchases (the action itself),
phase changes, directorships, private closings, share releases and net-worth changes.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stellwerk.api import Game
from stellwerk.core.entities import Company, Corporation, Entity, Player
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, Step, act
from stellwerk.core.shares import Bundle
from stellwerk.io import rails_report as rr
from stellwerk.titles.g1835.formation import Formation
from stellwerk.titles.g1835.game import Game1835, Note
from stellwerk.titles.g1835.sales import successor

RAILS_DEFAULT_OPTIONS = ("prussian_reserved_ignored",)
"""Current Rails always ignores unexchanged PR shares for the sold-out rise (rules/1835.md 11)."""


@dataclass
class Divergence:
    """The first checkpoint that does not match: report line, what, ours, expected."""

    line: int
    field: str
    ours: object
    expected: object

    def to_dict(self) -> dict[str, object]:
        return {
            "line": self.line,
            "action_id": self.line,
            "field": self.field,
            "ours": self.ours,
            "expected": self.expected,
        }


@dataclass
class ImportReport:
    """What an import found; ``to_dict`` is the JSON of ``stellwerk replay --json``."""

    file: str
    options: list[str]
    actions: int = 0
    checkpoints: int = 0
    finished: bool = False
    result: dict[str, int] = field(default_factory=dict)
    expected_result: dict[str, int] | None = None
    route_checks: str = "skipped"
    route_checked: int = 0
    route_above: list[tuple[int, str, int, int]] = field(default_factory=list)
    """Claimed revenues above our proven best routes: (line, company, best, claimed)."""
    route_unproven: int = 0
    first_divergence: Divergence | None = None
    seconds: float = 0.0
    error_traceback: str | None = None
    game: Game | None = None

    @property
    def matches_result(self) -> bool:
        ok = self.first_divergence is None
        if self.expected_result is not None:
            ok = ok and self.result == self.expected_result
        return ok

    @property
    def ok(self) -> bool:
        return self.matches_result

    def to_dict(self) -> dict[str, object]:
        d = self.first_divergence
        return {
            "file": self.file,
            "title": "1835",
            "format": "rails-report",
            "options": self.options,
            "actions": self.actions,
            "checkpoints": self.checkpoints,
            "finished": self.finished,
            "result": self.result,
            "expected_result": self.expected_result,
            "matches_result": self.matches_result,
            "first_divergence": d.to_dict() if d else None,
            "route_checks": self.route_checks,
            "seconds": round(self.seconds, 6),
        }


class Ambiguous(Exception):
    """Internal: a tile lay the company's network does not reach, so an earlier choice of city
    the report does not record (a token's city, a relaid token) was probably wrong."""

    def __init__(self, line: int, company: str) -> None:
        super().__init__(f"line {line}: {company} lays off its network")
        self.line = line
        self.company = company


MAX_CHOICE_RETRIES = 8
"""How many other city choices an import tries before giving up on the evidence."""


class Mismatch(Exception):
    """Internal: a checkpoint differs."""

    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence.field)
        self.divergence = divergence


def infer_options(report: rr.Report) -> list[str]:
    """The start variant from the order of the first turns of start round 1 (the report names
    no options, rails-report-format.md 3.3); plus Rails' fixed behaviour."""
    players = report.players
    n = len(players)
    actors: list[str] = []
    in_first = False
    for e in report.events:
        if isinstance(e, rr.StartRoundStarted):
            in_first = e.number == 1
            continue
        if isinstance(e, rr.StockRoundStarted | rr.OperatingRoundStarted):
            in_first = False
        if in_first and isinstance(e, rr.StartItemBought | rr.Passed | rr.CannotBuyAnything):
            actors.append(e.player)
    options = list(RAILS_DEFAULT_OPTIONS)
    if actors and actors[0] == players[-1]:
        options.insert(0, "clemens")
    elif len(actors) > n and actors[n] == players[-1]:
        options.insert(0, "snake")
    return options


class Importer:
    """Walks a report with the engine in the loop."""

    def __init__(
        self,
        report: rr.Report,
        options: list[str],
        check_routes: bool,
        overrides: dict[int, int] | None = None,
        ignored: set[int] | None = None,
    ) -> None:
        self.report = report
        self.options = options
        self.check_routes = check_routes
        self.overrides = dict(overrides or {})
        self.ignored = set(ignored or ())
        self.evidence = True
        self.decisions: list[tuple[int, str, list[int]]] = []
        names = report.players
        self.ids = {name: i + 1 for i, name in enumerate(names)}
        self.game = Game.create("1835", [(i + 1, n) for i, n in enumerate(names)], options, 0)
        self.cursor: dict[str, int] = {}
        self.has_index = 0
        self.has_block: list[rr.Has] = []
        self.checkpoints = 0
        self.payouts: list[rr.Event] = []
        self.route_checked = 0
        self.route_unproven = 0
        self.route_below: list[tuple[int, str, int, int]] = []

    @property
    def engine(self) -> Game1835:
        engine = self.game.engine
        assert isinstance(engine, Game1835)  # the importer makes 1835 games only
        return engine

    # -- choices the report does not record ------------------------------------------------
    def choose_city(self, line: int, company: str, candidates: list[int]) -> int:
        """The city index for a choice the report leaves open: the first candidate unless an
        earlier attempt found evidence against it (rails-report-format.md 3.3)."""
        if len(candidates) > 1:
            self.decisions.append((line, company, candidates))
        chosen = self.overrides.get(line)
        return chosen if chosen in candidates else candidates[0]

    def alternative(self, evidence: Ambiguous) -> tuple[int, int] | None:
        """The latest open choice of the company before the evidence, moved to its next
        candidate (None if every choice has been tried)."""
        for line, company, candidates in reversed(self.decisions):
            if company != evidence.company or line >= evidence.line:
                continue
            current = self.overrides.get(line, candidates[0])
            position = candidates.index(current) if current in candidates else 0
            if position + 1 < len(candidates):
                return line, candidates[position + 1]
        return None

    def check_reach(self, line: int, corp: Corporation, hex_id: str) -> None:
        """Rails lets a company lay track only where its network reaches."""
        if line in self.ignored or not self.evidence:
            return
        if not self.engine.map.graph.network(corp.sym).hexes.get(hex_id):
            raise Ambiguous(line, corp.sym)

    # -- driving the engine -----------------------------------------------------------------
    def send(self, line: int, action: Action) -> None:
        try:
            self.game.process(action, replay=True)
        except IllegalAction as error:
            raise Mismatch(
                Divergence(line, f"action {action['type']}", f"refused: {error}", "accepted")
            ) from error

    def current(self) -> tuple[Step | None, Entity | None]:
        rnd = self.engine.round
        step = rnd.active_step()
        return step, (step.current_entity() if step else None)

    def pass_one(self, line: int) -> None:
        """Send the inferred 'nothing more' action of whoever must act now."""
        step, entity = self.current()
        if step is None or entity is None:
            raise Mismatch(Divergence(line, "flow", "nobody to act", "an action"))
        kinds = step.actions(entity)
        if "pass" in kinds:
            self.send(line, act(entity, "pass"))
        elif "run_routes" in kinds:
            self.send(line, act(entity, "run_routes", routes=[], revenue=0))
        elif "choose" in kinds and step.description == "Prussian Formation":
            self.send(line, act(entity, "choose", choice="decline"))
        elif "dividend" in kinds:
            self.send(line, act(entity, "dividend", kind="withhold"))
        else:
            raise Mismatch(
                Divergence(line, "flow", f"{step.description} waits for {kinds}", "a pass")
            )

    def advance(self, line: int, done: Callable[[], bool], limit: int = 60) -> None:
        for _ in range(limit):
            if done() or self.engine.finished:
                return
            self.pass_one(line)
        raise Mismatch(Divergence(line, "flow", "no progress", "the report's next action"))

    def entity_is(self, entity: object) -> Callable[[], bool]:
        def check() -> bool:
            _, current = self.current()
            return current is entity

        return check

    def step_is(self, corp: Corporation, kinds: tuple[str, ...]) -> Callable[[], bool]:
        def check() -> bool:
            step, current = self.current()
            if step is None:
                return True
            return current is corp and any(k in step.actions(corp) for k in kinds)

        return check

    def player(self, name: str) -> Player:
        player: Player = self.engine.player_by_id(self.ids[name])
        return player

    def corp(self, sym: str) -> Corporation:
        corp: Corporation = self.engine.corporation(sym)
        return corp

    # -- checks -----------------------------------------------------------------------------
    def expect(self, line: int, what: str, ours: object, expected: object) -> None:
        self.checkpoints += 1
        if ours != expected:
            raise Mismatch(Divergence(line, what, ours, expected))

    def next_event(self, kind: str, skip: Callable[[Note], bool] | None = None) -> Note | None:
        events = self.engine.events
        i = self.cursor.get(kind, 0)
        while i < len(events):
            e = events[i]
            i += 1
            if e["kind"] == kind and not (skip and skip(e)):
                self.cursor[kind] = i
                return e
        self.cursor[kind] = i
        return None

    def flush_payouts(self) -> None:
        if not self.payouts:
            return
        lines = self.payouts
        self.payouts = []
        expected = sorted(
            (e.recipient, e.amount) if isinstance(e, rr.Payout) else (e.company, e.amount)  # type: ignore[attr-defined]
            for e in lines
        )
        ours = []
        for _ in lines:
            ev = self.next_event("payout")
            ours.append((ev["to"], ev["amount"]) if ev else None)
        ours_sorted = sorted(ours, key=lambda x: (x is None, x))
        self.expect(lines[0].line, "payouts", ours_sorted, expected)

    def flush_has(self) -> None:
        if not self.has_block:
            return
        block = self.has_block
        self.has_block = []
        line = block[0].line
        self.advance(line, lambda: len(self.engine.round_ends) > self.has_index)
        label, cash = self.engine.round_ends[self.has_index]
        self.has_index += 1
        expected = {h.entity: h.cash for h in block}
        for h in block:
            self.expect(h.line, f"Has {h.entity} ({label})", cash.get(h.entity), h.cash)
        extra = sorted(set(cash) - set(expected))
        self.expect(line, f"entities with cash ({label})", extra, [])

    # -- the walk ---------------------------------------------------------------------------
    def run(self) -> None:
        for event in self.report.events:
            if self.engine.finished and isinstance(
                event, rr.Has | rr.WorthIncrease | rr.GameOver | rr.Winner | rr.Ranking
            ):
                pass
            if not isinstance(event, rr.Payout | rr.MinorReceives):
                self.flush_payouts()
            if not isinstance(event, rr.Has):
                self.flush_has()
            handler = getattr(self, f"on_{type(event).__name__}", None)
            if handler is not None:
                handler(event)
        self.flush_payouts()
        self.flush_has()

    # start rounds
    def on_StartItemBought(self, e: rr.StartItemBought) -> None:
        player = self.player(e.player)
        self.advance(e.line, self.entity_is(player))
        self.send(e.line, act(player, "bid", company=e.item, price=e.price))

    def on_Passed(self, e: rr.Passed) -> None:
        player = self.player(e.player)
        self.advance(e.line, self.entity_is(player))
        self.send(e.line, act(player, "pass"))

    def on_Autopassed(self, e: rr.Autopassed) -> None:
        self.on_Passed(rr.Passed(e.line, e.player))

    def on_CannotBuyAnything(self, e: rr.CannotBuyAnything) -> None:
        ev = self.next_event("cannot_buy")
        self.expect(e.line, "automatic pass", ev["player"] if ev else None, e.player)

    # stock rounds
    def on_ShareBought(self, e: rr.ShareBought) -> None:
        player = self.player(e.player)
        self.advance(e.line, self.entity_is(player))
        corp = self.corp(e.company)
        engine = self.engine
        if e.source == "IPO":
            share = engine.next_ipo_share(corp)
        elif e.source == "Pool":
            share = next(
                (s for s in engine.pool.shares_of(corp.sym) if s.percent == e.percent), None
            )
        else:
            other = self.player(e.source)
            share = next(
                (
                    s
                    for s in other.shares_of(corp.sym)
                    if s.percent == e.percent and not s.president
                ),
                None,
            )
        if share is None:
            raise Mismatch(Divergence(e.line, f"certificate {corp.sym}", None, e.source))
        cash = player.cash
        self.send(e.line, act(player, "buy_shares", shares=[share.id], percent=share.percent))
        self.expect(e.line, f"price paid for {corp.sym}", cash - player.cash, e.price)

    def on_CompanyStarted(self, e: rr.CompanyStarted) -> None:
        self.on_ShareBought(rr.ShareBought(e.line, e.player, e.percent, e.company, "IPO", e.amount))

    def on_SharesSold(self, e: rr.SharesSold) -> None:
        player = self.player(e.player)
        engine = self.engine
        if engine.round.kind == "stock":
            self.advance(e.line, self.entity_is(player))
        else:
            self.advance(e.line, lambda: "sell_shares" in engine.round.actions_for(player))
        corp = self.corp(e.company)
        plain = [s for s in player.shares_of(corp.sym) if s.percent == e.percent]
        plain.sort(key=lambda s: s.president)
        pres = next((s for s in plain if s.president), None)
        # Rails dumps the director's certificate when the sale loses the directorship
        if (
            pres is not None
            and e.count == 1
            and successor(engine, player, Bundle.of([pres], corp)) is not None
        ):
            plain = [pres]
        shares = plain[: e.count]
        if len(shares) < e.count:
            raise Mismatch(Divergence(e.line, f"{e.player}'s {corp.sym} certificates", 0, e.count))
        cash = player.cash
        self.send(
            e.line,
            act(player, "sell_shares", shares=[s.id for s in shares], percent=e.count * e.percent),
        )
        self.expect(e.line, f"sale of {corp.sym}", player.cash - cash, e.amount)

    def on_PriceMoved(self, e: rr.PriceMoved) -> None:
        if e.cause == "adjust_down":
            _, entity = self.current()
            if isinstance(entity, Corporation) and isinstance(entity.owner, Player):
                entity = entity.owner  # its president chooses
            assert entity is not None, "a price to lower without anyone to act"
            self.send(e.line, act(entity, "choose", choice="lower_price"))
        ev = self.next_event("price", lambda x: not x["logged"])
        ours = (ev["corp"], ev["cell"], ev["moved"]) if ev else None
        self.expect(e.line, f"price of {e.company}", ours, (e.company, e.new_cell, True))

    def on_PriceStayed(self, e: rr.PriceStayed) -> None:
        ev = self.next_event("price", lambda x: not x["logged"])
        ours = (ev["corp"], ev["cell"], ev["moved"]) if ev else None
        self.expect(e.line, f"price of {e.company}", ours, (e.company, e.cell, False))

    def on_Floated(self, e: rr.Floated) -> None:
        ev = self.next_event("float")
        ours = (ev["corp"], ev["amount"]) if ev else None
        self.expect(e.line, f"float of {e.company}", ours, (e.company, e.amount))

    def on_SharesReleased(self, e: rr.SharesReleased) -> None:
        ev = self.next_event("released")
        self.expect(e.line, "shares released", ev["corp"] if ev else None, e.company)

    def on_PresidentChanged(self, e: rr.PresidentChanged) -> None:
        corp = self.corp(e.company)
        owner = corp.owner.name if corp.owner is not None else None
        self.expect(e.line, f"director of {e.company}", owner, e.player)

    def on_Has(self, e: rr.Has) -> None:
        self.has_block.append(e)

    # operating rounds
    def on_CompanyOperates(self, e: rr.CompanyOperates) -> None:
        corp = self.corp(e.company)
        self.advance(e.line, lambda: getattr(self.engine.round, "current_operator", None) is corp)

    def on_TileLaid(self, e: rr.TileLaid) -> None:
        engine = self.engine
        corp = self.corp(e.company)
        board = engine.map.board
        tile_id = board.available().get(e.tile)
        if tile_id is None:
            raise Mismatch(Divergence(e.line, f"tile {e.tile} in the supply", None, e.hex))
        entity: Corporation | Company = corp
        owner = corp.owner
        for company in owner.companies if isinstance(owner, Player) else []:
            if "lay_tile" not in engine.round.actions_for(company):
                continue
            ability: dict[str, Any] = next(
                (dict(a) for a in engine.data.private(company.sym).abilities
                 if a.get("type") == "tile_lay"),
                {},
            )  # fmt: skip
            tiles = ability.get("tiles")
            if e.hex in ability.get("hexes", []) and (not tiles or e.tile in tiles):
                terrain = board.hex(e.hex).spec.terrain_cost
                if e.cost == 0 and (tiles or terrain):
                    entity = company
        if entity is corp:
            self.advance(e.line, self.step_is(corp, ("lay_tile",)))
            self.check_reach(e.line, corp, e.hex)
        cash = corp.cash
        self.send(e.line, act(entity, "lay_tile", hex=e.hex, tile=tile_id, rotation=e.rotation))
        self.expect(e.line, f"cost of tile on {e.hex}", cash - corp.cash, e.cost)
        self.relay_tokens(e.line, corp)

    def relay_tokens(self, line: int, corp: Corporation) -> None:
        """Tokens relaid after an upgrade of a trackless city (not in the report): the city
        they stood on first, another one if a later lay shows otherwise."""
        step = self.engine.round.active_step()
        while relays := getattr(step, "relays", None):
            hex_id, sym = relays[0]
            port = self.engine.map
            cities = port.relay_cities(hex_id, sym)
            state = port.board.hex(hex_id)
            cities.sort(key=lambda i: sym not in state.cities[i].tokens)
            index = self.choose_city(line, sym, cities)
            city = port.board.city_id(hex_id, index)
            self.send(line, act(corp, "place_token", city=city, slot=0, tokener=sym))
            step = self.engine.round.active_step()

    def on_TokenLaid(self, e: rr.TokenLaid) -> None:
        engine = self.engine
        corp = self.corp(e.company)
        entity: Corporation | Company = corp
        if e.free:
            owner = corp.owner
            for company in owner.companies if isinstance(owner, Player) else []:
                if "place_token" in engine.round.actions_for(company):
                    entity = company
        else:
            self.advance(e.line, self.step_is(corp, ("place_token",)))
        board = engine.map.board
        state = board.hex(e.hex)
        free = [i for i in range(len(state.cities)) if board.can_place_token(e.hex, i, corp.sym)]
        # The report names the hex, not the city: Rails only offers cities the company's
        # network reaches, so a reachable one is taken first (rails-report-format.md 3.3).
        reachable = {i for h, i in engine.map.token_spots(corp) if h == e.hex}
        ordered = [i for i in free if i in reachable] + [i for i in free if i not in reachable]
        index = self.choose_city(e.line, corp.sym, ordered) if ordered else None
        if index is None:
            raise Mismatch(Divergence(e.line, f"free city on {e.hex}", None, corp.sym))
        city = board.city_id(e.hex, index)
        cash = corp.cash
        self.send(e.line, act(entity, "place_token", city=city, slot=0))
        self.expect(e.line, f"token cost on {e.hex}", cash - corp.cash, e.cost)

    def on_Revenue(self, e: rr.Revenue) -> None:
        corp = self.corp(e.company)
        self.advance(e.line, self.step_is(corp, ("run_routes",)))
        if self.check_routes and e.amount > 0:
            self.check_revenue(e, corp)
        self.send(e.line, act(corp, "run_routes", routes=[], revenue=e.amount))

    def check_revenue(self, e: rr.Revenue, corp: Corporation) -> None:
        """Do legal routes earn at least the claimed revenue?  Counted, not a divergence: the
        report does not say in which city of a multi-city hex a token went, so our board may
        differ from Rails' there (rails-report-format.md 3.3)."""
        best = self.engine.map.best_run(corp, node_limit=200_000)
        self.route_checked += 1
        if best.revenue < e.amount:
            if not best.optimal:
                self.route_unproven += 1
            else:
                self.route_below.append((e.line, corp.sym, best.revenue, e.amount))

    def dividend(self, line: int, company: str, kind: str) -> None:
        corp = self.corp(company)
        self.advance(line, self.step_is(corp, ("dividend",)))
        self.send(line, act(corp, "dividend", kind=kind))
        self.next_event("dividend")

    def on_PaysOut(self, e: rr.PaysOut) -> None:
        self.dividend(e.line, e.company, "payout")

    def on_Withholds(self, e: rr.Withholds) -> None:
        self.dividend(e.line, e.company, "withhold")

    def after_turn_dividend(self, line: int, company: str) -> None:
        corp = self.corp(company)
        self.advance(
            line, lambda: any(e["kind"] == "dividend" and e["corp"] == corp.sym
                              for e in self.engine.events[self.cursor.get("dividend", 0):])
        )  # fmt: skip
        ev = self.next_event("dividend")
        self.expect(line, "dividend of", ev["corp"] if ev else None, company)

    def on_NoDividend(self, e: rr.NoDividend) -> None:
        self.after_turn_dividend(e.line, e.company)

    def on_Splits(self, e: rr.Splits) -> None:
        self.after_turn_dividend(e.line, e.company)

    def on_Payout(self, e: rr.Payout) -> None:
        self.payouts.append(e)

    def on_MinorReceives(self, e: rr.MinorReceives) -> None:
        self.payouts.append(e)

    def on_PrivateRevenue(self, e: rr.PrivateRevenue) -> None:
        ev = self.next_event("private_revenue")
        ours = (ev["player"], ev["amount"]) if ev else None
        self.expect(e.line, "private revenue", ours, (e.player, e.amount))

    def on_TrainBought(self, e: rr.TrainBought) -> None:
        engine = self.engine
        corp = self.corp(e.company)
        self.advance(e.line, self.step_is(corp, ("buy_train",)))
        depot = engine.depot
        if e.seller == "IPO":
            train = next((t for t in depot.upcoming if t.name == e.train), None)
        elif e.seller == "Pool":
            train = next((t for t in depot.discarded if t.name == e.train), None)
        else:
            train = next((t for t in self.corp(e.seller).trains if t.name == e.train), None)
        if train is None:
            raise Mismatch(Divergence(e.line, f"train {e.train} from {e.seller}", None, "one"))
        self.send(e.line, act(corp, "buy_train", train=train.id, price=e.price))

    def on_PresidentAddsCash(self, e: rr.PresidentAddsCash) -> None:
        self.pending_adds = e

    def on_TrainDiscarded(self, e: rr.TrainDiscarded) -> None:
        corp = self.corp(e.company)
        train = next((t for t in corp.trains if t.name == e.train), None)
        if train is None:
            raise Mismatch(Divergence(e.line, f"{corp.sym}'s {e.train} train", None, "one"))
        self.send(e.line, act(corp, "discard_train", train=train.id))

    def on_PhaseStarted(self, e: rr.PhaseStarted) -> None:
        self.expect(e.line, "phase", self.engine.phases.name, e.phase)

    def on_TrainsRusted(self, e: rr.TrainsRusted) -> None:
        ev = self.next_event("rusted")
        self.expect(e.line, "trains rusted", ev["train"] if ev else None, e.train)

    def on_PrivateClosed(self, e: rr.PrivateClosed) -> None:
        company: Company = self.engine.company(e.private)
        self.expect(e.line, f"{e.private} closed", company.closed, True)

    def on_WorthIncrease(self, e: rr.WorthIncrease) -> None:
        self.advance(e.line, lambda: len(self.engine.round_ends) > self.has_index)
        label, worth = self.engine.worth_changes[-1] if self.engine.worth_changes else ("", {})
        self.expect(e.line, f"net worth change of {e.player} ({label})", worth.get(e.player),
                    e.amount)  # fmt: skip

    # formation
    def formation(self) -> Formation | None:
        return self.engine.formation

    def folding(self) -> object:
        """What the formation under way asks about now (None when none is under way)."""
        f = self.formation()
        return None if f is None else f.current()

    def on_MergedCompanyStarted(self, e: rr.MergedCompanyStarted) -> None:
        f = self.formation()
        asked = f.asking_form() if f is not None else None
        if asked is not None:
            self.send(e.line, act(asked, "choose", choice="form"))
        self.expect(e.line, "PR formed", self.engine.pr_formed, True)

    def on_Merged(self, e: rr.Merged) -> None:
        engine = self.engine
        paper: Corporation | Company | None = next(
            (c for c in engine.corporations if c.sym == e.company), None
        )
        if paper is None:
            paper = engine.company(e.company)
        if paper.closed:
            return
        f = self.formation()
        if f is None or not f.offers(paper):
            raise Mismatch(Divergence(e.line, f"{e.company} offered to fold", None, "offered"))
        self.advance(e.line, lambda: self.folding() is paper)
        self.send(e.line, act(paper, "choose", choice="fold_in"))

    def on_FormationRoundEnded(self, e: rr.FormationRoundEnded) -> None:
        self.advance(e.line, lambda: self.formation() is None)


def import_report(
    path: str | Path,
    options: list[str] | None = None,
    check_routes: bool = False,
) -> ImportReport:
    """Import and replay a Rails 1835 report; see the module docstring."""
    report = rr.parse_file(path)
    if options is not None:
        return _import(path, report, list(options), check_routes)
    opts = infer_options(report)
    result = _import(path, report, opts, check_routes)
    d = result.first_divergence
    if d is not None and d.field.startswith("tile ") and d.field.endswith("in the supply"):
        # the report was made with Rails' test aid UnlimitedTiles (not in the report)
        retry = _import(path, report, [*opts, "unlimited_tiles"], check_routes)
        if retry.first_divergence is None or retry.first_divergence.line > d.line:
            return retry
    return result


def _import(
    path: str | Path, report: rr.Report, opts: list[str], check_routes: bool
) -> ImportReport:
    result = ImportReport(file=str(path), options=opts)
    ranking = report.of(rr.Ranking)
    if ranking:
        ids = {name: i + 1 for i, name in enumerate(report.players)}
        result.expected_result = {
            str(ids[r.name]): r.worth  # type: ignore[attr-defined]
            for r in ranking
        }
    start = time.perf_counter()
    importer: Importer | None = None
    overrides: dict[int, int] = {}
    ignored: set[int] = set()
    for attempt in range(MAX_CHOICE_RETRIES + 1):
        try:
            importer = Importer(report, opts, check_routes, overrides, ignored)
            importer.evidence = attempt < MAX_CHOICE_RETRIES
            importer.run()
        except Ambiguous as evidence:
            assert importer is not None
            other = importer.alternative(evidence)
            if other is None:
                ignored.add(evidence.line)
            else:
                overrides[other[0]] = other[1]
            continue
        except Mismatch as mismatch:
            result.first_divergence = mismatch.divergence
        except Exception as error:  # an engine bug still gives a report, with its traceback
            result.first_divergence = Divergence(0, "engine_error", repr(error), "no error")
            result.error_traceback = traceback.format_exc()
        break
    result.seconds = time.perf_counter() - start
    if importer is not None:
        game = importer.game
        result.game = game
        result.actions = len(game.actions)
        result.checkpoints = importer.checkpoints
        result.finished = game.finished
        if game.finished:
            result.result = {str(k): v for k, v in game.engine.result().items()}
        if check_routes:
            below = importer.route_below
            result.route_checked = importer.route_checked
            result.route_above = list(below)
            result.route_unproven = importer.route_unproven
            result.route_checks = (
                f"{importer.route_checked} checked, {len(below)} above our best routes"
                + (f" (first: line {below[0][0]})" if below else "")
                + f", {importer.route_unproven} unproven"
            )
    return result
