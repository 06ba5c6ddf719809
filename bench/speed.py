"""Benchmark: the speed targets of issue 7 (replay, refusal, undo, legal actions, selfplay).

Usage: ``.venv/bin/python bench/speed.py [--seeds 1,2,3] [--cache DIR] [--skip-selfplay]
[--oracle DIR | --no-oracle] [--fixtures-only] [--titles 1841,1849] [--games GLOB ...]``.

1. Whole selfplay games (the seeded random driver, ``stellwerk.selfplay``) of 1849 (5 players),
   1835 (4 players) and 1841 (4 players; the seeds take the option sets of ``OPTION_SETS`` in
   turn), one per seed: seconds each and the median (targets 3 s, 5 s and 10 s).
   Their game files are written to ``--cache`` and reused by the other measurements.
2. Replay of the 18xx.games 1841 and 1849 fixtures and of the selfplay game files (CPU seconds
   of the whole load; each file is replayed once outside the clock first, as
   ``oracle_replay.rb`` loads it once before timing), beside 18xx.games' time for the
   fixtures and the 1849 selfplay files (issue 7, issue 8 item 7): measured in the same run when
   Ruby and a local copy of its engine are there (``--oracle``, default ``/tmp/x18``, laid out
   by ../shared/tools/oracle/setup.sh; timed by ``bench/oracle_replay.rb`` in CPU seconds too),
   else the figure in ``REFERENCE_SECONDS``.  Target: at most 0.2 of its time.  ``--games``
   adds more files compared the same way (random games of 18xx.games' engine, selfplay
   files); a last line per title sums up the ratios measured now.
3. Refused actions at action ~800 (target 20 ms): one the live gate refuses, one the engine
   refuses while processing (the engine is restored from a checkpoint), and an undo there
   (target 50 ms).
4. ``legal_actions(all_lays=True)`` at every position of one 1849 and one 1835 selfplay game,
   and ``legal_actions()`` at every position of one 1841 selfplay game: median and maximum
   (target median 15 ms).

Times are CPU seconds of this process (``time.process_time``): the machine is shared, and
wall-clock time under load says more about the neighbours than about the engine.
Not a test: it prints one line per measurement and exits 0.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from stellwerk.api import Game
from stellwerk.core.errors import IllegalAction
from stellwerk.io.gamefile import load_game_file, read_game_file
from stellwerk.io.replay import replay
from stellwerk.selfplay import play

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO / ".." / "shared"
REFERENCE_SECONDS = {
    "1849_game_end_bank.json": 0.204,
    "1841_game_end_bank.json": 0.36,
    "1841_game_end_bankrupt.json": 0.27,
    "1841_game_end_offboards.json": 0.32,
}
"""18xx.games' replay time of the fixtures (MRI, measured with ../shared/tools/oracle/bench.rb
in earlier sessions on a quiet machine; under load both engines are slower, so the ratio
measured now is the one to read).  Its 1849 selfplay-game figures: 5p electric 0.262 s,
4p tokens 0.459 s, 5p plain 0.465 s."""

FIXTURE_TITLES = ("1841", "1849")
"""Titles whose 18xx.games fixtures are replayed and compared with 18xx.games' time."""

Timing = tuple[float, float]
"""CPU seconds: (median, best) of several runs."""

GAMES = {"1849": 5, "1835": 4, "1841": 4}
"""Titles measured and their player count."""

OPTION_SETS: dict[str, list[list[str]]] = {
    "1841": [[], ["lite"], ["version_1"], ["p2p_purchases"]],
}
"""Option sets a title's selfplay games take in turn, seed by seed (none for the others)."""

TARGETS = {"1849": 3.0, "1835": 5.0, "1841": 10.0}
"""Median seconds of a whole selfplay game (issue 7; issue 8 item 7 for 1841)."""


def options_for(title: str, index: int) -> list[str]:
    """The options of the ``index``-th selfplay game of ``title``."""
    sets = OPTION_SETS.get(title)
    return list(sets[index % len(sets)]) if sets else []


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def selfplay_games(seeds: list[int], cache: Path, run: bool) -> dict[str, list[Path]]:
    """Play (or reuse) one game per title and seed; print the seconds of each."""
    out: dict[str, list[Path]] = {}
    for title, players in GAMES.items():
        times: list[float] = []
        for index, seed in enumerate(seeds):
            options = options_for(title, index)
            tail = "".join(f"_{o}" for o in options)
            path = cache / f"{title}_{players}p_seed{seed}{tail}.json"
            if run or not path.exists():
                game = Game.create(
                    title, [(n, f"Player {n}") for n in range(1, players + 1)], options, seed
                )
                start = time.process_time()
                outcome = play(game, seed)
                times.append(time.process_time() - start)
                path.write_text(json.dumps(game.to_file()))
                print(
                    f"selfplay {title} {players}p seed {seed}{tail}: {times[-1]:.2f} s, "
                    f"{outcome.actions} actions, {outcome.stopped_because}",
                    flush=True,
                )
            out.setdefault(title, []).append(path)
        if times:
            print(
                f"selfplay {title}: median {statistics.median(times):.2f} s, "
                f"max {max(times):.2f} s (target median {TARGETS[title]:.0f} s)",
                flush=True,
            )
    return out


