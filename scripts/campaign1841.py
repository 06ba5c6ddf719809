"""A differential campaign for 1841 against 18xx.games' engine (local only; CI never runs it).

Plays, in the background with a time budget, games of two kinds over all 16 sets of 18xx.games'
four 1841 options (``version_1``, ``lite``, ``p2p_purchases``, ``sfli_run_variant``) and 3-8
players (3-6 with ``lite``):

* **random**: a random legal game played by 18xx.games' engine (``randgame.rb``), its trace
  written by that engine (``trace.rb``), and our replay of the file against the trace;
* **selfplay**: a game of our seeded driver (``stellwerk selfplay``), replayed by 18xx.games'
  engine with a trace that stops at the first action it refuses (``trace_strict.rb``), and our
  replay of our file against that trace.

Each game gets one verdict, appended as a JSON line to ``OUT/campaign.jsonl`` as soon as it
is known (a killed campaign keeps what it found), and ``OUT/report.md`` is rewritten after every
game with the counts per kind and verdict and one line per divergence:

* ``match``: the same state after every action, and the same result;
* ``theirs``: 18xx.games is wrong, recognised by the known defects of docs/architecture.md
  (A-Q) that this script can tell from the position: 18xx.games' own trace and load disagree
  (J), it refuses an action of ours in a position the selfplay driver's defect checks flag
  (or an answer of a run of ``choose`` answers right after a move they flag: D's Tuscan merge
  waits for the secession's questions, or any earlier move flagged M or P, whose bent
  percentage book is read later, or the move just before it flagged Q, after which the turn
  went to another entity there -- not met in our files since live play writes that skip as
  the player's pass, which the veto leaves to it), or its random game made a move those
  checks flag before the first difference (M, P);
* ``ours``: a divergence in a random game of 18xx.games where our engine refuses an action its
  engine took, or fails; these are ours until shown otherwise;
* ``unknown``: any other difference (the first differing value is in the line): to be
  diagnosed by hand, then fixed with a unit test built from the position, or documented.

The oracle must be laid out in /tmp/x18 (../shared/tools/oracle/README.md).

    .venv/bin/python scripts/campaign1841.py --minutes 120 --out /tmp/campaign41 &
    .venv/bin/python scripts/campaign1841.py --games 4 --kind random --seed-base 900
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
STELLWERK = [sys.executable, "-m", "stellwerk"]
"""Our CLI, run by this interpreter with this checkout's sources first (a worktree has no
virtual environment of its own)."""
ORACLE = Path("/tmp/x18")
OPTIONS = ("lite", "p2p_purchases", "sfli_run_variant", "version_1")
STRICT_PATCH = (
    "      game.process_action(a)",
    "      game.process_action(a)\n"
    "      if (ex = game.instance_variable_get(:@exception))\n"
    '        f.puts(JSON.generate({ "refused_action_id" => a["id"], '
    '"error" => ex.message[0, 500] }))\n'
    "        exit 3\n"
    "      end",
)


def option_sets() -> list[tuple[str, ...]]:
    """All 16 subsets of 18xx.games' four 1841 options."""
    return [c for r in range(len(OPTIONS) + 1) for c in itertools.combinations(OPTIONS, r)]


def players_for(options: tuple[str, ...]) -> list[int]:
    """1841: 3-8 players; lite 3-6 (rules/1841.md §1, lite)."""
    return list(range(3, 7)) if "lite" in options else list(range(3, 9))


@dataclass
class Verdict:
    kind: str
    seed: int
    players: int
    options: tuple[str, ...]
    verdict: str
    actions: int = 0
    detail: str = ""
    file: str = ""
    seconds: float = 0.0


def _run(args: list[str], cwd: Path | None = None, timeout: float = 1800,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:  # fmt: skip
    ours = {"ENGINE_LOG_LEVEL": "4", "PYTHONPATH": str(REPO / "src")}
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **ours, **(env or {})})  # fmt: skip


