"""The core's ownership and control model: any holder holds certificates the same way, a
corporation may preside over another, control is a walk up the chain of presidents, and the
limits, presidency changes, sold-out test and who may sell are computed on holders with the
title choosing the numbers (common rules §6.6; rules/1841.md 1.2, 2.2.1, 2.3.8-2.3.12)."""

from __future__ import annotations

import contextlib
from fractions import Fraction

import pytest
from boardless import BoardlessGame
from hypothesis import given, settings
from hypothesis import strategies as st

from stellwerk.api import Game as ApiGame
from stellwerk.core.entities import (
    Corporation,
    Holder,
    Player,
    SharePool,
    chain_of_control,
    controlled_corporations,
    controller,
    is_circular,
    move_share,
    retire_certificates,
)
from stellwerk.core.errors import IllegalAction
from stellwerk.core.game import Game
from stellwerk.core.shares import Bundle, reissue

MAJOR = [20, 10, 10, 10, 10, 10, 10, 10, 10]
MINOR = [40, 20, 20, 20]


class OwnedCorporationsGame(BoardlessGame):
    """A core game whose corporations may preside over other corporations and whose
    holding limit counts what a player controls (the 1841 choices, rules/1841.md 1.2,
    2.3.9); certificate limits from a fixed table."""

    holding_limit_counts_controlled = True

    def __init__(self, players: list[tuple[int | str, str]], options: list[str], seed: int) -> None:
        super().__init__(players, options, seed)
        self.corporate_cert_limit = 5  # an instance's value: a compiled core reads no class body

    def may_preside(self, corp: Corporation, holder: Holder) -> bool:
        return isinstance(holder, Player) or (
            isinstance(holder, Corporation) and holder is not corp
        )

    def player_cert_limit(self, player: Player | None) -> int:
        return 16


class PlayersOnlyGame(BoardlessGame):
    """A core game with the default hooks: only players preside (1849, 1835)."""

    def player_cert_limit(self, player: Player | None) -> int:
        return 16


def new_game(cls: type[Game] = OwnedCorporationsGame, *syms: str) -> Game:
    game = cls([(1, "A"), (2, "B"), (3, "C"), (4, "D")], [], 1)
    for sym in syms or ("X", "Y", "Z"):
        game.corporations.append(Corporation(sym, sym, list(MAJOR), 2, 20, None))
    return game


def take(game: Game, corp: Corporation, to: Holder, *percents: int) -> None:
    """``to`` takes certificates of these sizes from ``corp``'s treasury (the president's
    certificate for the first 20 % while nobody presides), presidency settled as in play."""
    for percent in percents:
        treasury = corp.treasury_shares()
        share = next(
            s for s in treasury if s.percent == percent and (s.president == (corp.owner is None))
        )
        game.transfer_shares(Bundle.of([share], corp), to)


def test_a_corporation_becomes_president_and_control_walks_to_its_player() -> None:
    """rules/1841.md 2.3.9: a corporation's president may be another corporation; control
    follows the presidents up to a player.  Buying more than the president makes the buying
    corporation president (common rules §6.6), and its own controller controls both."""
    game = new_game()
    a, b = game.players[0], game.players[1]
    x, y = game.corporation("X"), game.corporation("Y")
    take(game, x, a, 20)
    take(game, y, b, 20)
    take(game, x, y, 10, 10, 10)
    assert x.owner is y
    assert any(s.president for s in y.shares_of("X"))
    assert a.percent_of("X") == 20 and y.percent_of("X") == 30
    assert controller(x) is b and game.controller(x) is b
    assert chain_of_control(x) == [y, b]
    assert controlled_corporations(b, game.corporations) == [x, y]


def test_a_chain_of_two_corporations_ends_at_the_player() -> None:
    """rules/1841.md 2.3.9: follow owners up to a player = controller, through any number of
    corporations."""
    game = new_game()
    c = game.players[2]
    x, y, z = (game.corporation(s) for s in "XYZ")
    take(game, z, c, 20)
    take(game, y, z, 20)
    take(game, x, y, 20)
    assert chain_of_control(x) == [y, z, c]
    assert controller(x) is c and controller(y) is c and controller(z) is c
    assert not is_circular(x)


