"""1835: the title's rules on top of the generic game (rules/1835.md).

Only what differs from the core lives here and in the step modules; each method's docstring
cites the rule.  Where Rails and 18xx.games differ we follow the printed rules as Rails plays
them (rules/1835.md 13) and name the other in the docstring.
"""

from __future__ import annotations

from typing import Any, ClassVar

from stellwerk.core.entities import Company, Corporation, Holder, Player, Share, Train, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, Round
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.core.game import Game
from stellwerk.core.market import Market
from stellwerk.core.shares import Bundle, ChangePresident, move_share
from stellwerk.core.trains import Depot, PhaseDef, Phases
from stellwerk.titles.g1835.data_load import cell_name, cell_position, title_data
from stellwerk.titles.g1835.entities import Minor, StartItem
from stellwerk.titles.g1835.options import settings

PR = "PR"
"""Rule code names no company but PR, the company formed by exchange (rules/1835.md 10)."""


class Game1835(Game):
    """1835 (Hans im Glück), as Rails plays it."""

    title = "1835"
    sell_movement = "down_block"
    game_end_check: ClassVar[dict[str, str]] = {"bank": "current_or", "bankrupt": "immediate"}
    bankruptcy_ends_game_after = "all_but_one"
    cert_limit_includes_privates = True

    def __init__(self, players: list[tuple[int | str, str]], options: list[str], seed: int) -> None:
        super().__init__(players, options, seed)
        self.settings = settings(self.options, len(self.players))
        data = title_data()
        self.data = data
        n = len(self.players)
        if not data.players[0] <= n <= data.players[1]:
            raise IllegalAction(f"1835 is for 3 to 7 players, not {n}", "1835 rules §1")
        self.bank.cash = data.bank
        for player in self.players:
            transfer(self.bank, player, data.starting_cash[n])
        self.market = Market([list(r) for r in data.market])
        self.phases = Phases(
            [
                PhaseDef(
                    p.name,
                    list(p.tiles),
                    p.operating_rounds,
                    p.train_limit["major"],
                    list(p.status),
                    p.name,
                )
                for p in data.phases
            ]
        )
        self.phase_limits = {p.name: dict(p.train_limit) for p in data.phases}
        self.operating_rounds = self.phases.current.operating_rounds
        trains: list[Train] = []
        for t in data.trains:
            for i in range(t.count):
                trains.append(Train(t.name, i, t.distance, t.price, t.rusts_on, None, []))
        self.depot = Depot(trains)
        self.train_events = {t.name: list(t.events) for t in data.trains}
        for pc in data.privates:
            revenue = self.settings.ld_revenue if pc.sym == "LD" else pc.revenue
            self.companies.append(Company(pc.sym, pc.name, pc.value, revenue))
        from stellwerk.titles.g1835.mapport import MapPort

        self.map = MapPort(self, self.settings.tile_supply)
        self.route_rules = self.map.route_rules
        """The route hooks (rules/1835.md 8.5) where front ends look for them."""
        self.minors_list: list[Minor] = []
        for m in data.minors:
            minor = Minor(m.sym, m.name, m.price, m.home, m.city)
            self.minors_list.append(minor)
            self.corporations.append(minor)
        self.home_city: dict[str, tuple[str, int]] = {}
        for c in data.majors:
            float_pct = c.float_percent
            if c.sym == "BY":
                float_pct = self.settings.by_float_percent
            corp = Corporation(c.sym, c.name, list(c.shares), c.tokens, float_pct, c.home)
            corp.par_price = self.market.cell(cell_position(c.start_cell))
            corp.extra["reserved"] = list(c.reserved)
            corp.extra["formed_by_exchange"] = bool(c.reserved)
            self.corporations.append(corp)
            self.home_city[c.sym] = (c.home, c.city)
            if not c.reserved:
                self.map.reserve_home(corp, c.home, c.city)
        self.start_items = [
            StartItem(s.item, s.row, s.price, dict(s.includes) if s.includes else None)
            for s in data.start_packet
        ]
        # title state
        clemens = self.settings.start_order == "clemens"
        self.priority: Player = self.players[-1] if clemens else self.players[0]
        self.start_round_num = 0
        self.packet_sold_in_one_go = True
        self.released: set[str] = {"BY", "SX"}
        self.pr_buyable = False
        self.pr_formed = False
        self.pr_starting_player: Player | None = None
        self.formation: Any = None
        self.or_in_set = 0
        self.or_label = ""
        self.turn = 0
        self.events: list[dict[str, Any]] = []
        self.ability_uses: dict[tuple[str, str], list[str]] = {}
        self.or_start_worth: dict[str, int] = {}
        self.worth_changes: list[tuple[str, dict[str, int]]] = []
        self.round_ends: list[tuple[str, dict[str, int]]] = []
        self.round = self.new_start_round()
        self.round.setup()

    # -- lookups ----------------------------------------------------------------------------
    def entity(self, action: Action) -> Any:
        etype = action.get("entity_type", "player")
        if etype == "minor":
            return self.corporation(str(action.get("entity")))
        return super().entity(action)

    def majors(self) -> list[Corporation]:
        return [c for c in self.corporations if not isinstance(c, Minor)]

    def minors(self) -> list[Minor]:
        return list(self.minors_list)

    def prussia(self) -> Corporation:
        return self.corporation(PR)

    def home_of(self, corp: Corporation) -> str:
        if isinstance(corp, Minor):
            return corp.home or ""
        return self.home_city[corp.sym][0]

    def home_blocks_hex(self, corp: Corporation) -> bool:
        """Rails: an unplaced home blocks the whole hex where the data says so (BA on L6)."""
        raw: dict[str, Any] = next(
            (c for c in self.data.raw["corporations"] if c["sym"] == corp.sym), {}
        )
        return bool(raw.get("home_blocks_hex", False))

    def note(self, kind: str, **fields: Any) -> None:
        """Record what happened (checked against Rails reports; style guide §6 events)."""
        self.events.append({"kind": kind, **fields})

    # -- rounds -----------------------------------------------------------------------------
    def new_start_round(self) -> Round:
        from stellwerk.titles.g1835.steps_start import StartRound1835

        self.start_round_num += 1
        return StartRound1835(self)

    def new_stock_round(self) -> Round:
        from stellwerk.titles.g1835.steps_stock import StockRound1835

        self.turn += 1
        return StockRound1835(self)

    def new_operating_round(self, round_num: int) -> Round:
        from stellwerk.titles.g1835.steps_operating import OperatingRound1835

        self.or_label = f"{self.turn}.{round_num}"
        return OperatingRound1835(self, round_num)

    def new_formation_round(self, after: Any) -> Round:
        from stellwerk.titles.g1835.formation import FormationRound

        return FormationRound(self, after)

    def reorder_players(self) -> None:
        """Seat order never changes; the priority deal is tracked in ``priority``."""

    def _record_round_end(self, rnd: Round) -> None:
        if getattr(rnd, "kind", "") == "formation":
            return
        cash = {c.sym: c.cash for c in self.corporations if c.floated and not c.closed}
        cash.update({p.name: p.cash for p in self.players if not p.bankrupt})
        label = getattr(rnd, "label", rnd.name)
        self.round_ends.append((label, cash))
        if getattr(rnd, "kind", "") == "operating":
            worth = {
                p.name: self.player_value(p) - self.or_start_worth.get(p.name, 0)
                for p in self.players
            }
            self.worth_changes.append((label, worth))

    def next_round(self) -> None:
        """Start rounds until the packet is sold (ORs in between), then SR, ORs per phase,
        SR ...; a Prussian formation round between any two rounds while PR is incomplete in
        phases 4-5 (rules/1835.md 2, 10.1)."""
        rnd = self.round
        self._record_round_end(rnd)
        if getattr(rnd, "kind", "") == "formation":
            self.round = rnd.after()
            return
        follow = self._following(rnd)
        if self.formation_due():
            self.round = self.new_formation_round(follow)
        else:
            self.round = follow()

    def _following(self, rnd: Round) -> Any:
        kind = getattr(rnd, "kind", "")
        if kind == "start":
            if not self.start_items:
                return self.new_stock_round
            self.packet_sold_in_one_go = False
            self.or_in_set += 1
            num = self.or_in_set
            return lambda: self.new_operating_round(num)
        if kind == "stock":
            self.operating_rounds = self.phases.current.operating_rounds
            return lambda: self.new_operating_round(1)
        assert isinstance(rnd, OperatingRound)
        if kind == "operating" and self.start_items:
            return self.new_start_round
        if rnd.round_num < self.operating_rounds:
            num = rnd.round_num + 1
            return lambda: self.new_operating_round(num)
        return self.new_stock_round

    def end_condition(self, reason: str) -> bool:
        """The bank breaks at 0 (Rails BankBreaks limit 0; rules/1835.md 12)."""
        if reason == "bank":
            return self.bank.cash <= 0
        return super().end_condition(reason)

    def end_game(self, reason: str) -> None:
        if not self.finished:
            self._record_round_end(self.round)
        super().end_game(reason)

    def end_now(self, timing: str | None) -> bool:
        """The current OR is finished, then the game ends (rules/1835.md 12)."""
        if timing == "current_or":
            return isinstance(self.round, OperatingRound)
        return super().end_now(timing)

    # -- Prussia ------------------------------------------------------------------------------
    def prussian_papers(self) -> list[Any]:
        """Minors and privates still to be exchanged for PR shares (rules/1835.md 10.3)."""
        out: list[Any] = [m for m in self.minors_list if m.floated and not m.closed]
        for c in self.companies:
            spec = self.data.private(c.sym)
            if spec.prussian_exchange_percent and not c.closed and c.owner is not None:
                out.append(c)
        return out

    def formation_due(self) -> bool:
        """A formation round at a round boundary: phases 4, 4+4 and 5 while PR is incomplete
        (rules/1835.md 10.1)."""
        status = self.phases.current.status
        if not any(s.startswith("prussia") for s in status):
            return False
        return bool(self.prussian_papers()) or not self.pr_formed

    def formation_trigger(self, train: Train, phase_changed: bool) -> bool:
        """A formation round interrupts the OR after the first 4, the 4+4 while PR is not
        started, the first 5 while papers remain (rules/1835.md 10.1)."""
        events = self.train_events.get(train.name, [])
        if "prussian_formation_round" not in events:
            return False
        if train.name == "4":
            return phase_changed
        if train.name == "4+4":
            return not self.pr_formed
        return phase_changed and bool(self.prussian_papers())

    def start_formation(self, interrupting: bool) -> None:
        from stellwerk.titles.g1835.formation import start_formation

        start_formation(self, interrupting)

    def after_tile_laid(self) -> None:
        """OBB closes when both its hexes carry a tile, whoever laid them (rules/1835.md 6)."""
        for raw in self.data.raw["companies"]:
            hexes = raw.get("closes_when_hexes_built")
            if hexes and all(not self.map.board.hex(h).is_preprinted for h in hexes):
                self.close_company(self.company(raw["sym"]))

    # -- market -----------------------------------------------------------------------------
    def move_price(self, corp: Corporation, direction: str, times: int = 1) -> None:
        for _ in range(times):
            before = corp.share_price
            super().move_price(corp, direction)
            after = corp.share_price
            assert after is not None and before is not None
            self.note(
                "price",
                corp=corp.sym,
                moved=after is not before,
                price=after.price,
                cell=cell_name(after.row, after.column),
                cause=direction,
                logged=after is not before
                or not (direction == "down" or (direction == "up" and after.row > 0)),
            )

    def operating_order(self) -> list[Corporation]:
        """Minors M1..M6 first (unless they must wait for BY), then majors by price
        (rules/1835.md 8.1)."""
        minors: list[Corporation] = [
            m for m in self.minors_list if m.floated and not m.closed and self.minors_may_operate()
        ]
        majors = sorted(
            (c for c in self.majors() if c.floated and not c.closed and c.share_price),
            key=lambda c: c.sort_key(),
        )
        return minors + majors

    def minors_may_operate(self) -> bool:
        """Clemens / MinorsRequireFloatedBY: no minor runs before BY floats (rules/1835.md 11)."""
        if not self.settings.minors_wait_for_by_float:
            return True
        return self.corporation("BY").floated

    # -- certificates -----------------------------------------------------------------------
    def cert_limit_for(self, player: Player) -> int:
        """Table limit + 1 per major held at 80 % or more (rules/1835.md 1)."""
        bonus = self.data.raw["cert_limit_bonus"]
        extra = sum(
            int(bonus["bonus"])
            for sym in bonus["majors"]
            if player.percent_of(sym) >= int(bonus["percent_held"])
        )
        return self.data.cert_limit[len(self.all_players)] + extra

    def cert_limit(self) -> int:
        return self.data.cert_limit[len(self.all_players)]

    def num_certs(self, player: Player) -> int:
        return len(player.all_shares()) + len(player.companies)

    def change_president_for(self, corp: Corporation) -> ChangePresident:
        """The new director hands over the fewest certificates worth the director's
        certificate (Rails; rules/1835.md 5.3)."""

        def change(pres_share: Share, swap_to: Holder, president: Player, _prev: Holder) -> None:
            for share in self.swap_certificates(president, corp, pres_share.percent):
                move_share(share, swap_to)
            move_share(pres_share, president)
            if swap_to is not self.pool and isinstance(swap_to, Player):
                corp.share_holders[swap_to] = swap_to.percent_of(corp.sym)
            self.sync_holders(corp)
            self.note("president", corp=corp.sym, player=president.name)

        return change

    def swap_certificates(self, holder: Holder, corp: Corporation, percent: int) -> list[Share]:
        """On a change of director by purchase the new director hands over single
        certificates first (Rails: the old director can then sell them singly, report
        1835_Correct_Sell_Pass line 751); double ones only if needed."""
        out: list[Share] = []
        total = 0
        for share in sorted(
            (s for s in holder.shares_of(corp.sym) if not s.president), key=lambda s: s.percent
        ):
            if total + share.percent <= percent:
                out.append(share)
                total += share.percent
        if total == percent:
            return out
        return self.fewest_certificates(holder, corp, percent)

    def fewest_certificates(self, holder: Holder, corp: Corporation, percent: int) -> list[Share]:
        """Ordinary certificates of ``holder`` worth exactly ``percent``, as few as possible."""
        shares = sorted(
            (s for s in holder.shares_of(corp.sym) if not s.president), key=lambda s: -s.percent
        )
        best: list[Share] | None = None

        def search(i: int, acc: list[Share], total: int) -> None:
            nonlocal best
            if total == percent:
                if best is None or len(acc) < len(best):
                    best = list(acc)
                return
            if i >= len(shares) or total > percent:
                return
            search(i + 1, [*acc, shares[i]], total + shares[i].percent)
            search(i + 1, acc, total)

        search(0, [], 0)
        if best is None:
            raise IllegalAction(f"{holder.name} cannot hand over {percent}%", "1835 rules §5.3")
        return best

    def sync_holders(self, corp: Corporation) -> None:
        corp.share_holders = {
            h: h.percent_of(corp.sym) for h in self.holders() if h.percent_of(corp.sym)
        }

    def transfer_certificates(
        self, bundle: Bundle, to: Holder, allow_president_change: bool = True
    ) -> None:
        """Move certificates and settle the directorship (common rules §6.6)."""
        corp = bundle.corporation
        before = corp.owner
        if corp.extra.get("formed_by_exchange") and not self.pr_formed:
            allow_president_change = False
        self.transfer_shares(bundle, to, allow_president_change)
        self.sync_holders(corp)
        changed = corp.owner is not before and corp.owner is not None and before is not None
        if changed and not any(e["kind"] == "president" for e in self.events[-1:]):
            assert corp.owner is not None
            self.note("president", corp=corp.sym, player=corp.owner.name)

    def check_floated(self, corp: Corporation) -> None:
        """A major floats when players and pool hold its float percentage; it receives its
        start price per 10 % sold and places its home token (rules/1835.md 3.1, 5.2)."""
        if corp.floated or isinstance(corp, Minor) or corp.extra.get("formed_by_exchange"):
            return
        sold = 100 - corp.percent_of(corp.sym)
        if sold < corp.float_percent or corp.par_price is None:
            return
        corp.floated = True
        if corp.share_price is not None and corp.sym not in corp.share_price.corporations:
            corp.share_price.corporations.append(corp.sym)
        amount = corp.par_price.price * sold // 10
        transfer(self.bank, corp, amount, "1835 rules §5.2")
        self.note("float", corp=corp.sym, amount=amount)
        home, city = self.home_city[corp.sym]
        self.map.place_home(corp, home, city)

    def start_company(self, corp: Corporation) -> None:
        """The first sale of the director's certificate starts the company: its marker goes on
        the start price (rules/1835.md 5.2).  It joins the cell's stack (the operating order
        among equal prices) only when it floats (Rails: BY moving onto C4 before SX floated
        there operates first, report 1835_Forced_Selling_PR_5_Shares line 356)."""
        if corp.ipoed:
            return
        corp.ipoed = True
        corp.share_price = corp.par_price

    def update_releases(self) -> None:
        """Release share groups (seed 004 items 2.3-2.6; Rails ReleaseRules, rules/1835.md 4)."""
        for rule in self.data.release_rules:
            target = rule.company
            if target == PR:
                if self.pr_buyable:
                    continue
            elif target in self.released:
                continue
            if all(
                100 - self.corporation(c).percent_of(c) >= rule.sold_percent for c in rule.companies
            ):
                if target == PR:
                    self.pr_buyable = True
                else:
                    self.released.add(target)
                self.note("released", corp=target)

    def next_ipo_share(self, corp: Corporation) -> Share | None:
        """The next certificate the IPO sells: strictly in certificate order; PR only its four
        buyable shares (rules/1835.md 4)."""
        reserved = corp.extra.get("reserved") or []
        for share in corp.shares_of(corp.sym):
            if reserved and reserved[share.index]:
                continue
            return share
        return None

    def ipo_available(self, corp: Corporation) -> bool:
        if isinstance(corp, Minor):
            return False
        if corp.sym == PR:
            return self.pr_buyable
        return corp.sym in self.released

    def ipo_price(self, corp: Corporation, share: Share) -> int:
        """Start price per 10 %, PR too after its formation (Rails: report 1835_Issue129done
        line 1242 buys PR at 154 while it trades at 138; rules/1835.md 10.5 said current)."""
        cell = corp.par_price
        assert cell is not None
        return cell.price * share.percent // 10

    def market_value(self, corp: Corporation, percent: int) -> int:
        cell = corp.share_price
        assert cell is not None
        return cell.price * percent // 10

    # -- net worth --------------------------------------------------------------------------
    def player_value(self, player: Player) -> int:
        """Cash + certificates at the current price per 10 % (PR options at its start price
        before the formation; minors 0) + privates at face value (rules/1835.md 12)."""
        value = player.cash
        for share in player.all_shares():
            corp = self.corporation(share.corporation)
            if isinstance(corp, Minor):
                continue
            cell = corp.share_price or corp.par_price
            if cell is not None:
                value += cell.price * share.percent // 10
        return value + sum(c.value for c in player.companies)

    # -- companies --------------------------------------------------------------------------
    def payout_companies(self) -> None:
        """Player-owned open privates pay their revenue at the start of every OR, in the
        order of the company list (rules/1835.md 6)."""
        for company in self.companies:
            owner = company.owner
            if company.closed or not isinstance(owner, Player) or not company.revenue:
                continue
            transfer(self.bank, owner, company.revenue, "1835 rules §6")
            self.note("private_revenue", player=owner.name, amount=company.revenue)

    def close_company(self, company: Company) -> None:
        if company.closed:
            return
        company.close()
        self.note("private_closed", company=company.sym)

    def event_close_privates(self) -> None:
        """Phase 5 closes the privates that close on a phase (NF, OBB, PfB, LD)."""
        for company in self.companies:
            if self.data.private(company.sym).closes_on_phase == self.phases.name:
                self.close_company(company)

    def after_train_bought(self, corp: Corporation, train: Train) -> None:
        """LD closes when SX buys its first train (rules/1835.md 6)."""
        for c in self.data.privates:
            company = self.company(c.sym)
            raw = next(r for r in self.data.raw["companies"] if r["sym"] == c.sym)
            if raw.get("closes_when_train_bought_by") == corp.sym:
                self.close_company(company)

    # -- trains -----------------------------------------------------------------------------
    def train_limit(self, corp: Corporation) -> int:
        """Minors 2/1, majors 4/3/2, PR 4/4/3 (rules/1835.md 8.7)."""
        limits = self.phase_limits[self.phases.name]
        kind = "minor" if isinstance(corp, Minor) else ("PR" if corp.sym == PR else "major")
        return int(limits.get(kind, 0))

    def crowded_corps(self) -> list[Corporation]:
        forming = self.formation is not None
        return [
            c
            for c in self.corporations
            if c.floated
            and not c.closed
            and len(c.trains) > self.train_limit(c)
            and not (forming and c.sym == PR)
        ]

    def buying_train(self, train: Train) -> None:
        before = self.phases.name
        while self.phases.next_on(train.name):
            self.phases.advance()
            self.note("phase", phase=self.phases.name)
            self.on_phase_change(self.phases.current)
        self.rust_trains(train)
        if self.phases.name != before:
            for event in self.data.phases[self.phases.index].events:
                getattr(self, f"event_{event}")()

    def rust_trains(self, bought: Train) -> None:
        rusting = [t for t in self.depot.trains if not t.rusted and t.rusts_on == bought.name]
        if rusting:
            self.note("rusted", train=rusting[0].name)
        super().rust_trains(bought)

    def reclaim_train(self, train: Train) -> None:
        """A discarded train goes to the pool (rules/1835.md 8.7)."""
        owner = train.owner
        if isinstance(owner, Corporation):
            owner.trains.remove(train)
        self.depot.reclaim(train)

    # -- dividends --------------------------------------------------------------------------
    def pay_dividend(self, corp: Corporation, revenue: int, kind: str) -> None:
        """Majors pay out (each holder revenue x percent, halves up; pool shares pay the
        company; IPO and reserved shares nobody) or withhold; minors split, keeping the lower
        half (rules/1835.md 8.6, 7)."""
        if isinstance(corp, Minor):
            if revenue:
                keep = revenue // 2
                transfer(self.bank, corp, keep, "1835 rules §7")
                owner = corp.owner
                assert owner is not None
                transfer(self.bank, owner, revenue - keep, "1835 rules §7")
                self.note("payout", to=owner.name, amount=revenue - keep)
                self.note("payout", to=corp.sym, amount=keep)
            return
        if kind == "withhold":
            if revenue:
                transfer(self.bank, corp, revenue, "1835 rules §8.6")
        elif revenue:
            for holder in [*self.players, self.pool]:
                pct = holder.percent_of(corp.sym)
                if not pct:
                    continue
                amount = (revenue * pct * 2 + 100) // 200
                target: Holder = corp if holder is self.pool else holder
                if amount:
                    transfer(self.bank, target, amount, "1835 rules §8.6")
                    self.note("payout", to=getattr(target, "sym", target.name), amount=amount)
        paid = revenue if kind == "payout" else 0
        self.move_price(corp, "right" if paid > 0 else "left")
