"""1841's own events for the log (``stellwerk.core.events``): what its
procedures change that the core's events do not tell.

Each is a frozen slotted dataclass with a ``kind``; the sentences are the title's
(``wording.py``, key ``event.<kind>``), told by ``stellwerk.words``.  Corporations are named
by symbol.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from stellwerk.core.events import Event


@dataclass(frozen=True, slots=True)
class Merged(Event):
    """``a`` and ``b`` merged into ``target`` at ``price`` (rules/1841.md 2.3.11)."""

    kind: ClassVar[str] = "g1841_merged"
    a: str
    b: str
    target: str
    price: int


@dataclass(frozen=True, slots=True)
class Transformed(Event):
    """The minor ``corp`` became the major ``target`` (rules/1841.md 2.3.12)."""

    kind: ClassVar[str] = "g1841_transformed"
    corp: str
    target: str


@dataclass(frozen=True, slots=True)
class Seceded(Event):
    """The Ferdinandea Secession: ``old`` split into ``a`` and ``b`` (rules/1841.md 2.4.1)."""

    kind: ClassVar[str] = "g1841_seceded"
    old: str
    a: str
    b: str


@dataclass(frozen=True, slots=True)
class TuscanMergeStarted(Event):
    """The Tuscan Merge begins with the floated ``corps`` (rules/1841.md 2.4.2)."""

    kind: ClassVar[str] = "g1841_tuscan_started"
    corps: tuple[str, ...]
    formed: str


@dataclass(frozen=True, slots=True)
class TuscanMerged(Event):
    """The Tuscan Merge is over: ``formed`` (SFLi) exists (rules/1841.md 2.4.2)."""

    kind: ClassVar[str] = "g1841_tuscan_merged"
    formed: str


@dataclass(frozen=True, slots=True)
class TokensBought(Event):
    """``corp`` bought ``count`` station tokens for ``price`` in all (rules/1841.md 2.2.3,
    2.3.12, 2.4.1)."""

    kind: ClassVar[str] = "g1841_tokens_bought"
    corp: str
    count: int
    price: int


@dataclass(frozen=True, slots=True)
class Frozen(Event):
    """``corp``'s chain of control no longer ends at a player (rules/1841.md 2.3.9);
    ``circular`` when it loops."""

    kind: ClassVar[str] = "g1841_frozen"
    corp: str
    circular: bool


@dataclass(frozen=True, slots=True)
class Thawed(Event):
    """``corp`` is controlled by a player again (rules/1841.md 2.3.9)."""

    kind: ClassVar[str] = "g1841_thawed"
    corp: str


@dataclass(frozen=True, slots=True)
class QuestionsDropped(Event):
    """A new round began while a procedure about ``corp`` still asked: its questions (share
    offers, exchanges, token purchases) are dropped and it is never completed, as in
    18xx.games (docs/architecture.md, defect H; rules/1841.md 2.3.11, 2.3.12 would ask them
    in the turn)."""

    kind: ClassVar[str] = "g1841_questions_dropped"
    corp: str