def test_a_cycle_of_control_ends_the_walk_and_freezes() -> None:
    """rules/1841.md 2.3.9-2.3.10: a chain that loops back has no controlling player (the
    corporation is frozen and circular); the walk stops at the repeat."""
    game = new_game()
    x, y, z = (game.corporation(s) for s in "XYZ")
    x.owner, y.owner = y, x
    assert controller(x) is None and controller(y) is None
    assert is_circular(x) and is_circular(y)
    z.owner = x  # a chain that runs into a loop it is not part of
    assert controller(z) is None and is_circular(z)
    assert chain_of_control(z) == [x, y, x]
    z.owner = game.pool  # a chain ending in the pool: frozen, not circular
    assert controller(z) is None and not is_circular(z)


def test_presidency_passes_from_a_corporation_back_to_a_player() -> None:
    """common rules §6.6 and rules/1841.md 2.2.1: the holder with the highest percentage
    presides; the outgoing president hands the president's certificate over for ordinary
    certificates, whether it is a corporation or a player."""
    game = new_game()
    a, b = game.players[0], game.players[1]
    x, y = game.corporation("X"), game.corporation("Y")
    take(game, x, a, 20)
    take(game, y, b, 20)
    take(game, x, y, 10, 10, 10)
    assert x.owner is y
    take(game, x, a, 10, 10)
    assert x.owner is a
    assert any(s.president for s in a.shares_of("X"))
    assert a.percent_of("X") == 40 and y.percent_of("X") == 30
    assert sum(x.share_holders.values()) == 100


def test_ties_keep_the_president_and_go_to_the_nearest_seat_first() -> None:
    """common rules §6.6: a tie keeps the president; among new candidates the one sitting
    closest after the old president wins, players before corporations (rules/1841.md: its
    distance counts players from the old president, then corporations)."""
    game = new_game()
    a, _, c, d = game.players
    x, y = game.corporation("X"), game.corporation("Y")
    take(game, y, a, 20)
    take(game, x, c, 20)
    take(game, x, y, 10, 10)  # 20 % each: the tie keeps C
    assert x.owner is c
    # C leaves; D (seat after C) and Y (a corporation) tie at 20 %: the seat decides
    take(game, x, d, 10, 10)
    sold = [s for s in c.shares_of("X")]
    game.transfer_shares(Bundle.of(sold, x), game.pool)
    assert x.owner is d
    assert game.president_distance(d, a) < game.president_distance(d, y)


def test_players_only_title_never_makes_a_corporation_president() -> None:
    """common rules §6.6 (1849, 1835): only players are candidates by default; a
    corporation's holding neither presides nor counts as sold."""
    game = new_game(PlayersOnlyGame)
    a = game.players[0]
    x, y = game.corporation("X"), game.corporation("Y")
    take(game, x, a, 20)
    take(game, x, y, 10, 10, 10)
    assert x.owner is a
    take(game, x, a, *[10] * 5)
    assert not game.sold_out(x)  # Y's 30 % are not in a player's hands
    game.transfer_shares(Bundle.of(list(y.shares_of("X")), x), a)
    assert game.sold_out(x)


def test_sold_out_counts_every_holder_that_may_preside() -> None:
    """common rules §6.5 (end of stock round) with rules/1841.md 2.2.2: sold out when no
    certificate is in the treasury or the pool; a corporation's holding counts where
    corporations may preside."""
    game = new_game()
    a = game.players[0]
    x, y = game.corporation("X"), game.corporation("Y")
    take(game, x, a, 20, 10, 10, 10, 10)
    take(game, x, y, 10, 10, 10)
    assert not game.sold_out(x)
    take(game, x, a, 10)
    assert game.sold_out(x)
    move_share(a.shares_of("X")[-1], game.pool)
    assert not game.sold_out(x)


def test_holding_limit_is_the_titles_number() -> None:
    """common rules §6.6 (60 % by default, ``max_ownership_percent``); rules/1835.md 1: no
    holding limit in 1835; a corporation's own treasury never counts."""
    game = new_game(PlayersOnlyGame)
    a = game.players[0]
    x = game.corporation("X")
    take(game, x, a, 20, 10, 10, 10)
    assert game.holding_ok(a, x, 10) and not game.holding_ok(a, x, 20)
    assert game.holding_ok(x, x, 100)
    g35 = ApiGame.create("1835", [(1, "A"), (2, "B"), (3, "C")], [], 1).engine
    assert g35.max_holding_percent == 100
    assert g35.holding_ok(g35.players[0], g35.corporation("BY"), 100)


