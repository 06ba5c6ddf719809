"""18xx.games' seeded random generator, reproduced exactly (common rules §5)."""

from __future__ import annotations

import re

RAND_A = 1_103_515_245
RAND_C = 12_345
RAND_M = 2**31


def seed_from(seed: int | str | None, game_id: int | str | None) -> int:
    """The seed the reference engine uses: ``settings.seed`` if given and not empty, else the
    first run of digits in the game id (common rules §5)."""
    if seed is not None and seed != "":
        return int(seed)
    match = re.search(r"\d+", str(game_id or ""))
    return int(match.group()) if match else 0


class Rng:
    """Linear congruential generator: s <- (A*s + C) mod 2^31; each draw returns the new s."""

    def __init__(self, seed: int) -> None:
        self.state = seed % RAND_M

    def draw(self) -> int:
        self.state = (RAND_A * self.state + RAND_C) % RAND_M
        return self.state
