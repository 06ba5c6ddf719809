"""Options that run: declared once as data, checked, and applied in one place (common rules §3.1).

A title declares each of its options once, in its ``options.py``, as an :class:`Option`: id,
label, source (rulebook section, seed item or the other engine's name), the player counts it
is for, the options it needs, excludes or implies, and its **effects**.  An effect is one of
two kinds:

* :class:`Hook` -- a named rule hook (a function or strategy object) is replaced;
* :class:`Data` -- a named rule datum (a number, a flag, a table, which extra trains are in
  play) takes another value.

Both name a field of the title's typed **settings** object, a frozen dataclass whose defaults
are the printed rules (the hooks and data the game is built with).  :func:`apply_options`
is the one function that turns a chosen option list into that object; rule code reads only
its fields (rule names such as ``e_trains_per_corporation``), never an option id, and a test
enforces that for every title (``tests/unit/core/test_option_declarations.py``).

An option with no effects of its own that implies others is a preset (for instance a group's
house rules); an option's ``players`` may narrow the title's player counts or admit others
(a variant for fewer players).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from stellwerk.core.errors import IllegalAction

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    S = TypeVar("S", bound=DataclassInstance)
else:
    S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Hook:
    """Replace the rule hook ``slot`` of the settings by ``value`` (a module-level function or
    a strategy object, so that engine checkpoints can pickle it)."""

    slot: str
    value: Callable[..., object]


@dataclass(frozen=True, slots=True)
class Data:
    """Set the rule datum ``key`` of the settings to ``value``."""

    key: str
    value: object


Effect = Hook | Data


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a title, declared once.

    ``players``: the player counts the option is for (``None``: every count the game allows);
    a count outside the title's own counts is admitted when a chosen option lists it.
    ``requires``: options that must be chosen too.  ``conflicts``: options that may not be
    chosen with it (either side may declare the pair).  ``implies``: options chosen with it
    (a preset).  ``aliases``: its names in other engines' files, ``"Engine:name=value"``.
    ``default``: the option names a rule the title plays by default (a rulebook lists it as
    "on"): its effects restate the default settings, so choosing it changes nothing but says
    so, and it conflicts with the option that switches that rule off."""

    id: str
    label: str
    source: str
    effects: tuple[Effect, ...] = ()
    note: str = ""
    players: tuple[int, ...] | None = None
    requires: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()
    implies: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    default: bool = False


def declare(*options: Option) -> dict[str, Option]:
    """A title's options by id, in declaration order.  Refuses (``ValueError``, a defect of the
    declaration) an id declared twice and prerequisites, conflicts or implied options that are
    not declared."""
    declared: dict[str, Option] = {}
    for option in options:
        if option.id in declared:
            raise ValueError(f"option {option.id} is declared twice")
        declared[option.id] = option
    for option in options:
        for other in (*option.requires, *option.conflicts, *option.implies):
            if other not in declared:
                raise ValueError(f"option {option.id} names the undeclared option {other}")
    return declared


def expand(declared: Mapping[str, Option], chosen: Iterable[str]) -> tuple[str, ...]:
    """The chosen options followed by the ones they imply (presets), each once, in order."""
    out: list[str] = []
    pending = list(reversed(list(chosen)))
    while pending:
        oid = pending.pop()
        if oid in out:
            continue
        out.append(oid)
        option = declared.get(oid)
        if option is not None:
            pending.extend(reversed(option.implies))
    return tuple(out)


