"""Time the pictures (issue 9: a whole map in at most 0.2 s).

Usage: PYTHONPATH=src python bench/pictures.py [REPEAT]

Renders the final map (and market, charters, tiles) of the 1849 fixture, of every Rails 1835
report and of 1841 positions rebuilt from a fixture trace (when ../shared is present), and of
selfplay games of 1849 and 1835; prints the CPU seconds of the first run and the best and
worst of REPEAT more, and the worst wall time.
The geometry of each tile is cached per process: the first picture of a game pays for it,
so the first run is reported separately.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from stellwerk.cli.common import create_game
from stellwerk.pictures.charters import render_charters
from stellwerk.pictures.geometry import clear_layouts
from stellwerk.pictures.mapview import render_map
from stellwerk.pictures.market import render_market
from stellwerk.pictures.scene import map_scene
from stellwerk.pictures.tilesheet import render_tiles
from stellwerk.selfplay import play

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "fixtures"


def games() -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    g1849 = SHARED / "18xx.games" / "1849" / "1849_game_end_bank.json"
    if g1849.is_file():
        from stellwerk.api import Game
        from stellwerk.io.gamefile import read_game_file

        out.append((g1849.stem, Game.from_file(read_game_file(g1849)).engine))
    for report in sorted((SHARED / "rails" / "1835").glob("*.report")):
        from stellwerk.importers.rails import import_report

        imported = import_report(report)
        if imported.game is not None:
            out.append((report.stem, imported.game.engine))
    for g1841 in sorted((SHARED / "18xx.games" / "1841").glob("*.json")):
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
        from positions1841 import positions

        port = None
        for _, position in positions(g1841):
            port = position.port
        out.append((f"{g1841.stem} (positions)", port))
    for title, players in (("1849", 3), ("1835", 4)):
        game = create_game(title, [(i, f"P{i}") for i in range(1, players + 1)], [], 7)
        play(game, 7, max_actions=800)
        out.append((f"selfplay {title}", game.engine))
    return out


def _map(engine: Any) -> str:
    return render_map(map_scene(engine))


def timed(function: Callable[[], str], repeat: int) -> tuple[float, float, float, float]:
    """CPU seconds of the first run, the best and the worst of ``repeat`` more, and the worst
    wall time (CPU time is what the limit is judged on: the machine is shared, and wall time
    counts the other processes' turns)."""
    start, wall = time.process_time(), time.perf_counter()
    function()
    first = time.process_time() - start
    walls = [time.perf_counter() - wall]
    times = []
    for _ in range(repeat):
        start, wall = time.process_time(), time.perf_counter()
        function()
        times.append(time.process_time() - start)
        walls.append(time.perf_counter() - wall)
    return first, min(times), max(times), max(walls)


def main() -> None:
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    worst = worst_wall = 0.0
    print(f"{'game':44} {'picture':8} {'first':>8} {'best':>8} {'worst':>8} {'wall':>8}")
    for name, engine in games():
        clear_layouts()
        kinds: list[tuple[str, Callable[[], str]]] = [("map", partial(_map, engine))]
        if hasattr(engine, "market"):
            kinds += [
                ("market", partial(render_market, engine)),
                ("charters", partial(render_charters, engine)),
            ]
        kinds.append(("tiles", partial(render_tiles, engine)))
        for kind, function in kinds:
            first, best, most, wall = timed(function, repeat)
            if kind == "map":
                worst = max(worst, first, most)
                worst_wall = max(worst_wall, wall)
            row = f"{first:8.4f} {best:8.4f} {most:8.4f} {wall:8.4f}"
            print(f"{name[:44]:44} {kind:8} {row}")
    print(f"slowest map (any run): {worst:.4f} CPU s (limit 0.2 s); wall {worst_wall:.4f} s")


if __name__ == "__main__":
    main()