def _replay(game: Path, trace: Path, stop_at_trace_end: bool = False) -> dict[str, object]:
    """Our replay of ``game`` against ``trace``: the JSON report (or why there is none).
    ``stop_at_trace_end``: the trace's refusal line is left out first (a cut game)."""
    if stop_at_trace_end:
        lines = trace.read_text(encoding="utf-8").splitlines()
        kept = [x for x in lines if '"refused_action_id"' not in x]
        trace = trace.with_suffix(".cut.jsonl")
        trace.write_text("\n".join(kept) + "\n", encoding="utf-8")
    done = _run([*STELLWERK, "replay", str(game), "--trace", str(trace),
                 "--json"])  # fmt: skip
    lines = [x for x in done.stdout.splitlines() if x.startswith("{")]
    if not lines:
        return {"error": (done.stderr or done.stdout)[-400:], "exit": done.returncode}
    report: dict[str, object] = json.loads(lines[-1])
    report["exit"] = done.returncode
    return report


def _summary(report: dict[str, object]) -> str:
    keep = {k: v for k, v in report.items() if k not in ("players", "result", "recorded")}
    return json.dumps(keep, ensure_ascii=False)[:600]


def _refused(trace: Path) -> dict[str, object] | None:
    """The line of the action 18xx.games refused, if its strict trace ended on one."""
    if not trace.exists():
        return None
    last = None
    with trace.open(encoding="utf-8") as handle:
        for line in handle:
            last = line
    if last and '"refused_action_id"' in last:
        refused: dict[str, object] = json.loads(last)
        return refused
    return None


def random_game(seed: int, players: int, options: tuple[str, ...], out: Path,
                max_seconds: int) -> Verdict:  # fmt: skip
    """A random game of 18xx.games' engine, traced by it, replayed by ours."""
    name = out / f"rg_{players}p_s{seed}_{'+'.join(options) or 'default'}"
    game, trace = name.with_suffix(".json"), name.with_suffix(".trace.jsonl")
    verdict = Verdict("random", seed, players, options, "unknown", file=str(game))
    made = _run(["ruby", "-Ishim", "randgame.rb", "1841", str(players), str(seed), str(game),
                 *options], cwd=ORACLE, env={"RG_MAX_SECONDS": str(max_seconds)})  # fmt: skip
    if not game.exists():
        verdict.verdict, verdict.detail = "skipped", f"randgame failed: {made.stderr[-300:]}"
        return verdict
    traced = _run(["ruby", "-Ishim", "trace_strict.rb", str(game), str(trace)], cwd=ORACLE)
    refused = _refused(trace)
    note = ""
    if refused is not None:
        # the generator recorded an action its own engine refuses (silently, in a one-go
        # load): compare the game up to the action before it
        cut = int(str(refused.get("refused_action_id", 0)))
        data = json.loads(game.read_text(encoding="utf-8"))
        data["actions"] = [a for a in data["actions"] if int(a["id"]) < cut]
        data.pop("result", None)
        game = name.with_suffix(".cut.json")
        game.write_text(json.dumps(data), encoding="utf-8")
        note = f"18xx.games refused its own action {cut} ({str(refused.get('error'))[:120]}); "
        note += "compared before it. "
    elif traced.returncode != 0:
        verdict.verdict, verdict.detail = "skipped", f"trace failed: {traced.stderr[-300:]}"
        return verdict
    judged = _judge(verdict, _replay(game, trace, stop_at_trace_end=refused is not None), game,
                    random_kind=True)  # fmt: skip
    judged.detail = note + judged.detail
    return judged