def check_setup(
    title: str,
    players: int,
    counts: Sequence[int],
    count_rule: str,
    chosen: Sequence[str],
    declared: Mapping[str, Option],
    option_rule: str,
) -> tuple[str, ...]:
    """Refuse unknown options, then a player count neither the title (``count_rule``) nor a
    chosen option admits, then options for other player counts, missing prerequisites and
    excluding pairs (``option_rule``), each with the allowed values named.  Returns the chosen
    options with the ones they imply."""
    for oid in chosen:
        if oid not in declared:
            known = ", ".join(declared)
            raise IllegalAction(
                f"unknown {title} option {oid!r}; the options are: {known}", option_rule
            )
    active = expand(declared, chosen)
    options = [declared[oid] for oid in active]
    admitted = any(o.players is not None and players in o.players for o in options)
    if players not in counts and not admitted:
        raise IllegalAction(
            f"{title} is for {counts[0]} to {counts[-1]} players, not {players}", count_rule
        )
    for option in options:
        if option.players is not None and players not in option.players:
            allowed = ", ".join(str(n) for n in option.players)
            raise IllegalAction(
                f"option {option.id} is for {allowed} players, not {players}", option_rule
            )
        for needed in option.requires:
            if needed not in active:
                raise IllegalAction(f"option {option.id} needs {needed}", option_rule)
        for other in option.conflicts:
            if other in active:
                raise IllegalAction(
                    f"options {option.id} and {other} exclude each other", option_rule
                )
    return active


def apply_options(
    declared: Mapping[str, Option],
    chosen: Iterable[str],
    base: S,
    rule: str = "common rules §3.1",
) -> S:
    """The settings a game is built with: ``base`` (the printed rules) with the effects of the
    chosen options and of the options they imply, the one place options take effect.

    Refuses (``ValueError``, a defect of the declaration) an effect on a field the settings do
    not have, a hook replaced by something not callable, a datum of another type than its
    default, and two chosen options giving one field different values (``IllegalAction``:
    they exclude each other; ``rule`` is the title's option rule)."""
    fields = {f.name for f in dataclasses.fields(base)}
    changes: dict[str, object] = {}
    by: dict[str, str] = {}
    for oid in expand(declared, chosen):
        for effect in declared[oid].effects:
            name = effect.slot if isinstance(effect, Hook) else effect.key
            if name not in fields:
                raise ValueError(f"option {oid}: {type(base).__name__} has no field {name}")
            current = getattr(base, name)
            _check_kind(oid, name, effect, current)
            if name in changes and changes[name] != effect.value:
                raise IllegalAction(
                    f"options {by[name]} and {oid} exclude each other (both change {name})",
                    rule,
                )
            changes[name] = effect.value
            by[name] = oid
    return dataclasses.replace(base, **changes) if changes else base


def _check_kind(oid: str, name: str, effect: Effect, current: object) -> None:
    if isinstance(effect, Hook):
        if not callable(effect.value) or not (current is None or callable(current)):
            raise ValueError(f"option {oid}: {name} is not a hook")
        return
    if callable(current) and not isinstance(current, type):
        raise ValueError(f"option {oid}: {name} is a hook, not a datum")
    if current is not None and effect.value is not None and type(effect.value) is not type(current):
        raise ValueError(
            f"option {oid}: {name} is a {type(current).__name__}, "
            f"not a {type(effect.value).__name__}"
        )


@dataclass(frozen=True)
class Declared(Generic[S]):
    """A title's options and what they apply to: ``base``, the settings of the printed rules;
    ``counts``, the title's player counts (read from its data on first use); ``count_rule``
    and ``option_rule``, the rules a refusal names."""

    title: str
    options: Mapping[str, Option]
    base: S
    counts: Callable[[], tuple[int, ...]]
    count_rule: str
    option_rule: str

    def players_of(self, option: Option) -> tuple[int, ...]:
        """The player counts an option is for."""
        return option.players if option.players is not None else self.counts()

    def check(self, chosen: Iterable[str], players: int) -> tuple[str, ...]:
        """:func:`check_setup` with this title's declarations; the active options."""
        return check_setup(
            self.title,
            players,
            self.counts(),
            self.count_rule,
            list(chosen),
            self.options,
            self.option_rule,
        )

    def settings(self, chosen: Iterable[str], players: int) -> S:
        """The checked set-up's settings (:func:`apply_options`)."""
        active = self.check(chosen, players)
        return apply_options(self.options, active, self.base, self.option_rule)
