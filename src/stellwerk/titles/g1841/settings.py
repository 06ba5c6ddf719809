"""1841's rule settings: the knobs the game is built with (rules/1841.md sections 4 and 6).

The defaults are 18xx.games' 1841 without optional rules: the second edition (Version 2),
the full map, no player-to-player trading.  The title's options (``options.py``) change
fields through the one core function :func:`stellwerk.core.options.apply_options`; rule code
reads these fields, never an option.

Every knob is a datum, none a hook.  Where a rule is a procedure that one option replaces (the
bankruptcy procedure, the tie-break of the player order after the auction, default orders for
missing orders) the knob is a ``Literal`` naming the procedure, and the rule module that is
still to be written dispatches on it.  A hook would need the procedure now: a placeholder
raising ``NotImplementedError`` as the default would make the printed rules fail, and this
module would have to import rule modules that do not exist yet.  Once a procedure exists, its
knob may become a hook (a module-level function, so that checkpoints pickle it by reference).

Two knobs default to ``None``, "as the edition": the concession auction and whether SFLi runs
in the operating round it is formed.  The first edition changes both, and an option may set
either one against the edition (seed 000 item 4.1; 18xx.games' SFLi run variant, seed 000
item 4.2).  If the edition option set them itself, core ``apply_options`` would refuse the
combination (two options giving one field different values), which 18xx.games allows.  The
properties :attr:`Settings1841.auction` and :attr:`Settings1841.sfli_runs_when_formed`
resolve them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Edition = Literal[1, 2]
"""The rulebook edition: 1 = Federico Vallani's original rules, 2 = the second edition."""

Auction = Literal["open", "sealed"]
"""The concession auction: nominated open auctions (edition 2, 2.1.1) or the sealed
concession round (edition 1, 2.1.2)."""

SealedBidTies = Literal["tie_auction", "farthest_from_priority"]
"""Equal highest sealed bids: an auction among the tied bidders (18xx.games) or the tied
player seated farthest from the priority card takes it unless one before him bids."""

OrderTies = Literal["holdings_then_seat", "lot"]
"""Ties in the player order after the auction: 18xx.games' deterministic order or by lot."""

HolderOrder = Literal["definition", "share_value"]
"""The order of a player's corporations when holders exchange shares."""

SaleDropOrder = Literal["each_sale", "reverse_operating_order"]
"""When the prices of sold shares drop: at each sale, or after the sales in reverse
operating order."""

Rounding = Literal["up", "down"]
"""How the half-price total of an emergency sale is rounded."""

GameEnd = Literal["immediate", "current_turn", "current_or"]
"""Play left after the top price or the last offboard group ends the game: none (the game
ends after the action that reached it), the current operating turn, the current operating
round."""

Bankruptcy = Literal["sell_out", "dissolve"]
"""The bankruptcy procedure."""

MissingOrders = Literal["wait", "cash_no_tokens"]
"""What happens to a merger or transformation decision a player does not send."""


