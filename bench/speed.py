"""Benchmark: the speed targets of issue 7 (replay, refusal, undo, legal actions, selfplay).

Usage: ``.venv/bin/python bench/speed.py [--seeds 1,2,3] [--cache DIR] [--skip-selfplay]
[--oracle DIR | --no-oracle] [--fixtures-only] [--titles 1841,1849] [--games GLOB ...]
[--repeat N] [--rounds R]``.

1. Whole selfplay games (the seeded random driver, ``stellwerk.selfplay``) of 1849 (5 players),
   1835 (4 players) and 1841 (4 players; the seeds take the option sets of ``OPTION_SETS`` in
   turn), one per seed: seconds each and the median (targets 3 s, 5 s and 10 s).
   Their game files are written to ``--cache`` and reused by the other measurements.
2. Replay of the 18xx.games 1841 and 1849 fixtures and of the selfplay game files beside
   18xx.games' time for the fixtures and the 1849 selfplay files (issue 7, issue 8 item 7),
   both engines timed the same way: a fresh process per file and side (``bench/our_replay.py``
   and ``bench/oracle_replay.rb``), one load before the clock, a full garbage collection
   before each timed load, CPU seconds of the load only (game creation included); ``--rounds``
   rounds of ``--repeat`` runs, the two engines taking turns, and the lower quartiles of
   each side's runs compared (load mostly adds time; best and median ratios are printed
   too).  18xx.games is timed when Ruby and a local copy of its engine are there
   (``--oracle``, default ``/tmp/x18``, laid out by ../shared/tools/oracle/setup.sh), else
   the figure in ``REFERENCE_SECONDS`` stands in.
   Target: at most 0.2 of its time.  ``--games`` adds more files compared the same way
   (random games of 18xx.games' engine, selfplay files); a last line per title sums up the
   lower-quartile ratios measured now.
3. Refused actions at action ~800 (target 20 ms): one the live gate refuses, one the engine
   refuses while processing (the engine is restored from a checkpoint), and an undo there
   (target 50 ms).
4. ``legal_actions(all_lays=True)`` at every position of one 1849 and one 1835 selfplay game,
   and ``legal_actions()`` at every position of one 1841 selfplay game: median and maximum
   (target median 15 ms).

``--build`` (or ``STELLWERK_BUILD``, ``bench/build_choice.py``) chooses what is measured: the
native build by default (the core's hot modules
compiled by mypyc, docs/native-build.md; the bench first makes it, or makes it again when the
sources changed, and runs itself again in it), or ``--build pure``.  The first line printed
names it.

Times are CPU seconds of the measuring process (``time.process_time``): the machine is shared, and
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

import build_choice

from stellwerk.api import Game
from stellwerk.core.errors import IllegalAction
from stellwerk.io.gamefile import load_game_file, read_game_file
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


def _json_rows(command: list[str], cwd: Path, env: dict[str, str], who: str) -> list[Any]:
    """The JSON lines a timing script printed (empty, with a note, when it cannot run)."""
    try:
        done = subprocess.run(
            command, cwd=cwd, env=env, capture_output=True, text=True, timeout=1800
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        print(f"{who}: not measured ({error})")
        return []
    rows = []
    for line in done.stdout.splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["?"])[-1]
        print(f"{who}: stopped early ({tail})")
    return rows


def oracle_runs(path: Path, oracle: Path | None, runs: int) -> list[float]:
    """18xx.games' CPU seconds of each of ``runs`` loads of ``path`` by its engine in
    ``oracle`` (``bench/oracle_replay.rb``: a fresh process, one load before the clock, a full
    garbage collection before each timed one); none, with a note, when Ruby or the engine is
    missing or fails."""
    if oracle is None:
        return []
    ruby = shutil.which("ruby")
    if ruby is None or not (oracle / "lib" / "engine.rb").is_file():
        print(f"18xx.games engine: not measured (no ruby or no {oracle}/lib/engine.rb)")
        return []
    script = Path(__file__).resolve().with_name("oracle_replay.rb")
    env = {**os.environ, "RUNS": str(runs), "ENGINE_LOG_LEVEL": "4"}
    rows = _json_rows([ruby, "-Ishim", str(script), str(path.resolve())], oracle, env, "18xx.games")
    return [float(t) for row in rows for t in row["runs"]]


def our_runs(path: Path, runs: int) -> dict[str, Any] | None:
    """Our CPU seconds of each of ``runs`` replays of ``path``, timed as 18xx.games' engine is
    (``bench/our_replay.py``: a fresh process, one replay before the clock, a full garbage
    collection before each timed one), with whether the replay matched."""
    script = Path(__file__).resolve().with_name("our_replay.py")
    env = {**os.environ, "RUNS": str(runs)}
    rows = _json_rows([sys.executable, str(script), str(path.resolve())], REPO, env, "stellwerk")
    return rows[0] if rows else None


def low(runs: list[float]) -> float:
    """The lower quartile of ``runs`` (the lowest of fewer than four): a low figure of the
    runs, as the best is, but not one wrong reading."""
    if len(runs) < 4:
        return min(runs)
    return statistics.quantiles(runs, n=4, method="inclusive")[0]


def replay_times(
    paths: list[Path], repeat: int, rounds: int, oracle: Path | None, compare: list[Path]
) -> dict[str, list[float]]:
    """CPU seconds of replaying each file, the best and the median of ``rounds`` rounds of
    ``repeat`` runs.  For the files in ``compare`` 18xx.games' engine is timed on the same file
    in the same rounds, the two engines taking turns (which one goes first alternates), each
    run measured the same way (:func:`our_runs`, :func:`oracle_runs`).  The machine's load
    changes and mostly adds time, so the low runs of each side are the fairest figures; the
    ratio printed first (and summed up) compares the lower quartiles of the two sides' runs
    (:func:`low`), which a single wrong reading of the CPU clock cannot move (one replay of
    40 ms read 1.4 ms under a load of 18).  Where 18xx.games cannot be run, the recorded
    ``REFERENCE_SECONDS`` stand in.  Returns the lower-quartile ratios measured now, per
    title."""
    ratios: dict[str, list[float]] = {}
    for path in paths:
        ours: list[float] = []
        theirs: list[float] = []
        row: dict[str, Any] | None = None
        for index in range(rounds):
            compared = path in compare and oracle is not None
            if compared and index % 2 == 0:
                theirs += oracle_runs(path, oracle, repeat)
            found = our_runs(path, repeat)
            if found is not None:
                row = found
                ours += [float(t) for t in found["runs"]]
            if compared and index % 2 == 1:
                theirs += oracle_runs(path, oracle, repeat)
        if row is None or not ours:
            print(f"replay {path.name}: not measured")
            continue
        median, best, quartile = statistics.median(ours), min(ours), low(ours)
        line = (
            f"replay {path.name}: lower quartile {quartile:.4f} s, best {best:.4f} s,"
            f" median {median:.4f} s"
        )
        line += f" ({row['actions']} actions"
        if row["ok"]:
            line += ", match)"
        elif row["divergence"] is None and not row["finished"]:
            line += ", not over in the file, no divergence)"  # a random game cut short
        else:
            line += ", NO MATCH)"
        title = load_game_file(read_game_file(path)).title
        if theirs:
            their_median, their_best = statistics.median(theirs), min(theirs)
            their_quartile = low(theirs)
            ratios.setdefault(title, []).append(quartile / their_quartile)
            line += (
                f"; 18xx.games lower quartile {their_quartile:.3f} s, best {their_best:.3f} s,"
                f" median {their_median:.3f} s (measured now, {len(theirs)} runs beside our"
                f" {len(ours)}): ratio {quartile / their_quartile:.3f} (lower quartiles),"
                f" best to best {best / their_best:.3f}, median to median"
                f" {median / their_median:.3f} (target 0.2)"
            )
        elif path.name in REFERENCE_SECONDS:
            reference = REFERENCE_SECONDS[path.name]
            line += f"; 18xx.games {reference:.3f} s (recorded), ratio {quartile / reference:.3f}"
            line += " (target 0.2)"
        print(line, flush=True)
    return ratios


def ratio_summary(ratios: dict[str, list[float]]) -> None:
    """One line per title: how many files were compared with 18xx.games and their ratios."""
    for title, found in sorted(ratios.items()):
        print(
            f"ratio to 18xx.games (lower quartiles), {title}, {len(found)} files: median "
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
        "--rounds",
        type=int,
        default=3,
        help="replays: rounds of --repeat runs, the two engines taking turns (default 3)",
    )
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
    parser.add_argument(
        "--build",
        choices=("native", "pure"),
        default="native",
        help="the build measured: the native build (scripts/build_native.sh, made or remade "
        "first when it is missing or stale; the pure Python when it cannot be built) or the "
        "pure Python (default native)",
    )
    args = parser.parse_args(argv)
    os.environ[build_choice.CHOICE] = args.build  # the replays it starts measure the same
    measured = build_choice.measured_build(sys.argv if argv is None else [sys.argv[0], *argv])
    print(f"stellwerk measured: {measured}")
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
        ratio_summary(
            replay_times(fixtures + more, args.repeat, args.rounds, oracle, fixtures + more)
        )
        return 0
    args.cache.mkdir(parents=True, exist_ok=True)
    games = selfplay_games(seeds, args.cache, not args.skip_selfplay)
    compared = fixtures + more + games["1849"]
    ratio_summary(
        replay_times(
            compared + games["1835"] + games["1841"], args.repeat, args.rounds, oracle, compared
        )
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