def selfplay_game(seed: int, players: int, options: tuple[str, ...], out: Path,
                  max_actions: int) -> Verdict:  # fmt: skip
    """A game of our driver, replayed and traced by 18xx.games' engine, replayed by ours."""
    name = out / f"sp_{players}p_s{seed}_{'+'.join(options) or 'default'}"
    game, trace = name.with_suffix(".json"), name.with_suffix(".trace.jsonl")
    verdict = Verdict("selfplay", seed, players, options, "unknown", file=str(game))
    args = [
        *STELLWERK,
        "selfplay",
        "1841",
        "--players",
        str(players),
        "--seed",
        str(seed),
        "--max-actions",
        str(max_actions),
        "-o",
        str(game),
        "--veto",
        str(REPO / "tools" / "oracle_defects_1841.py") + ":veto",
    ]
    for option in options:
        args += ["--option", option]
    played = _run(args)
    if played.returncode not in (0,) or not game.exists():
        verdict.verdict = "ours"
        verdict.detail = f"selfplay failed ({played.returncode}): {played.stderr[-400:]}"
        return verdict
    _run(["ruby", "-Ishim", "trace_strict.rb", str(game), str(trace)], cwd=ORACLE)
    refused = _refused(trace)
    if refused is not None:
        verdict.actions = int(str(refused.get("refused_action_id", 0)))
        verdict.detail = (
            f"18xx.games refused action {refused.get('refused_action_id')}: "
            + str(refused.get("error", ""))[:300]
        )
        letter = _known_defect(game, verdict.actions)
        if letter is not None:  # a known defect the driver could not steer clear of
            verdict.verdict = "theirs"
            verdict.detail = f"defect {letter} (forced: no other move); " + verdict.detail
        elif (behind := _known_defect_behind(game, verdict.actions)) is not None:
            verdict.verdict = "theirs"
            verdict.detail = (
                f"defect {behind[0]} (forced: no other move) at action {behind[1]}, "
                "its questions answered since; " + verdict.detail
            )
        elif (turned := _turn_defect_before(game, verdict.actions)) is not None:
            verdict.verdict = "theirs"
            verdict.detail = (
                f"defect {turned[0]} (forced: no other move) at action {turned[1]}, "
                "the turn went elsewhere there; " + verdict.detail
            )
        elif (earlier := _defect_before(game, verdict.actions, BOOK_DEFECTS)) is not None:
            verdict.verdict = "theirs"
            verdict.detail = (
                f"defect {earlier[0]} at action {earlier[1]}, its book read since; "
                + verdict.detail
            )
        else:
            verdict.verdict = "unknown"
        return verdict
    return _judge(verdict, _replay(game, trace), game, random_kind=False)


BOOK_DEFECTS = frozenset({"M", "P"})
"""The defects that only bend 18xx.games' percentage book (docs/architecture.md M, P): their
move is accepted there, the book read later decides a presidency or a price, so a refusal
comes many actions after the move."""


def _known_defect(game: Path, action_id: int) -> str | None:
    """The letter of the known 18xx.games defect the action ``action_id`` of our game leads
    into (``tools/oracle_defects_1841.py``, :func:`known_defect`: the veto's, and Q), judged at
    the position before it."""
    sys.path.insert(0, str(REPO / "tools"))
    import oracle_defects_1841

    from stellwerk.api import Game

    data = json.loads(game.read_text(encoding="utf-8"))
    actions = data.get("actions", [])
    action = next((a for a in actions if a.get("id") == action_id), None)
    if action is None:
        return None
    try:
        before = Game.from_file({**data, "actions": [a for a in actions if a["id"] < action_id]})
    except Exception:  # a position ours cannot load: not a known defect
        return None
    bare = {k: v for k, v in action.items() if k not in ("id", "auto_actions", "created_at")}
    letter: str | None = oracle_defects_1841.known_defect(before, bare)
    return letter


TURN_DEFECTS = frozenset({"Q"})
"""The defects that hand the turn to another entity in 18xx.games' engine (docs/architecture.md
Q): the move is accepted there, and our next action, by an entity not to act there, is
refused -- in a file that does not hold the skipped entity's pass.  Our selfplay files hold
it (live play writes the skip as his automatic pass, ``stellwerk.api.Game._recorded_passes``),
so the driver's veto no longer steers clear of Q; files written before that, or as
18xx.games' server writes them, do not."""


