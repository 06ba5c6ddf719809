"""Moves a selfplay player of 1841 steers clear of: the choices that lead into a position
18xx.games' own engine cannot go on from or plays on against the rules (its defects A-P,
docs/architecture.md; C and E are not looked at: no single move of a player was found to
lead there; I matters only with the printed rules' frozen update, the default follows it;
Q is only named for the campaign's verdicts, :func:`known_defect`).

Differential tooling, not part of the product: the selfplay games checked against
18xx.games' engine (``tools/selfplay_oracle.py``, ``scripts/campaign1841.py``,
``scripts/oracle_diff.sh``) pass :func:`veto` to ``stellwerk.selfplay.play``.

This is a player's heuristic for the random driver (:mod:`stellwerk.selfplay`), not a rule:
our engine still offers and plays these moves by the rules (rules/1841.md), and the legal
actions are unchanged.  A game that makes such a move is simply not accepted by 18xx.games'
engine, so a driver whose games are checked there leaves the move out when it has another.

Each check looks at the position before the move only; it names the defect's letter when
the move would lead there and ``None`` otherwise.

* **A** (the Ferdinandea secession while IRSFF is frozen): the secession (rules/1841.md
  2.4.1) comes with the first 4-train; with IRSFF controlled by no player 18xx.games takes
  the decider from the round's acting entity, which can be missing then (its
  ``secession_start``; seen in selfplay after a corporation's emergency purchase of the
  train, which is no choice).  A corporation does not choose to buy that train while IRSFF
  has floated and no player controls it (whether the secession happens at all, Milano and
  Venezia not connected, is not looked at).  The same train closes the concessions first,
  and the presidency check then (rules/1841.md 2.4 item 1) may hand IRSFF to a corporation
  that holds more of it than its president -- one no player controls (selfplay 6 players
  seed 607): so IRSFF's controller is looked at as that check leaves it, tried on a light
  copy (:func:`after_concessions_close`).
* **B** (a transformed major that cannot pay its required L.50 token): a minor's
  transformation (rules/1841.md 2.3.12) whose minor has one token makes the target buy a
  second for L.50.  18xx.games asks the token question first (its blocking Buy New Tokens
  step), sweeping the cash of the chain of control up to the controlling player; when even
  that sum is below L.50 its purchase raises and the step refuses the token emergency sales
  that the rules call for (its ``transform_tokens`` and ``BuyNewTokens#process_choose``).
  The sum at the token question is the minor's cash plus its chain's now: the share offers
  in between move cash from a buyer in the chain to the target (no change) or from a buyer
  outside it (more), so a transformation is avoided when that sum is below L.50 now.  (A
  buyer in the offers who takes the presidency would change the chain; the check does not
  foresee that.)
* **D** (the Tuscan merge transforming a corporation no player controls): when only two of
  the Tuscan corporations have floated, SSFL and one other, the merge (rules/1841.md 2.4.2)
  begins by transforming that other one; 18xx.games' ``transform_shares`` then rotates the
  players by the index of the corporation's controlling player, which raises when there is
  none (presided by the pool, or frozen: seen in selfplay, SFMA).  The event comes with the
  first 4-train (second edition), so a corporation does not choose to buy that train while
  the merge would transform such a corporation.  (A secession first, with its decisions,
  could change the presidency meanwhile; the check does not foresee that.)  Nor does it make
  an emergency sale after which that train is the only one it may buy (once a sale is made
  the train comes from the depot, rules/1841.md 2.3.7; :func:`sale_forces_defect_train`,
  which does the same for A and G): selfplay 5 players sfli_run_variant seed 76703, action
  1199, a president's sale while other corporations' trains were offered; 18xx.games raised
  at action 1210, the secession's last answer, which starts the deferred merge.
* **F** (the secession's extra tokens bought for a corporation no player controls): after
  the Ferdinandea secession SB, then SFL, may buy tokens (second edition, rules/1841.md
  2.4.1); for one no player controls the secession's decider answers.  18xx.games then
  checks the decider's cash instead of the corporation's and, short, raises with a missing
  method (``format_currency`` in its Buy New Tokens step), or else gives the tokens to the
  player, who has none (its ``purchase_additional_tokens!``): any count but 0 stops it
  (selfplay of the lite game with player-to-player purchases, 5 players seed 604,
  action 1052).  The decider answers 0.
* **G** (the Tuscan merge's decider when no player controls the best-priced Tuscan
  corporation): the merge's decider is then taken from the round's acting entity, as in A,
  and 18xx.games finds it missing (its ``tuscan_merge_start``; selfplay 6 players seed 608,
  action 1772, the first 4-train bought after the buyer's emergency sales).  A corporation
  does not choose to buy the first 4-train while the merge would happen (two Tuscan
  corporations floated) with such a decider.  Bought in an emergency the train is no
  choice, and those games still stop there, unless the sale that left it the only train
  was one (:func:`sale_forces_defect_train`, as for D).
* **H** (a merger or transformation by the round's last operator): 18xx.games ends its
  operating round as soon as nobody is left to operate and forgets the questions still
  open (share offers, exchange choices, the token purchase) (selfplay lite with
  player-to-player purchases, 5 players seed 604, action 1709).  Our default does the same
  (``Game1841.drop_open_questions``) and both engines agree after it, but the position is a
  dead end there too: the transformed minor, never restarted, operates in the next round
  with no cash, trains or tokens, sells its own treasury in emergency, is left to the pool
  and can neither buy a train nor go bankrupt (18xx.games' ``bankrupt`` fails without a
  president; we offer nothing; the game above continued from action 1713, twice).  With
  the printed rules (``Settings1841.round_waits_for_decisions``) the games part at once.
  So in either case a corporation with nobody after it in the round left to operate (its
  merger partner aside) does not begin a merger or transformation; the second half of a
  merger (the target) is no choice.  The check is wider than the position (the round ends
  only when every corporation of the order, the transformation's target included, is done
  for the round or closed); narrowing it would change the driver's seeded games.
* **I** (frozen states not brought up to date after a transformation): 18xx.games refreshes
  its frozen flags after share trades, sales for trains, mergers and the like, not after a
  transformation, whose share moves can settle another corporation's presidency (selfplay
  with player-to-player purchases, 6 players seed 610: the minor's 10 % of IRSFF passing to
  its major gave IRSFF a controlling player) -- a corporation still marked frozen there has a
  frozen turn, or one no longer controlled operates normally, where the rules (2.3.9, 2.3.10)
  take the chain of control as it is.  A minor does not begin a transformation after which
  (tried on a copy of the game, :func:`transform_changes_frozen`) any corporation's frozen
  state differs from the one before it (a later refresh in the round, a share trade say,
  would mend it; the check does not foresee that).  This matters only with the printed
  rules' update (``Settings1841.transformation_updates_frozen``): the default holds the
  states as 18xx.games does (``Game1841.frozen_held``), so there is nothing to steer around.
* **M** (part of a president's certificate sold into a pool that cannot give the rest back):
  in an emergency a president may sell part of his certificate (rules/1841.md 2.3.7); when
  nobody reaches the president's percentage the whole certificate goes to the pool, which
  must hand the unsold part back in ordinary certificates.  18xx.games hands back the pool's
  first certificates of the corporation, the president's own when the pool held too few
  (its ``handle_partial``), while its percentage book counts the part as sold: the seller
  keeps the whole certificate and the pool none, yet its price drops at the stock round's
  end count the pool's phantom share (its random game, version_1 with the SFLi run variant,
  5 players, seed 31010: action 341 sells 20 % of SFV's 40 % certificate, action 443 drops
  SFV two rows more than we do).  The seller does not make such a sale when it has another
  (J-L are not moves of a player).
* **N** (a merger whose pool pairs outnumber the new corporation's ordinary certificates): in
  a merger's first exchange pass the pool, after the players and their corporations,
  exchanges its pairs of the two old corporations for new shares; once those run out a holder
  gets the value from the bank (rules/1841.md 2.3.11, seed 000 item 3.6), which the pool
  cannot take.  18xx.games pays it all the same and fails (``spend`` to the share pool, its
  ``merger_do_exchange``; selfplay lite+version_1, 6 players seed 52007, action 1105: the
  pool held 80 % of CFCC and of RSFS); we let the pool's pairs go without pay.  Naming the
  partner, naming the new corporation and answering the price or a first-pass exchange are
  checked, on copies, by several ways of answering the rest; a way the merger is refused in
  (no president) does not count.
* **O** (a transformation behind a stalled token purchase): after a replayed start of a
  closed historical corporation (18xx.games lets one be started again, we follow it in a
  replay only) 18xx.games queues the start's token purchase and never asks it; every later
  token purchase of the round waits behind it (:func:`.stock.stall_token_purchases`).  A
  transformation begun then never completes: the minor is never restarted and stays started,
  its certificates back in its treasury, its president the one it had.  18xx.games plays on
  with it as a started corporation -- it operates in later rounds, and another corporation
  may buy its president's certificate out of its treasury (its random game of the lite map
  with the SFLi variant, 6 players, seed 75506: RSFS starts the closed SFL at action 561,
  CTLP transforms into AFI at 585, RATF buys CTLP's president's certificate at 699), which no
  rule has.  We follow the minor's turns (its frozen state is held as 18xx.games holds it,
  :func:`.merger.hold_frozen_after_restart`) but not that purchase.  The driver begins no
  transformation while a purchase is stalled.
* **P** (part of a president's certificate sold by a holder who is not the president): a
  player-to-player purchase of a president's certificate alone (``p2p_purchases``) leaves it
  with a player while the seller, still holding more, stays president -- both engines do so.
  When that holder then sells part of the certificate and the president is still among the
  largest holders, the presidency stays, so the unsold part is never given back: the whole
  certificate goes to the pool, paid for the part (both engines move the certificates so),
  but 18xx.games' percentage book counts only the part as sold, the seller keeping the rest.
  Its later presidency checks read the book: a purchase that brings the seller level with the
  president by certificates makes him president there and swaps two of his 10 % shares for
  the certificate, where the rules keep a tied president (rules/1841.md 2.2.1, 2.4 item 1),
  and a sale of those shares is refused (our selfplay lite+p2p_purchases, 6 players seed
  76753: Player 2 bought CGTF's certificate at action 765 and sold half of it at 814; the
  tie at 1102, the refusal at 1107, "Cannot sell shares of CGTF").  The holder does not make
  such a sale when it has another move.
* **Q** (a trade that makes corporations control each other, offered by 18xx.games): seed
  000 item 3.1 (rules/1841.md 2.2.1, on by default here) forbids a purchase or sale after
  which corporations control each other; 18xx.games has the check, but it compares the
  corporations it marks circular before and after, and it marks none (defect L), so it
  refuses no such trade.  A player whose only trade is one of those is skipped here (nothing
  legal left) and kept to act there (our selfplay lite+version_1, 3 players, seed 76807:
  after Player 2's purchase at action 478 Player 1's only trade was half of CTDA's
  president's certificate, making ATFA, presided by RSFS, presided by CTDA, president of
  CTDA).  The player so skipped may be the mover himself: a sale leaves him to act while he
  has a legal move left, and when his only one closes a loop his turn ends here and goes on
  there (our selfplay lite, 4 players, seed 76817: Player 3 sold the ILTF share he had bought
  at action 922; his one trade left was half of CFCC's president's certificate, making RATF,
  presided by CFCC, president of CFCC).  The veto no longer steers clear of it: live play
  writes such a skip into the file as the skipped player's automatic ``pass`` among the
  ``auto_actions`` of the action after which it happened (``stellwerk.api.Game._recorded_passes``),
  which 18xx.games takes as the move it waits for (both seeds, played with the check off,
  replay on its engine to their end, every state alike).  :func:`circular_trade_moves_turn`
  (tried on copies) is kept only for ``scripts/campaign1841.py`` (:func:`known_defect`),
  which names ``theirs`` a refusal right after such a move in a file that holds no such pass
  (one written before that change, or as 18xx.games' server writes it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

from stellwerk.checkpoints import copy_engine
from stellwerk.core.entities import Corporation, Holder, Player, controller
from stellwerk.core.errors import IllegalAction
from stellwerk.core.flow.base import Action
from stellwerk.core.moves import Choose
from stellwerk.io.engine import EngineGame
from stellwerk.titles.g1841 import decisions, emergency, events, frozen, secession, tuscan
from stellwerk.titles.g1841.merger import ANSWER_ORDERS, Merger, old_shares
from stellwerk.titles.g1841.merging_steps import MergeStep, TransformStep
from stellwerk.titles.g1841.secession import Secession
from stellwerk.titles.g1841.transform import REQUIRED_TOKEN_PRICE
from stellwerk.titles.g1841.trial import light_copy

if TYPE_CHECKING:
    from stellwerk.titles.g1841.game import Game1841


WATCHED_TYPES = frozenset(
    {"merge", "buy_train", "choose", "sell_shares", "buy_shares", "par", "buy_company", "pass"}
)
"""The action types :func:`leads_to_defect` may name a defect for (the driver asks no other)."""


def veto(game: EngineGame, action: Action) -> str | None:
    """The selfplay driver's veto (``stellwerk.selfplay.Veto``): the letter of the defect a
    pick leads into in an 1841 game, else ``None``.  The title game is looked at only for the
    watched action types, as one that keeps its remembered answers (``engine_to_look_at``:
    the checks change nothing in it, they try moves on copies; taking ``engine`` made the
    driver's listings after a veto, the lays hex by hex, compute everything anew), else as
    ``engine``."""
    if getattr(game, "title", None) != "1841" or action.get("type") not in WATCHED_TYPES:
        return None
    engine: object = getattr(game, "engine_to_look_at", None) or getattr(game, "engine", None)
    return check(engine, action) if engine is not None else None


def check(engine: object, action: Action) -> str | None:
    """:func:`leads_to_defect` for the driver, which holds the title game as any engine."""
    from stellwerk.titles.g1841.game import Game1841

    return leads_to_defect(engine, action) if isinstance(engine, Game1841) else None


def leads_to_defect(game: Game1841, action: Action) -> str | None:
    """The letter of the 18xx.games defect ``action`` would lead into, or ``None`` (the checks
    of :data:`CHECKS`, in their order, then for a sale :func:`sale_forces_defect_train`)."""
    kind = action.get("type")
    for action_type, check, letter in CHECKS:
        if kind == action_type and check(game, action):
            return letter
    if kind == "sell_shares":
        return sale_forces_defect_train(game, action)
    return None


def last_operator_merges(game: Game1841, action: Action) -> bool:
    """``action`` begins a merger or a transformation of the operating round's last operator:
    nobody after it in the order is left to operate but, for a merger, the partner it names
    (defect H, module docstring)."""
    from stellwerk.titles.g1841.operating import OperatingRound1841

    rnd = game.round
    if not isinstance(rnd, OperatingRound1841):
        return False
    try:
        entity = game.entity(action)
    except IllegalAction:
        return False
    step = rnd.step_for_entity(entity)
    if isinstance(step, MergeStep) and getattr(step, "partner", None) is not None:
        return False
    if not isinstance(step, MergeStep | TransformStep):
        return False
    named = str(action.get("corporation", ""))
    later = rnd.entities[rnd.entity_index + 1 :]
    return not [c for c in later if c.sym != named and not rnd.skip_entity(c)]


def transform_behind_stalled_purchase(game: Game1841, action: Action) -> bool:
    """``action`` begins a transformation while a token purchase of the round is stalled
    (:func:`.stock.stall_token_purchases`): its own token purchase would queue behind it and
    never be asked, so the transformation never completes (defect O, module docstring)."""
    if game.stalled_token_purchase is None:
        return False
    try:
        entity = game.entity(action)
    except IllegalAction:
        return False
    if not isinstance(entity, Corporation):
        return False
    return isinstance(game.round.step_for_entity(entity), TransformStep)


def transform_short_of_token(game: Game1841, action: Action) -> bool:
    """``action`` transforms a one-token minor whose cash and its chain's (up to the
    controlling player) are below the required token's L.50 (defect B, module docstring)."""
    try:
        entity = game.entity(action)
    except IllegalAction:
        return False
    if not isinstance(entity, Corporation):
        return False
    step = game.round.step_for_entity(entity)
    if not isinstance(step, TransformStep):
        return False
    if entity.num_tokens != 1:
        return False
    return emergency.available(entity) < REQUIRED_TOKEN_PRICE


