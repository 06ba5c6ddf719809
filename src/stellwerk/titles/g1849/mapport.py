"""1849's map work on the generic board: home tokens, tile lays with 1849 costs, tokens,
route checks (rules/1849.md §§3, 4.1, 4.3, 4.5, 4.6).

The default board port (``core.map.port.BoardPort``) with what differs in 1849: the graph
cleared where 18xx.games clears it, the charter's tokens, its lay options and costs, SMS
teleports, the CNM bonus, E-trains and token buying.  The lay listing and checks, route flags
and run revenue are the default port's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from stellwerk.core import moves
from stellwerk.core.entities import Corporation, Train, Trains, transfer
from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.lay import LayOptions
from stellwerk.core.map.port import BoardPort
from stellwerk.core.routes.model import RunContext, TrainSpec
from stellwerk.core.routes.optimize import BestRun
from stellwerk.titles.g1849.entities import c49
from stellwerk.titles.g1849.rules.track import new_board, track_rules

if TYPE_CHECKING:
    from stellwerk.titles.g1849.game import Game1849


class MapPort(BoardPort):
    """The 1849 game's view of the board."""

    game: Game1849
    track_rule = "1849 rules §3.3"

    def __init__(self, game: Game1849) -> None:
        # 18xx.games clears its graph only at certain events; mirrored (see clear calls)
        super().__init__(game, new_board(), route_rules=game.route_rules, follow_board=False)
        self._tokens: dict[str, list[str]] = {}
        self._tokens_version = -1

    # -- tokens -----------------------------------------------------------------------------
    def unreserve_home(self, corp: Corporation) -> None:
        self.board.unreserve(corp.sym)

    def token_hexes(self, corp: str) -> list[str]:
        """Hexes of a corporation's tokens (cached per board version)."""
        if self._tokens_version != self.board.version:
            self._tokens.clear()
            self._tokens_version = self.board.version
        hexes = self._tokens.get(corp)
        if hexes is None:
            hexes = self._tokens[corp] = self.board.token_hexes(corp)
        return hexes

    # A corporation's charter holds its tokens in order; each is placed (its hex) or not.
    # The first one counts as the home token for token purchases, a token bought away is
    # free again, and one destroyed by the earthquake leaves the charter (18xx.games token
    # objects; 1849 rules §§3.5, 7.3).
    @staticmethod
    def charter(corp: Corporation) -> list[str | None]:
        tokens: list[str | None] = c49(corp).tokens
        return tokens

    def _token_placed(self, corp: Corporation, hex_id: str) -> None:
        charter = self.charter(corp)
        charter[charter.index(None)] = hex_id

    def first_token_hex(self, corp: Corporation) -> str | None:
        charter = self.charter(corp)
        return charter[0] if charter else None

    def unplaced_tokens(self, corp: Corporation) -> int:
        return self.charter(corp).count(None)

    def place_home(self, corp: Corporation) -> None:
        assert corp.home is not None
        if self.board.can_place_token(corp.home, 0, corp.sym):
            self.board.place_token_at(corp.home, 0, corp.sym)
            self._token_placed(corp, corp.home)

    def has_free_slot(self, corp: Corporation, hex_id: str) -> bool:
        state = self.board.hex(hex_id)
        return any(
            self.board.can_place_token(hex_id, i, corp.sym) for i in range(len(state.cities))
        )

    def place_chosen_home(
        self, corp: Corporation, action: moves.PlaceToken, hexes: list[str]
    ) -> None:
        hex_id, index = self.board.resolve_city(action.city)
        if hex_id not in hexes:
            raise IllegalAction(f"{corp.sym} cannot have its home in {hex_id}", "1849 rules §4.5")
        self.board.place_token_at(hex_id, index, corp.sym)
        self._token_placed(corp, hex_id)
        self.graph.clear()

    def home_city_choices(self, corp: Corporation, hexes: list[str]) -> list[str]:
        out = []
        for hid in hexes:
            for index in range(len(self.board.hex(hid).cities)):
                if self.board.can_place_token(hid, index, corp.sym):
                    out.append(self.board.city_id(hid, index))
        return out

    def token_choices(self, corp: Corporation) -> list[tuple[str, int]]:
        """(city id, slot) where the corporation may place a token now."""
        sms = c49(corp).sms_hexes
        if sms is not None:
            spots = [
                (h, i)
                for h in sms
                for i in range(len(self.board.hex(h).cities))
                if self.board.can_place_token(h, i, corp.sym)
            ]
        else:
            spots = self.graph.tokenable_cities(corp.sym)
        out = []
        for hid, index in spots:
            slot = self.board.hex(hid).cities[index].get_slot(corp.sym)
            out.append((self.board.city_id(hid, index), slot or 0))
        return out

    def buyable_token_choices(self, corp: Corporation) -> list[tuple[str, int]]:
        out: list[tuple[str, int]] = []
        if self.unplaced_tokens(corp) <= 0:
            return out
        for hid, index in self._reached_cities(corp):
            for slot, holder in enumerate(self.board.hexes[hid].cities[index].tokens):
                if holder is None or not self._sellable(corp, hid, holder):
                    continue
                seller = self.game.corporation(holder)
                if seller.owner is not None and self.placed_tokens(seller) > 1:
                    out.append((self.board.city_id(hid, index), slot))
        return out

    def remove_all_tokens(self, corp: Corporation) -> None:
        """A closing corporation's tokens leave the board; the reference engine does not clear
        its graph then, but the corporation's own record starts afresh."""
        self.board.remove_all_tokens(corp.sym)
        self.graph.forget(corp.sym)

    def earthquake(self, hex_id: str) -> list[str]:
        """Reset the hex; its tokens leave their charters for good."""
        removed = self.board.reset_hex(hex_id)
        for sym in removed:
            corp = self.game.corporation_or_none(sym)
            if corp is not None and hex_id in self.charter(corp):
                self.charter(corp).remove(hex_id)
        self.graph.clear_all()
        return removed

    # -- track ------------------------------------------------------------------------------
    def can_lay_tile(self, corp: Corporation) -> bool:
        return self.unplaced_tokens(corp) + self.placed_tokens(corp) > 0

    def lay_options(self, corp: Corporation) -> LayOptions:
        """The flow's inputs to the lay check: phase colours, SCE's block while a player
        owns it (1849 rules §3.4), Messina frozen after the earthquake (§3.5), SMS hexes
        (§4.6), replay mode, and 1849's gauge and cost hooks (§§3.2-3.3)."""
        game = self.game
        sce = next((c for c in game.companies if c.sym == "SCE"), None)
        blocked: list[str] = []
        if (
            sce is not None
            and not sce.closed
            and sce.owner is not None
            and sce.owner.kind == "player"
        ):
            blocked = list(game.data.companies[0].blocks_hexes)
        frozen = [] if game.messina_upgradeable else [game.data.messina]
        sms = c49(corp).sms_hexes
        rules = track_rules(
            lambda sym: any(c.sym == "SIGI" for c in game.corporation(sym).companies)
        )
        return LayOptions(
            phase_colors=game.phases.current.tiles,
            blocked=blocked,
            frozen=frozen,
            teleport=list(sms) if sms is not None else None,
            policy=game.policy,
            rules=rules,
        )

    def lay_tile(self, corp: Corporation, action: moves.LayTile) -> None:
        """Lay or upgrade a tile: checked by the core lay rules with 1849's hooks; the
        terrain cost is paid to the bank (1849 rules §3).  While SMS's teleport is open the
        token may then go only on the hex laid (§4.6); Garibaldi's hex is looked at again."""
        super().lay_tile(corp, action)
        if c49(corp).sms_hexes is not None:
            c49(corp).sms_hexes = [action.hex]
        self.game.update_garibaldi()

    # -- station tokens ---------------------------------------------------------------------
    def can_place_token(self, corp: Corporation) -> bool:
        if self.unplaced_tokens(corp) <= 0:
            return False
        if c49(corp).sms_hexes is not None:
            return True
        return self.graph.has_tokenable_city(corp.sym)

    def place_token(self, corp: Corporation, action: moves.PlaceToken) -> None:
        game = self.game
        hex_id, index = self.board.resolve_city(action.city)
        sms = c49(corp).sms_hexes
        reached = self.graph.tokenable_cities
        if sms is not None:
            if hex_id not in sms:
                raise IllegalAction("must place the token on the SMS hex", "1849 rules §4.6")
        elif game.policy.token_reach and (hex_id, index) not in reached(corp.sym):
            raise IllegalAction(
                f"{corp.sym} cannot reach a free slot in {hex_id}", "common rules §6.4"
            )
        if self.unplaced_tokens(corp) <= 0:
            raise IllegalAction(f"{corp.sym} has no token left", "1849 rules §4.1")
        with self.graph.cleared_after():
            self.board.place_token_at(hex_id, index, corp.sym)
            self._token_placed(corp, hex_id)
        self._afg_blocked_check()

    def _afg_blocked_check(self) -> None:
        """After a token: if AFG has no home left it moves to the end of the queue
        (1849 rules §4.5)."""
        game = self.game
        afg = game.afg()
        if afg is None or afg.floated or game.home_token_locations(afg):
            return
        corps = game.corporations
        index = corps.index(afg)
        if c49(afg).next_to_par and afg is not corps[-1]:
            c49(corps[index + 1]).next_to_par = True
            c49(afg).next_to_par = False
        c49(afg).slot_open = False
        corps.remove(afg)
        corps.append(afg)

    # -- routes -----------------------------------------------------------------------------
    def run_context(self, corp: Corporation) -> RunContext:
        """Board, phase and the CNM +20 marker of this corporation (1849 rules §1.4)."""
        game = self.game
        bonus = {}
        if game.cnm_hex and game.cnm_corporation is corp:
            bonus[game.cnm_hex] = 20
        phase = game.phases.current
        return RunContext(self.board, corp.sym, phase.name, tuple(phase.tiles), bonus)

    def train_specs(self, corp: Corporation | Trains) -> dict[str, TrainSpec]:
        return {
            t.id: TrainSpec(t.id, t.name, None if t.name == "E" else t.distance)
            for t in corp.trains
        }

    def best_run(self, corp: Corporation, trains: Sequence[Train] | None = None) -> BestRun:
        """The best run of the corporation with its trains or ``trains`` (proven optimal)."""
        from stellwerk.titles.g1849.routefind import best_run

        specs = self.train_specs(corp if trains is None else Trains(list(trains)))
        return best_run(self.run_context(corp), specs, self.game.route_rules)

    # -- token buying (option) --------------------------------------------------------------
    def _reached_cities(self, corp: Corporation) -> list[tuple[str, int]]:
        out = []
        for hid, node in self.graph.network(corp.sym).nodes:
            index = self.board.hexes[hid].city_index(node)
            if index is not None:
                out.append((hid, index))
        return out

    def _sellable(self, buyer: Corporation, hex_id: str, holder: str) -> bool:
        seller = self.game.corporation_or_none(holder)
        return (
            seller is not None
            and seller is not buyer
            and self.first_token_hex(seller) != hex_id
            and not self.board.hex(hex_id).has_token(buyer.sym)
        )

    def any_buyable_tokens_placed(self, corp: Corporation) -> bool:
        """Is a non-home token of another corporation in a city the buyer reaches
        (1849 rules §7.3)?"""
        for hid, index in self._reached_cities(corp):
            for holder in self.board.hexes[hid].cities[index].tokens:
                if holder is not None and self._sellable(corp, hid, holder):
                    return True
        return False

    def buy_token(self, corp: Corporation, action: moves.BuyToken) -> None:
        """Replace another corporation's token: reachable, not its home, it keeps another token
        on the map, the buyer has none on that hex and a token to place; the price goes to
        the seller (1849 rules §7.3)."""
        hex_id, index = self.board.resolve_city(action.city)
        slot = action.slot
        price = action.price
        city = self.board.hexes[hex_id].cities[index]
        holder = city.tokens[slot] if slot < len(city.tokens) else None
        if holder is None:
            raise IllegalAction("no token there", "1849 rules §7.3")
        seller = self.game.corporation(holder)
        if self.unplaced_tokens(corp) <= 0:
            raise IllegalAction(f"{corp.sym} has no token to place", "1849 rules §7.3")
        if self.first_token_hex(seller) == hex_id:
            raise IllegalAction("a home token cannot be bought", "1849 rules §7.3")
        if self.game.policy.token_reach and (
            not self._sellable(corp, hex_id, holder)
            or seller.owner is None
            or self.placed_tokens(seller) <= 1
            or (hex_id, index) not in self._reached_cities(corp)
        ):
            raise IllegalAction("this token cannot be bought", "1849 rules §7.3")
        if not 1 <= price <= corp.cash:
            raise IllegalAction(f"price must be between 1 and {corp.cash}", "1849 rules §7.3")
        # the seller's token leaves its slot; the buyer's goes where a new token would go
        # (reserved or first open slot, as 18xx.games exchanges it)
        self.board.replace_token(action.city, slot, corp.sym)
        seller_charter = self.charter(seller)
        seller_charter[seller_charter.index(hex_id)] = None
        self._token_placed(corp, hex_id)
        self.graph.clear_for(seller.sym)
        transfer(corp, seller, price, "1849 rules §7.3")