def test_holding_limit_counts_what_the_controlling_player_controls() -> None:
    """rules/1841.md 1.2, 2.2.1: the 60 % cap is counted for the controlling player: his own
    shares plus all shares held by corporations he controls."""
    game = new_game()
    a = game.players[0]
    x, y = game.corporation("X"), game.corporation("Y")
    take(game, y, a, 20)
    take(game, x, a, 20, 10, 10)
    take(game, x, y, 10, 10)
    assert game.controlled_percent(a, x) == 60 == game.controlled_percent(y, x)
    assert not game.holding_ok(a, x, 10)
    assert not game.holding_ok(y, x, 10)
    assert game.holding_ok(game.players[1], x, 10)


def test_certificate_limits_are_counted_per_holder() -> None:
    """rules/1841.md 1.2: a player's limit from the table, a corporation's own limit (5) for
    certificates of other corporations; its own treasury does not count."""
    game = new_game()
    a = game.players[0]
    x, y, z = (game.corporation(s) for s in "XYZ")
    take(game, x, a, 20, 10)
    take(game, y, x, 20, 10, 10)
    take(game, z, x, 20, 10)
    assert game.num_certs(a) == 2 and game.cert_limit(a) == 16
    assert game.num_certs(x) == 5 and game.cert_limit(x) == 5
    assert not game.within_cert_limit(x) and game.within_cert_limit(a)


def test_who_may_sell_is_decided_on_holders() -> None:
    """common rules §6.6 and rules/1841.md 2.3.8: players and corporations sell what they
    hold; a corporation's own treasury is issued, not sold; the pool sells nothing."""
    game = new_game()
    a = game.players[0]
    x, y = game.corporation("X"), game.corporation("Y")
    take(game, x, a, 20, 10)
    take(game, x, y, 10)
    assert game.may_sell(a, Bundle.of(a.shares_of("X")[-1:], x))
    assert game.may_sell(y, Bundle.of(y.shares_of("X"), x))
    assert not game.may_sell(x, Bundle.of(x.treasury_shares()[:1], x))
    assert not game.may_sell(a, Bundle.of(y.shares_of("X"), x))
    move_share(y.shares_of("X")[0], game.pool)
    assert not game.may_sell(game.pool, Bundle.of(game.pool.shares_of("X"), x))


def test_share_unit_is_declared_not_the_second_certificate() -> None:
    """rules/1835.md 1, 10: 1835's companies have unequal certificates (MS 20/20/20/10...,
    PR 10 % and 5 %); the ordinary share unit is the smallest ordinary certificate, a minor's
    its only certificate."""
    engine = ApiGame.create("1835", [(1, "A"), (2, "B"), (3, "C")], [], 1).engine
    assert engine.corporation("MS").share_unit == 10
    assert engine.corporation("PR").share_unit == 5
    assert engine.corporation("BY").share_unit == 10
    assert engine.corporation("M1").share_unit == 100
    declared = Corporation("Q", "Q", [20, 20, 20, 20, 20], 2, 60, None, share_unit=10)
    assert declared.share_unit == 10 and declared.total_shares == 10


def test_reissue_keeps_every_holders_percent() -> None:
    """rules/1841.md 2.3.11-2.3.12: a corporation's certificates may be replaced during play;
    every holder keeps its percentage on new certificates, the president the president's
    certificate, and the new set totals 100 %."""
    game = new_game()
    a, b = game.players[0], game.players[1]
    x = game.corporation("X")
    take(game, x, a, 20, 10, 10)
    take(game, x, b, 10, 10)
    move_share(x.treasury_shares()[0], game.pool)
    before = {h: p for h, p in x.share_holders.items()}
    old = list(x.certificates)
    new = reissue(x, [40, 20, 20, 10, 10])
    assert x.share_holders == before
    assert sum(s.percent for s in x.certificates) == 100
    assert x.presidents_share is new[0] and new[0].owner is a
    assert all(s.owner is None for s in old)
    assert {s.index for s in new}.isdisjoint({s.index for s in old})
    assert x.share_unit == 10 and x.president_percent == 40
    assert game.share_by_id(new[1].id) is new[1]
    with pytest.raises(IllegalAction):
        game.share_by_id(old[1].id)


