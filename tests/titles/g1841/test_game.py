"""Game1841's setup (rules/1841.md 1.2, 1.3) and its concession auction (2.1)."""

from __future__ import annotations

import pytest

from stellwerk.core.entities import move_share
from stellwerk.core.flow.nominated_auction import NominatedAuction
from stellwerk.core.flow.sealed_bids import SealedBids
from stellwerk.titles import registry
from stellwerk.titles.g1841.game import Game1841


def new_game(players: int, options: list[str] | None = None) -> Game1841:
    return Game1841([(i, f"p{i}") for i in range(1, players + 1)], options or [], 1)


@pytest.mark.parametrize(
    ("players", "options", "cash", "bank"),
    [(3, [], 1120, 14400), (8, [], 420, 14400), (4, ["lite"], 630, 10900)],
)
def test_bank_and_starting_cash(players: int, options: list[str], cash: int, bank: int) -> None:
    """Bank L.14,400 (lite L.10,900); each player's starting cash comes from it (1.2)."""
    game = new_game(players, options)
    assert [p.cash for p in game.players] == [cash] * players
    assert game.bank.cash == bank - cash * players


def test_certificate_limits_and_charters() -> None:
    """Cert limit by player count; majors 20 % + 8 x 10 %, minors 40 % + 3 x 20 % (1.1, 1.2);
    concessions in their fixed order."""
    game = new_game(5)
    assert game.cert_limit() == 13
    assert [s.percent for s in game.corporation("IRSFF").treasury_shares()] == [20] + [10] * 8
    assert [s.percent for s in game.corporation("SFMA").treasury_shares()] == [40, 20, 20, 20]
    assert [c.sym for c in game.companies] == [
        "Bayard", "SFLP", "SFTC", "SFMA", "SFTN", "SSFL", "SFTG", "IRSFF"
    ]  # fmt: skip


def test_auction_by_edition() -> None:
    """The second edition's nominated auction, the first edition's sealed bids (2.1)."""
    second = new_game(3).round.steps[0]
    first = new_game(3, ["version_1"]).round.steps[0]
    assert isinstance(second, NominatedAuction) and not isinstance(second, SealedBids)
    assert isinstance(first, SealedBids)
    assert second.opening_bid(second.items[0]) == 20 and second.bid_increment() == 5


def test_registered() -> None:
    assert "1841" in registry.TITLES
    assert registry.player_counts("1841") == tuple(range(3, 9))


def test_1841_is_playable() -> None:
    """A new game of 1841 is started like any registered title's (its real and random games
    of 18xx.games replay, whole selfplay games end)."""
    from stellwerk.cli.common import create_game

    players: list[tuple[int | str, str]] = [(1, "A"), (2, "B"), (3, "C")]
    assert create_game("1841", players, [], 1).title == "1841"


def test_concessions_do_not_count_against_the_certificate_limit() -> None:
    """rules/1841.md 1.2: concessions do not count towards a player's certificate limit;
    share certificates do."""
    game = new_game(3)
    player = game.players[0]
    player.companies.append(game.companies[1])
    assert game.num_certs(player) == 0
    corp = game.corporations[0]
    share = corp.treasury_shares()[-1]
    move_share(share, player)
    assert game.num_certs(player) == 1