TUSCAN_MERGE_EVENT = "tuscan_merge"
"""The train event that starts the Tuscan merge (data ``game.toml``, rules/1841.md 2.4.2)."""
SECESSION_EVENT = "ferd_secession"
"""The train event that starts the Ferdinandea secession (data ``game.toml``, 2.4.1)."""


def bought_train_events(game: Game1841, action: Action) -> list[str]:
    """The events of the depot train ``action`` buys (none for another's train)."""
    train_id = str(action.get("train", ""))
    train = next((t for t in game.depot.trains if t.id == train_id), None)
    return list(train.events) if train is not None else []


CLOSE_CONCESSIONS_EVENT = "close_companies"
"""The train event that closes the concessions, before the secession (data ``game.toml``,
rules/1841.md 2.4 item 1)."""


def after_concessions_close(game: Game1841) -> Game1841:
    """A light copy of ``game`` (:func:`.trial.light_copy`: holders, certificates and
    presidents are its own) with the presidency of every started corporation whose concession
    is still open re-evaluated, in the concessions' order, as their closing does
    (rules/1841.md 2.4 item 1, :func:`.events.reevaluate_president`); nothing else of the
    closing (the unstarted corporations' reservations) is touched."""
    trial, _ = light_copy(game)
    for company in trial.companies:
        if company.closed:
            continue
        spec = next(c for c in trial.data.companies if c.sym == company.sym)
        if spec.corporation is None:
            continue
        corp = trial.corporation(spec.corporation)
        if corp.ipoed:
            events.reevaluate_president(trial, corp)
    return trial