def oracle_times(paths: list[Path], oracle: Path | None, repeat: int) -> dict[str, Timing]:
    """18xx.games' CPU seconds (median, best) loading each file, measured now by its engine in
    ``oracle`` (skipped, with a note, when Ruby or the engine is missing or fails)."""
    if oracle is None or not paths:
        return {}
    ruby = shutil.which("ruby")
    if ruby is None or not (oracle / "lib" / "engine.rb").is_file():
        print(f"18xx.games engine: not measured (no ruby or no {oracle}/lib/engine.rb)")
        return {}
    script = Path(__file__).resolve().with_name("oracle_replay.rb")
    env = {**os.environ, "RUNS": str(max(3, repeat)), "ENGINE_LOG_LEVEL": "4"}
    command = [ruby, "-Ishim", str(script), *(str(p.resolve()) for p in paths)]
    try:
        done = subprocess.run(
            command, cwd=oracle, env=env, capture_output=True, text=True, timeout=1800
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        print(f"18xx.games engine: not measured ({error})")
        return {}
    out: dict[str, Timing] = {}
    for line in done.stdout.splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        out[Path(row["file"]).name] = (float(row["median_s"]), float(row["min_s"]))
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["?"])[-1]
        print(f"18xx.games engine: stopped early ({tail})")
    return out


def replay_times(
    paths: list[Path], repeat: int, oracle: Path | None, compare: list[Path]
) -> dict[str, list[float]]:
    """CPU seconds of replaying each file (median and best of ``repeat``).  For the files in
    ``compare``, 18xx.games' engine is timed on the same file just before ours (the machine's
    load changes: back to back, the two see about the same) and the ratios are printed; where
    it cannot be run, the recorded ``REFERENCE_SECONDS`` stand in.  Returns the ratios of the
    median times measured now, per title."""
    ratios: dict[str, list[float]] = {}
    for path in paths:
        game_file = load_game_file(read_game_file(path))
        theirs = oracle_times([path], oracle, repeat) if path in compare else {}
        # one replay outside the clock, as oracle_replay.rb loads each file once first
        first = replay(game_file, Game.create, source=path.name)
        times = []
        ok = first.ok
        for _ in range(repeat):
            start = time.process_time()
            report = replay(game_file, Game.create, source=path.name)
            times.append(time.process_time() - start)
            ok = ok and report.ok
        median, best = statistics.median(times), min(times)
        line = f"replay {path.name}: {median:.4f} s, best {best:.4f} s"
        line += f" ({len(game_file.live)} actions"
        if ok:
            line += ", match)"
        elif first.first_divergence is None and not first.finished:
            line += ", not over in the file, no divergence)"  # a random game cut short
        else:
            line += ", NO MATCH)"
        measured = theirs.get(path.name)
        if measured is not None:
            their_median, their_best = measured
            ratios.setdefault(game_file.title, []).append(median / their_median)
            line += (
                f"; 18xx.games {their_median:.3f} s, best {their_best:.3f} s (measured now):"
                f" ratio {median / their_median:.2f}, best to best {best / their_best:.2f}"
                " (target 0.2)"
            )
        elif path.name in REFERENCE_SECONDS:
            reference = REFERENCE_SECONDS[path.name]
            line += f"; 18xx.games {reference:.3f} s (recorded), ratio {median / reference:.2f}"
            line += " (target 0.2)"
        print(line, flush=True)
    return ratios


def ratio_summary(ratios: dict[str, list[float]]) -> None:
    """One line per title: how many files were compared with 18xx.games and their ratios."""
    for title, found in sorted(ratios.items()):
        print(
            f"ratio to 18xx.games, {title}, {len(found)} files: median "
            f"{statistics.median(found):.3f}, lowest {min(found):.3f}, highest {max(found):.3f}"
            " (target 0.2)",
            flush=True,
        )


def game_files(patterns: list[str]) -> list[Path]:
    """The game files the patterns (globs, e.g. ``/tmp/rg/*.json``) name, traces and other
    non-game files left out, each once, sorted."""
    found = {Path(name) for pattern in patterns for name in glob.glob(pattern)}
    return sorted(p for p in found if p.suffix == ".json" and not p.name.endswith(".trace.json"))


def _game_at(path: Path, count: int) -> Game:
    """The game of ``path`` loaded up to ``count`` live actions."""
    data = read_game_file(path)
    live = load_game_file(data).live[:count]
    data = dict(data)
    data["actions"] = live
    data.pop("status", None)
    data.pop("result", None)
    return Game.from_file(data)


