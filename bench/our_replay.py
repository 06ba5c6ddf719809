"""Times our engine replaying each game file given, the way ``bench/oracle_replay.rb`` times
18xx.games' engine, so that ``bench/speed.py`` compares like with like: a fresh process per
call (no heap left over from other work), the title imported and each file replayed once
before the clock (warm-up), then ``RUNS`` timed replays of the whole file (game creation
included), each after a full garbage collection, in CPU seconds of this process.

Usage: ``RUNS=5 .venv/bin/python bench/our_replay.py FILE ...``; prints one JSON line per file:
``{"file", "median_s", "min_s", "runs", "actions", "ok", "finished", "divergence", "build"}``.
It measures the native build unless ``STELLWERK_BUILD=pure`` (``bench/build_choice.py``).
"""

from __future__ import annotations

import gc
import json
import os
import statistics
import sys
import time
from pathlib import Path

import build_choice

from stellwerk.api import Game
from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.io.replay import replay


def main(paths: list[str]) -> int:
    build = build_choice.measured_build([sys.argv[0], *paths])
    runs = max(1, int(os.environ.get("RUNS", "5")))
    for name in paths:
        path = Path(name)
        game_file = load_game_file(read_game_file(path))
        first = replay(game_file, Game.create, source=path.name)  # warm-up
        times = []
        ok = first.ok
        for _ in range(runs):
            gc.collect()
            start = time.process_time()
            report = replay(game_file, Game.create, source=path.name)
            times.append(time.process_time() - start)
            ok = ok and report.ok
        divergence = first.first_divergence
        row = {
            "file": name,
            "median_s": statistics.median(times),
            "min_s": min(times),
            "runs": times,
            "actions": len(game_file.live),
            "ok": ok,
            "finished": first.finished,
            "divergence": None if divergence is None else str(divergence.to_dict()),
            "build": build,
        }
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
