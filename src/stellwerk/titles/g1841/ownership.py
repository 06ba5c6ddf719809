"""Who owns and controls 1841's corporations, and what that forbids (rules/1841.md 1.2, 2.2.1,
2.3.9, 2.3.10; seed 000 item 3.1).

A corporation's president may be a player, another corporation or the pool; its chain of
control ends at a player (who controls it), at the pool, or loops (core ``controller`` /
``is_circular``).  A started corporation whose chain does not end at a player is *frozen*;
a looping chain is *circular*.  Buying or selling that would make a corporation circular is
refused (seed 000 item 3.1, on by default; the first printed rules allowed it).  Before
phase 4 the presidency of a historical corporation never changes hands.

Trades are checked before anything moves: :func:`creates_circle` moves the certificates on
trial, settles the presidency as the trade would, looks, and puts everything back exactly.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Protocol

from stellwerk.core.entities import Corporation, Holder, Player, Share, is_circular
from stellwerk.core.policy import Policy
from stellwerk.core.shares import Bundle, transfer_bundle
from stellwerk.titles.g1841.ports import Holdings, Rules


class Marked(Protocol):
    """A corporation's frozen state as far as this module reads it (:mod:`.frozen`)."""

    @property
    def circular(self) -> bool: ...


class OwnershipGame(Holdings, Rules, Protocol):
    """Share holdings and the rules, with the frozen states as far as they mark circular
    corporations: what this module uses of the game."""

    @property
    def frozen_states(self) -> Mapping[str, Marked]: ...


class CheckedRules(Rules, Protocol):
    """The rules with the checks policy (live play or a recorded file's replay): what
    :func:`loops_forbidden` asks."""

    @property
    def policy(self) -> Policy: ...


class CheckedGame(OwnershipGame, CheckedRules, Protocol):
    """:class:`OwnershipGame` with the checks policy: what :func:`circle_refused` uses."""


RULE_CIRCLE = "rules/1841.md 2.2.1 (no circular control; seed 000 item 3.1)"


def phase_number(game: OwnershipGame) -> int:
    """The current phase as a number (2..8; rules/1841.md 2.4)."""
    return int(game.phases.current.name)


def historical(game: OwnershipGame, corp: Corporation) -> bool:
    """Historical corporations (rules/1841.md 1.2)."""
    return game.specs[corp.sym].historical


def major(game: OwnershipGame, corp: Corporation) -> bool:
    """Majors (9 certificates) as opposed to minors (4) (rules/1841.md 1.1)."""
    return game.specs[corp.sym].type == "major"


def presidency_may_change(game: OwnershipGame, corp: Corporation) -> bool:
    """Before phase 4 a historical corporation's presidency never changes: buying more than
    the president does not take it over, and its president may not dump it (rules/1841.md
    2.2.1)."""
    return phase_number(game) >= 4 or not historical(game, corp)


def pool_president_buyable(game: OwnershipGame, corp: Corporation) -> bool:
    """A president's certificate in the pool may be bought directly only for a non-historical
    corporation or from phase 4 (rules/1841.md 2.2.1)."""
    return phase_number(game) >= 4 or not historical(game, corp)


def frozen(game: OwnershipGame, corp: Corporation) -> bool:
    """A started corporation whose chain of control does not end at a player (rules/1841.md
    2.3.9)."""
    return corp.ipoed and not corp.closed and game.controller(corp) is None


def circular_set(game: OwnershipGame) -> set[str]:
    """The started corporations whose chain of control loops, and those still marked
    circular while frozen (rules/1841.md 2.3.9, 2.3.10; :mod:`.frozen`)."""
    marked = {sym for sym, st in game.frozen_states.items() if st.circular}
    return marked | {
        c.sym for c in game.corporations if c.ipoed and not c.closed and is_circular(c)
    }


def holders_in_order(game: OwnershipGame, corps: list[Corporation]) -> list[Corporation]:
    """Corporations deciding one after the other in an exchange (mergers, the secession):
    as given (18xx.games: definition order), or with ``holder_corporation_order ==
    "share_value"`` in descending share value, i.e. operating order (seed 000 item 1.16: "dann
    für seine Gesellschaften in absteigender Reihenfolge ihres Kurswertes"; item 2.12: "in
    order of share value" means operating order; item 2.25 for the frozen corporations after
    the pool: "im Falle von mehreren eingefrorenen Gesellschaften in Reihenfolge ihres
    Kurswertes")."""
    if game.settings.holder_corporation_order != "share_value":
        return corps
    return sorted(
        corps, key=lambda c: c.sort_key() if c.share_price is not None else (0, 0, 0, 0, "")
    )


@contextmanager
def trial(game: OwnershipGame, corp: Corporation) -> Iterator[None]:
    """Whatever happens to ``corp``'s certificates and president inside is undone after."""
    holders: list[Holder] = [*game.all_players, *game.corporations, game.pool]
    lists = {id(h): (h, list(h.shares.get(corp.sym, []))) for h in holders}
    had = {id(h) for h in holders if corp.sym in h.shares}
    owners: list[tuple[Share, Holder | None]] = [(s, s.owner) for s in corp.certificates]
    president = corp.owner
    told = len(game.journal)
    try:
        yield
    finally:
        for key, (holder, shares) in lists.items():
            if key in had:
                holder.shares[corp.sym] = shares
            else:
                holder.shares.pop(corp.sym, None)
        for share, owner in owners:
            share.owner = owner
        game.set_president(corp, president)
        del game.journal[told:]


