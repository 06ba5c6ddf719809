"""The shape of the engine that io and the front ends drive (see docs/architecture.md).

``stellwerk.api.Game`` provides it; tests use small fakes with the same methods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from stellwerk.core.jsondata import JSONObject

if TYPE_CHECKING:
    from stellwerk.io.snapshot import Snapshot


class EngineGame(Protocol):
    """One game in progress: the public engine API front ends rely on."""

    @property
    def finished(self) -> bool:
        """Whether the game has ended."""

    @property
    def result(self) -> dict[str, int]:
        """Final value per player id (empty until finished)."""

    @property
    def game_end_reason(self) -> str | None:
        """Why the game ended (``bank``, ``bankrupt``, ...)."""

    def process(self, action: JSONObject, replay: bool = False) -> None:
        """Apply one action dict; ``replay`` applies recorded ``auto_actions`` as given;
        ``IllegalAction`` if refused."""

    def undo(self) -> None:
        """Drop the last action."""

    def to_file(self) -> JSONObject:
        """The game as an 18xx.games game file dict."""

    def snapshot(self) -> Snapshot:
        """The state in the trace format."""

    def active_entities(self) -> list[int | str]:
        """Who must act now: player ids, corporation and company symbols."""

    def decider_of(self, entity: int | str | None) -> int | str | None:
        """The player who decides for ``entity`` (None: nobody)."""

    def legal_actions(self, hex_id: str | None = None, all_lays: bool = False) -> list[JSONObject]:
        """Finite choices as action dicts."""


class GameFactory(Protocol):
    """``Game.create``: a new game from title, players, options and seed."""

    def __call__(
        self,
        title: str,
        players: list[tuple[int | str, str]],
        options: list[str],
        seed: int,
    ) -> EngineGame:
        """Create the game."""
