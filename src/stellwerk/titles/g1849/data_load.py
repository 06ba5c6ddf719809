"""Load 1849's data files (``data/*.toml``) once per process."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"


@cache
def game_data() -> dict[str, Any]:
    """The facts of ``data/game.toml`` (bank, market, phases, trains, companies, corporations)."""
    with (DATA / "game.toml").open("rb") as fh:
        return tomllib.load(fh)