def creates_circle(game: OwnershipGame, bundle: Bundle, to: Holder, president_change: bool) -> bool:
    """Whether moving ``bundle`` to ``to`` (a purchase or sale, the presidency settled as the
    trade settles it) makes a corporation circular that was not (rules/1841.md 2.2.1).

    Only the presidency of the bundle's corporation can change, so a new loop needs a
    corporation as its new president whose chain of control then loops: when ``to`` is none,
    that is a corporation already holding some of it whose chain reaches the corporation or
    loops already (:func:`may_close_loop`); without one the answer is no without trying the
    move (sales are asked this often)."""
    corp = bundle.corporation
    if not isinstance(to, Corporation) and not may_close_loop(corp):
        return False
    return tried_circle(game, bundle, to, president_change)


def may_close_loop(corp: Corporation) -> bool:
    """Whether a corporation holding certificates of ``corp`` (other than ``corp``) has a
    chain of control that reaches ``corp`` or loops: only such a holder, becoming ``corp``'s
    president, makes a corporation circular that was not (every corporation whose chain
    passes through ``corp`` then ends in a loop; a chain that does not pass through ``corp``
    stays as it was, and one through ``corp`` up to a player, the pool or nobody ends
    there)."""
    for share in corp.certificates:
        holder = share.owner
        if holder is corp or not isinstance(holder, Corporation):
            continue
        seen = {id(holder)}
        entity = holder.owner
        while isinstance(entity, Corporation):
            if entity is corp or id(entity) in seen:
                return True
            seen.add(id(entity))
            entity = entity.owner
    return False


def sale_drops_price(game: OwnershipGame, seller: Holder | None, corp: Corporation) -> bool:
    """Whether selling ``corp``'s shares moves its price down (rules/1841.md 2.2.1, 2.3.7,
    2.3.8): always, but with seed 003 H2 a corporation's sale of another corporation's shares
    does not ("Wenn Firmen Fremdaktien verkaufen, so sinkt der Kurs nicht. (Wenn Firmen eigene
    Aktien verkaufen sinkt der Kurs sehr wohl.)").  The house rule names no exception, so it
    holds for every sale by a corporation: in its share step, for emergency money and in a
    circular corporation's frozen turn (seed 000 item 2.23: a sale "per EMR rules at full
    value")."""
    if game.settings.corporate_sales_of_others_drop_price:
        return True
    return not isinstance(seller, Corporation) or seller is corp


def loops_forbidden(game: CheckedRules) -> bool:
    """Whether trades and mergers that make corporations control each other are refused now:
    the rule is in force (seed 000 item 3.1, rules/1841.md 2.2.1, 2.3.8, 2.3.11; on by
    default, :attr:`.Settings1841.circular_control_forbidden`) and checked
    (``game.policy.control_loops``: live play checks it; a recorded file's replay takes such
    trades, as 18xx.games' check never fires, docs/architecture.md defects L and Q)."""
    return game.settings.circular_control_forbidden and game.policy.control_loops


def circle_refused(game: CheckedGame, bundle: Bundle, to: Holder, president_change: bool) -> bool:
    """Whether the rule refuses moving ``bundle`` to ``to`` because a corporation would
    become circular (seed 000 item 3.1, on by default: "Spieler und Gesellschaften dürfen
    Aktien nicht verkaufen oder kaufen ..., wenn es dadurch dazu kommt, daß sich
    Gesellschaften direkt oder indirekt gegenseitig kontrollieren"; rules/1841.md 2.2.1).
    With the first printed rules (the rule switched off) nothing is refused for it: the
    loop's corporations become frozen and circular (2.3.10).  Nor while a recorded file is
    replayed (:func:`loops_forbidden`: 18xx.games takes such trades)."""
    return loops_forbidden(game) and creates_circle(game, bundle, to, president_change)


def tried_circle(game: OwnershipGame, bundle: Bundle, to: Holder, president_change: bool) -> bool:
    """:func:`creates_circle` found by trying the move."""
    before = circular_set(game)
    with trial(game, bundle.corporation):
        move_bundle(game, bundle, to, president_change)
        after = circular_set(game)
    return bool(after - before)


def move_bundle_between_players(game: OwnershipGame, bundle: Bundle, to: Player) -> None:
    """A player buys certificates with the president's from another player (player-to-player
    purchases, rules/1841.md 4.3): the presidency is settled as after any transfer, but if
    another holder becomes president he swaps his ordinary certificates with the buyer, who
    holds the president's certificate now -- not with the seller, as 18xx.games' special
    case for a player-to-player purchase of the president's certificate has it (selfplay
    seed 10, a selfplay game, action 896).  A part of the certificate left
    over comes back from the buyer as well."""
    corp = bundle.corporation
    before = corp.owner
    swap = game.change_president_for(corp)

    def swap_with_buyer(pres: Share, _swap_to: Holder, president: Holder, prev: Holder) -> None:
        swap(pres, to, president, prev)

    def partial_from_buyer(part: Bundle, _source: Holder, back_to: Holder) -> None:
        game.handle_partial(part, to, back_to)

    transfer_bundle(bundle, to, game, game.pool, swap_with_buyer, partial_from_buyer)
    game.tell_president_change(corp, before)


def move_bundle(game: OwnershipGame, bundle: Bundle, to: Holder, president_change: bool) -> None:
    """Move certificates and settle the presidency (no money): a president's certificate
    bought from the pool makes the buyer president at once (rules/1841.md 2.2.1); otherwise
    the usual majority rule, unless the presidency may not change."""
    corp = bundle.corporation
    from_pool = bundle.owner is game.pool
    if from_pool and bundle.presidents_share is not None and isinstance(to, (Player, Corporation)):
        game.transfer_shares(bundle, to, allow_president_change=False)
        game.set_president(corp, to)
        return
    game.transfer_shares(bundle, to, allow_president_change=president_change)