def test_reissue_at_half_the_percentages_and_refusal_changes_nothing() -> None:
    """rules/1841.md 2.3.12: a minor's 40 % president's certificate becomes a major's 20 %,
    each 20 % share one 10 % share (half the percentage); what cannot be matched is refused
    before anything moves."""
    game = new_game()
    a, b = game.players[0], game.players[1]
    m = Corporation("M", "M", list(MINOR), 1, 20, None)
    game.corporations.append(m)
    take(game, m, a, 40)
    take(game, m, b, 20)
    register = list(m.certificates)
    with pytest.raises(IllegalAction):
        reissue(m, [50, 25, 25])  # A's 40 % cannot carry a 50 % president's certificate
    assert m.certificates == register and a.percent_of("M") == 40
    reissue(m, list(MAJOR), scale=Fraction(1, 2))
    assert a.percent_of("M") == 20 and b.percent_of("M") == 10 and m.percent_of("M") == 70
    assert any(s.president for s in a.shares_of("M"))


def test_retired_certificates_leave_every_holder() -> None:
    """rules/1835.md 10.3 and 1849 rules §5: a closed or exchanged corporation's
    certificates are void: out of every holder's hands and the register."""
    game = new_game()
    a = game.players[0]
    x = game.corporation("X")
    take(game, x, a, 20, 10)
    retire_certificates(x)
    assert not x.certificates and "X" not in a.shares and x.share_holders == {}
    assert a.percent_of("X") == 0


