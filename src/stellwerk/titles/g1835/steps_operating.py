"""1835 operating rounds (rules/1835.md 8; Rails OperatingRound_1835).

Privates pay, then minors M1..M6, then majors by price (re-sorted after every turn).  A turn:
track (majors two yellow tiles in phase 2, otherwise one lay or upgrade; private abilities),
one token (majors only, 20M per hex from home), run trains, dividends (minors always split),
buy trains (majors must own one; emergency money from the director).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from stellwerk.core import moves
from stellwerk.core.entities import Company, Corporation, Entity, Player
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action, act
from stellwerk.core.flow.operating import DiscardTrain, Dividend, Route, Token, Track
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.core.policy import LIVE
from stellwerk.titles.g1835.bankruptcy import loan_of
from stellwerk.titles.g1835.entities import Minor
from stellwerk.titles.g1835.formation import FormationStep
from stellwerk.titles.g1835.steps_trains import BuyTrain1835

if TYPE_CHECKING:
    from stellwerk.titles.g1835.game import Game1835

RULE_TRACK = "1835 rules §8.3"


class OperatingRound1835(OperatingRound):
    """Privates pay, minors operate, then majors by current price (rules/1835.md 8.1)."""

    game: Game1835

    def __init__(self, game: Game1835, round_num: int) -> None:
        super().__init__(
            game,
            [
                DiscardTrain,
                FormationStep,
                Track1835,
                Token1835,
                Route1835,
                Dividend1835,
                BuyTrain1835,
            ],
            round_num,
        )
        self.label = f"OR {game.or_label}"
        self.trigger: Corporation | None = None
        self.interrupted = False
        """A formation round interrupted this OR (PR's income denial, rules/1835.md 10.4)."""
        self.income_tally: dict[Player, int] = {}
        """Per player: the PR percentage whose income he already had in this OR."""

    def setup(self) -> None:
        game = self.game
        game.note("or_start", label=self.label)
        game.or_start_worth = {p.name: game.player_value(p) for p in game.players}
        for company in game.companies:
            owner = company.owner
            share = game.data.private(company.sym).prussian_exchange_percent
            if share and company.revenue and not company.closed and isinstance(owner, Player):
                self.income_tally[owner] = self.income_tally.get(owner, 0) + share
        super().setup()

    def next_entity(self) -> None:
        """The majors that have not operated yet are re-sorted by their prices after every
        turn (rules/1835.md 8.1)."""
        if self.entity_index < len(self.entities) - 1:
            self.recalculate_order()
        super().next_entity()

    def start_operating(self) -> None:
        entity = self.entities[self.entity_index]
        if not self.skip_entity(entity):
            self.game.note("operates", corp=entity.sym)
            owner = entity.owner
            if isinstance(entity, Minor) and isinstance(owner, Player):
                share = self.game.data.minor(entity.sym).exchange_percent
                self.income_tally[owner] = self.income_tally.get(owner, 0) + share
        super().start_operating()


def _director_companies(game: Game1835, corp: Corporation | None) -> list[Company]:
    """Private companies whose owner directs the operating company (rules/1835.md 6)."""
    owner = getattr(corp, "owner", None)
    if not isinstance(owner, Player):
        return []
    return [c for c in owner.companies if not c.closed]


def _ability(game: Game1835, company: Company, kind: str) -> dict[str, Any] | None:
    for ability in game.data.private(company.sym).abilities:
        if ability.get("type") == kind:
            return dict(ability)
    return None


class Track1835(Track):
    """Tile lays of the operating company and its director's private companies."""

    game: Game1835
    round: OperatingRound1835
    description = "Lay Track"

    def setup(self) -> None:
        super().setup()
        self.relays: list[tuple[str, str]] = []

    def lays_allowed(self, corp: Corporation) -> int:
        """Majors lay two yellow tiles in phase 2; otherwise one lay or upgrade
        (rules/1835.md 8.3)."""
        two = "major_two_yellow_lays" in self.game.phases.current.status
        return 2 if two and not isinstance(corp, Minor) else 1

    def operator(self) -> Corporation | None:
        return self.round.current_operator

    def company_actions(self, company: Company) -> list[str]:
        game = self.game
        corp = self.operator()
        if corp is None or company not in _director_companies(game, corp):
            return []
        out = []
        if self.tile_ability_usable(company):
            out.append("lay_tile")
        if token_ability_usable(game, company, corp, "track"):
            out.append("place_token")
        return out

    def tile_ability_usable(self, company: Company) -> bool:
        game = self.game
        ability = _ability(game, company, "tile_lay")
        if ability is None:
            return False
        used = game.ability_uses.get((company.sym, "tile_lay"), [])
        if len(used) >= int(ability.get("count", 1)):
            return False
        if ability.get("one_per_operating_round") and game.or_label in used:
            return False
        return any(game.map.board.hex(h).is_preprinted for h in ability["hexes"])

    def actions(self, entity: Entity) -> list[str]:
        if self.relays:
            return ["place_token"] if entity is self.operator() else []
        if isinstance(entity, Company):
            return self.company_actions(entity)
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        if self.lays >= self.lays_allowed(entity):
            return ["pass"] if self.abilities_left(entity) else []
        return super().actions(entity)

    def abilities_left(self, corp: Corporation) -> bool:
        """The director's private companies can still lay a tile (the step waits for them)."""
        return any(
            "lay_tile" in self.company_actions(c) for c in _director_companies(self.game, corp)
        )

    def lay_hexes(self, entity: Entity) -> list[str]:
        """Hexes where ``choices(entity, hex)`` may list lays: a private's ability hexes, or
        the hexes the operating company's network reaches."""
        if self.relays or "lay_tile" not in self.actions(entity):
            return []
        if isinstance(entity, Company):
            ability = _ability(self.game, entity, "tile_lay") or {}
            board = self.game.map.board
            return [h for h in ability.get("hexes", []) if board.hex(h).is_preprinted]
        if not isinstance(entity, Corporation):
            return []
        return self.game.map.lay_hexes(entity)

    def lay_offered(self, entity: Entity, hex_id: str, tile_id: str, rotation: int) -> bool:
        """Whether ``choices`` lists this lay (company abilities and relays included)."""
        wanted = (hex_id, tile_id, rotation)
        return any(
            (a.get("hex"), a.get("tile"), a.get("rotation")) == wanted
            for a in self.choices(entity, hex_id)
            if a["type"] == "lay_tile"
        )

    def choices(
        self, entity: Entity, hex_id: str | None = None, all_lays: bool = False
    ) -> list[Action]:
        kinds = self.actions(entity)
        if not kinds:
            return []
        out: list[Action] = []
        game = self.game
        if self.relays:
            hex_id, sym = self.relays[0]
            board = game.map.board
            for index in game.map.relay_cities(hex_id, sym):
                city = board.city_id(hex_id, index)
                out.append(act(entity, "place_token", city=city, slot=0, tokener=sym))
            return out
        if isinstance(entity, Company):
            corp = self.operator()
            if corp is None:
                return []  # ``company_actions`` offers nothing without an operating company
            if "lay_tile" in kinds and (hex_id is not None or all_lays):
                ability = _ability(game, entity, "tile_lay") or {}
                for h in ability.get("hexes", []):
                    if hex_id not in (None, h) or not game.map.board.hex(h).is_preprinted:
                        continue
                    colors = tuple(ability.get("colours", ())) or ("yellow", "green")
                    for hid, tile, rot in ability_lays(game, corp, entity, h, colors):
                        out.append(act(entity, "lay_tile", hex=hid, tile=tile, rotation=rot))
            if "place_token" in kinds:
                out.extend(token_ability_choices(game, entity, corp))
            return out
        return super().choices(entity, hex_id, all_lays)

    def process_lay_tile(self, action: moves.LayTile, entity: Corporation | Company) -> None:
        game = self.game
        if isinstance(entity, Company):
            self.ability_lay(action, entity)
            return
        if self.lays >= self.lays_allowed(entity):
            raise IllegalAction(f"{entity.sym} has laid its tiles", RULE_TRACK)
        relaid = game.map.trackless_tokens(action.hex)
        game.lay_tile(entity, action)
        self.lays += 1
        self.ask_relays(action.hex, relaid)
        self.maybe_done(entity)

    def maybe_done(self, corp: Corporation) -> None:
        if (
            not self.relays
            and self.lays >= self.lays_allowed(corp)
            and not self.abilities_left(corp)
        ):
            self.pass_()

    def ask_relays(self, hex_id: str, relaid: list[str]) -> None:
        """Tokens that stood on cities without track are relaid by the operating director onto
        a city of the new tile (rules/1835.md 6: BA's home on L6; Rails tile -807)."""
        game = self.game
        for sym in relaid:
            if len(game.map.relay_cities(hex_id, sym)) > 1:
                self.relays.append((hex_id, sym))

    def relay(self, action: moves.PlaceToken, corp: Corporation) -> None:
        game = self.game
        hex_id, sym = self.relays[0]
        target, index = game.map.board.resolve_city(str(action.city))
        if target != hex_id or (action.tokener or sym) != sym:
            raise IllegalAction(f"{sym}'s token on {hex_id} must be relaid first", RULE_TRACK)
        if index not in game.map.relay_cities(hex_id, sym):
            raise IllegalAction(f"{sym}'s token cannot go to that city", RULE_TRACK)
        game.map.relay_token(hex_id, sym, index)
        game.note("relay", corp=sym, hex=hex_id, city=index)
        self.relays.pop(0)
        self.maybe_done(corp)

    def ability_lay(self, action: moves.LayTile, company: Company) -> None:
        """OBB's free yellow tiles on M15/M17 (one per OR), PfB's free green tile on L6: free,
        no connection needed (rules/1835.md 6)."""
        game = self.game
        corp = self.operator()
        ability = _ability(game, company, "tile_lay")
        if corp is None or ability is None or not self.tile_ability_usable(company):
            raise IllegalAction(f"{company.sym} cannot lay a tile now", "1835 rules §6")
        hexes = list(ability["hexes"])
        if action.hex not in hexes:
            raise IllegalAction(f"{company.sym} lays only on {hexes}", "1835 rules §6")
        tile_name = str(action.tile).rpartition("-")[0]
        allowed_tiles = ability.get("tiles")
        if allowed_tiles and tile_name not in allowed_tiles:
            raise IllegalAction(f"{company.sym} lays only {allowed_tiles}", "1835 rules §6")
        colors = tuple(ability.get("colours", ())) or ("yellow", "green")
        relaid = game.map.trackless_tokens(action.hex)
        game.map.lay_private_tile(corp, action, hexes, colors)
        game.note("tile", corp=corp.sym, hex=action.hex, tile=action.tile)
        game.ability_uses.setdefault((company.sym, "tile_lay"), []).append(game.or_label)
        game.after_tile_laid()
        self.ask_relays(action.hex, relaid)
        self.maybe_done(corp)

    def process_place_token(self, action: moves.PlaceToken, entity: Corporation | Company) -> None:
        if self.relays and isinstance(entity, Corporation):  # the operator relays its tokens
            self.relay(action, entity)
            return
        if not isinstance(entity, Company):
            raise IllegalAction(f"{entity.sym} places no token in the track step", RULE_TRACK)
        use_token_ability(self.game, entity, self.operator(), action, "track")


def ability_lays(
    game: Game1835, corp: Corporation, company: Company, hex_id: str, colors: tuple[str, ...]
) -> list[tuple[str, str, int]]:
    from stellwerk.core.map.lay import legal_lays

    # the lays offered are those live play allows, whatever the game's policy
    opts = replace(game.map.lay_options(corp, [hex_id]), phase_colors=colors, policy=LIVE)
    ability = _ability(game, company, "tile_lay") or {}
    tiles = ability.get("tiles")
    out = []
    for tile_id, rot in legal_lays(game.map.board, game.map.graph, corp.sym, hex_id, opts):
        if tiles and tile_id.rpartition("-")[0] not in tiles:
            continue
        out.append((hex_id, tile_id, rot))
    return out


def token_ability_usable(
    game: Game1835, company: Company, corp: Corporation | None, step: str
) -> bool:
    """NF's free token on L14, PfB's on L6 once a tile lies there; in the track or token step
    (Westermann ruling: the token step only) (rules/1835.md 6, 11)."""
    ability = _ability(game, company, "token")
    if ability is None or company.closed or not isinstance(corp, Corporation):
        return False
    steps = game.settings.free_token_steps or tuple(ability["steps"])
    if step not in steps:
        return False
    if game.map.placed_tokens(corp) >= corp.num_tokens:
        return False
    hexes = list(ability["hexes"])
    if ability.get("requires_tile") and all(game.map.board.hex(h).is_preprinted for h in hexes):
        return False
    return bool(game.map.free_token_city(corp, hexes))


def token_ability_choices(
    game: Game1835, company: Company, corp: Corporation | None
) -> list[Action]:
    ability = _ability(game, company, "token") or {}
    if corp is None:
        return []
    return [
        act(company, "place_token", city=city, slot=slot)
        for city, slot in game.map.free_token_city(corp, list(ability.get("hexes", [])))
    ]


def use_token_ability(
    game: Game1835, company: Company, corp: Corporation | None, action: moves.PlaceToken, step: str
) -> None:
    if corp is None or not token_ability_usable(game, company, corp, step):
        raise IllegalAction(f"{company.sym} cannot place a token now", "1835 rules §6")
    ability = _ability(game, company, "token") or {}
    hex_id = game.map.place_free_token(corp, action, list(ability["hexes"]))
    game.note("token", corp=corp.sym, hex=hex_id, cost=0)
    if ability.get("closes_company", True):
        game.close_company(company)


class Token1835(Token):
    """One token per turn for majors (the game's token hooks: 20M per hex of distance from
    home, rules/1835.md 8.4); NF's and PfB's free tokens (rules/1835.md 6)."""

    game: Game1835
    round: OperatingRound1835

    def actions(self, entity: Entity) -> list[str]:
        if isinstance(entity, Company):
            corp = self.round.current_operator
            ok = corp is not None and entity in _director_companies(self.game, corp)
            return ["place_token"] if ok and token_ability_usable(
                self.game, entity, corp, "token"
            ) else []  # fmt: skip
        return super().actions(entity)

    def choices(self, entity: Entity) -> list[Action]:
        if isinstance(entity, Company):
            if not self.actions(entity):
                return []
            return token_ability_choices(self.game, entity, self.round.current_operator)
        return super().choices(entity)

    def process_place_token(self, action: moves.PlaceToken, entity: Corporation | Company) -> None:
        if isinstance(entity, Company):
            use_token_ability(self.game, entity, self.round.current_operator, action, "token")
            return
        super().process_place_token(action, entity)


class Route1835(Route):
    """Run the trains.  A run is either routes (checked) or, for games imported from Rails
    reports that record only the total, a claimed ``revenue`` that legal routes must be able to
    reach (rules/1835.md 8.5; rails-report-format.md 3.1)."""

    game: Game1835
    round: OperatingRound1835

    def revenue(self, action: moves.RunRoutes, entity: Corporation) -> int:
        """A claimed revenue, or the routes' revenue.  No train is refused for an earlier run
        in this OR: the minors' trains run again for PR in the OR of its formation (rules/1835.md
        8.5, 10.4)."""
        game = self.game
        routes = action.routes
        if action.revenue is not None and not routes:
            revenue = action.revenue
            if revenue < 0:
                raise IllegalAction("revenue cannot be negative", "1835 rules §8.5")
            if game.policy.run_revenue and revenue > 0:
                best = game.map.best_run(entity, node_limit=None).revenue
                if best < revenue:
                    raise IllegalAction(
                        f"{entity.sym}'s best routes earn {best}, not {revenue}",
                        "1835 rules §8.5",
                    )
            return revenue
        return game.route_revenue(entity, moves.route_views(routes))

    def process_run_routes(self, action: moves.RunRoutes, entity: Corporation) -> None:
        super().process_run_routes(action, entity)
        self.game.note("revenue", corp=entity.sym, amount=self.round.state.revenue)


class Dividend1835(Dividend):
    """Majors pay out or withhold; minors always split (rules/1835.md 8.6, 7)."""

    game: Game1835
    round: OperatingRound1835
    rule = "1835 rules §8.6"

    def actions(self, entity: Entity) -> list[str]:
        """Minors are not asked: they always split (rules/1835.md 7)."""
        return [] if isinstance(entity, Minor) else super().actions(entity)

    def kinds(self, entity: Corporation) -> tuple[str, ...]:
        """A company with a bank loan must withhold (rules/1835.md 8.6, 8.8)."""
        return ("withhold",) if loan_of(entity) else ("payout", "withhold")

    def automatic_kind(self, entity: Corporation) -> str:
        """A minor splits whatever it earned (rules/1835.md 7)."""
        return "payout" if isinstance(entity, Minor) else "withhold"