def secession_irsff_uncontrolled(game: Game1841, action: Action) -> bool:
    """``action`` buys the train whose event starts the secession while IRSFF has floated
    and no player controls it, as the concessions' closing by the same train leaves its
    presidency (defect A, module docstring)."""
    train_events = bought_train_events(game, action)
    if SECESSION_EVENT not in train_events:
        return False
    irsff = tuscan.corporation_or_none(game, secession.OLD)
    if irsff is None or not irsff.floated or irsff.closed:
        return False
    if controller(irsff) is None:
        return True
    if CLOSE_CONCESSIONS_EVENT not in train_events:
        return False
    return controller(after_concessions_close(game).corporation(secession.OLD)) is None


def tuscan_transform_uncontrolled(game: Game1841, action: Action) -> bool:
    """``action`` buys the train whose event starts the Tuscan merge while that merge would
    begin by transforming a corporation no player controls (defect D, module docstring)."""
    if TUSCAN_MERGE_EVENT not in bought_train_events(game, action):
        return False
    olds = [tuscan.corporation_or_none(game, sym) for sym in tuscan.TUSCAN]
    floated = [c for c in olds if c is not None and c.floated]
    if len(floated) != 2 or not any(c.sym == "SSFL" for c in floated):
        return False
    transformed = next(c for c in floated if c.sym != "SSFL")
    return controller(transformed) is None


