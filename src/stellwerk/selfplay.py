"""A seeded random driver that plays whole games through the public engine API.

Each step it asks ``game.legal_actions()`` and picks one with ``random.Random(seed)``, biased
towards progress: most of the time it avoids ``pass`` when something else is offered, and among
``run_routes`` offers it takes the one with the best revenue.  Tile lays are looked for hex by
hex (``game.lay_hexes()``) only when it chooses to lay, not listed at every position.  It stops
when the game is finished, when nothing is offered, or after ``max_actions``.  The CLI's
``selfplay`` command, the property tests and the fuzz driver (``scripts/fuzz_selfplay.py``)
use it.

A caller may give a **veto** (:data:`Veto`): a function that names a reason to put a pick
aside (the differential tooling's checks for the moves that lead into a position another
engine cannot go on from, ``tools/oracle_defects_1841.py``).  A vetoed pick is put aside and
another made from the rest, as long as any is left.  The engine's legal actions are
unchanged; only the driver's choice is, and only at such a pick (the picks before it are the
same as without the veto, so a game that never meets one is the same game).  The outcome
counts the picks put aside per reason.

The engine failing on something it offered is reported as :class:`SelfplayFailure`, naming the
action and how many actions came before it: an internal error (``EngineError``, or any other
exception from the engine) or a refusal of a listed action (``IllegalAction``).  The game is left
as it was before that action, so its file plus the action reproduce the failure.
"""

from __future__ import annotations

import copy
import random
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field

from stellwerk.core.errors import EngineError, IllegalAction
from stellwerk.core.flow.base import Action
from stellwerk.io.engine import EngineGame

PROGRESS_BIAS = 0.8
"""Probability of choosing among non-pass actions when there are any."""

PASSIVE_TYPES = frozenset({"pass"})

PAYOUT_BIAS = 0.85
"""Probability of paying dividends when offered (players need income to keep playing)."""

PLAYER_DEAL_BIAS = 0.05
"""Probability of considering the purchases from another player (1841's player-to-player
purchases: a concession at the least price, L.1, or shares at the market price) when they
are offered: a driver that takes them as often as anything else trades the concessions and
shares round and round and never leaves the stock round (selfplay 1841 seed 4, 6 players,
``p2p_purchases``: 10,000 actions in the first stock round; seed 501, 4 players,
``version_1 lite p2p_purchases``: 4,600 share purchases between players in its first
stock round, where every share was held by players)."""

PLAYER_PATIENCE = 600
"""Consecutive players' actions (no corporation acting in between) after which a player
offered a ``pass`` takes it with :data:`PATIENT_PASS`: a stock round ends only when every
player passes in turn, which a driver that prefers acting (:data:`PROGRESS_BIAS`) to passing
may put off without end while buying, selling and trading stay possible -- six players
with player-to-player purchases in 1841 (rules/1841.md 4.3) trade more than they pass.  The
longest rounds seen in finished 1841 selfplay games are below 400 actions (a 6-player
concession auction), so ordinary games are not changed by it (before the patience is
exhausted the driver draws exactly as without it)."""

PATIENT_PASS = 0.5
"""Probability of passing once :data:`PLAYER_PATIENCE` is exhausted."""

TYPE_WEIGHTS = {"sell_shares": 0.15, "bankrupt": 0.3, "take_loan": 0.3}
"""Relative weights of action types among the non-pass choices (others weigh 1): a driver
that sells as often as it buys drives every corporation into the ground."""


