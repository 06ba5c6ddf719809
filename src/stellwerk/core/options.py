"""Checking a game's set-up against its title's declared options (common rules §3.1).

Each title declares its options once (id, label, source, player counts, prerequisites,
conflicts) in its ``options.py``; this module checks a chosen set against those declarations
and the title's player counts, the same way for every title, before any game is built.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from stellwerk.core.errors import IllegalAction


class DeclaredOption(Protocol):
    """What a title's option declaration tells the check."""

    @property
    def id(self) -> str: ...

    @property
    def players(self) -> tuple[int, ...]: ...

    @property
    def requires(self) -> tuple[str, ...]: ...

    @property
    def conflicts(self) -> tuple[str, ...]: ...


def check_setup(
    title: str,
    players: int,
    counts: Sequence[int],
    count_rule: str,
    chosen: Sequence[str],
    declared: Mapping[str, DeclaredOption],
    option_rule: str,
) -> None:
    """Refuse a player count the title does not allow (``count_rule``), then unknown options,
    options for other player counts, missing prerequisites and excluding pairs
    (``option_rule``), each with the allowed values named."""
    if players not in counts:
        raise IllegalAction(
            f"{title} is for {counts[0]} to {counts[-1]} players, not {players}", count_rule
        )
    for oid in chosen:
        option = declared.get(oid)
        if option is None:
            known = ", ".join(declared)
            raise IllegalAction(
                f"unknown {title} option {oid!r}; the options are: {known}", option_rule
            )
        if players not in option.players:
            allowed = ", ".join(str(n) for n in option.players)
            raise IllegalAction(
                f"option {oid} is for {allowed} players, not {players}", option_rule
            )
        for needed in option.requires:
            if needed not in chosen:
                raise IllegalAction(f"option {oid} needs {needed}", option_rule)
        for other in option.conflicts:
            if other in chosen:
                raise IllegalAction(f"options {oid} and {other} exclude each other", option_rule)
