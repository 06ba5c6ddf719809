"""Load 1849's data files (``data/*.toml``) once per process."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from stellwerk.titles.datafiles import read_table

DATA = Path(__file__).parent / "data"


@cache
def game_data() -> dict[str, Any]:
    """The facts of ``data/game.toml`` (bank, market, phases, trains, companies, corporations)."""
    return read_table(DATA, "game.toml")