class SelfplayFailure(Exception):
    """The engine failed on an action it had offered (or while listing its actions).

    ``kind`` is ``"internal"`` for an engine defect (``EngineError`` or any unexpected exception)
    and ``"refused"`` for ``IllegalAction`` on a listed action; ``index`` is the number of
    actions played before it; ``action`` is ``None`` when listing the legal actions failed;
    ``untaken`` marks an action the driver did not choose, tried on a copy (``try_untaken``).
    """

    def __init__(
        self,
        kind: str,
        index: int,
        action: Action | None,
        error: Exception,
        untaken: bool = False,
    ) -> None:
        self.kind = kind
        self.index = index
        self.action = action
        self.error = error
        self.untaken = untaken
        if kind == "refused":
            what = "the engine refused its own legal action"
        else:
            what = "internal engine error"
        if untaken:
            where = f"on an untaken choice after action {index} (tried on a copy)"
        elif action is not None:
            where = f"at action {index + 1}"
        else:
            where = f"listing the actions after action {index}"
        super().__init__(f"{what} {where}: {describe_error(error)}")


def describe_error(error: Exception) -> str:
    """One line for an engine error: ``reason (rule)`` of a refusal, else type and message."""
    if isinstance(error, IllegalAction):
        return f"{error.reason} ({error.rule})" if error.rule else error.reason
    text = error.message if isinstance(error, EngineError) else f"{type(error).__name__}: {error}"
    return " ".join(text.split()).rstrip(":")


@dataclass
class SelfplayOutcome:
    """How a random game ended: number of actions played and why it stopped."""

    actions: int
    finished: bool
    stopped_because: str
    stuck: bool = False
    avoided: dict[str, int] = field(default_factory=dict)
    """Picks put aside by the caller's veto, per the reason it gave."""


Veto = Callable[[EngineGame, Action], "str | None"]
"""A reason to put a pick aside, or ``None`` to let it be made (module docstring): given the
game and a pick of the driver."""


def choose_clear(
    game: EngineGame,
    legal: list[Action],
    rng: random.Random,
    lay: LayPicker | None,
    avoided: dict[str, int],
    veto: Veto | None = None,
) -> Action:
    """:func:`choose_action`, but a pick that ``veto`` names a reason for is put aside
    (counted in ``avoided`` under that reason) and the choice made again among the rest;
    when nothing else is left that pick is made after all."""
    action = choose_action(legal, rng, lay)
    if veto is None:
        return action
    while (letter := veto(game, action)) is not None:
        rest = [a for a in legal if a is not action]
        if not rest:
            break
        avoided[letter] = avoided.get(letter, 0) + 1
        legal = rest
        action = choose_action(legal, rng, lay)
    return action


def route_revenue(action: Action) -> int:
    """Total revenue of a ``run_routes`` action's routes (0 for other actions)."""
    routes = action.get("routes") or []
    total = 0
    for route in routes:
        revenue = route.get("revenue", 0) if isinstance(route, dict) else 0
        total += revenue if isinstance(revenue, int) else 0
    return total


LayPicker = Callable[[], "Action | None"]
"""Finds one random legal tile lay (or None when there is none), asked only if wanted."""


def choose_action(legal: list[Action], rng: random.Random, lay: LayPicker | None = None) -> Action:
    """Pick one of ``legal`` (non-empty): best-revenue route runs, else mostly non-pass actions.

    ``lay``, if given, stands for the tile lays ``legal`` leaves out: ``lay_tile`` counts as one
    more action type (and as one more action in the unbiased pick), and ``lay()`` is asked for a
    lay only when that is chosen; if it finds none, the pick is made without lays."""
    routes = [action for action in legal if action.get("type") == "run_routes"]
    if routes:
        best = max(route_revenue(action) for action in routes)
        return rng.choice([action for action in routes if route_revenue(action) == best])
    payouts = [a for a in legal if a.get("type") == "dividend" and a.get("kind") == "payout"]
    if payouts and rng.random() < PAYOUT_BIAS:
        return payouts[0]
    deals = [action for action in legal if is_player_deal(action)]
    if deals and len(deals) < len(legal) and rng.random() >= PLAYER_DEAL_BIAS:
        legal = [action for action in legal if not is_player_deal(action)]
    active = [action for action in legal if action.get("type") not in PASSIVE_TYPES]
    if (active or lay is not None) and rng.random() < PROGRESS_BIAS:
        types = sorted({str(action.get("type")) for action in active} | _lay_type(lay))
        while types:
            weights = [TYPE_WEIGHTS.get(t, 1.0) for t in types]
            chosen = rng.choices(types, weights)[0]
            if chosen == "lay_tile" and lay is not None:
                found = lay()
                if found is not None:
                    return found
                lay = None  # no lay anywhere: choose among the others
                types.remove(chosen)
                continue
            of_type = [action for action in active if action.get("type") == chosen]
            if chosen == "bid":
                # cheap bids first: a driver that keeps raising bids on dear privates while
                # nobody can afford the cheapest never leaves the auction
                prices = [max(1, int(action.get("price") or 1)) for action in of_type]
                return rng.choices(of_type, [1.0 / (p * p) for p in prices])[0]
            return rng.choice(of_type)
    if lay is not None and rng.randrange(len(legal) + 1) == len(legal):
        found = lay()
        if found is not None:
            return found
    return rng.choice(legal)