def decider_buys_secession_tokens(game: Game1841, action: Action) -> bool:
    """``action`` answers the secession's token question for a corporation no player
    controls (the decider, a player, answers) with a count other than 0 (defect F, module
    docstring)."""
    asked = decisions.current(game)
    if asked is None:
        return False
    procedure, question = asked
    if not isinstance(procedure, Secession) or question.topic != "buy_tokens":
        return False
    return isinstance(question.entity, Player) and str(action.get("choice")) != "0"


def tuscan_decider_uncontrolled(game: Game1841, action: Action) -> bool:
    """``action`` buys the train whose event starts the Tuscan merge while the merge would
    happen and no player controls its best-priced floated corporation (defect G, module
    docstring; :func:`.tuscan.decider_of`)."""
    if TUSCAN_MERGE_EVENT not in bought_train_events(game, action):
        return False
    olds = [tuscan.corporation_or_none(game, sym) for sym in tuscan.TUSCAN]
    floated = [c for c in olds if c is not None and c.floated]
    if len(floated) < 2:
        return False
    best = min(floated, key=lambda c: c.sort_key())
    return controller(best) is None


FORCED_TRAIN_CHECKS: tuple[tuple[Callable[[Game1841, Action], bool], str], ...] = (
    (secession_irsff_uncontrolled, "A"),
    (tuscan_transform_uncontrolled, "D"),
    (tuscan_decider_uncontrolled, "G"),
)
"""The purchases of the first 4-train that lead into a defect (A, D, G), with their letters:
the ones an emergency sale can leave as a corporation's only move."""


