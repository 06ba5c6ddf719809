"""A merger's choices tried on a light copy of the game (``titles/g1841/trial.py``; rules/1841.md
2.3.11, seed 000 items 3.1, 3.6) give the answers a whole copy gives, and a try changes nothing
of the game, shared parts included.

The light copy shares the board, the graphs, the data and the round with the game and copies
the ownership side; a merger tried on it stops where the exchange's outcome is judged.  The
reference is the former way: the whole game deep-copied and the merger run to its end."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stellwerk.api import Game
from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.titles.g1841 import merger, trial
from stellwerk.titles.g1841.game import Game1841

from .traced import game_before

SHARED_DIR = Path(__file__).resolve().parents[3] / ".." / "shared"
FIXTURES = SHARED_DIR / "fixtures" / "18xx.games" / "1841"
NAMES = ["1841_game_end_bank", "1841_game_end_bankrupt", "1841_game_end_offboards"]


def whole_copy(game: Game1841, *extra: Any) -> tuple[Game1841, list[Any]]:
    """The reference try: every part of the game copied (``shares_board`` stays False, so a
    merger tried on it runs through its token stage, as before the light copy)."""
    copied, others = copy.deepcopy((game, list(extra)))
    return copied, others


def fingerprint(game: Game1841) -> tuple[Any, ...]:
    """What a try must leave as it was: the board (tiles, tokens, version), both graphs'
    stamps, every holder's certificates and cash, prices, presidents, the journal's length
    and the queued procedures."""
    board = game.map.board
    tiles = tuple(
        (hid, state.tile.name, state.rotation, tuple(tuple(c.tokens) for c in state.cities))
        for hid, state in sorted(board.hexes.items())
    )
    holders: list[Any] = [*game.all_players, *game.corporations, game.pool]
    owned = tuple(
        (h.name, getattr(h, "cash", None), tuple(sorted(s.id for s in h.all_shares())))
        for h in holders
    )
    corps = tuple(
        (
            c.sym,
            c.share_price.id if c.share_price else None,
            c.owner.name if c.owner else None,
            c.ipoed,
            c.closed,
            c.num_tokens,
            tuple(t.id for t in c.trains),
        )
        for c in game.corporations
    )
    return (
        tiles,
        board.version,
        game.memo_cache.stamp,
        owned,
        corps,
        game.bank.cash,
        len(game.journal),
        repr(game.procedures),
    )


def positions(name: str, every: int) -> Iterator[Game]:
    """The game after each action of fixture ``name`` where listing the legal actions tries a
    merger's choice (the first and every ``every``-th after it)."""
    path = FIXTURES / f"{name}.json"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    game_file = load_game_file(read_game_file(path))
    game = Game.create(game_file.title, game_file.players, game_file.optional_rules, game_file.seed)
    tries = [0]
    light = merger.light_copy

    def counted(game: Game1841, *extra: Any) -> tuple[Game1841, list[Any]]:
        tries[0] += 1
        return light(game, *extra)

    found = 0
    for action in game_file.live:
        game.process(action, replay=True)
        before = tries[0]
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(merger, "light_copy", counted)
            game.legal_actions()
        if tries[0] > before:
            found += 1
            if found % every == 1 % every:
                yield game
    assert found > 0


def compare_at(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = game.engine  # taking it forgets every remembered answer
    assert isinstance(engine, Game1841)
    before = fingerprint(engine)
    light = game.legal_actions()
    assert fingerprint(engine) == before
    game.engine  # noqa: B018 -- forget the remembered answers
    with monkeypatch.context() as patch:
        patch.setattr(merger, "light_copy", whole_copy)
        whole = game.legal_actions()
    game.engine  # noqa: B018
    assert light == whole
    assert fingerprint(engine) == before


@pytest.mark.parametrize("name", NAMES)
def test_rules_2_3_11_light_tries_list_what_whole_copies_list(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rules/1841.md 2.3.11, seed 000 items 3.1, 3.6: at positions of the recorded games where
    the listing tries mergers (partners, targets, exchange answers), the legal actions found
    with light copies are those found with whole copies, and the game is unchanged (the
    first and every 25th such position: a whole copy is dear; all of them with ``--slow``)."""
    for game in positions(name, 25):
        compare_at(game, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_rules_2_3_11_light_tries_at_every_merger_position(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As above, at every position of the recorded games where a merger's choice is tried."""
    for game in positions(name, 1):
        compare_at(game, monkeypatch)


def test_light_copy_shares_the_board_and_copies_the_holders() -> None:
    """The light copy (trial.py) shares exactly the parts named in ``SHARED`` and copies the
    holders: a change to a copied holder leaves the game as it was."""
    game = Game1841([(i, f"p{i}") for i in range(1, 5)], [], 7)
    twin, _ = trial.light_copy(game)
    assert twin.shares_board and not game.shares_board
    for name in trial.SHARED:
        assert getattr(twin, name) is getattr(game, name), name
    assert twin.players[0] is not game.players[0]
    assert twin.corporations[0] is not game.corporations[0]
    assert twin.journal == game.journal and twin.journal is not game.journal
    before = fingerprint(game)
    twin.players[0].cash += 100
    twin.corporations[0].closed = True
    twin.journal.append(game.journal[-1] if game.journal else None)  # type: ignore[arg-type]
    assert fingerprint(game) == before
    assert game.players[0].cash + 100 == twin.players[0].cash


def test_rules_2_3_11_a_try_on_a_light_copy_stops_before_the_tokens() -> None:
    """rules/1841.md 2.3.11: a merger tried on a light copy ends, once the exchange has been
    judged, in the stage ``judged`` without touching the (shared) board; the same merger on
    a whole copy goes on to its token stage.  Fixture 1841_game_end_bank action 496: SFTG
    and IFAI may merge."""
    game = game_before("1841_game_end_bank", 496)
    sftg, ifai = game.corporation("SFTG"), game.corporation("IFAI")
    target = merger.targets(game)[0]
    assert merger.can_begin(game, sftg, ifai, target)
    decider = merger.controller(sftg)
    assert decider is not None
    before = fingerprint(game)
    light, _ = trial.light_copy(game)
    la, lb, lt = (light.corporation(s) for s in ("SFTG", "IFAI", target.sym))
    tried = merger.begin(light, la, lb, lt, merger.ref(decider))
    assert tried.answer_through(light, merger.ANSWER_ORDERS[0])
    assert tried.judged()
    assert fingerprint(game) == before
    whole, _ = whole_copy(game)
    wa, wb, wt = (whole.corporation(s) for s in ("SFTG", "IFAI", target.sym))
    full = merger.begin(whole, wa, wb, wt, merger.ref(decider))
    assert full.answer_through(whole, merger.ANSWER_ORDERS[0])
    assert full.removing_tokens() or full.done()
