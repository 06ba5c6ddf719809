"""1849's game as built from its data stays what the engine has always built (1849 rules §1,
§7): for every player count and every option that changes the data the game reads (five
corporations at four players, the E-trains, the bank of L.8040, IFT out of the first three,
private prices), the bank, the players' cash and certificate limit, the market, the phases,
the depot's trains, the private companies and the corporations with their certificates are
the same as before the data went through ``core.schema``, pinned as one digest of their
``repr`` per game."""

from __future__ import annotations

import hashlib

import pytest

from stellwerk.titles.g1849.game import Game1849

OPTION_SETS: tuple[tuple[str, ...], ...] = (
    (),
    ("reduced_4p_corps",),
    ("acquiring_station_tokens", "bonds", "electric_dreams"),
    ("bank_8040",),
    ("delay_ift",),
    ("private_price_half_to_double",),
)
"""Every option that changes what the game reads of its data."""

DIGESTS: dict[tuple[int, tuple[str, ...]], str] = {
    (3, ()): "df3df672d07c60dea323e7eb9bf6dde42a75158bc79f810ccb9bf9ef2a10f34c",
    (3, ("reduced_4p_corps",)): "df3df672d07c60dea323e7eb9bf6dde42a75158bc79f810ccb9bf9ef2a10f34c",
    (
        3,
        ("acquiring_station_tokens", "bonds", "electric_dreams"),
    ): "245b81b6e020a06dcb610d0772ab036cd7611e5a55031dd41ab95e68ad552e0e",
    (3, ("bank_8040",)): "c28d61180dd9988bd8e72941f86de9a89093ba84024cda151237011274024a35",
    (3, ("delay_ift",)): "1c324c166801e3922267d9fc6bc698aede25058e9712dbe511116d5ab99a9479",
    (
        3,
        ("private_price_half_to_double",),
    ): "47eb7b024e59a1159c1a6b995dde7d0f3ac58468fbbf98d5ed4614aed3ffc2a6",
    (4, ()): "1c3789a1c0d712ae81063cead5b239d4edcfcdec877c54850a9f8d5a95df9e24",
    (4, ("reduced_4p_corps",)): "b79a2cc7b86fe5603953fea16ca93e7d4ea96817c1e32d656d3a880890bbe388",
    (
        4,
        ("acquiring_station_tokens", "bonds", "electric_dreams"),
    ): "5bf4c18d4a82c2718c865c6c9772d744b2e6275dbe2fa88f225c95023858a3d4",
    (4, ("bank_8040",)): "7c4f1fb954790685944ee74a770f1ed829ae4de0676bc1fbdaa574893953d685",
    (4, ("delay_ift",)): "f3057dfe88e766d7b8b952b3fc808c8b0a71f7167b04491edf4428d4ec55bdad",
    (
        4,
        ("private_price_half_to_double",),
    ): "ee925d6045b337fc440387e637b163f6ffe527e60aa6c0c0d0e9721e1322c839",
    (5, ()): "b2967b0f9e09723bc765d543101bf9875c014b5f6ffcb34e57144144031f298b",
    (5, ("reduced_4p_corps",)): "b2967b0f9e09723bc765d543101bf9875c014b5f6ffcb34e57144144031f298b",
    (
        5,
        ("acquiring_station_tokens", "bonds", "electric_dreams"),
    ): "c81dd3d28ae3e209b9fbcd00e4ea2eba6b254b62c31a1de9809ec8835b784a82",
    (5, ("bank_8040",)): "ccb6c408c3df00bc564563cd6659ea3334c80ae809db7fd85160dfb9d21c3583",
    (5, ("delay_ift",)): "01f195536a0f393fe6223a5fc64625fbcbe62e12c6cc0e1fe667d7c5f602890a",
    (
        5,
        ("private_price_half_to_double",),
    ): "eab25cca6463dc3553d6b27575a935515bef5551841e4773db3e582a874fc883",
}
"""The digests of the games built before the move, by player count and options."""


def setup_facts(game: Game1849) -> list[object]:
    """What the game built from its data, in a stable order."""
    corporations = [
        (
            c.sym,
            c.full_name,
            c.name,
            c.num_tokens,
            c.float_percent,
            c.home,
            c.token_fee,
            c.president_percent,
            c.share_unit,
            [(s.percent, s.president) for s in c.certificates],
        )
        for c in game.corporations
    ]
    return [
        game.bank.cash,
        [(p.name, p.cash, game.player_cert_limit(p)) for p in game.players],
        [
            [(c.row, c.column, c.price, sorted(c.types)) for c in row if c]
            for row in game.market.rows
        ],
        [repr(p) for p in game.phases.all],
        [repr(t) for t in game.depot.upcoming],
        [(c.sym, c.name, c.value, c.revenue, c.min_price) for c in game.companies],
        corporations,
        game.five_corps,
    ]


def digest(players: int, options: tuple[str, ...]) -> str:
    game = Game1849([(i, f"p{i}") for i in range(1, players + 1)], list(options), 1849)
    return hashlib.sha256(repr(setup_facts(game)).encode()).hexdigest()


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "+".join(o) or "printed")
def test_game_setup_is_unchanged(players: int, options: tuple[str, ...]) -> None:
    assert digest(players, options) == DIGESTS[(players, options)]
