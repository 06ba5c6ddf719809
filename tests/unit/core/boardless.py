"""A core game without a board, for tests of the title-free machinery (auctions, ownership):
the abstract board and round hooks of ``core.game.Game`` are bound to "nothing here"."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stellwerk.core.entities import Corporation, Player, Train
from stellwerk.core.flow.base import Action, Round
from stellwerk.core.game import Game
from stellwerk.core.routes.model import RouteSearch
from stellwerk.core.routes.optimize import BestRun


class BoardlessGame(Game):
    """No map, no operating round; the certificate limit of every player is 99."""

    def player_cert_limit(self, player: Player | None) -> int:
        return 99

    def new_stock_round(self) -> Round:
        raise AssertionError("this test game has no stock round")

    def new_operating_round(self, round_num: int) -> Round:
        raise AssertionError("this test game has no operating round")

    def can_place_token(self, corp: Corporation) -> bool:
        return False

    def token_choices(self, corp: Corporation) -> list[tuple[str, int]]:
        return []

    def place_token(self, corp: Corporation, action: Action) -> None:
        raise AssertionError("this test game has no map")

    def legal_lays(self, corp: Corporation, hex_id: str | None) -> list[tuple[str, str, int]]:
        return []

    def lay_tile(self, corp: Corporation, action: Action) -> None:
        raise AssertionError("this test game has no map")

    def route_info(self, corp: Corporation) -> tuple[bool, bool]:
        return (False, False)

    def best_run(self, corp: Corporation, trains: Sequence[Train] | None = None) -> BestRun:
        raise AssertionError("this test game has no map")

    def route_search(self, corp: Corporation) -> RouteSearch:
        raise AssertionError("this test game has no map")

    def suggest_routes(self, corp: Corporation) -> list[dict[str, Any]]:
        return []

    def route_revenue(self, corp: Corporation, routes: list[dict[str, Any]]) -> int:
        return 0
