"""Trains in the depot, and the phases they trigger (common rules §6)."""

from __future__ import annotations

from dataclasses import dataclass, field

from mypy_extensions import mypyc_attr

from stellwerk.core.entities import Train


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass
class PhaseDef:
    name: str
    tiles: list[str]
    operating_rounds: int
    train_limit: int
    status: list[str]
    on: str | None = None


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Phases:
    """The phase track: the current phase and what starts the next one."""

    def __init__(self, phases: list[PhaseDef]) -> None:
        self.all = phases
        self.index = 0
        self._positions: dict[str, int] | None = None

    @property
    def current(self) -> PhaseDef:
        return self.all[self.index]

    @property
    def name(self) -> str:
        return self.current.name

    def next_on(self, train_name: str) -> bool:
        if self.index + 1 >= len(self.all):
            return False
        return self.all[self.index + 1].on == train_name

    def advance(self) -> None:
        self.index += 1

    def available(self, phase_name: str | None) -> bool:
        if phase_name is None:
            return False
        positions = self._positions
        if positions is None:  # the phase track is fixed once the game is set up
            positions = {}
            for i, p in enumerate(self.all):
                positions.setdefault(p.name, i)
            self._positions = positions
        position = positions.get(phase_name)
        if position is None:
            raise ValueError(f"no phase {phase_name!r}")
        return position <= self.index

    def has_status(self, status: str) -> bool:
        return status in self.current.status


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass
class Depot:
    """The bank's trains: upcoming in sale order, plus trains discarded back to it."""

    trains: list[Train]
    upcoming: list[Train] = field(default_factory=list)
    discarded: list[Train] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.upcoming:
            self.upcoming = list(self.trains)
        for train in self.trains:
            train.owner = self

    def depot_trains(self, phases: Phases) -> list[Train]:
        """Trains for sale: the next upcoming train, every upcoming train whose type is
        available in this phase (one of each name), and discarded trains."""
        seen: set[str] = set()
        out: list[Train] = []
        candidates = self.upcoming[:1] + [
            t for t in self.upcoming if phases.available(t.available_on)
        ]
        for train in candidates:
            if train.name not in seen:
                seen.add(train.name)
                out.append(train)
        dseen: set[str] = set()
        for train in self.discarded:
            if train.name not in dseen:
                dseen.add(train.name)
                out.append(train)
        return out

    def remove(self, train: Train) -> None:
        if train in self.upcoming:
            self.upcoming.remove(train)
        if train in self.discarded:
            self.discarded.remove(train)

    def reclaim(self, train: Train) -> None:
        self.remove(train)
        train.owner = self
        if not train.obsolete:
            self.discarded.append(train)

    def counts(self) -> dict[str, int]:
        """Trains not yet sold, by name (the trace's ``depot``: upcoming trains only; trains
        discarded back to the bank are for sale but not counted)."""
        out: dict[str, int] = {}
        for train in self.upcoming:
            out[train.name] = out.get(train.name, 0) + 1
        return out