@dataclass(frozen=True, slots=True)
class Settings1841:
    """What 1841's editions, 18xx.games' optional rules, seed 000's rule changes and variants
    and seed 003's house rules change (rules/1841.md sections 4 and 6)."""

    edition: Edition = 2
    """The rulebook edition (rules/1841.md §4.1): 1 selects the first-edition data (map:
    Cuneo, Firenze, O3/N4/O5, tile 608; SFTC and SFL minors, SFV for SB, SFMA's fixed home)
    and rules (secession into minors, at most 2 tokens each, prices into column 10)."""

    short_game: bool = False
    """The 1841lite map and rules (§4.2): no Tuscany (no SFLP, SFMA, SSFL, SFLi, no Tuscan
    Merge), Roma on P12, a smaller train roster, bank L.10,900, smaller starting cash, 3-6
    players; the numbers are the data's lite overrides."""

    firenze_reserved_for_sfma: bool = True
    """Nobody but SFMA may token Firenze R14 until SFMA floats or phase 4 (§2.3.4, §4.1:
    second edition, not the lite game)."""

    secession_token_purchase: bool = True
    """SB and SFL may each buy extra tokens at L.50 after the Ferdinandea Secession (§2.4.1,
    §4.1: second edition only)."""

    concession_auction: Auction | None = None
    """The concession auction, ``None`` the edition's (§2.1, §4.1; seed 000 item 4.1 and seed
    003 H1: the open auction also for the first edition); read :attr:`auction`."""

    sealed_bid_ties: SealedBidTies = "tie_auction"
    """Equal highest sealed bids (§2.1.2): an auction among the tied bidders (18xx.games) or
    the one farthest from the priority card must take it (seed 000 item 1.1; §6.1)."""

    auction_order_ties: OrderTies = "holdings_then_seat"
    """Ties in the player order after the auction: lowest concession, then old seat (open
    auction) or bid lists, then later seat (sealed bids), as 18xx.games (§2.1); or by lot
    (seed 003 H1; §6.7)."""

    player_to_player_purchases: bool = False
    """Players may buy shares and concessions from other players in stock rounds (§2.2.1,
    §4.3; seed 000 items 2.3, 2.4; seed 003 H6, H7 forbid it, as the default)."""

    sfli_formation_or_run: bool | None = None
    """Whether SFLi runs in the operating round it is formed if none of its predecessors has
    operated yet, ``None`` the edition's (2: yes, 1: no; §2.4.2, §4.4; seed 000 items 1.17,
    4.2; seed 003 H3); read :attr:`sfli_runs_when_formed`."""

    holder_corporation_order: HolderOrder = "definition"
    """In exchanges (mergers, transformation, secession) each player's corporations, and the
    frozen corporations after the pool, decide in definition order (18xx.games, §5.4) or in
    descending share value (seed 000 items 1.16, 2.25)."""

    sale_drop_order: SaleDropOrder = "each_sale"
    """Price drops of sold shares: at each sale in action order (18xx.games) or after the
    sales in reverse operating order, top markers of a stack last (seed 000 item 2.2)."""

    emr_half_price_rounding: Rounding = "up"
    """Rounding of the half-price total of an emergency sale (§2.3.7): up (18xx.games) or
    down (seed 000 item 2.21)."""

    merger_keeps_prices_above_250: bool = True
    """A merger of two majors keeps a price above L.250 (both above L.250 and different: the
    acting corporation chooses one) instead of the conversion table's cell (18xx.games,
    §2.3.11).  Off: seed 000's conversion table for every merger of majors ("243 und + auf
    242 (Feld N3)"): the summed prices from L.243 up, however high, give L.242 (§6.6)."""

    circular_control_forbidden: bool = True
    """No purchase, sale or merger may make corporations control each other, directly or
    indirectly; buying the first 4-train may (seed 000 item 3.1, "Spieler und Gesellschaften
    dürfen Aktien nicht verkaufen oder kaufen oder einen Gesellschaftszusammenschluß
    durchführen, wenn es dadurch dazu kommt, daß sich Gesellschaften direkt oder indirekt
    gegenseitig kontrollieren"; 18xx.games, §2.2.1, §2.3.11).  Off: the first printed rules,
    which the FAQ changed -- such trades and mergers are allowed, and the corporations in the
    loop are frozen and circular (§2.3.9, §2.3.10; seed 000 item 2.23).  A corporation still
    may not buy shares of one of its controllers (§2.3.8; seed 003 H13), a rule of its own."""

    reachable_city_upgrade_without_new_track: bool = False
    """A reachable city may be upgraded although no new or reachable track results (seed 000
    item 3.2); otherwise 18xx.games' check that the tile connects to a railhead (§2.3.3)."""

    secession_pays_unmatched_holders: bool = False
    """In the Ferdinandea Secession the second director certificate goes to the pool when no
    second pair exists, holders who can't exchange are paid the current value and the
    unstarted corporation is frozen (seed 000 item 3.3); otherwise 18xx.games always
    exchanges (§2.4.1)."""

    emr_sales_block_corporate_rebuy: bool = False
    """A corporation may not buy shares of a corporation it sold in the same operating round,
    emergency sales included (seed 000 item 3.5); otherwise only its share step's sales
    count (§2.3.8)."""

    corporate_buys_within_borders: bool = False
    """A corporation may not buy shares of a corporation with tokens beyond an existing
    border (seed 000 item 4.3; §6.4)."""

    emr_sales_need_operated: bool = False
    """Emergency sales may not include shares of a corporation in its first operating round
    (seed 000 mistake 5.6); 18xx.games' emergency sales do not check it (§2.3.7, seed 000
    item 1.13)."""

    corporate_sales_of_others_drop_price: bool = True
    """A corporation's sale of another corporation's shares moves that price down (§2.3.7,
    §2.3.8, §2.3.10); seed 003 H2: only sales of its own shares do -- in its share step, for
    emergency money and in a circular corporation's frozen turn alike (the house rule names
    no exception)."""

    game_end_timing: GameEnd = "current_turn"
    """When the top price L.516 or the last offboard group ends the game: after the current
    operating turn (18xx.games, §1.4), at once (seed 000 item 2.27: "Auch wenn die Bank
    bereits kein Geld mehr hat, endet das Spiel sofort, wenn ein Aktienkursmarker L. 516
    erreicht oder alle Fernverbindungen angeschlossen sind") or after the current operating
    round (seed 003 H4)."""

    emr_president_cert_to_pool: bool = True
    """Emergency sales may put a director certificate into the pool where §2.3.7 allows it;
    seed 003 H8: never."""

    bankruptcy_procedure: Bankruptcy = "sell_out"
    """Bankruptcy (§2.6): the president sells out at half price, then resigns or takes a L.500
    loan (18xx.games); or ``dissolve`` (seed 003 H9): every corporation he controls leaves
    the game with all it has, concessions leave, he goes on with L.500 lent by the bank, and
    an unpaid phase-changing train changes no phase."""

    grandchildren_may_par: bool = True
    """Corporations two levels below a player may start corporations (§2.3.8); seed 003 H10
    (a proposal): they may not, but may still take over directorships by buying shares."""

    missing_orders: MissingOrders = "wait"
    """A merger or transformation decision a player does not send: the game waits
    (18xx.games); or seed 003 H15: players and corporations take cash, not the share, no
    tokens are bought, as many tokens as possible stay, the ones kept are drawn by lot."""

    round_waits_for_decisions: bool = False
    """Whether an operating round waits for the questions of a merger or transformation that
    are still open when nobody is left to operate (the share offers, the exchange choices, the
    token purchase: rules/1841.md 2.3.11, 2.3.12 put them in the corporation's turn).
    18xx.games (the default) ends the round there and its next round starts with no question
    open: the questions are dropped and the procedure is never completed (docs/architecture.md,
    defect H)."""

    circular_frozen_sales: bool = False
    """Whether a frozen corporation whose chain of control loops is marked circular and, at
    its turn, sells the shares of the corporations of its chain (rules/1841.md 2.3.10, seed
    000 item 2.23).  18xx.games (the default) never marks one circular: the controller it
    finds for a looping chain is the share pool, never none, so its circular turn's sales
    never happen (its defect L); such a corporation only moves its price."""
    closed_corporation_shares_count: bool = True
    """Whether the shares of a closed corporation that players still hold count in their
    value: 18xx.games (the default) counts each share unit at the lowest par price, L.68 (its
    defect K); the printed rules (rules/1841.md 1.4, final score: each certificate at its
    current market price; a closed corporation has none) count them at nothing."""
    transformation_updates_frozen: bool = False
    """Whether the frozen states (§2.3.9, §2.3.10) are brought up to date after a
    transformation's share moves, the concessions' closing (2.4 item 1), a concession bought
    with its corporation's president's certificate from the pool (2.2.1) and a merger's
    restart of a corporation that still presided another (defect O), as after every other
    change of a chain of control.  18xx.games (the default) brings them up to date only after
    share purchases and sales, emergency sales, bankruptcy, a merger's exchanges, the
    secession and frozen turns, so after those four they stay as they were until the next of
    those (docs/architecture.md, defect I)."""

    @property
    def auction(self) -> Auction:
        """The concession auction in play: the chosen one, else the edition's."""
        if self.concession_auction is not None:
            return self.concession_auction
        return "sealed" if self.edition == 1 else "open"

    @property
    def sfli_runs_when_formed(self) -> bool:
        """Whether SFLi may run in its formation round: as chosen, else the edition's."""
        if self.sfli_formation_or_run is not None:
            return self.sfli_formation_or_run
        return self.edition == 2