def _turn_defect_before(game: Path, action_id: int) -> tuple[str, int] | None:
    """The known defect of :data:`TURN_DEFECTS`, with its action, of the move just before the
    refused action ``action_id`` of our game (Q: our selfplay lite+version_1, 3 players, seed
    76807, Player 2's purchase at action 478 left Player 1 to act there, his pass at 479 was
    refused; lite, 4 players, seed 76817, Player 3's sale at 922 left him to act there, Player
    1's sale at 923 was refused; both files written before live play wrote the skip as a pass,
    with which both replay on 18xx.games to their end); ``None`` when that move leads into
    none of them."""
    data = json.loads(game.read_text(encoding="utf-8"))
    actions = data.get("actions", [])
    at = next((i for i, a in enumerate(actions) if a.get("id") == action_id), None)
    if not at:
        return None
    move = int(actions[at - 1]["id"])
    letter = _known_defect(game, move)
    return (letter, move) if letter in TURN_DEFECTS else None


def _known_defect_behind(game: Path, action_id: int) -> tuple[str, int] | None:
    """The known defect, with its action, of the move just before the run of ``choose``
    answers that ends with the refused action ``action_id`` of our game: a defect that
    18xx.games meets only once the questions of the procedures that move began are answered
    (D: the Tuscan merge waits for the secession's questions, our selfplay 5 players
    sfli_run_variant seed 76703, the 4-train bought at action 1200, refused at 1210).
    ``None`` when the refused action is no answer or that move leads into no known defect."""
    data = json.loads(game.read_text(encoding="utf-8"))
    actions = data.get("actions", [])
    at = next((i for i, a in enumerate(actions) if a.get("id") == action_id), None)
    if at is None or actions[at].get("type") != "choose":
        return None
    before = at - 1
    while before >= 0 and actions[before].get("type") == "choose":
        before -= 1
    if before < 0:
        return None
    move = int(actions[before]["id"])
    letter = _known_defect(game, move)
    return (letter, move) if letter is not None else None


def _defect_before(
    game: Path, before_id: int, letters: frozenset[str] | None = None
) -> tuple[str, int] | None:
    """The first action of the game ``game`` before action ``before_id`` that was played into
    a known defect of 18xx.games' engine (``tools/oracle_defects_1841.py``: a player's move
    such as M's partial sale) -- by its generator in its own games, or, with ``letters``
    (only those defects looked for), by our driver when it had no other move -- with its
    letter; ``None`` if there is none."""
    sys.path.insert(0, str(REPO / "tools"))
    import oracle_defects_1841

    from stellwerk.api import Game

    data = json.loads(game.read_text(encoding="utf-8"))
    actions = [a for a in data.get("actions", []) if int(a.get("id", 0)) < before_id]
    # the turn checks (Q) try each stock round move on copies: only when they are looked for
    named = (oracle_defects_1841.known_defect if letters is None or letters & TURN_DEFECTS
             else oracle_defects_1841.veto)  # fmt: skip
    try:
        replayed = Game.from_file({**data, "actions": []})
        for action in actions:
            if action.get("type") in oracle_defects_1841.WATCHED_TYPES:
                bare = {k: v for k, v in action.items()
                        if k not in ("id", "auto_actions", "created_at")}  # fmt: skip
                letter = named(replayed, bare)
                if letter is not None and (letters is None or letter in letters):
                    return letter, int(action["id"])
            replayed.process(action, replay=True)
    except Exception:  # a position ours cannot reach: no known defect found
        return None
    return None


def _judge(verdict: Verdict, report: dict[str, object], game: Path, random_kind: bool) -> Verdict:
    """The verdict from our replay's report (module docstring)."""
    data = json.loads(game.read_text(encoding="utf-8"))
    verdict.actions = len(data.get("actions", []))
    exit_code = report.get("exit")
    if exit_code == 0:
        verdict.verdict = "match"
        return verdict
    verdict.detail = _summary(report)
    text = verdict.detail.lower()
    if random_kind and (exit_code == 4 or "refused" in text or "illegal" in text):
        verdict.verdict = "ours"
    elif random_kind and report.get("first_divergence") is None:
        # every state matched the trace but the result differs: the trace and the one-go
        # load of 18xx.games part (its defect J), or a score rule
        verdict.verdict = "unknown"
        verdict.detail = "result only (J?): " + verdict.detail
    else:
        verdict.verdict = "unknown"
    divergence = report.get("first_divergence")
    at = divergence.get("action_id") if isinstance(divergence, dict) else None
    if random_kind and verdict.verdict == "unknown" and isinstance(at, int):
        found = _defect_before(game, at)
        if found is not None:
            verdict.verdict = "theirs"
            verdict.detail = f"defect {found[0]} at action {found[1]}; " + verdict.detail
    return verdict


