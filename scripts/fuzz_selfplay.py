"""Fuzz the engine with selfplay: random games per title, option set and player count.

Each game is played by the seeded random driver of ``stellwerk.selfplay`` from a seed drawn at
random (the master seed is printed, so a whole run can be repeated).  The run stops at the first
engine failure - an internal error, an offered action the engine refuses, or a game where
nobody can act - and prints one reproducer line (a ``stellwerk selfplay`` command) and writes
the game before the failing action.  At the end it prints, per title, option set and player
count, how many games ran clean.

    .venv/bin/python scripts/fuzz_selfplay.py --games 3 --max-actions 300   # quick look
    .venv/bin/python scripts/fuzz_selfplay.py --minutes 60 --workers 2      # long run

Games are independent, so they run in ``--workers`` processes (default 2, the machine's cores).
A game that takes longer than ``--game-seconds`` is stopped and counted as "slow", not failed.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import shlex
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stellwerk.api import Game
from stellwerk.selfplay import SelfplayFailure, describe_error, play, reproducer, try_untaken

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from fuzz_cases import TITLE_IDS, cases


@dataclass(frozen=True)
class Job:
    """One game to play."""

    title: str
    players: int
    options: tuple[str, ...]
    seed: int
    max_actions: int
    game_seconds: float
    siblings: float = 0.0
    sibling_tries: int = 0

    def command(self, max_actions: int | None = None) -> str:
        """The ``stellwerk selfplay`` command that plays this game again."""
        cap = self.max_actions if max_actions is None else max_actions
        return reproducer(self.title, self.players, self.seed, self.options, cap)


@dataclass
class Result:
    """How one game went: ``status`` finished, capped, slow, internal, refused or stuck."""

    job: Job
    status: str
    actions: int
    seconds: float
    message: str = ""
    game_file: dict[str, Any] | None = field(default=None, repr=False)
    cpu: float = 0.0
    again: str = ""

    @property
    def failed(self) -> bool:
        return self.status in ("internal", "refused", "stuck")


class TooSlow(Exception):
    """A game ran past its time budget (not an engine failure)."""


def run_job(job: Job) -> Result:
    """Play one game; never raises for an engine failure (it is the result)."""
    started = time.monotonic()
    cpu_started = time.process_time()
    players: list[tuple[int | str, str]] = [(i, f"Player {i}") for i in range(1, job.players + 1)]
    game = Game.create(job.title, players, list(job.options), job.seed)

    explore = random.Random(job.seed + 1)  # its own stream: the game itself stays the same

    def after(_game: Any, _action: Any, _rng: Any) -> None:
        if time.monotonic() - started > job.game_seconds:
            raise TooSlow
        if job.siblings and not game.finished and explore.random() < job.siblings:
            try_untaken(game, explore, job.sibling_tries, len(game.actions))

    try:
        outcome = play(game, job.seed, job.max_actions, after_action=after)
    except TooSlow:
        took = time.monotonic() - started
        return Result(job, "slow", len(game.actions), took, f"stopped after {took:.0f} s")
    except SelfplayFailure as failure:
        took = time.monotonic() - started
        result = Result(job, failure.kind, failure.index, took, str(failure), game.to_file())
        if failure.untaken:
            act = shlex.quote(json.dumps(failure.action))
            result.message += f"; action {json.dumps(failure.action)}"
            result.again = f"{job.command(failure.index)} && stellwerk act game.json {act}"
        return result
    except Exception as error:  # the fuzz reports every failure, it judges none
        took = time.monotonic() - started
        text = f"internal error outside the engine's process: {describe_error(error)}"
        return Result(job, "internal", len(game.actions), took, text, game.to_file())
    took = time.monotonic() - started
    if outcome.stuck:
        return Result(job, "stuck", outcome.actions, took, outcome.stopped_because, game.to_file())
    status = "finished" if outcome.finished else "capped"
    cpu = time.process_time() - cpu_started
    return Result(job, status, outcome.actions, took, outcome.stopped_because, cpu=cpu)


def jobs(args: argparse.Namespace, rng: random.Random) -> Iterator[Job]:
    """Round-robin over the combinations, ``--games`` each (endless with ``--games 0``)."""
    combos = cases(args.titles)
    round_number = 0
    while args.games == 0 or round_number < args.games:
        order = list(combos)
        rng.shuffle(order)
        for title, options, players in order:
            seed = rng.randrange(1, 2**31)
            yield Job(
                title,
                players,
                options,
                seed,
                args.max_actions,
                args.game_seconds,
                args.siblings,
                args.sibling_tries,
            )
        round_number += 1


def label(title: str, options: tuple[str, ...]) -> str:
    return f"{title} [{'+'.join(options) or 'no options'}]"


def report(results: list[Result]) -> None:
    """Clean games per title, option set and player count, and the time they took."""
    table: dict[tuple[str, tuple[str, ...]], Counter[str]] = {}
    seconds: Counter[str] = Counter()
    for result in results:
        key = (result.job.title, result.job.options)
        counts = table.setdefault(key, Counter())
        counts[result.status] += 1
        counts[f"p{result.job.players}"] += 0 if result.failed else 1
        seconds[result.job.title] += round(result.seconds)
    print("\nclean games (finished / capped / slow) per option set, and per player count:")
    for (title, options), counts in sorted(table.items()):
        per_players = " ".join(f"{k}:{v}" for k, v in sorted(counts.items()) if k[0] == "p")
        failed = sum(counts[s] for s in ("internal", "refused", "stuck"))
        print(
            f"  {label(title, options)}: {counts['finished']} / {counts['capped']} / "
            f"{counts['slow']}" + (f", FAILED {failed}" if failed else "") + f" ({per_players})"
        )
    for title in sorted(seconds):
        games = [r for r in results if r.job.title == title]
        clean = sum(1 for r in games if not r.failed)
        actions = sum(r.actions for r in games)
        cpu = sum(r.cpu for r in games)
        print(
            f"  {title}: {clean} clean of {len(games)}, {actions} actions, "
            f"{seconds[title]} s wall, {cpu:.0f} s CPU"
        )


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--titles", default="1849,1835", help="comma-separated titles")
    parser.add_argument("--games", type=int, default=1, help="games per combination (0: no end)")
    parser.add_argument("--minutes", type=float, default=0, help="stop starting games after this")
    parser.add_argument("--max-actions", type=int, default=10_000, help="cap per game")
    parser.add_argument("--game-seconds", type=float, default=300, help="time budget per game")
    parser.add_argument(
        "--siblings",
        type=float,
        default=0.05,
        help="share of positions where other offered actions are tried on a copy",
    )
    parser.add_argument("--sibling-tries", type=int, default=6, help="actions tried there")
    parser.add_argument("--workers", type=int, default=2, help="parallel processes")
    parser.add_argument("--seed", type=int, default=None, help="master seed (default: random)")
    parser.add_argument("--out", type=Path, default=Path("/tmp/stellwerk-fuzz"), help="failures")
    parser.add_argument("--keep-going", action="store_true", help="do not stop at a failure")
    args = parser.parse_args(argv)
    args.titles = [t for t in args.titles.split(",") if t]
    unknown = [t for t in args.titles if t not in TITLE_IDS]
    if unknown:
        parser.error(f"unknown titles {unknown}; known: {sorted(TITLE_IDS)}")
    return args


def save_failure(result: Result, out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    job = result.job
    name = f"{job.title}_p{job.players}_s{job.seed}_{'+'.join(job.options) or 'plain'}.json"
    path = out / name
    path.write_text(json.dumps(result.game_file), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    """Run the fuzz; exit 0 when every game ran clean, 1 at a failure."""
    args = parse(argv)
    master = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    print(f"fuzz master seed {master} (repeat with --seed {master})", flush=True)
    rng = random.Random(master)
    deadline = time.monotonic() + args.minutes * 60 if args.minutes else None
    results: list[Result] = []
    failures: list[Result] = []

    def todo() -> Iterator[Job]:
        for job in jobs(args, rng):
            if deadline is not None and time.monotonic() > deadline:
                return
            yield job

    with multiprocessing.get_context("fork").Pool(args.workers, maxtasksperchild=50) as pool:
        for result in pool.imap_unordered(run_job, todo()):
            results.append(result)
            job = result.job
            print(
                f"{result.status:8} {label(job.title, job.options)} p{job.players} "
                f"seed {job.seed}: {result.actions} actions, {result.seconds:.1f} s"
                f" ({result.cpu:.1f} s CPU)",
                flush=True,
            )
            if result.failed:
                failures.append(result)
                path = save_failure(result, args.out)
                print(f"FAILURE: {result.message}", flush=True)
                print(f"  reproduce: {result.again or job.command()}", flush=True)
                print(f"  game before the failing action: {path}", flush=True)
                if not args.keep_going:
                    pool.terminate()
                    break
    report(results)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
