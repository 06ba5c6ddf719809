"""Engine checkpoints: undo and refusals restore a saved state instead of replaying the game.

Undo restores a snapshot (kept every few actions); it does not replay the game.  A
checkpoint is the pickled engine after ``count`` actions.  Restoring loads the nearest
checkpoint at or before the wanted action count and replays the few actions after it
(at most ``every - 1`` while the checkpoints are dense), so the cost does not grow with the
length of the game.

Immutable shared data (map and tile specifications, title data: instances of frozen slotted
dataclasses) is not copied into a checkpoint: the pickler refers to those objects by
identity and the unpickler hands back the very same objects.  This keeps checkpoints small
and fast (about 2 ms to save and 2 ms to load at action 800 of a 1835 game), and keeps
identity comparisons with module-level title data true in a restored engine.
"""

from __future__ import annotations

import copy
import io
import itertools
import logging
import pickle
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from stellwerk.core.events import Event
from stellwerk.core.game import Game as CoreGame
from stellwerk.core.jsondata import JSONObject
from stellwerk.core.policy import LIVE, RECORDED

EVERY = 16
"""Actions between two checkpoints: a restore replays at most ``EVERY - 1`` actions."""

KEEP = 32
"""Checkpoints kept; an undo deeper than ``EVERY * KEEP`` actions starts from an older one or
from the beginning (correct, only slower)."""


def _is_shared(kind: type, known: dict[type, bool]) -> bool:
    """Whether instances of ``kind`` are shared immutable data (frozen slotted dataclasses).

    A class compiled by mypyc (``__mypyc_attrs__``, see ``core.native``) has no ``__slots__``
    even when its source asks for them: a compiled frozen dataclass counts as shared (the
    frozen dataclasses of the compiled modules are all slotted in their source)."""
    shared = known.get(kind)
    if shared is None:
        params = getattr(kind, "__dataclass_params__", None)
        shared = bool(
            params is not None
            and params.frozen
            and ("__slots__" in kind.__dict__ or "__mypyc_attrs__" in kind.__dict__)
        )
        known[kind] = shared
    return shared


class _Table(dict[int, object]):
    """The shared objects one :class:`Checkpoints` refers to, by id."""


_TABLES: weakref.WeakValueDictionary[int, _Table] = weakref.WeakValueDictionary()
_NEXT_TABLE = itertools.count()


def _shared(table: int, key: int) -> object:
    """Unpickling: the shared object itself (pickled by reference to its table)."""
    return _TABLES[table][key]


class _Pickler(pickle.Pickler):
    """Pickles the engine; shared immutable objects are written as a reference into ``table``
    (``reducer_override`` is not consulted for ints, strings and plain containers, which keeps
    this fast)."""

    def __init__(self, out: io.BytesIO, table: int, known: dict[type, bool]) -> None:
        super().__init__(out, protocol=pickle.HIGHEST_PROTOCOL)
        self.table_id = table
        self.table = _TABLES[table]
        self.known = known

    def reducer_override(self, obj: object) -> Any:
        """A shared object as a reference into the table, anything else ``NotImplemented``
        (pickle's protocol; typeshed types ``NotImplemented`` as ``Any``, so this stays
        ``Any``)."""
        kind = type(obj)
        shared = self.known.get(kind)  # asked for every object: the lookup inlined
        if shared is None:
            shared = _is_shared(kind, self.known)
        if shared:
            key = id(obj)
            self.table[key] = obj
            return _shared, (self.table_id, key)
        return NotImplemented


def prefix_key(actions: list[JSONObject]) -> int:
    """A fingerprint of an action list: the hash of its action ids in order.

    A checkpoint is only valid for the very actions it was taken after: undo and redo can give
    a log of the same length with other actions (a redo puts an undone action back *before* a
    chat message written after the undo), so a checkpoint is found by count and checked by
    this key."""
    return hash(tuple(action.get("id") for action in actions))


