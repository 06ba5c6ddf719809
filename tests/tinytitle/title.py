"""18Tiny as the engine knows it: its id, game class, (no) options and data, loaded on first
use; money in thalers (``100 T``)."""

from __future__ import annotations

from stellwerk.core.game import Game
from stellwerk.titles.contract import Declarations, Presentation, Title
from stellwerk.titles.datafiles import no_options, package_table

PACKAGE = "tinytitle"


def _game() -> type[Game]:
    from tinytitle.game import GameTiny

    return GameTiny


def _declared() -> Declarations:
    return no_options("18tiny", PACKAGE, "18Tiny rules: 2 or 3 players")


def _data() -> None:
    """Read the data files once per process."""
    for name in ("game.toml", "map.toml", "tiles.toml"):
        package_table(PACKAGE, name)


TITLE = Title(
    id="18tiny",
    description="18Tiny - a made-up title of seven hexes (the tests' example)",
    package=PACKAGE,
    load_game=_game,
    load_declared=_declared,
    load_data=_data,
    presentation=Presentation(
        currency="{} T",
        market_labels={"p": "start price"},
    ),
)
"""18Tiny, for ``stellwerk.titles.registry.register``."""
