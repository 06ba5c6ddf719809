"""Latency per action through the JSON API on localhost with SQLite (issue 11: p95 50 ms).

Usage: python bench/web_api.py [--games 4] [--actions 60] [--seed 1]

Starts ``stellwerk serve --port 0`` on an SQLite file in a temporary folder (a separate
process, as in use), creates GAMES 1849 games of four players and plays them at once, one
thread per game, each action chosen from the legal actions as the selfplay driver does (tile
lays asked for hex by hex with ``?hex=``).  Timed is each ``POST /api/games/{id}/actions``,
from sending to the 200 answer, on the client's wall clock (it includes the commit with
``synchronous=FULL``); the ``GET`` that shows the game before it is timed apart.  Prints
count, median, p95 and worst of both, the share of actions over 50 ms, and the server's CPU
time per request with the machine's load average (wall times on a shared machine grow with
its load; the CPU time tells what the server itself spends).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from stellwerk.selfplay import choose_action

REPO = Path(__file__).resolve().parents[1]
TARGET_MS = 50.0


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    exe = REPO / ".venv" / "bin" / "stellwerk"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "stellwerk"]
    process = subprocess.Popen(
        [*command, "serve", "--port", "0", "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if "http://" not in line:
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return process, "http://" + line.split("http://", 1)[1].split("/", 1)[0]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pick(client: httpx.Client, key: str, token: str, view: dict[str, Any],
         rng: random.Random) -> dict[str, Any] | None:  # fmt: skip
    mine = set(view.get("yours", []))
    legal = [a for a in view["legal_actions"] if a.get("entity") in mine]
    hexes = list(view.get("lay_hexes", []))
    if not legal and not hexes:
        return None

    def lay() -> dict[str, Any] | None:
        rng.shuffle(hexes)
        for hex_id in hexes[:6]:
            got = client.get(f"/api/games/{key}", params={"hex": hex_id},
                             headers={"authorization": f"Bearer {token}"})  # fmt: skip
            lays = [a for a in got.json()["hex_lays"] if a.get("entity") in mine]
            if lays:
                return dict(rng.choice(lays))
        return None

    if not legal:
        return lay()
    return dict(choose_action(legal, rng, lay if hexes else None))


def play(url: str, seed: int, actions: int, posts: list[float], gets: list[float]) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=url, timeout=60) as client:
        created = client.post(
            "/api/games",
            json={"title": "1849", "players": ["Ann", "Bob", "Cid", "Dan"], "seed": seed},
        ).json()
        key = created["id"]
        seats = {p["id"]: p["token"] for p in created["players"]}
        done = 0
        while done < actions:
            for token in seats.values():
                auth = {"authorization": f"Bearer {token}"}
                start = time.perf_counter()
                view = client.get(f"/api/games/{key}", headers=auth).json()
                gets.append(time.perf_counter() - start)
                if view["finished"]:
                    return
                action = pick(client, key, token, view, rng)
                if action is None:
                    continue
                start = time.perf_counter()
                answer = client.post(
                    f"/api/games/{key}/actions",
                    json={"action": action, "base": view["action_count"]},
                    headers=auth,
                )
                took = time.perf_counter() - start
                if answer.status_code != 200:
                    raise SystemExit(f"{answer.status_code} {answer.text} for {action}")
                posts.append(took)
                done += 1
                break


def describe(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[max(0, round(0.95 * len(ms)) - 1)]
    over = sum(1 for m in ms if m > TARGET_MS) / len(ms)
    return (
        f"{name}: n={len(ms)} median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, "
        f"max {ms[-1]:.1f} ms, over {TARGET_MS:.0f} ms: {over:.1%}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--actions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder) / "bench.db")
        try:
            posts: list[float] = []
            gets: list[float] = []
            threads = [
                threading.Thread(target=play, args=(url, args.seed + n, args.actions, posts, gets))
                for n in range(args.games)
            ]
            start = time.perf_counter()
            cpu = cpu_seconds(process.pid)
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            wall = time.perf_counter() - start
            cpu = cpu_seconds(process.pid) - cpu
        finally:
            process.terminate()
            process.wait(10)
    print(f"{args.games} games of 1849 at once, {len(posts)} actions in {wall:.1f} s ({url})")
    print(describe("POST action", posts))
    print(describe("GET game", gets))
    requests = len(posts) + len(gets)
    print(f"server CPU {cpu:.2f} s = {1000 * cpu / max(1, requests):.1f} ms per request "
          f"(every request; load average {os.getloadavg()[0]:.1f})")  # fmt: skip


if __name__ == "__main__":
    main()
