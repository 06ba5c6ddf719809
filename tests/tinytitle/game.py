"""18Tiny's rules: the common rules on the default board port; only its data is its own."""

from __future__ import annotations

from stellwerk.core.boardgame import BoardGame
from stellwerk.core.jsondata import JSONObject
from stellwerk.titles.datafiles import package_table

PACKAGE = "tinytitle"


class GameTiny(BoardGame):
    """18Tiny: a game by the common rules on its seven hexes."""

    title = "18tiny"

    def tables(self) -> JSONObject:
        return package_table(PACKAGE, "game.toml")

    def map_table(self) -> JSONObject:
        return package_table(PACKAGE, "map.toml")

    def tiles_table(self) -> JSONObject:
        return package_table(PACKAGE, "tiles.toml")