def _timed(fn: Callable[[], Any]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def refusal_and_undo(path: Path, at: int, repeat: int) -> None:
    """Refused actions and undos at action ``at`` of the game in ``path``."""
    game = _game_at(path, at)
    legal = game.legal_actions()
    if not legal:
        print(f"refusal {path.name}: nothing legal at action {at}")
        return
    first = dict(legal[0])
    wrongs = {
        # refused by the live gate before anything changes
        "unknown type": ({**first, "type": "no_such_action"}, False),
        "not offered": ({**first, "type": "buy_company", "company": "none", "price": 1}, False),
        # refused by the engine while processing: it is restored from a checkpoint
        "refused while processing": ({**first, "type": "buy_company", "company": "x"}, True),
    }
    for name, (wrong, replayed) in wrongs.items():
        refusals = []
        for _ in range(repeat):

            def refuse(wrong: dict[str, Any] = wrong, replayed: bool = replayed) -> None:
                try:
                    game.process(dict(wrong), replay=replayed)
                except IllegalAction:
                    return
                raise SystemExit(f"bench: {wrong} was accepted")

            refusals.append(_timed(refuse))
        print(
            f"refusal ({name}) at action {len(game.actions)} ({path.name}): median "
            f"{_ms(statistics.median(refusals))}, max {_ms(max(refusals))} (target 20 ms)",
            flush=True,
        )
    undos = []
    for _ in range(repeat):
        undos.append(_timed(game.undo))
    print(
        f"undo from action {at} ({path.name}), {repeat} in a row: median "
        f"{_ms(statistics.median(undos))}, max {_ms(max(undos))} (target 50 ms)",
        flush=True,
    )


def lays(path: Path, every: int, all_lays: bool = True) -> None:
    """``legal_actions(all_lays=all_lays)`` at every ``every``-th position of the game in
    ``path`` (a game this engine played: its actions are processed live)."""
    data = read_game_file(path)
    game_file = load_game_file(data)
    game = Game.create(game_file.title, game_file.players, game_file.optional_rules, game_file.seed)
    times = []
    with_lays = []
    for index, action in enumerate(game_file.live):
        if index % every == 0 and not game.finished:
            start = time.process_time()
            found = game.legal_actions(all_lays=all_lays)
            times.append(time.process_time() - start)
            if any(a["type"] == "lay_tile" for a in found):
                with_lays.append(times[-1])
        # live, as a player would send it: menus after a replayed action skip live checks
        game.process(action)
    print(
        f"legal_actions(all_lays={all_lays}) over {len(times)} positions of {path.name}: median "
        f"{_ms(statistics.median(times))}, max {_ms(max(times))} (target median 15 ms); "
        f"at the {len(with_lays)} positions offering tile lays: median "
        f"{_ms(statistics.median(with_lays or [0.0]))}, max {_ms(max(with_lays or [0.0]))}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    """Run every measurement and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1,2,3", help="selfplay seeds (default 1,2,3)")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/stellwerk-bench"))
    parser.add_argument("--shared", type=Path, default=SHARED, help="the shared folder")
    parser.add_argument(
        "--skip-selfplay", action="store_true", help="reuse the cached games, do not time play"
    )
    parser.add_argument("--repeat", type=int, default=3, help="repeats per measurement")
    parser.add_argument(
        "--oracle",
        type=Path,
        default=Path("/tmp/x18"),
        help="local copy of 18xx.games' engine to time on the same files (default /tmp/x18)",
    )
    parser.add_argument("--no-oracle", action="store_true", help="do not run 18xx.games' engine")
    parser.add_argument(
        "--fixtures-only",
        action="store_true",
        help="only the replays of the 18xx.games fixtures (and --games), beside 18xx.games' times",
    )
    parser.add_argument(
        "--games",
        nargs="*",
        default=[],
        metavar="GLOB",
        help="more game files to replay beside 18xx.games' time, e.g. random games of its "
        "engine or selfplay files ('/tmp/rg/*.json'; traces are left out)",
    )
    parser.add_argument(
        "--titles",
        default=",".join(FIXTURE_TITLES),
        help=f"titles whose fixtures are replayed (default {','.join(FIXTURE_TITLES)})",
    )
    args = parser.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")]
    oracle = None if args.no_oracle else args.oracle
    fixtures = [
        path
        for title in args.titles.split(",")
        if title
        for path in sorted((args.shared / "fixtures" / "18xx.games" / title).glob("*.json"))
    ]
    more = game_files(args.games)
    if args.fixtures_only:
        ratio_summary(replay_times(fixtures + more, args.repeat, oracle, fixtures + more))
        return 0
    args.cache.mkdir(parents=True, exist_ok=True)
    games = selfplay_games(seeds, args.cache, not args.skip_selfplay)
    compared = fixtures + more + games["1849"]
    ratio_summary(
        replay_times(compared + games["1835"] + games["1841"], args.repeat, oracle, compared)
    )
    longest = max(
        games["1835"] + games["1849"], key=lambda p: len(load_game_file(read_game_file(p)).live)
    )
    refusal_and_undo(longest, 800, max(5, args.repeat))
    lays(games["1849"][0], 1)
    lays(games["1835"][0], 1)
    lays(games["1841"][0], 1, all_lays=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