def is_player_deal(action: Action) -> bool:
    """A player's purchase from another player (rules/1841.md 4.3) -- a concession at the
    least price (L.1), or shares, which the engine lists with the agreed ``total_price`` --
    that the driver seldom considers (:data:`PLAYER_DEAL_BIAS`)."""
    if action.get("entity_type") != "player":
        return False
    if action.get("type") == "buy_company":
        return action.get("price") == 1
    return action.get("type") == "buy_shares" and "total_price" in action


def _lay_type(lay: LayPicker | None) -> set[str]:
    return {"lay_tile"} if lay is not None else set()


def offered(
    game: EngineGame, played: int, hex_id: str | None = None, all_lays: bool = False
) -> list[Action]:
    """``game.legal_actions()``; an exception while listing them is an engine defect."""
    try:
        return game.legal_actions(hex_id, all_lays=all_lays)
    except Exception as error:  # the driver reports any engine failure, it judges none
        raise SelfplayFailure("internal", played, None, error) from error


def apply(game: EngineGame, action: Action, played: int) -> None:
    """``game.process(action)`` for an offered action: a refusal or any other exception is a
    :class:`SelfplayFailure` (the engine must accept what it lists)."""
    try:
        game.process(action)
    except IllegalAction as error:
        raise SelfplayFailure("refused", played, action, error) from error
    except Exception as error:  # EngineError, or a fake engine's own exception
        raise SelfplayFailure("internal", played, action, error) from error


def try_untaken(game: EngineGame, rng: random.Random, tries: int, played: int) -> None:
    """Apply up to ``tries`` of the offered actions to copies of the game, at least one of each
    action type (rare answers such as a ``choose`` are the ones the driver seldom takes), the
    rest at random.  The game itself is unchanged; a failure is a :class:`SelfplayFailure`
    with ``untaken`` set (``played``: the actions played so far, for the report)."""
    legal = offered(game, played, all_lays=True)
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(str(action.get("type")), []).append(action)
    picked = [rng.choice(group) for group in by_type.values()]
    rest = [a for a in legal if all(a is not p for p in picked)]
    picked += rng.sample(rest, max(0, min(tries - len(picked), len(rest))))
    for action in picked:
        trial = copy.deepcopy(game)
        try:
            trial.process(action)
        except IllegalAction as error:
            raise SelfplayFailure("refused", played, action, error, untaken=True) from error
        except Exception as error:  # the driver reports any engine failure, it judges none
            raise SelfplayFailure("internal", played, action, error, untaken=True) from error


def lay_picker(game: EngineGame, rng: random.Random, played: int) -> LayPicker | None:
    """A :data:`LayPicker` for ``game`` now, or None when no tile lay can be listed.  It tries
    the hexes ``game.lay_hexes()`` names in random order and picks one lay of the first hex
    that has any, so finding a lay costs a few hexes' checks instead of every hex's (a game
    without ``lay_hexes`` is asked for all lays at once)."""
    hexes_of = getattr(game, "lay_hexes", None)
    if hexes_of is None:
        lays = [a for a in offered(game, played, all_lays=True) if a.get("type") == "lay_tile"]
        return (lambda: rng.choice(lays)) if lays else None
    try:
        hexes = list(hexes_of())
    except Exception as error:  # the driver reports any engine failure, it judges none
        raise SelfplayFailure("internal", played, None, error) from error
    if not hexes:
        return None

    def pick() -> Action | None:
        rng.shuffle(hexes)
        for hex_id in hexes:
            found = [a for a in offered(game, played, hex_id) if a.get("type") == "lay_tile"]
            if found:
                return rng.choice(found)
        return None

    return pick