def write_report(out: Path, verdicts: list[Verdict], started: float) -> None:
    counts = Counter((v.kind, v.verdict) for v in verdicts)
    lines = [
        "# 1841 differential campaign",
        "",
        f"{len(verdicts)} games in {(time.time() - started) / 60:.1f} minutes.",
        "",
        "| kind | match | theirs | ours | unknown | skipped |",
        "|---|---|---|---|---|---|",
    ]
    for kind in ("random", "selfplay"):
        cells = [str(counts[(kind, v)]) for v in ("match", "theirs", "ours", "unknown", "skipped")]
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    lines += ["", "## Divergences", ""]
    for v in verdicts:
        if v.verdict not in ("match", "skipped"):
            lines.append(f"- **{v.verdict}** {v.kind} {v.players}p seed {v.seed} "
                         f"{'+'.join(v.options) or 'default'} ({v.actions} actions): "
                         f"{v.detail} [{v.file}]")  # fmt: skip
    (out / "report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/campaign41"))
    parser.add_argument("--minutes", type=float, default=60.0, help="time budget")
    parser.add_argument("--games", type=int, default=0, help="stop after N games (0: budget)")
    parser.add_argument("--kind", choices=("both", "random", "selfplay"), default="both")
    parser.add_argument("--seed-base", type=int, default=None,
                        help="first seed (default: drawn at random, printed)")  # fmt: skip
    parser.add_argument("--max-seconds", type=int, default=240,
                        help="cap of one random game's play (RG_MAX_SECONDS)")  # fmt: skip
    parser.add_argument("--max-actions", type=int, default=3000,
                        help="cap of one selfplay game")  # fmt: skip
    args = parser.parse_args(argv)
    if not (ORACLE / "trace.rb").exists():
        print(f"no oracle in {ORACLE} (../shared/tools/oracle/README.md)", file=sys.stderr)
        return 2
    strict = ORACLE / "trace_strict.rb"
    if not strict.exists():
        strict.write_text((ORACLE / "trace.rb").read_text().replace(*STRICT_PATCH))
    args.out.mkdir(parents=True, exist_ok=True)
    base = args.seed_base if args.seed_base is not None else random.randrange(10_000, 99_000)
    print(f"campaign: seeds from {base}, out {args.out}", flush=True)
    sets = option_sets()
    kinds = ["random", "selfplay"] if args.kind == "both" else [args.kind]
    started = time.time()
    log = args.out / "campaign.jsonl"
    verdicts: list[Verdict] = []  # a campaign going on in the same folder keeps the earlier
    if log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            found = json.loads(line)
            found["options"] = tuple(found["options"])
            verdicts.append(Verdict(**found))
    done_seeds = {v.seed for v in verdicts}
    for number in itertools.count():
        if base + number in done_seeds:
            continue
        if args.games and len(verdicts) >= args.games:
            break
        if time.time() - started > args.minutes * 60:
            break
        seed = base + number
        chance = random.Random(seed)
        options = sets[number % len(sets)]
        players = chance.choice(players_for(options))
        kind = kinds[number % len(kinds)]
        begin = time.time()
        try:
            if kind == "random":
                verdict = random_game(seed, players, options, args.out, args.max_seconds)
            else:
                verdict = selfplay_game(seed, players, options, args.out, args.max_actions)
        except subprocess.TimeoutExpired as error:
            verdict = Verdict(kind, seed, players, options, "skipped", detail=f"timeout {error}")
        verdict.seconds = round(time.time() - begin, 1)
        verdicts.append(verdict)
        with log.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(asdict(verdict), ensure_ascii=False) + "\n")
        write_report(args.out, verdicts, started)
        print(f"{kind} {players}p seed {seed} {'+'.join(options) or 'default'}: "
              f"{verdict.verdict} ({verdict.actions} actions, {verdict.seconds} s)",
              flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