FORCED_SALES_FOLLOWED = 8
"""How many further sales :func:`sale_forces_defect_train` follows after the one it is asked
about, one copy of the game each."""


def sale_forces_defect_train(game: Game1841, action: Action, depth: int = 0) -> str | None:
    """The letter of the defect (A, D or G) that ``action``, a sale in an operating round
    while the depot's next train is the first 4-train, leaves no way around, else ``None``.
    Once an emergency sale is made the train must be the cheapest depot train (rules/1841.md
    2.3.7), so a corporation left short buys the 4-train: tried on a copy of the game, the
    moves offered after the sale are sales and purchases of the depot's next train only, and
    :data:`FORCED_TRAIN_CHECKS` flag that purchase; when only sales are offered, the largest
    of them is followed, up to :data:`FORCED_SALES_FOLLOWED` sales deep (a way to bankruptcy
    forces nothing).  One way, not every order of the sales: trying each of them in turn
    multiplies the copies by the sales offered at every depth, and a 6-player game's
    president with many holdings never got to his next move (our selfplay 6 players
    p2p_purchases+version_1 seed 76809).  Module docstring, D: our selfplay 5 players
    sfli_run_variant seed 76703, action 1199 (a president's sale)."""
    from stellwerk.core.legal import legal_actions
    from stellwerk.titles.g1841.operating import OperatingRound1841

    if not isinstance(game.round, OperatingRound1841):
        return None
    upcoming = game.depot.upcoming[:1]
    train_events = set(upcoming[0].events) if upcoming else set()
    if not train_events & {SECESSION_EVENT, TUSCAN_MERGE_EVENT}:
        return None
    trial = copy_engine(game)
    try:
        trial.resume()
        trial.process_action(dict(action))
    except IllegalAction:
        return None
    upcoming = trial.depot.upcoming[:1]
    offered = legal_actions(trial)
    if not upcoming or not offered:
        return None
    if any(a.get("type") not in ("buy_train", "sell_shares") for a in offered):
        return None
    buys = [a for a in offered if a.get("type") == "buy_train"]
    if not buys:  # only further sales: the largest leads on (not if it ends bankrupt)
        if depth >= FORCED_SALES_FOLLOWED:
            return None
        largest = max(offered, key=lambda a: int(str(a.get("percent", 0))))
        return sale_forces_defect_train(trial, largest, depth + 1)
    if any(str(a.get("train")) != upcoming[0].id for a in buys):
        return None  # another train may still be bought: the sale forces nothing
    forced: Action = {"type": "buy_train", "train": upcoming[0].id}
    for check, letter in FORCED_TRAIN_CHECKS:
        if check(trial, forced):
            return letter
    return None


