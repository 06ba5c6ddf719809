"""1841's stock round (rules/1841.md 2.2): who may start which corporation at which prices,
the extra IPO purchases after a major's start, the start of a corporation (home tokens and
token purchase, 2.2.3) and the end of the round (2.2.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stellwerk.core.entities import Company, Corporation, Player, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, Round, Step, act
from stellwerk.core.flow.rounds import StockRound
from stellwerk.core.flow.stock import BuySellParShares
from stellwerk.core.market import Cell
from stellwerk.core.shares import Bundle

if TYPE_CHECKING:
    from stellwerk.titles.g1841.game import Game1841

HISTORICAL_TOKEN_PRICE = 50
"""What a historical corporation pays per token at its start (rules/1841.md 2.2.3)."""

TOKENS_BOUGHT = {"major": (2, 5), "minor": (1, 2)}
"""How many tokens a starting corporation buys, least and most (rules/1841.md 2.2.3)."""

BAYARD_PAYS = 20
"""What the concession without a corporation pays its owner at the end of every stock round
(rules/1841.md 1.2, 2.2.2)."""

EXTRA_BUYS_BELOW = 40
"""After starting a major its president may buy more IPO shares of it in the same turn while
he holds less than this percentage (rules/1841.md 2.2.1)."""


def new_stock_round(game: Game1841) -> Round:
    """The stock round's steps (rules/1841.md 2.2): the start of a corporation first (home
    tokens, token purchase), then the player's turn."""
    return StockRound1841(game, [StartCorporation, Shares1841])


def concession_of(game: Game1841, corp: Corporation) -> Company | None:
    """The concession that entitles its owner to start ``corp`` (rules/1841.md 1.2)."""
    spec = game.specs[corp.sym]
    if spec.concession is None:
        return None
    found = next((c for c in game.data.companies if c.number == spec.concession), None)
    return game.company(found.sym) if found is not None else None


def can_par(game: Game1841, corp: Corporation, player: Player | None = None) -> bool:
    """Historical corporations start only by the owner of their concession, before phase 4
    (rules/1841.md 2.2.1); non-historical ones need phase 3 (not yet written)."""
    if corp.ipoed:
        return False
    spec = game.specs[corp.sym]
    if not (spec.startable and spec.historical):
        return False
    concession = concession_of(game, corp)
    if concession is None or not isinstance(concession.owner, Player):
        return False
    return player is None or concession.owner is player


def par_cells(game: Game1841, corp: Corporation | None = None) -> list[Cell]:
    """Par prices: 68, 100, 144 for all, 216 and 340 for majors only (rules/1841.md 1.2
    "Stock market", 2.2.1)."""
    if corp is not None and game.specs[corp.sym].type == "minor":
        return game.market.cells_with_type({"p"})
    return game.market.cells_with_type({"p", "x"})


class Shares1841(BuySellParShares):
    """A player's turn (rules/1841.md 2.2.1): sell, then one purchase; after starting a major
    more IPO shares of it while below 40 %.  When the turn's buying is over, a corporation
    started in it goes to its start (:class:`StartCorporation`)."""

    game: Game1841

    def started(self) -> Corporation | None:
        """The corporation this turn's par started, if any."""
        for action in self.round.state.current_actions:
            if action["type"] == "par":
                return self.game.corporation(str(action["corporation"]))
        return None

    def can_buy_multiple(self, player: Player, corp: Corporation) -> bool:
        started = self.started()
        return (
            started is corp
            and self.game.specs[corp.sym].type == "major"
            and player.percent_of(corp.sym) < EXTRA_BUYS_BELOW
        )

    def can_buy(self, player: Player, bundle: Bundle | None) -> bool:
        if bundle is not None and self.bought() and bundle.owner is not bundle.corporation:
            return False
        return super().can_buy(player, bundle)

    def can_par_any(self, player: Player) -> bool:
        if self.bought():
            return False
        return any(
            can_par(self.game, corp, player) and self.can_afford(player, corp)
            for corp in self.game.corporations
        )

    def can_afford(self, player: Player, corp: Corporation) -> bool:
        cells = par_cells(self.game, corp)
        return any(
            c.price * corp.president_percent // corp.share_unit <= player.cash for c in cells
        )

    def process_par(self, action: Action, entity: Any) -> None:
        corp = self.game.corporation(str(action["corporation"]))
        if not can_par(self.game, corp, entity):
            raise IllegalAction(f"{entity.name} may not start {corp.sym}", "rules/1841.md 2.2.1")
        cell = self.game.market.cell_by_id(str(action["share_price"]))
        if cell is None or cell not in par_cells(self.game, corp):
            raise IllegalAction(
                f"{corp.sym} cannot start at {action['share_price']}", "rules/1841.md 1.2"
            )
        super().process_par(action, entity)
        self.release_if_done(entity)

    def process_buy_shares(self, action: Action, entity: Any) -> None:
        super().process_buy_shares(action, entity)
        self.release_if_done(entity)

    def process_pass(self, action: Action, entity: Any) -> None:
        super().process_pass(action, entity)
        self.release(entity)

    def release_if_done(self, player: Player) -> None:
        """No more purchase possible: the turn ends, the started corporation starts."""
        if not self.actions(player):
            self.release(player)

    def release(self, player: Player) -> None:
        corp = self.started()
        if corp is not None and not any(
            p["entity"] is corp for p in self.round.state.pending_tokens
        ):
            begin_start(self.game, self.round, corp)


