"""What the selfplay fuzz explores (scripts/fuzz_selfplay.py, tests/properties/): every title's
option sets worth playing and the player counts each allows.  Test tooling, not part of the
product: it reads the titles only through their declarations in the registry."""

from __future__ import annotations

from collections.abc import Callable

from stellwerk.titles.registry import TITLES, declared

OPTIONS_1841 = ("lite", "version_1", "p2p_purchases", "sfli_run_variant")
"""18xx.games' four optional rules of 1841 (rules/1841.md §4), which its engine replays; the
seed options (§6) have no counterpart there."""


def _with_requirements(title: str, oid: str) -> tuple[str, ...]:
    """``oid`` with every option it requires, sorted."""
    options = declared(title).options
    needed: list[str] = []
    pending = [oid]
    while pending:
        current = pending.pop()
        if current not in needed:
            needed.append(current)
            pending.extend(options[current].requires)
    return tuple(sorted(needed))


def option_sets_1849() -> list[tuple[str, ...]]:
    """No options, each declared option alone (with what it requires), and a few mixes."""
    sets: list[tuple[str, ...]] = [()]
    sets += [_with_requirements("1849", oid) for oid in declared("1849").options]
    sets += [
        ("bank_8040", "delay_ift", "gauge_change_cities_only", "private_price_half_to_double"),
        ("bond_penalty_floor_zero", "bonds", "end_after_current_or"),
        tuple(sorted(declared("1849").options)),
    ]
    return list(dict.fromkeys(sets))


def option_sets_1835() -> list[tuple[str, ...]]:
    """Each start variant alone, each other option alone, and each variant with every other
    option that does not conflict."""
    options = declared("1835").options
    variants = ("standard", "snake", "clemens")
    others = [oid for oid in options if oid not in variants]
    sets: list[tuple[str, ...]] = [(v,) for v in variants]
    sets += [(oid,) for oid in others]
    for variant in variants:
        chosen: list[str] = [variant]
        for oid in others:
            if not any(c in options[oid].conflicts for c in chosen):
                chosen.append(oid)
        sets.append(tuple(chosen))
    return sets


def option_sets_1841() -> list[tuple[str, ...]]:
    """No options, each of 18xx.games' four alone, the pairs with ``version_1`` or ``lite``
    and all four (18xx.games checks no combination of them, rules/1841.md §4)."""
    sets: list[tuple[str, ...]] = [()]
    sets += [(oid,) for oid in OPTIONS_1841]
    sets += [
        ("lite", "version_1"),
        ("p2p_purchases", "version_1"),
        ("sfli_run_variant", "version_1"),
        ("lite", "p2p_purchases"),
        ("lite", "sfli_run_variant"),
        tuple(sorted(OPTIONS_1841)),
    ]
    return sets


OPTION_SETS: dict[str, Callable[[], list[tuple[str, ...]]]] = {
    "1849": option_sets_1849,
    "1835": option_sets_1835,
    "1841": option_sets_1841,
}

TITLE_IDS = tuple(OPTION_SETS)
"""The titles the fuzz knows."""


def allowed_players(title: str, options: tuple[str, ...]) -> list[int]:
    """Player counts the title (its ``data/game.toml``) and every chosen option allow."""
    chosen = declared(title)
    return [
        n
        for n in TITLES[title].player_counts()
        if all(n in chosen.players_of(chosen.options[o]) for o in options)
    ]


def cases(titles: list[str]) -> list[tuple[str, tuple[str, ...], int]]:
    """Every (title, option set, player count) the fuzz covers."""
    found: list[tuple[str, tuple[str, ...], int]] = []
    for title in titles:
        for options in OPTION_SETS[title]():
            for players in allowed_players(title, options):
                found.append((title, options, players))
    return found