def transform_changes_frozen(game: Game1841, action: Action) -> bool:
    """``action`` begins a transformation after whose share moves some corporation's frozen
    state (rules/1841.md 2.3.9, 2.3.10: no player at the end of its chain) differs from the
    one before it -- the transformation tried on a copy of the game (defect I, module
    docstring).  Its own shares become the major's and a presidency it holds goes with its
    assets, under the same controlling player; only the certificates of third corporations
    it holds, passing to the major, can settle another presidency anew, so a minor without
    any is not tried."""
    try:
        entity = game.entity(action)
    except IllegalAction:
        return False
    if not game.settings.transformation_updates_frozen:
        return False  # the default holds the states as 18xx.games does (Game1841.frozen_held)
    if not isinstance(entity, Corporation):
        return False
    if not isinstance(game.round.step_for_entity(entity), TransformStep):
        return False
    if not any(held for sym, held in entity.shares.items() if sym != entity.sym):
        return False  # only the certificates of others it holds can move a presidency
    trial = copy_engine(game)
    try:
        trial.resume()
        trial.process_action(dict(action))
    except IllegalAction:
        return False
    return any(
        frozen.is_frozen(game, corp) != frozen.is_frozen(trial, trial.corporation(corp.sym))
        for corp in game.corporations
    )


def _partial_president_sale(
    game: Game1841, action: Action
) -> tuple[Corporation, Holder, int, dict[Holder, int]] | None:
    """For ``action`` selling part of a president's certificate (rules/1841.md 2.3.7): the
    corporation, the seller, the whole percentage of the certificates listed, and every holder
    that may preside with his percentage after the sale; ``None`` for any other action."""
    if action.get("type") != "sell_shares":
        return None
    ids = {str(x) for x in action.get("shares", []) if isinstance(x, str)}
    if not ids:
        return None
    corp = tuscan.corporation_or_none(game, next(iter(ids)).rsplit("_", 1)[0])
    if corp is None:
        return None
    listed = [s for s in corp.certificates if s.id in ids]
    pres = corp.presidents_share
    seller = listed[0].owner if listed else None
    percent = action.get("percent")
    whole = sum(s.percent for s in listed)
    if pres is None or pres not in listed or seller is None:
        return None
    if not isinstance(percent, int) or percent >= whole:
        return None
    after = {h: p for h, p in corp.share_holders.items() if game.may_preside(corp, h)}
    if seller in after:
        after[seller] -= percent
    return corp, seller, whole - percent, after


def partial_president_sale_unreturned(game: Game1841, action: Action) -> bool:
    """``action`` sells part of a president's certificate into the pool, nobody can take the
    presidency, and the pool holds fewer certificates of the corporation than the unsold part
    comes to (defect M, module docstring): the seller would keep the whole certificate while
    18xx.games counts the part as sold."""
    sale = _partial_president_sale(game, action)
    if sale is None:
        return False
    corp, _, unsold, after = sale
    if max(after.values(), default=0) >= corp.president_percent:
        return False
    return len(game.pool.shares_of(corp.sym)) < unsold // corp.share_unit


