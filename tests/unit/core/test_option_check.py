"""Common rules §3.1: a game is set up with a player count and options its title declares;
the core checks any title's declarations the same way (here a made-up title)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.core.options import check_setup


@dataclass(frozen=True)
class Decl:
    id: str
    players: tuple[int, ...] = (3, 4)
    requires: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()


DECLARED = {
    d.id: d
    for d in (
        Decl("a"),
        Decl("b", requires=("a",)),
        Decl("c", conflicts=("a",)),
        Decl("four", players=(4,)),
    )
}


def check(players: int, chosen: list[str]) -> None:
    check_setup("18XX", players, (3, 4), "count rule", chosen, DECLARED, "option rule")


@pytest.mark.parametrize(
    ("players", "chosen", "message", "rule"),
    [
        (5, [], "18XX is for 3 to 4 players, not 5", "count rule"),
        (3, ["z"], "unknown 18XX option 'z'; the options are: a, b, c, four", "option rule"),
        (3, ["four"], "option four is for 4 players, not 3", "option rule"),
        (3, ["b"], "option b needs a", "option rule"),
        (3, ["c", "a"], "options c and a exclude each other", "option rule"),
    ],
)
def test_refusals_name_the_allowed_values(
    players: int, chosen: list[str], message: str, rule: str
) -> None:
    with pytest.raises(IllegalAction) as refused:
        check(players, chosen)
    assert (refused.value.reason, refused.value.rule) == (message, rule)


def test_a_declared_set_passes() -> None:
    check(4, ["a", "b", "four"])
