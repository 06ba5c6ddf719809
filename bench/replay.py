"""Benchmark: replay game files in-process N times and print the median seconds per game.

Usage: ``.venv/bin/python bench/replay.py [FILE ...] [--repeat N]``.  Without files it uses the
18xx.games 1849 fixtures in ../shared when present.  Not a test: it exits 0 unless there is no
file or no engine.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
from pathlib import Path

from stellwerk.core.errors import GameFileError
from stellwerk.io.engine import GameFactory
from stellwerk.io.gamefile import GameFile, load_game_file, read_game_file
from stellwerk.io.replay import replay

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DIR = REPO / ".." / "shared" / "fixtures" / "18xx.games" / "1849"


def _create() -> GameFactory:
    """``stellwerk.api.Game.create``, imported when needed."""
    create: GameFactory = importlib.import_module("stellwerk.api").Game.create
    return create


def bench_one(game_file: GameFile, create: GameFactory, repeat: int, name: str) -> str:
    """Replay one game ``repeat`` times; one line with median engine seconds and the outcome."""
    times = []
    report = None
    for _ in range(repeat):
        report = replay(game_file, create, source=name)
        times.append(report.seconds)
    assert report is not None
    divergence = report.first_divergence
    outcome = "match" if report.ok else f"no match ({report.actions}/{len(game_file.live)} actions"
    if divergence is not None:
        outcome += f", {divergence.field} at action {divergence.action_id}"
    if not report.ok:
        outcome += ")"
    return f"{name}: median {statistics.median(times):.4f} s over {repeat} runs; {outcome}"


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, replay every file, print one line per file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="game files (.json)")
    parser.add_argument("--repeat", type=int, default=5, help="replays per file (default 5)")
    args = parser.parse_args(argv)
    files = args.files or sorted(DEFAULT_DIR.glob("*.json"))
    if not files:
        print(f"no game files given and none found in {DEFAULT_DIR}", file=sys.stderr)
        return 2
    try:
        create = _create()
    except ImportError as error:
        print(f"the engine API is not available: {error}", file=sys.stderr)
        return 2
    for path in files:
        try:
            game_file = load_game_file(read_game_file(path))
        except GameFileError as error:
            print(f"{path.name}: cannot load: {error}", file=sys.stderr)
            continue
        print(bench_one(game_file, create, max(1, args.repeat), path.name), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