def partial_president_sale_by_holder(game: Game1841, action: Action) -> bool:
    """``action`` sells part of a president's certificate held by someone who is not the
    corporation's president, and the president is still among the largest holders after it
    (defect P, module docstring): the presidency stays, so 18xx.games never gives the unsold
    part back -- the seller loses the whole certificate to the pool -- while its percentage
    book counts only the part as sold."""
    sale = _partial_president_sale(game, action)
    if sale is None:
        return False
    corp, seller, _, after = sale
    president = corp.owner
    if president is None or seller is president:
        return False
    most = max(after.values(), default=0)
    return most >= corp.president_percent and after.get(president) == most


STOCK_ROUND_MOVES = frozenset({"buy_shares", "par", "buy_company", "pass", "sell_shares"})
"""A player's moves in a stock round (rules/1841.md 2.2.1) that :func:`circular_trade_moves_turn`
looks at (for :func:`known_defect`, not the veto): each may end his turn (a sale when it
leaves him no legal move)."""


def turn_after(game: Game1841, action: Action, circular_forbidden: bool) -> tuple[str, ...] | None:
    """The round and the entities to act after ``action``, tried on a copy of ``game`` with
    seed 000 item 3.1 (no trade making corporations control each other) in force or not;
    ``None`` when the copy refuses the action."""
    trial = copy_engine(game)
    trial.settings = dataclasses.replace(
        trial.settings, circular_control_forbidden=circular_forbidden
    )
    try:
        trial.resume()
        trial.process_action(dict(action))
    except IllegalAction:
        return None
    acting = [
        getattr(e, "sym", None) or str(getattr(e, "id", "")) for e in trial.round.active_entities()
    ]
    return (type(trial.round).__name__, *acting)


def circular_trade_moves_turn(game: Game1841, action: Action) -> bool:
    """``action``, a player's move in a stock round while some corporation presides another
    and the rule against circular control is in force (seed 000 item 3.1, rules/1841.md
    2.2.1), hands the turn to another entity than it does with that rule switched off, as
    18xx.games plays (defect Q, module docstring): a player whose only trade would make
    corporations control each other is skipped here and asked there, the mover himself too
    after a sale.  Not a veto check (:data:`TURN_CHECKS`): live play writes the skip as the
    player's pass; the campaign asks it of files without that pass.  A sale that leaves the
    mover to act with the rule in force leaves him to act there as well (his turn goes on
    while he has a legal move, and switching the rule off only adds trades), so the second
    copy is tried only when it ended his turn: a sale mostly costs one copy.  (After a
    purchase the mover may be to act again here because everybody else was skipped, as at
    seed 76807, so both copies are always tried.)"""
    from stellwerk.titles.g1841.stock import StockRound1841

    if action.get("type") not in STOCK_ROUND_MOVES or not isinstance(game.round, StockRound1841):
        return False
    if not game.settings.circular_control_forbidden:
        return False
    if not any(c.ipoed and isinstance(c.owner, Corporation) for c in game.corporations):
        return False  # a loop needs a corporation presided by another already
    here = turn_after(game, action, circular_forbidden=True)
    if here is None:
        return False
    if action.get("type") == "sell_shares" and str(action.get("entity")) in here[1:]:
        return False  # his turn goes on, here and there
    there = turn_after(game, action, circular_forbidden=False)
    return there is not None and here != there


def pool_pairs(game: Game1841, merger: Merger) -> int:
    """How many pairs of the two merging corporations' certificates the pool exchanges in the
    first pass (rules/1841.md 2.3.11: a 20 % certificate, or two of 10 %, at a time)."""
    held = [s.percent for s in old_shares(game.pool, merger.a, merger.b)]
    pairs = 0
    while sum(held) > 10:
        first = held.pop(0)
        if first < 20:
            held.pop(0)
        pairs += 1
    return pairs


def pool_short_when_answered(game: Game1841, order: tuple[str, ...], pairs: int) -> bool:
    """On a copy of ``game`` (its merger asking a price or exchange question): the rest of
    the questions answered by the first of ``order`` offered, the merger completes and the
    pool got fewer certificates of the new corporation than its ``pairs``."""
    trial, _ = light_copy(game)  # the tries stop before the token stage (``.trial``)
    merger = next(p for p in trial.procedures if isinstance(p, Merger))
    try:
        while merger.deciding():
            question = merger.question(trial)
            assert question is not None
            offered = question.choices
            choice = next((c for c in order if c in offered), offered[0])
            merger.take(trial, Choose(entity=merger.target, choice=choice))
    except IllegalAction:
        return False  # that way the merger is not allowed: not a way a player can go
    return trial.pool.percent_of(merger.target) < 10 * pairs


