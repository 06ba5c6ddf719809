"""Pickling and copying of engine objects whose class mypyc may compile.

The engine is pickled for checkpoints and deep-copied for trial moves.  In pure Python an
engine object keeps its attributes in its ``__dict__`` and pickle copies that.  A class
compiled by mypyc (an optional build, see MYPYC_REPORT.md) keeps the attributes it declares in
native slots, listed in the class's ``__mypyc_attrs__``; mypyc's own ``__getstate__`` copies
only those, so the attributes an interpreted subclass adds (a title's game, steps and rounds
subclass the core's) would be lost.  The core classes with subclasses in other modules answer
pickle with :func:`state_of` and :func:`set_state`, which copy both.

Without mypyc (no ``__mypyc_attrs__``) both do what pickle does by default: the state is the
instance's ``__dict__`` and restoring updates it.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


def state_of(obj: object) -> dict[str, object]:
    """``obj.__getstate__()``: its ``__dict__``, plus its native attributes when compiled."""
    names: tuple[str, ...] | None = getattr(type(obj), "__mypyc_attrs__", None)
    found: dict[str, object] | None = getattr(obj, "__dict__", None)
    if names is None:
        return found if found is not None else {}
    state = dict(found) if found is not None else {}
    missing = state  # a native attribute never set is left out
    for name in names:
        if name != "__dict__":
            value = getattr(obj, name, missing)
            if value is not missing:
                state[name] = value
    return state


def set_state(obj: object, state: dict[str, object]) -> None:
    """``obj.__setstate__(state)``: the attributes of :func:`state_of` set again."""
    if getattr(type(obj), "__mypyc_attrs__", None) is None:
        obj.__dict__.update(state)
        return
    for name, value in state.items():
        object.__setattr__(obj, name, value)


def fields_state(obj: DataclassInstance) -> list[object]:
    """``__getstate__`` of a frozen slotted dataclass, as ``dataclasses`` writes it (its field
    values in order); mypyc compiles such a class without that method, and its own
    ``__setstate__`` would hit the frozen class's ``__setattr__``."""
    return [getattr(obj, f.name) for f in fields(obj)]


def set_fields_state(obj: DataclassInstance, state: list[object]) -> None:
    """``__setstate__`` to :func:`fields_state`, as ``dataclasses`` writes it."""
    for f, value in zip(fields(obj), state, strict=False):
        object.__setattr__(obj, f.name, value)
