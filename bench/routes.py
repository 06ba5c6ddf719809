"""Benchmark: best routes on the positions of ../shared/reference/route-benchmarks.yaml.

Usage: ``.venv/bin/python bench/routes.py [--repeat N] [--yaml PATH]``.  For every position of a
title this engine has, the game is replayed up to (not including) ``before_action_id``, the
corporation gets the listed trains, and the optimiser runs ``N`` times from a cold leg cache;
one line per position shows our median time and revenue beside the auto-router's recorded
figures (18xx.games ``auto_router.rb`` under MRI, see the YAML header).  The search is the
engine's own (``stellwerk.api.Game.best_routes``, what ``stellwerk routes`` runs), for every
title (1841 replays through its game flow).  Positions of titles not implemented here are
skipped with a note.  Not a test: exits 0 unless nothing could run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from stellwerk.api import Game
from stellwerk.core.routes.optimize import BestRun, clear_leg_cache
from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.titles.registry import title_class

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO / ".." / "shared"
DEFAULT_YAML = SHARED / "reference" / "route-benchmarks.yaml"


@dataclass
class Row:
    """One measured position."""

    entry: dict[str, Any]
    seconds: float
    result: BestRun

    @property
    def synthetic(self) -> bool:
        return bool(self.entry.get("synthetic"))


def game_before(entry: dict[str, Any], fixture: Path) -> Game:
    """The position: the game file replayed by the title's engine up to the action."""
    data = read_game_file(fixture)
    live = [a for a in load_game_file(data).live if int(a["id"]) < entry["before_action_id"]]
    return Game.from_file({**data, "actions": live})


def has_title(title: str) -> bool:
    try:
        title_class(title)
    except Exception:  # the registry raises its own error type for unknown titles
        return False
    return True


def measure(entry: dict[str, Any], repeat: int) -> Row:
    """Replay to the position and time the engine's search ``repeat`` times (cold leg cache)."""
    fixture = SHARED / "fixtures" / "18xx.games" / entry["title"] / entry["fixture"]
    game = game_before(entry, fixture)
    times = []
    result = None
    engine: Any = game.engine  # every title's map port has the board the search walks
    for _ in range(repeat):
        clear_leg_cache(engine.map.board)
        start = time.perf_counter()
        result = game.best_routes(entry["corporation"], list(entry["trains"]))
        times.append(time.perf_counter() - start)
    assert result is not None
    return Row(entry, statistics.median(times), result)


def target(entry: dict[str, Any]) -> int:
    """The revenue to reach: the auto-router's and the players' figures."""
    return max(int(entry["autorouter_revenue"]), int(entry.get("claimed_revenue") or 0))


def line(row: Row) -> str:
    e = row.entry
    ar_s = float(e["autorouter_seconds"])
    claimed = e.get("claimed_revenue")
    flag = "" if row.result.optimal else " NOT PROVEN"
    verdict = "ok" if row.result.revenue >= target(e) else "LOW"
    return (
        f"{e['title']:>5} {e['fixture'][:-5]:<24} #{e['before_action_id']:<4} "
        f"{e['corporation']:<5} {'+'.join(e['trains']):<16} "
        f"ours {row.result.revenue:>5} in {row.seconds * 1000:8.2f} ms{flag} | "
        f"auto-router {e['autorouter_revenue']:>5} in {ar_s * 1000:9.1f} ms | "
        f"claimed {claimed if claimed is not None else '-':>5} | "
        f"x{ar_s / row.seconds:7.1f} {verdict}" + (" (synthetic)" if row.synthetic else "")
    )


def summary(title: str, rows: list[Row]) -> None:
    """Worst and median times of a title's real positions; its synthetic ones."""
    real = [r for r in rows if not r.synthetic]
    synthetic = [r for r in rows if r.synthetic]
    if real:
        worst = max(real, key=lambda r: r.seconds)
        ours_median = statistics.median(r.seconds for r in real)
        ar_median = statistics.median(float(r.entry["autorouter_seconds"]) for r in real)
        speedups = [float(r.entry["autorouter_seconds"]) / r.seconds for r in real]
        print(
            f"{title} real positions: {len(real)}; worst {worst.seconds * 1000:.2f} ms "
            f"(#{worst.entry['before_action_id']} {worst.entry['corporation']}); "
            f"median ours {ours_median * 1000:.2f} ms vs auto-router {ar_median * 1000:.1f} ms "
            f"(x{ar_median / ours_median:.1f}); median per-position speed-up "
            f"x{statistics.median(speedups):.1f}"
        )
    if synthetic:
        worst = max(synthetic, key=lambda r: r.seconds)
        print(
            f"{title} synthetic positions: {len(synthetic)}; worst {worst.seconds * 1000:.2f} ms;"
            f" all proven optimal: {all(r.result.optimal for r in synthetic)}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per position (default 5)")
    parser.add_argument("--yaml", type=Path, default=DEFAULT_YAML, help="benchmark positions")
    parser.add_argument("--title", action="append", help="only this title (repeatable)")
    parser.add_argument(
        "--stress",
        action="store_true",
        help="also the stress positions whose auto-router search timed out (minutes each)",
    )
    args = parser.parse_args(argv)
    if not args.yaml.is_file():
        print(f"no benchmark file at {args.yaml}", file=sys.stderr)
        return 2
    entries = yaml.safe_load(args.yaml.read_text(encoding="utf-8"))
    rows: list[Row] = []
    skipped: dict[str, int] = {}
    stress = 0
    for entry in entries:
        if args.title and entry["title"] not in args.title:
            continue
        if not has_title(entry["title"]):
            skipped[entry["title"]] = skipped.get(entry["title"], 0) + 1
            continue
        if entry.get("autorouter_timed_out") and not args.stress:
            stress += 1
            continue
        row = measure(entry, args.repeat)
        rows.append(row)
        print(line(row), flush=True)
    for title, count in sorted(skipped.items()):
        print(f"skipped {count} positions of {title}: title not implemented in this engine")
    if stress:
        print(f"skipped {stress} stress positions (auto-router timed out): run with --stress")
    if not rows:
        return 2
    for title in dict.fromkeys(r.entry["title"] for r in rows):
        summary(title, [r for r in rows if r.entry["title"] == title])
    low = [r for r in rows if r.result.revenue < target(r.entry)]
    print(f"positions below the auto-router or the players: {len(low)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