def choose_patient(
    game: EngineGame,
    legal: list[Action],
    rng: random.Random,
    lay: LayPicker | None,
    avoided: dict[str, int],
    streak: int,
    veto: Veto | None = None,
) -> Action:
    """:func:`choose_clear`, but after :data:`PLAYER_PATIENCE` players' actions in a row a
    player's ``pass``, when offered, is taken with :data:`PATIENT_PASS`, so that stock rounds
    end."""
    if streak >= PLAYER_PATIENCE:
        passes = [
            a
            for a in legal
            if a.get("type") == "pass" and a.get("entity_type", "player") == "player"
        ]
        if passes and rng.random() < PATIENT_PASS:
            return passes[0]
    return choose_clear(game, legal, rng, lay, avoided, veto)


def play(
    game: EngineGame,
    seed: int,
    max_actions: int = 10_000,
    after_action: Callable[[EngineGame, Action, random.Random], None] | None = None,
    veto: Veto | None = None,
) -> SelfplayOutcome:
    """Play ``game`` with random legal actions until it ends, stalls or hits ``max_actions``.
    ``after_action`` (the property tests' checks) runs after every action kept; ``veto``
    puts picks aside (module docstring).  Raises
    :class:`SelfplayFailure` when the engine fails on an action it offered.

    Each position is listed once without tile lays; a lay is looked for only when the driver
    chooses to lay (:func:`lay_picker`).  Players grow impatient in endless rounds
    (:func:`choose_patient`)."""
    rng = random.Random(seed)
    played = 0
    avoided: dict[str, int] = {}
    streak = 0  # players' actions since a corporation last acted
    legal: list[Action] | None = None
    while not game.finished:
        if played >= max_actions:
            return SelfplayOutcome(
                played, False, f"reached the cap of {max_actions} actions", avoided=avoided
            )
        if legal is None:
            legal = offered(game, played)
        lay = lay_picker(game, rng, played)
        if not legal:
            if lay is not None and (found := lay()) is not None:
                legal = [found]
            else:
                return SelfplayOutcome(
                    played, False, "the engine offered no legal action", True, avoided
                )
        action = choose_patient(game, legal, rng, lay, avoided, streak, veto)
        apply(game, action, played)
        # A few positions leave nobody able to act (18xx.games keeps a stale acting step after
        # a corporation closes mid-turn, and we mirror it).  A player would not walk into
        # that: take the action back and try the others.
        after = [] if game.finished else offered(game, played + 1)
        if not game.finished and not after:
            others = [a for a in legal if a is not action]
            rng.shuffle(others)
            for other in others:
                game.undo()
                apply(game, other, played)
                action = other
                after = [] if game.finished else offered(game, played + 1)
                if game.finished or after:
                    break
        legal = after
        played += 1
        streak = streak + 1 if action.get("entity_type", "player") == "player" else 0
        if after_action is not None:
            after_action(game, action, rng)
            legal = None  # the checks may have acted on the game: list it again
    return SelfplayOutcome(played, True, "game finished", avoided=avoided)


def reproducer(
    title: str,
    players: int,
    seed: int,
    options: tuple[str, ...] | list[str],
    max_actions: int,
) -> str:
    """The ``stellwerk selfplay`` command line that plays the same game again."""
    words = ["stellwerk", "selfplay", title, "--players", str(players), "--seed", str(seed)]
    for option in options:
        words += ["--option", option]
    words += ["--max-actions", str(max_actions), "-o", "game.json"]
    return shlex.join(words)
