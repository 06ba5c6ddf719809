"""Frozen corporations (rules/1841.md 2.3.9, 2.3.10).

A started corporation whose chain of control does not end at a player -- it ends in the pool,
or it loops (circular) -- is frozen.  The state is kept per corporation and brought up to date
after every action (:func:`update`, 18xx.games ``update_frozen!``): a circular corporation stays
circular while it is frozen, and remembers the corporations that were in its chain when it
became circular.  As in 18xx.games, a transformation's share moves are not taken into account
until the next share trade or procedure that updates the states (``Game1841.frozen_held``;
docs/architecture.md, defect I), unless the settings take them at once (rules/1841.md 2.3.9).

At its turn in an operating round a frozen corporation does nothing but: its price moves two
columns left, and if it is circular it sells (at full price, with the normal price drops) the
shares it holds of the corporations of that chain.  Then it counts as operated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from stellwerk.core.entities import Corporation, Holder, chain_of_control, controller
from stellwerk.core.shares import Bundle
from stellwerk.titles.g1841 import journal
from stellwerk.titles.g1841.ownership import sale_drops_price
from stellwerk.titles.g1841.ports import Holdings, Rules

RULE = "rules/1841.md 2.3.10"


@dataclass
class FrozenState:
    """One corporation's frozen state: frozen, circular, and the chain when it became
    circular (symbols)."""

    frozen: bool = False
    circular: bool = False
    chain: list[str] = field(default_factory=list)


class FrozenGame(Holdings, Rules, Protocol):
    """Share holdings and the rules, with the frozen states (:attr:`frozen_states`), whether
    they are held until the next share trade (:attr:`frozen_held`) and the game's note that
    nothing was found to change (``_frozen_seen``, which an update forgets): what this module
    uses of the game (rules/1841.md 2.3.10)."""

    frozen_held: bool
    _frozen_seen: list[Holder | None] | None

    @property
    def frozen_states(self) -> dict[str, FrozenState]: ...


def state(game: FrozenGame, corp: Corporation) -> FrozenState:
    return game.frozen_states.setdefault(corp.sym, FrozenState())


def is_frozen(game: FrozenGame, corp: Corporation) -> bool:
    """Whether the corporation is frozen (as last brought up to date)."""
    found = game.frozen_states.get(corp.sym)
    return found is not None and found.frozen


def is_circular(game: FrozenGame, corp: Corporation) -> bool:
    found = game.frozen_states.get(corp.sym)
    return found is not None and found.circular


def _chain_syms(corp: Corporation) -> list[str]:
    return [h.sym for h in chain_of_control(corp) if isinstance(h, Corporation)]


def update(game: FrozenGame) -> bool:
    """Bring every corporation's frozen state up to date; whether anything changed (the
    answer :meth:`.Game1841._frozen_changes` remembered is forgotten: it was about the states
    before)."""
    game._frozen_seen = None
    game.frozen_held = False
    changed = False
    for corp in game.corporations:
        frozen = corp.ipoed and controller(corp) is None
        last = chain_of_control(corp)[-1] if corp.ipoed else None
        # 18xx.games marks none circular (its defect L); the printed rules do
        circular = (
            game.settings.circular_frozen_sales and corp.ipoed and isinstance(last, Corporation)
        )
        old = game.frozen_states.get(corp.sym)
        if old is None and not frozen:
            continue
        st = state(game, corp)
        before = (st.frozen, st.circular, list(st.chain))
        st.frozen = frozen
        if frozen:
            st.circular = circular or st.circular
            if circular:
                st.chain = _chain_syms(corp)
        else:
            st.circular = False
            st.chain = []
        changed = changed or before != (st.frozen, st.circular, st.chain)
        if st.frozen != before[0]:
            told = journal.Frozen(corp.sym, st.circular) if frozen else journal.Thawed(corp.sym)
            game.journal.append(told)
    return changed


def in_circular_chain(game: FrozenGame, corp: Corporation, other: Corporation) -> bool:
    """``other`` was in ``corp``'s chain when it became circular, or is in it now."""
    st = game.frozen_states.get(corp.sym)
    if st is not None and other.sym in st.chain:
        return True
    return other.sym in _chain_syms(corp)


def frozen_operation(game: FrozenGame, corp: Corporation) -> None:
    """The turn of a frozen corporation: two columns left; a circular one sells the shares of
    the corporations of its chain, each price dropping as after any sale but for seed 003 H2
    (:func:`.ownership.sale_drops_price`) (rules/1841.md 2.3.10)."""
    game.move_price(corp, "left", 2)
    if not is_circular(game, corp):
        return
    for sym, shares in list(corp.shares.items()):
        if sym == corp.sym:
            continue
        other = game.corporation(sym)
        if not in_circular_chain(game, corp, other):
            continue
        for share in list(shares):
            bundle = Bundle.of([share], other)
            if sale_drops_price(game, corp, other):
                game.sell_shares_and_change_price(bundle)
            else:
                game.sell_shares(bundle)
            pool_takes_unclaimed_presidency(game, other)
    update(game)


def pool_takes_unclaimed_presidency(game: FrozenGame, corp: Corporation) -> None:
    """A president's certificate sold to the pool that no holder can take over (nobody holds
    the president's percentage) leaves ``corp`` to the pool: its chain of control ends there
    and it is frozen (rules/1841.md 2.2.1 -- a president's certificate may lie in the pool --
    and 2.3.10; 18xx.games: the corporation "enters receivership").  Seed 000 item 2.23: the
    circular corporation that sold its controller's certificate no longer presides it."""
    pres = corp.presidents_share
    if pres is not None and pres.owner is game.pool and corp.owner is not game.pool:
        game.set_president(corp, game.pool)