def begin_start(game: Game1841, rnd: Round, corp: Corporation) -> None:
    """A historical corporation's home tokens go on its printed homes; one whose home city
    is to be chosen (SFMA of the second edition) places it by an action; then it buys its
    tokens (rules/1841.md 2.2.3)."""
    spec = game.specs[corp.sym]
    choose: list[str] = []
    for hid, city in spec.homes:
        if city < 0:
            choose.append(hid)
        else:
            game.map.board.place_token_at(hid, city, corp.sym)
    rnd.state.pending_tokens.append({"entity": corp, "hexes": choose, "tokens": True})


class StartCorporation(Step):
    """A started corporation places the home token it chooses (``place_token``) and buys its
    tokens (``choose`` {choice: N}, N = 2-5 for a major, 1-2 for a minor, L.50 each for a
    historical corporation) (rules/1841.md 2.2.3)."""

    description = "Start a Corporation"
    game: Game1841

    def pending(self) -> dict[str, Any]:
        pending = self.round.state.pending_tokens
        return pending[0] if pending else {}

    def active(self) -> bool:
        return bool(self.pending())

    def skip(self) -> None:
        """Never passed: it is active exactly while a start is pending."""

    def active_entities(self) -> list[Any]:
        corp = self.pending().get("entity")
        return [corp] if corp is not None else []

    def actions(self, entity: Any) -> list[str]:
        pending = self.pending()
        if not pending or entity is not pending["entity"]:
            return []
        return ["place_token"] if pending["hexes"] else ["choose"]

    def token_range(self, corp: Corporation) -> range:
        low, high = TOKENS_BOUGHT[self.game.specs[corp.sym].type]
        affordable = corp.cash // HISTORICAL_TOKEN_PRICE
        return range(low, max(low, min(high, affordable)) + 1)

    def choices(self, entity: Any) -> list[Action]:
        kinds = self.actions(entity)
        if "place_token" in kinds:
            board = self.game.map.board
            hid = self.pending()["hexes"][0]
            cities = board.hexes[hid].cities
            return [
                act(entity, "place_token", city=board.city_id(hid, i), slot=0, tokener=entity.sym)
                for i in range(len(cities))
            ]
        if "choose" in kinds:
            return [act(entity, "choose", choice=n) for n in self.token_range(entity)]
        return []

    def process_place_token(self, action: Action, entity: Any) -> None:
        pending = self.pending()
        hid, index = self.game.map.board.resolve_city(str(action["city"]))
        if hid not in pending["hexes"]:
            raise IllegalAction(f"{entity.sym}'s home is not {hid}", "rules/1841.md 2.2.3")
        self.game.map.board.place_token_at(hid, index, entity.sym)
        pending["hexes"].remove(hid)

    def process_choose(self, action: Action, entity: Any) -> None:
        count = action.get("choice")
        if not isinstance(count, int) or count not in self.token_range(entity):
            raise IllegalAction(f"{entity.sym} cannot buy {count} tokens", "rules/1841.md 2.2.3")
        transfer(entity, self.game.bank, count * HISTORICAL_TOKEN_PRICE, "rules/1841.md 2.2.3")
        entity.num_tokens = count
        self.round.state.pending_tokens.pop(0)


class StockRound1841(StockRound):
    """End of the stock round (rules/1841.md 2.2.2): the price moves, Bayard pays L.20 to its
    owner, concessions whose corporation was not started return to the bank."""

    game: Game1841

    def finish_round(self) -> None:
        super().finish_round()
        game = self.game
        for company in game.companies:
            owner = company.owner
            if not isinstance(owner, Player):
                continue
            corp_sym = next(c.corporation for c in game.data.companies if c.sym == company.sym)
            if corp_sym is None:
                transfer(game.bank, owner, BAYARD_PAYS, "rules/1841.md 2.2.2")
            elif not game.corporation(corp_sym).ipoed:
                owner.companies.remove(company)
                company.owner = None