def merger_pool_pairs_unpaid(game: Game1841, action: Action) -> bool:
    """``action`` names a merger's partner or begins the merger (with the first new
    corporation offered, for a partner), or answers its price or first exchange pass, after which
    in one way of answering the rest (:data:`.merger.ANSWER_ORDERS` plus every holder keeping
    to its pairs, each tried on a copy) the pool reaches its pairs when the new corporation
    has no ordinary certificate left to give for them (defect N, module docstring)."""
    kind = action.get("type")
    partner: str | None = None
    if kind == "choose":
        asked = decisions.current(game)
        if asked is None or not isinstance(asked[0], Merger):
            return False
        if not (asked[0].choosing_price() or asked[0].in_first_pass()):
            return False
        a, b = asked[0].a, asked[0].b
    else:
        try:
            entity = game.entity(action)
        except IllegalAction:
            return False
        step = game.round.step_for_entity(entity)
        if not isinstance(step, MergeStep) or not isinstance(entity, Corporation):
            return False
        partner = getattr(step, "partner", None)
        a, b = entity.sym, str(partner or action.get("corporation", ""))
    if game.pool.percent_of(a) + game.pool.percent_of(b) < 20:
        return False
    trial = copy_engine(game)
    try:
        trial.resume()
        trial.process_action(dict(action))
    except IllegalAction:
        return False
    if kind == "merge" and partner is None:
        # the partner named: the merger with the first new corporation offered (the pool's
        # pairs and the new corporation's certificates are the same for every one)
        operating = trial.corporation(a)
        step = trial.round.step_for_entity(operating)
        if not isinstance(step, MergeStep):
            return False
        targets = [t for t in step.choices(operating) if t.get("type") == "merge"]
        return bool(targets) and merger_pool_pairs_unpaid(trial, targets[0])
    merger = next((p for p in trial.procedures if isinstance(p, Merger)), None)
    if merger is None:
        return False
    pairs = pool_pairs(game, merger)
    if not merger.deciding():
        return trial.pool.percent_of(merger.target) < 10 * pairs
    orders = (("first", "no", "cash", "full", "pres"), *ANSWER_ORDERS)
    return any(pool_short_when_answered(trial, order, pairs) for order in orders)


CHECKS: tuple[tuple[str, Callable[[Game1841, Action], bool], str], ...] = (
    ("merge", transform_short_of_token, "B"),
    ("buy_train", secession_irsff_uncontrolled, "A"),
    ("buy_train", tuscan_transform_uncontrolled, "D"),
    ("buy_train", tuscan_decider_uncontrolled, "G"),
    ("choose", decider_buys_secession_tokens, "F"),
    ("merge", last_operator_merges, "H"),
    ("merge", transform_changes_frozen, "I"),
    ("sell_shares", partial_president_sale_unreturned, "M"),
    ("sell_shares", partial_president_sale_by_holder, "P"),
    ("merge", merger_pool_pairs_unpaid, "N"),
    ("choose", merger_pool_pairs_unpaid, "N"),
    ("merge", transform_behind_stalled_purchase, "O"),
)
"""Action type, the check that such an action leads into the defect, and the defect's letter
(docs/architecture.md); the first that holds names the defect."""

TURN_CHECKS: tuple[tuple[str, Callable[[Game1841, Action], bool], str], ...] = tuple(
    (kind, circular_trade_moves_turn, "Q") for kind in sorted(STOCK_ROUND_MOVES)
)
"""The checks, as in :data:`CHECKS`, of the defects that only hand the turn elsewhere in
18xx.games' engine (Q), which live play writes into the file (module docstring): not part of
the veto, asked by :func:`known_defect` only."""


def turn_defect(game: Game1841, action: Action) -> str | None:
    """The letter of the :data:`TURN_CHECKS` defect ``action`` leads into, or ``None``."""
    kind = action.get("type")
    for action_type, check, letter in TURN_CHECKS:
        if kind == action_type and check(game, action):
            return letter
    return None


def known_defect(game: EngineGame, action: Action) -> str | None:
    """The campaign's classification of a move in a game file (``scripts/campaign1841.py``):
    :func:`veto`'s letter, else that of :func:`turn_defect` (Q), which the veto leaves to
    live play's file but a file without the skipped player's pass still meets."""
    letter = veto(game, action)
    if letter is not None or getattr(game, "title", None) != "1841":
        return letter
    from stellwerk.titles.g1841.game import Game1841

    engine: object = getattr(game, "engine_to_look_at", None) or getattr(game, "engine", None)
    return turn_defect(engine, action) if isinstance(engine, Game1841) else None