class Checkpoints:
    """Saved engine states of one game, by action count, each with the key of its prefix.

    ``table`` holds every shared object a checkpoint refers to, so the ids used as keys stay
    valid as long as this object lives.
    """

    def __init__(self, every: int = EVERY, keep: int = KEEP) -> None:
        self.every = every
        self.keep = keep
        self.saved: dict[int, tuple[int, bytes, tuple[Event, ...]]] = {}
        """count -> (prefix key, pickled engine, its journal).  The journal (``Game.journal``)
        is the longest part of the state and only grows, by immutable events: it is kept as a
        tuple of the very event objects rather than pickled (pickling it cost as much as the
        rest of the engine, and grew with the game)."""
        self.table = _Table()
        self.table_id = next(_NEXT_TABLE)
        _TABLES[self.table_id] = self.table
        self.known: dict[type, bool] = {}

    def save(self, actions: list[JSONObject], engine: CoreGame) -> None:
        """Save ``engine`` as the state after ``actions``; forget the oldest beyond ``keep``."""
        count = len(actions)
        out = io.BytesIO()
        journal = engine.journal
        engine.journal = []  # kept beside the pickle (see ``saved``), not in it
        try:
            _Pickler(out, self.table_id, self.known).dump(engine)
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            # an engine holding an unpicklable object (a lambda): restores replay further back
            logging.getLogger(__name__).warning("no checkpoint after %d actions: %s", count, error)
            return
        finally:
            engine.journal = journal
        self.saved[count] = (prefix_key(actions), out.getvalue(), tuple(journal))
        while len(self.saved) > self.keep:
            del self.saved[min(self.saved)]

    def due(self, count: int) -> bool:
        """Whether the state after ``count`` actions should be saved."""
        return count % self.every == 0 and count not in self.saved

    def forget_after(self, count: int) -> None:
        """Drop checkpoints of states after ``count`` actions (those actions were undone)."""
        for key in [k for k in self.saved if k > count]:
            del self.saved[key]

    def restore(self, actions: list[JSONObject], fresh: Callable[[], CoreGame]) -> CoreGame:
        """The engine after ``actions``: the nearest checkpoint plus the actions after it
        (replayed as a game file is loaded: recorded automatic actions as given)."""
        self.forget_after(len(actions))
        start = 0
        for count in sorted(self.saved, reverse=True):
            key = self.saved[count][0]
            if key == prefix_key(actions[:count]):
                start = count
                break
            del self.saved[count]  # taken after other actions: stale for this log
        if start:
            _, data, journal = self.saved[start]
            engine: CoreGame = pickle.loads(data)
            engine.journal = list(journal)
        else:
            engine = fresh()
        engine.policy = RECORDED
        for action in actions[start:]:
            engine.resume()  # nothing but actions changes the state here
            engine.process_action(action)
        engine.policy = LIVE
        return engine


E = TypeVar("E", bound=CoreGame)


def copy_engine(engine: E) -> E:
    """A copy of ``engine`` made as a checkpoint is saved and restored: pickled with the shared
    immutable data referred to, not copied, and the journal's immutable events shared in a
    list of its own.  The same state as ``copy.deepcopy`` gives (no engine class defines its
    own copying; kept answers start empty either way, ``core.kept``), at a small part of its
    cost for a long game, whose graph caches and objects a deep copy walks one by one.  An
    engine that cannot be pickled (a lambda in its state) is deep-copied."""
    points = Checkpoints(keep=1)
    out = io.BytesIO()
    journal = engine.journal
    engine.journal = []
    try:
        _Pickler(out, points.table_id, points.known).dump(engine)
        pickled = True
    except (pickle.PicklingError, TypeError, AttributeError):
        pickled = False
    finally:
        engine.journal = journal
    if not pickled:
        return copy.deepcopy(engine)
    copied: E = pickle.loads(out.getvalue())
    copied.journal = list(journal)
    return copied