PERCENT_SETS = [MAJOR, MINOR, [20, 20, 20, 10, 10, 10, 10], [10] * 8 + [5] * 4, [100]]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 9)),
        max_size=60,
    )
)
def test_share_owner_agrees_with_every_index(moves: list[tuple[int, int, int]]) -> None:
    """common rules §6.6: every certificate has exactly one owner.  After any sequence of
    moves, reissues and retirements ``Share.owner`` agrees with every holder's index and the
    corporations' registers, and each corporation's certificates in play sum to 100 %."""
    game = new_game(OwnedCorporationsGame, "X", "Y")
    for i, percents in enumerate(PERCENT_SETS[1:]):
        game.corporations.append(Corporation(f"C{i}", f"C{i}", list(percents), 1, 20, None))
    pool: SharePool = game.pool
    holders: list[Holder] = [*game.players, *game.corporations, pool, game.bank]
    for pick, target, kind in moves:
        corp = game.corporations[pick % len(game.corporations)]
        if kind == 0 and corp.certificates:
            with contextlib.suppress(IllegalAction):
                reissue(corp, list(PERCENT_SETS[target % len(PERCENT_SETS)]))
        elif kind == 1 and target % 7 == 0:
            retire_certificates(corp)
        elif corp.certificates:
            share = corp.certificates[target % len(corp.certificates)]
            move_share(share, holders[(pick // 7) % len(holders)])
    registered = {id(s) for c in game.corporations for s in c.certificates}
    for holder in holders:
        for sym, shares in holder.shares.items():
            for share in shares:
                assert share.owner is holder and share.corporation == sym
                assert id(share) in registered
    for corp in game.corporations:
        for share in corp.certificates:
            assert share.owner is not None
            assert any(s is share for s in share.owner.shares_of(corp.sym))
        if corp.certificates:
            assert sum(s.percent for s in corp.certificates) == 100
            assert sum(h.percent_of(corp.sym) for h in holders) == 100
        for holder, percent in corp.share_holders.items():
            assert holder.percent_of(corp.sym) == percent


def test_a_presidents_sale_asks_who_may_preside() -> None:
    """common rules §6.6 (ShareBundle#can_dump?): the president's certificate goes to the
    pool only if another holder *who may preside* (the title's ``may_preside``) has as
    much; an emergency sale keeps the presidency against those holders only."""
    from stellwerk.core.shares import can_dump, keeps_presidency

    for cls, counted in ((OwnedCorporationsGame, True), (PlayersOnlyGame, False)):
        game = new_game(cls)
        a = game.players[0]
        x, y = game.corporation("X"), game.corporation("Y")
        take(game, x, a, 20, 10)
        take(game, x, y, 10, 10, 10)
        assert x.owner is a  # a tie keeps the president
        president = Bundle.of([s for s in a.shares_of("X") if s.president], x)
        assert can_dump(president, a, game) is counted
        assert keeps_presidency(Bundle.of(a.shares_of("X")[-1:], x), a, game) is not counted
        assert can_dump(president, a)  # without rules: players and other corporations


def test_the_controlling_player_pays_for_a_train_of_a_corporation_he_controls() -> None:
    """common rules §6 (emergency train purchase), rules/1841.md 2.3.9: the player who
    controls the buying corporation - through the corporation presiding over it - adds the
    money and is the one who may sell shares for it."""
    from stellwerk.core.flow.base import Round
    from stellwerk.core.flow.operating import BuyTrain
    from stellwerk.core.trains import Train

    class MustBuy(BuyTrain):
        """The step, and once ``forced`` is set, as it is when the corporation must buy a
        train and its president may help (overridden in the class body: a compiled core has
        no methods set on an instance)."""

        forced = False

        def must_buy(self, corp: Corporation) -> bool:
            return self.forced or super().must_buy(corp)

        def president_may_help(self, corp: Corporation, train: Train) -> bool:
            return self.forced or super().president_may_help(corp, train)

    game = new_game()
    b = game.players[1]
    x, y = game.corporation("X"), game.corporation("Y")
    take(game, x, game.players[0], 20)
    take(game, y, b, 20)
    take(game, x, y, 10, 10, 10)
    assert x.owner is y and controller(x) is b
    rnd = Round.__new__(Round)  # only what the step reads: its entities and game
    rnd.entities, rnd.entity_index, rnd.game = [x], 0, game
    step = MustBuy(game, rnd)
    assert step.paying_player(x) is b
    assert step.actions(b) == ["sell_shares"]
    assert step.actions(game.players[0]) == []
    step.forced = True
    b.cash, x.cash = 100, 0
    step.president_adds(x, Train.__new__(Train), 60)
    assert (b.cash, x.cash, y.cash) == (40, 60, 0)


def test_set_president_is_the_one_way_a_title_changes_a_presidency() -> None:
    """common rules §6.6: outside a share transfer a title changes a president only through
    ``Game.set_president``, which tells it in the journal; no title module sets a
    corporation's owner itself (1835's dump, bankruptcy and Prussian director included; 1841's
    mergers, transformations, secession, emergency sales, bankruptcy and closings too, where
    any ``.owner =`` but a train's, company's or share's is a corporation's)."""
    import re
    from pathlib import Path

    from stellwerk.core.events import PresidentChanged

    game = new_game()
    a, b = game.players[0], game.players[1]
    x = game.corporation("X")
    take(game, x, a, 20)
    before = len(game.journal)
    game.set_president(x, b)
    assert x.owner is b
    assert game.journal[before:] == [PresidentChanged("X", ("player", a.id), ("player", b.id))]
    game.set_president(x, b)
    assert len(game.journal) == before + 1  # no change, nothing told
    titles = Path(__file__).resolve().parents[3] / "src" / "stellwerk" / "titles"
    pattern = re.compile(r"\b(corp|corporation|major|minor|pr|target|parent)\.owner = ")
    found = [
        f"{path.name}:{n}"
        for title in ("g1835", "g1849")
        for path in (titles / title).rglob("*.py")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    anything = re.compile(r"\b(?!train\b|company\b|share\b)\w+\.owner = ")
    found += [
        f"{path.name}:{n}"
        for path in (titles / "g1841").rglob("*.py")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if anything.search(line)
    ]
    assert found == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=7), min_size=3, max_size=3))
def test_controller_is_the_end_of_the_chain_of_control(owners: list[int]) -> None:
    """rules/1841.md 2.3.9: the controlling player is where the chain of control ends, for
    any presidents -- players, corporations (chains and loops), the pool, nobody; the walk
    that does not list the chain (asked after every action) answers the same."""
    game = new_game()
    corps = [game.corporation(s) for s in "XYZ"]
    choices: list[Holder | None] = [*game.players[:3], *corps, game.pool, None]
    for corp, pick in zip(corps, owners, strict=True):
        corp.owner = choices[pick]
    for corp in corps:
        last = chain_of_control(corp)[-1]
        assert controller(corp) is (last if isinstance(last, Player) else None)
        assert is_circular(corp) == isinstance(last, Corporation)
